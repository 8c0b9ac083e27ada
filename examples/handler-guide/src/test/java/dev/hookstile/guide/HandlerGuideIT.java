package dev.hookstile.guide;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * docs/handlers.md's "A project from nothing", as a reader follows it: every block of the page marked with a file
 * name ({@code ```java file=src/main/java/...}) is written into an empty directory outside the repository, and that
 * project is built with {@code mvn verify}. Its unit test and its IT must run and pass: the IT deploys the handler
 * into Hookstile on Payara Micro and PostgreSQL, where the handler's migration creates its table.
 *
 * <p>The project resolves Hookstile's artifacts as a reader's {@code ./mvnw install} would have left them, from a
 * local repository of this run's own (the pom lays this build's artifacts out there), so nothing is installed into
 * the shared one; everything else comes, offline, from this build's local repository, chained behind it
 * ({@code maven.repo.local.tail}), so nothing is downloaded twice.
 */
class HandlerGuideIT {

    private static final Path HOME = Path.of(System.getProperty("hookstile.home")).toAbsolutePath().normalize();
    /** A fenced block whose info string names the file it is: {@code ```xml file=pom.xml}. */
    private static final Pattern FILE_BLOCK = Pattern.compile("(?m)^```[a-z]+ file=(\\S+)\\n(.*?)^```$",
            Pattern.DOTALL);
    private static final Pattern SUITE = Pattern.compile("<testsuite [^>]*>");
    private static final long PATIENCE_MINUTES = 6;

    /** The page's files, by path, in the page's order. */
    static Map<String, String> guideFiles(String page) {
        var files = new LinkedHashMap<String, String>();
        Matcher block = FILE_BLOCK.matcher(page);
        while (block.find()) {
            String path = block.group(1);
            if (path.startsWith("/") || path.contains("..")) {
                throw new IllegalArgumentException("a block's file must stay inside the project: " + path);
            }
            if (files.put(path, block.group(2)) != null) {
                throw new IllegalArgumentException("two blocks for " + path);
            }
        }
        return files;
    }

    @Test
    void theGuidesProjectBuildsFromItsSnippetsAloneAndItsTestsPass() throws Exception {
        Map<String, String> files = guideFiles(Files.readString(HOME.resolve("docs/handlers.md")));
        assertTrue(files.containsKey("pom.xml"), "the guide's project has a pom.xml: " + files.keySet());
        assertTrue(files.keySet().stream().anyMatch(f -> f.startsWith("src/main/resources/db/handler-migration/")),
                "the guide ships its table as a handler migration: " + files.keySet());
        String parentVersion = property(Files.readString(HOME.resolve("handler-parent/pom.xml")), "hookstile.version");
        assertEquals(System.getProperty("hookstile.version"), parentVersion,
                "handler-parent's hookstile.version must be Hookstile's own version");

        Path project = Files.createTempDirectory("hookstile-guide-");
        Path reports = Files.createDirectories(Path.of(System.getProperty("guide.reports")));
        Path log = reports.resolve("build.log");
        for (var file : files.entrySet()) {
            Path target = project.resolve(file.getKey());
            Files.createDirectories(target.getParent());
            Files.writeString(target, file.getValue());
        }

        Path mvn = Path.of(System.getProperty("guide.maven"), "bin", "mvn");
        var build = new ProcessBuilder(mvn.toString(), "-B", "--offline", "--no-transfer-progress",
                "-Dmaven.repo.local=" + Path.of(System.getProperty("guide.repository")).toAbsolutePath(),
                "-Dmaven.repo.local.tail=" + System.getProperty("guide.tail"),
                "verify")
                .directory(project.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // Not the settings of the build around the test: the reader's shell has none of them.
        build.environment().remove("MAVEN_ARGS");
        build.environment().remove("MAVEN_OPTS");
        Process maven = build.start();
        if (!maven.waitFor(PATIENCE_MINUTES, TimeUnit.MINUTES)) {
            maven.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            fail("the guide's project did not build within " + PATIENCE_MINUTES + " minutes; see " + log);
        }
        keep(project.resolve("target/surefire-reports"), reports.resolve("surefire-reports"));
        keep(project.resolve("target/failsafe-reports"), reports.resolve("failsafe-reports"));
        assertEquals(0, maven.exitValue(), () -> "mvn verify of the guide's project (" + project + ") failed:\n"
                + tail(log));

        assertRan(reports.resolve("surefire-reports"), "Test");
        assertRan(reports.resolve("failsafe-reports"), "IT");
        deleteRecursively(project);
    }

    /** Each report of tests whose class name ends so ran at least one test, and none failed or was skipped. */
    private static void assertRan(Path reports, String suffix) throws IOException {
        List<Path> suites;
        try (Stream<Path> found = Files.list(reports)) {
            suites = found.filter(p -> p.getFileName().toString().matches("TEST-.*" + suffix + "\\.xml")).toList();
        }
        assertTrue(!suites.isEmpty(), "no *" + suffix + " ran: " + reports);
        for (Path suite : suites) {
            Matcher head = SUITE.matcher(Files.readString(suite));
            assertTrue(head.find(), suite.toString());
            String tag = head.group();
            assertTrue(Integer.parseInt(attribute(tag, "tests")) > 0, tag);
            for (String none : new String[] {"failures", "errors", "skipped"}) {
                assertEquals("0", attribute(tag, none), tag);
            }
        }
    }

    private static String attribute(String tag, String name) {
        Matcher value = Pattern.compile("\\s" + name + "=\"([^\"]*)\"").matcher(tag);
        assertTrue(value.find(), name + " in " + tag);
        return value.group(1);
    }

    private static String property(String pom, String name) {
        Matcher value = Pattern.compile("<" + Pattern.quote(name) + ">([^<]*)</").matcher(pom);
        assertTrue(value.find(), "no property " + name);
        return value.group(1).strip();
    }

    /** The project's reports into this module's target, where CI keeps them, before the project is deleted. */
    private static void keep(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            return;
        }
        deleteRecursively(to);
        Files.createDirectories(to);
        try (Stream<Path> reports = Files.list(from)) {
            for (Path report : reports.filter(Files::isRegularFile).toList()) {
                Files.copy(report, to.resolve(report.getFileName()));
            }
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(" + log + " unreadable: " + e + ")";
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
