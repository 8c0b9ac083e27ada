import { html, useEffect, useState } from '../lib.js';
import { api } from '../api.js';
import { LIVE_IDLE_LIMIT_MS, activity, useStore } from '../store.js';
import { go, href } from '../router.js';
import { T, Time, age, count, plain } from '../text.js';
import { ErrorNote, Loading, Status, useSourceNames } from '../components.js';
import { RateChart } from '../chart.js';
import { NoSource } from './sources.js';

const REFRESH_MS = 5000;

export function Overview({ params }) {
    const source = params.get('source') || '';
    const { refresh } = useStore();
    const [state, setState] = useState({ data: null, error: null, at: null });
    const [paused, setPaused] = useState(false);
    useEffect(() => {
        let live = true;
        let timer = null;
        let first = true;
        const load = async () => {
            // No polling while the tab is hidden (nobody looks, the server is spared), nor after ten minutes without
            // the operator's touch: the session may then expire as it should; a key or the mouse resumes.
            const idle = !first && activity.idleMs() > LIVE_IDLE_LIMIT_MS;
            setPaused(idle);
            if (document.hidden || idle) {
                timer = setTimeout(load, 1000);
                return;
            }
            first = false;
            try {
                const [data, destinations] = await Promise.all([api('overview', { query: { source } }),
                    api('destinations')]);
                if (live) setState({ data: { ...data, destinations }, error: null, at: Date.now() });
            } catch (error) {
                if (live) setState((s) => ({ ...s, error }));
            }
            if (live) timer = setTimeout(load, REFRESH_MS);
        };
        setState({ data: null, error: null, at: null });
        load();
        return () => {
            live = false;
            clearTimeout(timer);
        };
    }, [source, refresh]);
    const data = state.data;
    return html`<section>
        <h1>Overview</h1>
        ${!data && !state.error ? html`<${Loading} what="the overview" />` : null}
        ${state.error ? html`<${ErrorNote} error=${state.error}
            what=${data ? 'The latest overview (showing the previous one)' : 'The overview'} />` : null}
        ${paused ? html`<p class="state" role="status">Live updates paused after 10 minutes without activity, so that an
            unattended console’s session can expire. Press a key or move the mouse to resume.</p>` : null}
        ${data ? html`
            <${Health} data=${data} />
            <${PausedDestinations} listing=${data.destinations} />
            <${Chart} data=${data} source=${source} />
            <${SourceTable} data=${data} />
            <p class="help">Updated <${Time} at=${data.generatedAt} />.</p>` : null}
    </section>`;
}

function Health({ data }) {
    const health = data.health || {};
    const depth = data.queue && typeof data.queue.depth === 'number' ? data.queue.depth : null;
    return html`<section aria-labelledby="health-title">
        <h2 id="health-title">Health</h2>
        <ul class="health">
            ${[['database', 'Database'], ['broker', 'Broker'], ['consumers', 'Consumers']].map(([key, label]) => html`
                <li key=${key}><span class="label">${label}</span> <${Status} value=${health[key] || 'unknown'} /></li>`)}
            <li><span class="label">Queue depth</span> ${depth === null ? html`<span class="muted">unknown</span>`
                : depth.toLocaleString()}</li>
        </ul>
    </section>`;
}

function Chart({ data, source }) {
    const names = useSourceNames();
    return html`<section aria-labelledby="chart-title">
        <h2 id="chart-title">Events per second</h2>
        <div class="field inline">
            <label for="chart-source">Chart source</label>
            <select id="chart-source" value=${source}
                    onChange=${(e) => go(href(['overview'], { source: e.target.value }))}>
                <option value="">All sources</option>
                ${names.map((n) => html`<option key=${n} value=${n}>${T(n)}</option>`)}
            </select>
        </div>
        ${data.series ? html`<${RateChart} series=${data.series} />` : html`<p class="muted">No series in the answer.</p>`}
    </section>`;
}

function Outcomes({ counts, limit, source }) {
    const c = counts || {};
    return html`<span class="outcomes"><span title="accepted">${count(c.accepted, limit)}</span>${' / '}<span
        title="duplicate">${count(c.duplicate, limit)}</span>${' / '}<a title="rejected"
        href=${href(['refused'], source ? { source } : {})}
        aria-label=${`Refused deliveries${source ? ' of ' + plain(source) : ''}`}>${count(c.rejected, limit)}</a></span>`;
}

/** Destinations an operator paused, with what each holds (its pending forwardings): shown only while there are any. */
function PausedDestinations({ listing }) {
    const destinations = listing && Array.isArray(listing.destinations) ? listing.destinations : [];
    const paused = destinations.filter((d) => d.paused);
    if (!paused.length) return null;
    return html`<section aria-labelledby="paused-title">
        <h2 id="paused-title">Paused destinations</h2>
        <ul class="paused">${paused.map((d) => html`<li key=${d.source}>
            <a href=${href(['forwardings'], { source: d.source })}
               aria-label=${`Forwardings of ${plain(d.source)}`}>${T(d.source)}</a>
            ${' to '}<span class="id">${T(d.target)}</span>: <${Status} value="paused" /> since <${Time} at=${d.pausedAt} />,
            ${' '}${count(d.pending, listing.countLimit)} held</li>`)}</ul>
    </section>`;
}

function SourceTable({ data }) {
    const sources = Array.isArray(data.sources) ? data.sources : [];
    if (!sources.length) return html`<section aria-labelledby="sources-title"><h2 id="sources-title">Sources</h2>
        <${NoSource} /></section>`;
    return html`<section aria-labelledby="sources-title">
        <h2 id="sources-title">Sources</h2>
        <div class="table-wrap"><table class="list overview">
            <caption class="visually-hidden">Per source: events by outcome (accepted / duplicate / rejected), waiting, dead</caption>
            <thead><tr>
                <th scope="col">Source</th><th scope="col">Provider</th>
                <th scope="col" class="num">Last hour<br /><span class="muted">acc. / dup. / rej.</span></th>
                <th scope="col" class="num">Last day<br /><span class="muted">acc. / dup. / rej.</span></th>
                <th scope="col" class="num">Waiting<br /><span class="muted">queued / retrying</span></th>
                <th scope="col" class="num">Dead</th>
                <th scope="col">Oldest waiting</th><th scope="col">Last event</th>
            </tr></thead>
            <tbody>${sources.map((s) => {
                const limit = s.countLimit;
                const waiting = s.waiting || {};
                const oldest = age(s.oldestWaitingAt);
                return html`<tr key=${s.name}>
                    <th scope="row" class="id"><a href=${href(['events'], { source: s.name })}>${T(s.name)}</a></th>
                    <td>${T(s.provider)}</td>
                    <td class="num"><${Outcomes} counts=${s.lastHour} limit=${limit} source=${s.name} /></td>
                    <td class="num"><${Outcomes} counts=${s.lastDay} limit=${limit} source=${s.name} /></td>
                    <td class="num">
                        <a href=${href(['events'], { source: s.name, status: 'received' })}
                           aria-label=${`Queued events of ${plain(s.name)}`}>${count(waiting.queued, limit)}</a>${' / '}
                        <a href=${href(['events'], { source: s.name, status: 'retrying' })}
                           aria-label=${`Retrying events of ${plain(s.name)}`}>${count(waiting.retrying, limit)}</a></td>
                    <td class="num"><a class=${s.dead ? 'dead-count' : null} href=${href(['dead'], { source: s.name })}
                           aria-label=${`Dead events of ${plain(s.name)}`}>${count(s.dead, limit)}</a></td>
                    <td>${oldest ? html`<span title=${plain(s.oldestWaitingAt)}>${oldest}</span>` : html`<span class="muted">none waiting</span>`}</td>
                    <td>${s.lastEventAt ? html`<${Time} at=${s.lastEventAt} relative=${true} />` : html`<span class="muted">never</span>`}</td>
                </tr>`;
            })}</tbody>
        </table></div>
    </section>`;
}
