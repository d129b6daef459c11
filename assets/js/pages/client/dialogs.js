// The dialogs of the client page: edit the profile, add or edit a contact, a branch or an
// interaction, and set the DB password. Each calls onSaved(answer) (null: nothing changed).
import { html, useState } from "/vendor/preact-htm.js";
import { post, patch } from "../../api.js";
import { humanize } from "../../format.js";
import { Dialog, useForm, Form, Field, StaticField, DateField, fieldError, DialogActions } from "../../components.js";
import { clientValues, ClientFields, CLIENT_FIELDS, choices } from "../../ui/clients.js";

const trimmed = (v) => (typeof v === "string" ? v.trim() : v);
const enc = encodeURIComponent;

/** The fields whose trimmed value differs from `start` (on an edit), or the filled ones (on a create). */
function bodyOf(values, keys, start) {
  const body = {};
  for (const k of keys) {
    const v = trimmed(values[k] ?? "");
    if (start ? v !== (start[k] ?? "") : v !== "") body[k] = v;
  }
  return body;
}

/** Edit the client's profile; sends only what changed (an emptied field is cleared). */
export function EditClientDialog({ client, options, onClose, onSaved }) {
  const start = clientValues(client);
  const form = useForm(start);
  const onSubmit = form.submit(async (v) => {
    if (!v.name.trim()) throw fieldError("name", "Enter the society's name.");
    const changes = bodyOf(v, CLIENT_FIELDS, start);
    if (Object.keys(changes).length === 0) return onSaved(null);
    onSaved(await patch(`/api/clients/${enc(client.id)}`, changes));
  });
  return html`<${Dialog} title=${`Edit ${client.name}`} size="wide" onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Edit client">
      <${ClientFields} form=${form} options=${options} autofocus=${true}
        categoryField=${html`<${StaticField} label="Category" value=${client.category} />`} />
      <p class="hint">The category follows the name: change the name and it is worked out again.</p>
      <${DialogActions} onClose=${onClose} saving=${form.saving} label="Save changes" />
    </${Form}>
  </${Dialog}>`;
}

/** Add (no `contact`) or edit a contact person. */
export function ContactDialog({ clientId, contact, roles, onClose, onSaved }) {
  const keys = ["name", "role", "phone", "email"];
  const start = contact ? Object.fromEntries(keys.map((k) => [k, contact[k] || ""])) : null;
  const form = useForm(start || { name: "", role: "", phone: "", email: "" });
  const onSubmit = form.submit(async (v) => {
    if (!v.name.trim()) throw fieldError("name", "Enter the contact's name.");
    const body = bodyOf(v, keys, start);
    if (!contact) return onSaved(await post(`/api/clients/${enc(clientId)}/contacts`, body));
    if (Object.keys(body).length === 0) return onSaved(null);
    onSaved(await patch(`/api/contacts/${enc(contact.id)}`, body));
  });
  return html`<${Dialog} title=${contact ? `Edit ${contact.name}` : "Add contact"} onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label=${contact ? "Edit contact" : "Add contact"}>
      <div class="form-grid">
        <${Field} label="Name" ...${form.field("name")} autocomplete="off" autofocus />
        <${Field} label="Role" ...${form.field("role")} optional autocomplete="off" suggestions=${roles}
          hint="e.g. secretary, president, accountant, WhatsApp." />
        <${Field} label="Phone" type="tel" ...${form.field("phone")} optional autocomplete="off" />
        <${Field} label="Email" type="email" ...${form.field("email")} optional autocomplete="off" spellcheck=${false} />
      </div>
      <${DialogActions} onClose=${onClose} saving=${form.saving} label="Save contact" />
    </${Form}>
  </${Dialog}>`;
}

/** Add (no `branch`) or edit a branch. */
export function BranchDialog({ clientId, branch, districts, onClose, onSaved }) {
  const keys = ["name", "district", "address", "phone"];
  const start = branch ? Object.fromEntries(keys.map((k) => [k, branch[k] || ""])) : null;
  const form = useForm(start || { name: "", district: "", address: "", phone: "" });
  const onSubmit = form.submit(async (v) => {
    if (!v.name.trim()) throw fieldError("name", "Enter the branch's name.");
    const body = bodyOf(v, keys, start);
    if (!branch) return onSaved(await post(`/api/clients/${enc(clientId)}/branches`, body));
    if (Object.keys(body).length === 0) return onSaved(null);
    onSaved(await patch(`/api/branches/${enc(branch.id)}`, body));
  });
  return html`<${Dialog} title=${branch ? `Edit ${branch.name}` : "Add branch"} onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label=${branch ? "Edit branch" : "Add branch"}>
      <div class="form-grid">
        <${Field} label="Name" ...${form.field("name")} autocomplete="off" autofocus />
        <${Field} label="District" ...${form.field("district")} optional autocomplete="off" suggestions=${districts} />
        <${Field} label="Phone" type="tel" ...${form.field("phone")} optional autocomplete="off" />
        <${Field} label="Address" as="textarea" ...${form.field("address")} optional wide rows="2" />
      </div>
      <${DialogActions} onClose=${onClose} saving=${form.saving} label="Save branch" />
    </${Form}>
  </${Dialog}>`;
}

/** Log (no `entry`) or edit an interaction: its type, notes and an optional follow-up date. */
export function InteractionDialog({ clientId, entry, types, onClose, onSaved }) {
  const start = entry ? { type: entry.type, notes: entry.notes || "", follow_up_on: entry.follow_up_on || "" } : null;
  const form = useForm(start || { type: types.includes("call") ? "call" : types[0], notes: "", follow_up_on: "" });
  const onSubmit = form.submit(async (v) => {
    if (!v.notes.trim()) throw fieldError("notes", "Write what happened.");
    if (!entry) {
      const body = { client_id: clientId, type: v.type, notes: v.notes.trim() };
      if (v.follow_up_on) body.follow_up_on = v.follow_up_on;
      return onSaved(await post("/api/interactions", body));
    }
    const body = bodyOf(v, ["type", "notes", "follow_up_on"], start);
    if (Object.keys(body).length === 0) return onSaved(null);
    onSaved(await patch(`/api/interactions/${enc(entry.id)}`, body));
  });
  return html`<${Dialog} title=${entry ? "Edit interaction" : "Log interaction"} onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label=${entry ? "Edit interaction" : "Log interaction"}>
      <div class="form-grid">
        <${Field} label="Type" as="select" ...${form.field("type")} options=${choices(types, null, humanize)} autofocus />
        <${DateField} label="Follow up on" name="follow_up_on" value=${form.values.follow_up_on} optional
          error=${form.errors.follow_up_on} onChange=${(d) => form.set("follow_up_on", d)} hint="Leave empty when nothing is due." />
        <${Field} label="Notes" as="textarea" ...${form.field("notes")} wide rows="4" placeholder="What was discussed or done" />
      </div>
      <${DialogActions} onClose=${onClose} saving=${form.saving} label="Save interaction" />
    </${Form}>
  </${Dialog}>`;
}

/** Store a new DB password (write-only: it is never sent back except by Reveal). */
export function SetPasswordDialog({ client, onClose, onSaved }) {
  const form = useForm({ dbPassword: "" });
  const [show, setShow] = useState(false);
  const onSubmit = form.submit(async (v) => {
    if (!v.dbPassword) throw fieldError("dbPassword", "Enter the password to store.");
    onSaved(await patch(`/api/clients/${enc(client.id)}`, { dbPassword: v.dbPassword }));
  });
  return html`<${Dialog} title="Set DB password" onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Set DB password">
      <p class="dialog-intro">${client.hasDbPassword ? "The new password replaces the stored one." : "No password is stored yet."}</p>
      <${Field} label="DB password" type=${show ? "text" : "password"} ...${form.field("dbPassword")} autocomplete="new-password" spellcheck=${false} autofocus />
      <label class="check"><input type="checkbox" checked=${show} onChange=${(e) => setShow(e.currentTarget.checked)} /> Show password</label>
      <${DialogActions} onClose=${onClose} saving=${form.saving} label="Set password" />
    </${Form}>
  </${Dialog}>`;
}
