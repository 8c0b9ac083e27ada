package dev.hookstile.source.control;

import dev.hookstile.source.Answer;
import dev.hookstile.source.Delivery;
import dev.hookstile.source.InvalidSetting;
import dev.hookstile.source.Provider;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.VerifiedDelivery.EventIdentity;
import dev.hookstile.source.VerifiedDelivery;
import dev.hookstile.source.Source;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Meta (WhatsApp Cloud API, Messenger, Instagram): {@code X-Hub-Signature-256} as GitHub signs it, keyed with the
 * app secret; a {@code GET} handshake echoing {@code hub.challenge} to subscribe; and batches: one body holds
 * entries with {@code changes} (WhatsApp, Instagram and Page fields) or {@code messaging} items (Messenger,
 * Instagram messaging). Each message and status is an event of its own, deduplicated on its own id, so a retried
 * batch queues only what was not seen yet. Every event's payload is the whole body, since the signature covers
 * nothing smaller; a handler finds its item by the event id.
 *
 * <p>Event ids and types: {@link MetaBatch}.
 *
 * <p>Meta signs no timestamp header, but an entry's {@code time} (seconds or milliseconds since the epoch) is in the
 * signed body: an entry older than the source's tolerance ({@link #defaultTolerance()}, 8 days unless set) is a
 * replay of a captured body, and its events are not queued. A body all of whose entries are that old is refused
 * ({@link Rejection#TIMESTAMP_OUT_OF_TOLERANCE}); the fresh entries of a mixed one are accepted, since refusing them
 * would have Meta retry the whole body until it gives up on it. Entries without a time (WhatsApp's) are not checked:
 * their ids are signed, and a replay of them is a duplicate (of the event, or of its tombstone after retention).
 *
 * <p>A body with no entry, or whose entries hold no change and no messaging item, has nothing to queue and is
 * refused as {@link Rejection#MISSING_EVENT_ID}. An entry with neither among entries that have some is not lost: it
 * is in the body every event carries.
 */
final class Meta implements Provider {

    static final String VERIFY_TOKEN = "verify-token";
    /** Meta's challenge is a number; a bounded, printable one keeps the echo from being a reflection vector. */
    static final int MAX_CHALLENGE_LENGTH = 256;
    private static final List<String> RETAINED = List.of(HubSignature.HEADER, "Content-Type", "User-Agent");

    @Override
    public String name() {
        return "meta";
    }

    @Override
    public String signingScheme(Map<String, String> settings) {
        return "HMAC-SHA256 of the body with the app secret (X-Hub-Signature-256)";
    }

    /** Meta retries a failed delivery for up to 7 days. */
    @Override
    public Duration retryWindow() {
        return Duration.ofDays(7);
    }

    /**
     * How old a signed entry may be ({@code entry[].time}): Meta's retry window and a day for clocks and queues, so
     * that its last retry still passes, while a batch captured earlier than that is refused.
     */
    @Override
    public Duration defaultTolerance() {
        return retryWindow().plusDays(1);
    }

    @Override
    public boolean deliversBatches() {
        return true;
    }

    @Override
    public Set<String> settingNames() {
        return Set.of(VERIFY_TOKEN);
    }

    @Override
    public void checkSettings(Map<String, String> settings) throws InvalidSetting {
        String token = settings.get(VERIFY_TOKEN);
        if (token != null && token.isBlank()) {
            throw new InvalidSetting(VERIFY_TOKEN, "must not be blank: anyone could complete the handshake");
        }
    }

    @Override
    public Answer handshake(Map<String, String> query, Source source) throws RejectedDelivery {
        String expected = source.setting(VERIFY_TOKEN).filter(token -> !token.isBlank())
                .orElseThrow(() -> refused("no verify token is configured for this source: set "
                        + "HOOKSTILE_SOURCES_" + source.name().replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT)
                        + "_VERIFY_TOKEN to the token entered in Meta's webhook settings"));
        if (!"subscribe".equals(query.get("hub.mode"))) {
            throw refused("hub.mode must be 'subscribe'");
        }
        String token = query.get("hub.verify_token");
        if (token == null) {
            throw refused("hub.verify_token is missing");
        }
        // Digests first, so that neither the content nor the length of the token shows in the time taken.
        if (!MessageDigest.isEqual(Provider.sha256(expected.getBytes(StandardCharsets.UTF_8)),
                Provider.sha256(token.getBytes(StandardCharsets.UTF_8)))) {
            throw refused("hub.verify_token does not match the configured verify token");
        }
        String challenge = query.get("hub.challenge");
        if (challenge == null || challenge.isEmpty()) {
            throw refused("hub.challenge is missing");
        }
        if (challenge.length() > MAX_CHALLENGE_LENGTH || !challenge.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw refused("hub.challenge must be 1 to " + MAX_CHALLENGE_LENGTH
                    + " printable ASCII characters without spaces");
        }
        return Answer.text(challenge);
    }

    @Override
    public VerifiedDelivery verify(Delivery delivery, Source source) throws RejectedDelivery {
        HubSignature.verify(delivery, source);
        List<EventIdentity> events = MetaBatch.events(delivery.body(),
                delivery.receivedAt().toEpochMilli() - source.tolerance().toMillis(), source.tolerance());
        return new VerifiedDelivery(events, delivery.retain(RETAINED, HubSignature.REDACTED), null);
    }

    private static RejectedDelivery refused(String detail) {
        return new RejectedDelivery(Rejection.HANDSHAKE_REFUSED, detail);
    }
}
