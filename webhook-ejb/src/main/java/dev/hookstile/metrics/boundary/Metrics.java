package dev.hookstile.metrics.boundary;

import dev.hookstile.metrics.control.PrometheusText;
import jakarta.enterprise.context.ApplicationScoped;

import jakarta.annotation.PostConstruct;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Hookstile's metric families, served as Prometheus text at {@code /metrics}. Not MicroProfile Metrics: Payara's
 * histograms compute their buckets from a decaying sample (neither cumulative nor monotonic, so {@code rate()} and
 * {@code histogram_quantile()} over them are wrong) and its exposition cannot carry counters of our own; these are plain
 * adders a scrape reads. Components register their families once, at deployment, so every family is in the scrape
 * at 0 before anything happened, and keep the series they count on in fields: counting is an atomic add.
 */
@ApplicationScoped
public class Metrics {

    /** What {@link #writeTo} writes: the Prometheus text format. */
    public static final String CONTENT_TYPE = PrometheusText.CONTENT_TYPE;

    /** Seconds: from a millisecond to 10 s, resolving the ack target (a few milliseconds). */
    public static final double[] LATENCY_BOUNDS = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
            5, 10};
    /** Seconds: the latency bounds, then to an hour, for what may wait in a queue or for a retry. */
    public static final double[] WAIT_BOUNDS = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
            10, 30, 60, 300, 900, 3600};

    private final Map<String, Family<?>> families = new LinkedHashMap<>();

    @PostConstruct
    void buildInfo() {
        gauge("hookstile_build_info", "Always 1; its version label says which build runs", "version")
                .labels(version()).set(1);
    }

    /** The version the build wrote into {@code build.properties}; {@code unknown} when run from classes unbuilt. */
    static String version() {
        var properties = new Properties();
        try (InputStream in = Metrics.class.getResourceAsStream("/dev/hookstile/metrics/build.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        String version = properties.getProperty("version", "unknown");
        return version.startsWith("${") ? "unknown" : version;
    }

    /** A counter family; its name ends in {@code _total}. */
    public Family<Counter> counter(String name, String help, String... labels) {
        if (!name.endsWith("_total")) {
            throw new IllegalArgumentException("a counter's name ends in _total: " + name);
        }
        return register(new Family<>(name, help, "counter", List.of(labels), Counter::new));
    }

    public Family<Gauge> gauge(String name, String help, String... labels) {
        return register(new Family<>(name, help, "gauge", List.of(labels), Gauge::new));
    }

    /** A histogram family with these upper bounds (ascending; {@code +Inf} is added). */
    public Family<Histogram> histogram(String name, String help, double[] bounds, String... labels) {
        for (int i = 1; i < bounds.length; i++) {
            if (!(bounds[i] > bounds[i - 1])) {
                throw new IllegalArgumentException(name + ": bounds must ascend");
            }
        }
        double[] copy = bounds.clone();
        return register(new Family<>(name, help, "histogram", List.of(labels), () -> new Histogram(copy)));
    }

    /** Registers a family, or gives the one registered under its name already if it is of the same kind. */
    @SuppressWarnings("unchecked")
    private synchronized <T> Family<T> register(Family<T> family) {
        if (!PrometheusText.validName(family.name())) {
            throw new IllegalArgumentException("not a metric name: " + family.name());
        }
        Family<?> existing = families.putIfAbsent(family.name(), family);
        if (existing == null) {
            return family;
        }
        if (!existing.sameKind(family)) {
            throw new IllegalStateException(family.name() + " is registered already as another kind");
        }
        return (Family<T>) existing;
    }

    /** Every family, in the order registered. */
    public void writeTo(Appendable out) throws IOException {
        List<Family<?>> all;
        synchronized (this) {
            all = List.copyOf(families.values());
        }
        for (Family<?> family : all) {
            family.writeTo(out);
        }
    }
}
