package dev.hookstile.outbox.boundary;

import dev.hookstile.api.Text;
import dev.hookstile.platform.StatementFailure;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.outbox.control.OutboxStatements;
import dev.hookstile.platform.Redacted;
import dev.hookstile.source.Destination;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Locale;

/**
 * Schedules what leaves with a processed event, in the caller's transaction (the try that processes it): the
 * source's forwarding, and the effects handlers post through {@link dev.hookstile.api.Outbox}. A row commits with
 * the claim and the handlers' work, or not at all, so it exists exactly when the event was processed. Besides, the
 * notifications to the operator's endpoint ({@link #scheduleNotification}), which belong to no event.
 * {@link OutboxRelay} sends them all afterwards, with one retry policy and one breaker per destination.
 */
@ApplicationScoped
public class ForwardingSchedule implements dev.hookstile.api.Outbox {

    /** The event a try is processing, in that try's transaction: what a handler's effect belongs to. */
    private static final Object PROCESSING = ForwardingSchedule.class.getName() + ".processing";

    @Inject
    EntityManager em;

    @Resource
    TransactionSynchronizationRegistry transactions;

    private volatile Destination notifications;

    public void schedule(WebhookEvent event, Destination destination, Instant now) {
        Timestamp at = Timestamp.from(now);
        insert(OutboxStatements.SCHEDULE, event.source(), event.eventId(), destination.url().toString(), at, at,
                event.traceParent());
    }

    /**
     * Records, in the caller's transaction, that the event is not forwarded to the destination, whose filter does not
     * match its body: the event's page shows it with the reason.
     */
    public void filtered(WebhookEvent event, Destination destination, Instant now) {
        Timestamp at = Timestamp.from(now);
        insert(OutboxStatements.FILTER, event.source(), event.eventId(), destination.url().toString(), at, at,
                "not forwarded: the body does not contain " + destination.filter().json() + " (HOOKSTILE_SOURCES_"
                        + event.source().toUpperCase(Locale.ROOT).replace('-', '_')
                        + "_DESTINATION_FILTER)");
    }

    /**
     * Schedules a notification to the operator's endpoint, in the caller's transaction; {@code false} when one of
     * this id to this endpoint is scheduled already (another instance, or an earlier run, wrote it): nothing added.
     *
     * @param id   the notification's id, the same wherever and however often it is computed: its {@code webhook-id}
     * @param body the notification as sent, {@code application/json}
     */
    public boolean scheduleNotification(String id, Destination endpoint, byte[] body, Instant now) {
        Timestamp at = Timestamp.from(now);
        return insert(OutboxStatements.SCHEDULE_NOTIFICATION, id, endpoint.url().toString(), at, at, body) == 1;
    }

    /**
     * Where notifications go, and the secret they are signed with: the relay sends rows of
     * {@link OutboxStatements#NOTIFICATIONS} there, and leaves them pending while none is given or the row names another
     * URL (the endpoint was changed since).
     */
    public void notifyTo(Destination endpoint) {
        this.notifications = endpoint;
    }

    /** The notifications' endpoint; {@code null} while none is given. */
    public Destination notifications() {
        return notifications;
    }

    /** Called by the try before it runs an event's handlers: their effects belong to this event. */
    public void processing(WebhookEvent event) {
        transactions.putResource(PROCESSING, new Effects(event));
    }

    @Override
    public void post(URI url, String contentType, byte[] body) {
        if (url == null || !url.isAbsolute() || url.getHost() == null
                || !("http".equals(url.getScheme()) || "https".equals(url.getScheme()))) {
            throw new IllegalArgumentException("an effect needs an absolute http or https URL, not "
                    + Redacted.endpoint(String.valueOf(url)));
        }
        if (contentType == null || contentType.isBlank() || contentType.length() > Text.MAX_STORED
                || contentType.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new IllegalArgumentException("an effect needs a Content-Type of 1 to " + Text.MAX_STORED
                    + " printable characters");
        }
        if (body == null || body.length > MAX_BODY) {
            throw new IllegalArgumentException("an effect's body must be present and at most " + MAX_BODY + " bytes");
        }
        Effects effects = transactions.getTransactionKey() == null
                || transactions.getTransactionStatus() != Status.STATUS_ACTIVE
                ? null : (Effects) transactions.getResource(PROCESSING);
        if (effects == null) {
            throw new IllegalStateException("ForwardingSchedule.post schedules an effect of an event being processed: call it"
                    + " from a WebhookHandler");
        }
        Timestamp at = Timestamp.from(Instant.now());
        insert(OutboxStatements.SCHEDULE_EFFECT, effects.event.source(), effects.event.eventId(), url.toString(), at, at,
                ++effects.count, contentType, body, effects.event.traceParent());
    }

    private int insert(String sql, Object... parameters) {
        try (PreparedStatement insert = em.unwrap(Connection.class).prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                insert.setObject(i + 1, parameters[i]);
            }
            return insert.executeUpdate();
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    /** The effects a try has scheduled for one event so far: the n of the next one. */
    private static final class Effects {
        final WebhookEvent event;
        int count;

        Effects(WebhookEvent event) {
            this.event = event;
        }
    }
}
