package dev.hookstile.it.support;

import dev.hookstile.platform.boundary.ContainerResources;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** Creates the test handler's tables once, at deployment, outside the product's migrations. */
@Singleton
@Startup
@TransactionManagement(TransactionManagementType.BEAN)
public class EffectTable {

    @Resource(lookup = ContainerResources.DATA_SOURCE)
    DataSource dataSource;

    @PostConstruct
    void create() {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS it_effect (source VARCHAR(63) NOT NULL, "
                    + "event_id VARCHAR(255) NOT NULL, attempt INTEGER NOT NULL, "
                    + "recorded_at TIMESTAMP WITH TIME ZONE NOT NULL)");
            statement.execute("CREATE TABLE IF NOT EXISTS it_fixed (event_id VARCHAR(255) NOT NULL)");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create it_effect", e);
        }
    }
}
