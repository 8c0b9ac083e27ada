import { html } from '../lib.js';
import { api } from '../api.js';
import { href } from '../router.js';
import { T, count } from '../text.js';
import { Empty, ErrorNote, Loading, useLoad } from '../components.js';

export const ADD_SOURCE = `HOOKSTILE_SOURCES=gh \\
HOOKSTILE_SOURCES_GH_PROVIDER=github \\
HOOKSTILE_SOURCES_GH_SECRETS='the secret GitHub signs with' \\
./hookstile`;

export function NoSource() {
    return html`<div class="empty-source">
        <p><strong>No source is configured</strong>, so every delivery is answered 404. A source is a named endpoint,${' '}
            <code>${'POST /webhooks/<name>'}</code>, whose deliveries one provider signs. Name your sources in${' '}
            <code>HOOKSTILE_SOURCES</code> and give each a provider and its secrets, then restart:</p>
        <pre class="code">${ADD_SOURCE}</pre>
        <p class="help">Providers: github, stripe, shopify, slack, twilio, meta, standard-webhooks, svix, hmac. The
            README’s “Sources” table lists every setting.</p>
    </div>`;
}

function seconds(value) {
    if (typeof value !== 'number') return null;
    if (value === 0) return 'off';
    if (value % 86400 === 0) return `${value / 86400} d (${value.toLocaleString()} s)`;
    if (value % 3600 === 0) return `${value / 3600} h (${value.toLocaleString()} s)`;
    return `${value.toLocaleString()} s`;
}

function Setting({ name, value, children }) {
    const shown = children !== undefined ? children
        : value === undefined || value === null || value === '' ? html`<span class="muted">not set</span>` : T(value);
    return html`<dt>${name}</dt><dd>${shown}</dd>`;
}

export function Sources() {
    const [state] = useLoad((signal) => api('sources', { signal }), []);
    let body;
    if (state.loading && !state.data) body = html`<${Loading} what="the sources" />`;
    else if (state.error) body = html`<${ErrorNote} error=${state.error} what="The sources" />`;
    else if (!(state.data.sources || []).length) body = html`<${NoSource} />`;
    else body = state.data.sources.map((s, i) => html`<${SourceCard} key=${s.name} source=${s} index=${i} />`);
    return html`<section>
        <h1>Sources</h1>
        <p class="help">Each source’s settings as the server understood them at start. Secrets are never shown, only
            how many there are.</p>
        ${body}
    </section>`;
}

function SourceCard({ source: s, index }) {
    const endpoint = new URL(`../webhooks/${encodeURIComponent(String(s.name))}`, document.baseURI).href;
    const events = s.events && typeof s.events === 'object' ? Object.entries(s.events) : [];
    const destinations = Array.isArray(s.destinations) ? s.destinations : [];
    return html`<article class="card" aria-labelledby=${'source-' + index}>
        <h2 id=${'source-' + index}><span class="id">${T(s.name)}</span> <span class="muted">${T(s.provider)}</span></h2>
        <dl class="facts">
            <${Setting} name="Endpoint"><code class="id">${T(endpoint)}</code></${Setting}>
            <${Setting} name="Provider" value=${s.provider} />
            <${Setting} name="Secrets">${typeof s.secretCount === 'number'
                ? `${s.secretCount} configured (never shown)${s.secretCount > 1 ? ': a rotation, any of them is accepted' : ''}`
                : html`<span class="muted">unknown</span>`}</${Setting}>
            ${s.publicKeyCount > 0 ? html`<${Setting} name="Public keys">${s.publicKeyCount} configured (v1a, Ed25519)${
                s.publicKeyCount > 1 ? ': a rotation, any of them is accepted' : ''}</${Setting}>` : null}
            <${Setting} name="Timestamp tolerance">${seconds(s.toleranceSeconds) ?? html`<span class="muted">–</span>`}</${Setting}>
            <${Setting} name="Body deduplication window">${seconds(s.bodyDedupWindowSeconds)
                ?? html`<span class="muted">not reported</span>`}</${Setting}>
            <${Setting} name="Retention">${typeof s.retentionDays === 'number'
                ? (s.retentionDays === 0 ? 'kept for ever' : `${s.retentionDays} days`) : html`<span class="muted">not reported</span>`}</${Setting}>
            <${Setting} name="Ordering key">${s.orderKey ? html`<code>${T(s.orderKey)}</code>` : html`<span class="muted">none: unordered</span>`}</${Setting}>
            <${Setting} name="Search keys">${(s.searchKeys || []).length ? html`<ul class="plain inline">${s.searchKeys.map(
                (k) => html`<li key=${k}><code>${T(k)}</code></li>`)}</ul>` : html`<span class="muted">none</span>`}</${Setting}>
            ${s.publicUrl ? html`<${Setting} name="Public URL"><code class="id">${T(s.publicUrl)}</code></${Setting}>` : null}
            <${Setting} name="Destinations">${destinations.length ? html`<ul class="plain">${destinations.map((d, i) => html`
                <li key=${i}>${T(d.kind)} → <code class="id">${T(d.target)}</code>${Array.isArray(d.types) && d.types.length
                    ? html` <span class="muted">types</span> ${T(d.types.join(', '))}` : null}</li>`)}</ul>`
                : html`<span class="muted">none</span>`}</${Setting}>
            <${Setting} name="Events">${events.length ? html`<ul class="plain inline">${events.map(([status, n]) => html`
                <li key=${status}><a href=${href(['events'], { source: s.name, status })}>${T(status)}: ${
                    count(n, s.countLimit ?? 10000)}</a></li>`)}</ul>` : html`<span class="muted">none</span>`}</${Setting}>
            <${Setting} name="Refused"><a href=${href(['refused'], { source: s.name })}
                aria-label=${`Refused deliveries of ${s.name}`}>refused deliveries</a></${Setting}>
        </dl>
    </article>`;
}
