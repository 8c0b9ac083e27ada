package dev.hookstile.operator.boundary;

import dev.hookstile.it.DeployedHookstile;
import dev.hookstile.it.Webhooks;
import dev.hookstile.monitoring.MonitoringQueries;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code GET /metrics} on the real stack: signed traffic, a failing handler and a failing destination move every
 * family as they should (counts equal to what was sent, histograms cumulative, gauges back to zero after the drain),
 * and {@code promtool check metrics} finds nothing wrong with Hookstile's families.
 */
class MetricsIT extends DeployedHookstile {

    private static final Duration PROCESSING = Duration.ofSeconds(60);
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{.*})? (\\S+)$");

    @Test
    void trafficFailuresAndADownDestinationMoveEveryFamilyByWhatWasSent() throws Exception {
        Map<String, Double> before = scrape();
        String run = UUID.randomUUID().toString().substring(0, 8);
        var completed = new ArrayList<String>();
        for (int i = 0; i < 20; i++) {
            completed.add("met-" + run + "-" + i);
        }
        var flaky = List.of("flaky2-" + run + "-a", "flaky2-" + run + "-b");
        var broken = List.of("broken-" + run + "-a", "broken-" + run + "-b", "broken-" + run + "-c");
        for (String id : completed) {
            assertEquals(202, post(id).statusCode());
        }
        for (String id : flaky) {
            assertEquals(202, post(id).statusCode());
        }
        for (String id : broken) {
            assertEquals(202, post(id).statusCode());
        }
        for (String id : completed.subList(0, 5)) {
            assertEquals(200, post(id).statusCode(), "a redelivery is a duplicate");
        }
        HttpResponse<String> forged = webhooks.send(webhooks.post("it", "{\"type\":\"x\"}")
                .header("webhook-id", "forged-" + run).header("webhook-timestamp", "1")
                .header("webhook-signature", "v1,AAAA"));
        assertTrue(forged.statusCode() >= 400 && forged.statusCode() < 500, forged.body());
        String down = "down-" + run;
        assertEquals(202, webhooks.send(webhooks.standard("fwddown", down, "{\"type\":\"invoice.paid\"}"))
                .statusCode());

        for (String id : completed) {
            webhooks.awaitRecorded("it", id, Webhooks.completed(), PROCESSING);
        }
        for (String id : flaky) {
            webhooks.awaitRecorded("it", id, Webhooks.completed(), PROCESSING);
        }
        for (String id : broken) {
            webhooks.awaitRecorded("it", id, state("dead"), PROCESSING);
        }
        // The gauges are counted every 10 s: waiting back to 0 once nothing of "it" is queued or retrying.
        // The dead gauge counting this test's deaths proves a count after them.
        double deadBefore = value(before, "hookstile_events_dead{source=\"it\"}");
        Map<String, Double> after = awaitScrape(m -> value(m, "hookstile_events_dead{source=\"it\"}") >= deadBefore + 3
                && value(m, "hookstile_events_waiting{source=\"it\"}") == 0
                && value(m, "hookstile_outbox_attempts_total{destination=\"fwddown\",result=\"failed\"}")
                > value(before, "hookstile_outbox_attempts_total{destination=\"fwddown\",result=\"failed\"}")
                && value(m, "hookstile_outbox_pending{destination=\"fwddown\"}") >= 1);

        assertEquals(25, delta(before, after, "hookstile_events_accepted_total{source=\"it\"}"));
        assertEquals(5, delta(before, after, "hookstile_events_duplicate_total{source=\"it\"}"));
        assertEquals(22, delta(before, after, "hookstile_events_processed_total{source=\"it\",outcome=\"completed\"}"));
        assertEquals(4, delta(before, after, "hookstile_events_processed_total{source=\"it\",outcome=\"retried\"}"),
                "two tries failed for each flaky event");
        assertEquals(3, delta(before, after, "hookstile_events_processed_total{source=\"it\",outcome=\"dead\"}"));
        assertEquals(22, delta(before, after, "hookstile_event_end_to_end_seconds_count{source=\"it\"}"));
        assertTrue(value(after, "hookstile_events_dead{source=\"it\"}") >= deadBefore + 3, "the dead gauge counts them");
        assertTrue(delta(before, after, "hookstile_ingest_ack_seconds_count{outcome=\"accepted\"}") >= 26);
        assertTrue(delta(before, after, "hookstile_ingest_ack_seconds_count{outcome=\"duplicate\"}") >= 5);
        assertTrue(delta(before, after, "hookstile_ingest_ack_seconds_count{outcome=\"rejected\"}") >= 1);
        assertTrue(delta(before, after, "hookstile_processing_try_seconds_count{outcome=\"retried\"}") >= 4);
        assertTrue(delta(before, after, "hookstile_processing_try_seconds_count{outcome=\"dead\"}") >= 3);
        assertTrue(delta(before, after, "hookstile_deliveries_rejected_total{reason=\"invalid-signature\"}")
                + delta(before, after, "hookstile_deliveries_rejected_total{reason=\"invalid-timestamp\"}")
                + delta(before, after, "hookstile_deliveries_rejected_total{reason=\"timestamp-out-of-tolerance\"}")
                + delta(before, after, "hookstile_deliveries_rejected_total{reason=\"malformed-signature\"}") >= 1);
        assertEquals(1, after.entrySet().stream().filter(e -> e.getKey().startsWith("hookstile_build_info{"))
                .mapToDouble(Map.Entry::getValue).sum());
        assertHistogramsCumulative(after);
    }

    @Test
    void hookstilesFamiliesPassPromtool() throws Exception {
        // As Prometheus asks: HTTP/1.1, no h2c upgrade offered (Grizzly leaves the Content-Type out of its answer to a
        // request offering one, which the JDK's client does on a connection's first request).
        HttpResponse<String> scrape = webhooks.send(HttpRequest.newBuilder(URI.create(webhooks.base() + "metrics"))
                .version(HttpClient.Version.HTTP_1_1).GET());
        assertEquals(200, scrape.statusCode());
        assertTrue(scrape.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"),
                scrape.headers().toString());
        String ours = MonitoringQueries.hookstileFamilies(scrape.body());
        assertEquals("", MonitoringQueries.checkMetrics(ours), "promtool check metrics on Hookstile's families");
        assertTrue(ours.contains("# TYPE hookstile_ingest_ack_seconds histogram"), ours);
    }

    /** What the dashboard and the alert rules in monitoring/ query exists in a real scrape. */
    @Test
    void everySeriesTheDashboardAndAlertsQueryIsScraped() {
        Map<String, Double> scrape = scrape();
        var names = new java.util.TreeSet<String>();
        scrape.keySet().forEach(series -> names.add(series.replaceFirst("\\{.*", "")));
        var missing = new java.util.TreeSet<>(MonitoringQueries.metricNames());
        missing.removeAll(names);
        assertEquals(java.util.Set.of(), missing, "queried by monitoring/ but not in the scrape");
    }

    private static void assertHistogramsCumulative(Map<String, Double> scrape) {
        var series = new LinkedHashMap<String, List<double[]>>();
        Pattern le = Pattern.compile("^(\\w+)_bucket\\{(.*?),?le=\"([^\"]+)\"}$");
        for (Map.Entry<String, Double> e : scrape.entrySet()) {
            Matcher m = le.matcher(e.getKey());
            if (m.matches() && m.group(1).startsWith("hookstile_")) {
                double bound = m.group(3).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(3));
                series.computeIfAbsent(m.group(1) + "{" + m.group(2) + "}", k -> new ArrayList<>())
                        .add(new double[]{bound, e.getValue()});
            }
        }
        assertTrue(series.size() >= 3, series.keySet().toString());
        series.forEach((name, buckets) -> {
            buckets.sort((a, b) -> Double.compare(a[0], b[0]));
            for (int i = 1; i < buckets.size(); i++) {
                assertTrue(buckets.get(i)[1] >= buckets.get(i - 1)[1], name + " is not cumulative");
            }
            assertEquals(Double.POSITIVE_INFINITY, buckets.get(buckets.size() - 1)[0], name);
            String count = name.replaceFirst("\\{", "_count{").replace(",}", "}").replace("{}", "");
            Double counted = scrape.get(count);
            if (counted != null) {
                assertEquals(counted, buckets.get(buckets.size() - 1)[1], name + ": +Inf is the count");
            }
        });
    }

    private HttpResponse<String> post(String id) {
        return webhooks.send(webhooks.standard("it", id, "{\"type\":\"metrics.test\"}"));
    }

    private static Predicate<JsonObject> state(String status) {
        return recorded -> status.equals(recorded.getString("status"));
    }

    private Map<String, Double> awaitScrape(Predicate<Map<String, Double>> condition) {
        long deadline = System.nanoTime() + PROCESSING.toNanos();
        Map<String, Double> last;
        do {
            last = scrape();
            if (condition.test(last)) {
                return last;
            }
            Webhooks.sleep(Duration.ofMillis(500));
        } while (System.nanoTime() < deadline);
        return fail("the metrics never showed the drain: " + last);
    }

    private Map<String, Double> scrape() {
        HttpResponse<String> answer = webhooks.get("metrics");
        assertEquals(200, answer.statusCode(), answer.body());
        var samples = new LinkedHashMap<String, Double>();
        for (String line : answer.body().split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (!line.startsWith("#") && m.matches()) {
                String value = m.group(3);
                samples.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), switch (value) {
                    case "+Inf" -> Double.POSITIVE_INFINITY;
                    case "NaN" -> Double.NaN;
                    default -> Double.parseDouble(value);
                });
            }
        }
        return samples;
    }

    private static double value(Map<String, Double> scrape, String series) {
        Double value = scrape.get(series);
        return value == null ? 0 : value;
    }

    private static long delta(Map<String, Double> before, Map<String, Double> after, String series) {
        assertTrue(after.containsKey(series), series + " is not in the scrape");
        return Math.round(value(after, series) - value(before, series));
    }
}
