package dev.hookstile.events.entity;

import jakarta.persistence.Basic;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.NamedNativeQuery;
import jakarta.persistence.Table;

import java.io.Serializable;
import java.time.OffsetDateTime;
import java.util.Objects;

/**
 * An event Hookstile has claimed, keyed by (source, event id). The primary key is the dedup guarantee: the claim
 * inserts this row in the processing transaction, so a second delivery of the same event finds it and stops.
 */
@Entity
@Table(name = "received_event")
@IdClass(ReceivedEvent.Key.class)
@NamedNativeQuery(name = ReceivedEvent.REQUEUE, query = """
        UPDATE received_event SET status = 'received', replay_base = attempts, updated_at = ?1
        WHERE source = ?2 AND event_id = ?3
          AND (status IN (""" + EventStatus.REPLAYABLE_IN_SQL + """
        ) OR (status = 'received' AND updated_at < ?4))""")
public class ReceivedEvent {

    // The statements of the processing path are plain SQL run through JDBC (EventRecorder) on the transaction's
    // connection: through EclipseLink each cost more than the database's own work (profiled).

    /**
     * The claim of a new event, inserted with its final status ({@code completed} or {@code ignored}): nobody sees
     * it before the transaction, handlers included, commits. The conflict target is left out on purpose: H2 (the
     * embedded database) rejects {@code ON CONFLICT (cols)}, and with a single unique key PostgreSQL means the same
     * thing by it. A duplicate yields an update count of 0 without an error, so the surrounding transaction stays
     * usable (a failed INSERT would abort a PostgreSQL transaction).
     *
     * <p>An event the retention deleted has a tombstone ({@link EventTombstone}): its claim inserts nothing either, in
     * the same statement (one more primary-key probe, no round trip). The last two parameters repeat the key.
     */
    /**
     * The source of the rows that record a message on a queue that could not be read as events and had no readable
     * identity: not a name a source can have ({@code [a-z0-9][a-z0-9-]*}), so it never meets a real one. Such a row
     * is kept for an operator to read and is not replayable.
     */
    public static final String UNREADABLE_SOURCE = "_unreadable";
    public static final String CLAIM = """
            INSERT INTO received_event (source, event_id, provider, type, status, attempts, received_at, processed_at,
                                        updated_at, headers, payload, body_digest)
            SELECT ?, ?, ?, ?, ?, ?, CAST(? AS TIMESTAMP WITH TIME ZONE), CAST(? AS TIMESTAMP WITH TIME ZONE),
                   CAST(? AS TIMESTAMP WITH TIME ZONE), ?, ?, ?
            WHERE NOT EXISTS (""" + EventTombstone.EXISTS + """
            )
            ON CONFLICT DO NOTHING""";
    /**
     * The claim of an event recorded before, allowed only while it is {@code retrying} or queued again by a replay
     * ({@code received}). Two deliveries racing for it serialise on the row lock; the loser re-reads the committed
     * status and updates nothing.
     */
    public static final String RECLAIM = """
            UPDATE received_event SET status = ?, attempts = attempts + ?, processed_at = ?, updated_at = ?,
                                      last_error = NULL
            WHERE source = ? AND event_id = ? AND status IN (""" + EventStatus.OPEN_IN_SQL + ")";
    /** Whether an event is recorded: ingest's duplicate lookup, a primary-key probe. */
    public static final String RECORDED = "SELECT 1 FROM received_event WHERE source = ? AND event_id = ?";
    /** Attempts and replay base of an event. */
    public static final String ATTEMPTS = """
            SELECT attempts, replay_base FROM received_event WHERE source = ? AND event_id = ?""";
    /** Attempts, replay base and status, locking the row until the transaction ends: failures are counted on it. */
    public static final String LOCK_STATE = """
            SELECT attempts, replay_base, status FROM received_event WHERE source = ? AND event_id = ? FOR UPDATE""";
    /** The first failure of an event, unless it is recorded or has a tombstone; the last two parameters repeat the key. */
    public static final String RECORD_FAILURE = """
            INSERT INTO received_event (source, event_id, provider, type, status, attempts, received_at, updated_at,
                                        last_error, headers, payload, body_digest)
            SELECT ?, ?, ?, ?, ?, ?, CAST(? AS TIMESTAMP WITH TIME ZONE), CAST(? AS TIMESTAMP WITH TIME ZONE), ?, ?, ?, ?
            WHERE NOT EXISTS (""" + EventTombstone.EXISTS + """
            )
            ON CONFLICT DO NOTHING""";
    /**
     * An event claimed in this transaction turned out to repeat another's body: recorded with the given status
     * ({@code ignored}) and the reason, its handlers not run.
     */
    public static final String SET_STATUS = """
            UPDATE received_event SET status = ?, last_error = ? WHERE source = ? AND event_id = ?""";
    /**
     * A batch of a source's events that the retention may delete: finished well and received before the cut-off.
     * Served by the index on (status, received_at).
     */
    public static final String EXPIRED = """
            SELECT event_id, body_digest, received_at, status FROM received_event
            WHERE source = ? AND status IN (""" + EventStatus.EXPIRABLE_IN_SQL + """
            ) AND received_at < ?
            ORDER BY received_at
            LIMIT ?""";
    /** One expired event, deleted only if it is still finished well (a replay may have queued it again since). */
    public static final String DELETE_EXPIRED = """
            DELETE FROM received_event WHERE source = ? AND event_id = ? AND status IN (""" + EventStatus.EXPIRABLE_IN_SQL
            + ")";
    /** Never overwrites a completed event: a concurrent delivery may have processed it meanwhile. */
    public static final String UPDATE_FAILURE = """
            UPDATE received_event SET status = ?, attempts = ?, last_error = ?, updated_at = ?
            WHERE source = ? AND event_id = ? AND status IN (""" + EventStatus.OPEN_IN_SQL + ")";
    /**
     * A replay: only a finished event is queued again, so two concurrent replays queue it once. An event left
     * {@code received} for long (its replay's message was lost between the database commit and the broker's) can be
     * replayed again.
     */
    public static final String REQUEUE = "ReceivedEvent.requeue";

    @Id
    private String source;

    @Id
    @Column(name = "event_id")
    private String eventId;

    private String provider;

    private String type;

    private EventStatus status;

    private int attempts;

    @Column(name = "received_at")
    private OffsetDateTime receivedAt;

    @Column(name = "processed_at")
    private OffsetDateTime processedAt;

    @Column(name = "updated_at")
    private OffsetDateTime updatedAt;

    @Column(name = "last_error")
    private String lastError;

    private String headers;

    /** Null when the body is shared with other events ({@link #sharedBody}). */
    @Basic(fetch = FetchType.LAZY)
    private byte[] payload;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "body_digest", insertable = false, updatable = false)
    private EventBody sharedBody;

    public String getSource() {
        return source;
    }

    public String getEventId() {
        return eventId;
    }

    public String getProvider() {
        return provider;
    }

    public String getType() {
        return type;
    }

    public EventStatus getStatus() {
        return status;
    }

    public int getAttempts() {
        return attempts;
    }

    public OffsetDateTime getReceivedAt() {
        return receivedAt;
    }

    public OffsetDateTime getProcessedAt() {
        return processedAt;
    }

    public OffsetDateTime getUpdatedAt() {
        return updatedAt;
    }

    public String getLastError() {
        return lastError;
    }

    /** The retained headers as a JSON object, signatures redacted. */
    public String getHeaders() {
        return headers;
    }

    /** The request body, the event's own or the one it shares with the other events of its delivery. */
    public byte[] getPayload() {
        return payload != null || sharedBody == null ? payload : sharedBody.getBody();
    }

    public static class Key implements Serializable {

        private String source;
        private String eventId;

        public Key() {
        }

        public Key(String source, String eventId) {
            this.source = source;
            this.eventId = eventId;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && Objects.equals(source, key.source) && Objects.equals(eventId, key.eventId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(source, eventId);
        }
    }
}
