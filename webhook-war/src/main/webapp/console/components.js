import { html, useEffect, useRef, useState, useCallback } from './lib.js';
import { api, ApiError } from './api.js';
import { store, useStore } from './store.js';
import { href } from './router.js';
import { T, Time, instantToLocalInput, localInputToInstant } from './text.js';

let ids = 0;
export const uid = (prefix) => `${prefix}-${++ids}`;

/** Loads once per change of `deps` (and on the banner's Retry); aborts a superseded load. */
export function useLoad(loader, deps) {
    const { refresh } = useStore();
    const [state, setState] = useState({ loading: true, data: null, error: null });
    useEffect(() => {
        const controller = new AbortController();
        let live = true;
        setState((s) => ({ ...s, loading: true, error: null }));
        loader(controller.signal).then(
            (data) => live && setState({ loading: false, data, error: null }),
            (error) => live && !(error && error.name === 'AbortError')
                && setState({ loading: false, data: null, error }));
        return () => {
            live = false;
            controller.abort();
        };
    }, [...deps, refresh]);
    return [state, setState];
}

/**
 * A keyset-paginated list (`next` cursors), newest first: the first page for these filters, then "Load more"
 * appends the following page. Cursors keep pages stable while new events arrive.
 */
export function usePages(path, itemsKey, query, keep = () => true, version = 0) {
    const key = JSON.stringify(query);
    const [state, setState] = useLoad(async (signal) => {
        const page = await api(path, { query, signal });
        return { items: (page[itemsKey] || []).filter(keep), next: page.next || null, scan: page.scan || null };
    }, [path, key, version]);
    const [more, setMore] = useState({ loading: false, error: null });
    const loadMore = useCallback(async () => {
        if (!state.data || !state.data.next) return;
        setMore({ loading: true, error: null });
        try {
            const page = await api(path, { query: { ...query, after: state.data.next } });
            setState((s) => ({
                ...s, data: { items: [...s.data.items, ...(page[itemsKey] || []).filter(keep)], next: page.next || null,
                    scan: page.scan || null },
            }));
            setMore({ loading: false, error: null });
        } catch (error) {
            setMore({ loading: false, error });
        }
    }, [state.data, key]);
    return { ...state, more, loadMore };
}

/**
 * The configured sources' names for the filter forms: asked once a session, and after a failure only again when
 * the operator asks (the banner's Retry), never in a loop.
 */
export function useSourceNames() {
    const { sources } = useSourceDescriptions();
    return sources || [];
}

/** The description GET /api/sources gives of one source (its provider's signing scheme...), or null. */
export function useSourceDescription(name) {
    const { sourceDescriptions } = useSourceDescriptions();
    return (sourceDescriptions || []).find((s) => s && s.name === name) || null;
}

function useSourceDescriptions() {
    const state = useStore();
    const { auth, refresh } = state;
    useEffect(() => {
        const now = store.get();
        if (auth !== 'signed-in') return;
        if (now.sources !== null && !(now.sourcesFailed && now.sourcesTried !== refresh)) return;
        store.set({ sources: now.sources || [], sourcesFailed: false, sourcesTried: refresh });
        api('sources').then(
            (answer) => store.set({
                sources: (answer.sources || []).map((s) => String(s.name)),
                sourceDescriptions: answer.sources || [],
            }),
            () => store.set({ sourcesFailed: true }));
    }, [auth, refresh]);
    return state;
}

/**
 * The statuses the server knows (GET /api/statuses), asked once a session: each with what it allows (an event's
 * `finished` and `replayable`, a forwarding's `replayable`). The filters' options and the bulk replay offer come from
 * it; until it answers they are empty. A failed ask is asked again on the banner's Retry.
 */
export function useStatuses() {
    const { statuses, auth, refresh } = useStore();
    useEffect(() => {
        const now = store.get();
        if (auth !== 'signed-in' || now.statuses !== null || now.statusesAsked === refresh) return;
        store.set({ statusesAsked: refresh });
        api('statuses').then((answer) => store.set({ statuses: answer }), () => {});
    }, [auth, refresh]);
    return {
        events: statuses && Array.isArray(statuses.events) ? statuses.events : [],
        forwardings: statuses && Array.isArray(statuses.forwardings) ? statuses.forwardings : [],
    };
}

export function Loading({ what }) {
    return html`<p class="state loading" role="status" aria-live="polite">Loading ${what}…</p>`;
}

export function Empty({ children }) {
    return html`<p class="state empty">${children}</p>`;
}

export function ErrorNote({ error, what }) {
    if (!error) return null;
    let text;
    if (error instanceof ApiError && error.status === 0) text = `${what} could not be loaded: the API cannot be reached.`;
    else if (error instanceof ApiError && error.status === 404 && (!error.problem || error.slug === 'not-found')) {
        text = `${what} could not be loaded: this server does not offer this part of the operator API.`;
    } else text = error.message || String(error);
    return html`<p class="state error" role="alert"><strong>Error:</strong> ${T(text)}</p>`;
}

const STATUS_HELP = {
    received: 'waiting in the queue to be processed',
    completed: 'processed: its handlers finished',
    ignored: 'recorded, no handler selected it (or a repeated body)',
    retrying: 'failed, to be tried again',
    dead: 'failed for good: replay it once the cause is fixed',
    pending: 'waiting to be sent',
    delivered: 'the destination answered 2xx',
    filtered: 'not sent: the destination’s filter does not take its body',
    paused: 'its forwardings are held until an operator resumes it',
    sending: 'its forwardings are sent as they come',
    closed: 'requests flow',
    open: 'requests stopped after repeated failures',
    'half-open': 'one trial request lets the next decide',
    cancelled: 'stopped by an operator',
    running: 'under way',
    failed: 'stopped by an error',
    interrupted: 'stopped by a restart',
    UP: 'healthy',
    DOWN: 'not healthy',
};

/** A status as a word with a colour: never colour alone. */
export function Status({ value }) {
    const text = typeof value === 'string' ? value : String(value ?? '–');
    const cls = /^[a-zA-Z-]+$/.test(text) ? `status status-${text.toLowerCase()}` : 'status';
    return html`<span class=${cls} title=${Object.hasOwn(STATUS_HELP, text) ? STATUS_HELP[text] : null}>${T(text)}</span>`;
}

/**
 * A modal <dialog>: Escape or "Close" dismisses it; focus goes into it and back afterwards (the browser's own
 * behaviour for showModal()).
 */
export function Dialog({ open, title, onClose, children }) {
    const ref = useRef(null);
    const closeRef = useRef(onClose);
    closeRef.current = onClose;
    const [titleId] = useState(() => uid('dialog-title'));
    useEffect(() => {
        const dialog = ref.current;
        if (!dialog) return;
        if (open && !dialog.open) dialog.showModal();
        if (!open && dialog.open) dialog.close();
    }, [open]);
    useEffect(() => {
        const dialog = ref.current;
        const closed = () => closeRef.current && closeRef.current();
        dialog.addEventListener('close', closed);
        return () => dialog.removeEventListener('close', closed);
    }, []);
    return html`<dialog ref=${ref} aria-labelledby=${titleId}>
        <h2 id=${titleId}>${title}</h2>
        ${open ? children : null}
    </dialog>`;
}

export function eventHref(source, eventId) {
    return href(['events', source, eventId]);
}

export function EventsTable({ events, caption }) {
    return html`<div class="table-wrap"><table class="list">
        <caption class="visually-hidden">${caption}</caption>
        <thead><tr>
            <th scope="col">Event id</th><th scope="col">Source</th><th scope="col">Type</th>
            <th scope="col">Status</th><th scope="col" class="num">Attempts</th><th scope="col">Received</th>
            <th scope="col">Last error</th>
        </tr></thead>
        <tbody>${events.map((e) => html`<tr key=${e.source + '\u0000' + e.eventId}>
            <td class="id"><a href=${eventHref(e.source, e.eventId)}>${T(e.eventId)}</a></td>
            <td>${T(e.source)}</td>
            <td>${T(e.type)}</td>
            <td><${Status} value=${e.status} /></td>
            <td class="num">${T(e.attempts)}</td>
            <td><${Time} at=${e.receivedAt} /></td>
            <td class="message">${T(e.lastError)}</td>
        </tr>`)}</tbody>
    </table></div>`;
}

export function MoreButton({ pages, label = 'Load more' }) {
    if (!pages.data || !pages.data.next) return null;
    return html`<div class="more">
        <button type="button" onClick=${pages.loadMore} disabled=${pages.more.loading}>
            ${pages.more.loading ? 'Loading…' : label}</button>
        <${ErrorNote} error=${pages.more.error} what="The next page" />
    </div>`;
}

// Filter fields: each labelled, each keeps its text until "Apply" puts the filters in the URL.

export function SourceField({ value, onChange, id }) {
    const names = useSourceNames();
    const options = value && !names.includes(value) ? [value, ...names] : names;
    return html`<div class="field">
        <label for=${id}>Source</label>
        <select id=${id} value=${value} onChange=${(e) => onChange(e.target.value)}>
            <option value="">Any source</option>
            ${options.map((name) => html`<option key=${name} value=${name}>${T(name)}</option>`)}
        </select>
    </div>`;
}

export function TextField({ id, label, value, onChange, placeholder, type = 'text' }) {
    return html`<div class="field">
        <label for=${id}>${label}</label>
        <input id=${id} type=${type} value=${value} placeholder=${placeholder || null} spellcheck="false"
               autocomplete="off" onInput=${(e) => onChange(e.target.value)} />
    </div>`;
}

export function TimeField({ id, label, value, onChange }) {
    return html`<div class="field">
        <label for=${id}>${label}</label>
        <input id=${id} type="datetime-local" value=${instantToLocalInput(value)}
               onInput=${(e) => onChange(localInputToInstant(e.target.value))} />
    </div>`;
}

export function SelectField({ id, label, value, onChange, options, any }) {
    return html`<div class="field">
        <label for=${id}>${label}</label>
        <select id=${id} value=${value} onChange=${(e) => onChange(e.target.value)}>
            <option value="">${any}</option>
            ${options.map((o) => html`<option key=${o} value=${o}>${o}</option>`)}
        </select>
    </div>`;
}

/** The filters of a page, as the URL holds them, and a setter for one field of the form's draft. */
export function useDraft(params, names) {
    const initial = {};
    for (const name of names) initial[name] = params.get(name) || '';
    const [draft, setDraft] = useState(initial);
    const key = names.map((n) => params.get(n) || '').join('\u0000');
    useEffect(() => setDraft(initial), [key]);
    const field = (name) => (value) => setDraft((d) => ({ ...d, [name]: value }));
    return [draft, field, setDraft];
}
