package dev.hookstile.start.boundary;

import dev.hookstile.api.HandlesWebhooks;
import dev.hookstile.api.WebhookHandler;
import dev.hookstile.operator.AdminTokenPlace;
import dev.hookstile.source.boundary.Sources;
import dev.hookstile.start.control.StartLines;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Logger;

/**
 * What a start says once the application is deployed, on {@value SettingsValidation#LOGGER} (the lines the quiet
 * console shows): each source as understood, the handlers found, and where the admin token is. The launcher says
 * which database and broker before, and adds the listening address and the console's when the listener opens.
 */
@ApplicationScoped
public class StartReport {

    private static final Logger START = Logger.getLogger(SettingsValidation.LOGGER);

    @Inject
    Sources sources;

    @Inject
    BeanManager beans;

    @Inject
    Config config;

    void report(@Observes @Initialized(ApplicationScoped.class) Object started) {
        StartLines.sources(sources.all()).forEach(START::info);
        START.info(handlers());
        START.info(AdminTokenPlace.describe(config));
    }

    private String handlers() {
        var found = new ArrayList<String>();
        for (Bean<?> bean : beans.getBeans(WebhookHandler.class, Any.Literal.INSTANCE)) {
            Class<?> type = bean.getBeanClass();
            HandlesWebhooks selects = type.getAnnotation(HandlesWebhooks.class);
            found.add(type.getName() + (selects == null ? " (every event)" : selector(selects)));
        }
        found.sort(null);
        return found.isEmpty() ? "handlers: none (events are recorded and forwarded only)"
                : "handlers: " + String.join(", ", found);
    }

    private static String selector(HandlesWebhooks selects) {
        List<String> parts = new ArrayList<>();
        if (selects.sources().length > 0) {
            parts.add("sources " + String.join(" ", Arrays.asList(selects.sources())));
        }
        if (selects.providers().length > 0) {
            parts.add("providers " + String.join(" ", Arrays.asList(selects.providers())));
        }
        if (selects.types().length > 0) {
            parts.add("types " + String.join(" ", Arrays.asList(selects.types())));
        }
        return parts.isEmpty() ? " (every event)" : " (" + String.join("; ", parts) + ")";
    }
}
