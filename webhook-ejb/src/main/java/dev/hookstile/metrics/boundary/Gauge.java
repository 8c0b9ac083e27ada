package dev.hookstile.metrics.boundary;

/**
 * One series of a gauge family: a value set by whoever knows it (a timer for what needs the database), never
 * computed on a scrape.
 */
public final class Gauge {

    private volatile double value;

    public Gauge() {
    }

    public void set(double value) {
        this.value = value;
    }

    public double value() {
        return value;
    }
}
