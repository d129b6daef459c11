// Renewals (/renewals): what renews in a date range (the server's today to 60 days ahead when the
// dates are empty), earliest first: module subscriptions at the price book's price on their
// renewal day and service contracts at their fixed amount, with the total of the whole range.
// One click per row: a module's renewal proforma, or (owner and manager, after a confirmation) a
// contract's renewal invoice; both open the new draft. A row whose live renewal document exists
// links it instead, so nobody makes a second. Filters in the URL; the CSV of the range.
import { html, useState } from "/vendor/preact-htm.js";
import { post } from "../api.js";
import { date, integer, rupees } from "../format.js";
import {
  DataTable, useUrlList, SearchBox, FilterBar, FilterChips, DateField, Badge, Notice, ConfirmDialog, EmptyState, toast, useSession,
  useTitle, PageHeader, Link, navigate,
} from "../components.js";
import { docUrl } from "../ui/documents.js";
import { isManagerial } from "../ui/clients.js";

const enc = encodeURIComponent;
const FILTER_KEYS = ["from", "to", "kind", "q"];
const KINDS = [
  { value: "", label: "All" },
  { value: "module", label: "Modules" },
  { value: "contract", label: "Contracts" },
];

/** "in 12 days", "today", "3 days ago" (red: past its day). */
function DaysUntil({ days }) {
  let text = "today";
  if (days === 1) text = "tomorrow";
  else if (days > 1) text = `in ${integer(days)} days`;
  else if (days === -1) text = "1 day ago";
  else if (days < -1) text = `${integer(-days)} days ago`;
  return html`<span class=${days < 0 ? "days-past" : ""} data-testid="days-until" data-days=${days}>${text}</span>`;
}

export function RenewalsPage() {
  const { me } = useSession();
  const managerial = isManagerial(me);
  useTitle("Renewals");
  const list = useUrlList("/api/renewals", FILTER_KEYS, { csv: true });
  const { query, setQuery, data } = list;
  const [busy, setBusy] = useState(null);
  const [confirming, setConfirming] = useState(null);
  const backwards = query.from && query.to && query.from > query.to;

  const quote = async (r) => {
    setBusy(r.id);
    try {
      const draft = await post(`/api/client-modules/${enc(r.id)}/renewal-quote`, {});
      toast.success(`Renewal proforma draft made for ${r.client_name}.`);
      navigate(docUrl(draft.id));
    } catch (err) {
      toast.error(err.message);
      setBusy(null);
    }
  };
  const renew = async (r) => {
    const draft = await post(`/api/service-contracts/${enc(r.id)}/renew`, {});
    setConfirming(null);
    toast.success(`Renewal invoice draft made for ${r.client_name}.`);
    navigate(docUrl(draft.id));
  };

  const action = (r) => {
    if (r.kind === "module" && r.renewal_document) {
      const pi = r.renewal_document;
      return html`<${Link} href=${docUrl(pi.id)} data-testid="renewal-proforma">${pi.docNo ? `Proforma ${pi.docNo}, ${pi.status}` : "Proforma draft"}</${Link}>`;
    }
    if (r.kind === "module") {
      return html`<button type="button" class="btn btn-sm" data-action="renewal-quote" disabled=${busy === r.id}
        aria-busy=${busy === r.id ? "true" : undefined} aria-label=${`Renewal proforma for ${r.client_name}: ${r.what}`}
        onClick=${() => quote(r)}>Renewal proforma</button>`;
    }
    if (r.document_id) {
      return html`<${Link} href=${docUrl(r.document_id)} data-testid="renewal-invoice">${r.docNo || "Draft invoice"}</${Link}>`;
    }
    return managerial
      ? html`<button type="button" class="btn btn-sm" data-action="renewal-invoice" aria-label=${`Renewal invoice for ${r.client_name}: ${r.what}`}
          onClick=${() => setConfirming(r)}>Renewal invoice</button>`
      : html`<span class="muted">Not renewed</span>`;
  };

  const columns = [
    { key: "due_on", label: "Due on", sortable: true, render: (r) => date(r.due_on) },
    { key: "days_until", label: "Days", sortable: true, render: (r) => html`<${DaysUntil} days=${r.days_until} />` },
    { key: "kind", label: "Kind", sortable: true, render: (r) => html`<${Badge} tone=${r.kind === "module" ? "info" : "neutral"}>${r.kind === "module" ? "Module" : "Contract"}</${Badge}>` },
    { key: "client_name", label: "Client", sortable: true, wrap: true, render: (r) => html`<${Link} href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>` },
    { key: "what", label: "What", sortable: true, wrap: true, render: (r) => html`<span class="cell-main">${r.what}</span>` },
    {
      key: "amount", label: "Amount", sortable: true, class: "num",
      render: (r) => (r.amount === null || r.amount === undefined ? html`<span class="muted">no price</span>` : html`<span data-testid="amount">${rupees(r.amount)}</span>`),
    },
    { key: "actions", label: "", class: "actions-col", render: action },
  ];

  const range = data ? `${date(data.from)} to ${date(data.to)}` : "";
  const filtered = FILTER_KEYS.some((k) => query[k]);
  const empty = filtered
    ? html`<${EmptyState} title=${`Nothing renews from ${range} with these filters.`}>
        <button type="button" class="btn btn-sm" onClick=${() => setQuery(Object.fromEntries(FILTER_KEYS.map((k) => [k, ""])))}>Clear filters</button></${EmptyState}>`
    : `Nothing renews from ${range}.`;
  return html`<main data-page="renewals">
    ${confirming && html`<${ConfirmDialog} title=${`Renew “${confirming.what}”?`} tone="primary" confirmLabel="Make renewal invoice"
      message=${html`<p>An invoice draft for ${confirming.client_name} is made for the contract's next period at ${rupees(confirming.amount)} plus GST, and opens so you can check and issue it.</p>`}
      onCancel=${() => setConfirming(null)} onConfirm=${() => renew(confirming)} />`}
    <${PageHeader} title="Renewals" subtitle=${me.role === "staff"
      ? "What your clients renew in the range, earliest first: module subscriptions and service contracts."
      : "What renews in the range, earliest first: module subscriptions at the price book's price, service contracts at their amount."} />
    <${FilterBar} label="Filter renewals">
      <${DateField} label="From" name="from" value=${query.from || ""} onChange=${(from) => setQuery({ from })}
        hint=${!query.from && data ? `Empty: today (${date(data.from)})` : undefined} />
      <${DateField} label="To" name="to" value=${query.to || ""} onChange=${(to) => setQuery({ to })}
        hint=${!query.to && data ? `Empty: ${date(data.to)}` : undefined} />
      <${FilterChips} label="Kind" value=${query.kind || ""} options=${KINDS} onChange=${(kind) => setQuery({ kind })} />
      <${SearchBox} value=${query.q || ""} label="Client" placeholder="Part of the name…" onSearch=${(q) => setQuery({ q }, { replace: true })} />
    </${FilterBar}>
    ${backwards && html`<${Notice} tone="warning">The “From” date is after the “To” date: choose a range that runs forwards.</${Notice}>`}
    ${data && html`<p class="renewals-summary">
      ${integer(data.total)} ${data.total === 1 ? "renewal" : "renewals"} from ${range}, worth <strong data-testid="renewals-total">${rupees(data.total_amount)}</strong> before GST.
    </p>`}
    <div data-testid="renewals">
      <${DataTable} caption="Renewals, earliest first" columns=${columns} empty=${empty} ...${list.tableProps}
        rowKey="_key" rows=${list.rows.map((r) => ({ ...r, _key: `${r.kind}-${r.id}` }))}
        rowAttrs=${(r) => ({ "data-id": r.id, "data-kind": r.kind, "data-past": r.days_until < 0 ? "1" : "0" })} />
    </div>
  </main>`;
}
