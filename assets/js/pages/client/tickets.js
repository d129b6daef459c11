// The client page's Tickets card: the client's ten newest tickets (every status) with their SLA
// badges, "New ticket" with the client preset, and "All tickets" (the list narrowed to it).
import { html, useState } from "/vendor/preact-htm.js";
import { date, integer } from "../../format.js";
import { Card, DataTable, toast, useFetch, Link } from "../../components.js";
import { TicketDialog, TicketStatusBadge, SlaBadge, ticketUrl } from "../../ui/tickets.js";

const enc = encodeURIComponent;

export function TicketsCard({ client }) {
  const { data, error, loading, reload } = useFetch("/api/tickets", { client_id: client.id, chip: "all", per_page: 10 });
  const [creating, setCreating] = useState(false);
  const rows = (data && data.rows) || [];
  const columns = [
    {
      key: "subject", label: "Subject", wrap: true,
      render: (r) => html`<${Link} class="cell-main" href=${ticketUrl(r.id)}>${r.subject}</${Link}>
        <div class="cell-sub" data-testid="opened-on">Opened ${date(r.opened_on)}</div>`,
    },
    { key: "status", label: "Status", render: (r) => html`<${TicketStatusBadge} status=${r.status} />` },
    { key: "sla", label: "Age", render: (r) => html`<${SlaBadge} ticket=${r} />` },
  ];
  const all = `/tickets?client_id=${enc(client.id)}&chip=all`;
  const dialog = creating && html`<${TicketDialog} clientId=${client.id} clientName=${client.name} kinds=${(data && data.kind_suggestions) || []}
    onClose=${() => setCreating(false)} onSaved=${() => {
      setCreating(false);
      reload();
      toast.success(`Ticket opened for ${client.name}.`);
    }} />`;
  return html`${dialog}<${Card} title="Tickets" class="section-card client-tickets-card"
    actions=${html`<${Link} class="btn btn-sm" href=${all}>${data && data.total > rows.length ? `All ${integer(data.total)} tickets` : "All tickets"}</${Link}>
      <button type="button" class="btn btn-sm btn-primary" onClick=${() => setCreating(true)}>New ticket</button>`}>
    <div data-testid="client-tickets">
      <${DataTable} caption="Tickets, newest first" columns=${columns} rows=${rows} loading=${loading} loaded=${!!data} error=${error}
        onRetry=${reload} empty="No tickets yet." />
    </div>
  </${Card}>`;
}
