// Projects: the onboarding board (a tile per checklist step with how many active projects still
// wait for it), the list of projects pending the chosen step (`?step=KEY`; the owner may tick it
// for several at once) and the stalled projects (`?days=N`).
import { html, useState, useEffect } from "/vendor/preact-htm.js";
import { post } from "../api.js";
import { date, integer, isoDate } from "../format.js";
import {
  Card, Notice, Loading, EmptyState, DataTable, ConfirmDialog, DateField, toast, useFetch, useUrlList, useQuery,
  useSelection, selectColumn, useSession, useTitle, PageHeader, Link, useId,
} from "../components.js";
import { ProjectStatusBadge, projectUrl } from "../ui/projects.js";

const enc = encodeURIComponent;

function Board({ board, step }) {
  const { data, error, loading, reload } = board;
  if (!data && loading) return html`<${Loading} label="Loading the board…" />`;
  if (error) return html`<${Notice} tone="danger" alert=${true}>${error.message} <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`;
  if (data.rows.length === 0) return html`<${EmptyState} title="No active projects yet: link a module to a client to start one." />`;
  return html`<ol class="board" data-testid="board" aria-label="Checklist steps">
    ${data.rows.map((r) => html`<li key=${r.key} data-key=${r.key} class=${`board-step${r.key === step ? " is-current" : ""}${r.pending ? "" : " is-clear"}`}>
      <${Link} class="board-link" href=${`/projects?step=${enc(r.key)}`} aria-current=${r.key === step ? "true" : undefined}>
        <span class="board-label">${r.label}</span>
        <span class="board-count" data-testid="pending-count">${integer(r.pending)}</span>
        <span class="board-note">pending</span>
      </${Link}>
    </li>`)}
  </ol>`;
}

function PendingList({ step, label, isOwner, onTicked }) {
  const list = useUrlList(`/api/projects/pending/${enc(step)}`, [], { perPage: 50 });
  const sel = useSelection();
  const [doneOn, setDoneOn] = useState(isoDate());
  const [confirming, setConfirming] = useState(false);
  const rows = list.rows.map((r) => ({ ...r, id: r.client_module_id }));
  const columns = [
    ...(isOwner ? [selectColumn(sel, rows, (r) => `${r.client_name}, ${r.module_name}`)] : []),
    { key: "client_name", sortable: true, label: "Client", wrap: true, render: (r) => html`<${Link} class="cell-main" href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>` },
    { key: "module_name", sortable: true, label: "Module", render: (r) => html`${r.module_name} <span class="cell-sub mono-ish">${r.module_code}</span>` },
    { key: "status", sortable: true, label: "Status", render: (r) => html`<${ProjectStatusBadge} status=${r.status} />` },
    { key: "created_at", sortable: true, label: "Linked", render: (r) => (r.created_at ? date(r.created_at) : html`<span class="muted">—</span>`) },
    { key: "open", label: "Project", class: "actions-col", render: (r) => html`<${Link} class="btn btn-sm" href=${projectUrl(r.id)}
        aria-label=${`Open ${r.module_name} for ${r.client_name}`}>Open</${Link}>` },
  ];
  const n = sel.count;
  const projects = n === 1 ? "1 project" : `${integer(n)} projects`;
  return html`${confirming && html`<${ConfirmDialog} title=${`Tick “${label}” for ${projects}?`} tone="primary" confirmLabel=${`Tick ${projects}`}
      message=${html`<p>“${label}” is marked done on <strong>${date(doneOn)}</strong> for ${projects}. Each project's audit trail records it.</p>`}
      onCancel=${() => setConfirming(false)}
      onConfirm=${async () => {
        const answer = await post("/api/projects/bulk-milestone", { projects: sel.ids, key: step, done: true, doneOn });
        setConfirming(false);
        sel.clear();
        list.reload();
        onTicked();
        toast.success(`“${label}” ticked for ${answer.updated} ${answer.updated === 1 ? "project" : "projects"}.`);
      }} />`}
    <${Card} title=${`Pending: ${label}`} class="section-card pending-card">
      ${isOwner && html`<div class="list-toolbar bulk-toolbar">
        <span class="list-toolbar-text" aria-live="polite">${n ? `${projects} selected` : "Tick projects to mark this step done for several at once."}</span>
        ${n > 0 && html`<button type="button" class="btn btn-sm" onClick=${sel.clear}>Clear selection</button>`}
        <${DateField} label="Done on" name="bulk_done_on" value=${doneOn} onChange=${(d) => setDoneOn(d || isoDate())} />
        <button type="button" class="btn btn-sm btn-primary" disabled=${n === 0 || !doneOn} onClick=${() => setConfirming(true)}>Tick for selected</button>
      </div>`}
      <div data-testid="pending-list" class="table-inset">
        <${DataTable} caption=${`Projects pending ${label}`} columns=${columns} empty="Nothing is pending for this step."
          ...${list.tableProps} rows=${rows}
          rowAttrs=${(r) => ({ "data-id": r.id, class: sel.has(r.id) ? "is-selected" : undefined })} />
      </div>
    </${Card}>`;
}

function Stalled({ days, setDays }) {
  const id = useId("days-");
  const { data, error, loading, reload } = useFetch("/api/projects/stalled", days !== "" ? { days } : null);
  const [text, setText] = useState(days);
  const [inputError, setInputError] = useState(null);
  useEffect(() => setText(days !== "" ? days : data ? String(data.days) : ""), [days, data && data.days]);
  const commit = (e) => {
    if (e) e.preventDefault();
    const t = String(text).trim();
    if (!/^\d+$/.test(t) || Number(t) > 3650) return setInputError("A whole number of days, 0 to 3650.");
    setInputError(null);
    setDays(t);
  };
  const columns = [
    { key: "client_name", label: "Client", wrap: true, render: (r) => html`<${Link} class="cell-main" href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>` },
    { key: "module_name", label: "Module", render: (r) => html`${r.module_name} <span class="cell-sub mono-ish">${r.module_code}</span>` },
    { key: "status", label: "Status", render: (r) => html`<${ProjectStatusBadge} status=${r.status} />` },
    { key: "last_activity", label: "Last activity", render: (r) => date(r.last_activity) },
    { key: "age_days", label: "Idle (days)", class: "num", render: (r) => integer(r.age_days) },
    { key: "open", label: "Project", class: "actions-col", render: (r) => html`<${Link} class="btn btn-sm" href=${projectUrl(r.client_module_id)}
        aria-label=${`Open ${r.module_name} for ${r.client_name}`}>Open</${Link}>` },
  ];
  const err = inputError || (error && error.status === 400 ? error.message : null);
  return html`<${Card} title="Stalled" class="section-card stalled-card">
    <form class="inline-form stalled-form" onSubmit=${commit} novalidate aria-label="Stalled projects">
      <div class=${`field days-field${err ? " has-error" : ""}`}>
        <label for=${id}>Idle for at least (days)</label>
        <input id=${id} class="control" type="number" name="days" min="0" max="3650" step="1" inputMode="numeric" value=${text}
          aria-invalid=${err ? "true" : undefined} aria-describedby=${err ? `${id}-error` : undefined}
          onInput=${(e) => setText(e.currentTarget.value)} onChange=${(e) => setText(e.currentTarget.value)} />
        ${err && html`<p class="field-error" id=${`${id}-error`}>${err}</p>`}
      </div>
      <button type="submit" class="btn">Show</button>
    </form>
    ${data && html`<p class="card-lead" data-testid="stalled-summary">
      <strong>${integer(data.total)}</strong> ${data.total === 1 ? "project has" : "projects have"} had no step ticked for ${integer(data.days)} days or more.
      ${data.unknownAgeExcluded > 0 && html` <span class="muted" data-testid="unknown-age">${integer(data.unknownAgeExcluded)} ${data.unknownAgeExcluded === 1 ? "project" : "projects"} with no known age ${data.unknownAgeExcluded === 1 ? "is" : "are"} left out.</span>`}
    </p>`}
    ${error && error.status !== 400 && html`<${Notice} tone="danger" alert=${true}>${error.message}</${Notice}>`}
    <div data-testid="stalled" class="table-inset">
      <${DataTable} caption="Stalled projects, longest idle first" columns=${columns} loading=${loading} loaded=${!!data} onRetry=${reload}
        rows=${((data && data.projects) || []).map((r) => ({ ...r, id: r.client_module_id }))} empty="No project is stalled." />
    </div>
  </${Card}>`;
}

export function ProjectsPage() {
  const { me } = useSession();
  useTitle("Projects");
  const isOwner = me.role === "owner";
  const [query, setQuery] = useQuery();
  const step = query.step || "";
  const board = useFetch("/api/projects/board");
  const rows = (board.data && board.data.rows) || [];
  const current = rows.find((r) => r.key === step);
  return html`<main data-page="projects">
    <${PageHeader} title="Projects" subtitle="Onboarding of every active module: what each step still waits for."
      actions=${isOwner && html`<${Link} class="btn" href="/settings/milestones">Milestone templates</${Link}>`} />
    <div class="stack">
      <${Card} title="Board" class="section-card board-card"
        actions=${step && html`<${Link} class="btn btn-sm" href="/projects">Close the list</${Link}>`}>
        <${Board} board=${board} step=${step} />
      </${Card}>
      ${step && html`<${PendingList} key=${step} step=${step} label=${current ? current.label : step} isOwner=${isOwner} onTicked=${board.reload} />`}
      <${Stalled} days=${query.days || ""} setDays=${(days) => setQuery({ days }, { replace: true })} />
    </div>
  </main>`;
}
