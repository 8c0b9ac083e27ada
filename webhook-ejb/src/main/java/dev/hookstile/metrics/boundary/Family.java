package dev.hookstile.metrics.boundary;

import dev.hookstile.metrics.control.PrometheusText;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A metric family: one name, its help and type, and a series per combination of label values. Label values come
 * only from fixed or configured sets (source and destination names, enums), never from a request: a family refuses
 * more than {@value #MAX_SERIES} series rather than let a mistake grow the scrape without bound.
 *
 * @param <T> the series: {@link Counter}, {@link Gauge} or {@link Histogram}
 */
public final class Family<T> {

    static final int MAX_SERIES = 2_000;

    private final String name;
    private final String help;
    private final String type;
    private final List<String> labelNames;
    private final Supplier<T> newSeries;
    /** By label values: the value itself for one label, the values joined by NUL for more. */
    private final Map<Object, Labelled<T>> series = new ConcurrentHashMap<>();

    Family(String name, String help, String type, List<String> labelNames, Supplier<T> newSeries) {
        this.name = name;
        this.help = help;
        this.type = type;
        this.labelNames = List.copyOf(labelNames);
        this.newSeries = newSeries;
        for (String label : labelNames) {
            if (!PrometheusText.validName(label) || label.startsWith("__") || label.equals("le")) {
                throw new IllegalArgumentException("not a label name: " + label);
            }
        }
    }

    public String name() {
        return name;
    }

    /** Same type and labels: what may be registered twice under one name. */
    boolean sameKind(Family<?> other) {
        return type.equals(other.type) && labelNames.equals(other.labelNames);
    }

    /** The series of these label values, in the order the labels were named; created at 0 the first time. */
    public T labels(String... values) {
        if (values.length != labelNames.size()) {
            throw new IllegalArgumentException(name + " has labels " + labelNames + ", given " + values.length);
        }
        Object key = values.length == 1 ? values[0] : String.join("\0", values);
        Labelled<T> labelled = series.get(key);
        if (labelled == null) {
            labelled = create(key, values);
        }
        return labelled.series();
    }

    private synchronized Labelled<T> create(Object key, String[] values) {
        Labelled<T> existing = series.get(key);
        if (existing != null) {
            return existing;
        }
        if (series.size() >= MAX_SERIES) {
            throw new IllegalStateException(name + " already has " + MAX_SERIES + " series");
        }
        for (String value : values) {
            if (value == null) {
                throw new IllegalArgumentException(name + ": a label value is null");
            }
        }
        var labelled = new Labelled<>(List.of(values), newSeries.get());
        series.put(key, labelled);
        return labelled;
    }

    void writeTo(Appendable out) throws IOException {
        PrometheusText.header(out, name, help, type);
        var all = new ArrayList<>(series.values());
        // A stable order, so two scrapes diff cleanly.
        all.sort((a, b) -> Arrays.compare(a.values().toArray(String[]::new), b.values().toArray(String[]::new)));
        for (Labelled<T> labelled : all) {
            T value = labelled.series();
            if (value instanceof Counter counter) {
                PrometheusText.sample(out, name, labelNames, labelled.values(), null, null, counter.value());
            } else if (value instanceof Gauge gauge) {
                PrometheusText.sample(out, name, labelNames, labelled.values(), null, null, gauge.value());
            } else if (value instanceof Histogram histogram) {
                writeHistogram(out, labelled.values(), histogram);
            }
        }
    }

    private void writeHistogram(Appendable out, List<String> values, Histogram histogram) throws IOException {
        long[] cumulative = histogram.cumulative();
        double[] bounds = histogram.bounds();
        String bucket = name + "_bucket";
        for (int i = 0; i < bounds.length; i++) {
            PrometheusText.sample(out, bucket, labelNames, values, "le", PrometheusText.number(bounds[i]),
                    cumulative[i]);
        }
        long count = cumulative[cumulative.length - 1];
        PrometheusText.sample(out, bucket, labelNames, values, "le", "+Inf", count);
        PrometheusText.sample(out, name + "_sum", labelNames, values, null, null, histogram.sum());
        PrometheusText.sample(out, name + "_count", labelNames, values, null, null, count);
    }

    private record Labelled<T>(List<String> values, T series) {
    }
}
