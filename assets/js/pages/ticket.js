// One ticket (/tickets/{id}): what it is about and where it stands (status, SLA, type, kind,
// dates, assignee), the status moves that make sense from here in one click, Edit in a dialog,
// a note, the timeline oldest first, and "Bill this ticket" (after a confirmation) into an
// invoice draft that opens at once; once billed, the bill's link instead.
import { html, useState, useEffect } from "/vendor/preact-htm.js";
import { patch, post } from "../api.js";
import { date, dateTime, humanize } from "../format.js";
import {
  Card, Badge, Notice, Loading, ConfirmDialog, Form, Field, SubmitButton, useForm, toast, useFetch, useSession, useTitle, PageHeader,
  Link, navigate, Detail,
} from "../components.js";
import { NotFoundPage } from "../ui/errors.js";
import { docUrl, DocStatusBadge, typeLabel } from "../ui/documents.js";
import { TicketDialog, TicketStatusBadge, SlaBadge, statusLabel } from "../ui/tickets.js";

const enc = encodeURIComponent;

/** The one-click moves from each status: [label, the status it moves to]. */
const MOVES = {
  open: [["Start", "in_progress"], ["Waiting on client", "waiting_on_client"], ["Resolve", "resolved"], ["Close", "closed"]],
  in_progress: [["Waiting on client", "waiting_on_client"], ["Resolve", "resolved"], ["Close", "closed"]],
  waiting_on_client: [["Resume", "in_progress"], ["Resolve", "resolved"], ["Close", "closed"]],
  resolved: [["Close", "closed"], ["Reopen", "open"]],
  closed: [["Reopen", "open"]],
};

/** What one timeline entry says. */
function EventText({ e }) {
  switch (e.kind) {
    case "opened":
      return "Opened the ticket";
    case "status":
      return html`<span data-testid="status-move">${statusLabel(e.from_status)} → ${statusLabel(e.to_status)}</span>`;
    case "assigned":
      return `Assigned to ${e.assignee_name || "someone no longer listed"}`;
    case "billed":
      return html`Billed: <${Link} href=${docUrl(e.document_id)}>${e.docNo || `Draft ${typeLabel(e.document_type).toLowerCase()}`}</${Link}>
        ${e.document_status && e.document_status !== "draft" && html` <${DocStatusBadge} status=${e.document_status} />`}`;
    case "note":
      return "Note";
    default:
      return humanize(e.kind);
  }
}

function Timeline({ events }) {
  return html`<ol class="timeline" data-testid="timeline">
    ${events.map((e) => html`<li key=${e.id} class="timeline-item" data-kind=${e.kind}>
      <div class="timeline-head">
        <span class="timeline-what"><${EventText} e=${e} /></span>
        <time datetime=${e.at}>${dateTime(e.at)}</time>
        <span class="muted">${e.user_name || "Unknown"}</span>
      </div>
      ${e.note && html`<p class="timeline-notes">${e.note}</p>`}
    </li>`)}
  </ol>`;
}

function NoteForm({ ticket, onSaved }) {
  const form = useForm({ note: "" });
  const onSubmit = form.submit(async (v) => {
    const answer = await patch(`/api/tickets/${enc(ticket.id)}`, { note: v.note });
    form.reset();
    onSaved(answer);
    toast.success("Note added.");
  });
  return html`<${Form} onSubmit=${onSubmit} error=${form.formError} label="Add a note" class="ticket-note-form">
    <${Field} label="Note" as="textarea" ...${form.field("note")} rows="3" placeholder="What was done, what the society said…" />
    <div class="btn-row"><${SubmitButton} saving=${form.saving} disabled=${!form.values.note.trim()}>Add note</${SubmitButton}></div>
  </${Form}>`;
}

export function TicketPage({ id }) {
  const { me } = useSession();
  const { data, error } = useFetch(`/api/tickets/${enc(id)}`);
  const [ticket, setTicket] = useState(null);
  const [dialog, setDialog] = useState(null); // "edit" | "bill"
  const [moving, setMoving] = useState(null);
  useEffect(() => setTicket(data), [data]);
  const t = ticket || data;
  useTitle(t ? t.subject : "Ticket");

  if (error && error.status === 404) {
    return html`<${NotFoundPage} title="Ticket not found" text="There is no such ticket, or it is not one of your clients' or yours." />`;
  }
  if (error) {
    return html`<main data-page="ticket"><${PageHeader} title="Ticket" /><${Notice} tone="danger" alert=${true}>${error.message}</${Notice}></main>`;
  }
  if (!t) {
    return html`<main data-page="ticket">
      ${null}
      <p class="crumbs"><${Link} href="/tickets">← Tickets</${Link}></p>
      <${PageHeader} title="Ticket" /><${Loading} label="Loading the ticket…" />
    </main>`;
  }

  const move = async (to) => {
    setMoving(to);
    try {
      const answer = await patch(`/api/tickets/${enc(t.id)}`, { status: to });
      setTicket(answer);
      toast.success(`The ticket is ${statusLabel(to).toLowerCase()} now.`);
    } catch (err) {
      toast.error(err.message);
    } finally {
      setMoving(null);
    }
  };
  const bill = async () => {
    const draft = await post(`/api/tickets/${enc(t.id)}/bill`, {});
    setDialog(null);
    toast.success("Invoice draft made: price it and issue it.");
    navigate(docUrl(draft.id));
  };

  let dialogEl = null;
  if (dialog === "edit") {
    dialogEl = html`<${TicketDialog} ticket=${t} onClose=${() => setDialog(null)} onSaved=${(answer) => {
      setDialog(null);
      if (!answer) return toast.info("Nothing to save: no field was changed.");
      setTicket(answer);
      toast.success("Ticket saved.");
    }} />`;
  } else if (dialog === "bill") {
    dialogEl = html`<${ConfirmDialog} title="Bill this ticket?" tone="primary" confirmLabel="Make invoice draft"
      message=${html`<p>An invoice draft for ${t.client_name} is made with one line naming this ticket, at no price until you price it; it opens so you can finish and issue it.</p>`}
      onCancel=${() => setDialog(null)} onConfirm=${bill} />`;
  }

  const subtitle = html`<span class="badges header-badges">
      <${TicketStatusBadge} status=${t.status} />
      <${SlaBadge} ticket=${t} />
    </span>
    <span class="header-meta"><${Link} href=${`/clients/${enc(t.client_id)}`} data-testid="ticket-client">${t.client_name}</${Link}></span>`;
  const moves = (MOVES[t.status] || []).map(([label, to]) => html`<button type="button" class=${`btn${to === "resolved" ? " btn-primary" : ""}`}
    data-move=${to} disabled=${!!moving} aria-busy=${moving === to ? "true" : undefined} onClick=${() => move(to)}>${label}</button>`);
  const billed = t.bill
    ? html`<span class="ticket-billed" data-testid="ticket-bill">Billed: <${Link} href=${docUrl(t.bill.id)}>${t.bill.docNo || `Draft ${typeLabel(t.bill.type).toLowerCase()}`}</${Link}></span>`
    : html`<button type="button" class="btn" onClick=${() => setDialog("bill")}>Bill this ticket</button>`;

  return html`<main data-page="ticket">
    ${dialogEl}
    <p class="crumbs"><${Link} href="/tickets">← Tickets</${Link}></p>
    <${PageHeader} title=${t.subject} subtitle=${subtitle}
      actions=${html`<button type="button" class="btn" onClick=${() => setDialog("edit")}>Edit</button>${billed}`} />
    <div class="ticket-moves btn-row" role="group" aria-label="Move the ticket">${moves}</div>
    <div class="page-grid ticket-grid">
      <${Card} title="Details" class="section-card">
        <dl class="details" data-testid="ticket-details">
          <${Detail} label="Type">${humanize(t.type)}</${Detail}>
          <${Detail} label="Kind">${t.kind || html`<span class="muted">—</span>`}</${Detail}>
          <${Detail} label="Opened on">${date(t.opened_on)}</${Detail}>
          <${Detail} label="Resolved on">${t.resolved_on ? date(t.resolved_on) : html`<span class="muted">—</span>`}</${Detail}>
          <${Detail} label="Assigned to">${t.assignee_id === me.id ? "Me" : t.assignee_name || html`<span class="muted">Nobody</span>`}</${Detail}>
          <${Detail} label="Status">${statusLabel(t.status)}${t.overdue ? html` <${Badge} tone="danger">Past SLA</${Badge}>` : ""}</${Detail}>
        </dl>
        ${t.description
          ? html`<p class="pre-wrap ticket-description">${t.description}</p>`
          : html`<p class="muted">No description.</p>`}
      </${Card}>
      <${Card} title="Timeline" class="section-card">
        <${Timeline} events=${t.events || []} />
        <${NoteForm} ticket=${t} onSaved=${setTicket} />
      </${Card}>
    </div>
  </main>`;
}
