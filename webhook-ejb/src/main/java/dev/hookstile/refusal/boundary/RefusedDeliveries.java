package dev.hookstile.refusal.boundary;

import dev.hookstile.platform.boundary.ContainerResources;
import dev.hookstile.refusal.Refusal;
import dev.hookstile.refusal.RefusalQuery;
import dev.hookstile.refusal.control.RefusalStatements;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/** The refused deliveries kept, for the operator API: examples newest first, and the counts by reason. */
@ApplicationScoped
public class RefusedDeliveries {

    @Inject
    @ContainerResources.Database
    DataSource dataSource;

    /** Refusals of a counted source and reason since a time, and the last minute that saw one. */
    public record ReasonCount(String source, String reason, long refused, Instant lastMinute) {
    }

    /** One page of examples, newest first. */
    public List<Refusal> list(RefusalQuery query) {
        var sql = new StringBuilder("SELECT ").append(RefusalStatements.COLUMNS).append(" FROM refused_delivery");
        var parameters = new ArrayList<Object>();
        String and = " WHERE ";
        if (query.source() != null) {
            sql.append(and).append("source = ?");
            parameters.add(query.source());
            and = " AND ";
        }
        if (query.reason() != null) {
            sql.append(and).append("reason = ?");
            parameters.add(query.reason());
            and = " AND ";
        }
        if (query.since() != null) {
            sql.append(and).append("refused_at >= ?");
            parameters.add(Timestamp.from(query.since()));
            and = " AND ";
        }
        if (query.until() != null) {
            sql.append(and).append("refused_at < ?");
            parameters.add(Timestamp.from(query.until()));
            and = " AND ";
        }
        if (query.before() != null) {
            sql.append(and).append("id < ?");
            parameters.add(query.before());
        }
        sql.append(" ORDER BY id DESC FETCH FIRST ").append(Math.min(query.limit(), RefusalQuery.MAX_LIMIT))
                .append(" ROWS ONLY");
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(sql.toString())) {
            for (int i = 0; i < parameters.size(); i++) {
                select.setObject(i + 1, parameters.get(i));
            }
            var page = new ArrayList<Refusal>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    page.add(refusal(rows));
                }
            }
            return page;
        } catch (SQLException e) {
            throw new IllegalStateException("could not read refused deliveries", e);
        }
    }

    /** One example by its id. */
    public Optional<Refusal> find(long id) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT " + RefusalStatements.COLUMNS_WITH_BODY + " FROM refused_delivery WHERE id = ?")) {
            select.setLong(1, id);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? Optional.of(refusal(rows)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not read a refused delivery", e);
        }
    }

    /** Every counted source and reason since a time, most refused first. */
    public List<ReasonCount> counts(Instant since) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(RefusalStatements.COUNTS_SINCE)) {
            // The minute a refusal fell in started up to a minute before it.
            select.setTimestamp(1, Timestamp.from(since.minusSeconds(60)));
            var counts = new ArrayList<ReasonCount>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    counts.add(new ReasonCount(rows.getString(1), rows.getString(2), rows.getLong(3),
                            rows.getTimestamp(4).toInstant()));
                }
            }
            return counts;
        } catch (SQLException e) {
            throw new IllegalStateException("could not count refused deliveries", e);
        }
    }

    private static Refusal refusal(ResultSet rows) throws SQLException {
        var headers = new LinkedHashMap<String, String>();
        try (var reader = Json.createReader(new StringReader(rows.getString(8)))) {
            JsonObject object = reader.readObject();
            object.forEach((name, value) -> headers.put(name, ((JsonString) value).getString()));
        }
        // The body's column follows the list's columns only where one example is read.
        byte[] body = rows.getMetaData().getColumnCount() > 11 ? rows.getBytes(12) : null;
        return new Refusal(rows.getLong(1), rows.getTimestamp(2).toInstant(), rows.getString(3), rows.getString(4),
                rows.getInt(5), rows.getString(6), rows.getString(7), Collections.unmodifiableMap(headers), rows.getLong(9),
                rows.getString(10), body, rows.getBoolean(11));
    }
}
