package dev.hookstile.ingest;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SeriesTest {

    private static final long T0 = 1_764_000_000_000L;

    @Test
    void theWindowIsTheNinetyBucketsBeforeTheCurrentOne() {
        long now = T0 + 4_321;

        assertEquals(T0 - 900_000, Series.windowStart(now));
    }

    @Test
    void countsBecomeEventsPerSecondInTheirBucketAndInstancesAddUp() {
        long now = T0 + 1;
        long last = T0 - 10_000;
        long first = Series.windowStart(now);

        Series series = Series.of(List.of(new Series.Counts(last, 25, 1, 0), new Series.Counts(last, 5, 0, 3),
                new Series.Counts(first, 1, 0, 0)), now);

        assertEquals(first, series.start());
        assertEquals(Series.BUCKETS, series.accepted().length);
        assertEquals(3.0, series.accepted()[89]);
        assertEquals(0.1, series.duplicate()[89]);
        assertEquals(0.3, series.rejected()[89]);
        assertEquals(0.1, series.accepted()[0]);
        assertEquals(0.0, series.accepted()[45]);
    }

    @Test
    void theCurrentBucketAndBucketsBeforeTheWindowAreLeftOut() {
        long now = T0 + 1;

        Series series = Series.of(List.of(new Series.Counts(T0, 100, 0, 0),
                new Series.Counts(Series.windowStart(now) - 10_000, 100, 0, 0)), now);

        for (double rate : series.accepted()) {
            assertEquals(0.0, rate);
        }
    }
}
