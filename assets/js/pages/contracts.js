// Service contracts (AMC): the list with search, period and paid-state filters kept in the URL
// (staff see the contracts of their clients). Owner and manager record and edit a contract in
// a dialog, and renew it, after a confirmation, into an invoice draft that opens at once.
import { html, useState } from "/vendor/preact-htm.js";
import { post, patch } from "../api.js";
import { date, rupees, rupeesInput, paiseFromRupees } from "../format.js";
import {
  DataTable, useUrlList, SearchBox, FilterBar, FilterSelect, Badge, ConfirmDialog, Dialog, Form, Field, DateField, MoneyField,
  DialogActions, useForm, fieldError, toast, useSession, useTitle, PageHeader, Link, navigate,
} from "../components.js";
import { ClientFilter, ClientPicker, isManagerial } from "../ui/clients.js";
import { docUrl } from "../ui/documents.js";

const enc = encodeURIComponent;
const FILTER_KEYS = ["q", "state", "paid_state", "client_id"];

/** A contract's paid state (from its renewal invoice), as the office says it. */
export const PAID_STATES = [
  { value: "none", label: "Not renewed", tone: "neutral" },
  { value: "draft", label: "Renewal draft", tone: "info" },
  { value: "unpaid", label: "Unpaid", tone: "warning" },
  { value: "part_paid", label: "Part paid", tone: "warning" },
  { value: "paid", label: "Paid", tone: "success" },
];
const STATE_FILTER = [{ value: "", label: "All periods" }, { value: "active", label: "Active" }, { value: "expired", label: "Expired" }];
const PAID_FILTER = [{ value: "", label: "Any" }, ...PAID_STATES];

function PaidChip({ state }) {
  const s = PAID_STATES.find((p) => p.value === state) || PAID_STATES[0];
  return html`<span data-testid="paid-state" data-state=${state}><${Badge} tone=${s.tone}>${s.label}</${Badge}></span>`;
}

const trimmed = (v) => (v || "").trim();

/** The form of a new contract (`contract` null) or of an existing one; onSaved(contract). */
function ContractDialog({ contract, onClose, onSaved }) {
  const start = {
    client_id: contract ? contract.client_id : "",
    description: contract ? contract.description : "",
    period_from: contract ? contract.period_from : "",
    period_to: contract ? contract.period_to : "",
    amount: contract ? rupeesInput(contract.amount) : "",
  };
  const form = useForm(start);
  const v = form.values;
  const onSubmit = form.submit(async (values) => {
    const body = {};
    for (const k of ["client_id", "description", "period_from", "period_to"]) {
      const value = k === "description" ? trimmed(values[k]) : values[k];
      if (!contract || value !== start[k]) body[k] = value;
    }
    if (trimmed(values.amount)) {
      const paise = paiseFromRupees(values.amount);
      if (paise === null) throw fieldError("amount", "Write the amount in rupees, e.g. 25,000.");
      if (!contract || values.amount !== start.amount) body.amount = paise;
    }
    // Left out when empty, so the server names every missing field at once.
    for (const k of Object.keys(body)) if (body[k] === "" && !contract) delete body[k];
    if (contract && Object.keys(body).length === 0) return onSaved(null);
    onSaved(contract ? await patch(`/api/service-contracts/${enc(contract.id)}`, body) : await post("/api/service-contracts", body));
  });
  const title = contract ? `Edit the contract of ${contract.client_name}` : "New service contract";
  return html`<${Dialog} title=${title} onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label=${title}>
      <div class="form-grid">
        ${contract
          ? html`<div class="field"><span class="field-label">Client</span><span class="static-value">${contract.client_name}</span></div>`
          : html`<${ClientPicker} value=${v.client_id} error=${form.errors.client_id} onChange=${(id) => form.set("client_id", id)} />`}
        <${Field} label="Description" ...${form.field("description")} wide autocomplete="off" placeholder="e.g. Core banking AMC" />
        <${DateField} label="Period from" name="period_from" value=${v.period_from} error=${form.errors.period_from}
          onChange=${(d) => form.set("period_from", d)} />
        <${DateField} label="Period to" name="period_to" value=${v.period_to} error=${form.errors.period_to}
          onChange=${(d) => form.set("period_to", d)} hint="The last day covered." />
        <${MoneyField} label="Amount (₹)" ...${form.field("amount")} hint="A period's fixed amount, before GST." />
      </div>
      <${DialogActions} onClose=${onClose} saving=${form.saving} label=${contract ? "Save changes" : "Save contract"} />
    </${Form}>
  </${Dialog}>`;
}

export function ContractsPage() {
  const { me } = useSession();
  useTitle("Service contracts");
  const list = useUrlList("/api/service-contracts", FILTER_KEYS, { csv: true });
  const { query, setQuery } = list;
  const canWrite = isManagerial(me);
  // One dialog at a time: { kind: "new" | "edit" | "renew", contract }.
  const [dialog, setDialog] = useState(null);
  const close = () => setDialog(null);
  const filtered = FILTER_KEYS.some((k) => query[k]);

  const renew = async (c) => {
    const draft = await post(`/api/service-contracts/${enc(c.id)}/renew`, {});
    close();
    toast.success(`Renewal invoice draft made for ${c.client_name}.`);
    navigate(docUrl(draft.id));
  };

  const columns = [
    { key: "client_name", sortable: true, label: "Client", wrap: true, render: (r) => html`<${Link} href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>` },
    { key: "description", sortable: true, label: "Description", wrap: true, render: (r) => html`<span class="cell-main">${r.description}</span>` },
    { key: "period_to", sortable: true, label: "Period", render: (r) => html`${date(r.period_from)} – ${date(r.period_to)}
      ${r.state === "expired" && html` <${Badge} tone="neutral">Expired</${Badge}>`}` },
    { key: "amount", sortable: true, label: "Amount", class: "num", render: (r) => rupees(r.amount) },
    {
      key: "renewal_docNo", sortable: true, label: "Renewal",
      render: (r) => (r.renewal_invoice_id && r.paid_state !== "none"
        ? html`<${Link} href=${docUrl(r.renewal_invoice_id)} data-testid="renewal-link">${r.renewal_docNo || "Draft invoice"}</${Link}>`
        : html`<span class="muted">—</span>`),
    },
    { key: "paid_state", label: "Paid", render: (r) => html`<${PaidChip} state=${r.paid_state} />` },
  ];
  if (canWrite) {
    columns.push({
      key: "actions", label: "Actions", class: "actions-col",
      render: (r) => html`<div class="row-actions">
        <button type="button" class="btn btn-sm" onClick=${() => setDialog({ kind: "edit", contract: r })}>Edit</button>
        ${r.paid_state === "none" && html`<button type="button" class="btn btn-sm" onClick=${() => setDialog({ kind: "renew", contract: r })}>Renew</button>`}
      </div>`,
    });
  }

  let dialogEl = null;
  if (dialog && (dialog.kind === "new" || dialog.kind === "edit")) {
    dialogEl = html`<${ContractDialog} contract=${dialog.contract || null} onClose=${close} onSaved=${(saved) => {
      close();
      if (!saved) return toast.info("Nothing to save: no field was changed.");
      list.reload();
      toast.success(`The contract of ${saved.client_name} is saved.`);
    }} />`;
  } else if (dialog && dialog.kind === "renew") {
    const c = dialog.contract;
    dialogEl = html`<${ConfirmDialog} title=${`Renew “${c.description}”?`} tone="primary" confirmLabel="Renew contract"
      message=${html`<p>An invoice draft for ${c.client_name} is made for the next period at ${rupees(c.amount)} plus GST, and opens so you can check and issue it.</p>`}
      onCancel=${close} onConfirm=${() => renew(c)} />`;
  }

  const empty = filtered
    ? html`<div class="empty-state"><p class="empty-title">No contract matches these filters.</p>
        <button type="button" class="btn btn-sm" onClick=${() => setQuery(Object.fromEntries(FILTER_KEYS.map((k) => [k, ""])))}>Clear filters</button></div>`
    : canWrite ? "No service contracts yet: record one with New contract." : "No service contracts for your clients yet.";
  return html`<main data-page="contracts">
    ${dialogEl}
    <${PageHeader} title="Service contracts"
      subtitle=${me.role === "staff" ? "Maintenance contracts of your clients, newest first." : "Maintenance contracts (AMC), newest first, with the invoice that renews each."}
      actions=${canWrite && html`<button type="button" class="btn btn-primary" onClick=${() => setDialog({ kind: "new" })}>New contract</button>`} />
    <${FilterBar} label="Filter service contracts">
      <${SearchBox} value=${query.q || ""} label="Search" placeholder="Client or description…" onSearch=${(q) => setQuery({ q }, { replace: true })} />
      <${FilterSelect} label="Period" name="state" value=${query.state} options=${STATE_FILTER} onChange=${(state) => setQuery({ state })} />
      <${FilterSelect} label="Paid" name="paid_state" value=${query.paid_state} options=${PAID_FILTER} onChange=${(paid_state) => setQuery({ paid_state })} />
    </${FilterBar}>
    ${query.client_id && html`<${ClientFilter} id=${query.client_id} onClear=${() => setQuery({ client_id: "" })} />`}
    <div data-testid="contracts">
      <${DataTable} caption="Service contracts" columns=${columns} empty=${empty} ...${list.tableProps} />
    </div>
  </main>`;
}
