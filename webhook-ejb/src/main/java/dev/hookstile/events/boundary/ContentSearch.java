package dev.hookstile.events.boundary;

import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.platform.boundary.ContainerResources;
import dev.hookstile.source.JsonMatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * Events by what their sender sent: a body containing a JSON fragment ({@link JsonMatch}) and a retained header with
 * a value, newest first, never a walk of the whole table: a page looks at the newest
 * {@code hookstile.operator.list-scan-events} (20,000) events of its window after its cursor (of its search key's
 * events, with one), whatever its other filters, and stops as soon as it is full; a short page says how far it
 * looked ({@link Scan}), and its {@code next} cursor then searches older ones. On PostgreSQL the database matches (the body by
 * {@code jsonb @>} through V18's {@code hookstile_body_jsonb}, which makes a body that is not a JSON object no match
 * rather than an error; the header in the headers' JSON) and stops at the page's limit; on the embedded database the
 * slice's bodies and headers are read and matched here, with the same rules.
 */
@ApplicationScoped
public class ContentSearch {

    static final int TIMEOUT_SECONDS = 10;
    /** An event's body: inline, or shared by digest. */
    private static final String BODY =
            "COALESCE(e.payload, (SELECT b.body FROM event_body b WHERE b.digest = e.body_digest))";

    @Inject
    @ContainerResources.Database
    DataSource dataSource;

    @Inject
    @ConfigProperty(name = "hookstile.operator.list-scan-events", defaultValue = "20000")
    int scanEvents;

    /**
     * How far a page looked: at most {@code limit} events after its cursor, newest first; {@code reached} when a short
     * page looked at that many, back to {@code oldest} (its {@code next} cursor then searches older ones). A full page
     * stopped sooner: not reached, no oldest.
     */
    public record Scan(int limit, boolean reached, OffsetDateTime oldest) {
    }

    /** A page of events whose body contains the fragment, where the next one starts, and how far it looked. */
    public record Page(List<EventSummary> events, EventQuery.Position next, Scan scan) {
    }

    /** A retained header's value, exactly; its name in any case. */
    public record Header(String name, String value) {

        public Header {
            name = name.toLowerCase(Locale.ROOT);
        }
    }

    /**
     * @param match  a fragment the body must contain, or {@code null}
     * @param header a header the event must have been delivered with, or {@code null}
     */
    public Page page(EventQuery query, JsonMatch match, Header header) {
        try (Connection connection = dataSource.getConnection()) {
            boolean postgres = postgres(connection);
            List<EventSummary> events = matches(connection, query, postgres, match, header);
            if (events.size() == query.limit()) {
                // Full before the slice's end: how far the slice reaches is not read at all.
                return new Page(events, EventQuery.Position.of(events.get(events.size() - 1)),
                        new Scan(scanEvents, false, null));
            }
            EventQuery.Position floor = floor(connection, query);
            return new Page(events, floor, new Scan(scanEvents, floor != null,
                    floor == null ? null : floor.receivedAt()));
        } catch (SQLException e) {
            throw new jakarta.persistence.PersistenceException(e.getMessage(), e);
        }
    }

    /**
     * The {@code scanEvents}-th event of the window after the cursor (of the key's events, with a key), or null when
     * there are fewer: where a short page's search ended, and the next page's starts.
     */
    private EventQuery.Position floor(Connection connection, EventQuery query) throws SQLException {
        var sql = new StringBuilder("SELECT e.received_at, e.source, e.event_id");
        var parameters = new ArrayList<Object>();
        slice(sql, parameters, query);
        sql.append(" ORDER BY e.received_at DESC, e.source DESC, e.event_id DESC OFFSET ")
                .append(Math.max(0, scanEvents - 1)).append(" ROWS FETCH NEXT 1 ROWS ONLY");
        try (PreparedStatement select = prepare(connection, sql, parameters);
             ResultSet row = select.executeQuery()) {
            return row.next() ? new EventQuery.Position(row.getObject(1, OffsetDateTime.class), row.getString(2),
                    row.getString(3)) : null;
        }
    }

    /**
     * The page: the slice (the newest {@code scanEvents} events of the window after the cursor, the window's alone:
     * a filter no index orders by time, a type that matches nothing, must not make the bound a walk of the table)
     * read newest first, its events kept that pass the filters and match, until the page is full. PostgreSQL reads
     * the slice lazily and stops there; on H2 the bodies and headers are matched here, as they come.
     */
    private List<EventSummary> matches(Connection connection, EventQuery query, boolean postgres, JsonMatch match,
                                       Header header) throws SQLException {
        var sql = new StringBuilder("SELECT w.source, w.event_id, w.provider, w.type, w.status, w.attempts,")
                .append(" w.received_at, w.processed_at, w.last_error, w.body, w.headers FROM (")
                .append("SELECT e.source, e.event_id, e.provider, e.type, e.status, e.attempts, e.received_at,")
                .append(" e.processed_at, e.last_error, e.headers, ").append(BODY).append(" AS body");
        var parameters = new ArrayList<Object>();
        slice(sql, parameters, query);
        sql.append(" ORDER BY e.received_at DESC, e.source DESC, e.event_id DESC FETCH FIRST ").append(scanEvents)
                .append(" ROWS ONLY) w WHERE 1 = 1");
        filters(sql, parameters, query);
        if (postgres) {
            content(sql, parameters, "w.body", "w.headers", match, header);
        }
        sql.append(" ORDER BY w.received_at DESC, w.source DESC, w.event_id DESC");
        if (postgres) {
            sql.append(" FETCH FIRST ").append(query.limit()).append(" ROWS ONLY");
        }
        var events = new ArrayList<EventSummary>();
        try (PreparedStatement select = prepare(connection, sql, parameters)) {
            select.setFetchSize(postgres ? query.limit() : 200);
            try (ResultSet rows = select.executeQuery()) {
                while (events.size() < query.limit() && rows.next()) {
                    if (postgres || (match == null || match.matches(rows.getBytes(10)))
                            && (header == null || hasHeader(rows.getString(11), header))) {
                        events.add(summary(rows));
                    }
                }
            }
        }
        return events;
    }

    /**
     * Of these events, those whose body contains the fragment and that were delivered with the header, in their order:
     * what a bulk replay with a body or header condition replays of a page its other filters selected. One statement
     * for the page, by primary key.
     */
    public List<EventSummary> matching(List<EventSummary> events, JsonMatch match, Header header) {
        if (events.isEmpty() || match == null && header == null) {
            return events;
        }
        var sql = new StringBuilder("SELECT e.source, e.event_id, ").append(BODY)
                .append(" AS body, e.headers FROM received_event e")
                .append(" WHERE (e.source, e.event_id) IN (")
                .append(String.join(", ", Collections.nCopies(events.size(), "(?, ?)"))).append(")");
        var parameters = new ArrayList<Object>();
        for (EventSummary event : events) {
            parameters.add(event.source());
            parameters.add(event.eventId());
        }
        try (Connection connection = dataSource.getConnection()) {
            boolean postgres = postgres(connection);
            if (postgres) {
                content(sql, parameters, BODY, "e.headers", match, header);
            }
            var found = new HashSet<List<String>>();
            try (PreparedStatement select = prepare(connection, sql, parameters);
                 ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    if (postgres || (match == null || match.matches(rows.getBytes(3)))
                            && (header == null || hasHeader(rows.getString(4), header))) {
                        found.add(List.of(rows.getString(1), rows.getString(2)));
                    }
                }
            }
            return events.stream().filter(event -> found.contains(List.of(event.source(), event.eventId()))).toList();
        } catch (SQLException e) {
            throw new jakarta.persistence.PersistenceException(e.getMessage(), e);
        }
    }

    /** PostgreSQL's conditions for the fragment and the header: the database matches, the same rules as here. */
    private static void content(StringBuilder sql, List<Object> parameters, String body, String headers,
                                JsonMatch match, Header header) {
        if (header != null) {
            // The headers' column is Hookstile's own JSON (a flat object of strings): always valid jsonb.
            sql.append(" AND EXISTS (SELECT 1 FROM jsonb_each_text(CAST(").append(headers).append(" AS jsonb)) h")
                    .append(" WHERE lower(h.key) = ? AND h.value = ?)");
            parameters.add(header.name());
            parameters.add(header.value());
        }
        if (match != null) {
            sql.append(" AND hookstile_body_jsonb(").append(body).append(") @> CAST(? AS jsonb)");
            parameters.add(match.json());
        }
    }

    private static boolean postgres(Connection connection) throws SQLException {
        return connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT).contains("postgres");
    }

    private static boolean hasHeader(String headersJson, Header header) {
        try (var reader = jakarta.json.Json.createReader(new java.io.StringReader(headersJson))) {
            return reader.readObject().entrySet().stream().anyMatch(h -> h.getKey().toLowerCase(Locale.ROOT)
                    .equals(header.name()) && h.getValue() instanceof jakarta.json.JsonString value
                    && value.getString().equals(header.value()));
        } catch (RuntimeException notAnObject) {
            return false;
        }
    }

    /** The slice's events before its bound: the search key's, the window and the cursor. */
    private static void slice(StringBuilder sql, List<Object> parameters, EventQuery query) {
        sql.append(" FROM received_event e");
        if (query.key() != null) {
            sql.append(" JOIN event_key k ON k.source = e.source AND k.event_id = e.event_id AND k.key_value = ?")
                    .append(" AND k.pointer IN (").append(String.join(", ",
                            Collections.nCopies(query.key().pointers().size(), "?"))).append(")");
            parameters.add(query.key().value());
            parameters.addAll(query.key().pointers());
        }
        sql.append(" WHERE 1 = 1");
        if (query.since() != null) {
            sql.append(" AND e.received_at >= ?");
            parameters.add(Timestamp.from(query.since()));
        }
        if (query.until() != null) {
            sql.append(" AND e.received_at < ?");
            parameters.add(Timestamp.from(query.until()));
        }
        EventQuery.Position after = query.after();
        if (after != null) {
            // As RecordedEvents' cursor: the first condition bounds the walk of the index.
            sql.append(" AND e.received_at <= ? AND (e.received_at < ? OR (e.received_at = ? AND (e.source < ?")
                    .append(" OR (e.source = ? AND e.event_id < ?))))");
            parameters.addAll(List.of(after.receivedAt(), after.receivedAt(), after.receivedAt(), after.source(),
                    after.source(), after.eventId()));
        }
    }

    /** The query's other filters, on the slice's events ({@code w}). */
    private static void filters(StringBuilder sql, List<Object> parameters, EventQuery query) {
        if (query.source() != null) {
            sql.append(" AND w.source = ?");
            parameters.add(query.source());
        }
        if (query.status() != null) {
            sql.append(" AND w.status = ?");
            parameters.add(query.status().column());
        }
        if (query.type() != null) {
            sql.append(query.typeExact() ? " AND w.type = ?" : " AND w.type LIKE ? ESCAPE '\\'");
            parameters.add(query.typeExact() ? query.type() : EventQuery.prefixPattern(query.type()));
        }
        if (query.error() != null) {
            sql.append(" AND w.last_error = ?");
            parameters.add(query.error());
        }
        if (query.eventId() != null) {
            sql.append(" AND w.event_id = ?");
            parameters.add(query.eventId());
        }
    }

    private static PreparedStatement prepare(Connection connection, CharSequence sql, List<Object> parameters)
            throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql.toString());
        statement.setQueryTimeout(TIMEOUT_SECONDS);
        for (int i = 0; i < parameters.size(); i++) {
            statement.setObject(i + 1, parameters.get(i));
        }
        return statement;
    }

    private static EventSummary summary(ResultSet rows) throws SQLException {
        return new EventSummary(rows.getString(1), rows.getString(2), rows.getString(3), rows.getString(4),
                EventStatus.of(rows.getString(5)), rows.getInt(6), rows.getObject(7, OffsetDateTime.class),
                rows.getObject(8, OffsetDateTime.class), rows.getString(9));
    }
}
