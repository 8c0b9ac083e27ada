package dev.hookstile.metrics.boundary;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MetricsTest {

    private static final Pattern BUCKET = Pattern.compile("t_seconds_bucket\\{outcome=\"a\",le=\"([^\"]+)\"} (\\d+)");

    @Test
    void histogramBucketsAreCumulativeAndTheInfBucketIsTheCount() throws IOException {
        var metrics = new Metrics();
        Histogram histogram = metrics.histogram("t_seconds", "test", new double[]{0.001, 0.01, 0.1}, "outcome")
                .labels("a");
        histogram.observe(0.0005);
        histogram.observe(0.001); // on a bound: counted under it (le is "less than or equal")
        histogram.observe(0.05);
        histogram.observe(3);

        String text = scrape(metrics);

        List<String> bounds = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        Matcher m = BUCKET.matcher(text);
        while (m.find()) {
            bounds.add(m.group(1));
            counts.add(Long.parseLong(m.group(2)));
        }
        assertEquals(List.of("0.001", "0.01", "0.1", "+Inf"), bounds);
        assertEquals(List.of(2L, 2L, 3L, 4L), counts);
        assertTrue(text.contains("t_seconds_count{outcome=\"a\"} 4\n"), text);
        assertTrue(text.contains("t_seconds_sum{outcome=\"a\"} 3.0515\n"), text);
        assertTrue(text.contains("# TYPE t_seconds histogram\n"), text);
    }

    @Test
    void bucketsOnlyGoUpFromScrapeToScrape() throws IOException {
        var metrics = new Metrics();
        Histogram histogram = metrics.histogram("t_seconds", "test", Metrics.LATENCY_BOUNDS, "outcome").labels("a");
        for (int i = 0; i < 5_000; i++) {
            histogram.observeNanos(i * 1_000L);
        }
        List<Long> first = counts(scrape(metrics));
        histogram.observe(0.0001);
        List<Long> second = counts(scrape(metrics));
        for (int i = 0; i < first.size(); i++) {
            assertTrue(second.get(i) >= first.get(i), "bucket " + i + " went down");
            assertEquals(first.get(i) + 1, second.get(i), "one more observation, in every bucket from the first");
        }
    }

    @Test
    void labelValuesAreEscapedSoNoSampleLineCanBeForged() throws IOException {
        var metrics = new Metrics();
        metrics.counter("t_total", "test", "source").labels("a\"} 1\nforged_total 9\n\\").inc();

        String text = scrape(metrics);

        assertTrue(text.contains("t_total{source=\"a\\\"} 1\\nforged_total 9\\n\\\\\"} 1\n"), text);
        assertFalse(text.contains("\nforged_total 9\n"), text);
    }

    @Test
    void everyFamilyIsInTheScrapeAtZeroOnceItsSeriesAreNamed() throws IOException {
        var metrics = new Metrics();
        metrics.counter("t_total", "test", "source").labels("github");
        metrics.gauge("g", "test").labels().set(Double.NaN);

        String text = scrape(metrics);

        assertTrue(text.contains("t_total{source=\"github\"} 0\n"), text);
        assertTrue(text.contains("g NaN\n"), text);
        assertTrue(text.contains("hookstile_build_info{version=\"unknown\"} 1\n")
                || text.contains("hookstile_build_info{version=\""), text);
    }

    @Test
    void aFamilyRegisteredTwiceIsOneFamily() {
        var metrics = new Metrics();
        Family<Counter> first = metrics.counter("t_total", "test", "source");
        Family<Counter> again = metrics.counter("t_total", "test", "source");
        first.labels("a").inc();

        assertEquals(1, again.labels("a").value());
        assertThrows(IllegalStateException.class, () -> metrics.gauge("t_total", "test", "source"));
        assertThrows(IllegalArgumentException.class, () -> metrics.counter("t", "no _total suffix"));
    }

    @Test
    void aFamilyRefusesToGrowWithoutBound() {
        var family = new Metrics().counter("t_total", "test", "source");
        for (int i = 0; i < Family.MAX_SERIES; i++) {
            family.labels("s" + i);
        }
        assertThrows(IllegalStateException.class, () -> family.labels("one-too-many"));
        assertEquals(0, family.labels("s1").value(), "the existing series still count");
    }

    private static List<Long> counts(String text) {
        var counts = new ArrayList<Long>();
        Matcher m = BUCKET.matcher(text);
        while (m.find()) {
            counts.add(Long.parseLong(m.group(2)));
        }
        return counts;
    }

    private static String scrape(Metrics metrics) throws IOException {
        metrics.buildInfo();
        var out = new StringWriter();
        metrics.writeTo(out);
        return out.toString();
    }
}
