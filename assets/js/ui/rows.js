// Editable lists inside a form (a module's packs and custom fields, rate-card bands, checklist
// steps): rows of controls with Move up / Move down / Remove, an Add button, and errors the
// server pins on one row (`field_spec[2].type`) shown beside that row's control.
import { html, useRef, useEffect } from "/vendor/preact-htm.js";

let rowSeq = 0;

/** Gives each row a stable `_id` (Preact's key), so editing or moving rows keeps focus and state. */
export function keyed(rows) {
  return (rows || []).map((r) => ({ ...r, _id: r._id || `r${++rowSeq}` }));
}

/** A row without its `_id`, ready to send. */
export function unkeyed({ _id, ...rest }) {
  return rest;
}

/**
 * Reads a list path from an API error's field: "bands[1].rate" → { list: "bands", index: 1,
 * key: "rate" }; "steps[0]" → { list: "steps", index: 0, key: null }; anything else → null.
 */
export function listFieldError(err) {
  const m = err && typeof err.field === "string" ? /^([A-Za-z_]\w*)\[(\d+)\](?:\.(\w+))?$/.exec(err.field) : null;
  return m ? { list: m[1], index: Number(m[2]), key: m[3] || null, message: err.message } : null;
}

/** Focuses the control `name` of row `index` inside `root` (after an error pinned there). */
export function focusRowControl(root, index, name) {
  setTimeout(() => {
    const row = root && root.querySelectorAll(".rows-list > li")[index];
    const el = row && (row.querySelector(`[name="${name}"]`) || row.querySelector("input, select, textarea"));
    if (el) el.focus();
  }, 0);
}

/**
 * The list editor.
 * Props:
 *   rows (each with `_id`: see keyed()), onChange(nextRows)
 *   renderRow(row, index, set(key, value), errors) → the row's controls (Fields)
 *   blank() → a new row (without _id), addLabel ("Add row"), max (no Add past it)
 *   describe(row, index) → how the row's buttons name it ("field 2"), reorder (Move up/down buttons)
 *   errors: { [index]: { [key]: message } }, listError (a message about the whole list)
 *   empty (text shown when there are no rows), label (names the list for screen readers),
 *   class (extra class on the <ol>, e.g. a grid layout for the row cells), readOnly (no buttons)
 */
export function RowsEditor({ rows, onChange, renderRow, blank, addLabel = "Add row", max, describe = (_r, i) => `row ${i + 1}`, reorder = false, errors = {}, listError, empty, label, class: cls, readOnly = false }) {
  const listRef = useRef(null);
  const focusNew = useRef(false);
  useEffect(() => {
    if (!focusNew.current) return;
    focusNew.current = false;
    const items = listRef.current ? listRef.current.querySelectorAll(":scope > li") : [];
    const last = items[items.length - 1];
    const first = last && last.querySelector("input:not([type=checkbox]), select, textarea");
    if (first) first.focus();
  });
  const set = (i) => (key, value) => onChange(rows.map((r, j) => (j === i ? { ...r, [key]: value } : r)));
  const remove = (i) => onChange(rows.filter((_r, j) => j !== i));
  const move = (i, delta) => {
    const j = i + delta;
    if (j < 0 || j >= rows.length) return;
    const next = rows.slice();
    [next[i], next[j]] = [next[j], next[i]];
    onChange(next);
  };
  const add = () => {
    focusNew.current = true;
    onChange([...rows, ...keyed([blank()])]);
  };
  return html`<div class="rows-editor">
    ${rows.length === 0 && empty && html`<p class="hint rows-empty">${empty}</p>`}
    <ol class=${`rows-list ${cls || ""}`} ref=${listRef} aria-label=${label}>
      ${rows.map((row, i) => {
        const name = describe(row, i);
        return html`<li key=${row._id} class=${`rows-item${errors[i] ? " has-error" : ""}`}>
          <div class="rows-cells">${renderRow(row, i, set(i), errors[i] || {})}</div>
          ${!readOnly &&
          html`<div class="rows-tools">
            ${reorder &&
            html`<button type="button" class="btn btn-sm icon-only" aria-label=${`Move ${name} up`} title="Move up"
                disabled=${i === 0} onClick=${() => move(i, -1)}>↑</button>
              <button type="button" class="btn btn-sm icon-only" aria-label=${`Move ${name} down`} title="Move down"
                disabled=${i === rows.length - 1} onClick=${() => move(i, 1)}>↓</button>`}
            <button type="button" class="btn btn-sm icon-only" aria-label=${`Remove ${name}`} title="Remove" onClick=${() => remove(i)}>×</button>
          </div>`}
        </li>`;
      })}
    </ol>
    ${listError && html`<p class="field-error" role="alert">${listError}</p>`}
    ${!readOnly && (!max || rows.length < max) && html`<button type="button" class="btn btn-sm" onClick=${add}>${addLabel}</button>`}
  </div>`;
}
