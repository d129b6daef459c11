// A record's before and after images (the audit trail keeps both) as a readable list of
// changes: one line per changed key, old → new; unchanged keys behind a toggle.
import { html, useState } from "/vendor/preact-htm.js";

const isEmpty = (v) => v === null || v === undefined || v === "";
const same = (a, b) => (isEmpty(a) && isEmpty(b)) || JSON.stringify(a) === JSON.stringify(b);
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * diffEntries(before, after) → [{ key, before, after, changed }] over the keys of both images
 * (before's order first). With only `after` (a create) or only `before` (a delete), a key
 * counts as changed when it holds a value. Pure: usable on its own.
 */
export function diffEntries(before, after) {
  const b = isObject(before) ? before : null;
  const a = isObject(after) ? after : null;
  const keys = [...new Set([...Object.keys(b || {}), ...Object.keys(a || {})])];
  return keys.map((key) => {
    const old = b ? b[key] : undefined;
    const now = a ? a[key] : undefined;
    let changed;
    if (b && a) changed = !same(old, now);
    else changed = !isEmpty(b ? old : now);
    return { key, before: old, after: now, changed };
  });
}

function asText(value) {
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** One value: kind "old" (struck through), "new" (marked as added) or "same" (plain). */
function Value({ value, kind, text }) {
  if (isEmpty(value)) return html`<span class="diff-val diff-empty">empty</span>`;
  const shown = text ?? asText(value);
  if (kind === "old") return html`<del class="diff-val diff-old">${shown}</del>`;
  if (kind === "new") return html`<ins class="diff-val diff-new">${shown}</ins>`;
  return html`<span class="diff-val">${shown}</span>`;
}

/**
 * Props: before, after (objects or null), keyLabel(key) → text (default: the key itself),
 * format(key, value) → text, or undefined for the default (e.g. timestamps in local time).
 * A change shows "key: old → new"; a create (no before) only the new values, a delete (no
 * after) only the old ones. Unchanged (or, for create/delete, empty) keys are hidden until
 * "Show all fields" is pressed.
 */
export function ChangeDiff({ before, after, keyLabel = (k) => k, format = () => undefined }) {
  const [all, setAll] = useState(false);
  const hasBefore = isObject(before);
  const hasAfter = isObject(after);
  const entries = diffEntries(before, after);
  const changed = entries.filter((e) => e.changed);
  const shown = all ? entries : changed;
  const hidden = entries.length - changed.length;
  let summary;
  if (!hasBefore && !hasAfter) summary = "No record image was kept for this entry.";
  else if (!hasBefore) summary = "Created with:";
  else if (!hasAfter) summary = "Deleted; it held:";
  else summary = changed.length === 0 ? "No field changed." : changed.length === 1 ? "1 field changed:" : `${changed.length} fields changed:`;
  return html`<div class="diff">
    <p class="diff-summary">${summary}</p>
    ${shown.length > 0 &&
    html`<ul class="diff-list">
      ${shown.map(
        (e) => html`<li key=${e.key} class=${`diff-line${e.changed ? " is-changed" : " is-same"}`}>
          <span class="diff-key">${keyLabel(e.key)}</span>
          ${hasBefore && hasAfter
            ? e.changed
              ? html`<${Value} value=${e.before} text=${format(e.key, e.before)} kind="old" /><span class="diff-arrow" aria-label="changed to">→</span><${Value} value=${e.after} text=${format(e.key, e.after)} kind="new" />`
              : html`<${Value} value=${e.after} text=${format(e.key, e.after)} kind="same" />`
            : html`<${Value} value=${hasAfter ? e.after : e.before} text=${format(e.key, hasAfter ? e.after : e.before)} kind=${hasAfter ? "new" : "old"} />`}
        </li>`,
      )}
    </ul>`}
    ${hidden > 0 &&
    html`<button type="button" class="btn btn-sm diff-toggle" aria-pressed=${all ? "true" : "false"} onClick=${() => setAll(!all)}>
      ${all ? "Only what changed" : `Show all fields (${hidden} more)`}
    </button>`}
  </div>`;
}
