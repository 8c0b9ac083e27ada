import { useEffect, useState } from './lib.js';

// The console's few shared facts. Deliberately in memory only: the anti-forgery token must never reach
// localStorage, a URL or a log, and a reload gets it back from GET /api/session.
let state = {
    auth: 'unknown',      // unknown | signed-in | signed-out
    authMessage: null,    // why the sign-in page is shown again (session ended, signed out)
    unreachable: false,   // the last API call failed at the network level: show the banner
    refresh: 0,           // bumped by the banner's "Retry": pages reload their data
    sources: null,        // source names, for the filter forms (null: not asked yet this session)
    sourceDescriptions: [], // what GET /api/sources says of each (its signing scheme...), asked with the names
    sourcesFailed: false, // the last ask failed: asked again only on Retry (sourcesTried: the refresh it ran at)
    sourcesTried: -1,
    statuses: null,       // GET /api/statuses: every status and what it allows (null: not answered yet)
    statusesAsked: -1,    // the refresh the last ask ran at: after a failure, asked again only on Retry
    jobs: [],             // bulk replays started from this page: {id, total, label, job, error}
    replayed: 0,          // bumped when a bulk replay ends: the dead-event lists load again
};
const listeners = new Set();

export const store = {
    get: () => state,
    set(patch) {
        const next = { ...state, ...patch };
        if (Object.keys(patch).every((k) => Object.is(state[k], next[k]))) return;
        state = next;
        listeners.forEach((listener) => listener(state));
    },
    subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
    },
};

// The operator's last keystroke, click or pointer move: live refreshes stop after a while without any, so that an
// unattended console does not keep its session alive for ever (the server ends it after its idle timeout).
let lastActivity = Date.now();
export const activity = {
    seen() {
        lastActivity = Date.now();
    },
    idleMs: () => Date.now() - lastActivity,
};
export const LIVE_IDLE_LIMIT_MS = 10 * 60 * 1000;

export function useStore() {
    const [current, setCurrent] = useState(store.get());
    useEffect(() => {
        setCurrent(store.get());
        return store.subscribe(setCurrent);
    }, []);
    return current;
}
