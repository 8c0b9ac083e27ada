package dev.hookstile.replay.boundary;

import dev.hookstile.events.boundary.ContentSearch;
import dev.hookstile.events.boundary.EventCounts;
import dev.hookstile.events.boundary.EventQuery;
import dev.hookstile.events.boundary.EventSummary;
import dev.hookstile.events.boundary.RecordedEvents;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.List;

/**
 * What a bulk replay with a filter would select now, counted before the operator confirms it. With a body or header
 * condition no index counts: the newest {@code hookstile.operator.list-scan-events} (20,000) of the events the other
 * filters select are read and matched, as a search page reads them, and the answer says how many it read of how many.
 */
@ApplicationScoped
public class ReplayPreview {

    /** The most events a preview counts. */
    public static final int LIMIT = 100_000;
    private static final int PAGE = EventQuery.MAX_LIMIT;

    @Inject
    EventCounts counts;

    @Inject
    RecordedEvents events;

    @Inject
    ContentSearch content;

    @Inject
    @ConfigProperty(name = "hookstile.operator.list-scan-events", defaultValue = "20000")
    int checkedAtMost;

    /**
     * @param matched  events the replay would queue, counted up to {@link #LIMIT}; with a body or header condition,
     *                 those of the {@code checked} newest that match (at least that many when fewer than all were)
     * @param selected with a body or header condition, the events the other filters select (up to the limit), which
     *                 the job reads and matches; else {@code null}
     * @param checked  with a body or header condition, how many of those, newest first, the preview read; else
     *                 {@code null}
     */
    public record Count(long matched, Long selected, Long checked) {
    }

    public Count count(ReplayFilter filter) {
        long selected = counts.matching(filter.query(1), LIMIT);
        if (!filter.content()) {
            return new Count(selected, null, null);
        }
        long checked = 0;
        long matched = 0;
        EventQuery query = filter.query(PAGE);
        List<EventSummary> page = events.list(query);
        while (!page.isEmpty()) {
            List<EventSummary> read = page.subList(0, (int) Math.min(page.size(), checkedAtMost - checked));
            checked += read.size();
            matched += content.matching(read, filter.match(), filter.header()).size();
            page = read.size() < PAGE || checked >= checkedAtMost ? List.of()
                    : events.list(query.after(EventQuery.Position.of(read.get(read.size() - 1))));
        }
        return new Count(matched, selected, checked);
    }
}
