// TDS certificates (/reports/tds, owner and manager): per client and quarter of a financial
// year, the TDS the societies deducted from our fees (booked on the allocations of recorded
// payments) against the Form 16A each has sent. Financial year, quarter, state chip (with its
// count) and the client's name are in the URL; the table has the totals and its CSV. "Record
// certificate" on a row opens a dialog (certificate number, issue date, amount in rupees
// prefilled with what is booked); a certificate recorded again replaces the first (a revised
// Form 16A). The server names any wrong field, which shows on the field.
//
// "Upload Form 26AS" takes the text download of the vendor's Form 26AS (TRACES) for a financial
// year: each row then carries what the society deposited against our PAN (Filed), and a quarter
// with less deposited than booked is "Short filed" or "Not filed" whatever its certificate says.
import { html, useState } from "/vendor/preact-htm.js";
import { post } from "../api.js";
import { date, integer, isoDate, rupees, rupeesInput, paiseFromRupees } from "../format.js";
import {
  Badge, DataTable, DateField, Dialog, DialogActions, EmptyState, Field, FilterBar, FilterChips, FilterSelect, Form, Link, MoneyField,
  PageHeader, SearchBox, fieldError, toast, useForm, useTitle, useUrlList,
} from "../components.js";
import { fyChoices } from "../ui/periods.js";

const enc = encodeURIComponent;
const FILTER_KEYS = ["fy", "quarter", "state", "q"];
const QUARTERS = [
  { value: "", label: "Every quarter" },
  { value: "Q1", label: "Q1 (April to June)" },
  { value: "Q2", label: "Q2 (July to September)" },
  { value: "Q3", label: "Q3 (October to December)" },
  { value: "Q4", label: "Q4 (January to March)" },
];
const STATES = [
  { value: "", label: "All" },
  { value: "awaited", label: "Awaited" },
  { value: "received", label: "Received" },
  { value: "mismatch", label: "Mismatch" },
  { value: "short_filed", label: "Short filed" },
  { value: "not_filed", label: "Not filed" },
];
const TONES = { awaited: "warning", received: "success", mismatch: "danger", short_filed: "danger", not_filed: "danger" };
/** The server's limit on the upload's body (tds::form26as::BODY_LIMIT), less room for the JSON around it. */
const MAX_26AS_BYTES = 15 * 1024 * 1024;

/** The state of a client's quarter as a chip. */
export function TdsStateBadge({ state }) {
  const label = (STATES.find((s) => s.value === state) || { label: state }).label;
  return html`<span data-testid="tds-state" data-state=${state}><${Badge} tone=${TONES[state] || "neutral"}>${label}</${Badge}></span>`;
}

/** Record (or revise) the Form 16A of a row's client and quarter. */
function CertificateDialog({ row, onClose, onSaved }) {
  const revising = !!row.certificate_id;
  const form = useForm({
    certificate_no: row.certificate_no || "",
    issued_on: row.issued_on || isoDate(),
    amount: rupeesInput(row.booked > 0 ? row.booked : row.certified),
  });
  const v = form.values;
  const onSubmit = form.submit(async (values) => {
    if (!values.certificate_no.trim()) throw fieldError("certificate_no", "Enter the certificate number printed on the Form 16A.");
    if (!values.issued_on) throw fieldError("issued_on", "Give the day the certificate was issued, DD-MM-YYYY.");
    const amount = paiseFromRupees(values.amount);
    if (!String(values.amount).trim()) throw fieldError("amount", "Give the TDS the certificate states, in rupees.");
    if (amount === null || amount <= 0) throw fieldError("amount", "Write the amount in rupees above 0, e.g. 1,234.50.");
    const saved = await post("/api/tds-certificates", {
      client_id: row.client_id,
      fy: row.fy,
      quarter: row.quarter,
      certificate_no: values.certificate_no.trim(),
      issued_on: values.issued_on,
      amount,
    });
    onSaved(saved, revising);
  });
  const title = `${revising ? "Revise" : "Record"} Form 16A: ${row.client_name}, ${row.quarter} ${row.fy}`;
  return html`<${Dialog} title=${title} onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label=${title}>
      <p class="card-lead">
        ${rupees(row.booked)} of TDS is booked for this quarter${row.tan ? html` (TAN <span class="mono-ish">${row.tan}</span>)` : ""}.
        ${revising ? " The certificate recorded is replaced by this one." : ""}
      </p>
      <div class="form-grid">
        <${Field} label="Certificate no." ...${form.field("certificate_no")} autocomplete="off" spellcheck=${false} autocapitalize="characters"
          maxLength="20" class="mono-field" autofocus hint="As printed on the Form 16A (TRACES), at most 20 characters." />
        <${DateField} label="Issued on" name="issued_on" value=${v.issued_on} error=${form.errors.issued_on}
          onChange=${(d) => form.set("issued_on", d)} hint="After the quarter ends, and not after today." />
        <${MoneyField} label="TDS certified (₹)" ...${form.field("amount")} hint="The amount the certificate states; it should match what is booked." />
      </div>
      <${DialogActions} onClose=${onClose} saving=${form.saving} label=${revising ? "Save revised certificate" : "Save certificate"} />
    </${Form}>
  </${Dialog}>`;
}

/** What an upload read, as a sentence. */
function uploadSummary(fy, r) {
  const parts = [
    `${integer(r.matched)} matched`,
    `${integer(r.short)} short`,
    `${integer(r.not_filed)} not filed`,
    `${integer(r.not_booked)} deposited without a booking`,
  ];
  return `Form 26AS ${fy} read: ${integer(r.deductors)} ${r.deductors === 1 ? "deductor" : "deductors"}, ${integer(r.entries)} ${r.entries === 1 ? "entry" : "entries"}. Quarters: ${parts.join(", ")}.`;
}

/** Upload the text download of Form 26AS for a financial year. */
function Form26asDialog({ fy, years, onClose, onSaved }) {
  const form = useForm({ fy, text: null });
  const onSubmit = form.submit(async (values) => {
    const file = values.text;
    if (!file) throw fieldError("text", "Choose the text download of Form 26AS (a .txt file).");
    if (/\.(pdf|zip|xlsx?|html?)$/i.test(file.name)) throw fieldError("text", `${file.name} is not the text download: on TRACES, View Tax Credit (Form 26AS), choose "Text" as the format.`);
    if (file.size === 0) throw fieldError("text", `${file.name} is empty.`);
    if (file.size > MAX_26AS_BYTES) throw fieldError("text", `${file.name} is larger than 15 MB; a Form 26AS text download is a few MB at most.`);
    const text = await file.text();
    onSaved(values.fy, await post("/api/tds/26as", { fy: values.fy, text }));
  });
  return html`<${Dialog} title="Upload Form 26AS" onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Upload Form 26AS">
      <p class="card-lead">The TDS the societies deposited against our PAN, as TRACES shows it. An upload replaces the last one of the same year.</p>
      <div class="form-grid">
        <${Field} label="Financial year" as="select" options=${years} ...${form.field("fy")} />
        <${Field} label="Form 26AS text file" type="file" name="text" accept=".txt,text/plain" error=${form.errors.text}
          onInput=${(e) => form.set("text", e.currentTarget.files[0] || null)}
          hint="TRACES → View Tax Credit (Form 26AS) → View as Text → Export as Text. The ^-separated .txt file, not the PDF." />
      </div>
      <${DialogActions} onClose=${onClose} saving=${form.saving} label="Upload and match" />
    </${Form}>
  </${Dialog}>`;
}

export function TdsCertificatesPage() {
  useTitle("TDS certificates");
  const list = useUrlList("/api/reports/tds-receivable", FILTER_KEYS, { csv: true });
  const { query, setQuery, data } = list;
  const [recording, setRecording] = useState(null);
  const [uploading, setUploading] = useState(false);
  const counts = (data && data.counts) || {};
  const all = STATES.reduce((sum, s) => sum + (s.value ? counts[s.value] || 0 : 0), 0);
  const fy = query.fy || (data ? data.fy : "");
  const years = fyChoices(6);
  if (fy && !years.some((y) => y.value === fy)) years.push({ value: fy, label: `FY ${fy}` });
  const filtered = !!(query.state || query.q);

  const columns = [
    { key: "client_name", label: "Client, TAN", sortable: true, wrap: true,
      render: (r) => html`<${Link} class="cell-main" href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}> <div class="cell-sub">${r.tan ? html`<span class="mono-ish">${r.tan}</span>` : "No TAN"} · ${r.section}</div>` },
    { key: "quarter", label: "Quarter", sortable: true, render: (r) => r.quarter },
    { key: "booked", label: "Booked", sortable: true, class: "num", render: (r) => html`<span data-testid="tds-booked">${rupees(r.booked)}</span>` },
    { key: "certified", label: "Certified", sortable: true, class: "num",
      render: (r) => (r.certified === null ? html`<span class="muted">—</span>` : html`<span data-testid="tds-certified">${rupees(r.certified)}</span>`) },
    { key: "filed", label: "Filed (26AS)", sortable: true, class: "num",
      render: (r) => (r.filed === null ? html`<span class="muted" title=${r.tan ? "No Form 26AS uploaded for this year" : "No TAN on record"}>—</span>`
        : html`<span data-testid="tds-filed">${rupees(r.filed)}</span>`) },
    { key: "state", label: "State", sortable: true, render: (r) => html`<${TdsStateBadge} state=${r.state} />` },
    { key: "certificate_no", label: "Certificate", sortable: true,
      render: (r) => (r.certificate_no
        ? html`<span class="mono-ish">${r.certificate_no}</span> <div class="cell-sub">issued ${date(r.issued_on)}</div>`
        : html`<span class="muted">—</span>`) },
    { key: "due_on", label: "Due on", sortable: true, render: (r) => date(r.due_on) },
    { key: "action", label: html`<span class="sr-only">Actions</span>`,
      render: (r) => html`<button type="button" class="btn btn-sm" data-action="record-certificate" onClick=${() => setRecording(r)}>
        ${r.certificate_id ? "Revise certificate" : "Record certificate"}</button>` },
  ];
  const rows = list.rows.map((r) => ({ ...r, key: `${r.client_id}/${r.fy}/${r.quarter}` }));
  const footer = data && rows.length > 0 && html`<tr class="totals-foot" data-testid="tds-totals">
    <th scope="row" colspan="2">${integer(data.total)} ${data.total === 1 ? "row" : "rows"}</th>
    <td class="num">${rupees(data.totals.booked)}</td><td class="num">${rupees(data.totals.certified)}</td><td class="num">${rupees(data.totals.filed)}</td><td colspan="4"></td>
  </tr>`;
  const empty = filtered
    ? html`<${EmptyState} title="No row matches these filters.">
        <button type="button" class="btn btn-sm" onClick=${() => setQuery({ state: "", q: "" })}>Clear filters</button></${EmptyState}>`
    : html`<${EmptyState} title="No TDS booked and no certificate recorded for this period." />`;

  return html`<main data-page="tds-certificates">
    ${recording && html`<${CertificateDialog} row=${recording} onClose=${() => setRecording(null)} onSaved=${(c, revised) => {
      setRecording(null);
      list.reload();
      const how = c.state === "received" ? "it matches the TDS booked" : `it does not match the ${rupees(c.booked)} booked`;
      toast[c.state === "received" ? "success" : "info"](`${revised ? "Revised" : "Recorded"} ${c.client_name}'s Form 16A for ${c.quarter} ${c.fy}: ${how}.`);
    }} />`}
    ${uploading && html`<${Form26asDialog} fy=${fy} years=${years} onClose=${() => setUploading(false)} onSaved=${(year, r) => {
      setUploading(false);
      if (year !== fy) setQuery({ fy: year, page: "" });
      else list.reload();
      toast[r.short || r.not_filed || r.not_booked ? "info" : "success"](uploadSummary(year, r));
    }} />`}
    <p class="crumbs"><${Link} href="/reports">← Reports</${Link}></p>
    <${PageHeader} title="TDS certificates"
      subtitle="The TDS each society deducted from our fees, quarter by quarter, against the Form 16A it sent and what Form 26AS shows it deposited. A certificate is due from the society on 15 Aug, 15 Nov, 15 Feb and 15 Jun."
      actions=${html`<button type="button" class="btn" data-action="upload-26as" onClick=${() => setUploading(true)}>Upload Form 26AS</button>`} />
    <${FilterBar} label="Filter TDS certificates">
      <${FilterSelect} label="Financial year" name="fy" value=${fy} options=${years} onChange=${(y) => setQuery({ fy: y, page: "" })} />
      <${FilterSelect} label="Quarter" name="quarter" value=${query.quarter || ""} options=${QUARTERS} onChange=${(q) => setQuery({ quarter: q, page: "" })} />
      <div class="tds-chips">
        <${FilterChips} label="State" value=${query.state || ""}
          options=${STATES.map((s) => ({ ...s, count: s.value ? counts[s.value] || 0 : all }))}
          onChange=${(state) => setQuery({ state, page: "" })} />
      </div>
      <${SearchBox} value=${query.q || ""} label="Client" placeholder="Part of the client's name…" onSearch=${(q) => setQuery({ q, page: "" }, { replace: true })} />
    </${FilterBar}>
    <div class="report-table">
      <${DataTable} caption="TDS certificates by client and quarter" columns=${columns} ...${list.tableProps} rows=${rows} rowKey="key" footer=${footer}
        rowAttrs=${(r) => ({ "data-client-id": r.client_id, "data-quarter": r.quarter, "data-state": r.state })} empty=${empty} />
    </div>
    <p class="hint report-note">Booked: the TDS entered with each payment received in the quarter (cancelled payments left out). A certificate
      recorded again for the same client and quarter replaces the first; the audit trail keeps both. Filed: the TDS deposited by the society's
      TAN in the quarter, as the last Form 26AS upload of the year shows (entries booked F or P; unmatched ones give no credit yet).</p>
  </main>`;
}
