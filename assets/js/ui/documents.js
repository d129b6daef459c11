// Documents wherever the console names one (the list, the draft editor, the issued view, the
// recurring plans, payments, tickets, the reports, the letterhead sample): the address of a
// document's page, type and status names, the status badges, the totals box, a server-rendered
// document sheet and the lines of a draft as the API takes them.
import { html, useRef, useLayoutEffect } from "/vendor/preact-htm.js";
import { applyAccent } from "/document.js";
import { rupees, rupeesInput, paiseFromRupees, humanize } from "../format.js";
import { Badge, useFetch } from "../components.js";

const enc = encodeURIComponent;
export const docUrl = (id) => `/documents/${enc(id)}`;

export const TYPES = ["QUOTATION", "PROFORMA", "INVOICE", "CREDIT_NOTE"];
/** How a type reads in a sentence or a list. */
export const TYPE_LABEL = { QUOTATION: "Quotation", PROFORMA: "Proforma invoice", INVOICE: "Tax invoice", CREDIT_NOTE: "Credit note" };
/** The title printed at the top of the document. */
export const TYPE_TITLE = { QUOTATION: "QUOTATION", PROFORMA: "PROFORMA INVOICE", INVOICE: "TAX INVOICE", CREDIT_NOTE: "CREDIT NOTE" };
export const typeLabel = (t) => TYPE_LABEL[t] || humanize(t);

export const STATUSES = ["draft", "issued", "sent", "accepted", "lost", "invoiced", "cancelled"];
const STATUS_TONE = { draft: "neutral", issued: "info", sent: "info", accepted: "success", lost: "warning", invoiced: "success", cancelled: "danger" };

export function DocStatusBadge({ status, testid }) {
  return html`<span data-testid=${testid}><${Badge} tone=${STATUS_TONE[status] || "neutral"}>${humanize(status)}</${Badge}></span>`;
}

/** An issued invoice's payment state (the server's `payment_state`), as the office says it. */
export const PAYMENT_STATES = [
  { value: "unpaid", label: "Unpaid", tone: "warning" },
  { value: "part_paid", label: "Part paid", tone: "warning" },
  { value: "paid", label: "Paid", tone: "success" },
  { value: "overdue", label: "Overdue", tone: "danger" },
];

/** The payment state's badge; nothing for a document without one. */
export function PaymentStateBadge({ state, testid }) {
  const s = PAYMENT_STATES.find((p) => p.value === state);
  return s ? html`<span data-testid=${testid}><${Badge} tone=${s.tone}>${s.label}</${Badge}></span>` : null;
}

/** The number, or "Draft" while it has none. */
export const docNumber = (d) => (d && d.docNo) || "Draft";

/** Where a line's unit price came from, as the office says it. */
export const SOURCE_LABEL = { override: "override", rate_card: "rate card band", price_book: "price book" };

const SOURCES = {
  hq: "Made in the office",
  module_renewal: "Renewal proforma from a project",
  bulk_sms_topup: "SMS top-up quote from a project",
  legacy: "Imported from the old system",
};
export const sourceLabel = (s) => SOURCES[s] || humanize(s);

/** The active modules for the line pickers (the first 200 by name is the whole catalog). */
export function useModules() {
  const { data, error } = useFetch("/api/modules", { active: 1, per_page: 200 });
  return { modules: (data && data.rows) || [], loaded: !!data, error };
}

/**
 * The totals box: Taxable, CGST and SGST (intra-state) or IGST, Round-off (when rounding) and
 * Total. `totals` = {subtotal, cgst, sgst, igst, round_off, total} (null: not computed yet);
 * `stale` dims it while a newer computation is on its way; `extra` adds rows (e.g. outstanding).
 */
export function TotalsBox({ totals, intra = true, round = false, stale = false, extra, note }) {
  const t = totals || {};
  const show = (v) => (totals ? rupees(v || 0) : "—");
  const row = (label, key, value, cls = "") => html`<div class=${`totals-row ${cls}`}>
    <dt>${label}</dt><dd data-testid=${key}>${value}</dd>
  </div>`;
  return html`<div class=${`totals-box${stale ? " is-stale" : ""}`} aria-busy=${stale ? "true" : "false"}>
    <dl class="totals" data-testid="totals">
      ${row("Taxable value", "subtotal", show(t.subtotal))}
      ${intra
        ? html`${row("CGST", "cgst", show(t.cgst))}${row("SGST", "sgst", show(t.sgst))}`
        : row("IGST", "igst", show(t.igst))}
      ${(round || t.round_off) ? row("Round-off", "round-off", show(t.round_off)) : null}
      ${row("Total", "total", show(t.total), "is-total")}
      ${extra}
    </dl>
    ${note && html`<p class="hint totals-note">${note}</p>`}
  </div>`;
}

/**
 * A document as the server renders it: `html` is an <article class="doc-sheet"> fragment the
 * server escaped (the draft preview, the letterhead sample), shown in a panel marked `testid`
 * with its accent colour applied. `stale` dims it while a newer rendering is on its way;
 * `empty` shows while there is none.
 */
/** The width a sheet is laid out at (CSS px; `.doc-preview-sheet` in app.css). */
const SHEET_WIDTH = 760;

export function DocSheet({ html: markup, testid, stale = false, empty }) {
  const box = useRef(null);
  const ref = useRef(null);
  useLayoutEffect(() => {
    const sheet = ref.current;
    if (!sheet) return undefined;
    applyAccent(sheet);
    // A panel narrower than the page shows the whole page smaller, as a print preview does,
    // rather than cutting columns off.
    const fit = () => {
      sheet.style.zoom = String(Math.min(1, box.current.clientWidth / SHEET_WIDTH));
    };
    fit();
    const watch = new ResizeObserver(fit);
    watch.observe(box.current);
    return () => watch.disconnect();
  }, [markup]);
  return html`<div class=${`doc-preview${stale ? " is-stale" : ""}`} ref=${box} data-testid=${testid} aria-busy=${stale ? "true" : "false"}>
    ${markup
      ? html`<div class="doc-preview-sheet" ref=${ref} dangerouslySetInnerHTML=${{ __html: markup }}></div>`
      : html`<p class="hint doc-preview-empty">${empty}</p>`}
  </div>`;
}

export const placeOfSupply = (intra) => (intra ? "Within the state: CGST + SGST" : "Another state: IGST");

// ---- Lines as the editor keeps them (text) and as the API takes them -------------------------

export const blankLine = () => ({ module_id: "", description: "", sac: "", qty: "1", unit_price: "", gst_rate: "" });

/** A stored line → the editor's text row (its override kept, other prices left to the server). */
export function lineRow(l) {
  return {
    module_id: l.module_id || "",
    description: l.description || "",
    sac: l.sac || "",
    qty: String(l.qty ?? ""),
    unit_price: l.explicit_price === null || l.explicit_price === undefined ? "" : rupeesInput(l.explicit_price),
    gst_rate: l.gst_rate === null || l.gst_rate === undefined ? "" : String(l.gst_rate),
  };
}

/** A row nobody has filled in (no module, description or price): left out of totals and saves. */
export const isBlankLine = (r) => !r.module_id && !r.description.trim() && !r.unit_price.trim() && !r.sac.trim();

/**
 * One editor row → { body } for the API, or { errors: {key: message} } when a value cannot be
 * sent. `forPreview`: a free line without a description gets a stand-in one, so the totals
 * show while it is being typed.
 */
export function lineBody(r, number, { forPreview = false } = {}) {
  const errors = {};
  const body = {};
  if (r.module_id) body.module_id = r.module_id;
  const description = r.description.trim();
  if (description) body.description = description;
  else if (!r.module_id && forPreview) body.description = `Line ${number}`;
  else if (!r.module_id) errors.description = "Describe the line.";
  if (r.sac.trim()) body.sac = r.sac.trim();
  const qty = r.qty.trim();
  if (!/^\d+$/.test(qty) || Number(qty) < 1 || Number(qty) > 100000000) errors.qty = qty ? "A whole number from 1 to 10 crore." : "Enter the quantity.";
  else body.qty = Number(qty);
  const price = r.unit_price.trim();
  if (price) {
    const paise = paiseFromRupees(price);
    if (paise === null || paise < 0) errors.unit_price = "Rupees, e.g. 2,500.50.";
    else body.unit_price = paise;
  } else if (!r.module_id && !forPreview) errors.unit_price = "A free line needs a unit price.";
  const gst = r.gst_rate.trim().replace(/%$/, "");
  if (gst) {
    if (!/^\d+$/.test(gst) || Number(gst) > 28) errors.gst_rate = "A percent from 0 to 28.";
    else body.gst_rate = Number(gst);
  }
  return Object.keys(errors).length ? { errors } : { body };
}

/**
 * The rows to send: blank rows left out, and `rows` (the editor row index of each line sent),
 * so an error or a priced line at `lines[i]` finds its row. Rows that cannot be sent are in
 * `errors` by row index.
 */
export function linesBody(rows, opts) {
  const lines = [];
  const index = [];
  const errors = {};
  rows.forEach((r, i) => {
    if (isBlankLine(r)) return;
    const { body, errors: e } = lineBody(r, i + 1, opts);
    if (e) errors[i] = e;
    else {
      lines.push(body);
      index.push(i);
    }
  });
  return { lines, index, errors };
}

/** "Line 2: …" in a server message numbers the lines sent; renumber it as the rows on screen. */
export function renumber(message, index) {
  return String(message || "").replace(/^Line (\d+):/, (m, n) => {
    const row = index[Number(n) - 1];
    return row === undefined ? m : `Line ${row + 1}:`;
  });
}
