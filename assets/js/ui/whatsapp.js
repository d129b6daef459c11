// WhatsApp from the office's own number (decisions 12): a dialog that reads the chat the server
// writes (`GET {path}`: the number and the message), opens it in WhatsApp Web or the desktop
// app through its click-to-chat link, and, once the user says so, records it (`POST {path}`: a
// whatsapp interaction on the client, a reminder marked sent). No message leaves the server.
import { html, useState } from "/vendor/preact-htm.js";
import { Dialog } from "./dialogs.js";
import { Notice, Loading, toast } from "./feedback.js";
import { useFetch } from "../hooks.js";
import { post } from "../api.js";

/** "+91 98470 12345" from "919847012345". */
export const phoneLabel = (p) => (p && p.length === 12 ? `+${p.slice(0, 2)} ${p.slice(2, 7)} ${p.slice(7)}` : p);

/**
 * Props: path (`/api/documents/{id}/whatsapp`, `/api/reminders/{id}/whatsapp` or
 * `/api/clients/{id}/statement/whatsapp`), params (the statement's `{ from, to }`: the GET's
 * query and the POST's body), what (named in the title: "INV/26-27-0001"), onClose, onSent
 * (called after the chat is recorded).
 */
export function WhatsAppDialog({ path, params, what, onClose, onSent }) {
  const { data, error } = useFetch(path, params);
  const [opened, setOpened] = useState(false);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState(null);
  const record = async () => {
    setSaving(true);
    setSaveError(null);
    try {
      await post(path, params || {});
      toast(`Recorded: WhatsApp to ${phoneLabel(data.phone)}.`);
      if (onSent) onSent();
      onClose();
    } catch (e) {
      setSaveError(e.message);
      setSaving(false);
    }
  };
  const footer = data && html`
    <a class=${`btn ${opened ? "" : "btn-primary"}`} href=${data.url} target="_blank" rel="noopener noreferrer"
      data-testid="whatsapp-open" onClick=${() => setOpened(true)}>Open WhatsApp</a>
    <button type="button" class=${`btn ${opened ? "btn-primary" : ""}`} data-testid="whatsapp-sent" disabled=${saving} onClick=${record}>
      ${saving ? "Recording…" : "I sent it: record it"}</button>
    <button type="button" class="btn" onClick=${onClose}>Cancel</button>`;
  return html`<${Dialog} title=${`WhatsApp${what ? ` about ${what}` : ""}`} onClose=${onClose} footer=${footer} closable=${!saving}>
    ${!data && !error && html`<${Loading} label="Writing the message…" />`}
    ${error && html`<${Notice} tone="warning" alert=${true} testid="whatsapp-error">${error.message}</${Notice}>`}
    ${data && html`<p>To <strong data-testid="whatsapp-phone">${phoneLabel(data.phone)}</strong>. WhatsApp opens the chat with this message written; check it and press send there.</p>
      <pre class="email-text" data-testid="whatsapp-text">${data.text}</pre>`}
    ${saveError && html`<${Notice} tone="danger" alert=${true}>${saveError}</${Notice}>`}
  </${Dialog}>`;
}
