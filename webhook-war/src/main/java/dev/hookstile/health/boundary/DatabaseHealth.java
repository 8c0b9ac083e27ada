package dev.hookstile.health.boundary;

import dev.hookstile.platform.control.SchemaMigration;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import javax.sql.DataSource;
import java.sql.Connection;

/**
 * The database, checked with a real round trip. Down only while it is unreachable and this instance has not yet
 * migrated the schema. Once the schema exists, an outage is reported ({@code reachable: false}, for alerting) but
 * does not make the instance unready: ingest keeps accepting events into the broker while the database is down, and
 * taking the instance out of the load balancer then would turn a processing delay into refused deliveries.
 */
@Readiness
@ApplicationScoped
public class DatabaseHealth implements HealthCheck {

    @Resource(lookup = SchemaMigration.DATA_SOURCE)
    DataSource dataSource;

    @Inject
    SchemaMigration schema;

    @Override
    public HealthCheckResponse call() {
        boolean reachable;
        String error = null;
        try (Connection connection = dataSource.getConnection()) {
            reachable = connection.isValid(2);
        } catch (Exception e) {
            reachable = false;
            error = String.valueOf(e.getMessage());
        }
        var response = HealthCheckResponse.named("database")
                .withData("reachable", reachable)
                .withData("schemaMigrated", schema.migrated());
        if (error != null) {
            response.withData("error", error);
        }
        return response.status(reachable || schema.migrated()).build();
    }
}
