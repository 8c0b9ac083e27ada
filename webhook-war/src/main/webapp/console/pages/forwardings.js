import { html, useState } from '../lib.js';
import { api, ApiError } from '../api.js';
import { href } from '../router.js';
import { T, Time, count, plain } from '../text.js';
import {
    Dialog, Empty, ErrorNote, Loading, SelectField, SourceField, Status, TextField, TimeField, eventHref, useLoad,
    useStatuses,
} from '../components.js';
import { FilterForm, PagedList, useListing } from '../listing.js';

const FILTERS = ['source', 'status', 'type', 'since', 'until'];

export function Forwardings({ params }) {
    const listing = useListing({
        page: 'forwardings', params, names: FILTERS, path: 'forwardings', itemsKey: 'forwardings', limit: 50,
    });
    const { draft, field, filtered } = listing;
    const statuses = useStatuses().forwardings;
    return html`<section>
        <h1>Forwardings</h1>
        <p class="help">The outbox: processed events forwarded to each source’s destination, and the effects
            handlers posted. A forwarding is retried with back-off until it is delivered or dead; one whose body its
            destination’s filter does not take is filtered, never sent.</p>
        <${Destinations} />
        <section aria-labelledby="forwardings-title">
            <h2 id="forwardings-title">Forwardings</h2>
            <${FilterForm} listing=${listing} label="Forwarding filters">
                <${SourceField} id="fwd-source" value=${draft.source} onChange=${field('source')} />
                <${SelectField} id="fwd-status" label="Status" value=${draft.status} onChange=${field('status')}
                                options=${statuses.map((s) => s.name)} any="Any status" />
                <${TextField} id="fwd-type" label="Event type" value=${draft.type} onChange=${field('type')} />
                <${TimeField} id="fwd-since" label="Scheduled from" value=${draft.since} onChange=${field('since')} />
                <${TimeField} id="fwd-until" label="Scheduled before" value=${draft.until} onChange=${field('until')} />
            </${FilterForm}>
            <${PagedList} pages=${listing.pages} what="the forwardings" errorWhat="The forwardings"
                          empty=${filtered ? 'No forwarding matches these filters.'
                              : 'Nothing forwarded yet: a source forwards when it has a destination (HOOKSTILE_SOURCES_<NAME>_DESTINATION_URL).'}
                          render=${(forwardings) => html`<${ForwardingsTable} forwardings=${forwardings}
                              showEvent=${true} />`} />
        </section>
    </section>`;
}

function Destinations() {
    const [state] = useLoad((signal) => api('destinations', { signal }), []);
    return html`<section aria-labelledby="destinations-title">
        <h2 id="destinations-title">Destinations</h2>
        ${state.loading && !state.data ? html`<${Loading} what="the destinations" />`
            : state.error ? html`<${ErrorNote} error=${state.error} what="The destinations" />`
                : (state.data.destinations || []).length ? html`<div class="table-wrap"><table class="list">
                    <caption class="visually-hidden">Destinations and their breakers</caption>
                    <thead><tr><th scope="col">Source</th><th scope="col">Kind</th><th scope="col">Target</th>
                        <th scope="col">Breaker</th><th scope="col" class="num">Pending</th>
                        <th scope="col" class="num">Dead</th><th scope="col">Sending</th></tr></thead>
                    <tbody>${state.data.destinations.map((d, i) => html`<${DestinationRow} key=${i} destination=${d} />`)}
                    </tbody></table></div>`
                    : html`<${Empty}>No destination is configured.</${Empty}>`}
    </section>`;
}

/** A rate as people write it: 20/s, or per minute or hour below one a second. */
function pace(perSecond) {
    if (perSecond >= 1) return `${Math.round(perSecond * 100) / 100}/s`;
    if (perSecond * 60 >= 1) return `${Math.round(perSecond * 60 * 100) / 100}/min`;
    return `${Math.round(perSecond * 3600 * 100) / 100}/h`;
}

/**
 * One destination: an HTTP one can be paused (its forwardings held, counted as pending, never sent) and resumed (what
 * it held is sent in order of creation), each after a confirmation.
 */
function DestinationRow({ destination }) {
    const [d, setD] = useState(destination);
    const [confirming, setConfirming] = useState(false);
    const [busy, setBusy] = useState(false);
    const [note, setNote] = useState(null);
    const action = d.paused ? 'resume' : 'pause';
    const change = async () => {
        setBusy(true);
        try {
            setD(await api(`destinations/${encodeURIComponent(d.source)}/${action}`, { method: 'POST' }));
            setNote({ ok: true, text: action === 'pause' ? 'Paused: its forwardings are held.'
                : 'Resumed: what it held is sent, oldest first.' });
        } catch (e) {
            setNote({ ok: false, text: e.message });
        } finally {
            setBusy(false);
            setConfirming(false);
        }
    };
    return html`<tr>
        <td class="id">${T(d.source)}</td>
        <td>${T(d.kind)}</td>
        <td class="id">${T(d.target)}</td>
        <td>${d.breaker ? html`<${Status} value=${d.breaker} />` : html`<span class="muted">–</span>`}</td>
        <td class="num">${d.kind === 'http' ? html`<a href=${href(['forwardings'], { source: d.source, status: 'pending' })}
            aria-label=${`Pending forwardings of ${plain(d.source)}`}>${count(d.pending, 10000)}</a>` : html`<span class="muted">–</span>`}</td>
        <td class="num">${d.kind === 'http' ? html`<a href=${href(['forwardings'], { source: d.source, status: 'dead' })}
            aria-label=${`Dead forwardings of ${plain(d.source)}`}>${count(d.dead, 10000)}</a>` : html`<span class="muted">–</span>`}</td>
        <td>${d.kind !== 'http' ? html`<span class="muted">in the processing transaction</span>` : html`
            ${d.paused ? html`<${Status} value="paused" /> <span class="muted">since <${Time} at=${d.pausedAt} /></span>`
                : html`<${Status} value="sending" />`}
            ${typeof d.ratePerSecond === 'number' || typeof d.concurrency === 'number' ? html`<span class="muted">${
                [typeof d.ratePerSecond === 'number' ? `at most ${pace(d.ratePerSecond)}` : null,
                    typeof d.concurrency === 'number' ? `${d.concurrency} at once` : null].filter(Boolean).join(', ')}</span>`
                : null}
            <button type="button" onClick=${() => setConfirming(true)} disabled=${busy}
                aria-label=${`${d.paused ? 'Resume' : 'Pause'} the destination of ${plain(d.source)}`}>${
                d.paused ? 'Resume' : 'Pause'}</button>
            ${note ? html`<span class=${note.ok ? 'ok' : 'error'} role=${note.ok ? 'status' : 'alert'}>${T(note.text)}</span>` : null}
            <${Dialog} open=${confirming} title=${d.paused ? 'Resume this destination?' : 'Pause this destination?'}
                       onClose=${() => setConfirming(false)}>
                ${d.paused ? html`<p>The forwardings of <span class="id">${T(d.source)}</span> to
                        <span class="id">${T(d.target)}</span> held since the pause are sent, oldest first, at the
                        destination's pace; new ones are sent as they come.</p>`
                    : html`<p>The forwardings of <span class="id">${T(d.source)}</span> to
                        <span class="id">${T(d.target)}</span> are held from now on, on every instance: created and
                        counted as pending, never sent and never dead because of the pause, until you resume it. One
                        already on its way finishes.</p>`}
                <div class="actions">
                    <button type="button" class="primary" onClick=${change} disabled=${busy}>Confirm</button>
                    <button type="button" onClick=${() => setConfirming(false)}>Close</button>
                </div>
            </${Dialog}>`}</td>
    </tr>`;
}

export function ForwardingsTable({ forwardings, showEvent }) {
    return html`<div class="table-wrap"><table class="list">
        <caption class="visually-hidden">Forwardings, newest first</caption>
        <thead><tr>
            <th scope="col" class="num">Id</th>
            ${showEvent ? html`<th scope="col">Event</th>` : null}
            <th scope="col">Destination</th><th scope="col">Status</th><th scope="col" class="num">Attempts</th>
            <th scope="col">Scheduled</th><th scope="col">Next try / delivered</th><th scope="col">Last answer</th>
            <th scope="col">Action</th>
        </tr></thead>
        <tbody>${forwardings.map((f) => html`<${ForwardingRow} key=${f.id} forwarding=${f} showEvent=${showEvent} />`)}</tbody>
    </table></div>`;
}

function ForwardingRow({ forwarding, showEvent }) {
    const [current, setCurrent] = useState(forwarding);
    const [confirming, setConfirming] = useState(false);
    const [busy, setBusy] = useState(false);
    const [note, setNote] = useState(null);
    const d = current;
    const replay = async () => {
        setBusy(true);
        try {
            await api(`forwardings/${encodeURIComponent(String(d.id))}/replay`, { method: 'POST' });
            setCurrent({ ...d, status: 'pending', replayable: false, attempts: 0, lastError: d.lastError });
            setNote({ ok: true, text: 'Pending again: it is sent at once.' });
        } catch (e) {
            setNote({ ok: false, text: e instanceof ApiError && e.status === 409 ? 'It is pending already.' : e.message });
        } finally {
            setBusy(false);
            setConfirming(false);
        }
    };
    return html`<tr>
        <td class="num">${T(d.id)}</td>
        ${showEvent ? html`<td class="id"><a href=${eventHref(d.source, d.eventId)}>${T(d.eventId)}</a>
            <br /><span class="muted">${T(d.source)}${d.type ? html` · ${T(d.type)}` : null}</span></td>` : null}
        <td class="id">${T(d.destination)}${d.effect ? html`<br /><span class="muted">effect ${T(d.effect)}</span>` : null}</td>
        <td><${Status} value=${d.status} /></td>
        <td class="num">${T(d.attempts)}</td>
        <td><${Time} at=${d.createdAt} /></td>
        <td>${d.status === 'delivered' ? html`<${Time} at=${d.deliveredAt} />`
            : d.status === 'pending' && d.nextAttemptAt ? html`<${Time} at=${d.nextAttemptAt} />`
                : html`<span class="muted">–</span>`}</td>
        <td class="message">${T(d.lastError)}</td>
        <td>
            ${d.replayable ? html`<button type="button"
                onClick=${() => setConfirming(true)} disabled=${busy}>Replay</button>` : null}
            ${note ? html`<span class=${note.ok ? 'ok' : 'error'} role=${note.ok ? 'status' : 'alert'}>${T(note.text)}</span>` : null}
            <${Dialog} open=${confirming} title="Send this forwarding again?" onClose=${() => setConfirming(false)}>
                <p>Forwarding ${T(d.id)} of event <span class="id">${T(d.eventId)}</span> to
                    <span class="id">${T(d.destination)}</span> becomes pending and is sent again, with the same
                    Idempotency-Key as before. The event itself is not processed again.</p>
                <div class="actions">
                    <button type="button" class="primary" onClick=${replay} disabled=${busy}>Confirm</button>
                    <button type="button" onClick=${() => setConfirming(false)}>Close</button>
                </div>
            </${Dialog}>
        </td>
    </tr>`;
}
