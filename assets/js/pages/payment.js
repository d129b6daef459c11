// One payment (/payments/{id}): its receipt number, client, date, amount, mode and reference, the
// TDS noted, the advance it still holds, the invoices it settled, "Print receipt" (the PDF in a
// new tab) and, while it holds an advance, "Allocate advance" (a dialog of the client's open invoices).
// Owners and managers correct mistakes: "Cancel payment" (with a reason: the receipt keeps its
// number, the invoices owe again) and "Refund advance" (part or all of what it holds).
import { html, useState, useEffect, useRef } from "/vendor/preact-htm.js";
import { post } from "../api.js";
import { date, dateTime, rupees, isoDate, paiseFromRupees, rupeesInput } from "../format.js";
import {
  Card, Badge, Notice, Loading, Dialog, DataTable, Form, Field, MoneyField, DateField, SubmitButton, DialogActions, useForm, fieldError, toast,
  useFetch, useSession, useTitle, PageHeader, Link, Detail,
} from "../components.js";
import { isManagerial } from "../ui/clients.js";
import { NotFoundPage } from "../ui/errors.js";
import { docUrl } from "../ui/documents.js";
import { modeLabel, useOpenInvoices, readAllocations, allocationError, focusAllocation, AllocationPanel } from "../ui/payments.js";

const enc = encodeURIComponent;

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

/** Cancel with a required reason. onDone(the cancelled payment). */
function CancelPaymentDialog({ payment, onClose, onDone }) {
  const form = useForm({ reason: "" });
  const onSubmit = form.submit(async (v) => {
    if (!v.reason.trim()) throw fieldError("reason", "Give the reason for cancelling.");
    const cancelled = await post(`/api/payments/${enc(payment.id)}/cancel`, { reason: v.reason.trim() });
    toast.success(`Receipt ${payment.receipt_no} is cancelled.`);
    onDone(cancelled);
  });
  const settles = (payment.allocations || []).length;
  return html`<${Dialog} title=${`Cancel receipt ${payment.receipt_no}?`} onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Cancel payment">
      <p class="dialog-intro">The receipt keeps its number and stays on record, marked cancelled.
        ${settles ? ` The ${settles === 1 ? "invoice it settled owes" : `${settles} invoices it settled owe`} again.` : ""}
        Record the correct payment afresh afterwards.</p>
      <${Field} label="Reason" as="textarea" rows="3" maxLength="500" ...${form.field("reason")} autofocus
        hint="Kept on the payment and in the audit trail." />
      <${DialogActions} onClose=${onClose} saving=${form.saving} label="Cancel payment" tone="danger" closeLabel="Keep it" />
    </${Form}>
  </${Dialog}>`;
}

/** Give back part or all of the advance. onDone(the updated payment). */
function RefundDialog({ payment, onClose, onDone }) {
  const form = useForm({ amount: rupeesInput(payment.unallocated), refunded_on: isoDate(), reason: "" });
  const onSubmit = form.submit(async (v) => {
    const amount = paiseFromRupees(v.amount);
    if (amount === null || amount <= 0) throw fieldError("amount", "Rupees above zero, e.g. 5,000.");
    if (amount > payment.unallocated) throw fieldError("amount", `At most the advance held, ${rupees(payment.unallocated)}.`);
    if (!v.refunded_on) throw fieldError("refunded_on", "Give the date the money went back.");
    if (!v.reason.trim()) throw fieldError("reason", "Give the reason for the refund.");
    const updated = await post(`/api/payments/${enc(payment.id)}/refund`, { amount, refunded_on: v.refunded_on, reason: v.reason.trim() });
    toast.success(`${rupees(amount)} refunded. ${updated.unallocated > 0 ? `${rupees(updated.unallocated)} is still held.` : "No advance is held now."}`);
    onDone(updated);
  });
  return html`<${Dialog} title="Refund the advance" onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Refund advance">
      <p class="dialog-intro">${payment.receipt_no} holds <strong>${rupees(payment.unallocated)}</strong> for ${payment.client_name}.</p>
      <div class="form-grid">
        <${MoneyField} label="Amount refunded (₹)" ...${form.field("amount")} autofocus />
        <${DateField} label="Refunded on" name="refunded_on" value=${form.values.refunded_on} error=${form.errors.refunded_on}
          onChange=${(d) => form.set("refunded_on", d)} />
        <${Field} label="Reason" as="textarea" rows="2" maxLength="500" ...${form.field("reason")} wide />
      </div>
      <${DialogActions} onClose=${onClose} saving=${form.saving} label="Refund" />
    </${Form}>
  </${Dialog}>`;
}

function RefundsTable({ payment }) {
  const columns = [
    { key: "refunded_on", label: "Refunded on", render: (r) => date(r.refunded_on) },
    { key: "amount", label: "Amount", class: "num", render: (r) => html`<strong>${rupees(r.amount)}</strong>` },
    { key: "reason", label: "Reason", render: (r) => r.reason },
  ];
  return html`<div data-testid="refunds"><${DataTable} caption="Money given back from the advance" columns=${columns} rows=${payment.refunds} /></div>`;
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
  const [dialog, setDialog] = useState(null);
  useEffect(() => setPayment(data), [data]);
  const p = payment || data;
  useTitle(p ? `Receipt ${p.receipt_no}` : "Payment");

  if (error && (error.status === 404 || error.status === 400)) {
    return html`<${NotFoundPage} title="Payment not found" text="There is no such payment, or it is not one you recorded." />`;
  }
  const crumbs = html`<p class="crumbs"><${Link} href="/payments">← Payments</${Link}></p>`;
  if (error) return html`<main data-page="payment">${crumbs}<${PageHeader} title="Payment" /><${Notice} tone="danger" alert=${true}>${error.message}</${Notice}></main>`;
  if (!p) return html`<main data-page="payment">${null}${crumbs}<${PageHeader} title="Payment" /><${Loading} label="Loading the payment…" /></main>`;

  const cancelled = p.status === "cancelled";
  const held = p.unallocated > 0;
  const managerial = isManagerial(me);
  const title = html`Receipt <span class="doc-no" data-testid="receipt-no">${p.receipt_no}</span>`;
  const badge = cancelled
    ? html`<${Badge} tone="danger">Cancelled</${Badge}>`
    : held
      ? html`<${Badge} tone="warning">Advance held</${Badge}>`
      : html`<${Badge} tone="success">Fully allocated</${Badge}>`;
  const subtitle = html`<span class="badges header-badges" data-testid="payment-status">${badge}</span>
    <span class="header-meta">Client: <${Link} class="header-client" href=${`/clients/${enc(p.client_id)}`}>${p.client_name}</${Link}></span>`;
  const actions = html`<a class="btn" href=${`/api/payments/${enc(p.id)}/receipt.pdf`} target="_blank" rel="noopener">Print receipt</a>
    ${held && html`<button type="button" class="btn btn-primary" onClick=${() => setDialog("allocate")}>Allocate advance</button>`}
    ${held && managerial && html`<button type="button" class="btn" onClick=${() => setDialog("refund")}>Refund advance</button>`}
    ${!cancelled && managerial && !p.refunded && html`<button type="button" class="btn btn-danger" onClick=${() => setDialog("cancel")}>Cancel payment</button>`}`;
  const close = () => setDialog(null);
  const done = (updated) => {
    setDialog(null);
    setPayment(updated);
  };
  return html`<main data-page="payment" class="payment-page">
    ${dialog === "allocate" && html`<${AllocateDialog} payment=${p} onClose=${close} onDone=${done} />`}
    ${dialog === "refund" && html`<${RefundDialog} payment=${p} onClose=${close} onDone=${done} />`}
    ${dialog === "cancel" && html`<${CancelPaymentDialog} payment=${p} onClose=${close} onDone=${done} />`}
    ${crumbs}
    <${PageHeader} title=${title} subtitle=${subtitle} actions=${actions} />
    ${cancelled && html`<${Notice} tone="danger" title="This payment is cancelled" testid="cancelled-notice">
      Cancelled on ${date(p.cancelled_on)}: ${p.cancel_reason}. It settles nothing; the receipt keeps its number.</${Notice}>`}
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
          ${p.refunded > 0 && html`<${Detail} label="Refunded" value=${rupees(p.refunded)} testid="refunded" />`}
          <${Detail} label="Notes" value=${p.notes} wide />
        </dl>
        <p class="hint">Recorded ${dateTime(p.created_at)}${p.created_by === me.id ? " by you" : ""}.</p>
      </${Card}>
      <${Card} title="Invoices settled" class="section-card">
        <${AllocationsTable} payment=${p} />
      </${Card}>
      ${p.refunds && p.refunds.length > 0 && html`<${Card} title="Refunds" class="section-card"><${RefundsTable} payment=${p} /></${Card}>`}
    </div>
  </main>`;
}
