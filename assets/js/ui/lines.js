// The lines of a draft: a RowsEditor row per line (module or free line, description, SAC, qty,
// unit price, GST %) with what the live preview made of it (the unit price and where it came
// from, taxable value, total), and the hook that asks the server for that preview as you type.
import { html, useState, useEffect, useRef } from "/vendor/preact-htm.js";
import { post, isAbort } from "../api.js";
import { rupees, integer } from "../format.js";
import { Field, RowsEditor, Spinner } from "../components.js";
import { blankLine, SOURCE_LABEL } from "./documents.js";

/**
 * POSTs `body` to /api/documents/preview 300 ms after it last changed (null: nothing to ask).
 * Returns { data, error, pending }: `data` stays the last good answer while a newer one is on
 * its way, and a superseded request is aborted so an old answer never wins.
 * Options: `path` (another preview, e.g. /api/previews/sample), `refresh` (change it to ask
 * again with the same body, e.g. after a logo upload).
 */
export function usePreview(body, { path = "/api/documents/preview", refresh = 0 } = {}) {
  // `state.key` is the body an answer is for; the request is redone when `ask` changes.
  const key = body ? JSON.stringify(body) : null;
  const ask = key && `${path} ${refresh} ${key}`;
  const [state, setState] = useState({ data: null, error: null, pending: false, key: null });
  const bodyRef = useRef(body);
  bodyRef.current = body;
  useEffect(() => {
    if (!ask) {
      setState({ data: null, error: null, pending: false, key: null });
      return undefined;
    }
    setState((s) => ({ ...s, pending: true }));
    const ctl = new AbortController();
    const timer = setTimeout(() => {
      post(path, bodyRef.current, { signal: ctl.signal })
        .then((data) => setState({ data, error: null, pending: false, key }))
        .catch((error) => {
          if (!isAbort(error)) setState((s) => ({ ...s, error, pending: false, key }));
        });
    }, 300);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [ask]);
  return state;
}

/** What the preview made of one line: unit price and its source, taxable value, total. */
function Priced({ line, excluded, waiting }) {
  if (excluded) return html`<p class="line-priced is-excluded" data-testid="line-priced">Left out of the totals until it is fixed.</p>`;
  if (!line) {
    return html`<p class="line-priced" data-testid="line-priced">${waiting ? html`<${Spinner} small=${true} label="Pricing" showLabel=${true} />` : html`<span class="muted">Not priced yet.</span>`}</p>`;
  }
  return html`<p class="line-priced" data-testid="line-priced">
    <span><span class="muted">Unit price</span> <strong data-testid="line-unit-price">${rupees(line.unit_price)}</strong>
      <span class=${`price-source source-${line.price_source}`} data-testid="line-source">${SOURCE_LABEL[line.price_source] || line.price_source}</span></span>
    <span><span class="muted">Qty</span> ${integer(line.qty)} <span class="muted">· GST</span> ${line.gst_rate}%</span>
    <span><span class="muted">Taxable</span> <span data-testid="line-taxable">${rupees(line.taxable)}</span></span>
    <span><span class="muted">Total</span> <strong data-testid="line-total">${rupees(line.total)}</strong></span>
  </p>`;
}

/**
 * Props: rows (keyed editor rows), onChange(rows), modules (active modules), errors ({row: {key:
 * message}}), listError, priced ({row: priced line} from the preview), excluded ({row: true}
 * for rows the totals leave out), waiting (a preview is on its way), readOnly.
 */
export function LinesEditor({ rows, onChange, modules, errors = {}, listError, priced = {}, excluded = {}, waiting }) {
  const byId = Object.fromEntries(modules.map((m) => [m.id, m]));
  const moduleOptions = [{ value: "", label: "Free line" }, ...modules.map((m) => ({ value: m.id, label: `${m.name} (${m.code})` }))];
  // A line may name a module that has since left the active catalog: keep it choosable.
  for (const r of rows) {
    if (r.module_id && !byId[r.module_id] && !moduleOptions.some((o) => o.value === r.module_id)) moduleOptions.push({ value: r.module_id, label: "Module no longer in the catalog" });
  }
  const pickModule = (i, moduleId) => {
    const row = rows[i];
    const before = byId[row.module_id];
    const patch = { module_id: moduleId };
    // Values that only echoed the old module (its name, SAC, GST rate) follow the new one.
    if (before) {
      if (row.description.trim() === before.name) patch.description = "";
      if (before.sac && row.sac.trim() === before.sac) patch.sac = "";
      if (row.gst_rate.trim() === String(before.gst_rate)) patch.gst_rate = "";
    }
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  };
  return html`<div class="doc-lines" data-testid="lines">
    <p class="hint lines-lead">A module line left without a unit price is priced on the document date by the module's rate card band
      for its quantity, else its price book; a price typed in overrides both.</p>
    <${RowsEditor} rows=${rows} onChange=${onChange} blank=${blankLine} addLabel="Add line" reorder max=${500}
      describe=${(_r, i) => `line ${i + 1}`} errors=${errors} listError=${listError} label="Lines" class="rows-doc-lines"
      empty="No lines yet: add a module or a free line."
      renderRow=${(r, i, set, err) => {
        const m = byId[r.module_id];
        return html`
          <span class="line-number" aria-hidden="true">${i + 1}</span>
          <${Field} label="Module" as="select" name="module_id" value=${r.module_id} options=${moduleOptions} error=${err.module_id}
            class="line-module" onInput=${(e) => pickModule(i, e.currentTarget.value)} />
          <${Field} label="Description" name="description" value=${r.description} error=${err.description} class="line-desc"
            placeholder=${m ? m.name : "What is sold"} autocomplete="off" onInput=${(e) => set("description", e.currentTarget.value)} />
          <${Field} label="SAC" name="sac" value=${r.sac} error=${err.sac} class="line-sac" placeholder=${m && m.sac ? m.sac : ""}
            autocomplete="off" inputMode="numeric" onInput=${(e) => set("sac", e.currentTarget.value)} />
          <${Field} label="Qty" name="qty" value=${r.qty} error=${err.qty} class="line-qty" inputMode="numeric" autocomplete="off"
            onInput=${(e) => set("qty", e.currentTarget.value)} />
          <${Field} label="Unit price (₹)" name="unit_price" value=${r.unit_price} error=${err.unit_price} class="line-price"
            placeholder=${m ? "Auto" : "Required"} inputMode="decimal" autocomplete="off"
            title=${m ? "Leave empty to price it by the rate card or the price book; a price given here overrides both." : undefined}
            onInput=${(e) => set("unit_price", e.currentTarget.value)} />
          <${Field} label="GST %" name="gst_rate" value=${r.gst_rate} error=${err.gst_rate} class="line-gst" inputMode="numeric"
            placeholder=${m ? String(m.gst_rate) : "18"} autocomplete="off" onInput=${(e) => set("gst_rate", e.currentTarget.value)} />
          <${Priced} line=${priced[i]} excluded=${excluded[i]} waiting=${waiting} />`;
      }} />
  </div>`;
}
