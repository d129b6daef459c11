// Dues aging (/reports/dues-aging): what each client owes on a date, in buckets by days past the
// due date, largest total first, with the totals over every client. A non-zero bucket opens the
// invoices behind it; "Download CSV" gives the same table in paise. Above the table, the totals
// of the buckets as horizontal bars.
import { html, useState } from "/vendor/preact-htm.js";
import { qs } from "../api.js";
import { date, rupees, integer, isoDate } from "../format.js";
import { DataTable, Dialog, EmptyState, DateField, FilterBar, useUrlList, useFetch, useTitle, PageHeader, Link, xlsxHref } from "../components.js";
import { HBarChart } from "../ui/charts.js";
import { docUrl } from "../ui/documents.js";

const enc = encodeURIComponent;

export const BUCKETS = [
  { key: "not_due", label: "Not due" },
  { key: "days_1_30", label: "1–30" },
  { key: "days_31_60", label: "31–60" },
  { key: "days_61_90", label: "61–90" },
  { key: "over_90", label: "Over 90" },
];
const bucketName = (key) => {
  const b = BUCKETS.find((x) => x.key === key);
  return key === "not_due" ? "not yet due" : b ? `${b.label} days past due` : key;
};

/** The invoices of one client in one bucket, as of the report's date. */
function DrillDown({ drill, asOf, onClose }) {
  const { data, error } = useFetch("/api/reports/dues-aging/invoices", { client_id: drill.client_id, bucket: drill.bucket, as_of: asOf });
  const columns = [
    { key: "docNo", label: "Invoice", render: (r) => html`<${Link} class="cell-main" href=${docUrl(r.document_id)}>${r.docNo}</${Link}>` },
    { key: "doc_date", label: "Date", render: (r) => date(r.doc_date) },
    { key: "due_date", label: "Due", render: (r) => (r.due_date ? date(r.due_date) : html`<span class="muted">—</span>`) },
    { key: "days_past_due", label: "Days past due", class: "num", render: (r) => (r.days_past_due > 0 ? integer(r.days_past_due) : html`<span class="muted">—</span>`) },
    { key: "total", label: "Total", class: "num", render: (r) => rupees(r.total) },
    { key: "outstanding", label: "Outstanding", class: "num", render: (r) => html`<strong>${rupees(r.outstanding)}</strong>` },
  ];
  const rows = (data && data.rows) || [];
  const sum = rows.reduce((s, r) => s + r.outstanding, 0);
  return html`<${Dialog} title=${`${drill.client_name}: ${bucketName(drill.bucket)}`} size="wide" onClose=${onClose}
    footer=${html`<${Link} class="btn" href=${`/clients/${enc(drill.client_id)}`}>Open the client</${Link}>
      <button type="button" class="btn btn-primary" onClick=${onClose} autofocus>Close</button>`}>
    <div data-testid="dues-drill" class="dues-drill">
      <p class="dialog-intro">Invoices owing something on ${date(asOf)}${data ? html`: <strong>${rupees(sum)}</strong> on ${integer(rows.length)} ${rows.length === 1 ? "invoice" : "invoices"}` : ""}.</p>
      <div class="table-boxed">
        <${DataTable} caption="Invoices in this bucket" columns=${columns} rows=${rows} rowKey="document_id"
          rowAttrs=${(r) => ({ "data-id": r.document_id })} loading=${!data && !error} loaded=${!!data} error=${error}
          empty="No invoice is in this bucket now." />
      </div>
    </div>
  </${Dialog}>`;
}

export function DuesAgingPage() {
  useTitle("Dues aging");
  const list = useUrlList("/api/reports/dues-aging", ["as_of"]);
  const { query, setQuery, data } = list;
  const [drill, setDrill] = useState(null);
  const asOf = query.as_of || (data && data.as_of) || isoDate();
  const bucketCell = (b) => (r) => (r[b.key]
    ? html`<button type="button" class="cell-link" data-bucket=${b.key} title="Show the invoices"
        aria-label=${`${r.client_name}, ${bucketName(b.key)}: ${rupees(r[b.key])}. Show the invoices`}
        onClick=${() => setDrill({ client_id: r.client_id, client_name: r.client_name, bucket: b.key })}>${rupees(r[b.key])}</button>`
    : html`<span class="muted">—</span>`);
  const columns = [
    { key: "client_name", label: "Client", wrap: true, render: (r) => html`<${Link} class="cell-main" href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>` },
    ...BUCKETS.map((b) => ({ key: b.key, label: b.label, class: `num bucket-cell bucket-${b.key}`, render: bucketCell(b) })),
    { key: "total", label: "Total", class: "num", render: (r) => html`<strong>${rupees(r.total)}</strong>` },
  ];
  const t = data && data.totals;
  const footer = t && html`<tr class="totals-foot" data-testid="dues-totals">
    <th scope="row">Total (${integer(data.total)} ${data.total === 1 ? "client" : "clients"})</th>
    ${BUCKETS.map((b) => html`<td class=${`num bucket-${b.key}`}>${t[b.key] ? rupees(t[b.key]) : html`<span class="muted">—</span>`}</td>`)}
    <td class="num">${rupees(t.total)}</td>
  </tr>`;
  const csv = `/api/reports/dues-aging.csv${qs({ as_of: asOf })}`;
  return html`<main data-page="dues-aging">
    ${drill && html`<${DrillDown} drill=${drill} asOf=${asOf} onClose=${() => setDrill(null)} />`}
    <p class="crumbs"><${Link} href="/reports">← Reports</${Link}></p>
    <${PageHeader} title="Dues aging" subtitle="What each client owes on a date, by days past the due date (the invoice date when it has none); payments and credit notes dated by then count. Largest first."
      actions=${html`<a class="btn" href=${csv} download>Download CSV</a><a class="btn" href=${xlsxHref(csv)} download data-testid="xlsx-link">Download Excel</a><${Link} class="btn" href="/reports/gst-summary">GST summary</${Link}>`} />
    <${FilterBar} label="Report date">
      <${DateField} label="As of" name="as_of" value=${asOf} onChange=${(d) => setQuery({ as_of: d })} />
      ${query.as_of && html`<div class="filter-clear"><button type="button" class="btn btn-sm" onClick=${() => setQuery({ as_of: "" })}>Today</button></div>`}
    </${FilterBar}>
    ${t && data.total > 0 && html`<div class="card chart-card">
      <${HBarChart} testid="dues-chart" name="Owed" title=${`Owed by days past due, as of ${date(asOf)}`}
        note=${`${rupees(t.total)} over ${integer(data.total)} ${data.total === 1 ? "client" : "clients"}`}
        rows=${BUCKETS.map((b, i) => ({ label: b.key === "not_due" ? "Not due" : `${b.label} days`, value: t[b.key], tone: `age-${i}` }))} />
    </div>`}
    <div data-testid="dues-table" class="report-table">
      <${DataTable} caption=${`Dues aging as of ${date(asOf)}`} columns=${columns} ...${list.tableProps} rowKey="client_id"
        rowAttrs=${(r) => ({ "data-id": r.client_id })} footer=${footer}
        empty=${html`<${EmptyState} title=${`Nothing is owed on ${date(asOf)}.`}>Every issued invoice dated by then is paid or credited.</${EmptyState}>`} />
    </div>
    ${data && data.total > 0 && html`<p class="hint report-note">Click an amount to see the invoices behind it. The totals are over every client, on all pages.</p>`}
  </main>`;
}
