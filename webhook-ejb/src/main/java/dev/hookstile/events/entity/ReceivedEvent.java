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
@NamedNativeQuery(name = ReceivedEvent.REPLAY, query = """
        UPDATE received_event SET status = 'received', replay_base = attempts, updated_at = ?1
        WHERE source = ?2 AND event_id = ?3
          AND (status IN (""" + EventStatus.REPLAYABLE_IN_SQL + """
        ) OR (status = 'received' AND updated_at < ?4))""")
@NamedNativeQuery(name = ReceivedEvent.REQUEUE_LOST, query = """
        UPDATE received_event SET updated_at = ?1
        WHERE source = ?2 AND event_id = ?3 AND status = 'received' AND updated_at < ?4""")
@NamedNativeQuery(name = ReceivedEvent.REPLAY_AS_SEEN, query = """
        UPDATE received_event SET status = 'received', replay_base = attempts, updated_at = ?1
        WHERE source = ?2 AND event_id = ?3 AND status = ?4 AND attempts = ?5 AND status IN ("""
        + EventStatus.REPLAYABLE_IN_SQL + ")")
public class ReceivedEvent {

    /**
     * The source of the rows that record a message on a queue that could not be read as events and had no readable
     * identity: not a name a source can have ({@code [a-z0-9][a-z0-9-]*}), so it never meets a real one. Such a row
     * is kept for an operator to read and is not replayable.
     */
    public static final String UNREADABLE_SOURCE = "_unreadable";
    /**
     * An operator's replay of one event: only a finished event is queued again, so two concurrent replays queue it
     * once. An event left {@code received} for long (its replay's message was lost between the database commit and
     * the broker's) can be replayed again. Parameters: now, source, event id, "left for long" before.
     */
    public static final String REPLAY = "ReceivedEvent.replay";
    /**
     * A lost replay's message sent again ({@code LostReplays}): only while the event is still {@code received} as
     * the caller saw it, from before the start. A consumer that finished it between that look and this update has
     * made it {@code completed}, {@code ignored} or {@code dead}: left alone, or the finished event would run again
     * for the same replay. The status does not change; {@code updated_at} moves so that the next look skips it.
     * Parameters: now, source, event id, the start.
     */
    public static final String REQUEUE_LOST = "ReceivedEvent.requeueLost";
    /**
     * A bulk replay job's replay of an event its filter selected: only while the event is still as the job read it,
     * the same finished status and the same attempts. One queued again by another replay since (and perhaps finished
     * again) has moved on, and is already queued or replayed: two jobs on one filter replay it once. Parameters:
     * now, source, event id, the status seen, the attempts seen.
     */
    public static final String REPLAY_AS_SEEN = "ReceivedEvent.replayAsSeen";

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
