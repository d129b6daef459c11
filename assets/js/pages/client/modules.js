// The client page's "Modules" card: the client's subscriptions (projects) with their status and
// dates (an SMS subscription with its balance), "Add module" (a module from the catalog, its
// edition, next renewal and the module's own custom fields), a link to each project's page, and
// for owner and manager "Refresh SMS balance" (the client's SMS subscriptions asked at the gateway
// now, with what came of it).
import { html, useState } from "/vendor/preact-htm.js";
import { get, post } from "../../api.js";
import { date, dateTime, integer } from "../../format.js";
import {
  DataTable, Card, Badge, Dialog, Form, Field, DateField, SubmitButton, Notice, useForm, fieldError, toast, useFetch, useSession, Link,
} from "../../components.js";
import { ProjectStatusBadge, CustomFields, fieldStart, fieldValuesBody, projectUrl } from "../../ui/projects.js";
import { isManagerial } from "../../ui/clients.js";
import { SMS_CODE, SMS_BALANCES_URL, countsText, RefreshFailure } from "../../ui/sms.js";

const enc = encodeURIComponent;
const BASE_FIELDS = ["module_id", "edition", "next_renewal"];

function AddModuleDialog({ client, onClose, onSaved }) {
  const { data: catalog, error: catalogError } = useFetch("/api/modules", { active: 1, per_page: 200 });
  const modules = (catalog && catalog.rows) || [];
  const form = useForm({ module_id: "", edition: "", next_renewal: "" });
  const [custom, setCustom] = useState({});
  const [customErrors, setCustomErrors] = useState({});
  const chosen = modules.find((m) => m.id === form.values.module_id) || null;
  const spec = chosen ? chosen.field_spec || [] : [];

  const choose = (e) => {
    const id = e.currentTarget.value;
    form.set("module_id", id);
    const m = modules.find((x) => x.id === id);
    setCustom(fieldStart(m ? m.field_spec : [], null));
    setCustomErrors({});
  };
  const onSubmit = form.submit(async (v) => {
    setCustomErrors({});
    if (!v.module_id) throw fieldError("module_id", "Choose the module.");
    const body = { client_id: client.id, module_id: v.module_id };
    if (v.edition.trim()) body.edition = v.edition.trim();
    if (v.next_renewal) body.next_renewal = v.next_renewal;
    const values = fieldValuesBody(spec, custom);
    if (spec.length) body.field_values = values;
    try {
      onSaved(await post("/api/client-modules", body));
    } catch (err) {
      // A custom field's problem names its key; the dialog's own fields come first.
      if (err && err.field && !BASE_FIELDS.includes(err.field) && spec.some((f) => f.key === err.field)) {
        setCustomErrors({ [err.field]: err.message });
        setTimeout(() => document.querySelector(`dialog [name="${CSS.escape(err.field)}"]`)?.focus(), 0);
        return;
      }
      throw err;
    }
  });
  const options = [{ value: "", label: catalog ? "Choose a module…" : "Loading the catalog…" },
    ...modules.map((m) => ({ value: m.id, label: `${m.name} (${m.code})` }))];
  return html`<${Dialog} title=${`Add a module for ${client.name}`} size="wide" onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError || (catalogError && catalogError.message)} label="Add module">
      <div class="form-grid">
        <${Field} label="Module" as="select" ...${form.field("module_id")} onInput=${choose} options=${options} autofocus
          hint=${catalog && modules.length === 0 ? "The catalog has no active modules yet." : undefined} />
        <${Field} label="Edition" ...${form.field("edition")} optional autocomplete="off" hint="e.g. Gold, Standard." />
        <${DateField} label="Next renewal" name="next_renewal" value=${form.values.next_renewal} optional
          error=${form.errors.next_renewal} onChange=${(d) => form.set("next_renewal", d)} />
      </div>
      ${chosen && html`<fieldset class="form-section dialog-section">
        <legend>${chosen.name}: custom fields</legend>
        <${CustomFields} spec=${spec} values=${custom} errors=${customErrors}
          onChange=${(key, value) => {
            setCustom((c) => ({ ...c, [key]: value }));
            setCustomErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
          }} />
      </fieldset>`}
      <p class="hint">The onboarding checklist starts at once; open the project to tick its steps.</p>
      <div class="dialog-actions">
        <button type="button" class="btn" onClick=${onClose} disabled=${form.saving}>Cancel</button>
        <${SubmitButton} saving=${form.saving}>Add module</${SubmitButton}>
      </div>
    </${Form}>
  </${Dialog}>`;
}

const dateCell = (d) => (d ? date(d) : html`<span class="muted">—</span>`);

/** The flags of the client's active SMS subscriptions, read again after a refresh. */
async function flagsOf(client) {
  try {
    const answer = await get(`/api/clients/${enc(client.id)}/modules`);
    return answer.rows.filter((r) => r.module_code === SMS_CODE && r.active && r.sms_flag).map((r) => r.sms_flag);
  } catch {
    return [];
  }
}

/** What one refresh of the client's SMS balances came to, in words. */
function refreshWords(counts) {
  if (counts.total !== 1) return `${countsText(counts)}.`;
  if (counts.updated) return "The balance was read and has changed.";
  if (counts.unchanged) return "The balance was read: it has not changed.";
  return "No balance was read: the subscription is flagged and keeps its last balance.";
}

function RefreshOutcome({ outcome, me }) {
  const flags = outcome.flags.length > 0 && html`<ul class="sms-flags">${outcome.flags.map((f) => html`<li class="sms-flag-text">${f}</li>`)}</ul>`;
  if (outcome.error) return html`<div class="card-notice"><${RefreshFailure} error=${outcome.error} me=${me} />${flags}</div>`;
  const flagged = outcome.counts.flagged > 0;
  return html`<div class="card-notice"><${Notice} tone=${flagged ? "warning" : "success"} title="SMS balance refreshed" testid="sms-refresh-result">
    ${refreshWords(outcome.counts)}${flags}
  </${Notice}></div>`;
}

export function ModulesSection({ client }) {
  const { me } = useSession();
  const { data, error, loading, reload } = useFetch(`/api/clients/${enc(client.id)}/modules`);
  const [adding, setAdding] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const [outcome, setOutcome] = useState(null); // { counts, flags } or { error, flags }
  const rows = (data && data.rows) || [];
  const isSms = (r) => r.module_code === SMS_CODE;
  const canRefresh = isManagerial(me) && rows.some((r) => isSms(r) && r.active);
  const refresh = async () => {
    if (refreshing) return;
    setRefreshing(true);
    setOutcome(null);
    try {
      const counts = await post(`/api/clients/${enc(client.id)}/sms-balance/refresh`, {});
      setOutcome({ counts, flags: counts.flagged > 0 ? await flagsOf(client) : [] });
    } catch (error) {
      // A gateway that answered none still flagged each subscription with its reason.
      setOutcome({ error, flags: error.code === "sms_gateway_failed" ? await flagsOf(client) : [] });
    } finally {
      setRefreshing(false);
      reload();
    }
  };
  const balanceLine = (r) => html`<div class="cell-sub" data-testid="sms-balance">
      ${r.sms_balance === null || r.sms_balance === undefined ? "SMS balance not read yet" : html`SMS balance <strong>${integer(r.sms_balance)}</strong> credits`}${r.sms_checked_at && html` · asked <time datetime=${r.sms_checked_at}>${dateTime(r.sms_checked_at)}</time>`}
    </div>
    ${r.sms_flag && html`<div class="cell-sub sms-flag" data-testid="sms-flag"><${Badge} tone="warning">Flagged</${Badge}> <span class="sms-flag-text">${r.sms_flag}</span></div>`}`;
  const columns = [
    {
      key: "module_name", label: "Module", wrap: true,
      render: (r) => html`<${Link} class="cell-main" href=${projectUrl(r.id)}>${r.module_name}</${Link}>
        <div class="cell-sub"><span class="mono-ish">${r.module_code}</span>${r.edition && html` · Edition ${r.edition}`}</div>
        ${isSms(r) && balanceLine(r)}`,
    },
    { key: "status", label: "Status", render: (r) => html`<${ProjectStatusBadge} status=${r.status} active=${r.active} />` },
    { key: "next_renewal", label: "Renewal", render: (r) => dateCell(r.next_renewal) },
    {
      key: "installed_on", label: "Installed / trained",
      render: (r) => html`<div>${r.installed_on ? `Installed ${date(r.installed_on)}` : html`<span class="muted">Not installed</span>`}</div>
        <div class="cell-sub">${r.trained_on ? `Trained ${date(r.trained_on)}` : "Not trained"}</div>`,
    },
    { key: "open", label: "", class: "actions-col", render: (r) => html`<${Link} class="btn btn-sm" href=${projectUrl(r.id)}
        aria-label=${`Open ${r.module_name}`}>Open</${Link}>` },
  ];
  return html`${adding && html`<${AddModuleDialog} client=${client} onClose=${() => setAdding(false)} onSaved=${(cm) => {
      setAdding(false);
      reload();
      toast.success(`${cm.module_name} added for ${client.name}.`);
    }} />`}
    <${Card} title="Modules" class="section-card modules-card"
      actions=${html`${canRefresh && html`<button type="button" class="btn btn-sm" onClick=${refresh} disabled=${refreshing}
          aria-busy=${refreshing ? "true" : undefined} title="Ask the SMS gateway for this client's balance now">
          ${refreshing && html`<span class="spinner small" aria-hidden="true"></span>`}Refresh SMS balance</button>`}
        <button type="button" class="btn btn-sm" onClick=${() => setAdding(true)}>Add module</button>`}>
      ${outcome && html`<${RefreshOutcome} outcome=${outcome} me=${me} />`}
      <div data-testid="client-modules" class=${outcome ? "table-inset" : undefined}>
        <${DataTable} caption="Modules" columns=${columns} rows=${rows} loading=${loading} loaded=${!!data}
          error=${error} onRetry=${reload} empty="No modules yet." />
      </div>
      ${rows.some(isSms) && html`<p class="hint report-note">Every SMS balance, the low ones first: <${Link} href=${SMS_BALANCES_URL}>SMS balances</${Link}>.</p>`}
    </${Card}>`;
}
