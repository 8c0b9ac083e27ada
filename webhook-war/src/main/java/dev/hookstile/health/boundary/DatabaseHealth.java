package dev.hookstile.health.boundary;

import dev.hookstile.platform.boundary.ContainerResources;
import dev.hookstile.platform.boundary.SchemaMigration;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import java.sql.Connection;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The database, checked with a real round trip, at most once a second ({@link RoundTripCheck}: the endpoint is
 * public). Down only while it is unreachable and this instance has not yet migrated the schema. Once the schema
 * exists, an outage is reported ({@code reachable: false}, for alerting) but does not make the instance unready:
 * ingest keeps accepting events into the broker while the database is down, and taking the instance out of the load
 * balancer then would turn a processing delay into refused deliveries.
 *
 * <p>The answer names only the kind of failure: health endpoints answer without credentials, and a driver's message
 * can carry host names, user names and authentication errors. The full message goes to the log, once per outage.
 */
@Readiness
@ApplicationScoped
public class DatabaseHealth extends RoundTripCheck {

    @Inject
    @ContainerResources.Database
    DataSource dataSource;

    @Inject
    SchemaMigration schema;

    private static final Logger LOG = Logger.getLogger(DatabaseHealth.class.getName());
    private volatile boolean wasReachable = true;

    @Override
    HealthCheckResponse ask() {
        boolean reachable;
        String error = null;
        try (Connection connection = dataSource.getConnection()) {
            reachable = connection.isValid(2);
        } catch (Exception e) {
            reachable = false;
            error = e.getClass().getSimpleName();
            if (wasReachable) {
                LOG.log(Level.WARNING, "Database health check failed", e);
            }
        }
        wasReachable = reachable;
        var response = HealthCheckResponse.named("database")
                .withData("reachable", reachable)
                .withData("schemaMigrated", schema.migrated());
        if (error != null) {
            response.withData("error", error);
        }
        return response.status(reachable || schema.migrated()).build();
    }
}
