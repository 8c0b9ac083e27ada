import { html } from './lib.js';

// Every value the API returns is attacker-controlled (ids, types, payloads, failure messages, destinations' answers).
// They are rendered only as Preact text nodes, never as markup, and the characters that hide or reorder text are
// shown as visible markers: C0 and C1 controls, DEL, the bidirectional embeddings, overrides and isolates
// (U+202A-U+202E, U+2066-U+2069), the direction marks (U+200E, U+200F, U+061C) and the invisible formatting
// characters (zero-width spaces and joiners, word joiner, BOM, soft hyphen, line and paragraph separators).
const INVISIBLE = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u00AD\\u061C\\u180E'
    + '\\u200B-\\u200F\\u2028-\\u202E\\u2060-\\u2069\\uFEFF\\uFFF9-\\uFFFB';
const ONE_LINE = new RegExp(`[${INVISIBLE}\\t\\n\\r]`, 'g');   // ids, types, messages: every control shown
const MULTI_LINE = new RegExp(`[${INVISIBLE}]`, 'g');           // payloads: tabs and line breaks kept

export function marker(ch) {
    return '\u27E8U+' + ch.codePointAt(0).toString(16).toUpperCase().padStart(4, '0') + '\u27E9';
}

function asText(value) {
    if (value === undefined || value === null) return '';
    return typeof value === 'string' ? value : String(value);
}

/** The value as a plain string with markers: for attributes (title, aria-label) and file names. */
export function plain(value, multiline = false) {
    return asText(value).replace(multiline ? MULTI_LINE : ONE_LINE, marker);
}

/**
 * The value as text nodes, each hidden character replaced by a highlighted marker element (still text).
 * Use it for every API value put on the page.
 */
export function T(value, multiline = false) {
    const text = asText(value);
    const pattern = multiline ? MULTI_LINE : ONE_LINE;
    pattern.lastIndex = 0;
    if (!pattern.test(text)) return text;
    const parts = [];
    let last = 0;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
        if (match.index > last) parts.push(text.slice(last, match.index));
        parts.push(html`<span class="ctl" title="an invisible or direction-changing character">${marker(match[0])}</span>`);
        last = match.index + match[0].length;
    }
    if (last < text.length) parts.push(text.slice(last));
    return parts;
}

// Times: the browser's zone on the page, the UTC instant on hover.
const LOCAL = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export function parseInstant(value) {
    if (typeof value !== 'string' || !value) return null;
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date;
}

export function Time({ at, relative = false }) {
    const date = parseInstant(at);
    if (!date) return at ? html`<span>${T(at)}</span>` : html`<span class="muted">never</span>`;
    const utc = date.toISOString().replace('.000Z', 'Z') + ' (UTC)';
    return html`<time datetime=${date.toISOString()} title=${utc}>${relative ? ago(date) : LOCAL.format(date)}</time>`;
}

export function ago(date, now = Date.now()) {
    const seconds = Math.round((now - date.getTime()) / 1000);
    if (seconds < 0) return 'in the future';
    if (seconds < 60) return `${seconds} s ago`;
    if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
    if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min ago`;
    return `${Math.floor(seconds / 86400)} d ${Math.floor((seconds % 86400) / 3600)} h ago`;
}

export function age(at, now = Date.now()) {
    const date = parseInstant(at);
    if (!date) return null;
    const seconds = Math.max(0, Math.round((now - date.getTime()) / 1000));
    if (seconds < 60) return `${seconds} s`;
    if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
    if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
    return `${Math.floor(seconds / 86400)} d ${Math.floor((seconds % 86400) / 3600)} h`;
}

/** A count the server bounds (countLimit): at the bound it reads "10,000+". */
export function count(value, limit) {
    if (typeof value !== 'number' || !Number.isFinite(value)) return '–';
    if (typeof limit === 'number' && value >= limit) return limit.toLocaleString() + '+';
    return value.toLocaleString();
}

// <input type="datetime-local"> speaks the browser's zone; the URL and the API speak UTC instants.
export function localInputToInstant(value) {
    if (!value) return '';
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

export function instantToLocalInput(value) {
    const date = parseInstant(value);
    if (!date) return '';
    const p = (n) => String(n).padStart(2, '0');
    return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}T${p(date.getHours())}:${p(date.getMinutes())}`;
}

/**
 * JSON re-indented without parsing its values: numbers, escapes and key order stay exactly as received (parsing
 * and printing again would round big numbers, drop duplicate keys and decode escapes). Call it only on text that
 * JSON.parse accepted.
 */
export function reindent(text) {
    let out = '';
    let depth = 0;
    let inString = false;
    let escaped = false;
    const newline = () => '\n' + '  '.repeat(depth);
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (inString) {
            out += c;
            if (escaped) escaped = false;
            else if (c === '\\') escaped = true;
            else if (c === '"') inString = false;
            continue;
        }
        switch (c) {
            case '"':
                inString = true;
                out += c;
                break;
            case '{':
            case '[': {
                let j = i + 1;
                while (j < text.length && ' \t\n\r'.includes(text[j])) j++;
                if (text[j] === (c === '{' ? '}' : ']')) {
                    out += c + text[j];
                    i = j;
                } else {
                    depth++;
                    out += c + newline();
                }
                break;
            }
            case '}':
            case ']':
                depth--;
                out += newline() + c;
                break;
            case ',':
                out += ',' + newline();
                break;
            case ':':
                out += ': ';
                break;
            case ' ':
            case '\t':
            case '\n':
            case '\r':
                break;
            default:
                out += c;
        }
    }
    return out;
}

export function isJson(text) {
    if (typeof text !== 'string') return false;
    const start = text.trimStart()[0];
    if (start !== '{' && start !== '[') return false;
    try {
        JSON.parse(text);
        return true;
    } catch (e) {
        return false;
    }
}

export function base64Bytes(value) {
    if (typeof value !== 'string') return new Uint8Array(0);
    try {
        const binary = atob(value);
        const bytes = new Uint8Array(binary.length);
        for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
        return bytes;
    } catch (e) {
        return new Uint8Array(0);
    }
}

/** Offset, hex and printable ASCII, 16 bytes a line; everything else as '.'. */
export function hexDump(bytes, max = 16384) {
    const lines = [];
    const end = Math.min(bytes.length, max);
    for (let offset = 0; offset < end; offset += 16) {
        const row = bytes.subarray(offset, Math.min(offset + 16, end));
        const hex = [...row].map((b) => b.toString(16).padStart(2, '0')).join(' ');
        const ascii = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
        lines.push(offset.toString(16).padStart(8, '0') + '  ' + hex.padEnd(47, ' ') + '  ' + ascii);
    }
    return lines.join('\n');
}

// A try's duration: "12 ms" below a second, "1.4 s" below a minute, then "2 min 5 s".
export function durationText(millis) {
    if (millis < 1000) return `${Math.round(millis)} ms`;
    if (millis < 60000) return `${(millis / 1000).toFixed(millis < 10000 ? 1 : 0)} s`;
    const seconds = Math.round(millis / 1000);
    return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

export function bytesText(n) {
    if (typeof n !== 'number') return '–';
    if (n < 1024) return `${n.toLocaleString()} bytes`;
    if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB (${n.toLocaleString()} bytes)`;
    return `${(n / 1024 / 1024).toFixed(2)} MiB (${n.toLocaleString()} bytes)`;
}

/** A file name from hostile parts: only letters, digits, '.', '_' and '-' survive. */
export function fileName(...parts) {
    return parts.map((p) => asText(p).replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 80) || 'x')
        .join('-');
}
