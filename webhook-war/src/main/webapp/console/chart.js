import { html, useEffect, useRef, useState } from './lib.js';

// uPlot (org.webjars.npm:uplot, pinned in webhook-war/pom.xml) ships no minified ES module: its minified IIFE is
// loaded, only when a chart is first shown, as a same-origin script (allowed by script-src 'self').
let loading = null;

export function loadUPlot() {
    if (window.uPlot) return Promise.resolve(window.uPlot);
    if (!loading) {
        loading = new Promise((resolve, reject) => {
            const script = document.createElement('script');
            script.src = new URL('../webjars/uplot/1.6.30/dist/uPlot.iife.min.js', document.baseURI).href;
            script.onload = () => (window.uPlot ? resolve(window.uPlot) : reject(new Error('uPlot did not load')));
            script.onerror = () => {
                loading = null;
                script.remove();
                reject(new Error('The chart library could not be loaded.'));
            };
            document.head.appendChild(script);
        });
    }
    return loading;
}

const SERIES = [
    { key: 'accepted', label: 'Accepted', color: '--accepted' },
    { key: 'duplicate', label: 'Duplicate', color: '--duplicate' },
    { key: 'rejected', label: 'Rejected', color: '--rejected' },
];

function css(name) {
    return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

/** The series as uPlot's columns: x in Unix seconds (bucket starts), then events/s per outcome. */
export function columns(series) {
    const step = Number(series && series.bucketSeconds) || 10;
    const start = Date.parse(series && series.start) / 1000;
    const n = Math.max(...SERIES.map((s) => (Array.isArray(series && series[s.key]) ? series[s.key].length : 0)), 0);
    const xs = [];
    for (let i = 0; i < n; i++) xs.push(start + i * step);
    return [xs, ...SERIES.map((s) => {
        const values = Array.isArray(series && series[s.key]) ? series[s.key] : [];
        return xs.map((_, i) => (typeof values[i] === 'number' ? values[i] : null));
    })];
}

function options(width) {
    const axis = { stroke: css('--fg-muted'), grid: { stroke: css('--grid'), width: 1 }, ticks: { stroke: css('--grid') } };
    return {
        width, height: 220,
        cursor: { drag: { x: false, y: false } },
        legend: { live: true },
        scales: { x: { time: true }, y: { range: (u, min, max) => [0, Math.max(1, max * 1.1)] } },
        axes: [axis, { ...axis, label: 'events/s', size: 60 }],
        series: [
            { label: 'Time' },
            ...SERIES.map((s) => ({
                label: s.label, stroke: css(s.color), width: 2, points: { show: false },
                value: (u, v) => (v === null || v === undefined ? '–' : `${v.toFixed(2)}/s`),
            })),
        ],
    };
}

/** Events per second by outcome over the last 15 minutes; new data replaces the old without a redraw of the page. */
export function RateChart({ series }) {
    const box = useRef(null);
    const plot = useRef(null);
    const [error, setError] = useState(null);
    const [scheme, setScheme] = useState(() => matchMedia('(prefers-color-scheme: dark)').matches);
    useEffect(() => {
        const query = matchMedia('(prefers-color-scheme: dark)');
        const changed = () => setScheme(query.matches);
        query.addEventListener('change', changed);
        return () => query.removeEventListener('change', changed);
    }, []);
    useEffect(() => {
        let live = true;
        loadUPlot().then((UPlot) => {
            if (!live || !box.current) return;
            if (plot.current) plot.current.destroy();
            plot.current = new UPlot(options(box.current.clientWidth || 600), columns(series), box.current);
        }, (e) => live && setError(e.message));
        return () => {
            live = false;
            if (plot.current) {
                plot.current.destroy();
                plot.current = null;
            }
        };
    }, [scheme]);
    useEffect(() => {
        if (plot.current) plot.current.setData(columns(series));
    }, [series]);
    useEffect(() => {
        const resize = () => {
            if (plot.current && box.current) plot.current.setSize({ width: box.current.clientWidth, height: 220 });
        };
        window.addEventListener('resize', resize);
        return () => window.removeEventListener('resize', resize);
    }, []);
    const totals = SERIES.map((s) => {
        const step = Number(series && series.bucketSeconds) || 10;
        const values = Array.isArray(series && series[s.key]) ? series[s.key] : [];
        return `${Math.round(values.reduce((a, v) => a + (typeof v === 'number' ? v * step : 0), 0)).toLocaleString()} ${s.label.toLowerCase()}`;
    });
    return html`<figure class="chart">
        <div ref=${box} class="chart-box" role="img"
             aria-label=${`Events per second by outcome over the last 15 minutes: ${totals.join(', ')}.`}></div>
        ${error ? html`<p class="state error" role="alert">${error}</p>` : null}
        <figcaption>Last 15 minutes, events per second by outcome (refreshed every 5 s): ${totals.join(', ')}.</figcaption>
    </figure>`;
}
