package dev.hookstile.source;



/**
 * A reply a provider's protocol requires instead of a receipt: a subscription handshake (Meta's {@code GET} with
 * {@code hub.challenge}) or an endpoint check (Slack's {@code url_verification}). Nothing is queued for it.
 *
 * @param status    the HTTP status
 * @param mediaType the content type of {@code body}
 * @param body      the body, exactly as the provider expects it
 */
public record Answer(int status, String mediaType, String body) {

    public static Answer text(String body) {
        return new Answer(200, "text/plain", body);
    }
}
