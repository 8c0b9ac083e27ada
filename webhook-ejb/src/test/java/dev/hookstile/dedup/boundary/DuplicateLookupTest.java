package dev.hookstile.dedup.boundary;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import javax.sql.DataSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lookup at ingest against a database that answers, but slowly (an overloaded server, a failing disk): it must
 * not hold a group's requests for as many waits as the group has events.
 */
class DuplicateLookupTest {

    @Test
    void aSlowDatabaseHoldsAGroupForOneBoundNotOnePerEvent() {
        var probes = new AtomicInteger();
        var lookup = new DuplicateLookup();
        lookup.dataSource = database(Duration.ofMillis(200), probes, Set.of("known-0"));
        List<String> ids = IntStream.range(0, 20).mapToObj(i -> i == 0 ? "known-0" : "new-" + i).toList();

        long start = System.nanoTime();
        Set<String> recorded = lookup.recordedAmong("gh", ids);
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        // Unbounded, 20 probes of 200 ms would take 4 s; the bound is 500 ms plus the probe under way.
        assertTrue(took.compareTo(Duration.ofMillis(1_500)) < 0, "took " + took);
        assertTrue(probes.get() < ids.size(), probes.get() + " probes");
        assertEquals(Set.of("known-0"), recorded, "what was asked in time is still answered");
    }

    @Test
    void aQuickDatabaseIsAskedAboutEveryEvent() {
        var probes = new AtomicInteger();
        var lookup = new DuplicateLookup();
        lookup.dataSource = database(Duration.ZERO, probes, Set.of("a", "c"));

        assertEquals(Set.of("a", "c"), lookup.recordedAmong("gh", List.of("a", "b", "c", "d")));
        assertEquals(4, probes.get());
    }

    /** A data source whose every query takes {@code delay} and finds the ids in {@code known}. */
    private static DataSource database(Duration delay, AtomicInteger probes, Set<String> known) {
        var parameters = new ArrayList<Object>();
        ResultSet found = proxy(ResultSet.class, (method, args) -> method.equals("next") ? true : null);
        ResultSet none = proxy(ResultSet.class, (method, args) -> method.equals("next") ? false : null);
        PreparedStatement statement = proxy(PreparedStatement.class, (method, args) -> {
            switch (method) {
                case "setString" -> {
                    int index = (Integer) args[0];
                    if (index == 1) {
                        parameters.clear();
                    }
                    parameters.add(args[1]);
                }
                case "executeQuery" -> {
                    probes.incrementAndGet();
                    Thread.sleep(delay.toMillis());
                    return known.contains((String) parameters.get(1)) ? found : none;
                }
                default -> {
                }
            }
            return null;
        });
        Connection connection = proxy(Connection.class, (method, args) -> switch (method) {
            case "prepareStatement" -> statement;
            case "getNetworkTimeout" -> 0;
            default -> null;
        });
        return proxy(DataSource.class, (method, args) -> method.equals("getConnection") ? connection : null);
    }

    private interface Answer {
        Object answer(String method, Object[] args) throws Exception;
    }

    private static <T> T proxy(Class<T> type, Answer answer) {
        return type.cast(Proxy.newProxyInstance(DuplicateLookupTest.class.getClassLoader(), new Class<?>[]{type},
                (self, method, args) -> answer.answer(method.getName(), args)));
    }
}
