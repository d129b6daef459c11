// The client page's "Modules" card: the client's subscriptions (projects) with their status and
// dates, "Add module" (a module from the catalog, its edition, next renewal and the module's own
// custom fields), and a link to each project's page.
import { html, useState } from "/vendor/preact-htm.js";
import { post } from "../api.js";
import { date } from "../format.js";
import {
  DataTable, Card, Dialog, Form, Field, DateField, SubmitButton, useForm, fieldError, toast, useFetch, Link,
} from "../components.js";
import { ProjectStatusBadge, CustomFields, fieldStart, fieldValuesBody, projectUrl } from "./project-shared.js";

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

export function ModulesSection({ client }) {
  const { data, error, loading, reload } = useFetch(`/api/clients/${enc(client.id)}/modules`);
  const [adding, setAdding] = useState(false);
  const columns = [
    {
      key: "module_name", label: "Module", wrap: true,
      render: (r) => html`<${Link} class="cell-main" href=${projectUrl(r.id)}>${r.module_name}</${Link}>
        <div class="cell-sub"><span class="mono-ish">${r.module_code}</span>${r.edition && html` · Edition ${r.edition}`}</div>`,
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
    <${Card} title="Modules" class="section-card"
      actions=${html`<button type="button" class="btn btn-sm" onClick=${() => setAdding(true)}>Add module</button>`}>
      <div data-testid="client-modules">
        <${DataTable} caption="Modules" columns=${columns} rows=${(data && data.rows) || []} loading=${loading} loaded=${!!data}
          error=${error} onRetry=${reload} empty="No modules yet." />
      </div>
    </${Card}>`;
}
