import { html } from '../lib.js';
import { go, href } from '../router.js';
import { T } from '../text.js';
import {
    Empty, ErrorNote, EventsTable, Loading, MoreButton, SelectField, SourceField, TextField, TimeField, eventHref,
    useDraft, usePages,
} from '../components.js';

const FILTERS = ['source', 'status', 'type', 'since', 'until', 'eventId', 'key'];
export const EVENT_STATUSES = ['received', 'completed', 'ignored', 'retrying', 'dead'];

export function Events({ params }) {
    const [draft, field] = useDraft(params, FILTERS);
    const query = { limit: 50 };
    for (const name of FILTERS) if (params.get(name)) query[name] = params.get(name);
    const eventId = params.get('eventId');
    // The exact id is also checked here, so a server without the eventId filter never shows other events for it.
    const pages = usePages('events', 'events', query, (e) => !eventId || e.eventId === eventId);
    const apply = (event) => {
        event.preventDefault();
        go(href(['events'], draft));
    };
    const filtered = FILTERS.some((name) => params.get(name));
    return html`<section>
        <h1>Events</h1>
        <form class="filters" onSubmit=${apply} aria-label="Event filters">
            <${SourceField} id="events-source" value=${draft.source} onChange=${field('source')} />
            <${SelectField} id="events-status" label="Status" value=${draft.status} onChange=${field('status')}
                            options=${EVENT_STATUSES} any="Any status" />
            <${TextField} id="events-type" label="Type (prefix)" value=${draft.type} onChange=${field('type')}
                          placeholder="e.g. invoice." />
            <${TimeField} id="events-since" label="Received from" value=${draft.since} onChange=${field('since')} />
            <${TimeField} id="events-until" label="Received before" value=${draft.until} onChange=${field('until')} />
            <${TextField} id="events-id" label="Event id" value=${draft.eventId} onChange=${field('eventId')} />
            <${TextField} id="events-key" label="Search key" value=${draft.key} onChange=${field('key')}
                          placeholder="e.g. customer:cus_9" />
            <div class="actions">
                <button type="submit" class="primary">Apply</button>
                ${filtered ? html`<a class="button" href="#/events">Clear filters</a>` : null}
            </div>
        </form>
        ${eventId && params.get('source') ? html`<p>Open <a href=${eventHref(params.get('source'), eventId)}>event
            ${T(eventId)} of ${T(params.get('source'))}</a> directly.</p>` : null}
        <${Results} pages=${pages} filtered=${filtered} />
    </section>`;
}

function Results({ pages, filtered }) {
    if (pages.loading && !pages.data) return html`<${Loading} what="events" />`;
    if (pages.error) return html`<${ErrorNote} error=${pages.error} what="The events" />`;
    const events = pages.data.items;
    if (!events.length && pages.data.next) {
        // The server looks at a bounded slice of events per page for filters no index orders by time: none of
        // them matched, but older ones may.
        return html`<${Empty}>No event matches these filters among the newest ones looked at.</${Empty}>
            <${MoreButton} pages=${pages} label="Search older events" />`;
    }
    if (!events.length) {
        return html`<${Empty}>${filtered ? 'No event matches these filters.'
            : 'No event has been received yet. Point a sender at POST /webhooks/<source>.'}</${Empty}>`;
    }
    const shown = `${events.length.toLocaleString()} event${events.length === 1 ? '' : 's'} shown, newest first${
        pages.data.next ? '; “Load more” for older ones' : ''}.`;
    // While other filters load, the previous list stays, marked as such.
    return html`${pages.loading ? html`<${Loading} what="the events for these filters" />` : null}
        <p class="count" role="status">${shown}</p>
        <${EventsTable} events=${events} caption="Events, newest first" />
        <${MoreButton} pages=${pages} />`;
}
