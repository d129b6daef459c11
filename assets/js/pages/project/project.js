// One project (a client's module): its details (Edit dialog), the module's custom fields, the
// onboarding checklist and, for owner and manager, the portal password and module secrets.
import { html, useState, useEffect } from "/vendor/preact-htm.js";
import { put, patch } from "../../api.js";
import { date, dateTime, integer } from "../../format.js";
import {
  Card, Badge, Notice, Loading, Dialog, Form, Field, DateField, SubmitButton, useForm, fieldError, toast, useFetch,
  useSession, useTitle, PageHeader, Link, Detail,
} from "../../components.js";
import { NotFoundPage } from "../../ui/errors.js";
import { isManagerial } from "../../ui/clients.js";
import { ProjectStatusBadge, STATUS_SUGGESTIONS, CustomFields, fieldStart, fieldValuesBody } from "../../ui/projects.js";
import { ChecklistCard, CredentialsCard, useProjectQuotes } from "./sections.js";
import { moduleUrl } from "../../ui/modules.js";

const enc = encodeURIComponent;
const TEXT = ["status", "edition", "provider", "username"];
const DATES = ["installed_on", "trained_on", "next_renewal"];

function EditProjectDialog({ project: p, managerial, onClose, onSaved }) {
  const start = { active: !!p.active, sms_balance: p.sms_balance === null || p.sms_balance === undefined ? "" : String(p.sms_balance), password: "" };
  for (const k of [...TEXT, ...DATES]) start[k] = p[k] || "";
  const form = useForm(start);
  const [show, setShow] = useState(false);
  const onSubmit = form.submit(async (v) => {
    if (!v.status.trim()) throw fieldError("status", "Give the project a status, e.g. new.");
    const body = {};
    for (const k of [...TEXT, ...DATES]) {
      const val = v[k].trim();
      if (val !== start[k]) body[k] = val;
    }
    if (v.active !== start.active) body.active = v.active ? 1 : 0;
    const sms = v.sms_balance.trim();
    if (sms !== start.sms_balance) {
      if (!/^-?\d+$/.test(sms)) throw fieldError("sms_balance", sms ? "A whole number of SMS." : "The balance cannot be emptied once set; enter 0.");
      body.sms_balance = Number(sms);
    }
    if (managerial && v.password) body.password = v.password;
    if (Object.keys(body).length === 0) return onSaved(null);
    onSaved(await patch(`/api/client-modules/${enc(p.id)}`, body));
  });
  const dateField = (name, label) => html`<${DateField} label=${label} name=${name} value=${form.values[name]} optional
    error=${form.errors[name]} onChange=${(d) => form.set(name, d)} />`;
  return html`<${Dialog} title=${`Edit ${p.module_name} for ${p.client_name}`} size="wide" onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Edit project">
      <div class="form-grid">
        <${Field} label="Status" ...${form.field("status")} autocomplete="off" suggestions=${STATUS_SUGGESTIONS} autofocus
          hint="Ticking Installed or Trained sets it for you." />
        <${Field} label="Edition" ...${form.field("edition")} optional autocomplete="off" />
        ${dateField("installed_on", "Installed on")}
        ${dateField("trained_on", "Trained on")}
        ${dateField("next_renewal", "Next renewal")}
        <${Field} label="SMS balance" type="number" step="1" ...${form.field("sms_balance")} optional inputMode="numeric" />
        <${Field} label="Portal provider" ...${form.field("provider")} optional autocomplete="off" />
        <${Field} label="Portal username" ...${form.field("username")} optional autocomplete="off" spellcheck=${false} />
        ${managerial && html`<${Field} label="Portal password" type=${show ? "text" : "password"} ...${form.field("password")} optional
          autocomplete="new-password" spellcheck=${false} hint=${p.hasPassword ? "Leave empty to keep the stored password." : "No password is stored yet."}
          after=${html`<label class="check"><input type="checkbox" checked=${show} onChange=${(e) => setShow(e.currentTarget.checked)} /> Show</label>`} />`}
      </div>
      <label class="check"><input type="checkbox" name="active" checked=${form.values.active} onChange=${(e) => form.set("active", e.currentTarget.checked)} />
        Active (inactive projects leave the board, the roster and the stalled list)</label>
      <div class="dialog-actions">
        <button type="button" class="btn" onClick=${onClose} disabled=${form.saving}>Cancel</button>
        <${SubmitButton} saving=${form.saving}>Save changes</${SubmitButton}>
      </div>
    </${Form}>
  </${Dialog}>`;
}

function DetailsCard({ project: p, onEdit }) {
  return html`<${Card} title="Details" class="section-card"
    actions=${html`<button type="button" class="btn btn-sm" aria-label="Edit details" onClick=${onEdit}>Edit</button>`}>
    <dl class="details">
      <${Detail} label="Status" value=${html`<${ProjectStatusBadge} status=${p.status} active=${p.active} />`} />
      <${Detail} label="Edition" value=${p.edition} />
      <${Detail} label="Installed on" value=${date(p.installed_on)} />
      <${Detail} label="Trained on" value=${date(p.trained_on)} />
      <${Detail} label="Next renewal" value=${date(p.next_renewal)} />
      <${Detail} label="SMS balance" value=${p.sms_balance === null || p.sms_balance === undefined ? "" : integer(p.sms_balance)} />
      ${p.sms_checked_at && html`<${Detail} label="SMS balance checked" value=${dateTime(p.sms_checked_at)} />`}
      ${p.sms_flag && html`<${Detail} label="SMS balance flag" value=${html`<span class="sms-flag-text" data-testid="sms-flag">${p.sms_flag}</span>`} />`}
      <${Detail} label="Portal provider" value=${p.provider} />
      <${Detail} label="Portal username" value=${p.username && html`<span class="mono-ish">${p.username}</span>`} />
    </dl>
    <p class="hint">${p.created_at ? `Linked ${dateTime(p.created_at)}` : "Linked before dates were kept"}${p.updated_at && p.updated_at !== p.created_at ? ` · last changed ${dateTime(p.updated_at)}` : ""}.</p>
  </${Card}>`;
}

function CustomFieldsCard({ project, spec, onSaved }) {
  const [values, setValues] = useState(() => fieldStart(spec, project.field_values));
  const [errors, setErrors] = useState({});
  const form = useForm({});
  const stale = Object.entries(project.field_values || {}).filter(([k]) => !spec.some((f) => f.key === k));
  const onSubmit = form.submit(async () => {
    setErrors({});
    try {
      onSaved(await put(`/api/client-modules/${enc(project.id)}/fields`, fieldValuesBody(spec, values)));
    } catch (err) {
      if (err && err.field && spec.some((f) => f.key === err.field)) {
        setErrors({ [err.field]: err.message });
        setTimeout(() => document.querySelector(`[data-testid="custom-fields"] [name="${CSS.escape(err.field)}"]`)?.focus(), 0);
        return;
      }
      throw err;
    }
  });
  return html`<${Card} title="Custom fields" class="section-card">
    <div data-testid="custom-fields">
      <${Form} onSubmit=${onSubmit} error=${form.formError} label="Custom fields">
        <${CustomFields} spec=${spec} values=${values} errors=${errors} idle="The module asks for no custom fields."
          onChange=${(key, value) => {
            setValues((v) => ({ ...v, [key]: value }));
            setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
          }} />
        ${stale.length > 0 && html`<${Notice} tone="warning" title="Values of fields the module no longer has">
          ${stale.map(([k, v]) => html`<div><span class="mono-ish">${k}</span>: ${String(v)}</div>`)}
          <div>Saving the fields drops them.</div>
        </${Notice}>`}
        ${spec.length > 0 && html`<div class="form-actions"><${SubmitButton} saving=${form.saving}>Save fields</${SubmitButton}></div>`}
      </${Form}>
    </div>
  </${Card}>`;
}

export function ProjectPage({ id }) {
  const { me } = useSession();
  const managerial = isManagerial(me);
  const { data, error, reload } = useFetch(`/api/client-modules/${enc(id)}`);
  const [project, setProject] = useState(null);
  const [editing, setEditing] = useState(false);
  useEffect(() => setProject(data), [data]);
  const p = project || data;
  const { data: module, error: moduleError } = useFetch(p ? `/api/modules/${enc(p.module_id)}` : null);
  const quotes = useProjectQuotes(p);
  useTitle(p ? `${p.module_name} · ${p.client_name}` : "Project");

  if (error && (error.status === 404 || error.status === 400)) {
    return html`<${NotFoundPage} title="Project not found" text="There is no such project, or its client is not in your book." />`;
  }
  const crumbs = html`<p class="crumbs"><${Link} href="/projects">← Projects</${Link}></p>`;
  if (error) return html`<main data-page="project">${crumbs}<${PageHeader} title="Project" /><${Notice} tone="danger" alert=${true}>${error.message}</${Notice}></main>`;
  if (!p) return html`<main data-page="project">${null}${null}${crumbs}<${PageHeader} title="Project" /><${Loading} label="Loading the project…" /></main>`;

  const spec = (module && module.field_spec) || [];
  const subtitle = html`<span class="header-meta">Client: <${Link} href=${`/clients/${enc(p.client_id)}`} class="header-client">${p.client_name}</${Link}></span>
    <span class="badges header-badges"><${Badge} tone="neutral"><span class="mono-ish">${p.module_code}</span></${Badge}>
    <${ProjectStatusBadge} status=${p.status} active=${p.active} /></span>`;
  return html`<main data-page="project" class="project-page">
    ${quotes.dialog}
    ${editing && html`<${EditProjectDialog} project=${p} managerial=${managerial} onClose=${() => setEditing(false)} onSaved=${(updated) => {
      setEditing(false);
      if (!updated) return toast.info("Nothing to save: no field was changed.");
      setProject(updated);
      toast.success("Project saved.");
    }} />`}
    ${crumbs}
    <${PageHeader} title=${p.module_name} subtitle=${subtitle}
      actions=${html`${quotes.buttons}${me.role === "owner" && html`<${Link} class="btn" href=${moduleUrl(p.module_id)}>Module in the catalog</${Link}>`}`} />
    <div class="page-grid">
      <div class="page-col">
        <${DetailsCard} project=${p} onEdit=${() => setEditing(true)} />
        ${moduleError
          ? html`<${Notice} tone="danger" alert=${true}>The module's fields could not be read: ${moduleError.message}</${Notice}>`
          : module
            ? html`<${CustomFieldsCard} key=${JSON.stringify([p.field_values, spec])} project=${p} spec=${spec} onSaved=${(updated) => {
                setProject(updated);
                toast.success("Custom fields saved.");
              }} />`
            : html`<${Card} title="Custom fields" class="section-card"><${Loading} label="Loading the fields…" /></${Card}>`}
      </div>
      <div class="page-col">
        <${ChecklistCard} project=${p} onChanged=${reload} />
        ${managerial && html`<${CredentialsCard} project=${p} onSaved=${setProject} />`}
      </div>
    </div>
  </main>`;
}
