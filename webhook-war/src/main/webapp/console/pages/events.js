import { html } from '../lib.js';
import { T, Time } from '../text.js';
import {
    Empty, EventsTable, MoreButton, SelectField, SourceField, TextField, TimeField, eventHref, useStatuses,
} from '../components.js';
import { FilterForm, PagedList, useListing } from '../listing.js';
import { ReplayAll, ReplayJobs } from '../replay.js';

const FILTERS = ['source', 'status', 'type', 'since', 'until', 'eventId', 'key', 'match', 'header'];

export function Events({ params }) {
    const eventId = params.get('eventId');
    // The exact id is also checked here, so a server without the eventId filter never shows other events for it.
    const listing = useListing({
        page: 'events', params, names: FILTERS, path: 'events', itemsKey: 'events', limit: 50,
        keep: (e) => !eventId || e.eventId === eventId,
    });
    const { draft, field } = listing;
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
        <${FilterForm} listing=${listing} label="Event filters">
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
        </${FilterForm}>
        ${replayFilter ? html`<div class="filter-replay">
            <${ReplayAll} filter=${replayFilter} describedBy="events-search-replay-help" />
            <span id="events-search-replay-help" class="help">every ${replayFilter.status} event this search and the
                filters above select</span>
        </div><${ReplayJobs} />` : null}
        ${eventId && params.get('source') ? html`<p>Open <a href=${eventHref(params.get('source'), eventId)}>event
            ${T(eventId)} of ${T(params.get('source'))}</a> directly.</p>` : null}
        <${Results} pages=${listing.pages} filtered=${listing.filtered} />
    </section>`;
}

function Results({ pages, filtered }) {
    // A search of bodies or headers looks at a bounded slice of the newest events: the page says how far it looked.
    const looked = (answer) => {
        const scan = answer.scan;
        return scan ? html`<p class="help" role="note">${scan.reached
            ? html`Bodies and headers searched: the newest ${Number(scan.limit).toLocaleString()} events of the time
                window, back to <${Time} at=${scan.oldest} />.${answer.next
                ? ' “Search older events” or “Load more” looks further.' : ''}`
            : answer.next ? 'Bodies and headers searched until the page was full: “Load more” looks further.'
                : 'Bodies and headers searched: every event of the time window.'}</p>` : null;
    };
    const empty = (answer) => (answer.next
        // The server looks at a bounded slice of events per page for filters no index orders by time: none of
        // them matched, but older ones may.
        ? html`<${Empty}>No event matches these filters among the newest ones looked at.</${Empty}>
            ${looked(answer)}<${MoreButton} pages=${pages} label="Search older events" />`
        : html`<${Empty}>${filtered ? 'No event matches these filters.'
            : 'No event has been received yet. Point a sender at POST /webhooks/<source>.'}</${Empty}>${looked(answer)}`);
    const table = (events, answer) => {
        const shown = `${events.length.toLocaleString()} event${events.length === 1 ? '' : 's'} shown, newest first${
            answer.next ? '; “Load more” for older ones' : ''}.`;
        return html`<p class="count" role="status">${shown}</p>
            ${looked(answer)}
            <${EventsTable} events=${events} caption="Events, newest first" />`;
    };
    // While other filters load, the previous list stays, marked as such.
    return html`<${PagedList} pages=${pages} what="events" errorWhat="The events" empty=${empty}
                              reloading="the events for these filters" render=${table} />`;
}
