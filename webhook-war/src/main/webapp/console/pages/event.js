import { html, useEffect, useMemo, useRef, useState } from '../lib.js';
import { api, ApiError, enc } from '../api.js';
import { href } from '../router.js';
import {
    T, Time, base64Bytes, bytesText, durationText, fileName, hexDump, isJson, plain, reindent,
} from '../text.js';
import { Dialog, Empty, ErrorNote, Loading, Status, useLoad, useSourceDescription } from '../components.js';
import { ForwardingsTable } from './forwardings.js';
import { newRequestId } from '../replay.js';

export function EventPage({ source, eventId }) {
    const [version, setVersion] = useState(0);
    const [state, setState] = useLoad((signal) => api(`events/${enc(source)}/${enc(eventId)}`, { signal }),
        [source, eventId, version]);
    const [watching, setWatching] = useState(false);
    const event = state.data;
    // After a replay, follow the event until it is finished again (at most two minutes).
    useEffect(() => {
        if (!watching) return undefined;
        const started = Date.now();
        const timer = setInterval(async () => {
            try {
                const fresh = await api(`events/${enc(source)}/${enc(eventId)}`);
                setState({ loading: false, data: fresh, error: null });
                if (fresh.finished || Date.now() - started > 120000) setWatching(false);
            } catch (e) {
                setWatching(false);
            }
        }, 1500);
        return () => clearInterval(timer);
    }, [watching, source, eventId]);

    let body;
    if (state.loading && !event) body = html`<${Loading} what="the event" />`;
    else if (state.error && state.error instanceof ApiError && state.error.status === 404) {
        body = html`<p class="state error" role="alert">No event <span class="id">${T(eventId)}</span> is recorded
            for source <span class="id">${T(source)}</span>. Retention may have deleted it.</p>`;
    } else if (state.error) body = html`<${ErrorNote} error=${state.error} what="The event" />`;
    else {
        body = html`
            <${Header} event=${event} watching=${watching}
                       onReplayed=${() => { setWatching(true); setVersion((v) => v + 1); }} />
            <${Facts} event=${event} />
            <${Payload} event=${event} />
            <${Attempts} history=${event.history || []} />
            <${EventForwardings} event=${event} />`;
    }
    return html`<section class="event">
        <h1>Event</h1>
        <p class="crumbs"><a href=${href(['events'], { source })}>Events of ${T(source)}</a></p>
        ${body}
    </section>`;
}

function Header({ event, watching, onReplayed }) {
    const [confirming, setConfirming] = useState(false);
    const [busy, setBusy] = useState(false);
    const [result, setResult] = useState(null);
    const key = useRef(null);
    const replay = async () => {
        setBusy(true);
        // One key per intended replay: a retried request is answered as the first and replays nothing twice.
        key.current = key.current || newRequestId();
        try {
            await api(`events/${enc(event.source)}/${enc(event.eventId)}/replay`, {
                method: 'POST', headers: { 'Idempotency-Key': key.current },
            });
            setResult({ ok: true, text: 'Queued again: it will be processed as a new attempt.' });
            key.current = null;
            setConfirming(false);
            onReplayed();
        } catch (e) {
            setResult({ ok: false, text: 'Replay failed: ' + e.message });
            if (!(e instanceof ApiError && e.status === 0)) key.current = null;
            setConfirming(false);
        } finally {
            setBusy(false);
        }
    };
    // The server says what may be done: a replay would queue it now, or it is finished yet not an event (the record
    // of a message that could not be read), or it is still on its way.
    const replayable = event.replayable === true;
    return html`<div class="event-head">
        <p class="event-id"><span class="label">Event id</span> <span class="id">${T(event.eventId)}</span></p>
        <p><span class="label">Status</span> <${Status} value=${event.status} />
            ${watching ? html` <span class="muted" role="status">following the replay…</span>` : null}</p>
        <div class="actions">
            <button type="button" class="primary" onClick=${() => { setResult(null); setConfirming(true); }}
                    disabled=${!replayable || busy} aria-describedby="replay-help">Replay</button>
            <span id="replay-help" class="help">${replayable
                ? 'Processes the event again, as a new attempt, through the queue.'
                : event.finished ? 'A message that could not be read as events: nothing to replay.'
                    : 'Queued or being retried already: replay it once it is completed or dead.'}</span>
        </div>
        ${result ? html`<p class=${result.ok ? 'state ok' : 'state error'} role=${result.ok ? 'status' : 'alert'}>
            ${T(result.text)}</p>` : null}
        <${Dialog} open=${confirming} title="Replay this event?" onClose=${() => setConfirming(false)}>
            <p>Event <span class="id">${T(event.eventId)}</span> of source <span class="id">${T(event.source)}</span>${' '}
                (<${Status} value=${event.status} />) is queued again and its handlers run again, as a new
                attempt. Its forwardings are scheduled again only if processing schedules them.</p>
            <div class="actions">
                <button type="button" class="primary" onClick=${replay} disabled=${busy}>Confirm</button>
                <button type="button" onClick=${() => setConfirming(false)}>Close</button>
            </div>
        </${Dialog}>
    </div>`;
}

// The value the server puts in place of a header it withholds: it alone decides which (a signature, anything
// secret-looking); the page only counts them.
const WITHHELD = '[redacted]';

function headersOf(event) {
    const shown = [];
    let hidden = 0;
    const headers = event.headers && typeof event.headers === 'object' ? event.headers : {};
    for (const [name, value] of Object.entries(headers)) {
        if (value === WITHHELD) hidden++;
        else shown.push([name, typeof value === 'string' ? value : JSON.stringify(value)]);
    }
    return { shown, hidden };
}

function Facts({ event }) {
    const size = useMemo(() => base64Bytes(event.payloadBase64).length, [event.payloadBase64]);
    const { shown, hidden } = headersOf(event);
    const provider = typeof event.provider === 'string' ? event.provider : '';
    // The scheme as the source's description states it (GET /api/sources): the provider's code owns the words.
    const described = useSourceDescription(event.source);
    const scheme = described && typeof described.signingScheme === 'string' ? described.signingScheme : null;
    return html`<section aria-labelledby="facts-title">
        <h2 id="facts-title">Delivery</h2>
        <dl class="facts">
            <dt>Source</dt><dd class="id">${T(event.source)}</dd>
            <dt>Provider</dt><dd>${T(provider)}</dd>
            <dt>Type</dt><dd class="id">${event.type ? T(event.type) : html`<span class="muted">none</span>`}</dd>
            <dt>Received at</dt><dd><${Time} at=${event.receivedAt} /></dd>
            <dt>Processed at</dt><dd><${Time} at=${event.processedAt} /></dd>
            <dt>Updated at</dt><dd><${Time} at=${event.updatedAt} /></dd>
            <dt>Attempts</dt><dd>${T(event.attempts)}</dd>
            <dt>Body size</dt><dd>${bytesText(size)}</dd>
            <dt>Signature scheme</dt><dd>${scheme ? T(scheme) : 'as the provider signs'}; verified on arrival.
                The signature itself is never shown.</dd>
            ${event.lastError ? html`<dt>Last error</dt><dd class="message">${T(event.lastError)}</dd>` : null}
        </dl>
        <h3>Retained headers</h3>
        ${shown.length ? html`<table class="list headers"><caption class="visually-hidden">Retained headers</caption>
            <thead><tr><th scope="col">Header</th><th scope="col">Value</th></tr></thead>
            <tbody>${shown.map(([name, value]) => html`<tr key=${name}>
                <td class="id">${T(name)}</td><td class="message">${T(value)}</td></tr>`)}</tbody></table>`
            : html`<p class="muted">No header to show.</p>`}
        ${hidden ? html`<p class="help">${hidden} header${hidden === 1 ? '' : 's'} not shown: signatures and
            anything secret-looking are never displayed.</p>` : null}
    </section>`;
}

function Payload({ event }) {
    const text = typeof event.payload === 'string' ? event.payload : null;
    const json = useMemo(() => isJson(text), [text]);
    const [view, setView] = useState('pretty');
    const [note, setNote] = useState(null);
    const bytes = useMemo(() => base64Bytes(event.payloadBase64), [event.payloadBase64]);
    const shown = useMemo(() => {
        if (text === null) return hexDump(bytes);
        return json && view === 'pretty' ? reindent(text) : text;
    }, [text, json, view, bytes]);
    const pre = useRef(null);

    const copy = async () => {
        const value = text !== null ? text : event.payloadBase64 || '';
        try {
            await navigator.clipboard.writeText(value);
            setNote(text !== null ? 'Payload copied, exactly as received.' : 'Payload copied as base64.');
        } catch (e) {
            // No clipboard API (plain http on another host): select the text for Ctrl+C.
            const range = document.createRange();
            range.selectNodeContents(pre.current);
            const selection = window.getSelection();
            selection.removeAllRanges();
            selection.addRange(range);
            setNote('The clipboard is not available here: the payload is selected, press Ctrl+C.');
        }
    };
    const download = () => {
        const type = json ? 'application/json' : text !== null ? 'text/plain' : 'application/octet-stream';
        const url = URL.createObjectURL(new Blob([bytes], { type }));
        const link = document.createElement('a');
        link.href = url;
        link.download = fileName(event.source, event.eventId) + (json ? '.json' : text !== null ? '.txt' : '.bin');
        document.body.appendChild(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10000);
        setNote('Download started: the bytes exactly as received.');
    };

    return html`<section aria-labelledby="payload-title">
        <h2 id="payload-title">Payload</h2>
        <div class="toolbar" role="group" aria-label="Payload actions">
            ${json ? html`
                <button type="button" aria-pressed=${view === 'pretty' ? 'true' : 'false'}
                        onClick=${() => setView('pretty')}>Pretty</button>
                <button type="button" aria-pressed=${view === 'raw' ? 'true' : 'false'}
                        onClick=${() => setView('raw')}>Raw</button>` : null}
            <button type="button" onClick=${copy}>Copy</button>
            <button type="button" onClick=${download}>Download</button>
            ${note ? html`<span class="help" role="status">${note}</span>` : null}
        </div>
        <p class="help">${text === null
            ? `Not UTF-8 text: shown as hex${bytes.length > 16384 ? ' (the first 16 KiB; Download has it all)' : ''}.`
            : json && view === 'pretty' ? 'JSON, re-indented only: every key, value and escape as received.'
                : 'Exactly as received.'}${' '}
            Invisible and direction-changing characters are shown as ⟨U+…⟩.</p>
        <pre class="payload" ref=${pre} tabindex="0" aria-label="Payload">${T(shown, true)}</pre>
    </section>`;
}

function Attempts({ history }) {
    return html`<section aria-labelledby="attempts-title">
        <h2 id="attempts-title">Attempts</h2>
        ${history.length ? html`<ol class="timeline">${history.map((a, i) => html`<li key=${i}>
            <span class="when"><${Time} at=${a.at} /></span>
            <span class="what">Try ${T(a.attempt)}: <${Status} value=${a.outcome} />
                ${a.failure ? html` <span class="failure">${T(a.failure)} failure</span>` : null}
                ${Number.isFinite(a.durationMillis)
                    ? html` <span class="duration" title="from the try's start to its outcome">${
                        'took ' + durationText(a.durationMillis)}</span>` : null}</span>
            ${a.error ? html`<span class="message">${T(a.error)}</span>` : null}
        </li>`)}</ol>` : html`<${Empty}>No attempt yet: the event is waiting in the queue.</${Empty}>`}
    </section>`;
}

function EventForwardings({ event }) {
    // Exactly this event's forwardings and its handlers' effects, by the outbox's key (source, event id): one page
    // holds them all (one per destination and effect).
    const [state] = useLoad(async (signal) => {
        const page = await api('forwardings', {
            query: { source: event.source, eventId: event.eventId, limit: 500 }, signal,
        });
        return page.forwardings || [];
    }, [event.source, event.eventId]);
    return html`<section aria-labelledby="forwardings-title">
        <h2 id="forwardings-title">Forwardings</h2>
        ${state.loading ? html`<${Loading} what="the forwardings" />`
            : state.error ? html`<${ErrorNote} error=${state.error} what="The forwardings" />`
                : state.data.length ? html`<${ForwardingsTable} forwardings=${state.data} showEvent=${false} />`
                    : html`<${Empty}>No forwarding of this event: its source forwards nothing, or not this type.</${Empty}>`}
    </section>`;
}
