// Milestone templates (owner): the checklist every new project gets is the shared front list
// followed by its module's tail, or the default tail when the module has none; with an empty
// front list, a module without a tail takes the older offices' whole checklist when one is set.
// Edit the front list, per module (`?module=CODE`) its own tail, and the whole checklist.
import { html, useState, useRef } from "/vendor/preact-htm.js";
import { put } from "../api.js";
import {
  Card, Notice, Loading, Field, Form, SubmitButton, useForm, toast, useFetch, useQuery, useTitle, PageHeader, Link,
  FilterSelect, RowsEditor, keyed, unkeyed, listFieldError, focusRowControl,
} from "../components.js";

/** The server's key_from_label: "Go-live call" → "go_live_call". */
export function stepKey(label) {
  return String(label || "").trim().toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
}

const toRows = (steps) => keyed((steps || []).map((s) => ({ label: s.label, key: s.key || "" })));

/** An editable list of steps with a Save button; onSave(steps) answers the saved templates. */
function StepsEditor({ steps, onSave, label, empty }) {
  const [rows, setRows] = useState(() => toRows(steps));
  const [errors, setErrors] = useState({});
  const [listError, setListError] = useState(null);
  const listRef = useRef(null);
  const form = useForm({});
  const onSubmit = form.submit(async () => {
    setErrors({});
    setListError(null);
    const body = rows.map((r) => {
      const s = unkeyed(r);
      return s.key.trim() ? { key: s.key.trim(), label: s.label.trim() } : { label: s.label.trim() };
    });
    const blank = body.findIndex((s) => !s.label);
    if (blank >= 0) {
      setErrors({ [blank]: { label: "Every step needs a label." } });
      return focusRowControl(listRef.current, blank, "step_label");
    }
    try {
      await onSave(body);
    } catch (err) {
      const at = listFieldError(err);
      if (at && at.list === "steps") {
        const key = at.key === "label" ? "label" : "key";
        setErrors({ [at.index]: { [key]: at.message } });
        return focusRowControl(listRef.current, at.index, key === "label" ? "step_label" : "step_key");
      }
      if (err && err.field === "steps") return setListError(err.message);
      throw err;
    }
  });
  return html`<${Form} onSubmit=${onSubmit} error=${form.formError} label=${label} class="steps-form">
    <div ref=${listRef}>
      <${RowsEditor} rows=${rows} onChange=${(r) => { setRows(r); setErrors({}); setListError(null); }} reorder max=${40}
        blank=${() => ({ label: "", key: "" })} addLabel="Add step" label=${label} empty=${empty}
        describe=${(r, i) => `step ${r.label || i + 1}`} errors=${errors} listError=${listError} class="rows-steps"
        renderRow=${(r, i, set, err) => html`
          <span class="step-number" aria-hidden="true">${i + 1}.</span>
          <${Field} label="Label" name="step_label" value=${r.label} error=${err.label} autocomplete="off"
            onInput=${(e) => set("label", e.currentTarget.value)} />
          <${Field} label="Key" name="step_key" value=${r.key} error=${err.key} optional class="mono-field" autocomplete="off" spellcheck=${false}
            placeholder=${stepKey(r.label) || "from the label"} onInput=${(e) => set("key", e.currentTarget.value)} />`} />
    </div>
    <div class="form-actions"><${SubmitButton} saving=${form.saving}>Save</${SubmitButton}></div>
  </${Form}>`;
}

function StepList({ steps }) {
  return html`<ol class="step-list">${steps.map((s) => html`<li>${s.label} <span class="mono-ish muted">${s.key}</span></li>`)}</ol>`;
}

function TailSection({ code, module, templates, onSaved }) {
  const own = templates.tails[code];
  const [draft, setDraft] = useState(null);
  const name = module ? `${module.name} (${code})` : code;
  const save = async (steps) => {
    const answer = await put(`/api/settings/milestones/tail/${encodeURIComponent(code)}`, { steps });
    setDraft(null);
    onSaved(answer, `The tail of ${code} is saved.`);
  };
  if (!own && !draft) {
    return html`<div data-testid="tail-default">
      <${Notice} tone="info">${name} uses the default tail.</${Notice}>
      <${StepList} steps=${templates.default_tail} />
      <button type="button" class="btn btn-sm" onClick=${() => setDraft(templates.default_tail)}>Start from the default tail</button>
    </div>`;
  }
  return html`${!own && html`<${Notice} tone="info">A new tail for ${name}, started from the default: it applies once saved.</${Notice}>`}
    <${StepsEditor} key=${JSON.stringify([code, own || null])} steps=${own || draft} onSave=${save} label=${`Tail of ${code}`}
      empty="No steps: this module's projects get only the front list." />`;
}

export function MilestoneTemplatesPage() {
  useTitle("Milestone templates");
  const { data, error } = useFetch("/api/settings/milestones");
  const { data: catalog } = useFetch("/api/modules", { per_page: 200 });
  const [saved, setSaved] = useState(null);
  const [query, setQuery] = useQuery();
  const t = saved || data;
  const code = query.module || "";
  const crumbs = html`<p class="crumbs"><${Link} href="/settings">← Settings</${Link}></p>`;
  const header = html`<${PageHeader} title="Milestone templates"
    subtitle="A new project's checklist: the front list, then its module's tail (or the default tail)." />`;
  if (error) return html`<main data-page="milestone-templates">${crumbs}${header}<${Notice} tone="danger" alert=${true}>${error.message}</${Notice}></main>`;
  if (!t) return html`<main data-page="milestone-templates">${crumbs}${header}<${Loading} /></main>`;

  const modules = (catalog && catalog.rows) || [];
  const choices = [{ value: "", label: "Choose a module…" }, ...modules.map((m) => ({ value: m.code, label: `${m.code} — ${m.name}${t.tails[m.code] ? "" : " (default tail)"}` }))];
  for (const c of Object.keys(t.tails)) if (!modules.some((m) => m.code === c)) choices.push({ value: c, label: c });
  if (code && !choices.some((c) => c.value === code)) choices.push({ value: code, label: code });
  const onSaved = (answer, message) => {
    setSaved(answer);
    toast.success(message);
  };
  return html`<main data-page="milestone-templates">
    ${crumbs}${header}
    <p class="hint page-note">A change reaches existing projects the next time their checklist is read: missing steps are added, ticked ones stay. A key may not be in both the front list and a tail.</p>
    <div class="page-grid even">
      <div class="page-col">
        <${Card} title="Front list" class="section-card">
          <p class="hint card-lead">The first steps of every project, whatever the module.</p>
          <${StepsEditor} key=${JSON.stringify(t.front)} steps=${t.front} label="Front list" empty="No front steps: checklists start with the tail."
            onSave=${async (steps) => onSaved(await put("/api/settings/milestones/front", { steps }), "The front list is saved.")} />
        </${Card}>
      </div>
      <div class="page-col">
        <${Card} title="Module tail" class="section-card">
          <div class="tail-picker">
            <${FilterSelect} label="Module" name="module" value=${code} options=${choices} onChange=${(module) => setQuery({ module }, { replace: true })} />
          </div>
          ${code
            ? html`<${TailSection} key=${code} code=${code} module=${modules.find((m) => m.code === code)} templates=${t} onSaved=${onSaved} />`
            : html`<p class="hint">Choose a module to see or change the steps after the front list.</p>`}
        </${Card}>
        <${Card} title="Default tail" class="section-card">
          <p class="hint card-lead">For modules without a tail of their own. It is fixed.</p>
          <${StepList} steps=${t.default_tail} />
        </${Card}>
        <${Card} title="Whole checklist (older offices)" class="section-card">
          <div data-testid="legacy-checklist">
            <p class="hint card-lead">One list for the whole checklist, as older offices kept it. While the front list is empty, it replaces
              the default tail for every module without a tail of its own${t.front.length ? " (the front list has steps now, so it is not used)" : ""}.
              Remove every step to stop using it.</p>
            <${StepsEditor} key=${JSON.stringify(t.legacy)} steps=${t.legacy || []} label="Whole checklist" empty="Not used: no steps."
              onSave=${async (steps) => onSaved(await put("/api/settings/milestones/legacy", { steps }), steps.length ? "The whole checklist is saved." : "The whole checklist is cleared.")} />
          </div>
        </${Card}>
      </div>
    </div>
  </main>`;
}
