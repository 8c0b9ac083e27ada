package dev.hookstile.start.boundary;

import dev.hookstile.operator.AdminTokenPlace;
import dev.hookstile.source.SourceConfigurationException;
import dev.hookstile.source.boundary.Sources;
import dev.hookstile.start.control.ClassScan;
import dev.hookstile.start.control.SettingsProblems;
import dev.hookstile.start.control.StandaloneConfig;
import dev.hookstile.start.control.StartLines;
import org.eclipse.microprofile.config.Config;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * {@code ./hookstile check}: the configuration as the server would read it, checked without starting a server, as
 * {@code nginx -t} checks nginx's. Prints each source as understood, where the operator token is and the database,
 * then the warnings and problems a start would have, a line each; never a secret. Exits 0 when a start would go on,
 * {@value #INVALID} when it would refuse.
 *
 * <p>Run by the launcher on the application unpacked into a directory ({@code <dir>/WEB-INF/classes}, {@code lib}),
 * with Payara Micro's jars after it on the class path for the APIs.
 */
public final class CheckCommand {

    /** The exit status of a configuration a start would refuse; the launcher exits with it too. */
    public static final int INVALID = 2;

    private CheckCommand() {
    }

    public static void main(String[] args) throws IOException {
        System.exit(run(Path.of(args[0]), System.getenv(), System.out));
    }

    static int run(Path war, Map<String, String> environment, PrintStream out) throws IOException {
        ClassLoader loader = CheckCommand.class.getClassLoader();
        Config config = new StandaloneConfig(loader, environment);
        List<String> warnings = new ArrayList<>();
        LogManager.getLogManager().reset();
        Logger root = Logger.getLogger("");
        root.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
        var found = new SettingsProblems(config);
        found.checkComponents(loader);
        ClassScan.wanted(war, loader).forEach(found::check);
        List<String> problems = found.all();
        try {
            StartLines.sources(new Sources(config).all()).forEach(out::println);
        } catch (SourceConfigurationException refused) {
            // Listed with the other problems below.
        }
        out.println(AdminTokenPlace.describe(config));
        out.println(StartLines.database(config));
        warnings.forEach(warning -> out.println("warning: " + warning));
        problems.forEach(problem -> out.println("problem: " + problem));
        if (problems.isEmpty()) {
            out.println("configuration OK" + (warnings.isEmpty() ? "" : " (" + warnings.size()
                    + (warnings.size() == 1 ? " warning)" : " warnings)")));
            return 0;
        }
        out.println(problems.size() + (problems.size() == 1 ? " setting" : " settings")
                + " to fix: a start would refuse this configuration");
        return INVALID;
    }
}
