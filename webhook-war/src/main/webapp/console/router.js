import { useEffect, useState } from './lib.js';

// Routing by the URL hash (#/events?source=gh&status=dead): a link reproduces the view, and every filter change
// is a new history entry, so back and forward work without any server route.

function decode(segment) {
    try {
        return decodeURIComponent(segment);
    } catch (e) {
        return segment;
    }
}

export function parseHash(hash = location.hash) {
    const text = hash.replace(/^#/, '');
    const mark = text.indexOf('?');
    const path = mark < 0 ? text : text.slice(0, mark);
    const query = mark < 0 ? '' : text.slice(mark + 1);
    const segments = path.split('/').filter((s) => s !== '').map(decode);
    return { segments: segments.length ? segments : ['overview'], params: new URLSearchParams(query), key: text };
}

/** '#/events?source=gh' from (['events'], {source: 'gh'}); empty values are left out. */
export function href(segments, params = {}) {
    const query = new URLSearchParams();
    const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params);
    for (const [key, value] of entries) {
        if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
    }
    const qs = query.toString();
    return '#/' + segments.map((s) => encodeURIComponent(String(s))).join('/') + (qs ? '?' + qs : '');
}

export function go(target) {
    if (location.hash !== target) location.hash = target;
}

export function useRoute() {
    const [route, setRoute] = useState(parseHash());
    useEffect(() => {
        const changed = () => setRoute(parseHash());
        window.addEventListener('hashchange', changed);
        return () => window.removeEventListener('hashchange', changed);
    }, []);
    return route;
}
