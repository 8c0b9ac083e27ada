package dev.hookstile.ingest.control;

/**
 * The answer to an accepted delivery.
 *
 * @param status  {@code accepted} (queued durably, 202) or {@code duplicate} (already recorded, 200)
 * @param source  the source name
 * @param eventId the event id the provider gave
 */
public record Receipt(String status, String source, String eventId) {

    public static final String ACCEPTED = "accepted";
    public static final String DUPLICATE = "duplicate";

    public boolean duplicate() {
        return DUPLICATE.equals(status);
    }
}
