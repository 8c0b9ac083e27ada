package dev.hookstile.example.control;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Deploys the example handler only when it is switched on ({@code HOOKSTILE_HANDLERS_EVENT_LOG_ENABLED=true}).
 * Registered and doing nothing, it matched every event, so no event could ever be recorded {@code ignored} (no
 * handler applies), whatever the deployed handlers selected.
 */
public class EventLogSwitch implements Extension {

    static final String ENABLED = "hookstile.handlers.event-log.enabled";

    void deployOnlyWhenEnabled(@Observes ProcessAnnotatedType<EventLog> type) {
        boolean enabled = ConfigProvider.getConfig(EventLog.class.getClassLoader())
                .getOptionalValue(ENABLED, Boolean.class).orElse(false);
        if (!enabled) {
            type.veto();
        }
    }
}
