package dev.hookstile.events.boundary;

import dev.hookstile.events.entity.EventStatus;

import java.time.OffsetDateTime;

/** An event as a list shows it: everything but the payload and headers. */
public record EventSummary(String source, String eventId, String provider, String type, EventStatus status,
                           int attempts, OffsetDateTime receivedAt, OffsetDateTime processedAt, String lastError) {
}
