// Notify-all on the module page (owner and managers): one email to every client on the module's
// roster, and the report of what came of it: how many were sent, the sends that failed with the
// provider's error, and the clients with no email address anywhere (each a link to the client).
import { html } from "/vendor/preact-htm.js";
import { post } from "../../api.js";
import { integer } from "../../format.js";
import { Dialog, Form, Field, SubmitButton, Spinner, Notice, useForm, fieldError, Link } from "../../components.js";

const enc = encodeURIComponent;
const plural = (n, one, many) => `${integer(n)} ${n === 1 ? one : many}`;

/** Subject and message, then "Send to all". onDone(report) with the server's answer. */
export function NotifyDialog({ module, subscribers, onClose, onDone }) {
  const form = useForm({ subject: "", body: "" });
  const onSubmit = form.submit(async (v) => {
    if (!v.subject.trim()) throw fieldError("subject", "Give the email a subject.");
    if (!v.body.trim()) throw fieldError("body", "Write the message.");
    onDone(await post(`/api/modules/${enc(module.id)}/notify`, { subject: v.subject.trim(), body: v.body.trim() }));
  });
  return html`<${Dialog} title=${`Email all subscribers of ${module.name}`} size="wide" onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Email all subscribers">
      <p class="dialog-intro">One email goes to each client on the roster${typeof subscribers === "number" ? ` (${plural(subscribers, "subscriber", "subscribers")})` : ""},
        at the client's accounts contact or its own address, on the letterhead. Sent emails cannot be recalled; clients without
        an email address are listed afterwards.</p>
      <${Field} label="Subject" ...${form.field("subject")} maxLength="200" autocomplete="off" autofocus readOnly=${form.saving} />
      <${Field} label="Message" as="textarea" rows="8" maxLength="20000" ...${form.field("body")} readOnly=${form.saving}
        hint="Plain text; blank lines start new paragraphs." />
      ${form.saving && html`<p class="send-progress"><${Spinner} small=${true} label="Sending…" showLabel=${true} />
        <span class="hint">One email per subscriber: a long roster takes a while. Keep this page open.</span></p>`}
      <div class="dialog-actions">
        <button type="button" class="btn" onClick=${onClose} disabled=${form.saving}>Cancel</button>
        <${SubmitButton} saving=${form.saving}>Send to all</${SubmitButton}>
      </div>
    </${Form}>
  </${Dialog}>`;
}

const clientLink = (c) => html`<${Link} href=${`/clients/${enc(c.client_id)}`} data-id=${c.client_id}>${c.client_name}</${Link}>`;

/** What a notify-all came to (`[data-testid=notify-result]`). */
export function NotifyResult({ report, onDismiss }) {
  const { roster, attempted, sent, failed, unreachable } = report;
  const clean = failed.length === 0 && unreachable.length === 0;
  const summary = `${plural(roster, "client", "clients")} on the roster; ${plural(attempted, "email", "emails")} attempted, ${integer(sent)} sent`
    + `${failed.length ? `, ${integer(failed.length)} failed` : ""}; ${plural(unreachable.length, "client has", "clients have")} no email address.`;
  return html`<div class="notify-result" data-testid="notify-result">
    <${Notice} tone=${clean ? "success" : "warning"} title=${`Sent ${integer(sent)} of ${integer(roster)}`}>
      <p class="notify-summary">${summary}</p>
      ${failed.length > 0 && html`<h3 class="sub-title">Not sent: the provider refused</h3>
        <ul class="plain-list notify-failed" data-testid="notify-failed">
          ${failed.map((f) => html`<li key=${f.client_id}>${clientLink(f)} <span class="muted">(${f.to})</span>: <span class="email-error">${f.error}</span></li>`)}
        </ul>`}
      <h3 class="sub-title">No email address: nothing was sent</h3>
      <div data-testid="notify-unreachable">
        ${unreachable.length
          ? html`<ul class="plain-list">${unreachable.map((c) => html`<li key=${c.client_id}>${clientLink(c)}</li>`)}</ul>
            <p class="hint">Add an email to the client or to one of its contacts to reach them next time.</p>`
          : html`<p class="hint">None: every subscriber has an email address.</p>`}
      </div>
      <p class="notify-actions"><button type="button" class="btn btn-sm" onClick=${onDismiss}>Dismiss</button></p>
    </${Notice}>
  </div>`;
}
