package dev.hookstile.events.entity;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

import java.util.Locale;

/** Where an event stands. Stored in lower case, as operators and SQL see it. */
public enum EventStatus {
    /** Queued for processing again by an operator's replay; the next delivery claims it. */
    RECEIVED,
    /** Every handler ran and committed together with the claim. */
    COMPLETED,
    /** No handler applies to the event; recorded so that a redelivery is still a duplicate. */
    IGNORED,
    /** The last attempt failed transiently; the broker redelivers it after a back-off. */
    RETRYING,
    /** Failed permanently, or transiently until its attempts ran out. Kept with its payload; replayable. */
    DEAD;

    /**
     * The open statuses as an SQL list, for the statements that claim an event or record a failure over it. A
     * constant, so that annotations can use it; {@code EventStatusTest} holds it to {@link #open()}.
     */
    public static final String OPEN_IN_SQL = "'retrying', 'received'";
    /** The statuses a replay starts from, as an SQL list; held to {@link #replayable()} by {@code EventStatusTest}. */
    public static final String REPLAYABLE_IN_SQL = "'dead', 'completed', 'ignored'";

    /** The statuses the retention deletes once old enough, as an SQL list; held to {@link #expirable()}. */
    public static final String EXPIRABLE_IN_SQL = "'completed', 'ignored'";

    /** Finished well: deleted once older than the retention. Dead events stay until an operator acts on them. */
    public boolean expirable() {
        return this == COMPLETED || this == IGNORED;
    }

    /** Not finished: a delivery may still claim it, or record a failure over it. */
    public boolean open() {
        return this == RETRYING || this == RECEIVED;
    }

    /** Finished: an operator may replay it. A {@code received} event is being replayed already. */
    public boolean replayable() {
        return this == COMPLETED || this == IGNORED || this == DEAD;
    }

    public String column() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static EventStatus of(String column) {
        return valueOf(column.toUpperCase(Locale.ROOT));
    }

    @Converter(autoApply = true)
    public static class Column implements AttributeConverter<EventStatus, String> {

        @Override
        public String convertToDatabaseColumn(EventStatus status) {
            return status == null ? null : status.column();
        }

        @Override
        public EventStatus convertToEntityAttribute(String column) {
            return column == null ? null : of(column);
        }
    }
}
