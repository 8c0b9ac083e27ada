import { html } from '../lib.js';
import { go, href } from '../router.js';
import { T, Time } from '../text.js';
import {
    Empty, ErrorNote, EventsTable, Loading, MoreButton, SelectField, SourceField, TextField, TimeField, eventHref,
    useDraft, usePages, useStatuses,
} from '../components.js';
import { ReplayAll, ReplayJobs } from '../replay.js';

const FILTERS = ['source', 'status', 'type', 'since', 'until', 'eventId', 'key', 'match', 'header'];

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
    const statuses = useStatuses().events;
    // A search (a key, a body fragment, a header) can select a bulk replay: the server counts it first, and reads
    // every event the other filters select for a fragment or a header. Only a status the server calls replayable
    // (finished: an event still queued or retrying is not replayed) offers it.
    const status = params.get('status') || 'dead';
    const searched = ['key', 'match', 'header'].some((name) => params.get(name));
    const replayable = statuses.some((s) => s.name === status && s.replayable);
    const replayFilter = searched && !eventId && replayable
        ? Object.fromEntries([
            ['status', status], ['key', params.get('key')], ['match', params.get('match')],
            ['header', params.get('header')], ['source', params.get('source')],
            ['type', params.get('type')], ['typePrefix', params.get('type') ? true : null],
            ['since', params.get('since')], ['until', params.get('until')]].filter(([, v]) => v)) : null;
    return html`<section>
        <h1>Events</h1>
        <form class="filters" onSubmit=${apply} aria-label="Event filters">
            <${SourceField} id="events-source" value=${draft.source} onChange=${field('source')} />
            <${SelectField} id="events-status" label="Status" value=${draft.status} onChange=${field('status')}
                            options=${statuses.map((s) => s.name)} any="Any status" />
            <${TextField} id="events-type" label="Type (prefix)" value=${draft.type} onChange=${field('type')}
                          placeholder="e.g. invoice." />
            <${TimeField} id="events-since" label="Received from" value=${draft.since} onChange=${field('since')} />
            <${TimeField} id="events-until" label="Received before" value=${draft.until} onChange=${field('until')} />
            <${TextField} id="events-id" label="Event id" value=${draft.eventId} onChange=${field('eventId')} />
            <${TextField} id="events-key" label="Search key" value=${draft.key} onChange=${field('key')}
                          placeholder="e.g. customer:cus_9" />
            <${TextField} id="events-match" label="Body contains (JSON)" value=${draft.match} onChange=${field('match')}
                          placeholder='e.g. {"data":{"object":{"status":"failed"}}}' />
            <${TextField} id="events-header" label="Header (name:value)" value=${draft.header}
                          onChange=${field('header')} placeholder="e.g. x-github-event:push" />
            <div class="actions">
                <button type="submit" class="primary">Apply</button>
                ${filtered ? html`<a class="button" href="#/events">Clear filters</a>` : null}
            </div>
        </form>
        ${replayFilter ? html`<div class="filter-replay">
            <${ReplayAll} filter=${replayFilter} describedBy="events-search-replay-help" />
            <span id="events-search-replay-help" class="help">every ${replayFilter.status} event this search and the
                filters above select</span>
        </div><${ReplayJobs} />` : null}
        ${eventId && params.get('source') ? html`<p>Open <a href=${eventHref(params.get('source'), eventId)}>event
            ${T(eventId)} of ${T(params.get('source'))}</a> directly.</p>` : null}
        <${Results} pages=${pages} filtered=${filtered} />
    </section>`;
}

function Results({ pages, filtered }) {
    if (pages.loading && !pages.data) return html`<${Loading} what="events" />`;
    if (pages.error) return html`<${ErrorNote} error=${pages.error} what="The events" />`;
    const events = pages.data.items;
    const scan = pages.data.scan;
    // A search of bodies or headers looks at a bounded slice of the newest events: the page says how far it looked.
    const looked = scan ? html`<p class="help" role="note">${scan.reached
        ? html`Bodies and headers searched: the newest ${Number(scan.limit).toLocaleString()} events of the time
            window, back to <${Time} at=${scan.oldest} />.${pages.data.next
            ? ' “Search older events” or “Load more” looks further.' : ''}`
        : pages.data.next ? 'Bodies and headers searched until the page was full: “Load more” looks further.'
            : 'Bodies and headers searched: every event of the time window.'}</p>` : null;
    if (!events.length && pages.data.next) {
        // The server looks at a bounded slice of events per page for filters no index orders by time: none of
        // them matched, but older ones may.
        return html`<${Empty}>No event matches these filters among the newest ones looked at.</${Empty}>
            ${looked}<${MoreButton} pages=${pages} label="Search older events" />`;
    }
    if (!events.length) {
        return html`<${Empty}>${filtered ? 'No event matches these filters.'
            : 'No event has been received yet. Point a sender at POST /webhooks/<source>.'}</${Empty}>${looked}`;
    }
    const shown = `${events.length.toLocaleString()} event${events.length === 1 ? '' : 's'} shown, newest first${
        pages.data.next ? '; “Load more” for older ones' : ''}.`;
    // While other filters load, the previous list stays, marked as such.
    return html`${pages.loading ? html`<${Loading} what="the events for these filters" />` : null}
        <p class="count" role="status">${shown}</p>
        ${looked}
        <${EventsTable} events=${events} caption="Events, newest first" />
        <${MoreButton} pages=${pages} />`;
}
