// Payments received, newest first, with search (receipt number, reference or client), client,
// mode and date filters kept in the URL. Staff see the payments they recorded.
import { html } from "/vendor/preact-htm.js";
import { date, rupees } from "../format.js";
import {
  DataTable, useUrlList, SearchBox, FilterBar, FilterSelect, DateField, Notice, Badge, useSession, useTitle, PageHeader, Link, navigate,
} from "../components.js";
import { ClientFilter } from "../ui/clients.js";
import { MODES, modeLabel, paymentUrl, advanceCell } from "../ui/payments.js";

const enc = encodeURIComponent;
const FILTER_KEYS = ["q", "client_id", "mode", "status", "from", "to"];
const MODE_FILTER = [{ value: "", label: "All modes" }, ...MODES];
const STATUS_FILTER = [{ value: "", label: "Recorded and cancelled" }, { value: "recorded", label: "Recorded" }, { value: "cancelled", label: "Cancelled" }];

const columns = [
  {
    key: "receipt_no", sortable: true, label: "Receipt no.",
    render: (r) => html`<${Link} class="cell-main" href=${paymentUrl(r.id)}>${r.receipt_no}</${Link}>${r.status === "cancelled" && html` <${Badge} tone="danger">Cancelled</${Badge}>`}`,
  },
  { key: "received_on", sortable: true, label: "Date", render: (r) => date(r.received_on) },
  { key: "client_name", sortable: true, label: "Client", wrap: true, render: (r) => html`<${Link} href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>` },
  { key: "mode", sortable: true, label: "Mode", render: (r) => modeLabel(r.mode) },
  { key: "reference", sortable: true, label: "Cheque no. / UTR", render: (r) => r.reference || html`<span class="muted">—</span>` },
  { key: "amount", sortable: true, label: "Amount", class: "num", render: (r) => html`<strong>${rupees(r.amount)}</strong>` },
  { key: "unallocated", label: "Advance held", class: "num", render: (r) => advanceCell(r.unallocated) },
];

export function PaymentsPage() {
  const { me } = useSession();
  useTitle("Payments");
  const list = useUrlList("/api/payments", FILTER_KEYS, { csv: true });
  const { query, setQuery } = list;
  const backwards = query.from && query.to && query.from > query.to;
  const filtered = FILTER_KEYS.some((k) => query[k]);
  const newHref = query.client_id ? `/payments/new?client_id=${enc(query.client_id)}` : "/payments/new";
  return html`<main data-page="payments">
    <${PageHeader} title="Payments"
      subtitle=${me.role === "staff" ? "Money received that you recorded, newest first." : "Money received from clients, newest first."}
      actions=${html`<button type="button" class="btn btn-primary" onClick=${() => navigate(newHref)}>Record payment</button>`} />
    <${FilterBar} label="Filter payments">
      <${SearchBox} value=${query.q || ""} label="Search" placeholder="Receipt no., reference or client…" onSearch=${(q) => setQuery({ q }, { replace: true })} />
      <${FilterSelect} label="Mode" name="mode" value=${query.mode} options=${MODE_FILTER} onChange=${(mode) => setQuery({ mode })} />
      <${FilterSelect} label="Status" name="status" value=${query.status} options=${STATUS_FILTER} onChange=${(status) => setQuery({ status })} />
      <${DateField} label="From" name="from" value=${query.from || ""} onChange=${(from) => setQuery({ from })} />
      <${DateField} label="To" name="to" value=${query.to || ""} onChange=${(to) => setQuery({ to })} />
      ${filtered && html`<div class="filter-clear"><button type="button" class="btn btn-sm"
        onClick=${() => setQuery(Object.fromEntries(FILTER_KEYS.map((k) => [k, ""])))}>Clear filters</button></div>`}
    </${FilterBar}>
    ${query.client_id && html`<${ClientFilter} id=${query.client_id} onClear=${() => setQuery({ client_id: "" })} />`}
    ${backwards && html`<${Notice} tone="warning">The “From” date is after the “To” date, so nothing can match.</${Notice}>`}
    <div data-testid="payments">
      <${DataTable} caption="Payments" columns=${columns} ...${list.tableProps}
        empty=${filtered ? "No payment matches these filters." : "No payments yet: record one with Record payment."} />
    </div>
  </main>`;
}
