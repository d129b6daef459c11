// Modal dialogs on the native <dialog> element: showModal() gives the focus trap, the
// inert background and Escape for free. Mount a dialog only while it is open:
//   ${editing && html`<${Dialog} title="Edit" onClose=${() => setEditing(null)}>…</${Dialog}>`}
import { html, useRef, useLayoutEffect, useEffect, useState } from "/vendor/preact-htm.js";
import { useId } from "./forms.js";

/**
 * Props: title, onClose (Escape, the × button and Cancel buttons call it), children,
 * footer (buttons; optional), size ("normal" | "wide"), closable (default true: when false,
 * e.g. while saving, Escape does nothing).
 */
export function Dialog({ title, onClose, children, footer, size = "normal", closable = true, class: cls }) {
  const ref = useRef(null);
  const titleId = useId("dlg-");
  const closeRef = useRef(onClose);
  closeRef.current = closable ? onClose : null;

  useLayoutEffect(() => {
    const dlg = ref.current;
    const opener = document.activeElement;
    if (dlg && !dlg.open) dlg.showModal();
    // Escape fires "cancel": keep the element open and let the owner decide (it unmounts us).
    const onCancel = (e) => {
      e.preventDefault();
      if (closeRef.current) closeRef.current();
    };
    dlg.addEventListener("cancel", onCancel);
    return () => {
      dlg.removeEventListener("cancel", onCancel);
      if (dlg.open) dlg.close();
      // Give focus back to what opened the dialog, if it is still in the page.
      if (opener && opener.isConnected && typeof opener.focus === "function") opener.focus();
    };
  }, []);

  return html`<dialog ref=${ref} class=${`dialog dialog-${size} ${cls || ""}`} aria-labelledby=${titleId}>
    <div class="dialog-head">
      <h2 id=${titleId} class="dialog-title">${title}</h2>
      ${closable && html`<button type="button" class="icon-btn" aria-label="Close" onClick=${onClose}>×</button>`}
    </div>
    <div class="dialog-body">${children}</div>
    ${footer && html`<div class="dialog-foot">${footer}</div>`}
  </dialog>`;
}

/**
 * Asks before a destructive or important action.
 * Props: title, message (text or markup), confirmLabel ("Confirm"), tone ("danger" |
 * "primary"), onConfirm (may be async: the dialog shows it is busy, and shows the error
 * message if it throws; it stays open on error), onCancel.
 * Focus starts on Cancel, so a stray Enter does not destroy anything. Name the action on the
 * confirm button ("Delete contact", "Revoke link"), never a bare "Confirm" or "OK".
 */
export function ConfirmDialog({ title, message, confirmLabel = "Confirm", tone = "danger", onConfirm, onCancel }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const mounted = useRef(true);
  useEffect(() => () => (mounted.current = false), []);
  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (e) {
      if (mounted.current) setError((e && e.message) || "That did not work. Try again.");
    } finally {
      if (mounted.current) setBusy(false);
    }
  };
  return html`<${Dialog}
    title=${title}
    onClose=${onCancel}
    closable=${!busy}
    class="confirm-dialog"
    footer=${html`
      <button type="button" class="btn" onClick=${onCancel} disabled=${busy} autofocus>Cancel</button>
      <button type="button" class=${`btn btn-${tone}`} onClick=${confirm} disabled=${busy} aria-busy=${busy ? "true" : undefined}>
        ${busy && html`<span class="spinner small" aria-hidden="true"></span>`}${confirmLabel}
      </button>
    `}
  >
    <div class="confirm-message">${message}</div>
    ${error && html`<div class="form-error" role="alert">${error}</div>`}
  </${Dialog}>`;
}
