package dev.hookstile.replay.boundary;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.events.boundary.EventRecorder;
import dev.hookstile.events.control.ExpiredEvents;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.events.entity.ReceivedEvent;
import dev.hookstile.platform.boundary.SchemaMigration;
import jakarta.persistence.EntityManager;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.HashSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The life of an event (docs/architecture.md, "The life of an event") explored: two consumers standing for two
 * instances, an operator replaying one event or a filter, a start's look for lost replays, the retention and senders
 * delivering again, each on a connection and thread of its own, drive the real statements in random interleavings;
 * the invariants are checked after every step and once everything has drained. A seeded loop: each seed is printed,
 * and {@code -Dhookstile.model.seed=N} runs that one again. On PostgreSQL when one answers (as the integration tests
 * find it), else on H2.
 *
 * <p>A step is one transaction's statement (or its commit); a step that waits for a row lock another actor holds is
 * left waiting while the others go on, as it would be between two instances.
 */
class EventLifeInterleavingTest {

    private static final int SEEDS = Integer.getInteger("hookstile.model.seeds", 40);
    private static final int STEPS = Integer.getInteger("hookstile.model.steps", 160);
    private static final Long ONE_SEED = Long.getLong("hookstile.model.seed");
    private static final int EVENTS = 4;
    private static final Duration TICK = Duration.ofSeconds(5);

    /** The requeue statement every way of replaying used before each matched only what its caller saw. */
    static final String REQUEUE_BEFORE_THE_FIX = """
            UPDATE received_event SET status = 'received', replay_base = attempts, updated_at = ?1
            WHERE source = ?2 AND event_id = ?3
              AND (status IN ('dead', 'completed', 'ignored') OR (status = 'received' AND updated_at < ?4))""";

    private static Database database;

    @BeforeAll
    static void migrate() throws SQLException {
        database = Database.open();
    }

    @AfterAll
    static void drop() throws SQLException {
        database.close();
    }

    @Test
    void noInterleavingOfTwoInstancesAnOperatorAndTheRetentionBreaksAnInvariant() throws Exception {
        List<Long> seeds = seeds(SEEDS);
        for (long seed : seeds) {
            Exploration run = new Exploration(seed, Ways.current());
            List<String> violations = run.explore();
            if (!violations.isEmpty()) {
                fail("seed " + seed + " (rerun with -Dhookstile.model.seed=" + seed + ") on " + database.name + ": "
                        + violations + "\nsteps:\n" + String.join("\n", run.trace));
            }
        }
        System.out.println("EventLifeInterleavingTest: " + seeds.size() + " seeds of " + STEPS + " steps on "
                + database.name + ", no invariant broken; seeds " + seeds.get(0) + ".." + seeds.get(seeds.size() - 1));
    }

    /**
     * The exploration is only worth its green if it finds the race it was written for: with the requeue statement
     * as it was, a start's look for lost replays turned an event a consumer had just finished back to
     * {@code received}, and its handler ran again for one replay.
     */
    @Test
    void theExplorationFindsTheLostReplayRaceInTheRequeueBeforeItsFix() throws Exception {
        for (long seed = 1; seed <= 400; seed++) {
            Exploration run = new Exploration(seed, Ways.beforeTheFix());
            List<String> violations = run.explore();
            if (violations.stream().anyMatch(v -> v.contains("lost replay"))) {
                System.out.println("EventLifeInterleavingTest: the requeue before the fix broke the model with seed "
                        + seed + " on " + database.name + ": " + violations);
                return;
            }
        }
        fail("400 seeds did not find the lost-replay race in the statement before the fix");
    }

    private static List<Long> seeds(int count) {
        if (ONE_SEED != null) {
            return List.of(ONE_SEED);
        }
        long first = Long.getLong("hookstile.model.first-seed", 1);
        var seeds = new ArrayList<Long>(count);
        for (long seed = first; seed < first + count; seed++) {
            seeds.add(seed);
        }
        return seeds;
    }

    /** The update each way of replaying makes, as SQL with numbered parameters, and its parameters. */
    record Ways(String replay, String lost, String asSeen, boolean old) {

        static Ways current() {
            return new Ways(NamedQueries.of(ReceivedEvent.class, ReceivedEvent.REPLAY),
                    NamedQueries.of(ReceivedEvent.class, ReceivedEvent.REQUEUE_LOST),
                    NamedQueries.of(ReceivedEvent.class, ReceivedEvent.REPLAY_AS_SEEN), false);
        }

        static Ways beforeTheFix() {
            return new Ways(REQUEUE_BEFORE_THE_FIX, REQUEUE_BEFORE_THE_FIX, REQUEUE_BEFORE_THE_FIX, true);
        }
    }

    /** A row of {@code received_event} as a transition found it, or {@code null} status when there is none. */
    record Row(String status, int attempts, Instant updatedAt) {
    }

    /** One seed's run: its own source, so runs share the schema and never each other's events. */
    private static final class Exploration {

        private final long seed;
        private final Ways ways;
        private final Random random;
        private final String source;
        private final List<String> trace = new ArrayList<>();
        private final List<String> violations = new ArrayList<>();
        /** The broker's queue: messages (event ids) waiting; taken ones are in flight with their consumer. */
        private final List<String> queue = new ArrayList<>();
        private final Map<String, Integer> grants = new HashMap<>();
        private final Map<String, Integer> deaths = new HashMap<>();
        /** Events the retention deleted: with their tombstones living for ever here, none may be recorded again. */
        private final Set<String> forgotten = new HashSet<>();
        private Instant now = Instant.parse("2026-11-27T10:00:00Z");
        private boolean failures = true;

        Exploration(long seed, Ways ways) {
            this.seed = seed;
            this.ways = ways;
            this.random = new Random(seed);
            this.source = "m" + seed + (ways.old() ? "-old" : "") + "-" + Long.toString(System.nanoTime(), 36);
        }

        List<String> explore() throws Exception {
            var actors = List.of(new Actor("instance-1 consumer", Role.CONSUMER), new Actor("instance-2 consumer",
                    Role.CONSUMER), new Actor("operator", Role.OPERATOR), new Actor("start", Role.START),
                    new Actor("retention and senders", Role.SENDERS));
            try (Connection observer = database.connect()) {
                observer.setAutoCommit(true);
                for (int i = 0; i < STEPS && violations.isEmpty(); i++) {
                    step(actors, true);
                    check(observer, false);
                }
                // Quiescence: no new work, every operation under way ends, then the consumers drain the queue.
                failures = false;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (violations.isEmpty() && (busy(actors) || waiting() > 0)) {
                    if (System.nanoTime() > deadline) {
                        violations.add("did not drain within 60 s: " + waiting() + " messages waiting");
                        break;
                    }
                    step(actors, false);
                    check(observer, false);
                }
                if (violations.isEmpty()) {
                    check(observer, true);
                }
            } finally {
                for (Actor actor : actors) {
                    actor.close();
                }
            }
            return violations;
        }

        private synchronized int waiting() {
            return queue.size();
        }

        private boolean busy(List<Actor> actors) {
            return actors.stream().anyMatch(actor -> actor.operation != null);
        }

        /** One step of one actor that is not waiting for a lock; a new operation when it has none and may start. */
        private void step(List<Actor> actors, boolean newWork) throws Exception {
            now = now.plus(TICK);
            var ready = new ArrayList<Actor>();
            long patience = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (ready.isEmpty()) {
                if (!newWork && !busy(actors) && waiting() == 0) {
                    return;  // drained meanwhile: the last step under way ended its operation
                }
                for (Actor actor : actors) {
                    if (actor.idle() && (actor.operation != null || newWork
                            || actor.role == Role.CONSUMER && waiting() > 0)) {
                        ready.add(actor);
                    }
                }
                if (ready.isEmpty()) {
                    if (System.nanoTime() > patience) {
                        var where = new StringBuilder();
                        Thread.getAllStackTraces().forEach((thread, stack) -> {
                            if (thread.getName().startsWith("pool-")) {
                                where.append("\n").append(thread.getName()).append(": ");
                                for (int f = 0; f < Math.min(stack.length, 12); f++) {
                                    where.append("\n    ").append(stack[f]);
                                }
                            }
                        });
                        trace.add("every actor waited 30 s; threads:" + where);
                        violations.add("every actor waited for a lock for 30 s");
                        return;
                    }
                    Thread.sleep(5);
                }
            }
            Actor actor = ready.get(random.nextInt(ready.size()));
            if (actor.operation == null) {
                actor.operation = newOperation(actor);
            }
            actor.run();
        }

        private Operation newOperation(Actor actor) {
            Instant at = now;
            String id = "e" + random.nextInt(EVENTS);
            return switch (actor.role) {
                case CONSUMER -> new Delivery(actor, random.nextInt(100), random.nextBoolean());
                case OPERATOR -> random.nextInt(3) == 0 ? new Job(actor, random.nextBoolean()
                        ? EventStatus.COMPLETED : EventStatus.DEAD) : new Replay(actor, id);
                case START -> new LostReplayLook(actor, at);
                case SENDERS -> random.nextInt(4) == 0 ? new Retention(actor) : new Send(id);
            };
        }

        /**
         * What the model may rely on at every moment, and when everything has drained. The database is read first,
         * outside the model's lock; grants only grow, and a try's grant is counted before its message can be taken,
         * so a grant counted after the read only makes the check more lenient, never wrong.
         */
        private void check(Connection observer, boolean drained) throws SQLException {
            Map<String, Row> rows = rows(observer);
            Map<String, Integer> effects = counts(observer, "SELECT event_id, count(*) FROM model_effect"
                    + " WHERE source = ? GROUP BY event_id");
            Map<String, Integer> tombstones = counts(observer, "SELECT event_id, 1 FROM event_tombstone"
                    + " WHERE source = ?");
            synchronized (this) {
                compare(rows, effects, tombstones, drained);
            }
        }

        private void compare(Map<String, Row> rows, Map<String, Integer> effects, Map<String, Integer> tombstones,
                             boolean drained) {
            for (String id : grants.keySet()) {
                int ran = effects.getOrDefault(id, 0);
                int granted = grants.getOrDefault(id, 0);
                if (ran > granted) {
                    violations.add(id + ": handlers ran " + ran + " times for " + granted
                            + " tries granted (the first delivery and each replay that queued it)");
                }
                if (rows.containsKey(id) && forgotten.contains(id)) {
                    violations.add(id + ": recorded again after the retention deleted it, its tombstone living");
                }
                if (drained) {
                    if (rows.containsKey(id) && tombstones.containsKey(id)) {
                        violations.add(id + ": a tombstone beside a recorded event once the retention ended");
                    }
                    Row row = rows.get(id);
                    if (row == null && !tombstones.containsKey(id)) {
                        violations.add(id + ": acknowledged, never recorded");
                    }
                    if (row != null && EventStatus.of(row.status()).open()) {
                        violations.add(id + ": left " + row.status() + " after everything drained");
                    }
                    int died = deaths.getOrDefault(id, 0);
                    if (ran + died != granted) {
                        violations.add(id + ": " + granted + " tries granted, " + ran + " ran and " + died
                                + " ended dead: one replay request adds exactly one try");
                    }
                }
            }
            if (!violations.isEmpty()) {
                trace.add("  violated: " + violations + "; rows " + rows + ", effects " + effects);
            }
        }

        private Map<String, Row> rows(Connection connection) throws SQLException {
            var rows = new HashMap<String, Row>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT event_id, status, attempts, updated_at FROM received_event WHERE source = ?")) {
                select.setString(1, source);
                try (ResultSet result = select.executeQuery()) {
                    while (result.next()) {
                        rows.put(result.getString(1), new Row(result.getString(2), result.getInt(3),
                                result.getTimestamp(4).toInstant()));
                    }
                }
            }
            return rows;
        }

        private Map<String, Integer> counts(Connection connection, String sql) throws SQLException {
            var counts = new HashMap<String, Integer>();
            try (PreparedStatement select = connection.prepareStatement(sql)) {
                select.setString(1, source);
                try (ResultSet result = select.executeQuery()) {
                    while (result.next()) {
                        counts.put(result.getString(1), result.getInt(2));
                    }
                }
            }
            return counts;
        }

        /**
         * Commits, and only then lets what the transaction did be seen by the model: messages sent, tries granted.
         * Never under the model's lock: a commit may wait inside the database.
         */
        private void commit(Connection connection, Runnable afterCommit) throws SQLException {
            connection.commit();
            synchronized (this) {
                afterCommit.run();
            }
        }

        private synchronized void log(Actor actor, String what) {
            trace.add(actor.name + ": " + what);
        }

        private synchronized Optional<String> take() {
            return queue.isEmpty() ? Optional.empty() : Optional.of(queue.remove(random.nextInt(queue.size())));
        }

        private void send(String id) {
            queue.add(id);
        }

        private void grant(String id) {
            grants.merge(id, 1, Integer::sum);
        }

        /** The row as a transition finds it, locked until its transaction ends. */
        private Row lock(Connection connection, String id) throws SQLException {
            try (PreparedStatement select = connection.prepareStatement("SELECT status, attempts, updated_at"
                    + " FROM received_event WHERE source = ? AND event_id = ? FOR UPDATE")) {
                select.setString(1, source);
                select.setString(2, id);
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? new Row(row.getString(1), row.getInt(2), row.getTimestamp(3).toInstant())
                            : new Row(null, 0, null);
                }
            }
        }

        private synchronized void violated(String what) {
            violations.add(what);
        }

        private enum Role { CONSUMER, OPERATOR, START, SENDERS }

        /** A sequence of steps on one actor's connection. */
        private interface Operation {
            /** Runs the next step; {@code true} once the operation has ended. */
            boolean step() throws Exception;

            /** After a step threw (a deadlock the database broke, a lock timeout): undoes what is in flight. */
            void abort();
        }

        private final class Actor implements AutoCloseable {

            final String name;
            final Role role;
            final Connection connection;
            final EventRecorder recorder = new EventRecorder();
            final ExpiredEvents expired = new ExpiredEvents();
            final ExecutorService thread = Executors.newSingleThreadExecutor();
            volatile Operation operation;
            Future<?> running;

            Actor(String name, Role role) throws SQLException {
                this.name = name;
                this.role = role;
                this.connection = database.connect();
                connection.setAutoCommit(false);
                inject(recorder, "em", entityManagerOn(connection));
                inject(expired, "em", entityManagerOn(connection));
            }

            boolean idle() {
                return running == null || running.isDone();
            }

            /** Runs the operation's next step on this actor's thread; a step still waiting after a while is left to it. */
            void run() throws Exception {
                Operation current = operation;
                running = thread.submit(() -> {
                    try {
                        if (current.step()) {
                            operation = null;
                        }
                    } catch (Exception e) {
                        log(this, "aborted: " + e);
                        current.abort();
                        operation = null;
                    }
                    return null;
                });
                try {
                    running.get(database.lockWait, TimeUnit.MILLISECONDS);
                } catch (TimeoutException waitingForALock) {
                    log(this, "waits for a lock");
                }
            }

            void rollback() {
                try {
                    connection.rollback();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public void close() throws SQLException {
                thread.shutdown();
                try {
                    if (!thread.awaitTermination(30, TimeUnit.SECONDS)) {
                        thread.shutdownNow();
                    }
                } catch (InterruptedException e) {
                    thread.shutdownNow();
                    Thread.currentThread().interrupt();
                }
                connection.rollback();
                connection.close();
            }
        }

        /**
         * A consumer's delivery of one message: the claim (new, or again on its row), the handler's effect, then
         * commit; or the handler fails, the try rolls back, and the failure is recorded in a transaction of its own
         * ({@code retrying}: the message goes back to the queue; {@code dead}).
         */
        private final class Delivery implements Operation {

            private final Actor actor;
            private final int dice;
            private final boolean permanent;
            private String id;
            private int stage;
            private boolean claimed;

            Delivery(Actor actor, int dice, boolean permanent) {
                this.actor = actor;
                this.dice = dice;
                this.permanent = permanent;
            }

            @Override
            public boolean step() throws SQLException {
                switch (stage++) {
                    case 0 -> {
                        id = take().orElse(null);
                        log(actor, id == null ? "finds the queue empty" : "takes the message of " + id);
                        return id == null;
                    }
                    case 1 -> {
                        WebhookEvent event = event(id);
                        claimed = actor.recorder.claimNew(List.of(new EventRecorder.NewClaim(event, "{}", null,
                                EventStatus.COMPLETED)), now)[0]
                                || actor.recorder.reclaim(event, EventStatus.COMPLETED, 1, now).isPresent();
                        if (claimed) {
                            try (PreparedStatement effect = actor.connection.prepareStatement(
                                    "INSERT INTO model_effect (source, event_id) VALUES (?, ?)")) {
                                effect.setString(1, source);
                                effect.setString(2, id);
                                effect.executeUpdate();
                            }
                        }
                        log(actor, (claimed ? "claims " : "finds finished or owned ") + id);
                        return false;
                    }
                    case 2 -> {
                        if (!claimed || !failures || dice >= 25) {
                            commit(actor.connection, () -> { });
                            log(actor, "commits " + id);
                            return true;
                        }
                        actor.rollback();
                        log(actor, "'s handler fails " + (permanent ? "permanently" : "transiently") + " on " + id);
                        return false;
                    }
                    default -> {
                        EventStatus status = permanent ? EventStatus.DEAD : EventStatus.RETRYING;
                        WebhookEvent event = event(id);
                        Optional<EventRecorder.State> state = actor.recorder.lock(source, id);
                        boolean written;
                        if (state.isEmpty()) {
                            written = actor.recorder.insertFailure(event, "{}", null, status, 1, "failed", now);
                        } else {
                            written = state.get().open() && actor.recorder.updateFailure(event, status,
                                    state.get().attempts() + 1, "failed", now);
                        }
                        commit(actor.connection, () -> {
                            if (written && status == EventStatus.DEAD) {
                                deaths.merge(id, 1, Integer::sum);
                            } else if (written) {
                                send(id);
                            }
                        });
                        log(actor, written ? "records " + id + " " + status.column()
                                : "finds " + id + " finished by another delivery");
                        return true;
                    }
                }
            }

            @Override
            public void abort() {
                actor.rollback();
                if (id != null) {
                    synchronized (Exploration.this) {
                        send(id);
                    }
                }
            }
        }

        /**
         * The transition of one way of replaying: the row as it finds it (locked), the real update, the message on
         * commit; and whether the update matched only what the model allows from that state.
         */
        private boolean requeue(Actor actor, String way, String sql, String id, Object[] parameters,
                                Function<Row, String> refusal, boolean grants) throws SQLException {
            Row before = lock(actor.connection, id);
            int updated = update(actor.connection, sql, parameters);
            if (updated == 1) {
                String refused = refusal.apply(before);
                if (refused != null) {
                    violated(way + " queued " + id + " again from " + before + ": " + refused);
                }
            }
            boolean finished = before.status() != null && EventStatus.of(before.status()).replayable();
            commit(actor.connection, () -> {
                if (updated == 1) {
                    send(id);
                    if (grants && finished) {
                        grant(id);
                    }
                }
            });
            log(actor, way + " of " + id + " (found " + before + "): " + (updated == 1 ? "queued" : "nothing"));
            return updated == 1;
        }

        /** An operator's replay of one event. */
        private final class Replay implements Operation {

            private final Actor actor;
            private final String id;

            Replay(Actor actor, String id) {
                this.actor = actor;
                this.id = id;
            }

            @Override
            public boolean step() throws SQLException {
                Instant lostBefore = now.minus(Replays.LOST_REPLAY);
                requeue(actor, "a replay", ways.replay(), id, new Object[]{ts(now), source, id, ts(lostBefore)},
                        row -> row.status() != null && (EventStatus.of(row.status()).replayable()
                                || row.status().equals("received") && row.updatedAt().isBefore(lostBefore))
                                ? null : "a replay takes a finished event, or one its message was lost for", true);
                return true;
            }

            @Override
            public void abort() {
                actor.rollback();
            }
        }

        /** A bulk replay job: the events its filter selects, then each queued again in a transaction of its own. */
        private final class Job implements Operation {

            private final Actor actor;
            private final EventStatus status;
            private List<Row> seen;
            private List<String> ids;
            private int next = -1;

            Job(Actor actor, EventStatus status) {
                this.actor = actor;
                this.status = status;
            }

            @Override
            public boolean step() throws SQLException {
                if (next < 0) {
                    seen = new ArrayList<>();
                    ids = new ArrayList<>();
                    try (PreparedStatement select = actor.connection.prepareStatement("SELECT event_id, status,"
                            + " attempts, updated_at FROM received_event WHERE source = ? AND status = ?"
                            + " ORDER BY event_id")) {
                        select.setString(1, source);
                        select.setString(2, status.column());
                        try (ResultSet rows = select.executeQuery()) {
                            while (rows.next()) {
                                ids.add(rows.getString(1));
                                seen.add(new Row(rows.getString(2), rows.getInt(3), rows.getTimestamp(4).toInstant()));
                            }
                        }
                    }
                    actor.connection.commit();
                    log(actor, "a job selects " + status.column() + " events: " + ids);
                    next = 0;
                    return ids.isEmpty();
                }
                String id = ids.get(next);
                Row row = seen.get(next);
                Object[] parameters = ways.old()
                        ? new Object[]{ts(now), source, id, ts(now.minus(Replays.LOST_REPLAY))}
                        : new Object[]{ts(now), source, id, row.status(), row.attempts()};
                requeue(actor, "a job", ways.asSeen(), id, parameters,
                        found -> row.status().equals(found.status()) && row.attempts() == found.attempts() ? null
                                : "a job takes an event only as its filter selected it (" + row + ")", true);
                return ++next == ids.size();
            }

            @Override
            public void abort() {
                actor.rollback();
            }
        }

        /** A start's look for replays lost before it ({@link LostReplays}): its select, then each sent again. */
        private final class LostReplayLook implements Operation {

            private final Actor actor;
            private final Instant startedAt;
            private List<String> ids;
            private int next;

            LostReplayLook(Actor actor, Instant startedAt) {
                this.actor = actor;
                this.startedAt = startedAt;
            }

            @Override
            public boolean step() throws SQLException {
                if (ids == null) {
                    ids = new ArrayList<>();
                    try (PreparedStatement select = actor.connection.prepareStatement(
                            NamedQueries.numbered(LostReplays.RECEIVED_BEFORE).sql())) {
                        select.setTimestamp(1, ts(startedAt));
                        try (ResultSet rows = select.executeQuery()) {
                            while (rows.next()) {
                                if (rows.getString(1).equals(source)) {
                                    ids.add(rows.getString(2));
                                }
                            }
                        }
                    }
                    actor.connection.commit();
                    log(actor, "a start at " + startedAt + " finds replays left received: " + ids);
                    return ids.isEmpty();
                }
                String id = ids.get(next);
                requeue(actor, "a lost replay's requeue", ways.lost(), id, new Object[]{ts(now), source, id,
                        ts(startedAt)}, found -> "received".equals(found.status())
                        && found.updatedAt().isBefore(startedAt) ? null
                        : "a lost replay's message is sent again only while the event waits as the start found it",
                        false);
                return ++next == ids.size();
            }

            @Override
            public void abort() {
                actor.rollback();
            }
        }

        /** A sender delivers an event: the first time it is acknowledged (one try granted), later a redelivery. */
        private final class Send implements Operation {

            private final String id;

            Send(String id) {
                this.id = id;
            }

            @Override
            public boolean step() {
                synchronized (Exploration.this) {
                    if (!grants.containsKey(id)) {
                        grant(id);
                    }
                    send(id);
                    trace.add("a sender delivers " + id);
                }
                return true;
            }

            @Override
            public void abort() {
            }
        }

        /**
         * The retention's batch: tombstones for finished events received and last changed a minute before now, then
         * in a second transaction the events deleted (or, changed meanwhile, kept and their tombstones taken back).
         */
        private final class Retention implements Operation {

            private final Actor actor;
            private List<ExpiredEvents.Expired> batch;

            Retention(Actor actor) {
                this.actor = actor;
            }

            @Override
            public boolean step() throws SQLException {
                Instant cutoff = now.minus(Duration.ofMinutes(1));
                if (batch == null) {
                    batch = actor.expired.leaveTombstones(source, cutoff, 2);
                    commit(actor.connection, () -> { });
                    log(actor, "the retention leaves tombstones for " + batch.stream()
                            .map(ExpiredEvents.Expired::eventId).toList());
                    return batch.isEmpty();
                }
                ExpiredEvents.Deleted deleted = actor.expired.deleteTombstoned(source, batch, cutoff);
                commit(actor.connection, () -> { });
                var gone = new ArrayList<String>();
                for (ExpiredEvents.Expired event : batch) {
                    if (lock(actor.connection, event.eventId()).status() == null) {
                        gone.add(event.eventId());
                    }
                }
                actor.connection.commit();
                synchronized (Exploration.this) {
                    forgotten.addAll(gone);
                }
                log(actor, "the retention deletes " + deleted.total() + ": " + gone);
                return true;
            }

            @Override
            public void abort() {
                actor.rollback();
            }
        }

        private WebhookEvent event(String id) {
            // Received when first sent, as far as the model cares: its place in the retention's order.
            return new WebhookEvent(source, "standard-webhooks", id, "model.event", Instant.parse(
                    "2026-11-27T10:00:00Z").plusSeconds(id.hashCode() & 0xff), 1, Map.of(), "{}".getBytes());
        }
    }

    private static Timestamp ts(Instant at) {
        return Timestamp.from(at);
    }

    private static int update(Connection connection, String sql, Object[] parameters) throws SQLException {
        return NamedQueries.update(connection, sql, parameters);
    }

    private static void inject(Object bean, String field, Object value) {
        try {
            Field f = bean.getClass().getDeclaredField(field);
            f.setAccessible(true);
            f.set(bean, value);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static EntityManager entityManagerOn(Connection connection) {
        return (EntityManager) Proxy.newProxyInstance(EventLifeInterleavingTest.class.getClassLoader(),
                new Class<?>[]{EntityManager.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("unwrap") || args[0] != Connection.class) {
                        throw new UnsupportedOperationException(method.toString());
                    }
                    return connection;
                });
    }

    /** PostgreSQL in a schema of the run's own when one answers, else H2 in PostgreSQL mode. */
    private static final class Database implements AutoCloseable {

        private final String name;
        private final String url;
        private final String user;
        private final String password;
        private final String schema;
        /** How long a step may take before it counts as waiting for a lock. */
        private final long lockWait;

        private Database(String name, String url, String user, String password, String schema, long lockWait) {
            this.name = name;
            this.url = url;
            this.user = user;
            this.password = password;
            this.schema = schema;
            this.lockWait = lockWait;
        }

        static Database open() throws SQLException {
            String url = System.getenv().getOrDefault("HOOKSTILE_TEST_DB_URL",
                    "jdbc:postgresql://127.0.0.1:5432/test");
            String user = System.getenv().getOrDefault("HOOKSTILE_TEST_DB_USER", "postgres");
            String password = System.getenv().getOrDefault("HOOKSTILE_TEST_DB_PASSWORD", "");
            String schema = "hookstile_model_" + System.currentTimeMillis();
            Database database;
            try (Connection probe = DriverManager.getConnection(url, user, password)) {
                probe.createStatement().execute("CREATE SCHEMA " + schema);
                database = new Database("PostgreSQL", url + (url.contains("?") ? "&" : "?") + "currentSchema="
                        + schema, user, password, schema, 150);
            } catch (SQLException noPostgres) {
                String h2 = "jdbc:h2:mem:model-" + System.nanoTime()
                        + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1";
                database = new Database("H2", h2, "", "", null, 150);
            }
            boolean postgres = database.schema != null;
            Flyway.configure().dataSource(database.url, database.user, database.password)
                    .locations("classpath:db/migration").table("hookstile_schema_history")
                    .placeholders(SchemaMigration.placeholders(postgres)).load().migrate();
            try (Connection connection = database.connect()) {
                connection.createStatement().execute("CREATE TABLE model_effect (source VARCHAR(100) NOT NULL,"
                        + " event_id VARCHAR(100) NOT NULL)");
            }
            return database;
        }

        Connection connect() throws SQLException {
            Connection connection = DriverManager.getConnection(url, user, password);
            if (schema == null) {
                // H2 breaks a deadlock only by a lock timeout: short, so that a step that waits ends as a rollback.
                try (var statement = connection.createStatement()) {
                    statement.execute("SET LOCK_TIMEOUT 1000");
                }
            }
            return connection;
        }

        @Override
        public void close() throws SQLException {
            if (schema != null) {
                try (Connection connection = connect()) {
                    connection.createStatement().execute("DROP SCHEMA " + schema + " CASCADE");
                }
            }
        }
    }
}
