package dev.hookstile.refusal;

import java.time.Instant;

/**
 * Which refused deliveries to list, newest first: every filter optional; {@code before} is the last id of the
 * previous page.
 */
public record RefusalQuery(String source, String reason, Instant since, Instant until, Long before, int limit) {

    public static final int MAX_LIMIT = 200;
}
