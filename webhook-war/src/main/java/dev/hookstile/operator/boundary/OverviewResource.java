package dev.hookstile.operator.boundary;

import dev.hookstile.events.boundary.EventCounts;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.health.boundary.BrokerHealth;
import dev.hookstile.health.boundary.ConsumerHealth;
import dev.hookstile.health.boundary.DatabaseHealth;
import dev.hookstile.ingest.boundary.IngestStatistics;
import dev.hookstile.ingest.Series;
import dev.hookstile.web.boundary.Problems;
import dev.hookstile.queue.boundary.QueueDepth;
import dev.hookstile.source.Source;
import dev.hookstile.source.boundary.Sources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/overview}: what an operator looks at first. Per source, what ingest answered in the last hour and
 * day (from the counts ingest keeps in memory and writes every few seconds, {@link IngestStatistics}), what waits and
 * what is dead (bounded counts by index, {@link EventCounts}), and the last 15 minutes as a series; the health of the
 * database, the broker and the consumers as the health checks last saw it (each asks at most once a second); the
 * messages waiting in the broker's event queues as {@link QueueDepth} last counted them.
 */
@OperatorOnly
@Path("api/overview")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class OverviewResource {

    @Inject
    Sources sources;

    @Inject
    EventCounts counts;

    @Inject
    IngestStatistics statistics;

    @Inject
    QueueDepth queueDepth;

    @Inject
    @Readiness
    DatabaseHealth database;

    @Inject
    @Readiness
    BrokerHealth broker;

    @Inject
    @Liveness
    ConsumerHealth consumers;

    @GET
    public Response overview(@QueryParam("source") String sourceParameter) {
        String only;
        try {
            only = QueryParameters.text("source", sourceParameter, QueryParameters.MAX_SOURCE);
        } catch (IllegalArgumentException e) {
            return QueryParameters.invalid(e, "/api/overview");
        }
        if (only != null && sources.find(only).isEmpty()) {
            return Problems.of(404, "source-not-found", "Source not found", "no source with this name is configured",
                    "/api/overview").build();
        }
        long now = System.currentTimeMillis();
        Map<String, IngestStatistics.SourceTotals> totals = statistics.bySource(now);
        List<SourceView> views = new ArrayList<>();
        for (Source source : sources.all()) {
            if (only != null && !only.equals(source.name())) {
                continue;
            }
            // One statement per source: three bounded counts, the oldest waiting and the newest event.
            EventCounts.Summary summary = counts.summary(source.name(), EventStatus.RECEIVED, EventStatus.RETRYING,
                    EventStatus.DEAD);
            Map<EventStatus, Long> waiting = summary.counts();
            IngestStatistics.SourceTotals sourceTotals = totals.get(source.name());
            views.add(new SourceView(source.name(), source.provider().name(),
                    Outcomes.of(sourceTotals == null ? null : sourceTotals.lastHour()),
                    Outcomes.of(sourceTotals == null ? null : sourceTotals.lastDay()),
                    new Waiting(waiting.get(EventStatus.RECEIVED), waiting.get(EventStatus.RETRYING)),
                    waiting.get(EventStatus.DEAD), EventCounts.COUNT_LIMIT,
                    summary.oldestWaiting().map(Instant::toString).orElse(null),
                    lastEvent(summary.newest().orElse(null), sourceTotals)));
        }
        Series series = statistics.series(only, now);
        var depth = queueDepth.depth();
        return Response.ok(new Overview(Instant.ofEpochMilli(now).toString(), health(),
                new Queue(depth.isPresent() ? depth.getAsLong() : null), views,
                SeriesView.of(series))).build();
    }

    /**
     * The newest of the last event ingest accepted within the day (counted even while it waits in the queue) and the
     * newest event recorded (older ones, or accepted by an instance whose counts are not written yet).
     */
    private static String lastEvent(Instant recorded, IngestStatistics.SourceTotals totals) {
        Instant accepted = totals == null ? null : totals.lastEventAt();
        Instant last = accepted == null ? recorded
                : recorded == null || accepted.isAfter(recorded) ? accepted : recorded;
        return last == null ? null : last.toString();
    }

    private Health health() {
        HealthCheckResponse db = database.call();
        boolean reachable = db.getData().map(data -> Boolean.TRUE.equals(data.get("reachable"))).orElse(false);
        return new Health(reachable ? "UP" : "DOWN", status(broker), status(consumers));
    }

    private static String status(HealthCheck check) {
        try {
            return check.call().getStatus().name();
        } catch (RuntimeException e) {
            return HealthCheckResponse.Status.DOWN.name();
        }
    }

    @JsonbPropertyOrder({"generatedAt", "health", "queue", "sources", "series"})
    public record Overview(String generatedAt, Health health, Queue queue, List<SourceView> sources,
                           SeriesView series) {
    }

    @JsonbPropertyOrder({"database", "broker", "consumers"})
    public record Health(String database, String broker, String consumers) {
    }

    /** Messages waiting in the broker's event queues; absent while it is not known. */
    public record Queue(Long depth) {
    }

    @JsonbPropertyOrder({"name", "provider", "lastHour", "lastDay", "waiting", "dead", "countLimit",
            "oldestWaitingAt", "lastEventAt"})
    public record SourceView(String name, String provider, Outcomes lastHour, Outcomes lastDay, Waiting waiting,
                             long dead, int countLimit, String oldestWaitingAt, String lastEventAt) {
    }

    @JsonbPropertyOrder({"accepted", "duplicate", "rejected"})
    public record Outcomes(long accepted, long duplicate, long rejected) {

        static Outcomes of(IngestStatistics.Totals totals) {
            return totals == null ? new Outcomes(0, 0, 0)
                    : new Outcomes(totals.accepted(), totals.duplicate(), totals.rejected());
        }
    }

    /** {@code queued}: events a replay queued again ({@code received}); {@code retrying}: failed, to be tried again. */
    @JsonbPropertyOrder({"queued", "retrying"})
    public record Waiting(long queued, long retrying) {
    }

    @JsonbPropertyOrder({"bucketSeconds", "start", "accepted", "duplicate", "rejected"})
    public record SeriesView(long bucketSeconds, String start, double[] accepted, double[] duplicate,
                             double[] rejected) {

        static SeriesView of(Series series) {
            return new SeriesView(10, Instant.ofEpochMilli(series.start()).toString(), series.accepted(),
                    series.duplicate(), series.rejected());
        }
    }
}
