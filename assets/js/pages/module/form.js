// The module form (new module and the module page's edit form): the module's own fields, its
// packs and the field-spec editor (the custom fields each subscription fills in). Also the
// read-only view of the same for users who may not edit the catalog.
import { html, useState, useRef } from "/vendor/preact-htm.js";
import { post, patch } from "../../api.js";
import { integer } from "../../format.js";
import {
  useForm, Form, Field, SubmitButton, fieldError, RowsEditor, keyed, unkeyed, listFieldError, focusRowControl,
  Badge, EmptyState, useFetch, useLeaveGuard, upperField,
} from "../../components.js";

export const FIELD_TYPES = [
  { value: "text", label: "Text" },
  { value: "integer", label: "Integer" },
  { value: "decimal", label: "Decimal" },
  { value: "date", label: "Date" },
  { value: "boolean", label: "Yes / no" },
  { value: "select", label: "Select" },
  { value: "email", label: "Email" },
  { value: "phone", label: "Phone" },
  { value: "url", label: "URL" },
];
export const typeLabel = (t) => (FIELD_TYPES.find((x) => x.value === t) || { label: t }).label;

/** "Sender ID" → "sender_id" (what the server wants for a field key). */
export function keyFromLabel(label) {
  return String(label || "").trim().toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
}

const BASE = ["name", "kind", "sac", "gst_rate", "renewal_months", "quote_content"];
const str = (v) => (v === null || v === undefined ? "" : String(v));

function startValues(module) {
  const v = { code: module ? module.code : "", active: module ? !!module.active : true };
  for (const k of BASE) v[k] = str(module && module[k]);
  if (!module) {
    v.gst_rate = "18";
    v.renewal_months = "12";
  }
  return v;
}

const specRows = (module) => keyed(((module && module.field_spec) || []).map((f) => ({
  key: f.key, label: f.label, type: f.type, options: (f.options || []).join(", "), required: !!f.required,
})));
const packRows = (module) => keyed(((module && module.packs) || []).map((p) => ({ name: p.name, qty: str(p.qty) })));

function wholeNumber(name, text, message) {
  const t = text.trim();
  if (t === "") return undefined;
  if (!/^\d+$/.test(t)) throw fieldError(name, message);
  return Number(t);
}

/**
 * Create (no `module`) or edit a module. onSaved(module) gets the server's answer; on an edit
 * with nothing changed it gets null.
 */
export function ModuleForm({ module, onSaved, onCancel }) {
  const form = useForm(startValues(module));
  const [packs, setPacks] = useState(() => packRows(module));
  const [spec, setSpec] = useState(() => specRows(module));
  const [startRows] = useState(() => JSON.stringify([packs, spec]));
  useLeaveGuard((form.dirty || JSON.stringify([packs, spec]) !== startRows) && !form.saving);
  const [rowErrors, setRowErrors] = useState({ packs: {}, field_spec: {} });
  const [packsError, setPacksError] = useState(null);
  const packsRef = useRef(null);
  const specRef = useRef(null);
  const { data: catalog } = useFetch("/api/modules", { per_page: 200 });
  const kinds = [...new Set(((catalog && catalog.rows) || []).map((m) => m.kind).filter(Boolean))].sort();

  const setRows = (setter, list) => (rows) => {
    setter(rows);
    setRowErrors((e) => ({ ...e, [list]: {} }));
    if (list === "packs") setPacksError(null);
  };

  const pinRow = (list, index, key, message) => {
    setRowErrors((e) => ({ ...e, [list]: { [index]: { [key]: message } } }));
    const names = list === "packs" ? { name: "pack_name", qty: "pack_qty" } : { key: "field_key", label: "field_label", type: "field_type", options: "field_options", required: "field_required" };
    focusRowControl((list === "packs" ? packsRef : specRef).current, index, names[key] || "");
  };

  const onSubmit = form.submit(async (v) => {
    setRowErrors({ packs: {}, field_spec: {} });
    setPacksError(null);
    const body = {};
    if (!module) {
      const code = v.code.trim().toUpperCase();
      if (!code) throw fieldError("code", "Give the module a code, such as SMS.");
      if (!/^[A-Z][A-Z0-9_]*$/.test(code)) throw fieldError("code", "Upper-case letters, digits and _, starting with a letter.");
      body.code = code;
    }
    if (!v.name.trim()) throw fieldError("name", "Give the module a name.");
    body.name = v.name.trim();
    for (const k of ["kind", "sac"]) body[k] = v[k].trim();
    body.quote_content = v.quote_content.trim() ? v.quote_content : "";
    const gst = wholeNumber("gst_rate", v.gst_rate, "The GST rate is a whole percent, 0 to 28.");
    if (gst !== undefined) body.gst_rate = gst;
    const months = wholeNumber("renewal_months", v.renewal_months, "Renewal is a whole number of months, 1 to 120.");
    if (months !== undefined) body.renewal_months = months;
    body.active = v.active ? 1 : 0;
    const packList = [];
    for (const [i, p] of packs.entries()) {
      if (!p.name.trim()) return pinRow("packs", i, "name", "Name the pack.");
      if (!/^\d+$/.test(p.qty.trim()) || Number(p.qty) <= 0) return pinRow("packs", i, "qty", "A pack's quantity is a whole number above 0.");
      packList.push({ name: p.name.trim(), qty: Number(p.qty.trim()) });
    }
    body.packs = packList;
    body.field_spec = spec.map((r) => {
      const f = unkeyed(r);
      return {
        key: f.key.trim() || keyFromLabel(f.label),
        label: f.label.trim(),
        type: f.type,
        options: f.type === "select" ? f.options.split(",").map((o) => o.trim()).filter(Boolean) : [],
        required: !!f.required,
      };
    });
    let answer;
    try {
      if (module) {
        // Only what changed; the code is fixed once created.
        const before = { ...startValues(module), packs: module.packs || [], field_spec: module.field_spec || [] };
        const changes = {};
        for (const [k, val] of Object.entries(body)) {
          const old = k === "active" ? (module.active ? 1 : 0) : k === "packs" || k === "field_spec" ? before[k] : k === "gst_rate" || k === "renewal_months" ? module[k] : str(module[k]);
          if (JSON.stringify(val) !== JSON.stringify(old)) changes[k] = val;
        }
        if (Object.keys(changes).length === 0) return onSaved(null);
        answer = await patch(`/api/modules/${encodeURIComponent(module.id)}`, changes);
      } else {
        answer = await post("/api/modules", body);
      }
    } catch (err) {
      const at = listFieldError(err);
      if (at && (at.list === "field_spec" || at.list === "packs")) return pinRow(at.list, at.index, at.key || "key", at.message);
      if (err && err.field === "packs") return setPacksError(err.message);
      throw err;
    }
    onSaved(answer);
  });

  const specErrors = rowErrors.field_spec;
  return html`<${Form} onSubmit=${onSubmit} error=${form.formError} label=${module ? "Edit module" : "New module"} class="module-form">
    <fieldset class="form-section">
      <legend>Module</legend>
      <div class="form-grid">
        ${module
          ? html`<${Field} label="Code" name="code" value=${module.code} readOnly hint="Fixed once created: settings use it." class="mono-field" />`
          : html`<${Field} label="Code" ...${upperField(form, "code")} autocomplete="off" spellcheck=${false} autocapitalize="characters" class="mono-field"
              autofocus
              hint="Upper-case letters, digits and _, e.g. SMS. It cannot change later." />`}
        <${Field} label="Name" ...${form.field("name")} autocomplete="off" />
        <${Field} label="Kind" ...${form.field("kind")} optional autocomplete="off" suggestions=${kinds} hint="e.g. software, service." />
        <${Field} label="SAC" ...${form.field("sac")} optional autocomplete="off" inputMode="numeric" hint="Services Accounting Code, e.g. 998314." />
        <${Field} label="GST rate (%)" type="number" min="0" max="28" step="1" ...${form.field("gst_rate")} inputMode="numeric" />
        <${Field} label="Renewal every (months)" type="number" min="1" max="120" step="1" ...${form.field("renewal_months")}
          optional=${!module || module.renewal_months === null} inputMode="numeric" />
        <${Field} label="Quote content" as="textarea" ...${form.field("quote_content")} optional wide rows="4"
          hint="The text a quotation shows for this module." />
      </div>
      <label class="check"><input type="checkbox" name="active" checked=${form.values.active}
        onChange=${(e) => form.set("active", e.currentTarget.checked)} /> Active: offered for new subscriptions</label>
    </fieldset>
    <fieldset class="form-section">
      <legend>Packs</legend>
      <p class="hint form-section-intro">Named quantities offered for sale, e.g. "10k SMS" of 10000.</p>
      <div ref=${packsRef}>
        <${RowsEditor} rows=${packs} onChange=${setRows(setPacks, "packs")} blank=${() => ({ name: "", qty: "" })} addLabel="Add pack"
          describe=${(r, i) => `pack ${r.name || i + 1}`} errors=${rowErrors.packs} listError=${packsError} label="Packs"
          empty="No packs." class="rows-packs"
          renderRow=${(r, i, set, err) => html`
            <${Field} label="Pack name" name="pack_name" value=${r.name} error=${err.name} autocomplete="off"
              onInput=${(e) => set("name", e.currentTarget.value)} />
            <${Field} label="Quantity" name="pack_qty" type="number" min="1" step="1" value=${r.qty} error=${err.qty} inputMode="numeric"
              onInput=${(e) => set("qty", e.currentTarget.value)} />`} />
      </div>
    </fieldset>
    <fieldset class="form-section">
      <legend>Custom fields</legend>
      <p class="hint form-section-intro">What each subscription of this module records (e.g. a sender ID). The key is how the value is stored: lower_snake_case; left empty, it is made from the label.</p>
      <div ref=${specRef}>
        <${RowsEditor} rows=${spec} onChange=${setRows(setSpec, "field_spec")} reorder addLabel="Add field" label="Custom fields"
          blank=${() => ({ key: "", label: "", type: "text", options: "", required: false })}
          describe=${(r, i) => `field ${r.label || r.key || i + 1}`} errors=${specErrors} empty="No custom fields." class="rows-spec"
          renderRow=${(r, i, set, err) => html`
            <${Field} label="Key" name="field_key" value=${r.key} error=${err.key} class="mono-field" autocomplete="off" spellcheck=${false}
              placeholder=${keyFromLabel(r.label) || "e.g. sender_id"} onInput=${(e) => set("key", e.currentTarget.value)} />
            <${Field} label="Label" name="field_label" value=${r.label} error=${err.label} autocomplete="off"
              onInput=${(e) => set("label", e.currentTarget.value)} />
            <${Field} label="Type" as="select" name="field_type" value=${r.type} error=${err.type} options=${FIELD_TYPES}
              onInput=${(e) => set("type", e.currentTarget.value)} />
            ${r.type === "select" &&
            html`<${Field} label="Options" name="field_options" value=${r.options} error=${err.options} autocomplete="off" class="spec-options"
              placeholder="Basic, Pro, Enterprise" hint="Comma-separated." onInput=${(e) => set("options", e.currentTarget.value)} />`}
            <label class="check rows-check"><input type="checkbox" name="field_required" checked=${r.required}
              onChange=${(e) => set("required", e.currentTarget.checked)} /> Required</label>`} />
      </div>
    </fieldset>
    <div class="form-actions">
      <${SubmitButton} saving=${form.saving}>${module ? "Save module" : "Create module"}</${SubmitButton}>
      ${onCancel && html`<button type="button" class="btn" onClick=${onCancel} disabled=${form.saving}>Cancel</button>`}
    </div>
  </${Form}>`;
}

/** The module as text, for users who may read the catalog but not change it. */
export function ModuleDetails({ module: m }) {
  const row = (label, value) => html`<div class="detail"><dt>${label}</dt><dd>${value === null || value === undefined || value === "" ? html`<span class="muted">—</span>` : value}</dd></div>`;
  return html`<dl class="details">
      ${row("Code", html`<span class="mono-ish">${m.code}</span>`)}
      ${row("Kind", m.kind)}
      ${row("SAC", m.sac)}
      ${row("GST rate", `${m.gst_rate}%`)}
      ${row("Renewal", m.renewal_months ? `Every ${m.renewal_months} months` : "")}
      ${row("Status", html`<${Badge} tone=${m.active ? "success" : "neutral"}>${m.active ? "Active" : "Retired"}</${Badge}>`)}
      <div class="detail wide"><dt>Quote content</dt><dd class="pre-wrap">${m.quote_content || html`<span class="muted">—</span>`}</dd></div>
      <div class="detail wide"><dt>Packs</dt><dd>${m.packs && m.packs.length
        ? html`<ul class="plain-list">${m.packs.map((p) => html`<li>${p.name}: ${integer(p.qty)}</li>`)}</ul>`
        : html`<span class="muted">—</span>`}</dd></div>
    </dl>
    <h3 class="sub-title">Custom fields</h3>
    ${m.field_spec && m.field_spec.length
      ? html`<ul class="plain-list spec-list">${m.field_spec.map((f) => html`<li>
          <strong>${f.label}</strong> <span class="mono-ish muted">${f.key}</span> · ${typeLabel(f.type)}${f.type === "select" ? `: ${f.options.join(", ")}` : ""}
          ${f.required && html` <${Badge} tone="info">Required</${Badge}>`}
        </li>`)}</ul>`
      : html`<${EmptyState} title="No custom fields." />`}`;
}
