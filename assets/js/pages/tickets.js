// Tickets (/tickets): the support calls of the office (staff: their clients' and those assigned
// to them), still-open ones oldest first. Status chips with their counts, "Assigned to me",
// search, type, "Past SLA" and the client chip, all in the URL; each row's SLA badge; the CSV of
// the filter; "New ticket" in a dialog.
import { html, useState } from "/vendor/preact-htm.js";
import { date, humanize } from "../format.js";
import {
  DataTable, useUrlList, SearchBox, FilterBar, FilterChips, FilterSelect, EmptyState, toast, useSession, useTitle, PageHeader, Link,
} from "../components.js";
import { ClientFilter } from "../ui/clients.js";
import { TicketDialog, TicketStatusBadge, SlaBadge, ticketUrl, useTicketTypes } from "../ui/tickets.js";

const enc = encodeURIComponent;
const FILTER_KEYS = ["chip", "mine", "search", "type", "overdue", "client_id"];
const DEFAULT_CHIP = "still_open";
const CHIPS = [
  { value: "still_open", label: "Still open" },
  { value: "open", label: "Open" },
  { value: "in_progress", label: "In progress" },
  { value: "waiting_on_client", label: "Waiting on client" },
  { value: "resolved", label: "Resolved" },
  { value: "closed", label: "Closed" },
  { value: "all", label: "All" },
];

/** A filter that is on or off (`?mine=1`), as a chip that stays pressed. */
function Toggle({ name, label, on, onChange }) {
  return html`<div class="field chips-field toggle-field">
    <div class="chips"><button type="button" class="chip" aria-pressed=${on ? "true" : "false"} data-toggle=${name}
      onClick=${() => onChange(on ? "" : "1")}>${label}</button></div>
  </div>`;
}

export function TicketsPage() {
  const { me } = useSession();
  useTitle("Tickets");
  const list = useUrlList("/api/tickets", FILTER_KEYS, { csv: true });
  const { query, setQuery, data } = list;
  const types = useTicketTypes();
  const [creating, setCreating] = useState(false);
  const chip = CHIPS.some((c) => c.value === query.chip) ? query.chip : DEFAULT_CHIP;
  const counts = (data && data.counts) || {};
  const filtered = FILTER_KEYS.some((k) => query[k]);

  const columns = [
    { key: "opened_on", label: "Opened", sortable: true, render: (r) => date(r.opened_on) },
    {
      key: "subject", label: "Subject", sortable: true, wrap: true,
      render: (r) => html`<${Link} class="cell-main" href=${ticketUrl(r.id)}>${r.subject}</${Link}>`,
    },
    { key: "client_name", label: "Client", sortable: true, wrap: true, render: (r) => html`<${Link} href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>` },
    { key: "type", label: "Type", sortable: true, render: (r) => humanize(r.type) },
    { key: "kind", label: "Kind", sortable: true, render: (r) => r.kind || html`<span class="muted">—</span>` },
    { key: "status", label: "Status", sortable: true, render: (r) => html`<${TicketStatusBadge} status=${r.status} />` },
    { key: "sla", label: "Age", render: (r) => html`<${SlaBadge} ticket=${r} />` },
    { key: "assignee_name", label: "Assigned to", render: (r) => (r.assignee_id === me.id ? "Me" : r.assignee_name || html`<span class="muted">Nobody</span>`) },
    { key: "resolved_on", label: "Resolved", sortable: true, render: (r) => (r.resolved_on ? date(r.resolved_on) : html`<span class="muted">—</span>`) },
  ];

  const empty = filtered
    ? html`<${EmptyState} title="No ticket matches these filters.">
        <button type="button" class="btn btn-sm" onClick=${() => setQuery(Object.fromEntries(FILTER_KEYS.map((k) => [k, ""])))}>Clear filters</button></${EmptyState}>`
    : "No ticket is still open.";
  return html`<main data-page="tickets">
    ${creating && html`<${TicketDialog} clientId=${query.client_id || ""} clientName=${null} kinds=${(data && data.kind_suggestions) || []}
      onClose=${() => setCreating(false)} onSaved=${(t) => {
        setCreating(false);
        list.reload();
        toast.success(`Ticket opened for ${t.client_name}.`);
      }} />`}
    <${PageHeader} title="Tickets"
      subtitle=${data ? `Support calls, the oldest still open first; past ${data.sla_days} days a call still open is overdue.` : "Support calls, the oldest still open first."}
      actions=${html`<button type="button" class="btn btn-primary" onClick=${() => setCreating(true)}>New ticket</button>`} />
    <${FilterBar} label="Filter tickets">
      <div class="ticket-chips">
        <${FilterChips} label="Status" value=${chip} options=${CHIPS.map((c) => ({ ...c, count: counts[c.value] }))}
          onChange=${(c) => setQuery({ chip: c === DEFAULT_CHIP ? "" : c })} />
      </div>
      <${Toggle} name="mine" label="Assigned to me" on=${query.mine === "1"} onChange=${(mine) => setQuery({ mine })} />
      <${Toggle} name="overdue" label="Past SLA" on=${query.overdue === "1"} onChange=${(overdue) => setQuery({ overdue })} />
      <${SearchBox} name="search" value=${query.search || ""} label="Search" placeholder="Subject, description or client…"
        onSearch=${(search) => setQuery({ search }, { replace: true })} />
      <${FilterSelect} label="Type" name="type" value=${query.type} options=${[{ value: "", label: "All types" }, ...types.map((t) => ({ value: t, label: humanize(t) }))]}
        onChange=${(type) => setQuery({ type })} />
    </${FilterBar}>
    ${query.client_id && html`<${ClientFilter} id=${query.client_id} onClear=${() => setQuery({ client_id: "" })} />`}
    <div data-testid="tickets">
      <${DataTable} caption="Tickets" columns=${columns} empty=${empty} ...${list.tableProps}
        rowAttrs=${(r) => ({ "data-id": r.id, "data-status": r.status, "data-overdue": r.overdue ? "1" : "0" })} />
    </div>
  </main>`;
}
