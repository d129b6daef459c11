// What the project screens share (the client page's modules card, the project page, the
// projects board): status badges, and the custom fields a module's field_spec asks for, as
// controls and as the field_values map the API takes.
import { html, useState, useEffect } from "/vendor/preact-htm.js";
import { post } from "../api.js";
import { humanize, duration } from "../format.js";
import { Badge, Field, DateField, Notice, TimedSecret } from "../components.js";

export const projectUrl = (id) => `/projects/${encodeURIComponent(id)}`;

// A project's status is free text; these are the ones the server itself sets or starts with.
export const STATUS_SUGGESTIONS = ["new", "installed", "trained", "live", "on_hold", "cancelled"];
const STATUS_TONE = { new: "info", installed: "warning", trained: "success", live: "success", on_hold: "neutral", cancelled: "danger" };

export function ProjectStatusBadge({ status, active = 1 }) {
  return html`<span class="badges">
    <${Badge} tone=${STATUS_TONE[status] || "neutral"}>${humanize(status)}</${Badge}>
    ${!active && html`<${Badge} tone="neutral">Inactive</${Badge}>`}
  </span>`;
}

/** The reveal limit's message (20 reveals a minute per person), else the server's. */
export function revealFailure(err) {
  if (err.status === 429) {
    const wait = err.retryAfter !== null && err.retryAfter !== undefined ? ` Try again in ${duration(err.retryAfter)}.` : " Wait a minute and try again.";
    return `Too many reveals: at most 20 a minute per person.${wait}`;
  }
  return err.message;
}

/**
 * A list's portal passwords, revealed one row at a time (the audited reveal route; 30 seconds on
 * screen) and hidden again when any of `resetKeys` changes (another page or filter): the row's
 * `reveal(r)`, whether a row is `revealing`, and `secretOf(r)`, the row's expanded secret or error.
 */
export function usePortalReveal(resetKeys) {
  const [revealed, setRevealed] = useState(null); // { id, value }
  const [revealing, setRevealing] = useState(null);
  const [revealError, setRevealError] = useState(null); // { id, message }
  useEffect(() => {
    setRevealed(null);
    setRevealError(null);
  }, resetKeys);
  const reveal = async (r) => {
    const id = r.client_module_id;
    setRevealing(id);
    setRevealError(null);
    try {
      const answer = await post(`/api/client-modules/${encodeURIComponent(id)}/reveal-password`, {});
      setRevealed({ id, value: answer.password || "" });
    } catch (err) {
      setRevealed(null);
      setRevealError({ id, message: revealFailure(err) });
    } finally {
      setRevealing(null);
    }
  };
  const secretOf = (r) => {
    if (revealed && revealed.id === r.client_module_id) {
      return html`<${TimedSecret} secret=${revealed.value} seconds=${30} label=${`Portal password of ${r.client_name}${r.username ? ` (${r.username})` : ""}`}
        onHide=${() => setRevealed(null)} />`;
    }
    if (revealError && revealError.id === r.client_module_id) return html`<${Notice} tone="danger" alert=${true}>${revealError.message}</${Notice}>`;
    return null;
  };
  return { reveal, revealing, secretOf };
}

/** The form state of a spec's fields from stored values: text for inputs, booleans for checkboxes. */
export function fieldStart(spec, stored) {
  const v = {};
  for (const f of spec || []) {
    const s = stored ? stored[f.key] : undefined;
    if (f.type === "boolean") v[f.key] = s === true;
    else v[f.key] = s === null || s === undefined ? "" : String(s);
  }
  return v;
}

/**
 * The field_values map to send: whole numbers as JSON numbers, decimals as the text typed (the
 * server keeps it exactly), yes/no as true/false, empty values left out. A value the server
 * would refuse is sent as typed, so its message (naming the field) comes back.
 */
export function fieldValuesBody(spec, values) {
  const body = {};
  for (const f of spec || []) {
    const v = values[f.key];
    if (f.type === "boolean") {
      body[f.key] = !!v;
      continue;
    }
    const t = String(v ?? "").trim();
    if (t === "") continue;
    if (f.type === "integer" && /^-?\d+$/.test(t) && Number.isSafeInteger(Number(t))) body[f.key] = Number(t);
    else body[f.key] = t;
  }
  return body;
}

const INPUT_TYPES = { email: "email", phone: "tel", url: "url", integer: "number", decimal: "number" };

/**
 * The controls of a module's custom fields, each named by its key.
 * Props: spec, values (from fieldStart), errors ({key: message}), onChange(key, value), idle
 * (text when the spec is empty).
 */
export function CustomFields({ spec, values, errors = {}, onChange, idle = "This module has no custom fields." }) {
  if (!spec || spec.length === 0) return html`<p class="hint">${idle}</p>`;
  return html`<div class="form-grid custom-fields">
    ${spec.map((f) => {
      const common = { key: f.key, label: f.label, name: f.key, error: errors[f.key], optional: !f.required };
      if (f.type === "boolean") {
        return html`<div key=${f.key} class=${`field check-field${errors[f.key] ? " has-error" : ""}`}>
          <label class="check"><input type="checkbox" name=${f.key} checked=${!!values[f.key]}
            onChange=${(e) => onChange(f.key, e.currentTarget.checked)} /> ${f.label}</label>
          ${errors[f.key] && html`<p class="field-error">${errors[f.key]}</p>`}
        </div>`;
      }
      if (f.type === "date") {
        return html`<${DateField} ...${common} value=${values[f.key] || ""} onChange=${(d) => onChange(f.key, d)} />`;
      }
      if (f.type === "select") {
        const options = [{ value: "", label: f.required ? "Choose…" : "—" }, ...(f.options || []).map((o) => ({ value: o, label: o }))];
        if (values[f.key] && !(f.options || []).includes(values[f.key])) options.push({ value: values[f.key], label: `${values[f.key]} (no longer offered)` });
        return html`<${Field} ...${common} as="select" value=${values[f.key] || ""} options=${options}
          onInput=${(e) => onChange(f.key, e.currentTarget.value)} />`;
      }
      const extra = f.type === "integer" ? { step: "1", inputMode: "numeric" } : f.type === "decimal" ? { step: "any", inputMode: "decimal" } : {};
      return html`<${Field} ...${common} ...${extra} type=${INPUT_TYPES[f.type] || "text"} value=${values[f.key] ?? ""} autocomplete="off"
        spellcheck=${f.type === "text"} placeholder=${f.type === "url" ? "https://" : undefined}
        onInput=${(e) => onChange(f.key, e.currentTarget.value)} />`;
    })}
  </div>`;
}
