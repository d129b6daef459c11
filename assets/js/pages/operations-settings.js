// Operations (owner, /settings/operations): the SMS gateway's balance address, the low-balance
// threshold of the SMS balances report and the ticket SLA, each with the day it took effect. A
// save sends only what changed (an absent key is left as it is); the server checks every value
// (the address against request forgery too), writes nothing when one is refused and names each
// refused key, which shows on its field. Below, each in its own card and route: the payment terms
// (`/api/settings/billing`), the days after which a project is stalled (`/api/settings/projects`)
// and the ticket types (`/api/settings/tickets`).
import { html, useState } from "/vendor/preact-htm.js";
import { put } from "../api.js";
import { date, integer } from "../format.js";
import {
  Card, Notice, Loading, Form, Field, SubmitButton, useForm, fieldError, toast, useFetch, useTitle, PageHeader, Link,
  RowsEditor, keyed, listFieldError,
} from "../components.js";

const URL_KEY = "sms.balance_api_url";
const THRESHOLD = "sms.low_balance_threshold";
const SLA = "ticket.sla_days";

const start = (s) => ({ [URL_KEY]: s[URL_KEY] || "", [THRESHOLD]: String(s[THRESHOLD]), [SLA]: String(s[SLA]) });

/** The day first-boot defaults are dated (`db::settings::SEED_DATE`). */
const SEEDED = "2000-01-01";

/** "In force since 22-11-2026", or that the key runs on its default (never changed). */
function Since({ settings, name }) {
  const from = settings.effective_from && settings.effective_from[name];
  let text = name === URL_KEY ? "Not set: balances are not pulled." : "The default: never changed.";
  if (from && from !== SEEDED) text = html`In force since <time datetime=${from}>${date(from)}</time>.`;
  return html`<p class="hint setting-since" data-testid=${`since-${name}`}>${text}</p>`;
}

/** A whole number typed in a field ("1,500" too) → the number, or a field error. */
function wholeNumber(name, text, low, high, unit) {
  const t = String(text).trim().replace(/,/g, "");
  if (!/^\d+$/.test(t)) throw fieldError(name, `A whole number of ${unit}, ${integer(low)} to ${integer(high)}.`);
  return Number(t);
}

function OperationsForm({ settings, onSaved }) {
  const form = useForm(start(settings));
  const onSubmit = form.submit(async (v) => {
    const before = start(settings);
    const body = {};
    if (v[URL_KEY].trim() !== before[URL_KEY]) body[URL_KEY] = v[URL_KEY].trim();
    const threshold = wholeNumber(THRESHOLD, v[THRESHOLD], 0, 10_000_000, "credits");
    if (threshold !== settings[THRESHOLD]) body[THRESHOLD] = threshold;
    const days = wholeNumber(SLA, v[SLA], 1, 365, "days");
    if (days !== settings[SLA]) body[SLA] = days;
    if (Object.keys(body).length === 0) {
      toast.info("Nothing to save: no value was changed.");
      return;
    }
    const saved = await put("/api/settings/operations", body);
    form.reset(start(saved));
    onSaved(saved);
    const from = saved.effective_from[Object.keys(body)[0]];
    toast.success(from ? `Operations settings saved, in force from ${date(from)}.` : "Operations settings saved.");
  });
  return html`<${Form} onSubmit=${onSubmit} error=${form.formError} label="Operations settings">
    <fieldset class="form-section">
      <legend>SMS balances</legend>
      <div class="form-grid form-grid-narrow">
        <${Field} label="SMS gateway balance address" type="url" ...${form.field(URL_KEY)} optional wide autocomplete="off" spellcheck=${false}
          placeholder="https://sms.example.in/api/balance" class="mono-field" after=${html`<${Since} settings=${settings} name=${URL_KEY} />`}
          hint=${html`Called as <code>GET {address}?username=..&password=..</code> with each SMS subscription's portal login, daily and on a refresh.
            A public <code>http://</code> or <code>https://</code> address; private and local addresses are refused. Empty: balances are not pulled.`} />
        <${Field} label="Low-balance threshold (credits)" ...${form.field(THRESHOLD)} inputMode="numeric" autocomplete="off"
          after=${html`<${Since} settings=${settings} name=${THRESHOLD} />`}
          hint="A balance below this is Low on the SMS balances report and the home page. 0 to 1,00,00,000." />
      </div>
    </fieldset>
    <fieldset class="form-section">
      <legend>Tickets</legend>
      <div class="form-grid form-grid-narrow">
        <${Field} label="Ticket SLA (days)" ...${form.field(SLA)} inputMode="numeric" autocomplete="off"
          after=${html`<${Since} settings=${settings} name=${SLA} />`}
          hint="How many days a ticket may stay open before it is overdue. 1 to 365." />
      </div>
    </fieldset>
    <p class="hint">A change is in force from today; every change is recorded in the audit trail.</p>
    <div class="form-actions"><${SubmitButton} saving=${form.saving}>Save operations settings</${SubmitButton}></div>
  </${Form}>`;
}

/** "In force since …" for a setting answered with its own `effective_from`. */
function SinceDay({ from, testid }) {
  const text = from && from !== SEEDED ? html`In force since <time datetime=${from}>${date(from)}</time>.` : "The default: never changed.";
  return html`<p class="hint setting-since" data-testid=${testid}>${text}</p>`;
}

/**
 * A card holding one whole-number setting of its own route: `path` answers `{ [name], effective_from }`
 * and takes `{ [name] }`.
 */
function DaysCard({ title, path, name, label, hint, max, testid }) {
  const { data, error, reload } = useFetch(path);
  const [saved, setSaved] = useState(null);
  const s = saved || data;
  let body;
  if (error) body = html`<${Notice} tone="danger" alert=${true}>${error.message} <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`;
  else if (!s) body = html`<${Loading} label="Loading…" />`;
  else body = html`<${DaysForm} key=${JSON.stringify(s)} settings=${s} path=${path} name=${name} label=${label} hint=${hint} max=${max} testid=${testid} onSaved=${setSaved} />`;
  return html`<${Card} title=${title} class="section-card"><div data-testid=${testid}>${body}</div></${Card}>`;
}

function DaysForm({ settings, path, name, label, hint, max, testid, onSaved }) {
  const form = useForm({ [name]: String(settings[name]) });
  const onSubmit = form.submit(async (v) => {
    const days = wholeNumber(name, v[name], 0, max, "days");
    if (days > max) throw fieldError(name, `A whole number of days, 0 to ${integer(max)}.`);
    if (days === settings[name]) return toast.info("Nothing to save: the value was not changed.");
    const answer = await put(path, { [name]: days });
    onSaved(answer);
    toast.success(`Saved, in force from ${date(answer.effective_from)}.`);
  });
  return html`<${Form} onSubmit=${onSubmit} error=${form.formError} label=${label}>
    <div class="form-grid form-grid-narrow">
      <${Field} label=${label} ...${form.field(name)} inputMode="numeric" autocomplete="off" hint=${hint}
        after=${html`<${SinceDay} from=${settings.effective_from} testid=${`since-${name}`} />`} />
    </div>
    <div class="form-actions"><${SubmitButton} saving=${form.saving}>Save</${SubmitButton}></div>
  </${Form}>`;
}

/** The ticket types (`/api/settings/tickets`): 1 to 30 names, in the order the ticket form offers them. */
function TicketTypesCard() {
  const { data, error, reload } = useFetch("/api/settings/tickets");
  const [saved, setSaved] = useState(null);
  const s = saved || data;
  let body;
  if (error) body = html`<${Notice} tone="danger" alert=${true}>${error.message} <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`;
  else if (!s) body = html`<${Loading} label="Loading…" />`;
  else body = html`<${TicketTypesForm} key=${JSON.stringify(s)} settings=${s} onSaved=${setSaved} />`;
  return html`<${Card} title="Ticket types" class="section-card"><div data-testid="ticket-types">${body}</div></${Card}>`;
}

function TicketTypesForm({ settings, onSaved }) {
  const [rows, setRows] = useState(() => keyed(settings.types.map((name) => ({ name }))));
  const [errors, setErrors] = useState({});
  const [listError, setListError] = useState(null);
  const form = useForm({});
  const onSubmit = form.submit(async () => {
    setErrors({});
    setListError(null);
    const names = rows.map((r) => r.name.trim());
    const blank = names.findIndex((n) => !n);
    if (blank >= 0) return setErrors({ [blank]: { name: "Name the type, or remove the row." } });
    if (names.length === 0) return setListError("Keep at least one type.");
    try {
      const answer = await put("/api/settings/tickets", { types: names });
      onSaved(answer);
      toast.success(`Ticket types saved, in force from ${date(answer.effective_from)}.`);
    } catch (err) {
      const at = listFieldError(err);
      if (at && at.list === "types") return setErrors({ [at.index]: { name: at.message } });
      if (err && err.field === "types") return setListError(err.message);
      throw err;
    }
  });
  return html`<${Form} onSubmit=${onSubmit} error=${form.formError} label="Ticket types">
    <p class="hint">The types a new ticket may take, in the order offered. A type taken off the list stays on the tickets that have it.</p>
    <${RowsEditor} rows=${rows} onChange=${(next) => { setRows(next); setErrors({}); setListError(null); }} max=${30}
      blank=${() => ({ name: "" })} addLabel="Add type" reorder describe=${(r, i) => r.name || `type ${i + 1}`}
      errors=${errors} listError=${listError} label="Ticket types"
      renderRow=${(r, i, set, err) => html`<${Field} label="Type" name="type_name" value=${r.name} error=${err.name} maxLength="40" autocomplete="off"
        onInput=${(e) => set("name", e.currentTarget.value)} />`} />
    <${SinceDay} from=${settings.effective_from} testid="since-ticket.types" />
    <div class="form-actions"><${SubmitButton} saving=${form.saving}>Save ticket types</${SubmitButton}></div>
  </${Form}>`;
}

export function OperationsSettingsPage() {
  useTitle("Operations");
  const { data, error, reload } = useFetch("/api/settings/operations");
  const [saved, setSaved] = useState(null);
  const s = saved || data;
  let body;
  if (error) body = html`<${Notice} tone="danger" alert=${true}>${error.message} <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`;
  else if (!s) body = html`<${Loading} label="Loading the operations settings…" />`;
  else {
    body = html`<${Card} title="SMS and tickets" class="section-card">
      <${OperationsForm} key=${JSON.stringify(s)} settings=${s} onSaved=${setSaved} />
    </${Card}>
    <${DaysCard} title="Payment terms" path="/api/settings/billing" name="payment_terms_days" label="Payment terms (days)" max=${365}
      testid="payment-terms" hint="An invoice issued without a due date falls due this many days after its date. 0 to 365; issued invoices keep their due dates." />
    <${DaysCard} title="Stalled projects" path="/api/settings/projects" name="stall_days" label="Stalled after (days)" max=${3650}
      testid="stall-days" hint="An active project with no step ticked for this many days is listed as stalled. 0 to 3,650." />
    <${TicketTypesCard} />`;
  }
  return html`<main data-page="operations-settings">
    <p class="crumbs"><${Link} href="/settings">← Settings</${Link}></p>
    <${PageHeader} title="Operations"
      subtitle=${html`Where SMS balances are read from, when a balance is low, how long a ticket may stay open, when an invoice falls due, when a project is stalled, and the ticket types. <${Link} href="/reports/sms-balances">SMS balances</${Link}>`} />
    ${body}
  </main>`;
}
