// Pipeline (/pipeline): the sales conversations to chase, the longest waiting first: issued or
// sent quotations (Quoted/Waiting) and bare leads (Enquiry), or the lost ones. Each carries its
// colour band from the quote follow-up ladder, its age and the next thing to do. Open / Lost /
// All, search and (owner, manager) the account owner in the URL; a List or a Board (a column per
// stage) view; the CSV of the filter. One click per row: mark a quotation sent, accepted or lost,
// log a call, and for a lead a new quotation or "Mark lost"; the list is read again after each.
import { html, useState } from "/vendor/preact-htm.js";
import { post, patch } from "../api.js";
import { date, integer, rupees } from "../format.js";
import {
  DataTable, useUrlList, SearchBox, FilterBar, FilterChips, FilterSelect, Badge, Dialog, DialogActions, ConfirmDialog, Form, Field,
  DateField, EmptyState, Notice, useForm, toast, useQuery, useSession, useTitle, PageHeader, Link, xlsxHref,
} from "../components.js";
import { docUrl } from "../ui/documents.js";
import { isManagerial, useActiveEmployees, ownerChoices } from "../ui/clients.js";

const enc = encodeURIComponent;
const FILTERS = [
  { value: "open", label: "Open" },
  { value: "lost", label: "Lost" },
  { value: "all", label: "All" },
];
const VIEWS = [
  { value: "list", label: "List" },
  { value: "board", label: "Board" },
];
const STAGES = ["Enquiry", "Quoted/Waiting", "Lost"];
const STAGES_OF = { open: STAGES.slice(0, 2), lost: STAGES.slice(2), all: STAGES };
const STAGE_TONE = { Enquiry: "info", "Quoted/Waiting": "warning", Lost: "neutral" };

/** What each colour band tells the person chasing. */
const BANDS = {
  green: "On track",
  amber: "Follow up",
  red: "Overdue",
  grey: "Lost",
};

function BandChip({ band }) {
  return html`<span class=${`band band-${band}`} data-testid="band" data-band=${band}>${BANDS[band] || band}</span>`;
}

const days = (n) => `${integer(n)} ${n === 1 ? "day" : "days"}`;
const rowId = (r) => (r.document_id ? `doc-${r.document_id}` : `lead-${r.client_id}`);

/** "Log a call": what was said and when to follow up → an interaction of type call. */
function CallDialog({ row, onClose, onSaved }) {
  const form = useForm({ notes: "", follow_up_on: "" });
  const onSubmit = form.submit(async (v) => {
    const body = { client_id: row.client_id, type: "call", notes: v.notes.trim() };
    if (v.follow_up_on) body.follow_up_on = v.follow_up_on;
    await post("/api/interactions", body);
    onSaved();
  });
  const title = `Log a call with ${row.client_name}`;
  return html`<${Dialog} title=${title} onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label=${title}>
      <${Field} label="What was said" as="textarea" ...${form.field("notes")} rows="4" autofocus
        placeholder=${row.docNo ? `e.g. Spoke to the secretary about ${row.docNo}` : "e.g. Asked for a demo next week"} />
      <${DateField} label="Follow up on" name="follow_up_on" value=${form.values.follow_up_on} error=${form.errors.follow_up_on}
        onChange=${(d) => form.set("follow_up_on", d)} optional />
      <${DialogActions} onClose=${onClose} saving=${form.saving} label="Log call" />
    </${Form}>
  </${Dialog}>`;
}

/**
 * The one-click actions of the pipeline: `run(row, what)` for the immediate ones and `ask(...)`
 * for the dialogs; `dialog` renders whichever is open. `onChanged` reads the list again.
 */
function usePipelineActions(onChanged) {
  const [dialog, setDialog] = useState(null); // { kind: "call" | "lost" | "lead-lost", row }
  const [busy, setBusy] = useState(null);
  const close = () => setDialog(null);
  const done = (message) => {
    toast.success(message);
    onChanged();
  };
  const call = async (r, what) => {
    const path = `/api/documents/${enc(r.document_id)}/${what}`;
    setBusy(`${rowId(r)}:${what}`);
    try {
      await post(path, {});
      done(what === "mark-sent" ? `${r.docNo} is marked sent.` : `${r.docNo} is marked accepted.`);
    } catch (err) {
      toast.error(err.message);
    } finally {
      setBusy(null);
    }
  };
  let el = null;
  if (dialog && dialog.kind === "call") {
    el = html`<${CallDialog} row=${dialog.row} onClose=${close} onSaved=${() => {
      close();
      done(`Call with ${dialog.row.client_name} logged.`);
    }} />`;
  } else if (dialog && dialog.kind === "lost") {
    const r = dialog.row;
    el = html`<${ConfirmDialog} title=${`Mark ${r.docNo} lost?`} confirmLabel="Mark quotation lost"
      message=${html`<p>The quotation to ${r.client_name}${r.total !== null ? ` for ${rupees(r.total)}` : ""} leaves the open pipeline and its follow-up reminders stop.</p>`}
      onCancel=${close} onConfirm=${async () => {
        await post(`/api/documents/${enc(r.document_id)}/lost`, {});
        close();
        done(`${r.docNo} is marked lost.`);
      }} />`;
  } else if (dialog && dialog.kind === "lead-lost") {
    const r = dialog.row;
    el = html`<${ConfirmDialog} title=${`Mark ${r.client_name} lost?`} confirmLabel="Mark client lost"
      message=${html`<p>The lead leaves the open pipeline; the client's status becomes Lost (set it back on the client page).</p>`}
      onCancel=${close} onConfirm=${async () => {
        await patch(`/api/clients/${enc(r.client_id)}`, { status: "lost" });
        close();
        done(`${r.client_name} is marked lost.`);
      }} />`;
  }
  const isBusy = (r, what) => busy === `${rowId(r)}:${what}`;
  const buttons = (r) => {
    const btn = (what, label, onClick) => html`<button type="button" class="btn btn-sm" data-action=${what} disabled=${!!busy}
      aria-busy=${isBusy(r, what) ? "true" : undefined} aria-label=${`${label}: ${r.docNo || r.client_name}`} onClick=${onClick}>${label}</button>`;
    const live = r.stage !== "Lost";
    const list = [];
    if (r.document_id) {
      if (live && r.doc_status === "issued") list.push(btn("mark-sent", "Mark sent", () => call(r, "mark-sent")));
      if (live) list.push(btn("accept", "Accepted", () => call(r, "accept")));
      if (live) list.push(btn("lost", "Lost", () => setDialog({ kind: "lost", row: r })));
    } else if (live) {
      list.push(html`<${Link} class="btn btn-sm" data-action="new-quotation" href=${`/documents/new?client_id=${enc(r.client_id)}&type=QUOTATION`}
        aria-label=${`New quotation for ${r.client_name}`}>New quotation</${Link}>`);
      list.push(btn("lead-lost", "Mark lost", () => setDialog({ kind: "lead-lost", row: r })));
    }
    list.push(btn("call", "Log a call", () => setDialog({ kind: "call", row: r })));
    return html`<div class="row-actions pipeline-actions">${list}</div>`;
  };
  return { dialog: el, buttons };
}

const quotationLink = (r) => (r.document_id
  ? html`<${Link} href=${docUrl(r.document_id)} data-testid="quotation-link" aria-label=${`Open quotation ${r.docNo}`}>${r.docNo}</${Link}>`
  : html`<span class="muted">No quotation yet</span>`);

/** The board: a column per stage the filter shows, a card per conversation coloured by its band. */
function Board({ rows, stages, buttons }) {
  return html`<div class="pipeline-board" data-testid="pipeline-board">
    ${stages.map((stage) => {
      const cards = rows.filter((r) => r.stage === stage);
      return html`<section class="pipeline-column" data-stage=${stage} aria-label=${stage}>
        <h2 class="pipeline-column-title">${stage} <span class="pipeline-column-count">${integer(cards.length)}</span></h2>
        ${cards.length === 0 && html`<p class="muted">Nothing here.</p>`}
        <ul class="pipeline-cards">
          ${cards.map((r) => html`<li key=${rowId(r)} class=${`pipeline-card band-edge-${r.band}`} data-band=${r.band} data-client-id=${r.client_id}
            data-document-id=${r.document_id || ""}>
            <div class="pipeline-card-head">
              <${Link} class="cell-main" href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>
              <${BandChip} band=${r.band} />
            </div>
            <div class="pipeline-card-doc">${quotationLink(r)}${r.total !== null && html` · ${rupees(r.total)}`}</div>
            <div class="cell-sub">${days(r.age)} · ${r.next_action}${r.next_on ? ` · ${date(r.next_on)}` : ""}</div>
            ${buttons(r)}
          </li>`)}
        </ul>
      </section>`;
    })}
  </div>`;
}

export function PipelinePage() {
  const { me } = useSession();
  const managerial = isManagerial(me);
  useTitle("Pipeline");
  const employees = useActiveEmployees(managerial);
  const [url] = useQuery();
  const view = url.view === "board" ? "board" : "list";
  // The board shows every card it can at once; the list pages.
  const list = useUrlList("/api/pipeline", ["filter", "q", "owner_id"], { csv: true, perPage: view === "board" ? 200 : 50 });
  const { query, setQuery, data } = list;
  const filter = FILTERS.some((f) => f.value === query.filter) ? query.filter : "open";
  const actions = usePipelineActions(list.reload);
  const rows = list.rows.map((r) => ({ ...r, id: rowId(r) }));

  const columns = [
    { key: "client_name", label: "Client", sortable: true, wrap: true, render: (r) => html`<${Link} class="cell-main" href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>` },
    {
      key: "stage", label: "Stage", sortable: true,
      render: (r) => html`<span class="stage-cell"><span data-testid="stage"><${Badge} tone=${STAGE_TONE[r.stage] || "neutral"}>${r.stage}</${Badge}></span> <${BandChip} band=${r.band} /></span>`,
    },
    { key: "age", label: "Age", sortable: true, class: "num", render: (r) => days(r.age) },
    {
      key: "next_action", label: "Next action", wrap: true,
      render: (r) => html`<span data-testid="next-action">${r.next_action}</span>
        <div class="cell-sub" data-testid="next-on">${r.next_on ? `Next on ${date(r.next_on)}` : "No follow-up due"}</div>`,
    },
    { key: "docNo", label: "Quotation", sortable: true, render: quotationLink },
    { key: "total", label: "Total", sortable: true, class: "num", render: (r) => (r.total === null ? html`<span class="muted">—</span>` : rupees(r.total)) },
  ];
  if (managerial) columns.splice(1, 0, { key: "owner_name", label: "Owner", sortable: true, render: (r) => r.owner_name || html`<span class="muted">Nobody</span>` });
  columns.push({ key: "actions", label: "", class: "actions-col", render: actions.buttons });

  const empty = query.q || query.owner_id
    ? html`<${EmptyState} title="No conversation matches these filters.">
        <button type="button" class="btn btn-sm" onClick=${() => setQuery({ q: "", owner_id: "" })}>Clear filters</button></${EmptyState}>`
    : filter === "lost" ? "No lost conversations." : "Nothing to chase: no open quotation and no bare lead.";
  const more = data && data.total > rows.length;
  return html`<main data-page="pipeline">
    ${actions.dialog}
    <${PageHeader} title="Pipeline"
      subtitle=${me.role === "staff" ? "Your open quotations and leads, the longest waiting first." : "Open quotations and leads, the longest waiting first, coloured by the follow-up ladder."} />
    <${FilterBar} label="Filter the pipeline">
      <${FilterChips} value=${filter} options=${FILTERS} onChange=${(f) => setQuery({ filter: f === "open" ? "" : f })} />
      <${SearchBox} value=${query.q || ""} label="Search" placeholder="Client or quotation number…" onSearch=${(q) => setQuery({ q }, { replace: true })} />
      ${managerial && html`<${FilterSelect} label="Account owner" name="owner_id" value=${query.owner_id}
        options=${ownerChoices(employees, { blank: "Everyone" })} onChange=${(owner_id) => setQuery({ owner_id })} />`}
      <${FilterChips} label="View" value=${view} options=${VIEWS} onChange=${(v) => setQuery({ view: v === "list" ? "" : v })} />
    </${FilterBar}>
    ${view === "board"
      ? html`${list.error && html`<${Notice} tone="danger" alert=${true}>${list.error.message}</${Notice}>`}
          ${more && html`<${Notice} tone="info">The board shows the first ${integer(rows.length)} of ${integer(data.total)}: narrow the search, or use the list.</${Notice}>`}
          ${data ? html`<${Board} rows=${rows} stages=${STAGES_OF[filter]} buttons=${actions.buttons} />` : null}
          ${list.tableProps.csvHref && html`<p><a class="btn btn-sm" href=${list.tableProps.csvHref} download data-testid="csv-link">Download CSV</a>
            <a class="btn btn-sm" href=${xlsxHref(list.tableProps.csvHref)} download data-testid="xlsx-link">Download Excel</a></p>`}`
      : html`<div data-testid="pipeline">
          <${DataTable} caption="Pipeline" columns=${columns} empty=${empty} ...${list.tableProps} rows=${rows}
            rowAttrs=${(r) => ({ "data-id": r.id, "data-band": r.band, "data-stage": r.stage, "data-client-id": r.client_id, "data-document-id": r.document_id || "" })} />
        </div>`}
  </main>`;
}
