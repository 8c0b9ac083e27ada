import { store } from './store.js';

// Calls to the operator API, relative to the console (/console/ -> /api/): the same origin, so the session cookie
// goes along and nothing else is needed.
const base = new URL('../api/', document.baseURI);

// The anti-forgery token of this page's session: memory only, sent as X-CSRF-Token on every state-changing call.
let csrfToken = null;

export function setCsrfToken(token) {
    csrfToken = typeof token === 'string' ? token : null;
}

export class ApiError extends Error {
    constructor(status, problem, retryAfter) {
        const detail = problem && (problem.detail || problem.title);
        super(typeof detail === 'string' && detail ? detail
            : status === 0 ? 'The Hookstile API cannot be reached.' : `The API answered ${status}.`);
        this.status = status;
        this.problem = problem || null;
        this.retryAfter = retryAfter;
    }

    /** The problem's slug (urn:hookstile:problem:<slug>), or ''. */
    get slug() {
        const type = this.problem && this.problem.type;
        return typeof type === 'string' ? type.replace(/^.*:/, '') : '';
    }
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

// When a call last failed at the network level (performance.now()), for the banner.
let lastFailure = -1;

/**
 * One API call. `path` is relative to /api/ (e.g. 'events' or `events/${enc(source)}/${enc(id)}`); empty query
 * values are left out. Resolves with the JSON answer ({} when there is none), rejects with an ApiError.
 * A 401 anywhere but on the session itself means the session ended: back to the sign-in page.
 */
export async function api(path, { method = 'GET', query, body, headers: extra, signal, retried = false } = {}) {
    const url = new URL(path, base);
    for (const [key, value] of Object.entries(query || {})) {
        if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value));
    }
    const headers = { ...(extra || {}), Accept: 'application/json, application/problem+json' };
    if (!SAFE.has(method) && csrfToken) headers['X-CSRF-Token'] = csrfToken;
    let payload;
    if (body !== undefined) {
        headers['Content-Type'] = 'application/json';
        payload = JSON.stringify(body);
    }
    const started = performance.now();
    let response;
    try {
        response = await fetch(url, {
            method, headers, body: payload, signal, credentials: 'same-origin', cache: 'no-store',
            redirect: 'error', referrerPolicy: 'no-referrer',
        });
    } catch (e) {
        if (e && e.name === 'AbortError') throw e;
        lastFailure = performance.now();
        store.set({ unreachable: true });
        throw new ApiError(0, null);
    }
    const type = response.headers.get('Content-Type') || '';
    let data = null;
    if (type.includes('json')) {
        try {
            data = await response.json();
        } catch (e) {
            data = null;
        }
    }
    // A proxy's 502/504, or a 503 that is not the application's problem document: the API is not there.
    if ((response.status === 502 || response.status === 504 || response.status === 503) && !data) {
        lastFailure = performance.now();
        store.set({ unreachable: true });
        throw new ApiError(response.status, null);
    }
    // Only an answer to a call made after the last failure shows the API is back: one that was already under way
    // when another call failed says nothing about it.
    if (started > lastFailure) store.set({ unreachable: false });
    if (response.status === 401 && path !== 'session') {
        setCsrfToken(null);
        store.set({ auth: 'signed-out', authMessage: 'Your session has ended. Sign in again.' });
    }
    if (response.status === 403 && !retried && !SAFE.has(method) && data
        && String(data.type || '').endsWith(':csrf-token-invalid') && path !== 'session') {
        // Another tab signed in again (a new session, a new token): fetch this session's token once and retry.
        if (await refreshSession()) return api(path, { method, query, body, headers: extra, signal, retried: true });
    }
    if (!response.ok) {
        const retryAfter = Number(response.headers.get('Retry-After')) || undefined;
        throw new ApiError(response.status, data, retryAfter);
    }
    return data === null ? {} : data;
}

/** GET /api/session: true (and the token kept) when this browser has a live session. */
export async function refreshSession() {
    try {
        const session = await api('session');
        setCsrfToken(session.csrfToken);
        return true;
    } catch (e) {
        if (e instanceof ApiError && e.status === 401) {
            setCsrfToken(null);
            return false;
        }
        throw e;
    }
}

/** A path segment: every character escaped, '/' included. */
export const enc = (value) => encodeURIComponent(String(value));
