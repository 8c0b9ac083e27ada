package dev.hookstile.monitoring;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static dev.hookstile.monitoring.MonitoringQueries.metricNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Holds the dashboard and the alert rules to the metrics contract of issue 24 (the README's table): a misspelt
 * series, label or label value makes a panel empty and an alert silent, and nothing else would say so.
 */
class MonitoringQueriesTest {

    private static final Set<String> ANY = Set.of();
    private static final Set<String> PROCESSING_OUTCOMES = Set.of("completed", "ignored", "retried", "dead");

    /** Series name as Prometheus reads it, to its labels and, where they form a fixed set, their values. */
    private static final Map<String, Map<String, Set<String>>> CONTRACT = new TreeMap<>();

    static {
        counter("hookstile_deliveries_rejected", Map.of("reason", ANY));
        counter("hookstile_deliveries_rejected_by_source", Map.of("source", ANY));
        counter("hookstile_events_accepted", Map.of("source", ANY));
        counter("hookstile_events_duplicate", Map.of("source", ANY));
        counter("hookstile_ingest_unavailable", Map.of("reason", ANY));
        counter("hookstile_events_processed", Map.of("source", ANY, "outcome", PROCESSING_OUTCOMES));
        counter("hookstile_outbox_attempts", Map.of("destination", ANY,
                "result", Set.of("delivered", "failed", "dead")));
        counter("hookstile_replay_events_queued", Map.of());
        counter("hookstile_retention_deleted", Map.of("status", ANY));
        counter("hookstile_consumers_reconnected", Map.of("queue", ANY));
        counter("hookstile_messages_unreadable", Map.of());
        histogram("hookstile_ingest_ack_seconds", Map.of("outcome",
                Set.of("accepted", "duplicate", "rejected", "unavailable")));
        histogram("hookstile_processing_try_seconds", Map.of("outcome", PROCESSING_OUTCOMES));
        histogram("hookstile_event_end_to_end_seconds", Map.of("source", ANY));
        gauge("hookstile_events_waiting", Map.of("source", ANY));
        gauge("hookstile_events_dead", Map.of("source", ANY));
        gauge("hookstile_events_oldest_waiting_age_seconds", Map.of("source", ANY));
        gauge("hookstile_outbox_pending", Map.of("destination", ANY));
        gauge("hookstile_outbox_oldest_due_age_seconds", Map.of("destination", ANY));
        gauge("hookstile_outbox_breaker_open", Map.of("destination", ANY));
        gauge("hookstile_retention_last_run_timestamp_seconds", Map.of("status", ANY));
        gauge("hookstile_build_info", Map.of("version", ANY));
    }

    /** Labels Prometheus adds to every series it scrapes. */
    private static final Set<String> TARGET_LABELS = Set.of("instance", "job");

    private static final Pattern SELECTOR = Pattern.compile("(hookstile_[A-Za-z0-9_]+)\\s*\\{([^}]*)}");
    private static final Pattern MATCHER = Pattern.compile(
            "([A-Za-z_][A-Za-z0-9_]*)\\s*(=~|!~|!=|=)\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\(([^)]*)\\)");
    private static final Pattern LEGEND_LABEL = Pattern.compile("\\{\\{\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*}}");
    private static final Pattern TEMPLATE_LABEL = Pattern.compile("\\$labels\\.([A-Za-z_][A-Za-z0-9_]*)");
    private static final Pattern LITERAL_ALTERNATIVES = Pattern.compile("[A-Za-z0-9_.+-]+(\\|[A-Za-z0-9_.+-]+)*");

    private static void counter(String family, Map<String, Set<String>> labels) {
        CONTRACT.put(family + "_total", labels);
    }

    private static void histogram(String family, Map<String, Set<String>> labels) {
        Map<String, Set<String>> bucket = new LinkedHashMap<>(labels);
        bucket.put("le", ANY);
        CONTRACT.put(family + "_bucket", bucket);
        CONTRACT.put(family + "_sum", labels);
        CONTRACT.put(family + "_count", labels);
    }

    private static void gauge(String family, Map<String, Set<String>> labels) {
        CONTRACT.put(family, labels);
    }

    @Test
    void readsTheSeriesAnExpressionSelects() {
        assertEquals(Set.of("hookstile_ingest_ack_seconds_bucket"), metricNames("histogram_quantile(0.99, sum by "
                + "(le) (rate(hookstile_ingest_ack_seconds_bucket{outcome=~\"accepted|duplicate\"}[5m])))"));
        assertEquals(Set.of("a_total", "b"), metricNames("sum without (instance) (increase(a_total{x=\"not_a_"
                + "metric\", y='nor_this'}[15m] offset 1d)) / on(source) group_left(team) b # c_total is a comment"));
        assertEquals(Set.of("x"), metricNames("max_over_time(x[$__rate_interval:1m] @ start()) > bool 1e-3"));
        assertEquals(Set.of("up"), metricNames("count(up) by (job) and on() vector(1) unless time() > Inf"));
        assertEquals(Set.of("hookstile_events_waiting"),
                metricNames("label_values(hookstile_events_waiting, source)"));
        assertEquals(Set.of("x"), metricNames("label_values(x{a=\"1\",b=\"2\"}, source)"));
        assertEquals(Set.of(), metricNames("label_values(source)"));
    }

    @Test
    void findsEveryQueryOfTheDashboardAndTheAlertRules() {
        List<MonitoringQueries.Rule> rules = MonitoringQueries.alertRules();
        assertEquals(11, rules.size(), () -> rules.stream().map(MonitoringQueries.Rule::name).toList().toString());
        assertEquals(List.of(), rules.stream().filter(rule -> metricNames(rule.expression()).isEmpty())
                .map(MonitoringQueries.Rule::name).toList(), "rules whose expression was not found");
        List<MonitoringQueries.Query> queries = MonitoringQueries.dashboardQueries();
        assertTrue(queries.size() >= 25, () -> queries.size() + " dashboard queries");
        assertEquals(List.of(), queries.stream().filter(query -> metricNames(query.expression()).isEmpty())
                .map(MonitoringQueries.Query::where).toList(), "dashboard queries that read no metric");
        Set<String> names = MonitoringQueries.metricNames();
        assertTrue(names.size() >= 20 && names.size() <= CONTRACT.size(), names::toString);
    }

    @Test
    void everySeriesQueriedIsInTheMetricsContract() {
        Set<String> unknown = new TreeSet<>(MonitoringQueries.metricNames());
        unknown.removeAll(CONTRACT.keySet());
        assertEquals(Set.of(), unknown);
    }

    @Test
    void everyLabelMatcherNamesALabelAndValuesTheSeriesHas() {
        List<String> wrong = new ArrayList<>();
        for (String expression : expressions().keySet()) {
            Matcher selector = SELECTOR.matcher(expression);
            while (selector.find()) {
                Map<String, Set<String>> labels = CONTRACT.getOrDefault(selector.group(1), Map.of());
                Matcher matcher = MATCHER.matcher(selector.group(2));
                while (matcher.find()) {
                    String label = matcher.group(1);
                    String value = matcher.group(3);
                    if (!labels.containsKey(label) && !TARGET_LABELS.contains(label)) {
                        wrong.add(selector.group(1) + " has no label " + label);
                    } else if (!labels.getOrDefault(label, ANY).isEmpty() && matcher.group(2).startsWith("=")
                            && LITERAL_ALTERNATIVES.matcher(value).matches()) {
                        for (String alternative : value.split("\\|")) {
                            if (!labels.get(label).contains(alternative)) {
                                wrong.add(selector.group(1) + " has no " + label + "=\"" + alternative + "\"");
                            }
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void everyGroupingLegendAndAnnotationNamesALabelOfTheSeriesQueried() {
        List<String> wrong = new ArrayList<>();
        expressions().forEach((expression, usedLabels) -> {
            Set<String> labels = new HashSet<>(TARGET_LABELS);
            metricNames(expression).forEach(name -> labels.addAll(CONTRACT.getOrDefault(name, Map.of()).keySet()));
            Set<String> used = new TreeSet<>(usedLabels);
            Matcher grouping = GROUPING.matcher(MonitoringQueries.withoutStringsAndComments(expression));
            while (grouping.find()) {
                Stream.of(grouping.group(1).split(",")).map(String::strip).filter(label -> !label.isEmpty())
                        .forEach(used::add);
            }
            used.removeAll(labels);
            if (!used.isEmpty()) {
                wrong.add(used + " in " + expression);
            }
        });
        assertEquals(List.of(), wrong);
    }

    @Test
    void theDashboardShowsWhatIssue24AsksFor() {
        Set<String> shown = MonitoringQueries.dashboardQueries().stream()
                .flatMap(query -> metricNames(query.expression()).stream()).collect(Collectors.toSet());
        Set<String> missing = new TreeSet<>(Set.of("hookstile_ingest_ack_seconds_count",
                "hookstile_ingest_ack_seconds_bucket", "hookstile_events_processed_total",
                "hookstile_event_end_to_end_seconds_bucket", "hookstile_events_waiting",
                "hookstile_events_oldest_waiting_age_seconds", "hookstile_events_dead", "hookstile_outbox_pending",
                "hookstile_outbox_oldest_due_age_seconds", "hookstile_outbox_breaker_open",
                "hookstile_deliveries_rejected_total"));
        missing.removeAll(shown);
        assertEquals(Set.of(), missing);
    }

    @Test
    void theRulesAlertOnWhatIssue24AsksForEachWithSeverityAndAnnotations() {
        List<MonitoringQueries.Rule> rules = MonitoringQueries.alertRules();
        Set<String> missing = new TreeSet<>(Set.of("HookstileEventsDead", "HookstileProcessingBehind",
                "HookstileAckSlow", "HookstileDestinationBreakerOpen", "HookstileOutboxBehind",
                "HookstileRetentionNotRun", "HookstileConsumerReconnected"));
        rules.forEach(rule -> missing.remove(rule.name()));
        assertEquals(Set.of(), missing);
        Pattern severity = Pattern.compile("(?m)^\\s+severity: (critical|warning)$");
        List<String> incomplete = rules.stream()
                .filter(rule -> !severity.matcher(rule.text()).find()
                        || Stream.of("summary", "description", "runbook_url").anyMatch(
                                annotation -> !Pattern.compile("(?m)^\\s+" + annotation + ": \\S")
                                        .matcher(rule.text()).find()))
                .map(MonitoringQueries.Rule::name).toList();
        assertEquals(List.of(), incomplete, "rules without a severity of critical or warning, a summary, a "
                + "description or a runbook_url");
    }

    @Test
    void checkMetricsReturnsPromtoolsComplaintsAndNothingForACleanScrape() {
        Promtool.require();
        String clean = """
                # HELP hookstile_events_accepted_total Events accepted.
                # TYPE hookstile_events_accepted_total counter
                hookstile_events_accepted_total{source="gh"} 3
                # HELP hookstile_ingest_ack_seconds Request received to answer.
                # TYPE hookstile_ingest_ack_seconds histogram
                hookstile_ingest_ack_seconds_bucket{outcome="accepted",le="0.001"} 1
                hookstile_ingest_ack_seconds_bucket{outcome="accepted",le="+Inf"} 3
                hookstile_ingest_ack_seconds_sum{outcome="accepted"} 0.004
                hookstile_ingest_ack_seconds_count{outcome="accepted"} 3
                """;
        assertEquals("", MonitoringQueries.checkMetrics(clean));
        String complaints = MonitoringQueries.checkMetrics("""
                # TYPE hookstile_events_accepted counter
                hookstile_events_accepted{source="gh"} 3
                """);
        assertTrue(complaints.contains("hookstile_events_accepted counter metrics should have \"_total\" suffix"),
                complaints);
        assertTrue(MonitoringQueries.checkMetrics("not a {metric\n").contains("parsing error"));
    }

    @Test
    void hookstileFamiliesKeepsHookstilesLinesOnly() {
        String scrape = """
                # HELP base_memory_usedHeap_bytes Heap.
                # TYPE base_memory_usedHeap_bytes gauge
                base_memory_usedHeap_bytes{mp_scope="base"} 1.0
                # HELP hookstile_build_info The version running.
                # TYPE hookstile_build_info gauge
                hookstile_build_info{version="0.1.0"} 1
                # EOF
                """;
        assertEquals("""
                # HELP hookstile_build_info The version running.
                # TYPE hookstile_build_info gauge
                hookstile_build_info{version="0.1.0"} 1
                """, MonitoringQueries.hookstileFamilies(scrape));
    }

    /** Every expression of the dashboard and the rules, with the labels its legend or annotations name. */
    private static Map<String, Set<String>> expressions() {
        Map<String, Set<String>> expressions = new LinkedHashMap<>();
        for (MonitoringQueries.Query query : MonitoringQueries.dashboardQueries()) {
            expressions.computeIfAbsent(query.expression(), e -> new TreeSet<>())
                    .addAll(found(LEGEND_LABEL, query.legend()));
        }
        for (MonitoringQueries.Rule rule : MonitoringQueries.alertRules()) {
            expressions.computeIfAbsent(rule.expression(), e -> new TreeSet<>())
                    .addAll(found(TEMPLATE_LABEL, rule.text()));
        }
        return expressions;
    }

    private static Set<String> found(Pattern pattern, String text) {
        return pattern.matcher(text).results().map(match -> match.group(1)).collect(Collectors.toSet());
    }
}
