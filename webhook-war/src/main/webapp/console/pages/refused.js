import { html, useState } from '../lib.js';
import { api } from '../api.js';
import { href } from '../router.js';
import { T, Time, bytesText } from '../text.js';
import { Empty, ErrorNote, Loading, TextField, useLoad } from '../components.js';
import { FilterForm, PagedList, useListing } from '../listing.js';

const FILTERS = ['source', 'reason'];
const DAY = 24 * 60 * 60 * 1000;

/**
 * Refused deliveries: every refusal of the last day by source and reason with the fix to try, and the examples kept
 * (the first few of each source, reason and minute), newest first. Everything here came from a sender: shown as text.
 */
export function Refused({ params }) {
    const listing = useListing({
        page: 'refused', params, names: FILTERS, path: 'rejections', itemsKey: 'rejections', limit: 25,
    });
    const { draft, field, filtered } = listing;
    const query = listing.filters;
    const since = new Date(Math.floor((Date.now() - DAY) / 60000) * 60000).toISOString();
    const [summary] = useLoad((signal) => api('rejections/summary', { query: { since }, signal }), []);
    const reasons = summary.data ? (summary.data.reasons || []).filter((r) =>
        (!query.source || r.source === query.source || (r.example && r.example.source === query.source))
        && (!query.reason || r.reason === query.reason)) : [];
    return html`<section>
        <h1>Refused deliveries</h1>
        <p class="help">Deliveries answered with an error before any event was accepted: a wrong or rotated secret, a
            proxy that changes the body, a clock that is off, a body over the limit, a mistyped source. Every one is
            counted; the first few of each source, reason and minute are kept, without signatures or credentials,
            and without the body unless the source keeps refused bodies. They appear here within a few seconds of
            the refusal.</p>
        <${FilterForm} listing=${listing} label="Refused delivery filters">
            <${TextField} id="refused-source" label="Source (as sent)" value=${draft.source}
                          onChange=${field('source')} />
            <${TextField} id="refused-reason" label="Reason" value=${draft.reason} onChange=${field('reason')}
                          placeholder="e.g. invalid-signature" />
        </${FilterForm}>
        <section aria-labelledby="refused-reasons-title">
            <h2 id="refused-reasons-title">By reason, last 24 hours</h2>
            ${summary.loading && !summary.data ? html`<${Loading} what="the refusals by reason" />`
                : summary.error ? html`<${ErrorNote} error=${summary.error} what="The refusals by reason" />`
                    : reasons.length ? html`<ul class="groups">${reasons.map((r) => html`<li key=${r.source + ' ' + r.reason}>
                        <${Reason} reason=${r} /></li>`)}</ul>`
                        : html`<${Empty}>No delivery was refused in the last 24 hours${filtered ? ' for these filters' : ''}.</${Empty}>`}
        </section>
        <section aria-labelledby="refused-list-title">
            <h2 id="refused-list-title">Newest refused deliveries</h2>
            <${PagedList} pages=${listing.pages} what="the refused deliveries" errorWhat="The refused deliveries"
                          empty=${`No refused delivery kept${filtered ? ' matches these filters' : ''}.`}
                          render=${(refusals) => html`<${RefusedTable} refusals=${refusals} />`} />
        </section>
    </section>`;
}

function Reason({ reason }) {
    const other = reason.source === '_other';
    return html`<div class="group">
        <p class="group-text"><strong>${Number(reason.refused).toLocaleString()} refused</strong>: ${T(reason.title)}${' '}
            <span class="muted">(${T(reason.reason)}, ${reason.status})</span>
            <br /><span class="muted">source</span> <span class="id">${other ? 'names no source has' : T(reason.source)}</span>
            ${reason.example ? html`${' · '}<span class="muted">last</span> <${Time} at=${reason.example.at} relative=${true} />` : null}</p>
        ${reason.hint ? html`<p class="hint">Try: ${T(reason.hint)}</p>` : null}
        ${reason.example ? html`<p class="message">${T(reason.example.detail)}</p>` : null}
        <div class="actions">
            <a class="button" href=${href(['refused'], { source: other ? '' : reason.source, reason: reason.reason })}>
                Show examples</a>
        </div>
    </div>`;
}

function RefusedTable({ refusals }) {
    return html`<div class="table-wrap"><table class="list">
        <caption class="visually-hidden">Refused deliveries, newest first</caption>
        <thead><tr>
            <th scope="col">Refused</th><th scope="col">Source</th><th scope="col">Reason</th>
            <th scope="col" class="num">Status</th><th scope="col">Detail</th><th scope="col">From</th>
            <th scope="col">Body</th><th scope="col">Headers</th>
        </tr></thead>
        <tbody>${refusals.map((r) => html`<tr key=${r.id}>
            <td><${Time} at=${r.at} /></td>
            <td class="id">${T(r.source)}</td>
            <td>${T(r.reason)}</td>
            <td class="num">${r.status}</td>
            <td class="message">${T(r.detail)}</td>
            <td class="id">${r.remoteAddress ? T(r.remoteAddress) : html`<span class="muted">unknown</span>`}</td>
            <td>${r.bodySize >= 0 ? bytesText(r.bodySize) : html`<span class="muted">unknown</span>`}${r.bodySha256
                ? html`<br /><span class="id muted" title="SHA-256 of the body">${r.bodySha256.slice(0, 16)}…</span>` : null}
                ${r.bodyKept ? html`<br /><${RefusedBody} id=${r.id} />` : null}</td>
            <td><${Headers} headers=${r.headers || {}} /></td>
        </tr>`)}</tbody>
    </table></div>`;
}

/** A kept refused body, fetched when asked for: a sender's bytes, shown as text only. */
function RefusedBody({ id }) {
    const [state, setState] = useState({ open: false, loading: false, data: null, error: null });
    const show = async () => {
        setState({ open: true, loading: true, data: null, error: null });
        try {
            const refusal = await api(`rejections/${encodeURIComponent(String(id))}`);
            setState({ open: true, loading: false, data: refusal, error: null });
        } catch (error) {
            setState({ open: true, loading: false, data: null, error });
        }
    };
    if (!state.open) return html`<button type="button" onClick=${show}>Show body</button>`;
    if (state.loading) return html`<${Loading} what="the body" />`;
    if (state.error) return html`<${ErrorNote} error=${state.error} what="The body" />`;
    const refusal = state.data;
    if (!refusal.bodyKept) return html`<span class="muted">no longer kept</span>`;
    return html`<div class="refused-body">
        <p class="help">As received${refusal.bodyTruncated ? ', its first 64 KiB' : ''}; never trusted.</p>
        <pre class="payload" tabindex="0" aria-label="Refused body">${T(refusal.body, true)}</pre>
    </div>`;
}

function Headers({ headers }) {
    const names = Object.keys(headers);
    if (!names.length) return html`<span class="muted">none</span>`;
    return html`<dl class="headers">${names.map((name) => html`<div key=${name}>
        <dt class="id">${T(name)}</dt><dd class="id">${T(headers[name])}</dd></div>`)}</dl>`;
}
