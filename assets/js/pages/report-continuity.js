// Number continuity (/reports/number-continuity, owner and manager): per document series and
// financial year, the first and last number, how many were issued, and every gap or duplicate in
// between (each run of missing numbers as one range, marked when the legacy import explains it),
// so the owner can show an auditor that the invoice series is unbroken. Printable: the
// navigation, filters and buttons stay off the paper.
import { html } from "/vendor/preact-htm.js";
import { integer, numberRange } from "../format.js";
import { qs } from "../api.js";
import { DataTable, EmptyState, FilterBar, useFetch, useQuery, useTitle, PageHeader, Link } from "../components.js";
import { fyChoices } from "../ui/periods.js";
import { docUrl } from "../ui/documents.js";

/** What each series prefix numbers. */
const SERIES = { QT: "Quotations", PI: "Proforma invoices", INV: "Tax invoices", CN: "Credit notes", RCT: "Receipts" };

/** "25-26" → "2025-26" (the answer's years are short, as in the numbers). */
const fyLong = (fy) => (/^\d{2}-\d{2}$/.test(fy) ? `20${fy}` : fy);

/** One run of missing numbers: "0159–0899 (741 numbers)", and when the import explains it, the imported invoice that borders it. */
function GapRange({ gap }) {
  const imported = gap.explained_by_import;
  return html`<li data-testid="gap" data-from=${gap.from} data-to=${gap.to} data-explained=${imported ? "1" : "0"}>
    <span class="mono-ish">${numberRange(gap.from, gap.to, gap.count)}</span>
    ${imported && html` <span class="cell-sub" data-testid="gap-explained">explained by the import: the old system's <${Link}
      href=${docUrl(imported.document_id)}>${imported.docNo}</${Link}></span>`}
  </li>`;
}

function Verdict({ row }) {
  const gaps = row.gaps || [];
  const dups = row.duplicates || [];
  const gapCount = row.gap_count ?? gaps.length;
  const unbroken = row.unbroken ?? (!gapCount && !dups.length);
  if (unbroken) {
    return html`<span class="continuity-ok" data-testid="verdict" data-state="unbroken"><span aria-hidden="true">✓ </span>Unbroken</span>`;
  }
  const listed = gaps.reduce((n, g) => n + g.count, 0);
  return html`<div class="continuity-bad" data-testid="verdict" data-state="broken">
    ${gapCount > 0 && html`<div data-testid="gaps"><strong>${gapCount === 1 ? "Missing" : `${integer(gapCount)} missing`}:</strong>
      <ul class="plain-list gap-list">${gaps.map((g) => html`<${GapRange} key=${g.from} gap=${g} />`)}</ul>
      ${gapCount > listed && html`<p class="hint">and ${integer(gapCount - listed)} more in later gaps.</p>`}</div>`}
    ${dups.length > 0 && html`<div data-testid="duplicates"><strong>${dups.length === 1 ? "Written twice" : `${integer(dups.length)} written twice`}:</strong> ${dups.join(", ")}</div>`}
  </div>`;
}

const columns = [
  { key: "prefix", label: "Series", render: (r) => html`<span class="cell-main">${SERIES[r.prefix] || r.prefix}</span> <span class="cell-sub mono-ish">${r.prefix}</span>` },
  { key: "fy", label: "Financial year", render: (r) => fyLong(r.fy) },
  { key: "first", label: "First", render: (r) => html`<span class="mono-ish">${r.first}</span>` },
  { key: "last", label: "Last", render: (r) => html`<span class="mono-ish">${r.last}</span>` },
  { key: "count", label: "Numbers found", class: "num", render: (r) => integer(r.count) },
  { key: "verdict", label: "Continuity", wrap: true, render: (r) => html`<${Verdict} row=${r} />` },
];

export function NumberContinuityPage() {
  useTitle("Number continuity");
  const [query, setQuery] = useQuery();
  const { data, error, loading, reload } = useFetch("/api/reports/number-continuity", { fy: query.fy || "" });
  const rows = data && !error ? data.rows.map((r) => ({ ...r, key: `${r.prefix}|${r.fy}` })) : [];
  const broken = rows.filter((r) => r.unbroken === false || (r.gaps || []).length || (r.duplicates || []).length).length;
  const explained = rows.reduce((n, r) => n + (r.gaps || []).filter((g) => g.explained_by_import).length, 0);
  const refused = error && error.status === 400;
  const years = fyChoices(9);
  return html`<main data-page="number-continuity">
    <p class="crumbs no-print"><${Link} href="/reports">← Reports</${Link}></p>
    <${PageHeader} title="Number continuity"
      subtitle=${`Each document series by financial year: first and last number, how many were issued, and any number missing or used twice${query.fy ? ` (FY ${query.fy})` : ""}.`}
      actions=${html`<a class="btn" href=${`/api/reports/number-continuity.csv${qs({ fy: query.fy || undefined })}`} download data-testid="continuity-csv">Download CSV</a>
        <a class="btn" href=${`/api/reports/number-continuity.xlsx${qs({ fy: query.fy || undefined })}`} download data-testid="continuity-xlsx">Download Excel</a>
        <button type="button" class="btn" onClick=${() => window.print()}>Print</button>`} />
    <${FilterBar} label="Financial year">
      <div class=${`field continuity-fy${refused ? " has-error" : ""}`}>
        <label for="continuity-fy">Financial year</label>
        <select id="continuity-fy" name="fy" class="control" value=${query.fy || ""} onChange=${(e) => setQuery({ fy: e.currentTarget.value })}>
          <option value="">Every financial year</option>
          ${years.map((o) => html`<option value=${o.value}>${o.label}</option>`)}
          ${query.fy && !years.some((o) => o.value === query.fy) && html`<option value=${query.fy}>FY ${query.fy}</option>`}
        </select>
        ${refused && html`<p class="field-error" role="alert" data-testid="range-error">${error.message}</p>`}
      </div>
    </${FilterBar}>
    ${data && !error && rows.length > 0 && html`<p class=${`continuity-summary${broken ? " is-broken" : ""}`} data-testid="continuity-summary">
      ${broken ? `${integer(broken)} of ${integer(rows.length)} ${rows.length === 1 ? "series is" : "series are"} broken: see the numbers below.${explained ? ` ${integer(explained)} ${explained === 1 ? "gap lies" : "gaps lie"} next to the old system's imported numbers.` : ""}`
        : `Every series is unbroken: ${integer(rows.length)} ${rows.length === 1 ? "series" : "series by financial year"} checked.`}
    </p>`}
    <div data-testid="continuity-table" class="report-table">
      <${DataTable} caption="Number continuity by series and financial year" columns=${columns} rows=${rows}
        rowKey="key" rowAttrs=${(r) => ({ "data-prefix": r.prefix, "data-fy": r.fy })}
        loading=${loading} loaded=${!!data || !!error} error=${refused ? null : error} onRetry=${reload}
        empty=${html`<${EmptyState} title="No numbered document was issued in this period." />`} />
    </div>
  </main>`;
}
