// What the payment screens share: the modes, and a client's open invoices as rows to settle
// (money and TDS per invoice, with the 10% / 2% TDS suggestions) under a live summary of what is
// allocated and what stays as an advance. The record-payment page and the payment page's
// "Allocate advance" dialog both use them.
import { html, useState, useEffect } from "/vendor/preact-htm.js";
import { get, isAbort } from "../api.js";
import { date, rupees, rupeesInput, paiseFromRupees, integer } from "../format.js";
import { Notice, Spinner, EmptyState, useId, listFieldError } from "../components.js";

const enc = encodeURIComponent;
export const paymentUrl = (id) => `/payments/${enc(id)}`;

export const MODES = [
  { value: "cash", label: "Cash" },
  { value: "cheque", label: "Cheque" },
  { value: "neft_rtgs", label: "NEFT/RTGS" },
  { value: "upi", label: "UPI" },
  { value: "other", label: "Other" },
];
export const modeLabel = (m) => (MODES.find((x) => x.value === m) || { label: m || "" }).label;

/** Advance held in a list cell: the sum, or a muted dash when nothing is held. */
export const advanceCell = (paise) => (paise > 0 ? rupees(paise) : html`<span class="muted">—</span>`);

/** TDS at `percent` of a taxable value (never of the GST), rounded half-up to the rupee. */
export function tdsAt(taxable, percent) {
  const base = BigInt(Math.max(0, taxable || 0));
  return Number(((base * BigInt(percent) + 5000n) / 10000n) * 100n);
}

/** The TDS choices of a payment: a rate of the taxable value, or the amounts typed per invoice. */
export const TDS_RATES = [
  { value: "10", label: "10% of the taxable value" },
  { value: "2", label: "2% of the taxable value" },
  { value: "typed", label: "The amount typed per invoice" },
];

/**
 * Splits what a society paid over the invoices it picked (`picked`: document ids), in the order
 * of `invoices` (oldest first): each invoice's TDS (`tdsRate` "10" or "2" percent of its taxable
 * value, rounded to the rupee; "typed": the row's own TDS; "" or null: none) and the money that,
 * with it, settles the invoice, until `received` (paise) runs out; an invoice the money only
 * partly covers takes TDS in proportion. Money and TDS of each add up to what it settles.
 * Answers the rows' values ({ [document_id]: { amount, tds } } as rupee text); rows not picked
 * keep theirs.
 */
export function splitReceived(invoices, picked, received, tdsRate, values = {}) {
  const next = { ...values };
  let left = Math.max(0, received || 0);
  for (const inv of invoices) {
    if (!picked.includes(inv.document_id)) continue;
    const typed = paiseOf((values[inv.document_id] || {}).tds) || 0;
    const fullTds = tdsRate === "typed" ? typed : tdsRate ? tdsAt(inv.taxable, Number(tdsRate)) : 0;
    const tdsCap = Math.min(fullTds, inv.outstanding);
    const need = inv.outstanding - tdsCap;
    let money;
    let tds;
    if (left >= need) {
      money = need;
      tds = tdsCap;
    } else {
      money = left;
      // In proportion to the money, rounded to the rupee.
      const share = need > 0 ? Number((BigInt(money) * BigInt(tdsCap) + BigInt(need) * 50n) / (BigInt(need) * 100n)) * 100 : 0;
      tds = Math.min(inv.outstanding - money, share);
    }
    left -= money;
    next[inv.document_id] = { amount: money ? rupeesInput(money) : "", tds: tds ? rupeesInput(tds) : "" };
  }
  return next;
}

/**
 * The invoices of `clientId` with something outstanding (today): { rows, loaded, error, reload }.
 * Rows of an earlier client never show for a newly chosen one.
 */
export function useOpenInvoices(clientId) {
  const [state, setState] = useState({ for: null, rows: [], error: null });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!clientId) return undefined;
    const ctl = new AbortController();
    get("/api/reports/dues-aging/invoices", { client_id: clientId }, { signal: ctl.signal })
      .then((d) => setState({ for: clientId, rows: d.rows || [], error: null }))
      .catch((error) => {
        if (!isAbort(error)) setState({ for: clientId, rows: [], error });
      });
    return () => ctl.abort();
  }, [clientId, tick]);
  const current = !!clientId && state.for === clientId;
  return { rows: current ? state.rows : [], loaded: current && !state.error, error: current ? state.error : null, reload: () => setTick((t) => t + 1) };
}

const paiseOf = (text) => {
  const t = String(text || "").trim();
  return t ? paiseFromRupees(t) : 0;
};

/**
 * The typed rows as the API takes them. `values`: { [document_id]: { amount, tds } } (rupee
 * text). Answers { allocations (only rows with money or TDS), sent (their document ids, in order,
 * so `allocations[i]` in an error finds its row), errors: { [document_id]: { amount|tds } },
 * money, tds } (the sums of what reads as rupees, for the live summary).
 */
export function readAllocations(invoices, values) {
  const out = { allocations: [], sent: [], errors: {}, money: 0, tds: 0 };
  for (const inv of invoices) {
    const v = values[inv.document_id];
    if (!v) continue;
    const amount = paiseOf(v.amount);
    const tds = paiseOf(v.tds);
    const e = {};
    if (amount === null || amount < 0) e.amount = "Rupees, e.g. 2,500.50.";
    if (tds === null || tds < 0) e.tds = "Rupees, e.g. 1,000.";
    if (amount > 0) out.money += amount;
    if (tds > 0) out.tds += tds;
    if (Object.keys(e).length) out.errors[inv.document_id] = e;
    else if (amount > 0 || tds > 0) {
      out.allocations.push({ document_id: inv.document_id, amount, tds });
      out.sent.push(inv.document_id);
    }
  }
  return out;
}

/**
 * A refusal about the allocations: `allocations[1].amount` → { rows: {document_id: {amount: message}},
 * id, key }; `allocations` → { list: message }; null when the error is about something else.
 */
export function allocationError(err, sent) {
  const at = listFieldError(err);
  if (at && at.list === "allocations" && sent[at.index] !== undefined) {
    const key = at.key === "tds" ? "tds" : at.key === "amount" ? "amount" : "document_id";
    return { rows: { [sent[at.index]]: { [key]: at.message } }, id: sent[at.index], key };
  }
  if (err && err.field === "allocations") return { list: err.message };
  return null;
}

/** Puts the cursor in a row's money (or TDS) input, e.g. after an error pinned there. */
export function focusAllocation(root, id, key) {
  setTimeout(() => {
    const row = root && [...root.querySelectorAll("[data-testid='alloc-row']")].find((r) => r.dataset.documentId === id);
    const el = row && row.querySelector(`[name="${key === "tds" ? "alloc_tds" : "alloc_amount"}"]`);
    if (el) el.focus();
  }, 0);
}

function MoneyInput({ name, value, label, error, onInput, disabled }) {
  const id = useId("al-");
  return html`<div class=${`alloc-field${error ? " has-error" : ""}`}>
    <input id=${id} class="control alloc-input" name=${name} value=${value} inputMode="decimal" autocomplete="off" spellcheck=${false}
      placeholder="0.00" aria-label=${label} aria-invalid=${error ? "true" : undefined} aria-describedby=${error ? `${id}-error` : undefined}
      disabled=${disabled} onInput=${onInput} onChange=${onInput} />
    ${error && html`<p class="field-error" id=${`${id}-error`}>${error}</p>`}
  </div>`;
}

function AllocRow({ inv, value, error, onSet, disabled, picked, onPick, onTds }) {
  const v = value || { amount: "", tds: "" };
  const e = error || {};
  const no = inv.docNo || "this invoice";
  const amount = paiseOf(v.amount);
  const tds = paiseOf(v.tds);
  const over = !e.amount && !e.tds && amount !== null && tds !== null && amount + tds > inv.outstanding;
  const tdsButton = (pct) => {
    const paise = tdsAt(inv.taxable, pct);
    return html`<button type="button" class="btn btn-sm tds-btn" disabled=${disabled} onClick=${() => (onTds ? onTds(pct) : onSet("tds", rupeesInput(paise)))}
      title=${`${pct}% of the taxable value ${rupees(inv.taxable)} = ${rupees(paise)}`}>TDS ${pct}%</button>`;
  };
  const settles = !e.amount && !e.tds && amount + tds > 0;
  return html`<tr data-testid="alloc-row" data-document-id=${inv.document_id} class=${error ? "has-error" : ""}>
    <td class="wrap">
      ${onPick
        ? html`<label class="alloc-pick"><input type="checkbox" name="alloc_pick" checked=${picked} disabled=${disabled}
            onChange=${(ev) => onPick(ev.currentTarget.checked)} /> <span class="cell-main">${inv.docNo}</span></label>`
        : html`<span class="cell-main">${inv.docNo}</span>`}
      <div class="cell-sub">Dated ${date(inv.doc_date)}</div>
      ${inv.taxable !== undefined && inv.taxable !== null && html`<div class="cell-sub">Taxable ${rupees(inv.taxable)}</div>`}
      ${e.document_id && html`<p class="field-error" role="alert">${e.document_id}</p>`}
      ${settles && html`<p class="alloc-settles" data-testid="alloc-settles">Settles ${no}: ${rupees(amount)} received${tds > 0 ? ` + ${rupees(tds)} TDS` : ""}</p>`}
    </td>
    <td data-label="Due">${inv.due_date ? date(inv.due_date) : html`<span class="muted">—</span>`}
      ${inv.days_past_due > 0 && html`<div class="cell-sub overdue">${integer(inv.days_past_due)} days late</div>`}</td>
    <td class="num" data-label="Outstanding"><strong>${rupees(inv.outstanding)}</strong></td>
    <td class="num alloc-cell" data-label="Money (₹)">
      <${MoneyInput} name="alloc_amount" label=${`Money for ${no}`} value=${v.amount} error=${e.amount} disabled=${disabled}
        onInput=${(ev) => onSet("amount", ev.currentTarget.value)} />
      ${over && html`<p class="alloc-warning">With the TDS this passes the outstanding.</p>`}
    </td>
    <td class="num alloc-cell" data-label="TDS (₹)">
      <${MoneyInput} name="alloc_tds" label=${`TDS on ${no}`} value=${v.tds} error=${e.tds} disabled=${disabled}
        onInput=${(ev) => onSet("tds", ev.currentTarget.value)} />
      <div class="tds-buttons">${tdsButton(10)}${tdsButton(2)}</div>
    </td>
  </tr>`;
}

/** The live sums: money allocated, TDS, and what stays with the client as an advance. */
export function AllocSummary({ available, money, tds }) {
  const left = available - money;
  return html`<div class=${`alloc-summary${left < 0 ? " is-over" : ""}`} data-testid="alloc-summary" aria-live="polite">
    <span>Allocated: <strong>${rupees(money)}</strong></span>
    <span>TDS: <strong>${rupees(tds)}</strong></span>
    <span class="alloc-advance">Advance held: <strong>${rupees(left)}</strong></span>
    ${left < 0 && html`<span class="alloc-over">The invoices take ${rupees(-left)} more than the payment holds: lower an amount, or raise the payment.</span>`}
  </div>`;
}

/**
 * The open invoices of a client as rows with money and TDS inputs, then the summary.
 * Props: open (useOpenInvoices), values, onChange(nextValues), errors ({document_id: {key: message}}),
 * listError, available (paise the payment holds), read (readAllocations of these values),
 * empty (text when nothing is owed), disabled; picked and onPick(id, checked): a "settle" box per
 * invoice (the record-payment form splits the money over the invoices ticked); onTds(id, percent):
 * what a row's "TDS 10%" / "TDS 2%" does instead of typing that TDS into the row (the record-payment
 * form settles a ticked invoice with it in one step).
 */
export function AllocationPanel({ open, values, onChange, errors = {}, listError, available, read, empty, disabled, picked = [], onPick, onTds }) {
  const set = (id) => (key, text) => onChange({ ...values, [id]: { ...(values[id] || { amount: "", tds: "" }), [key]: text } });
  let body;
  if (open.error) {
    body = html`<${Notice} tone="danger" alert=${true}>The open invoices could not be read: ${open.error.message}
      <button type="button" class="btn btn-sm" onClick=${open.reload}>Try again</button></${Notice}>`;
  } else if (!open.loaded) {
    body = html`<div class="timeline-state"><${Spinner} label="Loading the open invoices" showLabel=${true} small=${true} /></div>`;
  } else if (open.rows.length === 0) {
    body = html`<${EmptyState} title=${empty || "No invoice of this client has anything outstanding."} />`;
  } else {
    body = html`<div class="table-card alloc-table"><div class="table-scroll">
      <table class="data-table">
        <caption class="sr-only">Open invoices</caption>
        <thead><tr>
          <th scope="col">Invoice</th><th scope="col">Due</th><th scope="col" class="num">Outstanding</th>
          <th scope="col" class="num">Money (₹)</th><th scope="col" class="num" title="TDS the society deducted; the buttons work it out on the taxable value">TDS (₹)</th>
        </tr></thead>
        <tbody>
          ${open.rows.map((inv) => html`<${AllocRow} key=${inv.document_id} inv=${inv} value=${values[inv.document_id]}
            error=${errors[inv.document_id]} onSet=${set(inv.document_id)} disabled=${disabled}
            picked=${picked.includes(inv.document_id)} onPick=${onPick && ((checked) => onPick(inv.document_id, checked))}
            onTds=${onTds && ((pct) => onTds(inv.document_id, pct))} />`)}
        </tbody>
      </table>
    </div></div>`;
  }
  return html`<div class="alloc-panel" data-testid="alloc-rows">
    ${body}
    ${listError && html`<p class="field-error alloc-list-error" role="alert" data-testid="alloc-error">${listError}</p>`}
    <${AllocSummary} available=${available} money=${read.money} tds=${read.tds} />
  </div>`;
}
