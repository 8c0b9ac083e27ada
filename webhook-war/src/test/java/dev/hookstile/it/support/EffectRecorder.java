package dev.hookstile.it.support;

import dev.hookstile.api.HandlesWebhooks;
import dev.hookstile.api.PermanentFailure;
import dev.hookstile.api.TransientFailure;
import dev.hookstile.api.WebhookEvent;
import dev.hookstile.api.WebhookHandler;
import dev.hookstile.platform.boundary.ContainerResources;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.ConnectionFactory;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Instant;

/**
 * A handler whose effect is a row in {@code it_effect}, written in the processing transaction. The table has no
 * unique key on purpose: an event processed twice shows up as two rows.
 *
 * <p>Event ids steer it, and every failure comes after the effect was written (so it must roll back):
 * <ul>
 *     <li>{@code fail-once-...} throws an unclassified exception on attempt 1;</li>
 *     <li>{@code flaky2-...} throws {@link TransientFailure} on attempts 1 and 2;</li>
 *     <li>{@code forever-...} throws {@link TransientFailure} on every attempt;</li>
 *     <li>{@code broken-...} throws {@link PermanentFailure} until a test "fixes" it (a row in {@code it_fixed});</li>
 *     <li>{@code hold-...} waits while the file named by {@code HOOKSTILE_IT_HOLD_FILE} exists, so a test can crash
 *     the server with events in flight;</li>
 *     <li>{@code hang-...} sleeps ten minutes, as a handler stuck on a call without a timeout does;</li>
 *     <li>{@code nap-...} takes {@value #NAP_MILLIS} ms, so that its try's recorded duration can be checked;</li>
 *     <li>{@code slow-...} takes {@value #SLOW_MILLIS} ms, so that a backlog of them drains slowly;</li>
 *     <li>{@code halt-...} halts the JVM right after the try's transaction commits, before the broker hears that
 *     the message was consumed: the crash window this design leaves open;</li>
 *     <li>{@code detach-...} makes the consumer delivering it stop receiving while its connection stays open
 *     ({@link ConsumerDetacher}), as a consumer stalled after a broker restart did.</li>
 * </ul>
 */
@ApplicationScoped
// Every test source but "quiet", whose events no handler selects (recorded ignored); "dying" is configured only on
// the server NotificationsIT runs.
@HandlesWebhooks(sources = {"it", "gh", "ghbody", "pay", "shop", "slack", "tw", "wa", "svix", "inhouse", "bo",
        "dying"})
public class EffectRecorder implements WebhookHandler {

    public static final int NAP_MILLIS = 300;
    public static final int SLOW_MILLIS = 15;

    @PersistenceContext(unitName = "hookstile")
    EntityManager em;

    @Resource
    TransactionSynchronizationRegistry transactions;

    // The resource adapter's connection factory: its class loader knows the adapter's classes.
    @Resource(lookup = ContainerResources.CONNECTION_FACTORY)
    ConnectionFactory adapterFactory;

    @Override
    public void handle(WebhookEvent event) throws Exception {
        if (event.eventId().startsWith("hold-")) {
            holdWhileFileExists();
        }
        if (event.eventId().startsWith("hang-")) {
            Thread.sleep(600_000);
        }
        if (event.eventId().startsWith("nap-")) {
            Thread.sleep(NAP_MILLIS);
        }
        if (event.eventId().startsWith("slow-")) {
            Thread.sleep(SLOW_MILLIS);
        }
        em.createNativeQuery("INSERT INTO it_effect (source, event_id, attempt, recorded_at, trace_parent)"
                        + " VALUES (?1, ?2, ?3, ?4, ?5)")
                .setParameter(1, event.source())
                .setParameter(2, event.eventId())
                .setParameter(3, event.attempt())
                .setParameter(4, Timestamp.from(Instant.now()))
                .setParameter(5, event.traceParent())
                .executeUpdate();
        String id = event.eventId();
        if (id.startsWith("detach-")) {
            ConsumerDetacher.detachCurrentConsumer(adapterFactory.getClass().getClassLoader());
        }
        if (id.startsWith("halt-")) {
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    if (status == Status.STATUS_COMMITTED) {
                        Runtime.getRuntime().halt(137);
                    }
                }
            });
        }
        if (id.startsWith("fail-once-") && event.attempt() == 1) {
            throw new IllegalStateException("simulated handler failure on attempt 1 of " + id);
        }
        if (id.startsWith("flaky2-") && event.attempt() <= 2) {
            throw new TransientFailure("simulated outage on attempt " + event.attempt() + " of " + id);
        }
        if (id.startsWith("forever-")) {
            throw new TransientFailure("simulated outage that never ends, attempt " + event.attempt());
        }
        if (id.startsWith("broken-") && !fixed(id)) {
            throw new PermanentFailure("simulated bad input in " + id);
        }
    }

    private boolean fixed(String eventId) {
        return !em.createNativeQuery("SELECT 1 FROM it_fixed WHERE event_id = ?1").setParameter(1, eventId)
                .getResultList().isEmpty();
    }

    private static void holdWhileFileExists() throws InterruptedException {
        String hold = System.getenv("HOOKSTILE_IT_HOLD_FILE");
        if (hold == null) {
            return;
        }
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (Files.exists(Path.of(hold))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("held for too long");
            }
            Thread.sleep(100);
        }
    }
}
