// GSTR-1 export (/reports/gstr1, owner and manager): pick the month filed, read what would make
// the GST offline tool refuse the file (each with a link to where it is fixed), the return's
// totals and its sections, the B2C large invoices and the documents issued (table 13), and download
// the tool's CSV sheet of each section or the portal's JSON.
import { html } from "/vendor/preact-htm.js";
import { qs } from "../api.js";
import { integer, rupees, monthLabel } from "../format.js";
import { DataTable, FilterBar, Notice, useFetch, useQuery, useTitle, PageHeader, Link, Loading } from "../components.js";
import { recentMonths } from "../ui/periods.js";
import { docUrl } from "../ui/documents.js";

// `sheet: false`: the section has no sheet of its own here; `amounts: false`: it counts documents.
const SECTIONS = [
  { key: "b2b", title: "B2B invoices", text: "Invoices to registered clients, a row per rate of each invoice (table 4A)." },
  { key: "b2cl", title: "B2C large", text: "Inter-state invoices over ₹1,00,000 to clients without a GSTIN, a row per rate (table 5)." },
  { key: "b2cs", title: "B2C small", text: "Other supplies to clients without a GSTIN, by place of supply and rate, their credit notes subtracted (table 7)." },
  { key: "cdnr", title: "Credit notes, registered", text: "Credit notes to registered clients, a row per rate of each note (table 9B)." },
  { key: "cdnur", title: "Credit notes, unregistered", text: "Credit notes against B2C large invoices, a row per rate (table 9B)." },
  { key: "nil", title: "Nil-rated supplies", text: "Lines at 0 %, by supply type, credit notes subtracted (table 8).", sheet: false },
  { key: "hsn_b2b", title: "HSN/SAC summary, B2B", text: "Lines to registered clients by SAC and rate, credit notes subtracted (table 12)." },
  { key: "hsn_b2c", title: "HSN/SAC summary, B2C", text: "Lines to clients without a GSTIN by SAC and rate, credit notes subtracted (table 12)." },
  { key: "hsn", title: "HSN/SAC summary, whole", text: "Every line by SAC and rate: the two tables above together." },
  { key: "docs", title: "Documents issued", text: "Each number series of the month: first and last number, total and cancelled (table 13).", amounts: false },
];

/** This month (in progress, to look at before it is filed), the month before it and the 23
 * before that, newest first, as YYYY-MM. */
const periodChoices = () => recentMonths(25);

/** Where a warning is fixed. */
function fixLink(w) {
  if (w.document_id) return html`<${Link} href=${docUrl(w.document_id)}>Open the document</${Link}>`;
  if (w.client_id) return html`<${Link} href=${`/clients/${w.client_id}`}>Open the client</${Link}>`;
  if (w.code === "company_without_gstin") return html`<${Link} href="/settings/company">Open the company profile</${Link}>`;
  return null;
}

function Warnings({ warnings }) {
  if (!warnings.length) {
    return html`<${Notice} tone="success" testid="gstr1-clean">Nothing in this month would make the offline tool refuse the file.</${Notice}>`;
  }
  const n = warnings.length;
  return html`<${Notice} tone="warning" testid="gstr1-warnings"
      title=${`${integer(n)} ${n === 1 ? "thing" : "things"} to fix before you download`}>
    <ul class="gstr1-warnings">
      ${warnings.map((w, i) => html`<li key=${i} data-code=${w.code}>${w.message} ${fixLink(w)}</li>`)}
    </ul>
  </${Notice}>`;
}

const money = (v) => html`<span class=${v < 0 ? "negative" : ""}>${rupees(v)}</span>`;

export function Gstr1Page() {
  useTitle("GSTR-1 export");
  const [query, setQuery] = useQuery();
  const { data, error, loading, reload } = useFetch("/api/reports/gstr1", { period: query.period || "" });
  const g = data && !error ? data : null;
  const period = query.period || (g ? g.period : "");
  const months = periodChoices();
  const download = (extra) => `/api/reports/gstr1${qs({ period: period || undefined, ...extra })}`;
  const rows = g ? SECTIONS.map((s) => ({ ...s, ...g.sections[s.key] })) : [];
  const columns = [
    { key: "title", label: "Section", wrap: true, render: (r) => html`<div class="cell-main">${r.title}</div><div class="cell-sub">${r.text}</div>` },
    { key: "count", label: "Rows", class: "num", render: (r) => integer(r.count) },
    { key: "taxable", label: "Taxable value", class: "num", render: (r) => (r.amounts === false ? "" : money(r.taxable)) },
    { key: "igst", label: "IGST", class: "num", render: (r) => (r.amounts === false ? "" : money(r.igst)) },
    { key: "cgst", label: "CGST", class: "num", render: (r) => (r.amounts === false ? "" : money(r.cgst)) },
    { key: "sgst", label: "SGST", class: "num", render: (r) => (r.amounts === false ? "" : money(r.sgst)) },
    { key: "csv", label: "Offline tool sheet", render: (r) => (r.sheet === false ? html`<span class="cell-sub">in the portal JSON</span>`
      : html`<a class="btn btn-sm" href=${download({ format: "csv", section: r.key })} download
      data-testid=${`gstr1-csv-${r.key}`}>${r.key}.csv</a>`) },
  ];
  const b2clColumns = [
    { key: "number", label: "Invoice", render: (r) => html`<${Link} href=${docUrl(r.document_id)}>${r.number}</${Link}>` },
    { key: "name", label: "Client", wrap: true },
    { key: "pos", label: "Place of supply", class: "num" },
    { key: "rate", label: "Rate", class: "num", render: (r) => `${r.rate} %` },
    { key: "value", label: "Invoice value", class: "num", render: (r) => money(r.value) },
    { key: "taxable", label: "Taxable value", class: "num", render: (r) => money(r.taxable) },
    { key: "igst", label: "IGST", class: "num", render: (r) => money(r.igst) },
  ];
  const docsColumns = [
    { key: "nature", label: "Nature of document" },
    { key: "from", label: "From" },
    { key: "to", label: "To" },
    { key: "total", label: "Total", class: "num", render: (r) => integer(r.total) },
    { key: "cancelled", label: "Cancelled", class: "num", render: (r) => integer(r.cancelled) },
    { key: "net_issued", label: "Net issued", class: "num", render: (r) => integer(r.net_issued) },
  ];
  const t = g && g.totals;
  const refused = error && error.status === 400;
  return html`<main data-page="gstr1">
    <p class="crumbs"><${Link} href="/reports">← Reports</${Link}></p>
    <${PageHeader} title="GSTR-1 export"
      subtitle="The month's return from the issued invoices and credit notes, ready for the GST offline tool or the portal: nothing to retype."
      actions=${g && html`<a class="btn btn-primary" href=${download({ format: "portal" })} download data-testid="gstr1-portal">Download portal JSON</a>`} />
    <${FilterBar} label="Month">
      <div class=${`field${refused ? " has-error" : ""}`}>
        <label for="gstr1-period">Month filed</label>
        <select id="gstr1-period" name="period" class="control" value=${period} onChange=${(e) => setQuery({ period: e.currentTarget.value })}>
          ${period && !months.includes(period) && html`<option value=${period}>${monthLabel(period)}</option>`}
          ${months.map((m, i) => html`<option value=${m}>${monthLabel(m)}${i === 0 ? " (in progress)" : ""}</option>`)}
        </select>
        ${refused && html`<p class="field-error" role="alert" data-testid="gstr1-error">${error.message}</p>`}
      </div>
    </${FilterBar}>
    ${loading && !g && html`<${Loading} />`}
    ${error && !refused && html`<${Notice} tone="danger" alert=${true}>${error.message} <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`}
    ${g && html`
      <${Warnings} warnings=${g.warnings} />
      <dl class="figures gstr1-totals" data-testid="gstr1-totals">
        <div><dt>Taxable value</dt><dd>${money(t.taxable)}</dd></div>
        <div><dt>IGST</dt><dd>${money(t.igst)}</dd></div>
        <div><dt>CGST</dt><dd>${money(t.cgst)}</dd></div>
        <div><dt>SGST</dt><dd>${money(t.sgst)}</dd></div>
      </dl>
      <p class="hint">Invoices less credit notes of ${monthLabel(g.period)}: the same figures as the <${Link} href=${`/reports/gst-summary${qs({ from: `${g.period}-01` })}`}>GST summary</${Link}> for the month.</p>
      <div data-testid="gstr1-sections" class="report-table">
        <${DataTable} caption=${`GSTR-1 sections, ${monthLabel(g.period)}`} columns=${columns} rows=${rows} rowKey="key"
          rowAttrs=${(r) => ({ "data-section": r.key })} />
      </div>
      ${g.sections.b2cl.rows.length > 0 && html`<h2>B2C large invoices</h2>
      <div data-testid="gstr1-b2cl" class="report-table">
        <${DataTable} caption=${`B2C large invoices, ${monthLabel(g.period)}`} columns=${b2clColumns} rows=${g.sections.b2cl.rows.map((r) => ({ ...r, key: `${r.document_id}-${r.rate}` }))}
          rowKey="key" rowAttrs=${(r) => ({ "data-id": r.document_id })} />
      </div>`}
      <h2>Documents issued</h2>
      <div data-testid="gstr1-docs" class="report-table">
        <${DataTable} caption=${`Documents issued, ${monthLabel(g.period)}`} columns=${docsColumns} rows=${g.sections.docs.rows.map((r) => ({ ...r, key: `${r.doc_num}-${r.prefix}-${r.fy}` }))}
          rowKey="key" rowAttrs=${(r) => ({ "data-series": `${r.prefix}/${r.fy}` })} empty="No invoice or credit note carries a number dated this month." />
      </div>`}
  </main>`;
}
