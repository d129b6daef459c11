// How mail leaves (owner, /settings/mail): a Postmark-style mail API (its address and token) or
// the office's own mailbox over SMTP (server, port, security, user name, password, with the
// usual settings of Gmail, Zoho Mail and Outlook one click away), and the sender address of
// both. The token and the password are write-only: the page only says whether one is stored,
// and leaving the field empty keeps it. "Send a test email" sends a short message through the
// saved settings and says what came of it.
import { html, useState } from "/vendor/preact-htm.js";
import { put, post } from "../api.js";
import { Card, Notice, Loading, Form, Field, SubmitButton, Spinner, useForm, toast, useFetch, useTitle, PageHeader, Link, fieldError } from "../components.js";

const TRANSPORTS = [
  { value: "api", label: "Mail API (Postmark-style)" },
  { value: "smtp", label: "SMTP: your own mailbox" },
];
const SECURITIES = [
  { value: "starttls", label: "STARTTLS (usually port 587)" },
  { value: "tls", label: "TLS from the start, also called SSL (usually port 465)" },
  { value: "none", label: "None: unencrypted" },
];
const PORTS = { starttls: 587, tls: 465, none: 25 };
const PRESETS = [
  { key: "gmail", label: "Gmail", smtp_host: "smtp.gmail.com", smtp_port: "587", smtp_security: "starttls" },
  { key: "zoho", label: "Zoho Mail", smtp_host: "smtp.zoho.in", smtp_port: "465", smtp_security: "tls" },
  { key: "outlook", label: "Outlook", smtp_host: "smtp.office365.com", smtp_port: "587", smtp_security: "starttls" },
];

const start = (s) => ({
  transport: (s && s.transport) || "api",
  api_url: (s && s.api_url) || "",
  from: (s && s.from) || "",
  token: "",
  remove_token: false,
  smtp_host: (s && s.smtp_host) || "",
  smtp_port: s && s.smtp_port ? String(s.smtp_port) : "",
  smtp_security: (s && s.smtp_security) || "starttls",
  smtp_username: (s && s.smtp_username) || "",
  smtp_password: "",
});

/** The body of the PUT: the chosen transport's fields and the sender; secrets only when typed. */
function bodyOf(values) {
  const body = { transport: values.transport, from: values.from.trim() };
  if (values.transport === "api") {
    body.api_url = values.api_url.trim();
    if (values.token.trim()) body.token = values.token.trim();
    else if (values.remove_token) body.token = "";
    return body;
  }
  const port = values.smtp_port.trim();
  if (port && !/^\d+$/.test(port)) throw fieldError("smtp_port", "A port from 1 to 65535.");
  Object.assign(body, {
    smtp_host: values.smtp_host.trim(),
    smtp_port: port ? Number(port) : PORTS[values.smtp_security],
    smtp_security: values.smtp_security,
    smtp_username: values.smtp_username.trim(),
  });
  if (values.smtp_password.trim()) body.smtp_password = values.smtp_password.trim();
  return body;
}

function ApiFields({ form, settings }) {
  const v = form.values;
  const tokenHint = settings.hasToken
    ? "A token is stored. Leave this empty to keep it; type a new one to replace it."
    : "No token is stored yet: the provider's server API token.";
  return html`
    <${Field} label="Provider API address" type="url" ...${form.field("api_url")} autocomplete="off" spellcheck=${false}
      placeholder="https://api.postmarkapp.com" hint="The provider's API base. Private and local addresses are refused." />
    <${Field} label="API token" type="password" ...${form.field("token")} optional autocomplete="new-password" spellcheck=${false}
      hint=${tokenHint} readOnly=${v.remove_token} />
    ${settings.hasToken && html`<label class="check"><input type="checkbox" name="remove_token" checked=${v.remove_token}
      onChange=${(e) => form.set("remove_token", e.currentTarget.checked)} /> Remove the stored token</label>`}`;
}

function SmtpFields({ form, settings }) {
  const v = form.values;
  const preset = (p) => form.setValues((old) => ({ ...old, smtp_host: p.smtp_host, smtp_port: p.smtp_port, smtp_security: p.smtp_security }));
  const passwordHint = settings.hasSmtpPassword
    ? "A password is stored. Leave this empty to keep it; type a new one to replace it."
    : "Gmail, Zoho Mail and Outlook want an app password (made in the mailbox's security settings), not the mailbox's own password.";
  return html`
    <div class="btn-row" data-testid="smtp-presets"><span class="hint">Fill in the usual settings of</span>
      ${PRESETS.map((p) => html`<button type="button" class="btn btn-sm" data-preset=${p.key} onClick=${() => preset(p)}>${p.label}</button>`)}</div>
    <p class="hint">${PRESETS.map((p) => `${p.label}: ${p.smtp_host}, port ${p.smtp_port}, ${p.smtp_security === "tls" ? "TLS" : "STARTTLS"}`).join(" · ")}.
      Each wants an app password, not the mailbox's own password.</p>
    <${Field} label="SMTP server" ...${form.field("smtp_host")} autocomplete="off" spellcheck=${false}
      placeholder="smtp.gmail.com" hint="The server's name alone: no smtp://, no port. Private and local addresses are refused." />
    <${Field} label="Security" as="select" ...${form.field("smtp_security")} options=${SECURITIES} />
    <${Field} label="Port" ...${form.field("smtp_port")} inputMode="numeric" optional autocomplete="off"
      placeholder=${String(PORTS[v.smtp_security])} hint=${`Empty: ${PORTS[v.smtp_security]}, the usual port of this security.`} />
    ${v.smtp_security === "none" && html`<${Notice} tone="warning" testid="smtp-unencrypted" title="Unencrypted">
      The password and every email cross the network readable. Only for a mail server on this office's own network.</${Notice}>`}
    <${Field} label="User name" ...${form.field("smtp_username")} optional autocomplete="off" spellcheck=${false}
      placeholder="billing@example.in" hint="Usually the mailbox's address. Empty: the server takes mail without signing in." />
    <${Field} label="Password" type="password" ...${form.field("smtp_password")} optional autocomplete="new-password"
      spellcheck=${false} hint=${passwordHint} />`;
}

function MailForm({ settings, onSaved }) {
  const form = useForm(start(settings));
  // The server checks every field at once (and resolves the address or server): its 422 names
  // each field beside it.
  const onSubmit = form.submit(async (values) => {
    const saved = await put("/api/settings/mail", bodyOf(values));
    form.reset(start(saved));
    onSaved(saved);
    toast.success("Mail settings saved.");
  });
  const smtp = form.values.transport === "smtp";
  return html`<${Form} onSubmit=${onSubmit} error=${form.formError} label="Mail settings">
    <div class="form-grid form-grid-narrow">
      <${Field} label="How mail leaves" as="select" ...${form.field("transport")} options=${TRANSPORTS}
        hint="SMTP sends from the office's own Gmail, Zoho Mail or Outlook mailbox." />
      ${smtp ? html`<${SmtpFields} form=${form} settings=${settings} />` : html`<${ApiFields} form=${form} settings=${settings} />`}
      <${Field} label="Send from" type="email" ...${form.field("from")} autocomplete="off" spellcheck=${false}
        placeholder="billing@example.in" hint=${smtp ? "The sender address: the mailbox's own, or one it may send as." : "The sender address; the provider must have it verified."} />
    </div>
    <div class="form-actions"><${SubmitButton} saving=${form.saving}>Save mail settings</${SubmitButton}></div>
  </${Form}>`;
}

/** "Send a test email" and its outcome (`[data-testid=mail-test]`): where it went, or the refusal in red. */
function TestEmail({ stored }) {
  const [to, setTo] = useState("");
  const [state, setState] = useState({ busy: false, result: null });
  const test = async () => {
    if (state.busy) return;
    setState({ busy: true, result: null });
    try {
      const body = to.trim() ? { to: to.trim() } : {};
      const answer = await post("/api/settings/mail/test", body);
      const via = answer.transport === "smtp" ? "the mail server" : "the mail API";
      setState({ busy: false, result: { ok: true, message: `A test email went to ${answer.to} through ${via}. Check that mailbox.` } });
    } catch (err) {
      // A wrong address shows beside its field; anything else is the test's outcome.
      if (err.field === "to") setState({ busy: false, result: null, toError: err.message });
      else setState({ busy: false, result: { ok: false, message: err.message } });
    }
  };
  const { busy, result, toError } = state;
  return html`<div class="mail-test">
    <p class="card-lead">Sends a short message through the saved settings. It is listed in the email log.</p>
    ${!stored && html`<p class="hint">Save the mail settings first.</p>`}
    <${Field} label="Send the test to" type="email" name="test_to" value=${to} error=${toError} optional
      onInput=${(e) => { setTo(e.currentTarget.value); setState((st) => ({ ...st, toError: null })); }}
      autocomplete="off" spellcheck=${false} hint="Empty: your own address." />
    <div class="btn-row">
      <button type="button" class="btn" onClick=${test} disabled=${busy} aria-busy=${busy ? "true" : undefined} data-testid="mail-test-send">
        ${busy && html`<span class="spinner small" aria-hidden="true"></span>`}Send a test email</button>
      ${busy && html`<${Spinner} small=${true} label="Sending…" showLabel=${true} />`}
    </div>
    ${result && html`<${Notice} tone=${result.ok ? "success" : "danger"} alert=${!result.ok} testid="mail-test"
      title=${result.ok ? "Sent" : "Not sent"}>${result.message}</${Notice}>`}
  </div>`;
}

export function MailSettingsPage() {
  useTitle("Mail");
  const { data, error, reload } = useFetch("/api/settings/mail");
  const [saved, setSaved] = useState(null);
  const s = saved || data;
  let body;
  if (error) body = html`<${Notice} tone="danger" alert=${true}>${error.message} <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`;
  else if (!s) body = html`<${Loading} label="Loading the mail settings…" />`;
  else {
    const stored = s.transport === "smtp" ? !!s.smtp_host : !!(s.api_url && s.hasToken);
    body = html`<div class="page-grid">
      <${Card} title="Sending" class="section-card"><${MailForm} settings=${s} onSaved=${setSaved} /></${Card}>
      <${Card} title="Test email" class="section-card"><${TestEmail} stored=${stored && !!s.from} /></${Card}>
    </div>`;
  }
  return html`<main data-page="mail-settings">
    <p class="crumbs"><${Link} href="/settings">← Settings</${Link}></p>
    <${PageHeader} title="Mail" subtitle="How documents, reminders and module notices are emailed: through a mail API, or through the office's own mailbox over SMTP." />
    ${body}
  </main>`;
}
