import { html, useState } from '../lib.js';
import { useStore } from '../store.js';
import { api } from '../api.js';
import { href } from '../router.js';
import { T, Time, count, parseInstant } from '../text.js';
import {
    Empty, ErrorNote, EventsTable, Loading, SourceField, TextField, TimeField, uid, useLoad,
} from '../components.js';
import { FilterForm, PagedList, useListing } from '../listing.js';
import { ReplayAll, ReplayJobs } from '../replay.js';

const FILTERS = ['source', 'type', 'since', 'until'];

export function Dead({ params }) {
    const { replayed } = useStore();
    const listing = useListing({
        page: 'dead', params, names: FILTERS, path: 'events', itemsKey: 'events', limit: 25,
        fixed: { status: 'dead' }, version: replayed,
    });
    const { draft, field, filtered } = listing;
    const filter = { status: 'dead', ...listing.filters };
    // The filter's type is a prefix, as in the lists below; a replay's type is exact unless it says so.
    const replayFilter = filter.type ? { ...filter, typePrefix: true } : filter;
    const key = JSON.stringify(filter);
    const [groups] = useLoad((signal) => api('dead-groups', {
        query: { source: filter.source, since: filter.since, until: filter.until }, signal,
    }), [key, replayed]);
    const shown = groups.data ? (groups.data.groups || [])
        .filter((g) => !filter.type || String(g.type ?? '').startsWith(filter.type)) : [];
    return html`<section>
        <h1>Dead events</h1>
        <p class="help">Events whose processing failed for good. Fix the cause, then replay one (from its page),
            a group, or everything the filters select.</p>
        <${FilterForm} listing=${listing} label="Dead event filters">
            <${SourceField} id="dead-source" value=${draft.source} onChange=${field('source')} />
            <${TextField} id="dead-type" label="Type (prefix)" value=${draft.type} onChange=${field('type')} />
            <${TimeField} id="dead-since" label="Received from" value=${draft.since} onChange=${field('since')} />
            <${TimeField} id="dead-until" label="Received before" value=${draft.until} onChange=${field('until')} />
        </${FilterForm}>
        <div class="filter-replay">
            <${ReplayAll} filter=${replayFilter} describedBy="dead-filter-replay-help" />
            <span id="dead-filter-replay-help" class="help">every dead event the filters above select</span>
        </div>
        <${ReplayJobs} />
        <section aria-labelledby="groups-title">
            <h2 id="groups-title">By cause</h2>
            ${groups.loading && !groups.data ? html`<${Loading} what="the dead groups" />`
                : groups.error ? html`<${ErrorNote} error=${groups.error} what="The dead groups" />`
                    : shown.length ? html`<ul class="groups">${shown.map((g) => html`<li key=${JSON.stringify(
                        [g.source, g.type, g.error])}><${Group} group=${g} filter=${filter} /></li>`)}</ul>
                        ${groups.data.sampled ? html`<p class="help">Grouped over the newest 10,000 dead events:
                            there are more.</p>` : null}`
                        : html`<${Empty}>No dead event${filtered ? ' matches these filters' : ''}. Nothing to fix.</${Empty}>`}
        </section>
        <section aria-labelledby="dead-list-title">
            <h2 id="dead-list-title">Newest dead events</h2>
            <${PagedList} pages=${listing.pages} what="the dead events" errorWhat="The dead events"
                          empty="No dead event." render=${(events) => html`<${EventsTable} events=${events}
                              caption="Dead events, newest first" />`} />
        </section>
    </section>`;
}

function Group({ group, filter }) {
    const [id] = useState(() => uid('group'));
    const last = parseInstant(group.lastAt);
    const groupFilter = { ...filter, source: group.source, type: group.type ?? '', error: group.error };
    if (groupFilter.error === undefined || groupFilter.error === null) delete groupFilter.error;
    return html`<div class="group">
        <p id=${id} class="group-text"><strong>${count(group.count, 10000)} dead</strong>:${' '}
            <span class="message">${group.error ? T(group.error) : html`<span class="muted">no error recorded</span>`}</span>${last
                ? html`, last <${Time} at=${group.lastAt} relative=${true} />` : null}
            <br /><span class="muted">source</span> <span class="id">${T(group.source)}</span>${' · '}<span
                class="muted">type</span> <span class="id">${group.type ? T(group.type) : '(none)'}</span></p>
        <div class="actions">
            <a class="button" href=${href(['events'], { source: group.source, status: 'dead', type: group.type })}>
                Show events</a>
            <${ReplayAll} filter=${groupFilter} describedBy=${id} />
        </div>
    </div>`;
}

