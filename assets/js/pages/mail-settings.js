// The mail provider (owner, /settings/mail): its API address, the sender address and the API
// token (write-only: the page only says whether one is stored; leaving the field empty keeps
// it), and "Test connection", which asks the provider whether it answers and takes the token.
import { html, useState } from "/vendor/preact-htm.js";
import { put, post } from "../api.js";
import { Card, Notice, Loading, Form, Field, SubmitButton, Spinner, useForm, toast, useFetch, useTitle, PageHeader, Link } from "../components.js";

const start = (s) => ({ api_url: (s && s.api_url) || "", from: (s && s.from) || "", token: "", remove_token: false });

function MailForm({ settings, onSaved }) {
  const form = useForm(start(settings));
  const v = form.values;
  // The server checks both addresses (and resolves the API's): its 422 names the field.
  const onSubmit = form.submit(async (values) => {
    const body = { api_url: values.api_url.trim(), from: values.from.trim() };
    // The token is write-only: sent only when typed (or removed on purpose).
    if (values.token.trim()) body.token = values.token.trim();
    else if (values.remove_token) body.token = "";
    const saved = await put("/api/settings/mail", body);
    form.reset(start(saved));
    onSaved(saved);
    toast.success("Mail settings saved.");
  });
  const tokenHint = settings.hasToken
    ? "A token is stored. Leave this empty to keep it; type a new one to replace it."
    : "No token is stored yet: the provider's server API token.";
  return html`<${Form} onSubmit=${onSubmit} error=${form.formError} label="Mail settings">
    <div class="form-grid form-grid-narrow">
      <${Field} label="Provider API address" type="url" ...${form.field("api_url")} autocomplete="off" spellcheck=${false}
        placeholder="https://api.postmarkapp.com" hint="The provider's API base. Private and local addresses are refused." />
      <${Field} label="Send from" type="email" ...${form.field("from")} autocomplete="off" spellcheck=${false}
        placeholder="billing@example.in" hint="The sender address; the provider must have it verified." />
      <${Field} label="API token" type="password" ...${form.field("token")} optional autocomplete="new-password" spellcheck=${false}
        hint=${tokenHint} readOnly=${v.remove_token} />
      ${settings.hasToken && html`<label class="check"><input type="checkbox" name="remove_token" checked=${v.remove_token}
        onChange=${(e) => form.set("remove_token", e.currentTarget.checked)} /> Remove the stored token</label>`}
    </div>
    <div class="form-actions"><${SubmitButton} saving=${form.saving}>Save mail settings</${SubmitButton}></div>
  </${Form}>`;
}

/** "Test connection" and its answer (`[data-testid=mail-test]`): success, or the refusal in red. */
function ConnectionTest({ stored }) {
  const [state, setState] = useState({ busy: false, result: null });
  const test = async () => {
    if (state.busy) return;
    setState({ busy: true, result: null });
    try {
      const answer = await post("/api/settings/mail/test", {});
      setState({ busy: false, result: { ok: true, message: answer.message } });
    } catch (err) {
      setState({ busy: false, result: { ok: false, message: err.message } });
    }
  };
  const { busy, result } = state;
  return html`<div class="mail-test">
    <p class="card-lead">Asks the provider whether it answers at the saved address and accepts the saved token. Nothing is sent.</p>
    ${!stored && html`<p class="hint">Save the address and the token first.</p>`}
    <div class="btn-row">
      <button type="button" class="btn" onClick=${test} disabled=${busy} aria-busy=${busy ? "true" : undefined}>
        ${busy && html`<span class="spinner small" aria-hidden="true"></span>`}Test connection</button>
      ${busy && html`<${Spinner} small=${true} label="Asking the provider…" showLabel=${true} />`}
    </div>
    ${result && html`<${Notice} tone=${result.ok ? "success" : "danger"} alert=${!result.ok} testid="mail-test"
      title=${result.ok ? "The provider answered" : "No connection"}>${result.message}</${Notice}>`}
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
    body = html`<div class="page-grid">
      <${Card} title="Mail provider" class="section-card"><${MailForm} settings=${s} onSaved=${setSaved} /></${Card}>
      <${Card} title="Connection" class="section-card"><${ConnectionTest} stored=${!!(s.api_url && s.hasToken)} /></${Card}>
    </div>`;
  }
  return html`<main data-page="mail-settings">
    <p class="crumbs"><${Link} href="/settings">← Settings</${Link}></p>
    <${PageHeader} title="Mail" subtitle="How documents and module notices are emailed: a Postmark-style provider reached over HTTPS." />
    ${body}
  </main>`;
}
