package dev.hookstile.notify.control;

import dev.hookstile.events.boundary.RecordedDeaths;
import dev.hookstile.outbox.boundary.ForwardingSchedule;
import dev.hookstile.platform.StatementFailure;
import dev.hookstile.source.Destination;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The notifier's steps, each in a short transaction of its own that moves a mark and schedules what it announces in
 * the outbox together: a step that fails schedules nothing and moves nothing, and is taken again at the next turn.
 * Two instances taking one step at once wait for each other on the mark's row; the second finds it moved and adds
 * nothing, and should it schedule a notice all the same, the outbox keeps one per id.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class NotificationLog {

    @Inject
    EntityManager em;

    @Inject
    ForwardingSchedule outbox;

    @Inject
    NotifySettings settings;

    /**
     * Announces the deaths of the windows closed since the mark, a window at a time, at most {@code maxWindows}
     * windows with deaths in this transaction, and moves the mark past them. On the first run (no mark) the mark is
     * set to the start of the current window: deaths before notifications were turned on are not news.
     *
     * @param closedUntil where the closed windows end ({@link Window#closedUntil})
     * @param notBefore   how far back deaths are still announced, should the mark be older (notifications were off
     *                    for long): an operator gets today's news, not a month's
     * @return whether closed windows are left for another call
     */
    public boolean announceDeaths(Instant closedUntil, Instant notBefore, Duration group, int maxWindows,
                                  Instant now) {
        Optional<Instant> mark = lock(NotifyMarkStatements.DEATHS);
        if (mark.isEmpty()) {
            create(NotifyMarkStatements.DEATHS, Window.of(now, group).start());
            return false;
        }
        Instant cursor = mark.get().isBefore(notBefore) ? Window.of(notBefore, group).start() : mark.get();
        if (!cursor.isBefore(closedUntil)) {
            return false;
        }
        int windows = 0;
        while (cursor.isBefore(closedUntil) && windows < maxWindows) {
            Optional<Instant> next = nextDeath(cursor, closedUntil);
            if (next.isEmpty()) {
                cursor = closedUntil;
                break;
            }
            Window window = Window.of(next.get(), group);
            // The mark is a window's end unless the group length was changed since: then the first window is cut
            // at the mark, and named by where it starts, so that it never takes the id of one announced before.
            Instant start = window.start().isBefore(cursor) ? cursor : window.start();
            for (Notice notice : deaths(start, window.end())) {
                schedule(notice, now);
            }
            cursor = window.end();
            windows++;
        }
        move(NotifyMarkStatements.DEATHS, cursor);
        return cursor.isBefore(closedUntil);
    }

    /** Schedules these notices (breaker changes an instance saw), in one transaction. */
    public void scheduleAll(List<Notice> notices, Instant now) {
        for (Notice notice : notices) {
            schedule(notice, now);
        }
    }

    /** Since when each source that is behind is behind, by source name: one read of every source's mark. */
    public Map<String, Instant> behind() {
        try (PreparedStatement query = connection().prepareStatement(NotifyMarkStatements.BEHIND_MARKS);
             ResultSet rows = query.executeQuery()) {
            var behind = new HashMap<String, Instant>();
            while (rows.next()) {
                Timestamp since = rows.getTimestamp(2);
                if (since != null) {
                    behind.put(rows.getString(1).substring(NotifyMarkStatements.BEHIND.length()), since.toInstant());
                }
            }
            return behind;
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    /**
     * The source fell behind: announced unless it is behind already (another instance saw it first).
     *
     * @param oldest  when its oldest waiting event was received
     * @param waiting how many events wait
     * @return whether this call announced it
     */
    public boolean fellBehind(String source, Instant oldest, long waiting, Instant now) {
        String name = NotifyMarkStatements.BEHIND + source;
        create(name, null);
        if (lock(name).isPresent()) {
            return false;
        }
        Instant since = now.truncatedTo(ChronoUnit.SECONDS);
        move(name, since);
        schedule(new Notice(Notice.Type.PROCESSING_BEHIND, source, null, waiting, oldest, now, since, null), now);
        return true;
    }

    /**
     * The source caught up: announced unless it is not behind (any more).
     *
     * @param waiting how many events still wait, each younger than the threshold
     * @return whether this call announced it
     */
    public boolean caughtUp(String source, long waiting, Instant now) {
        String name = NotifyMarkStatements.BEHIND + source;
        Optional<Instant> since = lock(name);
        if (since.isEmpty()) {
            return false;
        }
        move(name, null);
        schedule(new Notice(Notice.Type.PROCESSING_CAUGHT_UP, source, null, waiting, since.get(), now,
                now.truncatedTo(ChronoUnit.SECONDS), null), now);
        return true;
    }

    /**
     * A destination has been paused longer than the operator's threshold: announced once per pause (its id is the
     * pause's time), whichever instance and turn computes it first; a later turn adds nothing.
     */
    public void pausedLong(String source, Instant pausedAt, long held, Instant now) {
        Instant since = pausedAt.truncatedTo(ChronoUnit.SECONDS);
        schedule(new Notice(Notice.Type.DESTINATION_PAUSED, source, null, held, pausedAt, now, since, null), now);
    }

    private void schedule(Notice notice, Instant now) {
        Destination endpoint = settings.endpoint().orElseThrow(() -> new IllegalStateException(
                "notifications are off: nothing to schedule"));
        byte[] body = NoticeBody.of(notice, settings.format(), settings.link(notice.view()), settings.absoluteLinks());
        outbox.scheduleNotification(notice.id(), endpoint, body, now);
    }

    private Optional<Instant> nextDeath(Instant from, Instant until) {
        try {
            return RecordedDeaths.next(connection(), from, until);
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    private List<Notice> deaths(Instant from, Instant until) {
        try {
            var notices = new ArrayList<Notice>();
            for (RecordedDeaths.Group group : RecordedDeaths.of(connection(), from, until)) {
                notices.add(new Notice(Notice.Type.EVENTS_DEAD, group.source(),
                        group.failure() == null ? "unknown" : group.failure(), group.count(), group.first(),
                        group.last(), from, group.error()));
            }
            return notices;
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    /** The mark's value, its row locked; empty when there is no row or no value. */
    private Optional<Instant> lock(String name) {
        try (PreparedStatement query = connection().prepareStatement(NotifyMarkStatements.LOCK)) {
            query.setString(1, name);
            try (ResultSet row = query.executeQuery()) {
                Timestamp at = row.next() ? row.getTimestamp(1) : null;
                return Optional.ofNullable(at).map(Timestamp::toInstant);
            }
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    private void create(String name, Instant at) {
        update(NotifyMarkStatements.CREATE, name, at);
    }

    private void move(String name, Instant at) {
        try (PreparedStatement update = connection().prepareStatement(NotifyMarkStatements.MOVE)) {
            update.setTimestamp(1, at == null ? null : Timestamp.from(at));
            update.setString(2, name);
            update.executeUpdate();
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    private void update(String sql, String name, Instant at) {
        try (PreparedStatement update = connection().prepareStatement(sql)) {
            update.setString(1, name);
            update.setTimestamp(2, at == null ? null : Timestamp.from(at));
            update.executeUpdate();
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    /** The transaction's connection, owned by the persistence context: never closed here. */
    Connection connection() {
        return em.unwrap(Connection.class);
    }
}
