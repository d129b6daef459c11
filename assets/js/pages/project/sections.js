// The cards of the project page: the onboarding checklist (tick with a date, untick after a
// confirmation) and, for owner and manager, the credentials (portal password and module secrets,
// each revealed for 30 seconds); and the renewal and SMS top-up quote buttons.
import { html, useState } from "/vendor/preact-htm.js";
import { post, patch } from "../../api.js";
import { date, isoDate, rupees } from "../../format.js";
import {
  Card, Badge, Notice, Loading, Progress, Dialog, ConfirmDialog, TimedSecret, Form, Field, DateField,
  useForm, fieldError, toast, useFetch, EmptyState, navigate, DialogActions, Link,
} from "../../components.js";
import { revealFailure } from "../../ui/projects.js";
import { SmsQuoteDialog, useRateCard } from "../../ui/sms.js";
import { docUrl } from "../../ui/documents.js";

const enc = encodeURIComponent;

// ---- Checklist ---------------------------------------------------------------------------

const STAMPS = {
  installed: "The first tick also sets the status to Installed and the installed date.",
  trained: "The first tick also sets the status to Trained and the trained date.",
};

function TickDialog({ project, step, onClose, onDone }) {
  const form = useForm({ doneOn: isoDate(), paymentId: "" });
  // The client's payments, newest first: a step such as "Advance paid" can name the one that settled it.
  const payments = useFetch(`/api/payments?client_id=${enc(project.client_id)}&per_page=50`);
  const rows = (payments.data && payments.data.rows) || [];
  const choosePayment = (e) => {
    const id = e.currentTarget.value;
    form.set("paymentId", id);
    const chosen = rows.find((p) => p.id === id);
    if (chosen) form.set("doneOn", chosen.received_on);
  };
  const onSubmit = form.submit(async (v) => {
    if (!v.doneOn) throw fieldError("doneOn", "Give the date the step was done.");
    const body = { key: step.key, done: true, doneOn: v.doneOn };
    if (v.paymentId) body.paymentId = v.paymentId;
    onDone(await post(`/api/client-modules/${enc(project.id)}/milestones`, body));
  });
  const options = [{ value: "", label: rows.length ? "No payment" : "No payments recorded for this client" }].concat(
    rows.map((p) => ({ value: p.id, label: `${p.receipt_no} · ${date(p.received_on)} · ${rupees(p.amount)}` })),
  );
  return html`<${Dialog} title=${`Tick “${step.label}”`} size="narrow" onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label=${`Tick ${step.label}`}>
      <div class="form-grid">
        <${DateField} label="Done on" name="doneOn" value=${form.values.doneOn} error=${form.errors.doneOn}
          onChange=${(d) => form.set("doneOn", d)} hint=${STAMPS[step.key] || "Today unless it was done earlier."} autofocus />
        <${Field} label="Payment" as="select" name="paymentId" optional value=${form.values.paymentId} onInput=${choosePayment}
          error=${form.errors.paymentId} options=${options} disabled=${!rows.length}
          hint="Link the payment that settled this step; its date becomes the step's date." />
      </div>
      <${DialogActions} onClose=${onClose} saving=${form.saving} label="Save" />
    </${Form}>
  </${Dialog}>`;
}

export function ChecklistCard({ project, onChanged }) {
  const { data, error, loading, reload } = useFetch(`/api/client-modules/${enc(project.id)}/milestones`);
  const [rows, setRows] = useState(null);
  const [dialog, setDialog] = useState(null);
  const steps = rows || (data && data.rows) || [];
  const done = steps.filter((s) => s.done_on).length;
  const close = () => setDialog(null);
  const applied = (answer, message) => {
    close();
    setRows(answer.rows);
    onChanged();
    toast.success(message);
  };
  const onBox = (step) => (e) => {
    // The box shows the saved state: ticking asks for the date, unticking asks first.
    e.preventDefault();
    setDialog({ kind: step.done_on ? "untick" : "tick", step });
  };
  let dialogEl = null;
  if (dialog && dialog.kind === "tick") {
    dialogEl = html`<${TickDialog} project=${project} step=${dialog.step} onClose=${close}
      onDone=${(answer) => applied(answer, `${dialog.step.label} ticked.`)} />`;
  } else if (dialog) {
    const s = dialog.step;
    dialogEl = html`<${ConfirmDialog} title=${`Untick “${s.label}”?`} tone="primary" confirmLabel="Untick step" onCancel=${close}
      message=${html`<p>The step goes back to pending and its date (${date(s.done_on)}) is cleared. The project's status and dates stay as they are.</p>`}
      onConfirm=${async () => applied(await post(`/api/client-modules/${enc(project.id)}/milestones`, { key: s.key, done: false }), `${s.label} unticked.`)} />`;
  }
  let body;
  if (!data && loading) body = html`<${Loading} label="Loading the checklist…" />`;
  else if (error && !rows) body = html`<${Notice} tone="danger" alert=${true}>${error.message}
    <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`;
  else if (steps.length === 0) body = html`<${EmptyState} title="This project has no checklist steps." />`;
  else {
    body = html`<${Progress} value=${done} max=${steps.length} label="Onboarding" detail=${`${done} of ${steps.length} done`} />
      <ul class="checklist" data-testid="checklist">
        ${steps.map((s) => html`<li key=${s.key} data-key=${s.key} class=${`checklist-item${s.done_on ? " is-done" : ""}`}>
          <label class="checklist-label">
            <input type="checkbox" name="done" value=${s.key} checked=${!!s.done_on} onClick=${onBox(s)}
              aria-label=${s.done_on ? `${s.label}: done ${date(s.done_on)}; untick` : `${s.label}: pending; tick`} />
            <span class="checklist-text">${s.label}</span>
          </label>
          <span class="checklist-meta">
            ${s.payment_id && html`<${Badge} tone="info">Payment linked</${Badge}>`}
            ${s.document_id && html`<${Badge} tone="info">Document linked</${Badge}>`}
            ${s.done_on ? html`<time class="checklist-date" datetime=${s.done_on}>${date(s.done_on)}</time>` : html`<span class="muted">Pending</span>`}
          </span>
        </li>`)}
      </ul>`;
  }
  return html`${dialogEl}
    <${Card} title="Checklist" class="section-card checklist-card">${body}</${Card}>`;
}

// ---- Credentials -------------------------------------------------------------------------

function SetPasswordDialog({ project, onClose, onSaved }) {
  const form = useForm({ password: "" });
  const [show, setShow] = useState(false);
  const onSubmit = form.submit(async (v) => {
    if (!v.password) throw fieldError("password", "Enter the password to store.");
    onSaved(await patch(`/api/client-modules/${enc(project.id)}`, { password: v.password }));
  });
  return html`<${Dialog} title="Set portal password" onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Set portal password">
      <p class="dialog-intro">${project.hasPassword ? "The new password replaces the stored one." : "No password is stored yet."}</p>
      <${Field} label="Portal password" type=${show ? "text" : "password"} ...${form.field("password")} autocomplete="new-password" spellcheck=${false} autofocus />
      <label class="check"><input type="checkbox" checked=${show} onChange=${(e) => setShow(e.currentTarget.checked)} /> Show password</label>
      <${DialogActions} onClose=${onClose} saving=${form.saving} label="Set password" />
    </${Form}>
  </${Dialog}>`;
}

function AddSecretDialog({ project, onClose, onSaved }) {
  const form = useForm({ key: "", value: "" });
  const [show, setShow] = useState(false);
  const key = form.values.key.trim();
  const replacing = key && (project.secret_keys || []).includes(key);
  const onSubmit = form.submit(async (v) => {
    const k = v.key.trim();
    if (!/^[A-Za-z0-9_.-]{1,60}$/.test(k)) throw fieldError("key", "A key is letters, digits, _ . or -, at most 60 (e.g. api_key).");
    if (!v.value) throw fieldError("value", "Enter the secret's value.");
    try {
      onSaved(await post(`/api/client-modules/${enc(project.id)}/secrets`, { [k]: v.value }), k);
    } catch (err) {
      // The server names the failing secret by its key: put the message where it belongs.
      if (err && err.field === k) throw fieldError(err.code === "invalid_key" ? "key" : "value", err.message);
      throw err;
    }
  });
  return html`<${Dialog} title="Add secret" onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Add secret">
      <div class="form-grid form-grid-narrow">
        <${Field} label="Key" ...${form.field("key")} autocomplete="off" spellcheck=${false} autofocus class="mono-field"
          hint=${replacing ? `A secret named ${key} exists: saving replaces its value.` : "e.g. api_key, dlt.entity_id."} />
        <${Field} label="Value" type=${show ? "text" : "password"} ...${form.field("value")} autocomplete="new-password" spellcheck=${false} />
      </div>
      <label class="check"><input type="checkbox" checked=${show} onChange=${(e) => setShow(e.currentTarget.checked)} /> Show value</label>
      <${DialogActions} onClose=${onClose} saving=${form.saving} label="Add secret" />
    </${Form}>
  </${Dialog}>`;
}

/** Portal password and module secrets (owner and manager): set, reveal for 30 s, remove. */
export function CredentialsCard({ project, onSaved }) {
  const [dialog, setDialog] = useState(null);
  const [revealed, setRevealed] = useState(null); // { what: "password" | "secret", key?, value }
  const [busy, setBusy] = useState(null);
  const [error, setError] = useState(null);
  const close = () => setDialog(null);
  const saved = (message) => (updated) => {
    close();
    setRevealed(null);
    onSaved(updated);
    toast.success(message);
  };
  const reveal = async (what, key) => {
    setBusy(what === "password" ? "password" : `secret:${key}`);
    setError(null);
    try {
      const base = `/api/client-modules/${enc(project.id)}`;
      if (what === "password") setRevealed({ what, value: (await post(`${base}/reveal-password`, {})).password || "" });
      else setRevealed({ what, key, value: (await post(`${base}/reveal-secret`, { key })).value || "" });
    } catch (err) {
      setRevealed(null);
      setError(revealFailure(err));
    } finally {
      setBusy(null);
    }
  };
  let dialogEl = null;
  if (dialog && dialog.kind === "password") {
    dialogEl = html`<${SetPasswordDialog} project=${project} onClose=${close} onSaved=${saved("Portal password saved.")} />`;
  } else if (dialog && dialog.kind === "secret") {
    dialogEl = html`<${AddSecretDialog} project=${project} onClose=${close} onSaved=${(updated, k) => saved(`Secret ${k} saved.`)(updated)} />`;
  } else if (dialog && dialog.kind === "remove-password") {
    dialogEl = html`<${ConfirmDialog} title="Remove the portal password?" message="The stored password is deleted; set a new one any time." confirmLabel="Remove password"
      onCancel=${close} onConfirm=${async () => saved("Portal password removed.")(await patch(`/api/client-modules/${enc(project.id)}`, { password: "" }))} />`;
  } else if (dialog && dialog.kind === "remove-secret") {
    const k = dialog.key;
    dialogEl = html`<${ConfirmDialog} title=${`Remove the secret ${k}?`} message="Its value is deleted and cannot be revealed again." confirmLabel="Remove secret"
      onCancel=${close} onConfirm=${async () => saved(`Secret ${k} removed.`)(await post(`/api/client-modules/${enc(project.id)}/secrets`, { [k]: "" }))} />`;
  }
  const keys = project.secret_keys || [];
  const hide = () => setRevealed(null);
  return html`${dialogEl}
    <${Card} title="Credentials" class="section-card credentials-card">
      <h3 class="sub-title">Portal login</h3>
      <p class="db-state">
        ${project.username ? html`<span>User <strong class="mono-ish">${project.username}</strong></span>` : html`<span class="muted">No username.</span>`}
        <span>Password</span>
        ${project.hasPassword ? html`<${Badge} tone="success">Set</${Badge}>` : html`<${Badge} tone="neutral">Not set</${Badge}>`}
      </p>
      <div class="btn-row">
        <button type="button" class="btn btn-sm" onClick=${() => setDialog({ kind: "password" })}>Set password</button>
        <button type="button" class="btn btn-sm" onClick=${() => reveal("password")} disabled=${busy === "password" || !project.hasPassword}
          aria-busy=${busy === "password" ? "true" : undefined} title=${project.hasPassword ? undefined : "No password is stored"}>Reveal password</button>
        ${project.hasPassword && html`<button type="button" class="btn btn-sm" onClick=${() => setDialog({ kind: "remove-password" })}>Remove password</button>`}
      </div>
      ${revealed && revealed.what === "password" && html`<${TimedSecret} secret=${revealed.value} seconds=${30} label="Portal password" onHide=${hide} />`}
      <h3 class="sub-title">Secrets</h3>
      ${keys.length === 0 && html`<p class="hint">No secrets stored.</p>`}
      <ul class="secret-list" data-testid="secrets">
        ${keys.map((k) => html`<li key=${k} data-key=${k} class="secret-item">
          <div class="secret-row">
            <code class="secret-key">${k}</code>
            <span class="row-actions">
              <button type="button" class="btn btn-sm" onClick=${() => reveal("secret", k)} disabled=${busy === `secret:${k}`}
                aria-label=${`Reveal ${k}`}>Reveal</button>
              <button type="button" class="btn btn-sm" onClick=${() => setDialog({ kind: "remove-secret", key: k })} aria-label=${`Remove ${k}`}>Remove</button>
            </span>
          </div>
          ${revealed && revealed.what === "secret" && revealed.key === k &&
          html`<${TimedSecret} secret=${revealed.value} seconds=${30} label=${k} testid="revealed-secret" emptyText="This secret is empty." onHide=${hide} />`}
        </li>`)}
      </ul>
      ${error && html`<${Notice} tone="danger" alert=${true}>${error}</${Notice}>`}
      <div class="btn-row"><button type="button" class="btn btn-sm" onClick=${() => setDialog({ kind: "secret" })}>Add secret</button></div>
      <p class="hint">Every reveal is recorded in the audit trail.</p>
    </${Card}>`;
}

// ---- Quotes from the subscription ------------------------------------------------------------

/**
 * "Renewal proforma" (or, while the subscription has a live one, a link to it: "Proforma PI/…,
 * issued" or "Renewal proforma draft") and, when the module has a rate card in force, "SMS top-up
 * quote": each makes a proforma draft and opens it. The rate card is found with a preview of one
 * unit (a dry run anyone may make; reading rate cards is the owner's). Returns { buttons, dialog }: render the
 * dialog first in <main>.
 */
export function useProjectQuotes(project) {
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const card = useRateCard(project);
  const opened = (doc) => {
    toast.success("Proforma draft made: check it and issue it.");
    navigate(docUrl(doc.id));
  };
  const renewal = async () => {
    if (busy) return;
    setBusy(true);
    try {
      opened(await post(`/api/client-modules/${enc(project.id)}/renewal-quote`, {}));
    } catch (err) {
      toast.error(err.message);
    } finally {
      setBusy(false);
    }
  };
  // A live renewal proforma is opened, not made twice (as the renewals list does).
  const pi = project && project.renewal_document;
  const renewalAction = pi
    ? html`<${Link} class="btn" href=${docUrl(pi.id)} data-testid="renewal-proforma">${pi.docNo ? `Proforma ${pi.docNo}, ${pi.status}` : "Renewal proforma draft"}</${Link}>`
    : html`<button type="button" class="btn" onClick=${renewal} disabled=${busy} aria-busy=${busy ? "true" : undefined}>
      ${busy && html`<span class="spinner small" aria-hidden="true"></span>`}Renewal proforma</button>`;
  const buttons = html`${renewalAction}
    ${card && html`<button type="button" class="btn" onClick=${() => setAsking(true)}>SMS top-up quote</button>`}`;
  const dialog = asking && html`<${SmsQuoteDialog} project=${project} minimum=${card && card.minimum} onClose=${() => setAsking(false)}
    onDone=${(doc) => { setAsking(false); opened(doc); }} />`;
  return { buttons, dialog };
}
