import { html, useState } from './lib.js';
import { api, ApiError, enc } from './api.js';
import { store, useStore } from './store.js';
import { T, count, plain } from './text.js';
import { Dialog, Status, uid } from './components.js';

/** A random UUID for a replay's requestId or Idempotency-Key; randomUUID needs a secure context, this does not. */
export function newRequestId() {
    if (typeof crypto.randomUUID === 'function') {
        try {
            return crypto.randomUUID();
        } catch (e) {
            // plain http on another host: below
        }
    }
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** What a replay filter selects, in words (markers for hidden characters: this is shown as text). */
export function describe(filter) {
    const parts = [`${filter.status || 'dead'} events`];
    if (filter.source) parts.push(`of ${plain(filter.source)}`);
    if (filter.type) parts.push(filter.typePrefix ? `with a type starting “${plain(filter.type)}”` : `of type “${plain(filter.type)}”`);
    if (filter.error) parts.push(`failing with “${plain(filter.error)}”`);
    if (filter.key) parts.push(`with ${plain(filter.key)}`);
    if (filter.match) parts.push(`whose body contains ${plain(typeof filter.match === 'string' ? filter.match : JSON.stringify(filter.match))}`);
    if (filter.header) parts.push(`delivered with the header ${plain(filter.header)}`);
    if (filter.since) parts.push(`received from ${new Date(filter.since).toLocaleString()}`);
    if (filter.until) parts.push(`received before ${new Date(filter.until).toLocaleString()}`);
    return parts.join(' ');
}

// Jobs are followed here, outside any page, so leaving the page does not lose a running replay.
const polling = new Set();

function update(id, patch) {
    store.set({ jobs: store.get().jobs.map((j) => (j.id === id ? { ...j, ...patch } : j)) });
}

function follow(id) {
    if (polling.has(id)) return;
    polling.add(id);
    const tick = async () => {
        const entry = store.get().jobs.find((j) => j.id === id);
        if (!entry || store.get().auth !== 'signed-in') {
            polling.delete(id);
            return;
        }
        try {
            const job = await api(`replays/${enc(id)}`);
            update(id, { job, error: null });
            if (job.status !== 'running') {
                polling.delete(id);
                // The pages that list dead events load again: what the job replayed is no longer dead.
                store.set({ replayed: store.get().replayed + 1 });
                return;
            }
        } catch (e) {
            update(id, { error: e.message });
            if (e instanceof ApiError && (e.status === 401 || e.status === 404)) {
                polling.delete(id);
                return;
            }
        }
        setTimeout(tick, 1000);
    };
    setTimeout(tick, 500);
}

export function percent(entry) {
    const job = entry.job || {};
    if (job.status === 'completed') return 100;
    const done = typeof job.matched === 'number' ? job.matched : 0;
    if (!entry.total) return job.status === 'running' ? 0 : 100;
    return Math.min(job.status === 'running' ? 99 : 100, Math.floor((done / entry.total) * 100));
}

/**
 * "Replay all" for a filter: first asks the server how many events it would queue (POST /api/replays/preview),
 * then, confirmed, starts the job (POST /api/replays) and follows it with a progress bar.
 */
export function ReplayAll({ filter, describedBy }) {
    const [phase, setPhase] = useState('idle');     // idle | previewing | confirm | starting
    const [preview, setPreview] = useState(null);
    const [error, setError] = useState(null);
    const open = async () => {
        setError(null);
        setPhase('previewing');
        try {
            setPreview(await api('replays/preview', { method: 'POST', body: filter }));
            setPhase('confirm');
        } catch (e) {
            setError('Could not count the events to replay: ' + e.message);
            setPhase('idle');
        }
    };
    const start = async () => {
        setPhase('starting');
        try {
            const job = await api('replays', { method: 'POST', body: { ...filter, requestId: newRequestId() } });
            const entry = { id: String(job.id), total: preview.matched, limit: preview.countLimit,
                label: describe(filter), job, error: null };
            store.set({ jobs: [entry, ...store.get().jobs.filter((j) => j.id !== entry.id)] });
            if (job.status === 'running') follow(entry.id);
            setPhase('idle');
        } catch (e) {
            setError('The replay did not start: ' + e.message);
            setPhase('idle');
        }
    };
    const matched = preview ? preview.matched : 0;
    // A body or header condition is counted in a bounded number of the events the other filters select.
    const partial = preview && typeof preview.checked === 'number' && preview.checked < preview.selected;
    return html`<span class="replay-all">
        <button type="button" onClick=${open} disabled=${phase !== 'idle'} aria-describedby=${describedBy || null}>
            Replay all</button>
        ${phase === 'previewing' ? html`<span class="muted" role="status"> counting…</span>` : null}
        ${error ? html`<span class="error" role="alert">${T(error)}</span>` : null}
        <${Dialog} open=${phase === 'confirm' || phase === 'starting'} title="Replay all matching events?"
                   onClose=${() => setPhase((p) => (p === 'starting' ? p : 'idle'))}>
            ${matched > 0
                ? html`<p><strong class="big">${partial ? 'at least ' : ''}${count(matched, preview.countLimit)}</strong>${
                    ` event${matched === 1 ? '' : 's'} will be queued again: `}${T(describe(filter))}.</p>`
                : html`<p>${partial ? 'No event matches yet' : 'No event matches'}: ${T(describe(filter))}.${
                    partial ? '' : ' Nothing to replay.'}</p>`}
            ${partial ? html`<p class="help" role="note">Counted in the newest ${preview.checked.toLocaleString()}
                of the ${count(preview.selected, preview.countLimit)} events the other filters select; the replay
                reads them all.</p>` : null}
            ${matched > 0 ? html`<p class="help">Each is processed again as a new attempt. Events queued or retrying
                already are left as they are. You can cancel the job while it runs.</p>` : null}
            <div class="actions">
                ${matched > 0 || partial ? html`<button type="button" class="primary" onClick=${start}
                    disabled=${phase === 'starting'}>Confirm</button>` : null}
                <button type="button" onClick=${() => setPhase('idle')} disabled=${phase === 'starting'}>Close</button>
            </div>
        </${Dialog}>
    </span>`;
}

/** The bulk replays started from this page, each with a progress bar, "Cancel" while it runs. */
export function ReplayJobs() {
    const { jobs } = useStore();
    if (!jobs.length) return null;
    return html`<section class="jobs" aria-labelledby="jobs-title">
        <h2 id="jobs-title">Bulk replays</h2>
        <ul>${jobs.map((entry) => html`<li key=${entry.id}><${Job} entry=${entry} /></li>`)}</ul>
    </section>`;
}

function Job({ entry }) {
    const [busy, setBusy] = useState(false);
    const [progressId] = useState(() => uid('replay-progress'));
    const job = entry.job || {};
    const running = job.status === 'running';
    const pct = percent(entry);
    const cancel = async () => {
        setBusy(true);
        try {
            const answer = await api(`replays/${enc(entry.id)}/cancel`, { method: 'POST' });
            update(entry.id, { job: { ...job, ...answer }, error: null });
            store.set({ replayed: store.get().replayed + 1 });
        } catch (e) {
            if (e instanceof ApiError && e.status === 409) {
                update(entry.id, { error: 'The job had finished already.' });
                follow(entry.id);
            } else update(entry.id, { error: 'Cancel failed: ' + e.message });
        } finally {
            setBusy(false);
        }
    };
    const dismiss = () => store.set({ jobs: store.get().jobs.filter((j) => j.id !== entry.id) });
    return html`<div class="job">
        <label for=${progressId}>Replay of ${T(entry.label)}</label>
        <div class="job-line">
            <progress id=${progressId} max="100" value=${pct}>${pct} %</progress>
            <span class="pct" aria-hidden="true">${pct} %</span>
            <${Status} value=${job.status || 'running'} />
        </div>
        <p class="help" role="status">${count(job.matched)} of ${count(entry.total, entry.limit)} selected,${' '}
            ${count(job.queued)} queued again${typeof job.matched === 'number' && typeof job.queued === 'number'
                && job.matched > job.queued ? ' (the others were queued or retrying already)' : ''}.
            ${job.error ? html`<span class="error">${T(job.error)}</span>` : null}
            ${entry.error ? html`<span class="error">${T(entry.error)}</span>` : null}</p>
        <div class="actions">
            ${running ? html`<button type="button" onClick=${cancel} disabled=${busy}>Cancel</button>`
                : html`<button type="button" onClick=${dismiss}>Dismiss</button>`}
        </div>
    </div>`;
}
