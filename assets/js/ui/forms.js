// Form pieces. Every input gets a <label for>, and an error the server pins on a field (422 or
// 409 with `field`) shows beside that field with aria-invalid and aria-describedby; any other
// error shows once for the whole form in a role="alert" box.
import { html, useState, useMemo, useRef, useEffect } from "/vendor/preact-htm.js";
import { isAbort } from "../api.js";
import { parseDate, noSuchDate, date as formatDate, paiseFromRupees, rupees } from "../format.js";
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
  // What the form held when it was last set up (initial or reset): it is dirty once it differs.
  const [clean, setClean] = useState(() => JSON.stringify(initial));
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
    const has = (name) => name && Object.prototype.hasOwnProperty.call(values, name);
    // A 422 may name every invalid field (`errors`); show each beside its field at once.
    const listed = err && err.body && Array.isArray(err.body.errors) ? err.body.errors : [];
    const all = listed.length ? listed : err && err.field ? [{ field: err.field, message: err.message }] : [];
    const mine = all.filter((e) => has(e.field));
    const others = all.filter((e) => !has(e.field));
    if (mine.length) {
      setErrors(Object.fromEntries(mine.map((e) => [e.field, e.message])));
      if (others.length) setFormError(others.map((e) => e.message).join(" "));
      // Put the cursor where the first problem is.
      setTimeout(() => document.querySelector(`[aria-invalid="true"][name="${mine[0].field}"]`)?.focus(), 0);
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
    setClean(JSON.stringify(next));
    setErrors({});
    setFormError(null);
  };

  const dirty = JSON.stringify(values) !== clean;
  return { values, setValues, set, errors, setErrors, formError, setFormError, saving, field, submit, reset, fail, dirty };
}

// "2026-11-22" is taken for a date too, read as the day-first text it stands for.
const asDayFirst = (t) => (/^\d{4}-\d{2}-\d{2}$/.test(t) ? formatDate(t) : t);

/**
 * The formats a field can check as it is typed. A field with `format` carries
 * `data-format`; text it cannot read shows the format's message for that text once the user
 * leaves the field, and its form refuses to submit (see `blockUnreadable`). Empty text is always
 * readable: whether a field is required is the server's to say.
 */
export const FORMATS = {
  date: {
    read: (t) => parseDate(asDayFirst(t)),
    message: (t) => noSuchDate(asDayFirst(t)) || "Write the date as DD-MM-YYYY, e.g. 22-11-2026.",
  },
  money: { read: (t) => paiseFromRupees(t), message: () => "Write an amount in rupees, e.g. 2,500.50." },
};

/** Input props for `name` of `form` that upper-case as the user types, keeping the caret where it was. */
export function upperField(form, name) {
  return {
    ...form.field(name),
    onInput: (e) => {
      const el = e.currentTarget;
      const up = el.value.toUpperCase();
      if (up !== el.value) {
        const [start, end] = [el.selectionStart, el.selectionEnd];
        el.value = up;
        try {
          el.setSelectionRange(start, end);
        } catch {
          /* some input types do not keep a selection */
        }
      }
      form.set(name, up);
    },
  };
}

/** Whether `text` reads in `format` (empty text does). */
export function readable(format, text) {
  const t = String(text ?? "").trim();
  return t === "" || (FORMATS[format] && FORMATS[format].read(t) !== null);
}

/**
 * Refuses a submit while a field of `root` holds text it cannot read: every such field shows
 * its message and the first gets the cursor. Answers true when it refused. `<Form>` calls it on
 * every submit; call it before any other action that saves the form (e.g. Issue).
 */
export function blockUnreadable(root) {
  if (!root) return false;
  const bad = [...root.querySelectorAll("[data-format]")].filter((el) => !readable(el.dataset.format, el.value));
  // A blur makes each field show its message, as if the user had left it.
  bad.forEach((el) => el.dispatchEvent(new FocusEvent("blur")));
  if (bad.length) bad[0].focus();
  return bad.length > 0;
}

/** An error for one field, raised by client-side checks inside `form.submit(fn)`. */
export function fieldError(field, message) {
  const e = new Error(message);
  e.field = field;
  return e;
}

/**
 * Client-side checks of several fields at once, inside `form.submit(fn)`: `problems` maps each
 * field (in the form's order) to its message, or to a falsy value when it is fine. Throws one
 * error naming every field with a message, shown as a 422's `errors` are (each beside its field,
 * the first gets the cursor); does nothing when there is none.
 *   checkFields({ name: !v.name.trim() && "Enter a name.", email: !v.email && "Enter an email." });
 */
export function checkFields(problems) {
  const errors = Object.entries(problems)
    .filter(([, message]) => message)
    .map(([field, message]) => ({ field, message }));
  if (!errors.length) return;
  const e = fieldError(errors[0].field, errors[0].message);
  e.body = { errors };
  throw e;
}

/** <form> that submits on Enter, with the form-level error in a role="alert" box. */
export function Form({ onSubmit, error, children, class: cls, id, label }) {
  const guarded = (e) => {
    if (blockUnreadable(e.currentTarget)) {
      e.preventDefault();
      return;
    }
    onSubmit(e);
  };
  return html`<form class=${`form ${cls || ""}`} id=${id} onSubmit=${guarded} novalidate aria-label=${label}>
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
 * after (markup shown under the control, e.g. a live preview), format (a key of FORMATS: the
 * text is checked when the user leaves the field, and the form will not submit while it is
 * unreadable). Any other prop goes to the control.
 */
export function Field({ label, name, value, onInput, error: outerError, hint, type = "text", as = "input", options, optional, wide, suggestions, after, format, children, class: cls, ...rest }) {
  const id = useId("f-");
  const [left, setLeft] = useState(false);
  const error = outerError || (format && left && !readable(format, value) ? FORMATS[format].message(String(value).trim()) : null);
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
    "data-format": format,
    ...rest,
    onBlur: (e) => {
      // A moment later: the message moves what is below it, and a click on Save that took
      // the focus from here must land before the button moves.
      if (format) setTimeout(() => setLeft(true), 250);
      if (rest.onBlur) rest.onBlur(e);
    },
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
 * A dialog form's buttons: the one that closes it (`closeLabel`, "Cancel" unless that would read
 * as the action itself, e.g. "Keep it" beside "Cancel document") and the submit, named for the action.
 */
export function DialogActions({ onClose, saving, label, tone = "primary", closeLabel = "Cancel" }) {
  return html`<div class="dialog-actions">
    <button type="button" class="btn" onClick=${onClose} disabled=${saving}>${closeLabel}</button>
    <${SubmitButton} saving=${saving} tone=${tone}>${label}</${SubmitButton}>
  </div>`;
}

/**
 * A date typed as DD-MM-YYYY (the office's way of writing dates), whatever the browser's
 * locale. `value` and `onChange` use ISO "YYYY-MM-DD" ("" when cleared); `onChange` fires
 * when the user leaves the field or presses Enter with a valid date ("2026-11-22" is taken too).
 * Text that is not a date shows "Write the date as DD-MM-YYYY" (or, for a day its month lacks,
 * "31-02-2026: there is no such date (February has 28 days in 2026).") and keeps its form from
 * submitting. `error` shows a server's complaint about the field; `autofocus` puts the cursor there first (e.g. in a dialog).
 */
export function DateField({ label, name, value, onChange, hint, optional, error, autofocus }) {
  const [text, setText] = useState(formatDate(value));
  useEffect(() => setText(formatDate(value)), [value]);
  // Reads the control itself: its value may have been set without an input event. Unreadable
  // text stays on screen with the format's message (from Field) and is never committed.
  const commit = (e) => {
    const raw = e && e.currentTarget ? e.currentTarget.value : text;
    if (raw !== text) setText(raw);
    const t = raw.trim();
    if (t === "") {
      if (value) onChange("");
      return;
    }
    const iso = FORMATS.date.read(t);
    if (!iso) return;
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
    error=${error}
    format="date"
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
  return html`<${Field} ...${rest} value=${value} format="money" inputMode="decimal" autocomplete="off" spellcheck=${false}
    placeholder=${placeholder} after=${after} class="money-field" />`;
}
