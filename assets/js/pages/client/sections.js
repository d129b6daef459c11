// The lists on the client page: what the client owes, contacts, branches, payments and the interactions timeline.
import { html, useState, useEffect, useCallback } from "/vendor/preact-htm.js";
import { get, del, isAbort } from "../../api.js";
import { dateTime, date, humanize, isoDate, rupees, integer } from "../../format.js";
import { DataTable, Card, Badge, ConfirmDialog, Notice, Spinner, EmptyState, toast, useFetch, Link } from "../../components.js";
import { ContactDialog, BranchDialog, InteractionDialog } from "./dialogs.js";
import { paymentUrl, advanceCell } from "../../ui/payments.js";
import { docUrl } from "../../ui/documents.js";

const enc = encodeURIComponent;
const telHref = (phone) => `tel:${String(phone).replace(/[^\d+]/g, "")}`;

function RowButtons({ what, row, onEdit, onDelete }) {
  return html`<div class="row-actions">
    <button type="button" class="btn btn-sm" aria-label=${`Edit ${what} ${row.name}`} onClick=${() => onEdit(row)}>Edit</button>
    ${onDelete && html`<button type="button" class="btn btn-sm" aria-label=${`Delete ${what} ${row.name}`} onClick=${() => onDelete(row)}>Delete</button>`}
  </div>`;
}

export function ContactsSection({ client }) {
  const { data, error, loading, reload } = useFetch(`/api/clients/${enc(client.id)}/contacts`);
  const [dialog, setDialog] = useState(null);
  const close = () => setDialog(null);
  const rows = (data && data.rows) || [];
  const saved = (what) => (answer) => {
    close();
    if (!answer) return toast.info("Nothing to save: no field was changed.");
    reload();
    toast.success(`${answer.name} is ${what}.`);
  };
  const columns = [
    { key: "name", label: "Name", class: "break", render: (r) => html`<span class="cell-main">${r.name}</span>` },
    { key: "role", label: "Role", class: "break" },
    { key: "phone", label: "Phone", render: (r) => r.phone && html`<a href=${telHref(r.phone)}>${r.phone}</a>` },
    {
      key: "email", label: "Email", class: "break",
      render: (r) => r.email && html`<a href=${`mailto:${r.email}`}>${r.email}</a>${r.email_bouncing === 1 &&
        html` <${Badge} tone="danger" title=${r.bounced_at ? `Bounced ${dateTime(r.bounced_at)}` : undefined}>Bouncing</${Badge}>`}`,
    },
    {
      key: "actions", label: "Actions", class: "actions-col",
      render: (r) => html`<${RowButtons} what="contact" row=${r} onEdit=${(c) => setDialog({ kind: "edit", contact: c })}
        onDelete=${(c) => setDialog({ kind: "delete", contact: c })} />`,
    },
  ];
  let dialogEl = null;
  if (dialog && dialog.kind === "delete") {
    const c = dialog.contact;
    dialogEl = html`<${ConfirmDialog} title=${`Delete ${c.name}?`} message=${`${c.name} is removed from this client's contacts.`} confirmLabel="Delete contact"
      onCancel=${close} onConfirm=${async () => {
        await del(`/api/contacts/${enc(c.id)}`);
        close();
        reload();
        toast.success(`${c.name} is deleted.`);
      }} />`;
  } else if (dialog) {
    dialogEl = html`<${ContactDialog} clientId=${client.id} contact=${dialog.contact} roles=${(data && data.role_suggestions) || []}
      onClose=${close} onSaved=${saved(dialog.contact ? "saved" : "added")} />`;
  }
  return html`<${Card} title="Contacts" class="section-card"
    actions=${html`<button type="button" class="btn btn-sm" onClick=${() => setDialog({ kind: "add" })}>Add contact</button>`}>
    ${dialogEl}
    <div data-testid="contacts">
      <${DataTable} caption="Contacts" columns=${columns} rows=${rows} loading=${loading} loaded=${!!data} error=${error}
        onRetry=${reload} empty="No contacts yet." />
    </div>
  </${Card}>`;
}

export function BranchesSection({ client, districts }) {
  const { data, error, loading, reload } = useFetch(`/api/clients/${enc(client.id)}/branches`);
  const [dialog, setDialog] = useState(null);
  const close = () => setDialog(null);
  const columns = [
    { key: "name", label: "Name", class: "break", render: (r) => html`<span class="cell-main">${r.name}</span>` },
    { key: "district", label: "District", class: "break" },
    { key: "address", label: "Address", wrap: true },
    { key: "phone", label: "Phone", render: (r) => r.phone && html`<a href=${telHref(r.phone)}>${r.phone}</a>` },
    { key: "actions", label: "Actions", class: "actions-col", render: (r) => html`<${RowButtons} what="branch" row=${r} onEdit=${(b) => setDialog({ branch: b })} />` },
  ];
  const dialogEl = dialog && html`<${BranchDialog} clientId=${client.id} branch=${dialog.branch} districts=${districts} onClose=${close}
    onSaved=${(answer) => {
      close();
      if (!answer) return toast.info("Nothing to save: no field was changed.");
      reload();
      toast.success(`${answer.name} is ${dialog.branch ? "saved" : "added"}.`);
    }} />`;
  return html`<${Card} title="Branches" class="section-card"
    actions=${html`<button type="button" class="btn btn-sm" onClick=${() => setDialog({})}>Add branch</button>`}>
    ${dialogEl}
    <div data-testid="branches">
      <${DataTable} caption="Branches" columns=${columns} rows=${(data && data.rows) || []} loading=${loading} loaded=${!!data}
        error=${error} onRetry=${reload} empty="No branches yet." />
    </div>
  </${Card}>`;
}


/**
 * "What they owe": the client's `owes` (outstanding, the overdue part in red, the advance held), its open
 * invoices (the dues aging's drill-down rows, so they agree with the report) and its five newest documents.
 */
export function OwesSection({ client }) {
  const owes = client.owes || { outstanding: 0, overdue: 0, open_invoices: 0, unallocated: 0 };
  const open = useFetch("/api/reports/dues-aging/invoices", { client_id: client.id });
  const recent = useFetch("/api/documents", { client_id: client.id, per_page: 5 });
  const openRows = (open.data && open.data.rows) || [];
  const recentRows = (recent.data && recent.data.rows) || [];
  const openColumns = [
    { key: "docNo", label: "Invoice", render: (r) => html`<${Link} class="cell-main" href=${docUrl(r.document_id)}>${r.docNo}</${Link}>` },
    { key: "doc_date", label: "Date", render: (r) => date(r.doc_date) },
    { key: "due_date", label: "Due", render: (r) => html`<span class=${r.days_past_due > 0 ? "owes-overdue" : ""}>${date(r.due_date || r.doc_date)}</span>` },
    { key: "outstanding", label: "Outstanding", class: "num", render: (r) => rupees(r.outstanding) },
  ];
  const recentColumns = [
    { key: "docNo", label: "Document", render: (r) => html`<${Link} class="cell-main" href=${docUrl(r.id)}>${r.docNo || "Draft"}</${Link}>` },
    { key: "type", label: "Type", render: (r) => humanize(r.type) },
    { key: "doc_date", label: "Date", render: (r) => date(r.doc_date) },
    { key: "total", label: "Total", class: "num", render: (r) => rupees(r.total) },
  ];
  return html`<${Card} title="What they owe" class="section-card client-owes-card"
    actions=${html`<${Link} class="btn btn-sm" href=${`/payments/new?client_id=${enc(client.id)}`} data-testid="owes-record-payment">Record payment</${Link}>`}>
    <div data-testid="client-owes">
      <dl class="details owes-figures">
        <div class="detail"><dt>Outstanding</dt><dd data-testid="owes-outstanding">${rupees(owes.outstanding)}</dd></div>
        <div class="detail"><dt>Overdue</dt><dd data-testid="owes-overdue" class=${owes.overdue > 0 ? "owes-overdue" : ""}>${rupees(owes.overdue)}</dd></div>
        <div class="detail"><dt>Advance held</dt><dd data-testid="owes-advance">${rupees(owes.unallocated)}</dd></div>
        <div class="detail"><dt>Open invoices</dt><dd data-testid="owes-open-count">${integer(owes.open_invoices)}</dd></div>
      </dl>
      <div data-testid="owes-invoices">
        <${DataTable} caption="Open invoices, oldest first" columns=${openColumns} rows=${openRows} rowKey="document_id"
          rowAttrs=${(r) => ({ "data-id": r.document_id, "data-overdue": r.days_past_due > 0 ? "1" : "0" })}
          loading=${open.loading} loaded=${!!open.data} error=${open.error} onRetry=${open.reload} empty="Nothing is owed." />
      </div>
      <div data-testid="client-recent-documents">
        <${DataTable} caption="Recent documents" columns=${recentColumns} rows=${recentRows}
          loading=${recent.loading} loaded=${!!recent.data} error=${recent.error} onRetry=${recent.reload} empty="No documents yet." />
        <p><${Link} href=${`/documents?client_id=${enc(client.id)}`} data-testid="owes-all-documents">All documents</${Link}></p>
      </div>
    </div>
  </${Card}>`;
}

/** The client's latest payments (the staff's own), with "Record payment" and a link to them all. */
export function PaymentsSection({ client }) {
  const { data, error, loading, reload } = useFetch("/api/payments", { client_id: client.id, per_page: 10 });
  const rows = (data && data.rows) || [];
  const columns = [
    { key: "receipt_no", label: "Receipt no.", render: (r) => html`<${Link} class="cell-main" href=${paymentUrl(r.id)}>${r.receipt_no}</${Link}>` },
    { key: "received_on", label: "Date", render: (r) => date(r.received_on) },
    { key: "amount", label: "Amount", class: "num", render: (r) => rupees(r.amount) },
    { key: "unallocated", label: "Advance held", class: "num", render: (r) => advanceCell(r.unallocated) },
  ];
  const more = data && data.total > rows.length;
  return html`<${Card} title="Payments" class="section-card client-payments-card"
    actions=${html`${more && html`<${Link} class="btn btn-sm" href=${`/payments?client_id=${enc(client.id)}`}>All ${integer(data.total)}</${Link}>`}
      <${Link} class="btn btn-sm" href=${`/payments/new?client_id=${enc(client.id)}`}>Record payment</${Link}>`}>
    <div data-testid="client-payments">
      <${DataTable} caption="Payments, newest first" columns=${columns} rows=${rows} loading=${loading} loaded=${!!data} error=${error}
        onRetry=${reload} empty="No payments recorded yet." />
    </div>
  </${Card}>`;
}

const PER_PAGE = 10;
const TYPE_TONE = { call: "info", visit: "success", meeting: "success", email: "neutral", whatsapp: "neutral", note: "neutral" };

function FollowUp({ on }) {
  if (!on) return null;
  const due = on <= isoDate();
  return html`<${Badge} tone=${due ? "warning" : "info"}>${due ? "Follow-up due" : "Follow up"} ${date(on)}</${Badge}>`;
}

/** The interactions timeline, newest first, a page at a time ("Load more"). */
export function InteractionsSection({ client, me, managerial, types }) {
  const [state, setState] = useState({ rows: [], total: 0, page: 0, loading: true, error: null });
  const [dialog, setDialog] = useState(null);
  const close = () => setDialog(null);

  const load = useCallback((page, signal) => {
    setState((s) => ({ ...s, loading: true, error: null }));
    return get("/api/interactions", { client_id: client.id, page, per_page: PER_PAGE }, { signal })
      .then((answer) => setState((s) => {
        const earlier = page === 1 ? [] : s.rows;
        const seen = new Set(earlier.map((r) => r.id));
        return { rows: [...earlier, ...answer.rows.filter((r) => !seen.has(r.id))], total: answer.total, page, loading: false, error: null };
      }))
      .catch((error) => {
        if (!isAbort(error)) setState((s) => ({ ...s, loading: false, error }));
      });
  }, [client.id]);

  useEffect(() => {
    const ctl = new AbortController();
    load(1, ctl.signal);
    return () => ctl.abort();
  }, [load]);

  const canEdit = (r) => managerial || r.author_id === me.id;
  const more = state.rows.length < state.total;
  const dialogEl = dialog && html`<${InteractionDialog} clientId=${client.id} entry=${dialog.entry} types=${types} onClose=${close}
    onSaved=${(answer) => {
      close();
      if (!answer) return toast.info("Nothing to save: no field was changed.");
      // An edit changes the entry where it is (keeping the pages already loaded); a new one goes on top.
      if (dialog.entry) setState((s) => ({ ...s, rows: s.rows.map((r) => (r.id === answer.id ? { ...r, ...answer } : r)) }));
      else load(1);
      toast.success(dialog.entry ? "Interaction saved." : "Interaction logged.");
    }} />`;

  return html`<${Card} title="Interactions" class="section-card"
    actions=${html`<button type="button" class="btn btn-sm btn-primary" onClick=${() => setDialog({})}>Log interaction</button>`}>
    ${dialogEl}
    ${state.error && html`<${Notice} tone="danger" alert=${true}>${state.error.message}
      <button type="button" class="btn btn-sm" onClick=${() => load(state.page || 1)}>Try again</button></${Notice}>`}
    <ul class="timeline" data-testid="interactions">
      ${state.rows.map((r) => html`<li key=${r.id} class="timeline-item" data-id=${r.id}>
        <div class="timeline-head">
          <${Badge} tone=${TYPE_TONE[r.type] || "neutral"}>${humanize(r.type)}</${Badge}>
          <time datetime=${r.created_at}>${dateTime(r.created_at)}</time>
          <span class="muted">${r.author_name || "Unknown"}</span>
          ${r.updated_at && r.updated_at !== r.created_at && html`<span class="muted" title=${`Edited ${dateTime(r.updated_at)}`}>(edited)</span>`}
          ${canEdit(r) && html`<button type="button" class="btn btn-sm timeline-edit" aria-label=${`Edit the ${r.type} of ${dateTime(r.created_at)}`}
            onClick=${() => setDialog({ entry: r })}>Edit</button>`}
        </div>
        <p class="timeline-notes">${r.notes}</p>
        <${FollowUp} on=${r.follow_up_on} />
      </li>`)}
    </ul>
    ${state.loading && html`<div class="timeline-state"><${Spinner} label="Loading interactions" showLabel=${true} small=${true} /></div>`}
    ${!state.loading && !state.error && state.rows.length === 0 && html`<${EmptyState} title="No interactions logged yet." />`}
    ${more && !state.loading &&
    html`<div class="timeline-more">
      <span class="muted">${state.rows.length} of ${state.total}</span>
      <button type="button" class="btn btn-sm" onClick=${() => load(state.page + 1)}>Load more</button>
    </div>`}
  </${Card}>`;
}
