package dev.hookstile.source;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Test data: a {@link Source} as a test needs it, each setting it does not name at the value a source without that
 * setting gets, so a test says only what it is about:
 * {@code SourceBuilder.source("gh", new GitHub()).secrets(keys).maxAttempts(3).build()}.
 *
 * <p>Two defaults differ from {@code Sources}': the tolerance is the provider's without reading a setting, and the
 * body deduplication window is zero (deduplicated on the event id alone) unless a test sets one, so a provider's test
 * sees only its verification.
 */
public final class SourceBuilder {

    private final String name;
    private final Provider provider;
    private List<byte[]> secrets = List.of();
    private Duration tolerance;
    private Map<String, String> settings = Map.of();
    private int maxAttempts = Source.DEFAULT_MAX_ATTEMPTS;
    private int retries = Source.DEFAULT_RETRIES;
    private Duration bodyDedupWindow = Duration.ZERO;
    private Duration retention = Source.DEFAULT_RETENTION;
    private Destination destination;
    private BackOfficeDestination backOffice;
    private String orderKey;

    private SourceBuilder(String name, Provider provider) {
        this.name = name;
        this.provider = provider;
        this.tolerance = provider.defaultTolerance();
    }

    public static SourceBuilder source(String name, Provider provider) {
        return new SourceBuilder(name, provider);
    }

    public SourceBuilder secrets(List<byte[]> secrets) {
        this.secrets = secrets;
        return this;
    }

    public SourceBuilder tolerance(Duration tolerance) {
        this.tolerance = tolerance;
        return this;
    }

    public SourceBuilder settings(Map<String, String> settings) {
        this.settings = settings;
        return this;
    }

    public SourceBuilder maxAttempts(int maxAttempts) {
        this.maxAttempts = maxAttempts;
        return this;
    }

    public SourceBuilder retries(int retries) {
        this.retries = retries;
        return this;
    }

    public SourceBuilder bodyDedupWindow(Duration bodyDedupWindow) {
        this.bodyDedupWindow = bodyDedupWindow;
        return this;
    }

    public SourceBuilder retention(Duration retention) {
        this.retention = retention;
        return this;
    }

    public SourceBuilder destination(Destination destination) {
        this.destination = destination;
        return this;
    }

    public SourceBuilder backOffice(BackOfficeDestination backOffice) {
        this.backOffice = backOffice;
        return this;
    }

    public SourceBuilder orderKey(String orderKey) {
        this.orderKey = orderKey;
        return this;
    }

    public Source build() {
        return new Source(name, provider, secrets, tolerance, settings, maxAttempts, retries, bodyDedupWindow,
                retention, destination, backOffice, orderKey);
    }
}
