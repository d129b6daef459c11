// Documents: quotations, proforma invoices, tax invoices and credit notes, newest first, with
// search (number or client), type, status and date filters kept in the URL. Staff see the
// documents they made.
import { html } from "/vendor/preact-htm.js";
import { date, humanize, rupees } from "../format.js";
import {
  DataTable, useUrlList, SearchBox, FilterBar, FilterSelect, DateField, Notice, useSession, useTitle, PageHeader,
  Link, navigate,
} from "../components.js";
import { docUrl, TYPES, typeLabel, STATUSES, DocStatusBadge, PAYMENT_STATES, PaymentStateBadge } from "../ui/documents.js";
import { ClientFilter } from "../ui/clients.js";

const enc = encodeURIComponent;
const FILTER_KEYS = ["q", "type", "status", "payment_state", "client_id", "from", "to"];
const TYPE_FILTER = [{ value: "", label: "All types" }, ...TYPES.map((t) => ({ value: t, label: typeLabel(t) }))];
const STATUS_FILTER = [{ value: "", label: "All statuses" }, ...STATUSES.map((s) => ({ value: s, label: humanize(s) }))];
const PAYMENT_FILTER = [{ value: "", label: "Any (invoices)" }, ...PAYMENT_STATES];

const columns = [
  {
    key: "docNo", sortable: true, label: "Number",
    render: (r) => html`<${Link} class="cell-main" href=${docUrl(r.id)}>${r.docNo || html`<span class="draft-no">Draft</span>`}</${Link}>`,
  },
  { key: "type", sortable: true, label: "Type", render: (r) => typeLabel(r.type) },
  { key: "client_name", sortable: true, label: "Client", wrap: true, render: (r) => html`<${Link} href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>` },
  { key: "doc_date", sortable: true, label: "Date", render: (r) => (r.doc_date ? date(r.doc_date) : html`<span class="muted">—</span>`) },
  { key: "due_date", sortable: true, label: "Due", render: (r) => (r.due_date ? date(r.due_date) : html`<span class="muted">—</span>`) },
  { key: "status", sortable: true, label: "Status", render: (r) => html`<span class="badges"><${DocStatusBadge} status=${r.status} /><${PaymentStateBadge} state=${r.payment_state} /></span>` },
  { key: "total", sortable: true, label: "Total", class: "num", render: (r) => rupees(r.total) },
  {
    key: "outstanding", sortable: true, label: "Outstanding", class: "num",
    render: (r) => (r.outstanding === null || r.outstanding === undefined ? "" : r.outstanding > 0 ? rupees(r.outstanding) : html`<span class="muted">${rupees(0)}</span>`),
  },
];

export function DocumentsPage() {
  const { me } = useSession();
  useTitle("Documents");
  const list = useUrlList("/api/documents", FILTER_KEYS, { csv: true });
  const { query, setQuery } = list;
  const backwards = query.from && query.to && query.from > query.to;
  const filtered = FILTER_KEYS.some((k) => query[k]);
  const newHref = query.client_id ? `/documents/new?client_id=${enc(query.client_id)}` : "/documents/new";
  const actions = html`
    ${me.role === "owner" && html`<${Link} class="btn" href="/settings/company">Company settings</${Link}>`}
    <button type="button" class="btn btn-primary" onClick=${() => navigate(newHref)}>New document</button>`;
  return html`<main data-page="documents">
    <${PageHeader} title="Documents" actions=${actions}
      subtitle=${me.role === "staff" ? "Quotations, proforma invoices, tax invoices and credit notes you made, newest first." : "Quotations, proforma invoices, tax invoices and credit notes, newest first."} />
    <${FilterBar} label="Filter documents">
      <${SearchBox} value=${query.q || ""} label="Search" placeholder="Number or client…" onSearch=${(q) => setQuery({ q }, { replace: true })} />
      <${FilterSelect} label="Type" name="type" value=${query.type} options=${TYPE_FILTER} onChange=${(type) => setQuery({ type })} />
      <${FilterSelect} label="Status" name="status" value=${query.status} options=${STATUS_FILTER} onChange=${(status) => setQuery({ status })} />
      <${FilterSelect} label="Payment" name="payment_state" value=${query.payment_state} options=${PAYMENT_FILTER} onChange=${(payment_state) => setQuery({ payment_state })} />
      <${DateField} label="From" name="from" value=${query.from || ""} onChange=${(from) => setQuery({ from })} />
      <${DateField} label="To" name="to" value=${query.to || ""} onChange=${(to) => setQuery({ to })} />
      ${filtered && html`<div class="filter-clear"><button type="button" class="btn btn-sm"
        onClick=${() => setQuery(Object.fromEntries(FILTER_KEYS.map((k) => [k, ""])))}>Clear filters</button></div>`}
    </${FilterBar}>
    ${query.client_id && html`<${ClientFilter} id=${query.client_id} onClear=${() => setQuery({ client_id: "" })} />`}
    ${backwards && html`<${Notice} tone="warning">The “From” date is after the “To” date, so nothing can match.</${Notice}>`}
    <div data-testid="documents">
      <${DataTable} caption="Documents" columns=${columns} ...${list.tableProps}
        empty=${filtered ? "No document matches these filters." : "No documents yet: start one with New document."} />
    </div>
  </main>`;
}
