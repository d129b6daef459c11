// The cards of the module page: the price book (append-only, the row in force marked), the
// rate card (owner: bands in force, a new dated card) and the roster of subscribers with its
// revenue total, CSV download and (owner and managers) "Email all subscribers" (notify.js).
import { html, useState, useRef } from "/vendor/preact-htm.js";
import { post } from "../../api.js";
import { rupees, date, dateTime, integer, isoDate, paiseFromRupees } from "../../format.js";
import {
  Card, Badge, Notice, DataTable, Dialog, DateField, MoneyField, Field, Form, useForm, fieldError, toast,
  useFetch, useUrlList, Link, RowsEditor, keyed, listFieldError, focusRowControl, EmptyState, Loading, DialogActions,
} from "../../components.js";
import { NotifyDialog, NotifyResult } from "./notify.js";
import { projectUrl } from "../../ui/projects.js";

const enc = encodeURIComponent;

function AddPriceDialog({ module, onClose, onSaved }) {
  const form = useForm({ effective_from: isoDate(), price: "" });
  const onSubmit = form.submit(async (v) => {
    if (!v.effective_from) throw fieldError("effective_from", "Give the date the price starts.");
    const price = paiseFromRupees(v.price);
    if (price === null || price < 0) throw fieldError("price", "Enter the price in rupees, e.g. 2,500.50 (at most two decimals).");
    onSaved(await post(`/api/modules/${enc(module.id)}/prices`, { effective_from: v.effective_from, price }));
  });
  return html`<${Dialog} title=${`Add a price for ${module.name}`} onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Add price">
      <p class="dialog-intro hint">Prices are never changed or deleted: a new row takes over from its date.</p>
      <div class="form-grid">
        <${DateField} label="Effective from" name="effective_from" value=${form.values.effective_from} error=${form.errors.effective_from}
          onChange=${(d) => form.set("effective_from", d)} />
        <${MoneyField} label="Price (₹)" ...${form.field("price")} autofocus />
      </div>
      <${DialogActions} onClose=${onClose} saving=${form.saving} label="Add price" />
    </${Form}>
  </${Dialog}>`;
}

export function PriceBookCard({ module, isOwner, onChanged }) {
  const { data, error, loading, reload } = useFetch(`/api/modules/${enc(module.id)}/prices`);
  const [adding, setAdding] = useState(false);
  const rows = (data && data.rows) || [];
  const inForce = data ? rows.findIndex((r) => r.id === data.in_force_id) : -1;
  const state = (r) => {
    const i = rows.indexOf(r);
    if (i === inForce) return html`<${Badge} tone="success">In force</${Badge}>`;
    if (inForce === -1 || i < inForce) return html`<${Badge} tone="info">Scheduled</${Badge}>`;
    return html`<span class="muted">Earlier</span>`;
  };
  const columns = [
    { key: "effective_from", label: "From", render: (r) => date(r.effective_from) },
    { key: "price", label: "Price", class: "num", render: (r) => html`<span class=${inForceClass(r, data)}>${rupees(r.price)}</span>` },
    { key: "state", label: "", render: state },
    { key: "created_at", label: "Added", render: (r) => html`<span class="muted" title=${dateTime(r.created_at)}>${dateTime(r.created_at).slice(0, 10)}</span>` },
  ];
  return html`${adding && html`<${AddPriceDialog} module=${module} onClose=${() => setAdding(false)} onSaved=${(row) => {
      setAdding(false);
      reload();
      onChanged();
      toast.success(`Price ${rupees(row.price)} from ${date(row.effective_from)} added.`);
    }} />`}
    <${Card} title="Price book" class="section-card"
      actions=${isOwner && html`<button type="button" class="btn btn-sm" onClick=${() => setAdding(true)}>Add price</button>`}>
      <div data-testid="price-book">
        <${DataTable} caption="Price book, newest first" columns=${columns} rows=${rows} loading=${loading} loaded=${!!data}
          error=${error} onRetry=${reload} empty="No price yet."
          rowAttrs=${(r) => ({ "data-id": r.id, class: data && r.id === data.in_force_id ? "is-current" : undefined })} />
      </div>
    </${Card}>`;
}

const inForceClass = (r, data) => (data && r.id === data.in_force_id ? "cell-main" : "");

function NewRateCardDialog({ module, onClose, onSaved }) {
  const form = useForm({ effective_from: isoDate() });
  const [bands, setBands] = useState(() => keyed([{ min_qty: "", rate: "" }]));
  const [errors, setErrors] = useState({});
  const [listError, setListError] = useState(null);
  const listRef = useRef(null);
  const pin = (i, key, message) => {
    setErrors({ [i]: { [key]: message } });
    focusRowControl(listRef.current, i, key === "rate" ? "band_rate" : "band_min_qty");
  };
  const onSubmit = form.submit(async (v) => {
    setErrors({});
    setListError(null);
    if (!v.effective_from) throw fieldError("effective_from", "Give the date the card starts.");
    if (bands.length === 0) return setListError("Add at least one band.");
    const parsed = [];
    for (const [i, b] of bands.entries()) {
      if (!/^\d+$/.test(b.min_qty.trim())) return pin(i, "min_qty", "A whole number of units, 0 or more.");
      const rate = paiseFromRupees(b.rate);
      if (rate === null || rate <= 0) return pin(i, "rate", "Rupees per unit above 0, e.g. 0.20 (whole paise).");
      parsed.push({ row: b, body: { min_qty: Number(b.min_qty.trim()), rate } });
    }
    // The server checks (and names errors by) the bands sorted by quantity: send them that way.
    parsed.sort((a, b) => a.body.min_qty - b.body.min_qty);
    setBands(parsed.map((p) => p.row));
    for (let i = 1; i < parsed.length; i++) {
      if (parsed[i].body.min_qty === parsed[i - 1].body.min_qty) return pin(i, "min_qty", "Two bands start at the same quantity.");
    }
    try {
      onSaved(await post(`/api/modules/${enc(module.id)}/rate-card`, { effective_from: v.effective_from, bands: parsed.map((p) => p.body) }));
    } catch (err) {
      const at = listFieldError(err);
      if (at && at.list === "bands") return pin(at.index, at.key || "min_qty", at.message);
      if (err && err.field === "bands") return setListError(err.message);
      throw err;
    }
  });
  return html`<${Dialog} title=${`New rate card for ${module.name}`} onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="New rate card">
      <p class="dialog-intro hint">A count is charged at the rate of the highest band it reaches; below the lowest band is under the minimum order.</p>
      <div class="form-grid">
        <${DateField} label="Effective from" name="effective_from" value=${form.values.effective_from} error=${form.errors.effective_from}
          onChange=${(d) => form.set("effective_from", d)} />
      </div>
      <h3 class="sub-title">Bands</h3>
      <div ref=${listRef}>
        <${RowsEditor} rows=${bands} onChange=${(rows) => { setBands(rows); setErrors({}); setListError(null); }} max=${50}
          blank=${() => ({ min_qty: "", rate: "" })} addLabel="Add band" describe=${(_r, i) => `band ${i + 1}`}
          errors=${errors} listError=${listError} label="Bands" class="rows-bands"
          renderRow=${(b, i, set, err) => html`
            <${Field} label="From quantity" name="band_min_qty" type="number" min="0" step="1" inputMode="numeric" value=${b.min_qty}
              error=${err.min_qty} autofocus=${i === 0} onInput=${(e) => set("min_qty", e.currentTarget.value)} />
            <${MoneyField} label="Rate per unit (₹)" name="band_rate" value=${b.rate} error=${err.rate} placeholder="e.g. 0.20"
              onInput=${(e) => set("rate", e.currentTarget.value)} />`} />
      </div>
      <${DialogActions} onClose=${onClose} saving=${form.saving} label="Save rate card" />
    </${Form}>
  </${Dialog}>`;
}

/** Owner only (the API reads rate cards for the owner). */
export function RateCardCard({ module }) {
  const [on, setOn] = useState("");
  const { data, error, loading, reload } = useFetch(`/api/modules/${enc(module.id)}/rate-card`, on ? { on } : null);
  const [adding, setAdding] = useState(false);
  const bands = (data && data.bands) || [];
  const columns = [
    { key: "min_qty", label: "From quantity", class: "num", render: (b) => integer(b.min_qty) },
    { key: "rate", label: "Rate per unit", class: "num", render: (b) => rupees(b.rate) },
  ];
  let body;
  if (!data && loading) body = html`<${Loading} label="Loading the rate card…" />`;
  else if (error) body = html`<${Notice} tone="danger" alert=${true}>${error.message}</${Notice}>`;
  else if (!data.effective_from) body = html`<${EmptyState} title=${on ? `No rate card on ${date(on)}.` : "No rate card in force."} />`;
  else {
    body = html`<p class="card-lead">In force since <strong>${date(data.effective_from)}</strong>${on ? ` (on ${date(on)})` : ""}; minimum order ${integer(bands[0].min_qty)} units.</p>
      <div class="table-boxed"><${DataTable} caption="Rate card bands" columns=${columns} rows=${bands.map((b) => ({ ...b, id: String(b.min_qty) }))} /></div>`;
  }
  return html`${adding && html`<${NewRateCardDialog} module=${module} onClose=${() => setAdding(false)} onSaved=${(card) => {
      setAdding(false);
      reload();
      toast.success(`Rate card from ${date(card.effective_from)} saved.`);
    }} />`}
    <${Card} title="Rate card" class="section-card rate-card"
      actions=${html`<button type="button" class="btn btn-sm" onClick=${() => setAdding(true)}>New rate card</button>`}>
      <div data-testid="rate-card">${body}</div>
      <div class="card-foot-form">
        <${DateField} label="Show the card in force on" name="rate_card_on" value=${on} optional onChange=${setOn}
          hint="Empty: today. Use it to check a card that starts later." />
      </div>
    </${Card}>`;
}

/** The revenue total over every active subscriber (not just this page), at today's price. */
function RosterTotal({ module, list }) {
  const footer = list.data && list.data.footer;
  if (!footer) return null;
  return html`<div class="stat-row">
    <div class="stat" data-testid="revenue-total">
      <span class="stat-label">Revenue at today's price</span>
      <span class="stat-value">${rupees(footer.revenue_total)}</span>
    </div>
    <p class="hint stat-note">${`${integer(list.total)} active ${list.total === 1 ? "subscriber" : "subscribers"} × ${module.price_today === null ? "no price today" : rupees(module.price_today)}.`}</p>
  </div>`;
}

/** Props: module, canNotify (owner and managers: "Email all subscribers"). */
export function RosterCard({ module, canNotify }) {
  const list = useUrlList(`/api/modules/${enc(module.id)}/clients`, [], { perPage: 25 });
  const [notifying, setNotifying] = useState(false);
  const [report, setReport] = useState(null);
  const columns = [
    { key: "client_name", label: "Client", wrap: true, render: (r) => html`<${Link} class="cell-main" href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>` },
    { key: "price", label: "Price today", class: "num", render: (r) => (r.price === null ? html`<span class="muted">No price</span>` : rupees(r.price)) },
    { key: "next_renewal", label: "Next renewal", render: (r) => (r.next_renewal ? date(r.next_renewal) : html`<span class="muted">—</span>`) },
    { key: "open", label: "Project", class: "actions-col", render: (r) => html`<${Link} class="btn btn-sm" href=${projectUrl(r.client_module_id)}
        aria-label=${`Open the project of ${r.client_name}`}>Open</${Link}>` },
  ];
  return html`${notifying && html`<${NotifyDialog} module=${module} subscribers=${list.data ? list.total : undefined}
      onClose=${() => setNotifying(false)} onDone=${(r) => {
        setNotifying(false);
        setReport(r);
        if (r.failed.length || r.unreachable.length) toast.info(`Sent ${r.sent} of ${r.roster}: see who was not reached.`);
        else toast.success(`Sent to all ${r.sent} subscribers.`);
      }} />`}
    <${Card} title="Roster" class="section-card roster-card"
    actions=${html`${canNotify && html`<button type="button" class="btn btn-sm" onClick=${() => setNotifying(true)}>Email all subscribers</button>`}
      <a class="btn btn-sm" href=${`/api/modules/${enc(module.id)}/clients.csv`} download=${`${module.code}-clients.csv`}>Download CSV</a>
      <a class="btn btn-sm" href=${`/api/modules/${enc(module.id)}/clients.xlsx`} download=${`${module.code}-clients.xlsx`} data-testid="roster-xlsx">Download Excel</a>`}>
    ${report && html`<${NotifyResult} report=${report} onDismiss=${() => setReport(null)} />`}
    <${RosterTotal} module=${module} list=${list} />
    <div data-testid="roster" class="table-inset">
      <${DataTable} caption=${`Subscribers of ${module.name}`} columns=${columns} empty="No active subscribers."
        rowAttrs=${(r) => ({ "data-id": r.client_module_id })} ...${list.tableProps} />
    </div>
  </${Card}>`;
}
