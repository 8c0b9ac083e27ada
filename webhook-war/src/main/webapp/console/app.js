import { html, render, useEffect, useRef, useState } from './lib.js';
import { api, ApiError, refreshSession, setCsrfToken } from './api.js';
import { activity, store, useStore } from './store.js';
import { go, href, useRoute } from './router.js';
import { T } from './text.js';
import { Overview } from './pages/overview.js';
import { Events } from './pages/events.js';
import { EventPage } from './pages/event.js';
import { Dead } from './pages/dead.js';
import { Refused } from './pages/refused.js';
import { Forwardings } from './pages/forwardings.js';
import { Sources } from './pages/sources.js';

const PAGES = [
    { path: 'overview', title: 'Overview' },
    { path: 'events', title: 'Events' },
    { path: 'dead', title: 'Dead events' },
    { path: 'refused', title: 'Refused' },
    { path: 'forwardings', title: 'Forwardings' },
    { path: 'sources', title: 'Sources' },
];

async function checkSession() {
    try {
        const live = await refreshSession();
        store.set(live ? { auth: 'signed-in' } : { auth: 'signed-out' });
    } catch (e) {
        // Unreachable (the banner says so) or the server refused: the sign-in page tells the rest.
        if (!(e instanceof ApiError && e.status === 0)) store.set({ auth: 'signed-out' });
    }
}

function Banner() {
    const { unreachable, auth } = useStore();
    if (!unreachable) return null;
    const retry = () => {
        store.set({ refresh: store.get().refresh + 1 });
        if (auth === 'unknown') checkSession();
    };
    return html`<div class="banner" role="alert">
        <strong>The Hookstile API cannot be reached.</strong>
        <span> The server may be stopped or restarting, or the network is down. What is shown may be out of date.</span>
        <button type="button" onClick=${retry}>Retry</button>
    </div>`;
}

function SignIn({ message }) {
    const input = useRef(null);
    const [error, setError] = useState(null);
    const [busy, setBusy] = useState(false);
    useEffect(() => {
        document.title = 'Sign in · Hookstile';
        input.current && input.current.focus();
    }, []);
    const submit = async (event) => {
        event.preventDefault();
        const token = input.current.value;
        if (!token.trim()) {
            setError('Enter the admin token.');
            input.current.focus();
            return;
        }
        setBusy(true);
        setError(null);
        try {
            const session = await api('session', { method: 'POST', body: { token } });
            setCsrfToken(session.csrfToken);
            input.current.value = '';
            store.set({ auth: 'signed-in', authMessage: null, sources: null });
        } catch (e) {
            input.current.value = '';
            if (e instanceof ApiError && e.status === 401) {
                setError('That admin token is wrong. Copy it again from <data dir>/admin-token (or HOOKSTILE_ADMIN_TOKEN).');
            } else if (e instanceof ApiError && e.status === 429) {
                setError(`Too many failed sign-ins from this address. Wait ${e.retryAfter || 'a few'} seconds, then try again.`);
            } else if (e instanceof ApiError && e.status === 403) {
                setError('This address may not use the operator API (HOOKSTILE_ADMIN_ALLOWED_ADDRESSES). ' + e.message);
            } else if (e instanceof ApiError && e.status === 0) {
                setError('The Hookstile API cannot be reached. Is the server running?');
            } else {
                setError(e.message || String(e));
            }
            setBusy(false);
            input.current.focus();
        }
    };
    return html`<main id="main" class="signin">
        <h1>Sign in</h1>
        ${message ? html`<p class="state" role="status">${T(message)}</p>` : null}
        <form onSubmit=${submit} novalidate>
            <div class="field">
                <label for="admin-token">Admin token</label>
                <input id="admin-token" ref=${input} type="password" autocomplete="off" spellcheck="false"
                       aria-describedby="admin-token-help" aria-invalid=${error ? 'true' : 'false'} />
            </div>
            <button type="submit" class="primary" disabled=${busy}>Sign in</button>
            ${error ? html`<p class="state error" role="alert">${T(error)}</p>` : null}
        </form>
        <p id="admin-token-help" class="help">The admin token is <code>HOOKSTILE_ADMIN_TOKEN</code>, or when that is
            unset the token generated at the first start in <code>${'<data dir>/admin-token'}</code>${' '}
            (<code>./data/admin-token</code> by default). Signing in gives this browser a session cookie; the token
            itself is not kept.</p>
    </main>`;
}

function SignOut() {
    const [error, setError] = useState(null);
    const signOut = async () => {
        try {
            await api('session', { method: 'DELETE' });
        } catch (e) {
            if (!(e instanceof ApiError && e.status === 401)) {
                setError('Signing out failed: ' + e.message);
                return;
            }
        }
        setCsrfToken(null);
        store.set({ auth: 'signed-out', authMessage: 'You are signed out.', sources: null });
    };
    return html`<span class="signout">
        <button type="button" onClick=${signOut}>Sign out</button>
        ${error ? html`<span class="error" role="alert">${T(error)}</span>` : null}
    </span>`;
}

function FindEvent() {
    const [value, setValue] = useState('');
    const submit = (event) => {
        event.preventDefault();
        const id = value.trim();
        go(href(['events'], { eventId: id }));
    };
    return html`<form class="find" role="search" onSubmit=${submit}>
        <label for="find-event">Find event by id</label>
        <input id="find-event" type="search" value=${value} onInput=${(e) => setValue(e.target.value)}
               placeholder="Event id (press /)" spellcheck="false" autocomplete="off" aria-keyshortcuts="/" />
        <button type="submit">Find</button>
    </form>`;
}

function Page({ route }) {
    const [first, ...rest] = route.segments;
    if (first === 'overview') return html`<${Overview} params=${route.params} />`;
    if (first === 'events' && rest.length >= 2) {
        return html`<${EventPage} source=${rest[0]} eventId=${rest.slice(1).join('/')} />`;
    }
    if (first === 'events') return html`<${Events} params=${route.params} />`;
    if (first === 'dead') return html`<${Dead} params=${route.params} />`;
    if (first === 'refused') return html`<${Refused} params=${route.params} />`;
    if (first === 'forwardings') return html`<${Forwardings} params=${route.params} />`;
    if (first === 'sources') return html`<${Sources} />`;
    return html`<section><h1>Not found</h1><p>No console page is called “${T(first)}”.
        <a href="#/overview">Go to the overview</a>.</p></section>`;
}

function Shell({ route }) {
    const current = route.segments[0];
    const main = useRef(null);
    const section = current + (current === 'events' && route.segments.length > 1 ? '/one' : '');
    const previous = useRef(null);
    useEffect(() => {
        const page = PAGES.find((p) => p.path === current);
        document.title = (section === 'events/one' ? 'Event' : page ? page.title : 'Hookstile') + ' · Hookstile';
        // A new page (not a new filter on the same one): focus its heading, as a screen reader user expects.
        if (previous.current !== null && previous.current !== section && main.current) {
            const heading = main.current.querySelector('h1');
            if (heading) {
                heading.setAttribute('tabindex', '-1');
                heading.focus();
            }
        }
        previous.current = section;
    }, [section]);
    return html`
        <a class="skip" href="#main" onClick=${(e) => { e.preventDefault(); main.current && main.current.focus(); }}>Skip to content</a>
        <header class="top">
            <a class="brand" href="#/overview">Hookstile</a>
            <nav aria-label="Console pages"><ul>
                ${PAGES.map((p) => html`<li key=${p.path}><a href=${'#/' + p.path}
                    aria-current=${current === p.path ? 'page' : null}>${p.title}</a></li>`)}
            </ul></nav>
            <${FindEvent} />
            <${SignOut} />
        </header>
        <main id="main" ref=${main} tabindex="-1"><${Page} route=${route} /></main>`;
}

function isTyping(target) {
    if (!target || !(target instanceof Element)) return false;
    return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

function App() {
    const state = useStore();
    const route = useRoute();
    useEffect(() => {
        checkSession();
        // "/" jumps to the event search from anywhere but a text field.
        const key = (event) => {
            if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
            const find = document.getElementById('find-event');
            if (find) {
                event.preventDefault();
                find.focus();
                find.select();
            }
        };
        document.addEventListener('keydown', key);
        const seen = () => activity.seen();
        const kinds = ['keydown', 'pointerdown', 'pointermove', 'wheel', 'focusin'];
        kinds.forEach((kind) => document.addEventListener(kind, seen, { passive: true }));
        return () => {
            document.removeEventListener('keydown', key);
            kinds.forEach((kind) => document.removeEventListener(kind, seen));
        };
    }, []);
    let body;
    if (state.auth === 'unknown') {
        body = html`<main id="main" class="boot"><h1>Hookstile console</h1>
            <p class="state loading" role="status">Checking your session…</p></main>`;
    } else if (state.auth === 'signed-out') {
        body = html`<${SignIn} message=${state.authMessage} />`;
    } else {
        body = html`<${Shell} route=${route} />`;
    }
    return html`<${Banner} />${body}`;
}

const root = document.getElementById('app');
root.textContent = '';
render(html`<${App} />`, root);
