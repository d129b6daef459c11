// GST summary (/reports/gst-summary): taxable value and GST by month of the document date, issued
// invoices added and issued credit notes subtracted (so a month can be negative), with the grand
// total, the GST of each month drawn as bars above the table. Empty dates mean the server's
// default, the current financial year (1 April–31 March).
import { html } from "/vendor/preact-htm.js";
import { qs } from "../api.js";
import { date, monthLabel, rupees } from "../format.js";
import { DataTable, EmptyState, DateField, FilterBar, Notice, useFetch, useQuery, useTitle, PageHeader, Link, xlsxHref } from "../components.js";
import { BarChart, monthShort } from "../ui/charts.js";

const money = (v) => html`<span class=${v < 0 ? "negative" : ""}>${rupees(v)}</span>`;
const FIGURES = [
  { key: "taxable", label: "Taxable" },
  { key: "cgst", label: "CGST" },
  { key: "sgst", label: "SGST" },
  { key: "igst", label: "IGST" },
  { key: "total", label: "Total" },
];

const columns = [
  { key: "month", label: "Month", render: (r) => html`<span class="cell-main">${monthLabel(r.month)}</span>` },
  ...FIGURES.map((f) => ({ key: f.key, label: f.label, class: "num", render: (r) => money(r[f.key]) })),
];

export function GstSummaryPage() {
  useTitle("GST summary");
  const [query, setQuery] = useQuery();
  const params = { from: query.from || "", to: query.to || "" };
  const { data, error, loading, reload } = useFetch("/api/reports/gst-summary", params);
  const backwards = params.from && params.to && params.from > params.to;
  // Empty in the URL: the period the server chose (the current financial year) shows in the fields.
  const from = params.from || (data ? data.from : "");
  const to = params.to || (data ? data.to : "");
  const rows = data && !error ? data.rows : [];
  const g = data && !error && data.grand_total;
  const footer = g && html`<tr class="totals-foot" data-testid="gst-total">
    <th scope="row">Total</th>
    ${FIGURES.map((f) => html`<td class="num">${money(g[f.key])}</td>`)}
  </tr>`;
  const csv = `/api/reports/gst-summary.csv${qs(data ? { from: data.from, to: data.to } : params)}`;
  const period = data && !error ? `${date(data.from)} to ${date(data.to)}` : "";
  return html`<main data-page="gst-summary">
    <p class="crumbs"><${Link} href="/reports">← Reports</${Link}></p>
    <${PageHeader} title="GST summary"
      subtitle="Taxable value and GST by month of the document date: issued tax invoices add, issued credit notes subtract."
      actions=${html`<a class="btn" href=${csv} download>Download CSV</a><a class="btn" href=${xlsxHref(csv)} download data-testid="xlsx-link">Download Excel</a><${Link} class="btn" href="/reports/dues-aging">Dues aging</${Link}>`} />
    <${FilterBar} label="Period">
      <${DateField} label="From" name="from" value=${from} onChange=${(d) => setQuery({ from: d })} />
      <${DateField} label="To" name="to" value=${to} onChange=${(d) => setQuery({ to: d })} />
      ${(query.from || query.to) && html`<div class="filter-clear"><button type="button" class="btn btn-sm"
        onClick=${() => setQuery({ from: "", to: "" })}>This financial year</button></div>`}
    </${FilterBar}>
    ${backwards && html`<${Notice} tone="warning">The “From” date is after the “To” date: choose a period that runs forwards.</${Notice}>`}
    ${period && html`<p class="hint report-note" data-testid="gst-period">${period}</p>`}
    ${rows.length > 0 && html`<div class="card chart-card">
      <${BarChart} testid="gst-chart" title=${`GST by month, ${period}`} note="CGST, SGST and IGST together; credit notes subtracted"
        labels=${rows.map((r) => monthShort(r.month))} series=${[{ name: "GST", values: rows.map((r) => r.cgst + r.sgst + r.igst), tone: 0 }]} />
    </div>`}
    <div data-testid="gst-table" class="report-table">
      <${DataTable} caption=${`GST summary ${period}`} columns=${columns} rows=${rows} rowKey="month"
        rowAttrs=${(r) => ({ "data-month": r.month })} loading=${loading} loaded=${!!data || !!error} error=${backwards ? null : error}
        onRetry=${reload} footer=${footer}
        empty=${html`<${EmptyState} title="No issued invoice or credit note in this period." />`} />
    </div>
  </main>`;
}
