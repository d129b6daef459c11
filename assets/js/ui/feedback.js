// Feedback pieces: toasts, spinners, progress, badges, empty states, notices and the
// shown-once secret.
import { html, useState, useEffect, useRef } from "/vendor/preact-htm.js";

// ---- Toasts -------------------------------------------------------------------------------
// A module-level queue, so any code (a page, a dialog, an API callback) can raise a toast
// without threading a context through; <Toasts/> is rendered once by the app shell.
let toasts = [];
let nextToastId = 1;
const toastListeners = new Set();

function setToasts(list) {
  toasts = list;
  for (const fn of toastListeners) fn(toasts);
}

export function dismissToast(id) {
  setToasts(toasts.filter((t) => t.id !== id));
}

/** toast("Saved") or toast("Failed", "error"); success goes after 5 s, errors after 10 s. */
export function toast(message, kind = "success") {
  const id = nextToastId++;
  setToasts([...toasts, { id, message, kind }].slice(-5));
  setTimeout(() => dismissToast(id), kind === "error" ? 10000 : 5000);
  return id;
}
toast.success = (message) => toast(message, "success");
toast.error = (message) => toast(message, "error");
toast.info = (message) => toast(message, "info");
/** Done, but something the person should know (a server warning). */
toast.warning = (message) => toast(message, "warning");
/** Raises a warning toast for each `{ code, message }` a write answered. */
export function toastWarnings(warnings) {
  for (const w of warnings || []) toast.warning(w.message);
}

/** The live region for toasts: always in the page so screen readers announce additions. */
export function Toasts() {
  const [list, setList] = useState(toasts);
  useEffect(() => {
    toastListeners.add(setList);
    return () => toastListeners.delete(setList);
  }, []);
  return html`<div class="toasts" role="status" aria-live="polite">
    ${list.map(
      (t) => html`<div key=${t.id} class=${`toast toast-${t.kind}`}>
        <span class="toast-text">${t.message}</span>
        <button type="button" class="toast-close" aria-label="Dismiss" onClick=${() => dismissToast(t.id)}>×</button>
      </div>`,
    )}
  </div>`;
}

// ---- Loading and progress -----------------------------------------------------------------

/** An inline spinner; `label` is read by screen readers (and shown when `showLabel`). */
export function Spinner({ label = "Loading", showLabel = false, small = false }) {
  // No role="status" here: the toast container is the page's one status region.
  return html`<span class=${`spinner-wrap${small ? " small" : ""}`}>
    <span class="spinner" aria-hidden="true"></span>
    <span class=${showLabel ? "spinner-label" : "sr-only"}>${label}</span>
  </span>`;
}

/** A block-level loading state for a section or a whole page. */
export function Loading({ label = "Loading…" }) {
  return html`<div class="loading-block"><${Spinner} label=${label} showLabel=${true} /></div>`;
}

/**
 * A progress bar for long work. With `value` and `max` it is determinate ("40 of 120");
 * without `value` it is indeterminate (a moving bar).
 */
export function Progress({ value, max = 100, label = "Working…", detail }) {
  const determinate = typeof value === "number";
  const pct = determinate && max > 0 ? Math.round((value / max) * 100) : null;
  return html`<div class="progress">
    <div class="progress-head">
      <span class="progress-label">${label}</span>
      ${determinate && html`<span class="progress-pct">${detail ?? `${pct}%`}</span>`}
    </div>
    ${determinate
      ? html`<progress class="progress-bar" value=${value} max=${max} aria-label=${label}>${pct}%</progress>`
      : html`<progress class="progress-bar" aria-label=${label}></progress>`}
  </div>`;
}

// ---- Badges, empty states, notices --------------------------------------------------------

/** tone: "neutral" | "success" | "danger" | "warning" | "info". */
export function Badge({ tone = "neutral", children, title }) {
  return html`<span class=${`badge badge-${tone}`} title=${title}>${children}</span>`;
}

export function EmptyState({ title = "Nothing here yet", children }) {
  return html`<div class="empty-state"><p class="empty-title">${title}</p>${children && html`<div class="empty-body">${children}</div>`}</div>`;
}

/**
 * A coloured box of text. tone: "info" | "warning" | "danger" | "success".
 * `alert` gives it role="alert" (for errors that must be announced at once); `testid` names it
 * for the browser tests (data-testid).
 */
export function Notice({ tone = "info", alert = false, children, title, testid }) {
  return html`<div class=${`notice notice-${tone}`} role=${alert ? "alert" : undefined} data-testid=${testid}>
    ${title && html`<strong class="notice-title">${title}</strong>`}
    <div>${children}</div>
  </div>`;
}

// ---- Shown-once secret --------------------------------------------------------------------

async function copyText(text, fallbackEl) {
  // navigator.clipboard exists only in secure contexts; the office LAN may serve plain HTTP,
  // so fall back to selecting the text and the legacy copy command.
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall through */
  }
  try {
    const range = document.createRange();
    range.selectNodeContents(fallbackEl);
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    return document.execCommand("copy");
  } catch {
    return false;
  }
}

/**
 * A password (or token) that the server gives only once: shown in a code box with a Copy
 * button and a warning that it will not be shown again. Props: secret, label ("Initial
 * password"), who (named in the warning), autofocus (true: focus starts on Copy).
 */
export function OnceSecret({ secret, label = "Initial password", who, autofocus = true }) {
  const ref = useRef(null);
  const [copied, setCopied] = useState(null);
  const copy = async () => {
    const ok = await copyText(secret, ref.current);
    setCopied(ok ? "Copied" : "Select the text and copy it by hand");
    if (ok) setTimeout(() => setCopied(null), 2500);
  };
  return html`<div class="once">
    <div class="once-label">${label}</div>
    <div class="once-row">
      <code class="once-secret" data-testid="once-secret" ref=${ref}>${secret}</code>
      <button type="button" class="btn" onClick=${copy} autofocus=${autofocus}>Copy</button>
      <span class="once-copied" aria-live="polite">${copied}</span>
    </div>
    <p class="once-warning">
      This password will not be shown again. Copy it now and give it to ${who || "the employee"} in person;
      they must choose their own password at first sign-in.
    </p>
  </div>`;
}

// ---- Secret shown for a while ---------------------------------------------------------------

/**
 * A secret (e.g. a revealed password) shown for `seconds` with a visible countdown, then
 * hidden by calling onHide. Props: secret, seconds (30), onHide, label, testid
 * ("revealed-password": the element holding the value). An empty secret says so instead.
 */
export function TimedSecret({ secret, seconds = 30, onHide, label = "Password", testid = "revealed-password", emptyText = "No password is stored." }) {
  const ref = useRef(null);
  const [left, setLeft] = useState(seconds);
  const [copied, setCopied] = useState(null);
  const hideRef = useRef(onHide);
  hideRef.current = onHide;
  useEffect(() => {
    const until = Date.now() + seconds * 1000;
    const timer = setInterval(() => {
      const remaining = Math.ceil((until - Date.now()) / 1000);
      if (remaining <= 0) {
        clearInterval(timer);
        hideRef.current();
      } else setLeft(remaining);
    }, 250);
    return () => clearInterval(timer);
  }, [secret, seconds]);
  const copy = async () => {
    const ok = await copyText(secret, ref.current);
    setCopied(ok ? "Copied" : "Select the text and copy it by hand");
  };
  return html`<div class="timed-secret">
    <div class="once-label">${label}</div>
    <div class="once-row">
      <code class=${`once-secret${secret ? "" : " is-empty"}`} data-testid=${testid} ref=${ref}>${secret}</code>
      ${!secret && html`<span class="muted">${emptyText}</span>`}
      ${secret && html`<button type="button" class="btn btn-sm" onClick=${copy}>Copy</button>`}
      <button type="button" class="btn btn-sm" onClick=${() => hideRef.current()}>Hide</button>
      <span class="once-copied" aria-live="polite">${copied}</span>
    </div>
    <progress class="progress-bar countdown" value=${left} max=${seconds} aria-hidden="true"></progress>
    <p class="hint timed-left">Hides in <span data-testid="reveal-countdown">${left}</span> s.</p>
  </div>`;
}
