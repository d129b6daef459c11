// Form pieces. Every input gets a <label for>, and an error the server pins on a field (422 or
// 409 with `field`) shows beside that field with aria-invalid and aria-describedby; any other
// error shows once for the whole form in a role="alert" box.
import { html, useState, useMemo, useRef, useEffect } from "/vendor/preact-htm.js";
import { isAbort } from "../api.js";
import { parseDate, date as formatDate, paiseFromRupees, rupees } from "../format.js";
import { Spinner } from "./feedback.js";

let idSeq = 0;
/** A stable, page-unique id for label/input pairs. */
export function useId(prefix = "f") {
  return useMemo(() => `${prefix}${++idSeq}`, []);
}

/**
 * Form state in one hook.
 *   const form = useForm({ name: "", phone: "" });
 *   <${Form} onSubmit=${form.submit(async (values) => { await patch(...); })} error=${form.formError}>
 *     <${Field} label="Name" ...${form.field("name")} />
 * `submit(fn)` returns the submit handler: it blocks double submits, sets `saving`, clears old
 * errors and routes an ApiError to the field it names (when the form has that field) or to
 * `formError`. `fn` may throw `fieldError(name, message)` for client-side checks.
 */
export function useForm(initial) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState({});
  const [formError, setFormError] = useState(null);
  const [saving, setSaving] = useState(false);
  const busy = useRef(false);
  const mounted = useRef(true);
  useEffect(() => () => (mounted.current = false), []);

  const set = (name, value) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => (e[name] ? { ...e, [name]: undefined } : e));
  };

  const fail = (err) => {
    if (isAbort(err)) return;
    const fieldName = err && err.field;
    if (fieldName && Object.prototype.hasOwnProperty.call(values, fieldName)) {
      setErrors({ [fieldName]: err.message });
      // Put the cursor where the problem is.
      setTimeout(() => document.querySelector(`[aria-invalid="true"][name="${fieldName}"]`)?.focus(), 0);
    } else {
      setFormError((err && err.message) || "Something went wrong. Try again.");
    }
  };

  const submit = (fn) => async (e) => {
    if (e && e.preventDefault) e.preventDefault();
    if (busy.current) return;
    busy.current = true;
    setSaving(true);
    setErrors({});
    setFormError(null);
    try {
      await fn(values);
    } catch (err) {
      if (mounted.current) fail(err);
    } finally {
      busy.current = false;
      if (mounted.current) setSaving(false);
    }
  };

  const field = (name) => ({
    name,
    value: values[name] ?? "",
    error: errors[name],
    onInput: (e) => set(name, e.currentTarget.value),
  });

  const reset = (next = initial) => {
    setValues(next);
    setErrors({});
    setFormError(null);
  };

  return { values, setValues, set, errors, setErrors, formError, setFormError, saving, field, submit, reset, fail };
}

/** An error for one field, raised by client-side checks inside `form.submit(fn)`. */
export function fieldError(field, message) {
  const e = new Error(message);
  e.field = field;
  return e;
}

/** <form> that submits on Enter, with the form-level error in a role="alert" box. */
export function Form({ onSubmit, error, children, class: cls, id, label }) {
  return html`<form class=${`form ${cls || ""}`} id=${id} onSubmit=${onSubmit} novalidate aria-label=${label}>
    ${error && html`<div class="form-error" role="alert">${error}</div>`}
    ${children}
  </form>`;
}

/**
 * A labelled input, select or textarea with its hint and error.
 * Props: label, name, value, onInput, error, hint, type ("text"), as ("input" | "select" |
 * "textarea"), options ([{value, label}] for a select), optional (adds "(optional)" to the
 * label), readOnly, required, autocomplete, inputMode, placeholder, autofocus, wide,
 * suggestions ([text]: offered as you type, through a <datalist>; any text is still accepted),
 * after (markup shown under the control, e.g. a live preview).
 * Any other prop goes to the control.
 */
export function Field({ label, name, value, onInput, error, hint, type = "text", as = "input", options, optional, wide, suggestions, after, children, class: cls, ...rest }) {
  const id = useId("f-");
  const listId = suggestions ? `${id}-list` : undefined;
  const hintId = hint ? `${id}-hint` : null;
  const errorId = error ? `${id}-error` : null;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    name,
    value,
    onInput,
    // Also on change: a value set without input events (autofill, WebDriver's clear) must
    // reach the state, or the next render would put the old value back.
    onChange: onInput,
    "aria-invalid": error ? "true" : undefined,
    "aria-describedby": describedBy,
    class: `control${rest.readOnly ? " readonly" : ""}`,
    ...rest,
  };
  let control;
  if (as === "select") {
    // onChange as well as onInput: some assistive tools only fire change on selects.
    control = html`<select ...${common} onChange=${onInput}>
      ${options ? options.map((o) => html`<option value=${o.value}>${o.label}</option>`) : children}
    </select>`;
  } else if (as === "textarea") {
    control = html`<textarea ...${common}></textarea>`;
  } else {
    control = html`<input type=${type} list=${listId} ...${common} />`;
  }
  return html`<div class=${`field${wide ? " wide" : ""}${error ? " has-error" : ""} ${cls || ""}`}>
    <label for=${id}>${label}${optional && html` <span class="optional">(optional)</span>`}</label>
    ${control}
    ${listId && html`<datalist id=${listId}>${suggestions.map((o) => html`<option value=${o}></option>`)}</datalist>`}
    ${after}
    ${error && html`<p class="field-error" id=${errorId}>${error}</p>`}
    ${hint && html`<p class="hint" id=${hintId}>${hint}</p>`}
  </div>`;
}

/** A read-only value shown like a field (for values the user may see but not change). */
export function StaticField({ label, value, name }) {
  const id = useId("s-");
  return html`<div class="field">
    <label for=${id}>${label}</label>
    <input id=${id} name=${name} class="control readonly" value=${value ?? ""} readOnly />
  </div>`;
}

/** The submit button: disabled with a spinner while `saving`, its text kept. */
export function SubmitButton({ saving, children, tone = "primary", disabled }) {
  return html`<button type="submit" class=${`btn btn-${tone}`} disabled=${saving || disabled} aria-busy=${saving ? "true" : undefined}>
    ${saving && html`<span class="spinner small" aria-hidden="true"></span>`}${children}
  </button>`;
}

/**
 * A date typed as DD-MM-YYYY (the office's way of writing dates), whatever the browser's
 * locale. `value` and `onChange` use ISO "YYYY-MM-DD" ("" when cleared); `onChange` fires
 * when the user leaves the field or presses Enter with a valid date ("2026-11-22" is taken too).
 * `error` shows a server's complaint about the field (the field's own format check comes first);
 * `autofocus` puts the cursor there first (e.g. in a dialog).
 */
export function DateField({ label, name, value, onChange, hint, optional, error: outerError, autofocus }) {
  const [text, setText] = useState(formatDate(value));
  const [error, setError] = useState(null);
  useEffect(() => {
    setText(formatDate(value));
    setError(null);
  }, [value]);
  // Reads the control itself: its value may have been set without an input event.
  const commit = (e) => {
    const raw = e && e.currentTarget ? e.currentTarget.value : text;
    if (raw !== text) setText(raw);
    const t = raw.trim();
    if (t === "") {
      setError(null);
      if (value) onChange("");
      return;
    }
    const iso = parseDate(t) || (/^\d{4}-\d{2}-\d{2}$/.test(t) && parseDate(formatDate(t)));
    if (!iso) {
      setError("Write the date as DD-MM-YYYY, e.g. 22-11-2026.");
      return;
    }
    setError(null);
    setText(formatDate(iso));
    if (iso !== value) onChange(iso);
  };
  const onKeyDown = (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      commit(e);
    }
  };
  return html`<${Field}
    label=${label}
    name=${name}
    value=${text}
    onInput=${(e) => setText(e.currentTarget.value)}
    onChange=${commit}
    onKeyDown=${onKeyDown}
    error=${error || outerError}
    hint=${hint}
    optional=${optional}
    placeholder="DD-MM-YYYY"
    inputMode="numeric"
    autocomplete="off"
    maxLength="10"
    class="date-field"
    autofocus=${autofocus}
  />`;
}

/**
 * An amount of rupees typed as text ("2,500.50", "₹1,23,456"); under the control it shows what
 * the text reads as ("= ₹2,500.50"). Turn the value into paise with paiseFromRupees() when
 * submitting (null: not an amount). Other props as for Field.
 */
export function MoneyField({ value, placeholder = "e.g. 2,500.50", ...rest }) {
  const paise = paiseFromRupees(value);
  const after = paise !== null && String(value).trim() !== "" ? html`<p class="money-preview">= ${rupees(paise)}</p>` : null;
  return html`<${Field} ...${rest} value=${value} inputMode="decimal" autocomplete="off" spellcheck=${false}
    placeholder=${placeholder} after=${after} class="money-field" />`;
}
