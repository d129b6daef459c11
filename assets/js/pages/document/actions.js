// What can be done to an issued document, offered only when its state and the user's role allow
// it: mark sent, accept, mark lost, convert, supersede, cancel (a reason, owner and manager; an
// invoice with payments or live credit notes first says what to do: open the payment or move it
// to advance, open the credit note) and credit note (owner and manager, an issued invoice: the
// whole invoice or chosen lines). A conversion to an invoice re-prices its lines on the draft's
// date: the lines whose price moved are told on the new draft's page (`<PriceChanges>`), each
// with "Keep the quoted price".
import { html, useState, useRef } from "/vendor/preact-htm.js";
import { post, patch } from "../../api.js";
import { date, rupees, rupeesInput, paiseFromRupees } from "../../format.js";
import {
  Dialog, Form, Field, useForm, fieldError, toast, navigate, RowsEditor, keyed, listFieldError, focusRowControl, DialogActions, Link, Notice,
} from "../../components.js";
import { docUrl, docNumber, typeLabel } from "../../ui/documents.js";
import { isManagerial } from "../../ui/clients.js";
import { keepWarnings, readWarnings, dropWarnings } from "./warnings.js";
import { paymentUrl } from "../../ui/payments.js";

const enc = encodeURIComponent;
const action = (doc, name, body = {}) => post(`/api/documents/${enc(doc.id)}/${name}`, body);

/** What stands in the way of cancelling an invoice: its payments and its live credit notes. */
export const cancelBlockers = (doc) => (doc.type === "INVOICE"
  ? { payments: doc.payments || [], notes: (doc.credit_notes || []).filter((n) => n.status !== "cancelled") }
  : { payments: [], notes: [] });

/**
 * Why an invoice cannot be cancelled yet, with the way out: each payment opens, or (owner and
 * manager) moves back to its advance; each credit note opens. onRefresh() re-reads the invoice.
 */
function CancelBlocked({ doc, blockers, onClose, onRefresh }) {
  const [moving, setMoving] = useState(null);
  const [problem, setProblem] = useState(null);
  const moveToAdvance = async (p) => {
    setMoving(p.payment_id);
    setProblem(null);
    try {
      await post(`/api/payments/${enc(p.payment_id)}/unallocate`, { document_id: doc.id });
      toast.success(`${p.receipt_no} is held as an advance now; ${doc.docNo} owes it again.`);
      onRefresh();
    } catch (err) {
      setProblem(err.message || "That did not work. Try again.");
    } finally {
      setMoving(null);
    }
  };
  return html`<${Dialog} title=${`${doc.docNo} cannot be cancelled yet`} onClose=${onClose}>
    <div data-testid="cancel-blocked">
      <p class="dialog-intro">Money allocated to a cancelled invoice would be neither owed nor free to use, and a credit note would credit nothing.
        First ${blockers.payments.length ? "cancel each payment, or move it to the payment's advance" : ""}${blockers.payments.length && blockers.notes.length ? ", and " : ""}${blockers.notes.length ? "cancel each credit note" : ""}.</p>
      ${problem && html`<${Notice} tone="danger" alert=${true}>${problem}</${Notice}>`}
      ${blockers.payments.length > 0 && html`<h3 class="dialog-subhead">Payments allocated to it</h3>
        <ul class="plain-list blocker-list">${blockers.payments.map((p) => html`<li key=${p.payment_id} data-payment-id=${p.payment_id}>
          <${Link} href=${paymentUrl(p.payment_id)}>${p.receipt_no}</${Link}>
          <span class="muted"> ${date(p.received_on)} · ${rupees(p.amount)}${p.tds ? ` + TDS ${rupees(p.tds)}` : ""}</span>
          <button type="button" class="btn btn-sm" data-action="move-to-advance" disabled=${!!moving} aria-busy=${moving === p.payment_id ? "true" : undefined}
            onClick=${() => moveToAdvance(p)}>Move to advance</button></li>`)}</ul>`}
      ${blockers.notes.length > 0 && html`<h3 class="dialog-subhead">Credit notes against it</h3>
        <ul class="plain-list blocker-list">${blockers.notes.map((n) => html`<li key=${n.id} data-note-id=${n.id}>
          <${Link} href=${docUrl(n.id)}>${n.docNo || "Credit note"}</${Link}><span class="muted"> ${date(n.doc_date)} · ${rupees(n.total)}</span></li>`)}</ul>`}
      <div class="dialog-actions"><button type="button" class="btn" onClick=${onClose}>Close</button></div>
    </div>
  </${Dialog}>`;
}

/**
 * Cancel with a required reason; the number stays used. An invoice with payments or live credit
 * notes shows what to do first instead. onDone(the cancelled document); onRefresh() re-reads it.
 */
export function CancelDialog({ doc, onClose, onDone, onRefresh }) {
  const blockers = cancelBlockers(doc);
  if (blockers.payments.length || blockers.notes.length) {
    return html`<${CancelBlocked} doc=${doc} blockers=${blockers} onClose=${onClose} onRefresh=${onRefresh} />`;
  }
  return html`<${CancelForm} doc=${doc} onClose=${onClose} onDone=${onDone} />`;
}

function CancelForm({ doc, onClose, onDone }) {
  const form = useForm({ reason: "" });
  const onSubmit = form.submit(async (v) => {
    if (!v.reason.trim()) throw fieldError("reason", "Give the reason for cancelling.");
    const cancelled = await action(doc, "cancel", { reason: v.reason.trim() });
    toast.success(`${doc.docNo || "The draft"} is cancelled.`);
    onDone(cancelled);
  });
  return html`<${Dialog} title=${`Cancel ${doc.docNo || `this ${typeLabel(doc.type).toLowerCase()} draft`}?`} onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Cancel document">
      <p class="dialog-intro">${doc.docNo ? "The number stays used and the document stays on record, marked cancelled." : "The draft stays on record, marked cancelled."}
        ${(doc.shares || []).some((sh) => sh.state === "live") ? " Its public links stop working." : ""}</p>
      <${Field} label="Reason" as="textarea" rows="3" maxLength="500" ...${form.field("reason")} autofocus
        hint="Kept on the document's timeline and in the audit trail." />
      <${DialogActions} onClose=${onClose} saving=${form.saving} label="Cancel document" tone="danger" closeLabel="Keep it" />
    </${Form}>
  </${Dialog}>`;
}

const creditRow = (l) => ({ description: l.description, sac: l.sac || "", qty: String(l.qty), unit_price: rupeesInput(l.unit_price), gst_rate: String(l.gst_rate) });

/** Reads the rows of a partial credit note; { lines } or { errors: {row: {key: message}} }. */
function creditLines(rows) {
  const lines = [];
  const errors = {};
  rows.forEach((r, i) => {
    const e = {};
    if (!r.description.trim()) e.description = "Describe the line.";
    if (!/^\d+$/.test(r.qty.trim()) || Number(r.qty) < 1) e.qty = "A whole number, 1 or more.";
    const price = paiseFromRupees(r.unit_price);
    if (price === null || price < 0) e.unit_price = "Rupees, e.g. 2,500.50.";
    if (!/^\d+$/.test(r.gst_rate.trim()) || Number(r.gst_rate) > 28) e.gst_rate = "A percent from 0 to 28.";
    if (Object.keys(e).length) errors[i] = e;
    else lines.push({ description: r.description.trim(), sac: r.sac.trim() || undefined, qty: Number(r.qty), unit_price: price, gst_rate: Number(r.gst_rate) });
  });
  return Object.keys(errors).length ? { errors } : { lines };
}

/** A credit note against an issued invoice. onDone(the issued credit note). */
export function CreditNoteDialog({ doc, onClose, onDone }) {
  // The whole invoice can be credited only while nothing has been credited on it.
  const credited = doc.events.some((e) => e.kind === "credited");
  const form = useForm({ reason: "", scope: credited ? "lines" : "whole" });
  const [rows, setRows] = useState(() => keyed(doc.lines.map(creditRow)));
  const [errors, setErrors] = useState({});
  const [listError, setListError] = useState(null);
  const listRef = useRef(null);
  const whole = form.values.scope === "whole";
  const onSubmit = form.submit(async (v) => {
    setErrors({});
    setListError(null);
    if (!v.reason.trim()) throw fieldError("reason", "Give the reason for the credit note.");
    const body = { reason: v.reason.trim() };
    if (!whole) {
      if (rows.length === 0) return setListError("Add at least one line to credit.");
      const read = creditLines(rows);
      if (read.errors) {
        setErrors(read.errors);
        const i = Number(Object.keys(read.errors)[0]);
        return focusRowControl(listRef.current, i, Object.keys(read.errors[i])[0]);
      }
      body.lines = read.lines;
    }
    try {
      const note = await action(doc, "credit-note", body);
      toast.success(`Credit note ${note.docNo} issued for ${rupees(note.total)}.`);
      onDone(note);
    } catch (err) {
      const at = listFieldError(err);
      if (at && at.list === "lines" && !whole) {
        setErrors({ [at.index]: { [at.key || "description"]: at.message } });
        return focusRowControl(listRef.current, at.index, at.key || "description");
      }
      // The server counts in paise ("At most 590000 paise …"): say it in rupees.
      if (err && err.field === "lines") return setListError(String(err.message).replace(/(\d+) paise/, (_m, p) => rupees(Number(p))));
      throw err;
    }
  });
  const scope = (value, label, disabled) => html`<label class="check radio-choice">
    <input type="radio" name="credit_scope" value=${value} checked=${form.values.scope === value} disabled=${disabled}
      onChange=${() => form.set("scope", value)} /> ${label}</label>`;
  return html`<${Dialog} title=${`Credit note against ${doc.docNo}`} size="wide" onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Credit note">
      <p class="dialog-intro">The credit note is issued at once with its own number, at the invoice's place of supply.
        Outstanding: <strong>${rupees(doc.outstanding ?? doc.total)}</strong> of ${rupees(doc.total)}.</p>
      <${Field} label="Reason" as="textarea" rows="2" ...${form.field("reason")} autofocus hint="Printed on the credit note and kept on the invoice's timeline." />
      <fieldset class="form-section scope-choice">
        <legend>What to credit</legend>
        ${scope("whole", `Whole invoice (${rupees(doc.total)})`, credited)}
        ${scope("lines", "Chosen lines")}
        ${credited && html`<p class="hint">Part of this invoice is credited already, so give the lines.</p>`}
      </fieldset>
      ${!whole && html`<div ref=${listRef} class="credit-lines">
        <p class="hint">The invoice's lines to start from: remove what is not credited, lower a quantity or a price.</p>
        <${RowsEditor} rows=${rows} onChange=${(next) => { setRows(next); setErrors({}); setListError(null); }} max=${500}
          blank=${() => ({ description: "", sac: "", qty: "1", unit_price: "", gst_rate: "18" })} addLabel="Add line"
          describe=${(_r, i) => `credit line ${i + 1}`} errors=${errors} listError=${listError} label="Lines to credit" class="rows-credit"
          renderRow=${(r, i, set, err) => html`
            <${Field} label="Description" name="description" value=${r.description} error=${err.description} autocomplete="off"
              onInput=${(e) => set("description", e.currentTarget.value)} />
            <${Field} label="Qty" name="qty" value=${r.qty} error=${err.qty} inputMode="numeric" autocomplete="off"
              onInput=${(e) => set("qty", e.currentTarget.value)} />
            <${Field} label="Unit price (₹)" name="unit_price" value=${r.unit_price} error=${err.unit_price} inputMode="decimal" autocomplete="off"
              onInput=${(e) => set("unit_price", e.currentTarget.value)} />
            <${Field} label="GST %" name="gst_rate" value=${r.gst_rate} error=${err.gst_rate} inputMode="numeric" autocomplete="off"
              onInput=${(e) => set("gst_rate", e.currentTarget.value)} />`} />
      </div>`}
      <${DialogActions} onClose=${onClose} saving=${form.saving} label="Issue credit note" />
    </${Form}>
  </${Dialog}>`;
}

const LIVE = (d) => d.status !== "draft" && d.status !== "cancelled";

/** The actions this user may take on `doc` now, as [{key, label, tone}] in the order shown. */
export function availableActions(doc, me) {
  const out = [];
  const quote = doc.type === "QUOTATION";
  if (["issued", "sent", "accepted"].includes(doc.status)) out.push({ key: "mark-sent", label: "Mark sent" });
  if (quote && ["issued", "sent"].includes(doc.status)) {
    out.push({ key: "accept", label: "Accept", tone: "primary" });
    out.push({ key: "lost", label: "Mark lost" });
  }
  if (LIVE(doc) && !doc.child_id) {
    if (quote) out.push({ key: "to-proforma", label: "Convert to proforma" });
    if (quote || doc.type === "PROFORMA") out.push({ key: "to-invoice", label: "Convert to invoice", tone: "primary" });
  }
  if (doc.type === "PROFORMA" && doc.status !== "cancelled") out.push({ key: "supersede", label: "Supersede" });
  if (isManagerial(me) && doc.type === "INVOICE" && LIVE(doc) && (doc.outstanding === null || doc.outstanding > 0 || !doc.events.some((e) => e.kind === "credited"))) {
    out.push({ key: "credit-note", label: "Credit note" });
  }
  if (isManagerial(me) && doc.status !== "cancelled") out.push({ key: "cancel", label: "Cancel document", tone: "danger-outline" });
  return out;
}

/**
 * The action buttons and the dialog they may open: { buttons, dialog }. Render the dialog first
 * in <main>. onChanged(document) after an action that keeps us on this document; convert and
 * supersede go to the new draft.
 */
export function useDocumentActions(doc, me, onChanged) {
  const [busy, setBusy] = useState(null);
  const [dialog, setDialog] = useState(null);
  const run = async (key, fn) => {
    if (busy) return;
    setBusy(key);
    try {
      await fn();
    } catch (err) {
      toast.error(err.message || "That did not work. Try again.");
    } finally {
      setBusy(null);
    }
  };
  const simple = (key, name, message) => run(key, async () => {
    onChanged(await action(doc, name));
    toast.success(message);
  });
  const goTo = (key, name, body, message) => run(key, async () => {
    const fresh = await action(doc, name, body);
    const moved = (fresh.warnings || []).filter((w) => w.code === "price_changed");
    if (moved.length) {
      keepWarnings(fresh.id, moved, "price");
      toast.info(`${message(fresh)} ${moved.length === 1 ? "1 line was" : `${moved.length} lines were`} re-priced: see the draft.`);
    } else {
      toast.success(message(fresh));
    }
    navigate(docUrl(fresh.id));
  });
  const handlers = {
    "mark-sent": () => simple("mark-sent", "mark-sent", "Marked as sent."),
    accept: () => simple("accept", "accept", "The quotation is accepted."),
    lost: () => simple("lost", "lost", "The quotation is marked lost."),
    "to-proforma": () => goTo("to-proforma", "convert", { to: "PROFORMA" }, () => "Proforma draft made from the quotation."),
    "to-invoice": () => goTo("to-invoice", "convert", { to: "INVOICE" }, () => `Invoice draft made from ${docNumber(doc)}.`),
    supersede: () => goTo("supersede", "supersede", {}, () => `${docNumber(doc)} is cancelled; here is its fresh draft.`),
    cancel: () => setDialog("cancel"),
    "credit-note": () => setDialog("credit-note"),
  };
  const close = () => setDialog(null);
  let dialogEl = null;
  if (dialog === "cancel") {
    dialogEl = html`<${CancelDialog} doc=${doc} onClose=${close} onDone=${(d) => { close(); onChanged(d); }} onRefresh=${() => onChanged(null)} />`;
  }
  if (dialog === "credit-note") {
    dialogEl = html`<${CreditNoteDialog} doc=${doc} onClose=${close} onDone=${(note) => { close(); onChanged(null, note); }} />`;
  }
  const buttons = availableActions(doc, me).map((a) => html`<button type="button" key=${a.key} class=${`btn btn-${a.tone || "default"}`}
    disabled=${!!busy} aria-busy=${busy === a.key ? "true" : undefined} onClick=${handlers[a.key]}>
    ${busy === a.key && html`<span class="spinner small" aria-hidden="true"></span>`}${a.label}</button>`);
  return { buttons, dialog: dialogEl };
}

/** A stored line as the API takes it back: its own explicit price only, unless `price` is given. */
const lineBack = (l, price) => {
  const body = { description: l.description, qty: l.qty, gst_rate: l.gst_rate };
  if (l.module_id) body.module_id = l.module_id;
  if (l.sac) body.sac = l.sac;
  const explicit = price ?? l.explicit_price;
  if (explicit !== null && explicit !== undefined) body.unit_price = explicit;
  return body;
};

/**
 * On a draft made by converting to an invoice: each line whose price moved from the quote
 * (`[data-testid=price-changes]`, a `li[data-line]` per line: quoted, now, the difference) with
 * "Keep the quoted price", which saves the quoted price as that line's explicit price.
 * onSaved(document) after a line is kept.
 */
export function PriceChanges({ doc, onSaved }) {
  const [moved, setMoved] = useState(() => readWarnings(doc.id, "price") || []);
  const [busy, setBusy] = useState(null);
  const forget = (left) => {
    if (left.length) keepWarnings(doc.id, left, "price");
    else dropWarnings(doc.id, "price");
    setMoved(left);
  };
  const keep = async (w) => {
    setBusy(w.line);
    try {
      const lines = doc.lines.map((l, i) => lineBack(l, i === w.line ? w.quoted : undefined));
      const saved = await patch(`/api/documents/${enc(doc.id)}`, { lines });
      forget(moved.filter((m) => m.line !== w.line));
      toast.success(`Line ${w.line + 1} keeps the quoted ${rupees(w.quoted)}.`);
      onSaved(saved);
    } catch (err) {
      toast.error(err.message || "That did not work. Try again.");
    } finally {
      setBusy(null);
    }
  };
  if (doc.status !== "draft" || moved.length === 0) return null;
  return html`<${Notice} tone="warning" title="Prices moved since it was quoted" testid="price-changes">
    <ul class="plain-list">${moved.map((w) => {
      const line = doc.lines[w.line];
      const diff = w.now - w.quoted;
      return html`<li key=${w.line} data-line=${w.line}>
        <strong>Line ${w.line + 1}${line ? `, ${line.description}` : ""}</strong>:
        quoted <span data-testid="quoted">${rupees(w.quoted)}</span>, now <span data-testid="now">${rupees(w.now)}</span>${" "}(<span data-testid="difference">${diff > 0 ? "+" : "−"}${rupees(Math.abs(diff))}</span>)${" "}
        <button type="button" class="btn btn-sm" data-action="keep-quoted" disabled=${busy !== null} onClick=${() => keep(w)}>Keep the quoted price</button>
      </li>`;
    })}</ul>
    <p class="send-warning-actions"><button type="button" class="btn btn-sm" onClick=${() => forget([])}>Dismiss</button></p>
  </${Notice}>`;
}
