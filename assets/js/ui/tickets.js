// What the ticket screens share (the list, one ticket, the client page's Tickets card): status
// names and badges, the SLA badge, the ticket types and assignees the forms offer, and the
// dialog that opens a ticket or edits one.
import { html } from "/vendor/preact-htm.js";
import { post, patch } from "../api.js";
import { humanize, integer, isoDate } from "../format.js";
import { Badge, Dialog, DialogActions, Form, Field, DateField, useForm, useFetch, useSession } from "../components.js";
import { ClientPicker } from "./clients.js";

const enc = encodeURIComponent;
export const ticketUrl = (id) => `/tickets/${enc(id)}`;

/** The statuses in the order a ticket moves through them; the first three are still open. */
export const STATUSES = ["open", "in_progress", "waiting_on_client", "resolved", "closed"];
const STILL_OPEN = ["open", "in_progress", "waiting_on_client"];
export const stillOpen = (status) => STILL_OPEN.includes(status);
export const statusLabel = (status) => humanize(status);
const STATUS_TONE = { open: "info", in_progress: "warning", waiting_on_client: "neutral", resolved: "success", closed: "neutral" };

export function TicketStatusBadge({ status }) {
  return html`<span data-testid="ticket-status" data-status=${status}><${Badge} tone=${STATUS_TONE[status] || "neutral"}>${statusLabel(status)}</${Badge}></span>`;
}

const days = (n) => `${integer(n)} ${n === 1 ? "day" : "days"}`;

/**
 * How long a ticket has been open (`[data-testid=sla]`): "3 days" while still open, red
 * "Overdue: 9 days" past the SLA (the days counted against it, waits on the client left out),
 * "12 days, SLA paused" while it waits on the client, and the days it took once resolved or
 * closed.
 */
export function SlaBadge({ ticket }) {
  const t = ticket;
  let tone = "neutral";
  let text = days(t.age);
  if (t.overdue) {
    tone = "danger";
    text = `Overdue: ${days(t.sla_age)}`;
  } else if (t.status === "waiting_on_client") {
    // The SLA clock is paused while the ticket waits on the client.
    text = `${days(t.age)}, SLA paused`;
  } else if (!stillOpen(t.status)) {
    tone = "success";
    text = `Took ${days(t.age)}`;
  }
  return html`<span class="sla" data-testid="sla" data-overdue=${t.overdue ? "1" : "0"}><${Badge} tone=${tone}>${text}</${Badge}></span>`;
}

/** The ticket types in force (`service` until they are read). */
export function useTicketTypes() {
  const { data } = useFetch("/api/tickets/types");
  return (data && data.rows) || ["service"];
}

/**
 * Who a ticket may be assigned to: the active employees, "Me" first; only "Me" when the list
 * cannot be read. A current assignee no longer active is kept, so the select never lies.
 */
export function useAssignees(current, currentName) {
  const { me } = useSession();
  const { data } = useFetch("/api/employees", { active: 1, per_page: 200 });
  const others = ((data && data.rows) || []).filter((e) => e.id !== me.id).map((e) => ({ value: e.id, label: e.name }));
  const list = [{ value: me.id, label: `Me (${me.name})` }, ...others];
  if (current && !list.some((o) => o.value === current)) list.push({ value: current, label: currentName || "The current assignee" });
  return list;
}

const trimmed = (v) => (v || "").trim();

/**
 * Opens a ticket (`ticket` null; `clientId`/`clientName` preset the client) or edits one.
 * `kinds`: the kinds already used, offered as you type. onSaved(the answer: the ticket with its
 * events), or null when an edit changed nothing. A 422 names each field at fault beside it.
 */
export function TicketDialog({ ticket, clientId, clientName, kinds = [], onClose, onSaved }) {
  const { me } = useSession();
  const types = useTicketTypes();
  const assignees = useAssignees(ticket && ticket.assignee_id, ticket && ticket.assignee_name);
  const start = {
    client_id: ticket ? ticket.client_id : clientId || "",
    subject: ticket ? ticket.subject : "",
    description: (ticket && ticket.description) || "",
    type: ticket ? ticket.type : "service",
    kind: (ticket && ticket.kind) || "",
    opened_on: ticket ? ticket.opened_on : isoDate(),
    assignee_id: ticket ? ticket.assignee_id || "" : me.id,
    status: ticket ? ticket.status : "open",
  };
  const form = useForm(start);
  const v = form.values;
  const fixedClient = ticket ? ticket.client_name : clientId ? clientName : null;
  const onSubmit = form.submit(async (values) => {
    const body = {};
    for (const k of Object.keys(start)) {
      const value = ["subject", "description", "kind"].includes(k) ? trimmed(values[k]) : values[k];
      if (ticket ? value !== start[k] : value !== "") body[k] = value;
    }
    if (ticket && Object.keys(body).length === 0) return onSaved(null);
    onSaved(ticket ? await patch(`/api/tickets/${enc(ticket.id)}`, body) : await post("/api/tickets", body));
  });
  const title = ticket ? "Edit the ticket" : "New ticket";
  const typeOptions = types.includes(v.type) ? types : [...types, v.type];
  return html`<${Dialog} title=${title} onClose=${onClose} closable=${!form.saving} size="wide">
    <${Form} onSubmit=${onSubmit} error=${form.formError} label=${title}>
      <div class="form-grid">
        ${fixedClient !== null
          ? html`<div class="field"><span class="field-label">Client</span><span class="static-value">${fixedClient}</span></div>`
          : html`<${ClientPicker} value=${v.client_id} error=${form.errors.client_id} onChange=${(id) => form.set("client_id", id)} />`}
        <${Field} label="Subject" ...${form.field("subject")} wide autocomplete="off" placeholder="e.g. Day-end process stuck" />
        <${Field} label="Description" as="textarea" ...${form.field("description")} wide optional rows="4" />
        <${Field} label="Type" as="select" ...${form.field("type")} options=${typeOptions.map((t) => ({ value: t, label: humanize(t) }))} />
        <${Field} label="Kind" ...${form.field("kind")} optional suggestions=${kinds} autocomplete="off" placeholder="e.g. Day-end" />
        <${DateField} label="Opened on" name="opened_on" value=${v.opened_on} error=${form.errors.opened_on}
          onChange=${(d) => form.set("opened_on", d)} hint="Not after today: the day the call came in." />
        <${Field} label="Assigned to" as="select" ...${form.field("assignee_id")} options=${assignees} />
        <${Field} label="Status" as="select" ...${form.field("status")} options=${STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))} />
      </div>
      <${DialogActions} onClose=${onClose} saving=${form.saving} label=${ticket ? "Save changes" : "Open ticket"} />
    </${Form}>
  </${Dialog}>`;
}
