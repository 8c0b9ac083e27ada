package dev.hookstile.dedup.entity;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

import java.util.Locale;

/** Where an event stands. Stored in lower case, as operators and SQL see it. */
public enum EventStatus {
    /** Claimed by a consumer; its handlers are running in the claiming transaction. */
    RECEIVED,
    /** Every handler ran and committed together with the claim. */
    COMPLETED;

    public String column() {
        return name().toLowerCase(Locale.ROOT);
    }

    @Converter(autoApply = true)
    public static class Column implements AttributeConverter<EventStatus, String> {

        @Override
        public String convertToDatabaseColumn(EventStatus status) {
            return status == null ? null : status.column();
        }

        @Override
        public EventStatus convertToEntityAttribute(String column) {
            return column == null ? null : EventStatus.valueOf(column.toUpperCase(Locale.ROOT));
        }
    }
}
