package dev.hookstile.events.boundary;

import dev.hookstile.platform.boundary.ContainerResources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Dead events grouped by source, type and last error ("312 dead: TransientFailure: connection refused"), largest
 * first: what an operator fixes and replays together. Computed over the newest {@value #SAMPLE} dead events at most
 * (one bounded walk of an index, newest first), so the answer takes the same time with a million dead events; it says
 * when it was a sample.
 */
@ApplicationScoped
public class DeadGroups {

    public static final int SAMPLE = 10_000;
    public static final int MAX_GROUPS = 100;
    private static final int TIMEOUT_SECONDS = 5;

    @Inject
    @ContainerResources.Database
    DataSource dataSource;

    /** One group; {@code lastAt} is when its newest event was recorded dead. */
    public record Group(String source, String type, String error, long count, Instant lastAt) {
    }

    /** The groups, largest first, and whether more dead events exist than were looked at. */
    public record Result(List<Group> groups, boolean sampled) {
    }

    /** One dead event as the grouping reads it. */
    public record Dead(String source, String type, String error, Instant at) {
    }

    /** The dead events of {@code source} (all sources when null) received in {@code [since, until)}, grouped. */
    public Result of(String source, Instant since, Instant until) {
        var sql = new StringBuilder("""
                SELECT source, type, last_error, COALESCE(updated_at, received_at) FROM received_event
                WHERE status = 'dead'""");
        List<Object> parameters = new ArrayList<>();
        if (source != null) {
            sql.append(" AND source = ?");
            parameters.add(source);
        }
        if (since != null) {
            sql.append(" AND received_at >= ?");
            parameters.add(Timestamp.from(since));
        }
        if (until != null) {
            sql.append(" AND received_at < ?");
            parameters.add(Timestamp.from(until));
        }
        sql.append(" ORDER BY received_at DESC LIMIT ?");
        parameters.add(SAMPLE + 1);
        List<Dead> dead = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement query = connection.prepareStatement(sql.toString())) {
            query.setQueryTimeout(TIMEOUT_SECONDS);
            query.setFetchSize(1_000);
            for (int i = 0; i < parameters.size(); i++) {
                query.setObject(i + 1, parameters.get(i));
            }
            try (ResultSet row = query.executeQuery()) {
                while (row.next()) {
                    dead.add(new Dead(row.getString(1), row.getString(2), row.getString(3),
                            row.getTimestamp(4).toInstant()));
                }
            }
        } catch (SQLException e) {
            throw new PersistenceException(e.getMessage(), e);
        }
        return group(dead, SAMPLE, MAX_GROUPS);
    }

    /**
     * Groups the first {@code sample} of the dead events (newest first) by source, type and error; the largest
     * {@code maxGroups} groups, ties by the newest first. {@code sampled} when there were more than {@code sample}.
     */
    static Result group(List<Dead> newestFirst, int sample, int maxGroups) {
        record Key(String source, String type, String error) {
        }
        Map<Key, long[]> groups = new LinkedHashMap<>();
        List<Dead> looked = newestFirst.size() > sample ? newestFirst.subList(0, sample) : newestFirst;
        for (Dead d : looked) {
            long[] g = groups.computeIfAbsent(new Key(d.source(), d.type(), d.error()),
                    k -> new long[]{0, Long.MIN_VALUE});
            g[0]++;
            g[1] = Math.max(g[1], d.at().toEpochMilli());
        }
        List<Group> result = new ArrayList<>();
        groups.forEach((k, g) -> result.add(new Group(k.source(), k.type(), k.error(), g[0],
                Instant.ofEpochMilli(g[1]))));
        result.sort(Comparator.comparingLong(Group::count).reversed()
                .thenComparing(Group::lastAt, Comparator.reverseOrder())
                .thenComparing(Group::source).thenComparing(Group::type)
                .thenComparing(Group::error, Comparator.nullsFirst(Comparator.naturalOrder())));
        return new Result(List.copyOf(result.subList(0, Math.min(maxGroups, result.size()))),
                newestFirst.size() > sample);
    }
}
