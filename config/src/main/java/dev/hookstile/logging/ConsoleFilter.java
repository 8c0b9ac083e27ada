package dev.hookstile.logging;

import java.util.List;
import java.util.logging.Filter;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;

/**
 * What the launcher's console shows ({@code HOOKSTILE_LOG_LEVEL}): by default ({@code warning}) the start's own lines
 * (logger {@value #START}: the sources, the handlers, where the admin token is, a refused setting) and every warning
 * and error; with {@code info} or {@code fine}, everything at that level, as the log file under the data directory
 * always has it.
 *
 * <p>Three warnings that every start of Payara Micro prints, none of them about anything an operator can or need
 * change, go to the file only while the console is quiet: Hazelcast's {@code No join method is enabled! Starting
 * standalone} (Hookstile's member is alone on purpose, {@code config/src/main/payara/hazelcast.xml}); Payara's
 * {@code NCLS-SECURITY-05054} about expired certificates of retired authorities in its bundled trust store; and the
 * web container's note that it unregistered the JDBC driver its deployment class loader had registered.
 *
 * <p>A failed deployment's own records (the container's {@code Exception while loading the app}, the boot command's
 * {@code Boot Command deploy failed}, each repeating the whole cause several times) are left to {@link StartWatch},
 * which says in one line what failed, after the start's own lines have named any refused setting.
 */
public class ConsoleFilter implements Filter {

    /** The logger of what an operator must see at start; the application's {@code SettingsValidation.LOGGER}. */
    static final String START = "dev.hookstile.start";

    private static final List<String[]> NOISE = List.of(
            new String[] {"com.hazelcast.instance.impl.Node", "No join method is enabled"},
            new String[] {"javax.enterprise.system.security.ssl", "NCLS-SECURITY-05054"},
            new String[] {"javax.enterprise.system.security.ssl", "has expired"},
            new String[] {"jakarta.enterprise.web.util", "the JDBC Driver has been forcibly unregistered"});
    private static final List<String[]> FAILED_DEPLOYMENT = List.of(
            new String[] {"javax.enterprise.system.core", "Exception while loading the app"},
            new String[] {"javax.enterprise.system.core", "Exception during lifecycle processing"},
            new String[] {"fish.payara.boot.runtime.BootCommand", "Boot Command "});

    private static final java.util.logging.Formatter TEXT = new java.util.logging.SimpleFormatter();

    private final Level level;

    public ConsoleFilter() {
        String configured = LogManager.getLogManager().getProperty(ConsoleFilter.class.getName() + ".level");
        this.level = configured == null ? Level.WARNING : Level.parse(configured.trim().toUpperCase());
    }

    ConsoleFilter(Level level) {
        this.level = level;
    }

    @Override
    public boolean isLoggable(LogRecord record) {
        if (START.equals(record.getLoggerName())) {
            return true;
        }
        if (record.getLevel().intValue() < level.intValue()) {
            return false;
        }
        return level.intValue() < Level.WARNING.intValue()
                || !(matches(record, NOISE) || matches(record, FAILED_DEPLOYMENT));
    }

    private static boolean matches(LogRecord record, List<String[]> patterns) {
        String message = record.getMessage() == null ? "" : record.getMessage();
        if (record.getParameters() != null || record.getResourceBundle() != null) {
            message = message + " " + TEXT.formatMessage(record);
        }
        for (String[] known : patterns) {
            if (known[0].equals(record.getLoggerName()) && message.contains(known[1])) {
                return true;
            }
        }
        return false;
    }
}
