package dev.hookstile.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * What actually happened, read from the database behind the server's back: the test handler's effects
 * ({@code it_effect}, one row per run of the handler that committed) and the events' rows. A fault scenario holds
 * the senders' answers ({@link Traffic}) against it.
 */
public final class Ledger {

    private final String url = ItEnvironment.databaseUrl();

    /**
     * The scenario's counts. {@code doubled}: events whose effect committed more than once; {@code lost}: answered
     * 2xx, never processed; {@code refusedButProcessed}: answered non-2xx and processed anyway; {@code stuck}: a row
     * left {@code received} or {@code retrying}.
     */
    public record Verdict(int sent, int acked, int refused, int unanswered, int processed, int doubled, int lost,
                          int refusedButProcessed, int stuck) {

        public boolean exactlyOnce() {
            return doubled == 0 && lost == 0 && refusedButProcessed == 0 && stuck == 0;
        }

        public String row(String scenario) {
            return "| " + scenario + " | " + sent + " | " + acked + " | " + refused + " | " + unanswered + " | "
                    + processed + " | " + doubled + " | " + lost + " | " + refusedButProcessed + " | " + stuck + " |";
        }
    }

    /** Counts the answers against the database now. */
    public Verdict verdict(Map<String, Integer> answers, String prefix) {
        Map<String, Integer> effects = effects(prefix);
        Map<String, String> statuses = statuses(prefix);
        int acked = 0, refused = 0, unanswered = 0, processed = 0, doubled = 0, lost = 0, refusedButProcessed = 0;
        for (var answer : answers.entrySet()) {
            int status = answer.getValue();
            int count = effects.getOrDefault(answer.getKey(), 0);
            if (count > 1) {
                doubled++;
            }
            if (count > 0) {
                processed++;
            }
            if (status >= 200 && status < 300) {
                acked++;
                if (count == 0) {
                    lost++;
                }
            } else if (status == Traffic.NO_ANSWER) {
                unanswered++;
            } else {
                refused++;
                if (count > 0) {
                    refusedButProcessed++;
                }
            }
        }
        int stuck = (int) statuses.values().stream().filter(s -> s.equals("received") || s.equals("retrying")).count();
        return new Verdict(answers.size(), acked, refused, unanswered, processed, doubled, lost, refusedButProcessed,
                stuck);
    }

    /** Polls until nothing acked is missing and nothing is stuck, or the time is up; the last verdict either way. */
    public Verdict awaitSettled(Map<String, Integer> answers, String prefix, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Verdict verdict;
        do {
            verdict = verdict(answers, prefix);
            if (verdict.lost() == 0 && verdict.stuck() == 0) {
                return verdict;
            }
            Webhooks.sleep(Duration.ofSeconds(1));
        } while (System.nanoTime() < deadline);
        return verdict;
    }

    public Map<String, Integer> effects(String prefix) {
        return query("SELECT event_id, count(*) FROM it_effect WHERE source = 'it' AND event_id LIKE ? GROUP BY event_id",
                prefix, rows -> rows.getInt(2));
    }

    /** Committed runs as the product recorded them: {@code completed} lines in each event's history. */
    public Map<String, Integer> completedRuns(String prefix) {
        return query("SELECT event_id, count(*) FROM event_attempt WHERE source = 'it' AND event_id LIKE ?"
                + " AND outcome = 'completed' GROUP BY event_id", prefix, rows -> rows.getInt(2));
    }

    public Map<String, String> statuses(String prefix) {
        return query("SELECT event_id, status FROM received_event WHERE source = 'it' AND event_id LIKE ?", prefix,
                rows -> rows.getString(2));
    }

    private interface Column<T> {
        T read(ResultSet rows) throws SQLException;
    }

    private <T> Map<String, T> query(String sql, String prefix, Column<T> column) {
        try (Connection connection = DriverManager.getConnection(url, System.getProperty("hookstile.test.db.user"),
                System.getProperty("hookstile.test.db.password"));
             PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, prefix.replace("_", "\\_") + "%");
            Map<String, T> result = new HashMap<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    result.put(rows.getString(1), column.read(rows));
                }
            }
            return result;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the ledger from " + url, e);
        }
    }

    /** Appends the scenario's row to {@code target/it/fault-report.md}, the table docs/reliability.md copies. */
    public static void report(String scenario, Verdict verdict, String notes) {
        Path file = ItEnvironment.dir().resolve("fault-report.md");
        try {
            if (!Files.exists(file)) {
                Files.writeString(file, "| scenario | sent | acked | refused | unanswered | processed | doubled | lost "
                        + "| refused but processed | stuck | notes |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
            }
            Files.writeString(file, verdict.row(scenario) + " " + notes + " |\n", StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
