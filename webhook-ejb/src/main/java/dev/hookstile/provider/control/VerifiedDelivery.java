package dev.hookstile.provider.control;

import java.util.Map;

/**
 * What a provider vouches for after checking the signature.
 *
 * @param eventId the sender's event id (the dedup key with the source)
 * @param type    the event type, {@code ""} if the sender gives none
 * @param headers the headers to keep with the event, signatures redacted
 */
public record VerifiedDelivery(String eventId, String type, Map<String, String> headers) {
}
