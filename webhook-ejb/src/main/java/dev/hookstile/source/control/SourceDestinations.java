package dev.hookstile.source.control;

import dev.hookstile.api.Text;
import dev.hookstile.settings.SettingsCheck;
import dev.hookstile.source.BackOfficeDestination;
import dev.hookstile.source.Destination;
import dev.hookstile.source.Ed25519;
import dev.hookstile.source.JsonMatch;
import org.eclipse.microprofile.config.Config;

import java.net.URI;
import java.security.PrivateKey;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Where a source's processed events lead: forwarded over HTTP ({@link Destination}) or published over JMS. */
final class SourceDestinations {

    private final Config config;

    SourceDestinations(Config config) {
        this.config = config;
    }

    /**
     * {@code .destination-url} (absolute http or https), {@code .destination-secret} (a Standard Webhooks secret,
     * {@code whsec_...}, required with a URL: a forwarded event is always signed) and {@code .destination-types}.
     */
    Destination destination(String key) {
        Optional<String> url = config.getOptionalValue(key + "destination-url", String.class).map(String::trim);
        Optional<String> filter = config.getOptionalValue(key + "destination-filter", String.class).map(String::trim)
                .filter(f -> !f.isEmpty());
        if (url.isEmpty() || url.get().isEmpty()) {
            if (filter.isPresent()) {
                throw SourceReader.problem(key + "destination-filter", "filters what is forwarded to "
                        + SettingsCheck.setting(key + "destination-url") + ", which is not set");
            }
            return null;
        }
        URI uri;
        try {
            uri = Destination.url(url.get());
        } catch (IllegalArgumentException e) {
            throw SourceReader.problem(key + "destination-url", e.getMessage());
        }
        Optional<String> secret = config.getOptionalValue(key + "destination-secret", String.class).map(String::trim)
                .filter(v -> !v.isEmpty());
        Optional<String> signing = config.getOptionalValue(key + "destination-signing-key", String.class)
                .map(String::trim).filter(v -> !v.isEmpty());
        if (secret.isEmpty() && signing.isEmpty()) {
            throw SourceReader.problem(key + "destination-secret", "is required with a destination (whsec_...), or "
                    + SettingsCheck.setting(key + "destination-signing-key") + " (whsk_..., Ed25519)");
        }
        byte[] key256 = null;
        PrivateKey signingKey = null;
        try {
            key256 = secret.map(Destination::secretKey).orElse(null);
        } catch (IllegalArgumentException e) {
            // Both names: the setting may be an environment variable or a property (the EAR's system properties).
            throw SourceReader.problem(key + "destination-secret", e.getMessage());
        }
        try {
            signingKey = signing.map(Ed25519::signingKey).orElse(null);
        } catch (IllegalArgumentException e) {
            throw SourceReader.problem(key + "destination-signing-key", e.getMessage());
        }
        JsonMatch match;
        try {
            match = filter.map(JsonMatch::parse).orElse(null);
        } catch (IllegalArgumentException e) {
            throw SourceReader.problem(key + "destination-filter", "must be a JSON object the body must contain, e.g."
                    + " {\"data\":{\"object\":{\"livemode\":true}}}, at most " + JsonMatch.MAX_LENGTH
                    + " characters nested at most 32 deep");
        }
        return new Destination(uri, key256, signingKey, types(key), match, pace(key));
    }

    /** {@code .destination-rate} ({@code 50/s}) and {@code .destination-concurrency} (1 to 64). */
    private Destination.Pace pace(String key) {
        double perSecond = 0;
        Optional<String> rate = config.getOptionalValue(key + "destination-rate", String.class).map(String::trim)
                .filter(r -> !r.isEmpty());
        if (rate.isPresent()) {
            try {
                perSecond = Destination.Pace.perSecond(rate.get());
            } catch (IllegalArgumentException e) {
                throw SourceReader.problem(key + "destination-rate",
                        e.getMessage() + ", not '" + Text.shown(rate.get(), 64) + "'");
            }
        }
        int concurrency = SourceReader.number(config, key + "destination-concurrency", Integer.class).orElse(0);
        if (concurrency < 0 || concurrency == 0 && config.getOptionalValue(key + "destination-concurrency",
                String.class).filter(c -> !c.isBlank()).isPresent() || concurrency > Destination.Pace.MAX_CONCURRENCY) {
            throw SourceReader.problem(key + "destination-concurrency", "must be 1 to "
                    + Destination.Pace.MAX_CONCURRENCY + " requests at once, not " + concurrency);
        }
        return new Destination.Pace(perSecond, concurrency);
    }

    /** {@code .destination-jms}: {@code queue:NAME} or {@code topic:NAME}, with {@code .destination-types}. */
    BackOfficeDestination backOffice(String key) {
        Optional<String> value = config.getOptionalValue(key + "destination-jms", String.class).map(String::trim);
        if (value.isEmpty() || value.get().isEmpty()) {
            return null;
        }
        try {
            return BackOfficeDestination.parse(value.get(), types(key));
        } catch (IllegalArgumentException e) {
            throw SourceReader.problem(key + "destination-jms", e.getMessage());
        }
    }

    private List<String> types(String key) {
        return config.getOptionalValue(key + "destination-types", String[].class)
                .map(Arrays::asList).orElse(List.of()).stream().map(String::trim).filter(t -> !t.isEmpty()).toList();
    }
}
