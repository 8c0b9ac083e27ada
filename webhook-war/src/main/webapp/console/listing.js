import { html } from './lib.js';
import { go, href } from './router.js';
import { Empty, ErrorNote, Loading, MoreButton, useDraft, usePages } from './components.js';

// The skeleton every filtered list page shares (events, dead events, forwardings, refused deliveries), written once:
// the filters live in the URL, so a link reproduces the view; the form keeps a draft until "Apply"; the list loads
// the first page for them and "Load more" the next, with its loading, error and empty states. A page gives only its
// fields, its table and its words.

/**
 * A list page's filters and pages.
 *
 * @param page    the page's path, which "Apply" and "Clear filters" go to ('events')
 * @param names   the filters the URL may hold
 * @param path    the API's list ('events'), answering `itemsKey` and a `next` cursor
 * @param fixed   what the page always asks besides its filters (the dead events' status)
 * @param keep    which answered items the page shows; `version` loads it again when bumped
 */
export function useListing({ page, params, names, path, itemsKey, limit, fixed = {}, keep, version }) {
    const [draft, field] = useDraft(params, names);
    const filters = {};
    for (const name of names) if (params.get(name)) filters[name] = params.get(name);
    const pages = usePages(path, itemsKey, { ...fixed, ...filters, limit }, keep, version);
    const apply = (event) => {
        event.preventDefault();
        go(href([page], draft));
    };
    return { page, draft, field, filters, filtered: Object.keys(filters).length > 0, pages, apply };
}

/** The filter form: the page's fields, then "Apply" and, while a filter is set, "Clear filters". */
export function FilterForm({ listing, label, children }) {
    return html`<form class="filters" onSubmit=${listing.apply} aria-label=${label}>
        ${children}
        <div class="actions">
            <button type="submit" class="primary">Apply</button>
            ${listing.filtered ? html`<a class="button" href=${'#/' + listing.page}>Clear filters</a>` : null}
        </div>
    </form>`;
}

/**
 * The list for the filters: "Loading <what>…" the first time, the error, the empty state (`empty`: words, or a
 * function of the answer for a page that says more), or `render(items, answer)` and "Load more". While other
 * filters load, the previous list stays, marked as loading `reloading` when the page names it.
 */
export function PagedList({ pages, what, errorWhat, empty, reloading, render }) {
    if (pages.loading && !pages.data) return html`<${Loading} what=${what} />`;
    if (pages.error) return html`<${ErrorNote} error=${pages.error} what=${errorWhat} />`;
    const items = pages.data.items;
    if (!items.length) return typeof empty === 'function' ? empty(pages.data) : html`<${Empty}>${empty}</${Empty}>`;
    return html`${reloading && pages.loading ? html`<${Loading} what=${reloading} />` : null}
        ${render(items, pages.data)}
        <${MoreButton} pages=${pages} />`;
}
