package dev.hookstile.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The layout's rules, checked on the built classes of {@code webhook-ejb}, {@code webhook-war} and {@code config}
 * together (the handler API and the test kit aside), so that the shape a newcomer reads in the README cannot rot
 * unnoticed:
 * <ul>
 *   <li>no cycle between features ({@code dev.hookstile.<feature>}), nor between packages;</li>
 *   <li>a feature uses another only through its published types: the feature's own package
 *       ({@code dev.hookstile.<feature>}: records, interfaces, exceptions), its {@code boundary} (entry points) and its
 *       {@code entity} (mapped tables), never its {@code control};</li>
 *   <li>no package is split across the two jars (in the EAR they sit in different class loaders);</li>
 *   <li>an {@code entity} package holds mapped entities, not SQL: the statements run through JDBC live in one holder
 *       per table, {@code <Table>Statements}, a final class in its feature's {@code control};</li>
 *   <li>a class over 300 lines says at its top why it is that long, in every module;</li>
 *   <li>the handler API ({@code webhook-api}) needs no container, only Java and JSON; the test kit
 *       ({@code webhook-test}) reaches Hookstile only through the handler API; the benchmark's code
 *       ({@code bench}, {@code bench/plain}) and the examples only through the handler API and the test kit (they
 *       are built only in their own builds, so their rule reads their sources' imports).</li>
 * </ul>
 */
class ArchitectureTest {

    private static JavaClasses hookstile;

    @BeforeAll
    static void importClasses() {
        hookstile = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.hookstile")
                .that(DescribedPredicate.describe("Hookstile's own modules",
                        c -> !c.getPackageName().startsWith("dev.hookstile.api")
                                && !c.getPackageName().startsWith("dev.hookstile.test")));
    }

    /** The handler API and the test kit, for their own rules. */
    private static JavaClasses published;

    @BeforeAll
    static void importPublished() {
        published = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.hookstile.api", "dev.hookstile.test");
    }

    private static String feature(JavaClass type) {
        String rest = type.getPackageName().substring("dev.hookstile.".length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    private static boolean ours(JavaClass type) {
        return type.getPackageName().startsWith("dev.hookstile.") && !type.getPackageName().startsWith("dev.hookstile.api");
    }

    @Test
    void theClassesOfBothModulesAreImported() {
        assertTrue(hookstile.contain("dev.hookstile.processing.control.EventTry"), "webhook-ejb's classes");
        assertTrue(hookstile.contain("dev.hookstile.ingest.boundary.http.WebhooksResource"), "webhook-war's classes");
    }

    @Test
    void noFeatureDependsOnItselfThroughAnother() {
        ArchRule rule = slices().matching("dev.hookstile.(*)..").should().beFreeOfCycles();
        rule.check(hookstile);
    }

    @Test
    void noPackageDependsOnItselfThroughAnother() {
        ArchRule rule = slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass type) {
                return SliceIdentifier.of(type.getPackageName());
            }

            @Override
            public String getDescription() {
                return "packages";
            }
        }).should().beFreeOfCycles();
        rule.check(hookstile);
    }

    @Test
    void featuresUseEachOtherOnlyThroughTheirPublishedTypes() {
        ArchRule rule = classes().should(new ArchCondition<>("use other features only through their own package,"
                + " boundary or entity") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                    JavaClass target = dependency.getTargetClass();
                    if (!ours(target) || feature(target).equals(feature(type))) {
                        continue;
                    }
                    String layer = target.getPackageName().substring(("dev.hookstile." + feature(target)).length());
                    if (!Set.of("", ".boundary", ".entity").contains(layer)) {
                        events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
                    }
                }
            }
        });
        rule.check(hookstile);
    }

    private static final Pattern SQL = Pattern.compile("(?is)\\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\\s.*");

    @Test
    void entitiesHoldNoStatements() throws ReflectiveOperationException {
        var statements = new TreeSet<String>();
        int entities = 0;
        for (JavaClass type : hookstile) {
            if (!type.getPackageName().endsWith(".entity")) {
                continue;
            }
            entities++;
            for (Field field : Class.forName(type.getName()).getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                    field.setAccessible(true);
                    if (field.get(null) instanceof String value && SQL.matcher(value).matches()) {
                        statements.add(type.getSimpleName() + "." + field.getName());
                    }
                }
            }
        }
        assertTrue(entities > 5, "entities found: " + entities);
        assertEquals(new TreeSet<>(), statements, "SQL constants in entity packages (they belong in a *Statements holder)");
    }

    @Test
    void statementHoldersAreFinalClassesInTheirFeaturesControl() {
        ArchRule rule = classes().that().haveSimpleNameEndingWith("Statements")
                .should().resideInAPackage("dev.hookstile.*.control")
                .andShould().haveModifier(JavaModifier.FINAL)
                .andShould().haveOnlyPrivateConstructors();
        rule.check(hookstile);
    }

    /** Every module's own code (not its tests): main sources, and the load generator's. */
    private static List<Path> codeOfEveryModule() throws IOException {
        try (Stream<Path> files = Files.walk(Path.of(".."))) {
            return files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> !f.toString().contains("/target/") && !f.toString().contains("/node_modules/"))
                    .filter(f -> f.toString().contains("/src/main/java/") || f.toString().contains("/src/load/java/"))
                    .toList();
        }
    }

    @Test
    void everyModulesCodeIsFound() throws IOException {
        var modules = new TreeSet<String>();
        for (Path file : codeOfEveryModule()) {
            modules.add(file.toString().replaceAll("^\\.\\./|/src/.*$", ""));
        }
        assertTrue(modules.containsAll(List.of("webhook-api", "webhook-test", "webhook-ejb", "webhook-war", "config",
                "bench", "bench/plain", "examples/handler-example/handler")), modules.toString());
    }

    /** A class a newcomer must read whole is short, or says at its top why it is not. */
    @Test
    void aClassOverThreeHundredLinesSaysWhy() throws IOException {
        var unexplained = new TreeSet<String>();
        for (Path file : codeOfEveryModule()) {
            List<String> lines = Files.readAllLines(file);
            if (lines.size() > 300 && lines.stream().noneMatch(l -> l.contains("Longer than 300 lines because"))) {
                unexplained.add(Path.of("..").relativize(file) + " (" + lines.size() + " lines)");
            }
        }
        assertEquals(new TreeSet<>(), unexplained, "classes over 300 lines without \"Longer than 300 lines because\"");
    }

    @Test
    void theHandlerApiNeedsNoContainer() {
        ArchRule rule = classes().that().resideInAPackage("dev.hookstile.api..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "jakarta.json..", "dev.hookstile.api..");
        rule.check(published);
    }

    @Test
    void theTestKitReachesHookstileOnlyThroughTheHandlerApi() {
        ArchRule rule = classes().that().resideInAPackage("dev.hookstile.test..")
                .should().onlyDependOnClassesThat(DescribedPredicate.describe("outside Hookstile, or its handler API",
                        (JavaClass c) -> !c.getPackageName().startsWith("dev.hookstile.")
                                || c.getPackageName().startsWith("dev.hookstile.api")
                                || c.getPackageName().startsWith("dev.hookstile.test")));
        rule.check(published);
    }

    private static final Pattern HOOKSTILE_IMPORT = Pattern.compile("^import (static )?dev\\.hookstile\\.([a-z]+)\\b.*");

    /**
     * The one file of the benchmark that measures the product's own hand-off rather than what a user writes: the
     * shape's floor (phase h3) stores each event through the queue's boundary, as ingest's sender does.
     */
    private static final String SHAPE_FLOOR = "../bench/src/main/java/dev/hookstile/bench/QueuedResource.java";

    /** What a user could write themselves: the benchmark's handler and receivers, and the examples. */
    @Test
    void theBenchmarkAndTheExamplesUseOnlyTheHandlerApiAndTheTestKit() throws IOException {
        var reaching = new TreeSet<String>();
        for (Path file : codeOfEveryModule()) {
            String path = file.toString();
            if (!path.startsWith("../bench/") && !path.startsWith("../examples/")) {
                continue;
            }
            for (String line : Files.readAllLines(file)) {
                var imported = HOOKSTILE_IMPORT.matcher(line);
                boolean queueBoundary = line.startsWith("import dev.hookstile.queue.boundary.");
                if (imported.matches() && !Set.of("api", "test", "bench").contains(imported.group(2))
                        && !(path.equals(SHAPE_FLOOR) && queueBoundary)) {
                    reaching.add(Path.of("..").relativize(file) + ": " + line);
                }
            }
        }
        assertEquals(new TreeSet<>(), reaching, "imports of Hookstile's internals");
    }

    @Test
    void noPackageIsSplitAcrossTheJars() {
        var modulesOf = new TreeMap<String, Set<String>>();
        for (JavaClass type : hookstile) {
            String location = type.getSource().map(source -> source.getUri().toString()).orElse("");
            String module = location.contains("webhook-ejb") ? "webhook-ejb"
                    : location.contains("webhook-war") ? "webhook-war"
                    // Another module's classes, from its jar or (a build that stops before packaging) its directory.
                    : location.replaceAll("(/target/classes/|\\.jar!/).*", "");
            modulesOf.computeIfAbsent(type.getPackageName(), p -> new TreeSet<>()).add(module);
        }
        var split = new TreeMap<String, Set<String>>();
        modulesOf.forEach((pkg, modules) -> {
            if (modules.size() > 1) {
                split.put(pkg, modules);
            }
        });
        assertTrue(modulesOf.values().stream().anyMatch(m -> m.contains("webhook-ejb"))
                && modulesOf.values().stream().anyMatch(m -> m.contains("webhook-war")), modulesOf.toString());
        assertEquals(new TreeMap<>(), split, "packages with classes in both jars");
    }
}
