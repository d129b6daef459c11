// The email log (`email-log`, /email-log): every attempted send (a document, a module's
// notify-all, a reminder, the test mail), newest first, whatever came of it. Status chips,
// purpose, dates, search, and the client (`?client_id=`, from the client page's "Emails") and
// module (`?module_id=`, from the module page) chips live in the URL; a failed send shows its
// error under its row. Staff see the mail sent to the clients of their book.
import { html } from "/vendor/preact-htm.js";
import { dateTime, humanize } from "../format.js";
import {
  DataTable, useUrlList, SearchBox, FilterBar, FilterChips, FilterSelect, DateField, Notice, Badge, useFetch, useSession, useTitle,
  PageHeader, Link,
} from "../components.js";
import { ClientFilter } from "../ui/clients.js";
import { docUrl } from "../ui/documents.js";

const enc = encodeURIComponent;
const FILTER_KEYS = ["status", "purpose", "from", "to", "q", "client_id", "module_id"];
const STATUS_CHIPS = [{ value: "", label: "All" }, { value: "sent", label: "Sent" }, { value: "failed", label: "Failed" }];
const PURPOSES = [
  { value: "document", label: "Document" },
  { value: "module_notify", label: "Module notice" },
  { value: "reminder", label: "Reminder" },
  { value: "statement", label: "Statement" },
  { value: "test", label: "Test" },
];
const PURPOSE_FILTER = [{ value: "", label: "Every purpose" }, ...PURPOSES];
const purposeLabel = (p) => (PURPOSES.find((o) => o.value === p) || { label: humanize(p) }).label;

/** The "Module: X · Show all modules" chip. */
function ModuleFilter({ id, onClear }) {
  const { data } = useFetch(`/api/modules/${enc(id)}`);
  return html`<div class="filter-chip" data-testid="module-filter">
    <span>Module: <strong>${data ? data.name : "…"}</strong></span>
    <button type="button" class="btn btn-sm" onClick=${onClear}>Show all modules</button>
  </div>`;
}

const muted = (text) => html`<span class="muted">${text}</span>`;

const columns = [
  { key: "at", sortable: true, label: "When", render: (r) => html`<time datetime=${r.at}>${dateTime(r.at)}</time>` },
  {
    key: "to", sortable: true, label: "To", wrap: true,
    render: (r) => html`<span class="cell-main">${r.to}</span>${r.cc && html`<div class="hint">cc ${r.cc}</div>`}`,
  },
  {
    key: "subject", sortable: true, label: "Subject", wrap: true,
    render: (r) => html`${r.subject}${r.document_id && html`<div><${Link} href=${docUrl(r.document_id)} data-testid="email-document">${r.docNo || "Document"}</${Link}></div>`}`,
  },
  {
    key: "client", sortable: true, label: "Client", wrap: true,
    render: (r) => (r.client_id ? html`<${Link} href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>` : muted("—")),
  },
  { key: "purpose", sortable: true, label: "Purpose", render: (r) => purposeLabel(r.purpose) },
  {
    key: "status", sortable: true, label: "Status",
    render: (r) => html`<span data-testid="email-status"><${Badge} tone=${r.status === "sent" ? "success" : "danger"}>${humanize(r.status)}</${Badge}></span>`,
  },
  { key: "sent_by", sortable: true, label: "Sent by", render: (r) => r.sent_by_name || muted(r.sent_by ? "—" : "Background job") },
];

export function EmailLogPage() {
  const { me } = useSession();
  useTitle("Email log");
  const list = useUrlList("/api/email-log", FILTER_KEYS, { csv: true });
  const { query, setQuery } = list;
  const backwards = query.from && query.to && query.from > query.to;
  const filtered = FILTER_KEYS.some((k) => query[k]);
  return html`<main data-page="email-log">
    <${PageHeader} title="Email log"
      subtitle=${me.role === "staff" ? "Every email sent to your clients, newest first, whatever came of it." : "Every email the office tried to send, newest first, whatever came of it."} />
    <${FilterBar} label="Filter the email log">
      <${FilterChips} label="Status" value=${query.status || ""} options=${STATUS_CHIPS} onChange=${(status) => setQuery({ status })} />
      <${SearchBox} value=${query.q || ""} label="Search" placeholder="Address, subject or client…" onSearch=${(q) => setQuery({ q }, { replace: true })} />
      <${FilterSelect} label="Purpose" name="purpose" value=${query.purpose} options=${PURPOSE_FILTER} onChange=${(purpose) => setQuery({ purpose })} />
      <${DateField} label="From" name="from" value=${query.from || ""} onChange=${(from) => setQuery({ from })} />
      <${DateField} label="To" name="to" value=${query.to || ""} onChange=${(to) => setQuery({ to })} />
      ${filtered && html`<div class="filter-clear"><button type="button" class="btn btn-sm"
        onClick=${() => setQuery(Object.fromEntries(FILTER_KEYS.map((k) => [k, ""])))}>Clear filters</button></div>`}
    </${FilterBar}>
    ${query.client_id && html`<${ClientFilter} id=${query.client_id} onClear=${() => setQuery({ client_id: "" })} />`}
    ${query.module_id && html`<${ModuleFilter} id=${query.module_id} onClear=${() => setQuery({ module_id: "" })} />`}
    ${backwards && html`<${Notice} tone="warning">The “From” date is after the “To” date, so nothing can match.</${Notice}>`}
    <div data-testid="email-log-list">
      <${DataTable} caption="Emails" columns=${columns} ...${list.tableProps}
        rowAttrs=${(r) => ({ "data-id": r.id, "data-status": r.status, "data-client-id": r.client_id || "" })}
        expanded=${(r) => (r.status === "failed" && r.error ? html`<span data-testid="email-error">${r.error}</span>` : null)}
        empty=${filtered ? "No email matches these filters." : "No email has been sent yet."} />
    </div>
  </main>`;
}
