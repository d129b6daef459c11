// The dialogs of the employees screen: invite, edit, and the shown-once password.
import { html } from "/vendor/preact-htm.js";
import { post, patch } from "../../api.js";
import { Dialog, useForm, Form, Field, StaticField, SubmitButton, OnceSecret, fieldError, checkFields } from "../../components.js";

export const ROLE_OPTIONS = [
  { value: "staff", label: "Staff" },
  { value: "manager", label: "Manager" },
  { value: "owner", label: "Owner" },
];

const trimmed = (v) => (v || "").trim();

/** Invite form. onInvited(employee) gets the 201 answer, with its initial_password. */
export function InviteDialog({ onClose, onInvited }) {
  const form = useForm({ name: "", email: "", username: "", role: "staff", phone: "", title: "" });
  const onSubmit = form.submit(async (v) => {
    checkFields({
      name: !trimmed(v.name) && "Enter the employee's name.",
      email: !trimmed(v.email) && "Enter the employee's email address.",
    });
    const body = { name: trimmed(v.name), email: trimmed(v.email), role: v.role };
    // Left out when blank, so the server applies its default (the email).
    if (trimmed(v.username)) body.username = trimmed(v.username);
    if (trimmed(v.phone)) body.phone = trimmed(v.phone);
    if (trimmed(v.title)) body.title = trimmed(v.title);
    let created;
    try {
      created = await post("/api/employees", body);
    } catch (err) {
      // A blank username becomes the email, so a clash on it is really about the email field.
      if (err.field === "username" && !body.username) {
        throw fieldError("email", "This email is already in use as a username. Use another email, or fill in a different username.");
      }
      throw err;
    }
    onInvited(created);
  });
  return html`<${Dialog} title="Invite employee" onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Invite employee">
      <div class="form-grid">
        <${Field} label="Name" ...${form.field("name")} autocomplete="off" autofocus />
        <${Field} label="Email" type="email" ...${form.field("email")} autocomplete="off" spellcheck=${false} />
        <${Field} label="Username" ...${form.field("username")} optional autocomplete="off" spellcheck=${false}
          hint="Defaults to the email." />
        <${Field} label="Role" as="select" ...${form.field("role")} options=${ROLE_OPTIONS} />
        <${Field} label="Phone" type="tel" ...${form.field("phone")} optional autocomplete="off" />
        <${Field} label="Title" ...${form.field("title")} optional autocomplete="off" />
      </div>
      <p class="hint">A one-time password is made for the new account and shown once after you invite.</p>
      <div class="dialog-actions">
        <button type="button" class="btn" onClick=${onClose} disabled=${form.saving}>Cancel</button>
        <${SubmitButton} saving=${form.saving}>Invite</${SubmitButton}>
      </div>
    </${Form}>
  </${Dialog}>`;
}

/** Edit form; sends only the fields that changed. onSaved(employee) gets the answer. */
export function EditDialog({ employee, onClose, onSaved }) {
  const start = {
    name: employee.name || "",
    username: employee.username || "",
    role: employee.role,
    phone: employee.phone || "",
    title: employee.title || "",
  };
  const form = useForm(start);
  const onSubmit = form.submit(async (v) => {
    if (!trimmed(v.name)) throw fieldError("name", "Enter the employee's name.");
    if (!trimmed(v.username)) throw fieldError("username", "Enter a username.");
    const changes = {};
    for (const k of Object.keys(start)) {
      const value = k === "role" ? v[k] : trimmed(v[k]);
      if (value !== start[k]) changes[k] = value;
    }
    if (Object.keys(changes).length === 0) {
      onSaved(null);
      return;
    }
    const updated = await patch(`/api/employees/${encodeURIComponent(employee.id)}`, changes);
    onSaved(updated);
  });
  return html`<${Dialog} title=${`Edit ${employee.name}`} onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Edit employee">
      <div class="form-grid">
        <${Field} label="Name" ...${form.field("name")} autocomplete="off" autofocus />
        <${StaticField} label="Email" name="email" value=${employee.email} />
        <${Field} label="Username" ...${form.field("username")} autocomplete="off" spellcheck=${false} />
        <${Field} label="Role" as="select" ...${form.field("role")} options=${ROLE_OPTIONS}
          hint="A new role applies from the employee's next click." />
        <${Field} label="Phone" type="tel" ...${form.field("phone")} optional autocomplete="off" />
        <${Field} label="Title" ...${form.field("title")} optional autocomplete="off" />
      </div>
      <p class="hint">The email cannot be changed: invite a new account for a new address.</p>
      <div class="dialog-actions">
        <button type="button" class="btn" onClick=${onClose} disabled=${form.saving}>Cancel</button>
        <${SubmitButton} saving=${form.saving}>Save changes</${SubmitButton}>
      </div>
    </${Form}>
  </${Dialog}>`;
}

/** Shows a password the server gives only once (after invite or reset). */
export function SecretDialog({ title, intro, secret, who, onClose }) {
  return html`<${Dialog} title=${title} onClose=${onClose}
    footer=${html`<button type="button" class="btn btn-primary" onClick=${onClose}>Done</button>`}>
    ${intro && html`<p>${intro}</p>`}
    <${OnceSecret} secret=${secret} who=${who} />
  </${Dialog}>`;
}
