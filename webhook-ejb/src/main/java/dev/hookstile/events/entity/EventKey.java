package dev.hookstile.events.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import java.io.Serializable;
import java.time.OffsetDateTime;
import java.util.Objects;

/**
 * A search key of an event: the value at one of its source's configured JSON pointers, written with its claim. Read
 * only in queries (the events of a key, newest first); written by plain JDBC with the claim.
 */
@Entity
@Table(name = "event_key")
@IdClass(EventKey.Id.class)
public class EventKey {

    @jakarta.persistence.Id
    private String source;

    @jakarta.persistence.Id
    @Column(name = "event_id")
    private String eventId;

    @jakarta.persistence.Id
    private String pointer;

    @Column(name = "key_value")
    private String keyValue;

    @Column(name = "received_at")
    private OffsetDateTime receivedAt;

    /** The composite key. */
    public static class Id implements Serializable {

        private String source;
        private String eventId;
        private String pointer;

        public Id() {
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Id id && Objects.equals(source, id.source) && Objects.equals(eventId, id.eventId)
                    && Objects.equals(pointer, id.pointer);
        }

        @Override
        public int hashCode() {
            return Objects.hash(source, eventId, pointer);
        }
    }
}
