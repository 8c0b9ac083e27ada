package dev.hookstile.notify.boundary;

import dev.hookstile.notify.control.NotifySettings;

import dev.hookstile.notify.control.Notice;
import dev.hookstile.notify.control.Window;
import dev.hookstile.outbox.boundary.BreakerChange;
import dev.hookstile.source.Destination;
import dev.hookstile.source.Source;
import dev.hookstile.source.boundary.Sources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The breaker changes this instance saw, grouped like deaths: per change, source and window, counted, until
 * {@link Notifications} takes the windows that ended. In memory, as the breakers are: a change seen just before the
 * instance stops is not announced, and each instance announces its own breakers (two instances whose breakers for
 * one destination open in the same window make one notice: the outbox keeps the first).
 *
 * <p>Called on the outbox relay's thread: it returns at once. A change of the notifications' own endpoint is never
 * announced: the notice would wait on the very breaker it tells of.
 */
@ApplicationScoped
public class BreakerNotices {

    private record Key(Notice.Type type, String source, Instant window) {
    }

    private record Seen(long count, Instant first, Instant last) {
        Seen and(Seen other) {
            return new Seen(count + other.count, first.isBefore(other.first) ? first : other.first,
                    last.isAfter(other.last) ? last : other.last);
        }
    }

    private final Map<Key, Seen> pending = new ConcurrentHashMap<>();

    @Inject
    NotifySettings settings;

    @Inject
    Sources sources;

    void changed(@Observes BreakerChange change) {
        if (!settings.enabled()) {
            return;
        }
        String own = settings.endpoint().map(Destination::url).map(Object::toString).orElse(null);
        if (change.destination().equals(own)) {
            return;
        }
        Notice.Type type = change.opened() ? Notice.Type.BREAKER_OPENED : Notice.Type.BREAKER_CLOSED;
        Instant window = Window.of(change.at(), settings.group()).start();
        // A breaker is a URL's; a destination is a source's: every source forwarding to the URL is told of.
        for (Source source : sources.all()) {
            if (source.destination() != null && source.destination().url().toString().equals(change.destination())) {
                pending.merge(new Key(type, source.name(), window), new Seen(1, change.at(), change.at()), Seen::and);
            }
        }
    }

    /** Takes the notices of every window that ended by {@code now}; the later ones stay. */
    public List<Notice> takeEnded(Instant now) {
        Duration group = settings.group();
        var ended = new ArrayList<Notice>();
        for (Key key : List.copyOf(pending.keySet())) {
            if (!key.window().plus(group).isAfter(now)) {
                Seen seen = pending.remove(key);
                if (seen != null) {
                    ended.add(new Notice(key.type(), key.source(), null, seen.count(), seen.first(), seen.last(),
                            key.window(), null));
                }
            }
        }
        return ended;
    }

    /** Notices that could not be scheduled (the database was away), kept for the next turn. */
    public void putBack(List<Notice> notices) {
        for (Notice notice : notices) {
            pending.merge(new Key(notice.type(), notice.source(), notice.period()),
                    new Seen(notice.count(), notice.first(), notice.last()), Seen::and);
        }
    }
}
