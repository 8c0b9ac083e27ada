package dev.hookstile.processing.control;

import dev.hookstile.api.HandlesWebhooks;
import dev.hookstile.api.WebhookEvent;
import dev.hookstile.api.WebhookHandler;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * The deployed {@link WebhookHandler} beans and which events each receives, resolved once per
 * (source, provider, type) and cached, so dispatch costs a map lookup. The cache holds at most
 * {@value #MAX_ROUTES} routes: event types are chosen by senders, and a sender that invents a new one per event must
 * not grow it without end; beyond that, routes are resolved per event (a scan of a few registrations).
 */
@ApplicationScoped
public class Handlers {

    private static final Logger LOG = Logger.getLogger(Handlers.class.getName());

    @Inject
    @Any
    Instance<WebhookHandler> beans;

    static final int MAX_ROUTES = 10_000;

    List<Registration> registrations;
    final Map<String, List<WebhookHandler>> routes = new ConcurrentHashMap<>();

    @PostConstruct
    void discover() {
        var found = new ArrayList<Registration>();
        for (Instance.Handle<WebhookHandler> handle : beans.handles()) {
            Class<?> type = handle.getBean().getBeanClass();
            found.add(new Registration(type.getName(), HandlerSelector.of(type.getAnnotation(HandlesWebhooks.class)),
                    handle.get()));
        }
        found.sort(Comparator.comparing(Registration::name));
        registrations = List.copyOf(found);
        LOG.info(() -> "Webhook handlers: " + registrations.stream().map(r -> r.name() + " " + r.selector()).toList());
    }

    /** Whether any handler receives this event; one that none does is recorded as {@code ignored}. */
    public boolean handles(WebhookEvent event) {
        return !matching(event).isEmpty();
    }

    /** Runs every matching handler in order; the first exception stops the chain and propagates. */
    public void dispatch(WebhookEvent event) throws Exception {
        List<WebhookHandler> matching = matching(event);
        for (WebhookHandler handler : matching) {
            handler.handle(event);
        }
    }

    private List<WebhookHandler> matching(WebhookEvent event) {
        String key = event.source() + '\n' + event.provider() + '\n' + event.type();
        List<WebhookHandler> cached = routes.get(key);
        if (cached != null) {
            return cached;
        }
        List<WebhookHandler> resolved = registrations.stream()
                .filter(r -> r.selector().matches(event.source(), event.provider(), event.type()))
                .map(Registration::handler)
                .toList();
        if (routes.size() < MAX_ROUTES) {
            routes.putIfAbsent(key, resolved);
        }
        return resolved;
    }

    record Registration(String name, HandlerSelector selector, WebhookHandler handler) {
    }
}
