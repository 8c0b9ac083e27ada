package dev.hookstile.platform.control;

import dev.hookstile.api.TransientFailure;
import org.eclipse.microprofile.config.ConfigProvider;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The application's data source, named in {@code @DataSourceDefinition} and pooled by the container. It reads the
 * database location from MicroProfile Config (see {@link DatabaseSettings}) and connects through whichever JDBC
 * driver on the application's class path accepts the URL.
 *
 * <p>Why not name the driver's own DataSource class: the class differs between PostgreSQL and the embedded H2, and
 * a {@code url} given to PGSimpleDataSource through the annotation can be overridden by the container's default
 * {@code serverName}. Reading the settings here keeps one contract, {@code HOOKSTILE_DB_URL}, for every packaging.
 */
public class ConfiguredDataSource implements DataSource {

    private static final Logger LOG = Logger.getLogger(ConfiguredDataSource.class.getName());

    private volatile Target target;
    private PrintWriter logWriter;
    private int loginTimeoutSeconds = 5;
    private int socketTimeoutSeconds;

    private record Target(Driver driver, DatabaseSettings settings) {
    }

    private Target target() throws SQLException {
        Target current = target;
        if (current == null) {
            synchronized (this) {
                current = target;
                if (current == null) {
                    ClassLoader loader = ConfiguredDataSource.class.getClassLoader();
                    DatabaseSettings settings = DatabaseSettings.from(ConfigProvider.getConfig(loader));
                    current = new Target(driverFor(settings.url(), loader), settings);
                    LOG.info("Hookstile database: " + settings.describe()
                            + (settings.embedded() ? " (embedded; set HOOKSTILE_DB_URL for PostgreSQL)" : ""));
                    target = current;
                }
            }
        }
        return current;
    }

    /** Whether the configuration names no database, so the embedded one serves (one process only). */
    public static boolean embedded(org.eclipse.microprofile.config.Config config) {
        return DatabaseSettings.from(config).embedded();
    }

    /**
     * The driver that accepts the URL, used directly, never through {@link DriverManager}. Loading a driver registers
     * it there, and that JDK class would hold it, its class loader and with it every library of the deployment after
     * an undeploy (one more copy per redeploy, for the life of the server): the application's own drivers are taken
     * out of it again at once ({@link #deregisterOwnDrivers}, again after Flyway and at undeployment). A driver of the
     * server's own (Payara's H2) stays.
     */
    private static Driver driverFor(String url, ClassLoader loader) throws SQLException {
        Driver found = null;
        for (Driver driver : ServiceLoader.load(Driver.class, loader)) {
            if (found == null && driver.acceptsURL(url)) {
                found = driver;
            }
        }
        deregisterOwnDrivers();
        if (found == null) {
            throw new SQLException("No JDBC driver on the class path accepts " + url.split("[?;]")[0]);
        }
        return found;
    }

    /**
     * Takes the drivers loaded by the application's class loaders (this class's, and its libraries', webhook-api's)
     * out of {@link DriverManager}. DriverManager shows a caller only the drivers its class loader can load, so this
     * must run while the application's loaders still work, not after the undeploy.
     */
    public static void deregisterOwnDrivers() {
        Set<ClassLoader> application = new HashSet<>(Arrays.asList(ConfiguredDataSource.class.getClassLoader(),
                TransientFailure.class.getClassLoader()));
        for (Driver driver : Collections.list(DriverManager.getDrivers())) {
            if (application.contains(driver.getClass().getClassLoader())) {
                try {
                    DriverManager.deregisterDriver(driver);
                } catch (SQLException | SecurityException e) {
                    LOG.log(Level.WARNING, e, () -> "Could not take the JDBC driver " + driver.getClass().getName()
                            + " out of DriverManager; it holds this deployment's classes until the server restarts");
                }
            }
        }
    }

    @Override
    public Connection getConnection() throws SQLException {
        Target t = target();
        return connect(t, t.settings().user(), t.settings().password());
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        return connect(target(), user, password);
    }

    private Connection connect(Target t, String user, String password) throws SQLException {
        var properties = new Properties();
        if (user != null) {
            properties.setProperty("user", user);
        }
        if (password != null) {
            properties.setProperty("password", password);
        }
        if (t.settings().url().startsWith("jdbc:postgresql:")) {
            // Bound every wait for a server that is unreachable or stops answering, unless the URL says otherwise
            // (its parameters take precedence): connecting, logging in, and each read.
            properties.setProperty("connectTimeout", String.valueOf(loginTimeoutSeconds));
            properties.setProperty("loginTimeout", String.valueOf(loginTimeoutSeconds));
            int socketTimeout = socketTimeoutSeconds > 0 ? socketTimeoutSeconds : t.settings().socketTimeoutSeconds();
            if (socketTimeout > 0) {
                properties.setProperty("socketTimeout", String.valueOf(socketTimeout));
            }
            properties.setProperty("ApplicationName", "hookstile");
        }
        Connection connection = t.driver().connect(t.settings().url(), properties);
        if (connection == null) {
            throw new SQLException("The JDBC driver refused the URL " + t.settings().describe());
        }
        return connection;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public void setLoginTimeout(int seconds) {
        if (seconds > 0) {
            this.loginTimeoutSeconds = seconds;
        }
    }

    /**
     * A pool's own bound on every read, in place of {@code hookstile.db.socket-timeout-seconds}; set from the
     * {@code socketTimeoutSeconds} property of its {@code @DataSourceDefinition}.
     */
    public void setSocketTimeoutSeconds(int seconds) {
        this.socketTimeoutSeconds = seconds;
    }

    public int getSocketTimeoutSeconds() {
        return socketTimeoutSeconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeoutSeconds;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw new SQLException("Not a wrapper for " + type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return type.isInstance(this);
    }
}
