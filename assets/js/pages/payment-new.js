// Record a payment (/payments/new): who paid, when, how much and how, then the client's open
// invoices it settles (money and TDS per invoice). What is not allocated stays as an advance.
// Reached from a client (?client_id=) or an invoice (?document_id=: its client, its whole
// outstanding as the payment, and its row ticked with that outstanding). While the amount is the
// one the page filled in, choosing the TDS settles the ticked invoices with money + TDS and the
// amount received becomes their money part (the society pays net of TDS). Leaving asks about
// unsaved changes only when something differs from what the page filled in.
import { html, useState, useEffect, useRef } from "/vendor/preact-htm.js";
import { post } from "../api.js";
import { isoDate, rupeesInput, paiseFromRupees, rupees } from "../format.js";
import {
  Card, Notice, Loading, Form, Field, MoneyField, DateField, SubmitButton, useForm, fieldError, toast, useFetch, useTitle, useQuery,
  PageHeader, Link, navigate, useLeaveGuard,
} from "../components.js";
import { ClientPicker } from "../ui/clients.js";
import { docUrl } from "../ui/documents.js";
import {
  MODES, TDS_RATES, paymentUrl, useOpenInvoices, readAllocations, allocationError, focusAllocation, AllocationPanel, splitReceived, tdsAt,
} from "../ui/payments.js";

const enc = encodeURIComponent;

/** The client named by the link (read-only), with a link to the client's page. */
function FixedClient({ id, name }) {
  return html`<div class="field"><span class="field-label">Client</span>
    <${Link} class="cell-main static-value" href=${`/clients/${enc(id)}`} data-testid="payment-client">${name || "…"}</${Link}></div>`;
}

function PaymentForm({ givenClient, documentId }) {
  const invoice = useFetch(documentId ? `/api/documents/${enc(documentId)}` : null);
  const client = useFetch(givenClient && !documentId ? `/api/clients/${enc(givenClient)}` : null);
  const form = useForm({ client_id: documentId ? "" : givenClient, received_on: isoDate(), amount: "", mode: "cash", reference: "", notes: "" });
  const v = form.values;
  const [values, setValues] = useState({});
  // The invoices ticked to settle, and the TDS the society deducted ("" none, a rate, or typed).
  const [picked, setPicked] = useState([]);
  const [tdsRate, setTdsRate] = useState("");
  // The rows as the page set them up (nothing, or the invoice's row ticked): changed rows ask before leaving.
  const [rowsStart, setRowsStart] = useState(() => JSON.stringify([[], {}, ""]));
  useLeaveGuard((form.dirty || JSON.stringify([picked, values, tdsRate]) !== rowsStart) && !form.saving);
  // Once the amount is typed it is the user's; until then, from an invoice, it follows the money allocated.
  const [amountTyped, setAmountTyped] = useState(false);
  const [rowErrors, setRowErrors] = useState({});
  const [listError, setListError] = useState(null);
  const open = useOpenInvoices(v.client_id);
  const listRef = useRef(null);
  const doc = invoice.data;
  const follows = !!doc && !amountTyped;

  // From an invoice: its client, and its whole outstanding as the amount received (the form's start)…
  useEffect(() => {
    if (!doc) return;
    form.reset({ ...form.values, client_id: doc.client_id, amount: form.values.amount || (doc.outstanding > 0 ? rupeesInput(doc.outstanding) : "") });
  }, [doc]);
  // …and that invoice's row ticked, its outstanding as the money.
  const docRow = doc && open.loaded ? open.rows.find((r) => r.document_id === doc.id) : null;
  useEffect(() => {
    if (!docRow) return;
    const start = { [docRow.document_id]: { amount: rupeesInput(docRow.outstanding), tds: "" } };
    setPicked([docRow.document_id]);
    setValues(start);
    setRowsStart(JSON.stringify([[docRow.document_id], start, ""]));
  }, [docRow && docRow.document_id]);

  // The money received is split over the ticked invoices whenever they, the amount or the TDS
  // change. While the amount follows, the ticked invoices are settled whole (money + TDS) and the
  // amount received becomes their money.
  const split = (nextPicked, rate, base = values) => {
    setPicked(nextPicked);
    setTdsRate(rate);
    const mine = open.rows.filter((r) => nextPicked.includes(r.document_id));
    const following = follows && mine.length > 0;
    const received = following ? mine.reduce((sum, r) => sum + r.outstanding, 0) : paiseFromRupees(form.values.amount);
    const next = splitReceived(open.rows, nextPicked, received, rate, base);
    setValues(next);
    if (following) form.set("amount", rupeesInput(readAllocations(mine, next).money));
    setRowErrors({});
    setListError(null);
  };
  useEffect(() => {
    if (picked.length) split(picked, tdsRate);
  }, [v.amount]);
  const pick = (id, checked) => {
    const next = checked ? [...picked, id] : picked.filter((p) => p !== id);
    split(next, tdsRate, checked ? values : { ...values, [id]: { amount: "", tds: "" } });
  };
  // A row's "TDS 10%" / "TDS 2%". On a ticked row: its TDS at that rate and money that, with it,
  // settles the invoice (the amount received following while it is the page's); on another row,
  // only its TDS.
  const chooseTds = (id, pct) => {
    const inv = open.rows.find((r) => r.document_id === id);
    const tds = tdsAt(inv.taxable, pct);
    const row = values[id] || { amount: "", tds: "" };
    if (!picked.includes(id)) return changeRows({ ...values, [id]: { ...row, tds: rupeesInput(tds) } });
    const rate = picked.length === 1 || tdsRate === String(pct) ? String(pct) : "typed";
    const typed = { ...values, [id]: { ...row, tds: rupeesInput(tds) } };
    if (follows) return split(picked, rate, typed);
    const had = paiseFromRupees(row.amount || "0");
    const money = had === null ? null : Math.min(had, Math.max(0, inv.outstanding - tds));
    setTdsRate(rate);
    changeRows({ ...values, [id]: { amount: money === null ? row.amount : money ? rupeesInput(money) : "", tds: rupeesInput(tds) } });
  };

  const chooseClient = (id) => {
    form.set("client_id", id);
    setPicked([]);
    setValues({});
    setRowErrors({});
    setListError(null);
  };
  const changeRows = (next) => {
    setValues(next);
    setRowErrors({});
    setListError(null);
  };

  const read = readAllocations(open.rows, values);
  const typed = paiseFromRupees(v.amount);
  const available = typed !== null && typed > 0 ? typed : 0;
  const over = read.money > available;

  const onSubmit = form.submit(async (vals) => {
    setRowErrors({});
    setListError(null);
    if (!vals.client_id) throw fieldError("client_id", "Choose the client who paid.");
    if (!vals.received_on) throw fieldError("received_on", "Give the date the money was received.");
    if (!vals.amount.trim()) throw fieldError("amount", "Give the amount received.");
    const amount = paiseFromRupees(vals.amount);
    if (amount === null || amount <= 0) throw fieldError("amount", "Rupees above zero, e.g. 25,000 or 2,500.50.");
    const rows = readAllocations(open.rows, values);
    const bad = Object.keys(rows.errors);
    if (bad.length) {
      setRowErrors(rows.errors);
      return focusAllocation(listRef.current, bad[0], Object.keys(rows.errors[bad[0]])[0]);
    }
    if (rows.money > amount) return setListError(`The invoices take ${rupees(rows.money)} of money, but the payment is ${rupees(amount)}.`);
    const body = { client_id: vals.client_id, received_on: vals.received_on, amount, mode: vals.mode, allocations: rows.allocations };
    if (vals.reference.trim()) body.reference = vals.reference.trim();
    if (vals.notes.trim()) body.notes = vals.notes.trim();
    try {
      const payment = await post("/api/payments", body);
      toast.success(`Receipt ${payment.receipt_no} recorded.`);
      navigate(paymentUrl(payment.id));
    } catch (err) {
      const at = allocationError(err, rows.sent);
      if (!at) throw err;
      if (at.list) return setListError(at.list);
      setRowErrors(at.rows);
      return focusAllocation(listRef.current, at.id, at.key);
    }
  });

  if (invoice.error || client.error) {
    const err = invoice.error || client.error;
    const what = invoice.error ? "invoice" : "client";
    return html`<${Notice} tone="danger" alert=${true} title=${err.status === 404 ? `No such ${what}` : undefined}>
      ${err.status === 404 ? `The ${what} is not there, or it is not in your book.` : err.message}
      <p><${Link} href="/payments/new">Record a payment for another client</${Link}></p></${Notice}>`;
  }
  if (documentId && !doc) return html`<${Loading} label="Loading the invoice…" />`;

  const amountField = form.field("amount");
  const fixedName = doc ? doc.client_name : client.data ? client.data.name : "";
  const nothingDue = doc && open.loaded && !docRow;
  return html`<${Form} onSubmit=${onSubmit} error=${form.formError} label="Record payment" class="payment-form">
    <${Card} title="Payment" class="section-card">
      ${doc && html`<p class="card-lead">For invoice <${Link} href=${docUrl(doc.id)}>${doc.docNo || "draft"}</${Link}>:${" "}
        <strong>${rupees(doc.outstanding ?? doc.total)}</strong> outstanding of ${rupees(doc.total)}.</p>`}
      ${nothingDue && html`<${Notice} tone="warning">${doc.docNo || "This document"} has nothing outstanding: the payment can settle the client's other invoices or be held as an advance.</${Notice}>`}
      <div class="form-grid payment-grid">
        ${documentId || givenClient
          ? html`<${FixedClient} id=${v.client_id || givenClient} name=${fixedName} />`
          : html`<${ClientPicker} value=${v.client_id} error=${form.errors.client_id} onChange=${chooseClient} />`}
        <${DateField} label="Received on" name="received_on" value=${v.received_on} error=${form.errors.received_on}
          onChange=${(d) => form.set("received_on", d)} />
        <${MoneyField} label="Amount received (₹)" ...${amountField}
          onInput=${(e) => { setAmountTyped(true); amountField.onInput(e); }} hint="The money received, without the TDS the society kept." />
        <${Field} label="Mode" as="select" ...${form.field("mode")} options=${MODES} />
        <${Field} label="Cheque no. / UTR" ...${form.field("reference")} optional autocomplete="off" maxLength="100" />
      </div>
      <div class="form-grid payment-notes">
        <${Field} label="Notes" as="textarea" rows="2" ...${form.field("notes")} optional maxLength="2000" />
      </div>
    </${Card}>
    <${Card} title="Invoices it settles" class="section-card alloc-card">
      ${!v.client_id
        ? html`<p class="hint">Choose the client to see their open invoices.</p>`
        : html`<p class="card-lead hint">Tick the invoices this payment settles: the amount received is split over them, oldest
            first, with the TDS the society deducted. Each row can still be changed by hand. What is not allocated is held as an
            advance for the client.</p>
          <div class="tds-choice">
            <label class="check"><input type="checkbox" name="tds_deducted" checked=${!!tdsRate} disabled=${form.saving}
              onChange=${(e) => split(picked, e.currentTarget.checked ? "10" : "")} /> TDS deducted</label>
            ${tdsRate && html`<select class="control control-sm" name="tds_rate" aria-label="TDS deducted" value=${tdsRate}
              onChange=${(e) => split(picked, e.currentTarget.value)}>
              ${TDS_RATES.map((r) => html`<option value=${r.value}>${r.label}</option>`)}</select>`}
          </div>
          <div ref=${listRef}>
            <${AllocationPanel} open=${open} values=${values} onChange=${changeRows} errors=${rowErrors} listError=${listError}
              available=${available} read=${read} disabled=${form.saving} picked=${picked} onPick=${pick} onTds=${chooseTds}
              empty="Nothing is outstanding on this client's invoices: the whole payment is held as an advance." />
          </div>`}
    </${Card}>
    <div class="form-actions">
      <${SubmitButton} saving=${form.saving} disabled=${over}>Record payment</${SubmitButton}>
      <${Link} class="btn" href=${doc ? docUrl(doc.id) : givenClient ? `/clients/${enc(givenClient)}` : "/payments"}>Cancel</${Link}>
      ${over && html`<span class="field-error">The allocations are more than the payment.</span>`}
    </div>
  </${Form}>`;
}

export function PaymentNewPage() {
  useTitle("Record payment");
  const [query] = useQuery();
  const givenClient = query.client_id || "";
  const documentId = query.document_id || "";
  return html`<main data-page="payment-new" class="payment-new-page">
    <p class="crumbs"><${Link} href="/payments">← Payments</${Link}></p>
    <${PageHeader} title="Record payment" subtitle="Money received from a society and the invoices it settles. The receipt number is given when it is recorded." />
    <${PaymentForm} key=${`${givenClient}|${documentId}`} givenClient=${givenClient} documentId=${documentId} />
  </main>`;
}
