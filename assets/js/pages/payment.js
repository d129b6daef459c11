// One payment (/payments/{id}): its receipt number, client, date, amount, mode and reference, the
// TDS noted, the advance it still holds, the invoices it settled, "Print receipt" (the PDF in a
// new tab) and, while it holds an advance, "Allocate advance" (a dialog of the client's open invoices).
import { html, useState, useEffect, useRef } from "/vendor/preact-htm.js";
import { post } from "../api.js";
import { date, dateTime, rupees } from "../format.js";
import {
  Card, Badge, Notice, Loading, Dialog, DataTable, Form, SubmitButton, useForm, toast, useFetch, useSession, useTitle, PageHeader, Link,
} from "../components.js";
import { NotFoundPage } from "./errors.js";
import { docUrl } from "./document-shared.js";
import { modeLabel, useOpenInvoices, readAllocations, allocationError, focusAllocation, AllocationPanel } from "./payment-allocations.js";

const enc = encodeURIComponent;

function Detail({ label, value, testid, wide }) {
  const empty = value === null || value === undefined || value === "";
  return html`<div class=${`detail${wide ? " wide" : ""}`}><dt>${label}</dt>
    <dd class=${wide ? "pre-wrap" : ""} data-testid=${testid}>${empty ? html`<span class="muted">—</span>` : value}</dd></div>`;
}

/** Applies what the payment holds to the client's open invoices. onDone(the updated payment). */
function AllocateDialog({ payment, onClose, onDone }) {
  const open = useOpenInvoices(payment.client_id);
  const [values, setValues] = useState({});
  const [rowErrors, setRowErrors] = useState({});
  const [listError, setListError] = useState(null);
  const listRef = useRef(null);
  const form = useForm({});
  const read = readAllocations(open.rows, values);
  const over = read.money > payment.unallocated;
  const change = (next) => {
    setValues(next);
    setRowErrors({});
    setListError(null);
  };
  const onSubmit = form.submit(async () => {
    setRowErrors({});
    setListError(null);
    const rows = readAllocations(open.rows, values);
    const bad = Object.keys(rows.errors);
    if (bad.length) {
      setRowErrors(rows.errors);
      return focusAllocation(listRef.current, bad[0], Object.keys(rows.errors[bad[0]])[0]);
    }
    if (rows.allocations.length === 0) return setListError("Give the money (or TDS) for at least one invoice.");
    if (rows.money > payment.unallocated) return setListError(`The invoices take ${rupees(rows.money)}, but the advance is ${rupees(payment.unallocated)}.`);
    try {
      const updated = await post(`/api/payments/${enc(payment.id)}/allocate`, { allocations: rows.allocations });
      toast.success(updated.unallocated > 0 ? `Allocated. ${rupees(updated.unallocated)} is still held as an advance.` : "Allocated: no advance is held now.");
      onDone(updated);
    } catch (err) {
      const at = allocationError(err, rows.sent);
      if (!at) throw err;
      if (at.list) return setListError(at.list);
      setRowErrors(at.rows);
      return focusAllocation(listRef.current, at.id, at.key);
    }
  });
  return html`<${Dialog} title="Allocate the advance" size="wide" onClose=${onClose} closable=${!form.saving} class="allocate-dialog">
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Allocate advance">
      <p class="dialog-intro">${payment.receipt_no} holds <strong>${rupees(payment.unallocated)}</strong> for ${payment.client_name}.
        Give the money for each invoice it settles, and any TDS the society deducted.</p>
      <div ref=${listRef}>
        <${AllocationPanel} open=${open} values=${values} onChange=${change} errors=${rowErrors} listError=${listError}
          available=${payment.unallocated} read=${read} disabled=${form.saving} empty="No invoice of this client has anything outstanding." />
      </div>
      <div class="dialog-actions">
        <button type="button" class="btn" onClick=${onClose} disabled=${form.saving}>Cancel</button>
        <${SubmitButton} saving=${form.saving} disabled=${over}>Allocate</${SubmitButton}>
      </div>
    </${Form}>
  </${Dialog}>`;
}

function AllocationsTable({ payment }) {
  const columns = [
    { key: "docNo", label: "Invoice", render: (a) => html`<${Link} class="cell-main" href=${docUrl(a.document_id)}>${a.docNo || "Invoice"}</${Link}>` },
    { key: "amount", label: "Money", class: "num", render: (a) => rupees(a.amount) },
    { key: "tds", label: "TDS", class: "num", render: (a) => (a.tds ? rupees(a.tds) : html`<span class="muted">—</span>`) },
    { key: "settled", label: "Settled", class: "num", render: (a) => html`<strong>${rupees(a.amount + a.tds)}</strong>` },
    { key: "created_at", label: "Allocated", render: (a) => dateTime(a.created_at) },
  ];
  return html`<div data-testid="allocations">
    <${DataTable} caption="Invoices this payment settled" columns=${columns} rows=${payment.allocations || []}
      empty="No invoice yet: the whole amount is held as an advance." />
  </div>`;
}

export function PaymentPage({ id }) {
  const { me } = useSession();
  const { data, error } = useFetch(`/api/payments/${enc(id)}`);
  const [payment, setPayment] = useState(null);
  const [allocating, setAllocating] = useState(false);
  useEffect(() => setPayment(data), [data]);
  const p = payment || data;
  useTitle(p ? `Receipt ${p.receipt_no}` : "Payment");

  if (error && (error.status === 404 || error.status === 400)) {
    return html`<${NotFoundPage} title="Payment not found" text="There is no such payment, or it is not one you recorded." />`;
  }
  const crumbs = html`<p class="crumbs"><${Link} href="/payments">← Payments</${Link}></p>`;
  if (error) return html`<main data-page="payment">${crumbs}<${PageHeader} title="Payment" /><${Notice} tone="danger" alert=${true}>${error.message}</${Notice}></main>`;
  if (!p) return html`<main data-page="payment">${null}${crumbs}<${PageHeader} title="Payment" /><${Loading} label="Loading the payment…" /></main>`;

  const held = p.unallocated > 0;
  const title = html`Receipt <span class="doc-no" data-testid="receipt-no">${p.receipt_no}</span>`;
  const subtitle = html`<span class="badges header-badges">${held
      ? html`<${Badge} tone="warning">Advance held</${Badge}>`
      : html`<${Badge} tone="success">Fully allocated</${Badge}>`}</span>
    <span class="header-meta">Client: <${Link} class="header-client" href=${`/clients/${enc(p.client_id)}`}>${p.client_name}</${Link}></span>`;
  const actions = html`<a class="btn" href=${`/api/payments/${enc(p.id)}/receipt.pdf`} target="_blank" rel="noopener">Print receipt</a>
    ${held && html`<button type="button" class="btn btn-primary" onClick=${() => setAllocating(true)}>Allocate advance</button>`}`;
  return html`<main data-page="payment" class="payment-page">
    ${allocating && html`<${AllocateDialog} payment=${p} onClose=${() => setAllocating(false)}
      onDone=${(updated) => { setAllocating(false); setPayment(updated); }} />`}
    ${crumbs}
    <${PageHeader} title=${title} subtitle=${subtitle} actions=${actions} />
    ${held && html`<${Notice} tone="warning">${rupees(p.unallocated)} of this payment is not allocated to any invoice: it is held as an advance for the client.</${Notice}>`}
    <div class="stack">
      <${Card} title="Details" class="section-card">
        <dl class="details">
          <${Detail} label="Receipt no." value=${p.receipt_no} />
          <${Detail} label="Client" value=${html`<${Link} href=${`/clients/${enc(p.client_id)}`}>${p.client_name}</${Link}>`} />
          <${Detail} label="Received on" value=${date(p.received_on)} />
          <${Detail} label="Amount" value=${html`<strong>${rupees(p.amount)}</strong>`} testid="amount" />
          <${Detail} label="Mode" value=${modeLabel(p.mode)} testid="mode" />
          <${Detail} label="Cheque no. / UTR" value=${p.reference} testid="reference" />
          <${Detail} label="TDS" value=${rupees(p.tds)} testid="tds" />
          <${Detail} label="Advance held" value=${rupees(p.unallocated)} testid="unallocated" />
          <${Detail} label="Notes" value=${p.notes} wide />
        </dl>
        <p class="hint">Recorded ${dateTime(p.created_at)}${p.created_by === me.id ? " by you" : ""}.</p>
      </${Card}>
      <${Card} title="Invoices settled" class="section-card">
        <${AllocationsTable} payment=${p} />
      </${Card}>
    </div>
  </main>`;
}
