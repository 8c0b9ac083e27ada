package dev.hookstile.start.control;

import dev.hookstile.platform.DataDirectory;
import dev.hookstile.platform.Redacted;
import dev.hookstile.source.Source;
import org.eclipse.microprofile.config.Config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What a start and {@code ./hookstile check} say about the configuration, a line each: every source as understood,
 * which database. Never a secret: a source shows how many secrets it has, a URL only its
 * scheme, host and port.
 */
public final class StartLines {

    private StartLines() {
    }

    public static String source(Source source) {
        var line = new StringBuilder();
        line.append("source ").append(source.name()).append(": ").append(source.provider().name())
                .append(" at POST /webhooks/").append(source.name())
                .append(", ").append(source.secrets().size()).append(source.secrets().size() == 1 ? " secret" : " secrets");
        if (source.publicKeyCount() > 0) {
            line.append(", ").append(source.publicKeyCount())
                    .append(source.publicKeyCount() == 1 ? " public key" : " public keys");
        }
        line.append(", deduplicated by event id");
        if (!source.bodyDedupWindow().isZero()) {
            line.append(" and by body for ").append(duration(source.bodyDedupWindow()));
        }
        line.append(", kept ").append(source.retention().isZero() ? "for ever" : duration(source.retention()))
                .append(", ").append(source.maxAttempts()).append(" attempts");
        if (source.orderKey() != null) {
            line.append(", ordered by ").append(source.orderKey());
        }
        if (source.destination() != null) {
            line.append(", forwarded to ").append(source.destination());
        }
        if (source.backOffice() != null) {
            line.append(", published to ").append(source.backOffice());
        }
        return line.toString();
    }

    public static List<String> sources(List<Source> sources) {
        if (sources.isEmpty()) {
            return List.of("no source: set HOOKSTILE_SOURCES (every delivery is answered 404 until then)");
        }
        var lines = new ArrayList<String>();
        sources.forEach(source -> lines.add(source(source)));
        return lines;
    }

    public static String database(Config config) {
        return config.getOptionalValue("hookstile.db.url", String.class).map(String::trim).filter(u -> !u.isEmpty())
                .map(url -> "database: " + Redacted.url(url.contains("?") ? url.substring(0, url.indexOf('?')) : url))
                .orElse("database: embedded H2 in " + DataDirectory.of(config).resolve("db"));
    }

    private static String duration(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds % 86_400 == 0) {
            return seconds / 86_400 + (seconds == 86_400 ? " day" : " days");
        }
        if (seconds % 3_600 == 0) {
            return seconds / 3_600 + " h";
        }
        return seconds + " s";
    }
}
