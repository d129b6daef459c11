// Lists: a data table with server-side pagination, honest totals and optional sorting, plus
// the hook that keeps a list's filters, page and sort in the URL and fetches the page.
import { html, useState, useEffect, useRef } from "/vendor/preact-htm.js";
import { get, isAbort, qs } from "../api.js";
import { pageRange, integer } from "../format.js";
import { useQuery } from "../router.js";
import { Spinner, EmptyState, Notice } from "./feedback.js";
import { useId } from "./forms.js";

export const PER_PAGE_CHOICES = [25, 50, 100, 200];

function positiveInt(v, fallback) {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}

/**
 * A paged list whose state lives in the URL.
 *   const list = useUrlList("/api/employees", ["q", "role", "active"]);
 *   <${DataTable} columns=${cols} ...${list.tableProps} />
 * Returns { query, setQuery, data (the whole last answer, e.g. for a footer), rows, total, page,
 * perPage, sort, loading, error, reload, tableProps }. Only the named filter keys (and page, per_page, sort) go to the API.
 * Options: perPage (default 50), extra (fixed API params), enabled (false skips fetching), csv
 * (true: the list has a CSV twin at `${path}.csv`; the table offers it with the same filters and sort).
 */
export function useUrlList(path, filterKeys = [], { perPage: defaultPerPage = 50, extra = {}, enabled = true, csv = false } = {}) {
  const [query, setQuery] = useQuery();
  const page = positiveInt(query.page, 1);
  const perPage = Math.min(positiveInt(query.per_page, defaultPerPage), 200);
  const sort = query.sort || "";
  const params = { ...extra, page, per_page: perPage };
  if (sort) params.sort = sort;
  for (const k of filterKeys) if (query[k]) params[k] = query[k];
  const key = path + JSON.stringify(params);

  const [state, setState] = useState({ data: null, error: null, loading: enabled });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!enabled) return undefined;
    const ctl = new AbortController();
    setState((s) => ({ ...s, loading: true, error: null }));
    get(path, params, { signal: ctl.signal })
      .then((data) => setState({ data, error: null, loading: false }))
      .catch((error) => {
        if (!isAbort(error)) setState((s) => ({ ...s, error, loading: false }));
      });
    return () => ctl.abort();
  }, [key, tick, enabled]);

  const data = state.data;
  const rows = (data && data.rows) || [];
  const total = data ? data.total : 0;
  const reload = () => setTick((t) => t + 1);
  const tableProps = {
    rows,
    total,
    page,
    perPage,
    sort,
    loading: state.loading,
    loaded: !!data,
    error: state.error,
    onRetry: reload,
    onPage: (p) => setQuery({ page: p > 1 ? p : "" }),
    onPerPage: (n) => setQuery({ per_page: n === defaultPerPage ? "" : n }),
    onSort: (s) => setQuery({ sort: s }),
    csvHref: csv ? `${path}.csv${qs({ ...params, page: "", per_page: "" })}` : undefined,
  };
  return { query, setQuery, data, rows, total, page, perPage, sort, loading: state.loading, error: state.error, reload, tableProps };
}

/** The Excel twin of a CSV download's address: `…/x.csv?q` → `…/x.xlsx?q` (decisions 12, "Excel"). */
export function xlsxHref(csvHref) {
  return csvHref.replace(/\.csv(?=\?|$)/, ".xlsx");
}

/** "1–50 of 132" with Previous / Next, a rows-per-page choice and the CSV and Excel of the whole list. */
export function Pagination({ page, perPage, total, onPage, onPerPage, loading, csvHref }) {
  const id = useId("pp-");
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  return html`<div class="pagination">
    <span class="range" aria-live="polite">${pageRange(page, perPage, total)}</span>
    ${loading && html`<${Spinner} small=${true} label="Loading page" />`}
    <span class="spacer"></span>
    ${csvHref && html`<a class="btn btn-sm" href=${csvHref} download data-testid="csv-link">Download CSV</a>
      <a class="btn btn-sm" href=${xlsxHref(csvHref)} download data-testid="xlsx-link">Download Excel</a>`}
    ${onPerPage &&
    html`<label class="per-page" for=${id}>Rows per page</label>
      <select id=${id} class="control control-sm" value=${perPage} onChange=${(e) => onPerPage(Number(e.currentTarget.value))}>
        ${[...new Set([...PER_PAGE_CHOICES, perPage])].sort((a, b) => a - b).map((n) => html`<option value=${n}>${n}</option>`)}
      </select>`}
    <button type="button" class="btn btn-sm" disabled=${page <= 1} onClick=${() => onPage(Math.min(page - 1, lastPage))}>Previous</button>
    <button type="button" class="btn btn-sm" disabled=${page >= lastPage} onClick=${() => onPage(page + 1)}>Next</button>
  </div>`;
}

/** The column's name as a phone's card shows it beside each cell (`data-label`, drawn by
 * app.css): the label when it is text, else the column's `cardLabel` (none for an actions column). */
const cardLabel = (c) => (typeof c.label === "string" ? c.label : c.cardLabel) || undefined;

function SortHeader({ col, sort, onSort }) {
  const active = sort === col.key || sort === `-${col.key}`;
  const desc = sort === `-${col.key}`;
  const next = active && !desc ? `-${col.key}` : col.key;
  return html`<button type="button" class="sort-btn" onClick=${() => onSort(next)}>
    ${col.label}<span class="sort-arrow" aria-hidden="true">${active ? (desc ? "▼" : "▲") : "↕"}</span>
  </button>`;
}

/**
 * A real <table> that fits its card (its box scrolls sideways only as a last resort).
 * Props:
 *   columns: [{ key, label, render?(row) → content, sortable?, class? (td and th; "num" keeps
 *              figures on one line, right-aligned), wrap? (a column of long text: names, subjects),
 *              cardLabel? (the name a phone shows beside the cell when label is markup) }];
 *              a column without render shows row[key]. Cells wrap at spaces so that the table
 *              fits the screen; under 600 px each row is a card of "label value" lines (see
 *              "Tables" in app.css and the layout rules in js/README.md).
 *   rows, rowKey ("id"), rowAttrs?(row) → extra <tr> attributes (default data-id=row.id)
 *   caption (read by screen readers), loading, loaded (false until the first answer),
 *   error (an ApiError or text), onRetry, empty (text or markup when there are no rows)
 *   sort ("key" or "-key"), onSort(next): only columns marked sortable get a header button;
 *     use them only where the API accepts `sort`.
 *   page, perPage, total, onPage, onPerPage: shows the pagination bar when onPage is given;
 *     moving to another page brings the top of the list into view.
 *   csvHref: "Download CSV" and "Download Excel" links in that bar (useUrlList's, with the list's filters and sort).
 *   expanded?(row) → content or null: when it gives content, a full-width detail row
 *     (<tr class="detail-row">) follows that row (e.g. "Show changes").
 *   footer?: <tr> markup for a <tfoot> (e.g. a totals row), shown while there are rows.
 */
export function DataTable({ columns, rows, rowKey = "id", rowAttrs, caption, loading, loaded = true, error, onRetry, empty = "Nothing matches.", sort, onSort, page, perPage, total, onPage: goToPage, onPerPage, expanded, footer, csvHref }) {
  const boxRef = useRef(null);
  // A footer (a totals row) is the page's own markup: its figures get their columns' names too,
  // for a phone's card.
  useEffect(() => {
    const foot = boxRef.current && boxRef.current.querySelector("tfoot");
    if (!foot) return;
    for (const tr of foot.rows) {
      let at = 0;
      for (const cell of tr.cells) {
        const label = cell.colSpan === 1 && columns[at] && cardLabel(columns[at]);
        if (cell.tagName === "TD" && label && !cell.hasAttribute("data-label")) cell.setAttribute("data-label", label);
        at += cell.colSpan;
      }
    }
  });
  // Another page starts at the top of the list, not where the last one was scrolled to.
  const onPage = goToPage && ((p) => {
    goToPage(p);
    const card = boxRef.current && boxRef.current.closest(".table-card");
    if (card && card.getBoundingClientRect().top < 0) card.scrollIntoView({ block: "start" });
  });
  const showPager = !!onPage && (loaded || total > 0);
  const firstLoad = loading && !loaded;
  let body;
  if (firstLoad) {
    body = html`<tr class="state-row"><td colspan=${columns.length}><${Spinner} label="Loading" showLabel=${true} /></td></tr>`;
  } else if (rows.length === 0 && !error) {
    const offPage = page > 1 && total > 0;
    body = html`<tr class="state-row"><td colspan=${columns.length}>
      ${offPage
        ? html`<${EmptyState} title="This page is past the end of the list.">
            <button type="button" class="btn btn-sm" onClick=${() => onPage(1)}>Go to the first page</button>
          </${EmptyState}>`
        : typeof empty === "string"
          ? html`<${EmptyState} title=${empty} />`
          : empty}
    </td></tr>`;
  } else {
    body = rows.map((row) => {
      const attrs = rowAttrs ? rowAttrs(row) : { "data-id": row.id };
      const tr = html`<tr key=${row[rowKey]} ...${attrs}>
        ${columns.map((c) => {
          const content = c.render ? c.render(row) : row[c.key] ?? "";
          // One short word (a date "15-08-2026", a number "QT/26-27-0015", plain or as a link) is
          // never split, not even at its hyphens.
          const text = typeof content === "string" ? content : content && content.props && content.props.children;
          const word = typeof text === "string" && text.length <= 24 && !/\s/.test(text);
          return html`<td class=${`${c.class || ""}${c.wrap ? " wrap" : ""}${word ? " nowrap" : ""}`} data-label=${cardLabel(c)}>${content}</td>`;
        })}
      </tr>`;
      const detail = expanded ? expanded(row) : null;
      if (!detail) return tr;
      return [tr, html`<tr key=${`${row[rowKey]}-detail`} class="detail-row"><td colspan=${columns.length}><div class="detail-box">${detail}</div></td></tr>`];
    });
  }
  return html`<div class="table-card">
    ${error &&
    html`<${Notice} tone="danger" alert=${true}>
      ${error.message || String(error)}
      ${onRetry && html` <button type="button" class="btn btn-sm" onClick=${onRetry}>Try again</button>`}
    </${Notice}>`}
    <div class=${`table-scroll${loading && loaded ? " is-loading" : ""}`} ref=${boxRef} aria-busy=${loading ? "true" : "false"}>
      <table class="data-table">
        ${caption && html`<caption class="sr-only">${caption}</caption>`}
        <thead>
          <tr>
            ${columns.map((c) => {
              const ariaSort = c.sortable && (sort === c.key ? "ascending" : sort === `-${c.key}` ? "descending" : undefined);
              return html`<th scope="col" class=${c.class || ""} aria-sort=${ariaSort}>
                ${c.sortable && onSort ? html`<${SortHeader} col=${c} sort=${sort} onSort=${onSort} />` : c.label}
              </th>`;
            })}
          </tr>
        </thead>
        <tbody>${body}</tbody>
        ${footer && rows.length > 0 && !firstLoad && html`<tfoot>${footer}</tfoot>`}
      </table>
    </div>
    ${showPager && html`<${Pagination} page=${page} perPage=${perPage} total=${total} onPage=${onPage} onPerPage=${onPerPage} loading=${loading && loaded} csvHref=${csvHref} />`}
  </div>`;
}

/**
 * The search box of a list: named `q`, it updates the URL 300 ms after typing stops (replacing
 * the history entry, so Back does not replay each keystroke) and at once on Enter.
 * Also serves any typed filter (e.g. name="district" type="text" class="text-filter": `class` replaces
 * the wide search-field look); other props (list, spellcheck) go to the input.
 */
export function SearchBox({ value = "", onSearch, label = "Search", placeholder = "Search…", name = "q", type = "search", class: cls, ...rest }) {
  const id = useId("q-");
  const [text, setText] = useState(value);
  const timer = useRef(null);
  const sent = useRef(value);
  // Follow the URL when it changes for another reason than our own search (Back/Forward,
  // "Clear filters"); our own change must not overwrite what the user is still typing.
  useEffect(() => {
    if (value !== sent.current) {
      clearTimeout(timer.current);
      setText(value);
    }
    sent.current = value;
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const commit = (v) => {
    clearTimeout(timer.current);
    const q = v.trim();
    if (q !== (value || "").trim()) {
      sent.current = q;
      onSearch(q);
    }
  };
  const onInput = (e) => {
    const v = e.currentTarget.value;
    setText(v);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => commit(v), 300);
  };
  const onKeyDown = (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      commit(text);
    }
  };
  return html`<div class=${`field ${cls || "search-field"}`}>
    <label for=${id}>${label}</label>
    <input id=${id} class="control" type=${type} name=${name} value=${text} placeholder=${placeholder} autocomplete="off"
      onInput=${onInput} onChange=${onInput} onKeyDown=${onKeyDown} ...${rest} />
  </div>`;
}

/** A row of list filters; wraps on small screens. */
export function FilterBar({ children, label = "Filters" }) {
  return html`<div class="filter-bar" role="search" aria-label=${label}>${children}</div>`;
}

/** A filter <select> bound to one URL query key. options: [{value, label}], "" = all. */
export function FilterSelect({ label, name, value, options, onChange }) {
  const id = useId("fs-");
  return html`<div class="field">
    <label for=${id}>${label}</label>
    <select id=${id} name=${name} class="control" value=${value || ""} onChange=${(e) => onChange(e.currentTarget.value)}>
      ${options.map((o) => html`<option value=${o.value}>${o.label}</option>`)}
    </select>
  </div>`;
}

/**
 * One filter of a list chosen among a few, as a row of toggle chips (`data-filter` = the value):
 * options [{ value, label, count? }]; a count above 0 shows in a red pill (e.g. rows with problems).
 */
export function FilterChips({ label = "Show", value, options, onChange }) {
  const id = useId("chips-");
  return html`<div class="field chips-field">
    <span class="field-label" id=${id}>${label}</span>
    <div class="chips" role="group" aria-labelledby=${id}>
      ${options.map((o) => html`<button type="button" class="chip" aria-pressed=${value === o.value ? "true" : "false"} data-filter=${o.value}
        onClick=${() => onChange(o.value)}>${o.label}${o.count > 0 ? html` <span class="chip-count">${integer(o.count)}</span>` : ""}</button>`)}
    </div>
  </div>`;
}

/**
 * Chosen rows of a list, by id, kept while the user pages (so a choice can span pages).
 *   const sel = useSelection();
 *   columns = [selectColumn(sel, list.rows, (r) => r.name), ...]
 * Returns { ids, count, has(id), toggle(id, on), setMany(ids, on), clear() }.
 */
export function useSelection() {
  const [ids, setIds] = useState(() => new Set());
  const update = (fn) => setIds((old) => {
    const next = new Set(old);
    fn(next);
    return next;
  });
  return {
    ids: [...ids],
    count: ids.size,
    has: (id) => ids.has(id),
    toggle: (id, on) => update((s) => (on ? s.add(id) : s.delete(id))),
    setMany: (list, on) => update((s) => list.forEach((id) => (on ? s.add(id) : s.delete(id)))),
    clear: () => setIds(new Set()),
  };
}

/**
 * A DataTable column of row checkboxes (input name="select", value = the row id) with a
 * "select all on this page" box in the header (mixed when only some are chosen).
 * `describe(row)` names the row for screen readers.
 */
export function selectColumn(sel, rows, describe = (r) => r.id) {
  const pageIds = rows.map((r) => r.id);
  const chosen = pageIds.filter((id) => sel.has(id)).length;
  const all = pageIds.length > 0 && chosen === pageIds.length;
  return {
    key: "_select",
    class: "select-col",
    label: html`<input type="checkbox" name="select_all" aria-label="Select all on this page" checked=${all}
      indeterminate=${chosen > 0 && !all} disabled=${pageIds.length === 0}
      onChange=${(e) => sel.setMany(pageIds, e.currentTarget.checked)} />`,
    render: (r) => html`<input type="checkbox" name="select" value=${r.id} checked=${sel.has(r.id)}
      aria-label=${`Select ${describe(r)}`} onChange=${(e) => sel.toggle(r.id, e.currentTarget.checked)} />`,
  };
}
