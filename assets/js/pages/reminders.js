// The reminder queue: what the daily scan raised (renewals, contracts ending, overdue invoices,
// quote follow-ups, interaction follow-ups, bounced mail, a society's Form 16A past its date), open ones first by default. A row
// opens its preview beside the list: the exact email, who it goes to and what stands in its
// way; from there it is sent or dismissed. Ticked rows are dismissed together after a question.
// Staff see their own and the shared work (reminders without a document).
import { html, useState, useEffect } from "/vendor/preact-htm.js";
import { get, post } from "../api.js";
import { date, dateTime, humanize } from "../format.js";
import {
  DataTable, useUrlList, FilterBar, FilterSelect, Notice, Badge, Card, ConfirmDialog, Loading, useSession, useTitle, PageHeader,
  Link, toast, useSelection, selectColumn, useQuery,
} from "../components.js";
import { useActiveEmployees, ownerChoices } from "../ui/clients.js";
import { WhatsAppDialog } from "../ui/whatsapp.js";
import { fyText } from "../ui/periods.js";
import { docUrl } from "../ui/documents.js";
import { projectUrl } from "../ui/projects.js";

const enc = encodeURIComponent;

export const KIND_LABELS = {
  renewal_due: "Renewal due",
  amc_expiring: "Contract ending",
  invoice_overdue: "Invoice overdue",
  quote_followup: "Quote follow-up",
  follow_up: "Follow-up",
  email_bounced: "Email bounced",
  tds_certificate_due: "Form 16A awaited",
  tds_not_filed: "TDS not deposited",
};
const SENDABLE = ["renewal_due", "amc_expiring", "invoice_overdue", "quote_followup", "tds_certificate_due"];
const STATUS_TONES = { open: "info", sent: "success", dismissed: "neutral", failed: "danger" };

// "" is the open queue (the default); "all" every status.
const STATUS_FILTER = [
  { value: "", label: "Open" },
  { value: "failed", label: "Failed" },
  { value: "sent", label: "Sent" },
  { value: "dismissed", label: "Dismissed" },
  { value: "all", label: "Any status" },
];
const KIND_FILTER = [{ value: "", label: "All kinds" }, ...Object.entries(KIND_LABELS).map(([value, label]) => ({ value, label }))];
const FILTER_KEYS = ["rule_kind", "owner_id", "client_id"];

/** Tells the navigation's badge that the open count may have changed. */
export function remindersChanged() {
  window.dispatchEvent(new Event("reminders-changed"));
}

function StatusBadge({ r }) {
  return html`<${Badge} tone=${STATUS_TONES[r.status] || "neutral"} title=${r.failure || undefined}>${humanize(r.status)}</${Badge}>`;
}

/** The quarter whose Form 16A falls due on `dueOn` (15 Aug Q1, 15 Nov Q2, 15 Feb Q3, 15 Jun Q4). */
function tdsQuarter(dueOn) {
  const [y, m] = String(dueOn).split("-").map(Number);
  const [quarter, start] = { 8: ["Q1", y], 11: ["Q2", y], 2: ["Q3", y - 1], 6: ["Q4", y - 1] }[m] || [null, null];
  return quarter && { quarter, fy: fyText(start) };
}

/** The quarter whose TDS return falls due on `dueOn` (31 Jul Q1, 31 Oct Q2, 31 Jan Q3, 31 May Q4). */
function returnQuarter(dueOn) {
  const [y, m] = String(dueOn).split("-").map(Number);
  const [quarter, start] = { 7: ["Q1", y], 10: ["Q2", y], 1: ["Q3", y - 1], 5: ["Q4", y - 1] }[m] || [null, null];
  return quarter && { quarter, fy: fyText(start) };
}

function about(r, managerial) {
  if (r.rule_kind === "tds_not_filed") {
    const q = returnQuarter(r.due_on);
    if (!q) return html`<span class="muted">—</span>`;
    const text = `Form 26AS, ${q.quarter} ${q.fy}`;
    return managerial
      ? html`<${Link} href=${`/reports/tds?fy=${q.fy}&quarter=${q.quarter}&q=${enc(r.client_name)}`}>${text}</${Link}>`
      : text;
  }
  if (r.rule_kind === "tds_certificate_due") {
    const q = tdsQuarter(r.due_on);
    if (!q) return html`<span class="muted">—</span>`;
    const text = `Form 16A, ${q.quarter} ${q.fy}`;
    return managerial
      ? html`<${Link} href=${`/reports/tds?fy=${q.fy}&quarter=${q.quarter}&q=${enc(r.client_name)}`}>${text}</${Link}>`
      : text;
  }
  if (r.doc_id) return html`<${Link} href=${docUrl(r.doc_id)}>${r.docNo || "Document"}</${Link}>`;
  if (r.client_module_id) return html`<${Link} href=${projectUrl(r.client_module_id)}>Subscription</${Link}>`;
  if (r.contract_id) return html`<${Link} href=${`/service-contracts?client_id=${enc(r.client_id)}`}>Contract</${Link}>`;
  return html`<span class="muted">—</span>`;
}

/**
 * What a reminder says: its sentence as it stands today (`summary`, counted to the office's
 * today when read), and under it, when it differs, the sentence written the day the scan raised
 * it (`reason`), as history.
 */
function Sentence({ r, main = "" }) {
  return html`<span class=${main} data-testid="reminder-summary">${r.summary}</span>
    ${r.reason !== r.summary && html`<span class="cell-sub reminder-raised" data-testid="reminder-raised">When raised (${date(r.raised_on)}): ${r.reason}</span>`}`;
}

/** The preview pane of one reminder: the email it would send, with Send and Dismiss. */
function PreviewPane({ reminder, onChanged, onClose }) {
  const sendable = SENDABLE.includes(reminder.rule_kind);
  const actionable = reminder.status === "open" || reminder.status === "failed";
  const [state, setState] = useState({ preview: null, error: null });
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const [chat, setChat] = useState(false);
  useEffect(() => {
    if (!sendable) return undefined;
    const ctl = new AbortController();
    setState({ preview: null, error: null });
    get(`/api/reminders/${enc(reminder.id)}/preview`, null, { signal: ctl.signal })
      .then((preview) => setState({ preview, error: null }))
      .catch((error) => error.name !== "AbortError" && setState({ preview: null, error }));
    return () => ctl.abort();
  }, [reminder.id, reminder.status]);

  const send = async () => {
    setBusy(true);
    try {
      const answer = await post(`/api/reminders/${enc(reminder.id)}/send`, {});
      toast.success(answer.email ? `Sent to ${answer.email.to}.` : "This reminder had been sent already.");
    } catch (e) {
      toast.error(e.message);
    } finally {
      setBusy(false);
      remindersChanged();
      onChanged();
    }
  };
  const dismiss = async () => {
    await post(`/api/reminders/${enc(reminder.id)}/dismiss`, {});
    setAsking(false);
    toast.success("Dismissed.");
    remindersChanged();
    onChanged();
  };
  const { preview, error } = state;
  const blocking = preview ? preview.warnings.filter((w) => w.code !== "link_on_send" && w.code !== "email_bouncing") : [];
  const chatted = () => {
    remindersChanged();
    onChanged();
  };
  return html`${chat && html`<${WhatsAppDialog} path=${`/api/reminders/${enc(reminder.id)}/whatsapp`}
      what=${reminder.docNo || reminder.client_name} onClose=${() => setChat(false)} onSent=${chatted} />`}
    ${asking && html`<${ConfirmDialog} title="Dismiss this reminder?" confirmLabel="Dismiss"
      message=${`${KIND_LABELS[reminder.rule_kind]} for ${reminder.client_name}: it leaves the queue and is not sent.`}
      onConfirm=${dismiss} onCancel=${() => setAsking(false)} />`}
    <${Card} title=${KIND_LABELS[reminder.rule_kind]} class="reminder-preview"
      actions=${html`<button type="button" class="btn btn-sm" onClick=${onClose}>Close</button>`}>
      <div data-testid="reminder-preview" data-status=${reminder.status}>
        <p class="reminder-reason"><${Sentence} r=${reminder} /></p>
        ${reminder.owner_name && html`<p class="muted">Owner: ${reminder.owner_name}</p>`}
        <dl class="details">
          <div class="detail"><dt>Client</dt><dd><${Link} href=${`/clients/${enc(reminder.client_id)}`}>${reminder.client_name}</${Link}></dd></div>
          <div class="detail"><dt>Due</dt><dd>${date(reminder.due_on)}</dd></div>
          <div class="detail"><dt>Status</dt><dd><${StatusBadge} r=${reminder} />${reminder.sent_at && html` <span class="muted">${dateTime(reminder.sent_at)}</span>`}</dd></div>
          ${reminder.policy_applied === "auto" && html`<div class="detail"><dt>Policy</dt><dd>Sent by itself after the daily scan</dd></div>`}
        </dl>
        ${reminder.failure && html`<${Notice} tone="danger" title="The last send failed" testid="reminder-failure">${reminder.failure}</${Notice}>`}
        ${!sendable && html`<p class="muted">A task for the office: nothing is emailed. Dismiss it when it is done.</p>`}
        ${sendable && !preview && !error && html`<${Loading} />`}
        ${error && html`<${Notice} tone="danger" alert=${true}>${error.message}</${Notice}>`}
        ${preview && html`<div class="email-preview" data-testid="email-preview">
          ${preview.warnings.map((w) => html`<${Notice} tone=${blocking.includes(w) ? "warning" : "info"} testid=${`warning-${w.code}`}>${w.message}</${Notice}>`)}
          <dl class="details">
            <div class="detail"><dt>To</dt><dd data-testid="email-to">${preview.to || html`<span class="muted">nobody yet</span>`}</dd></div>
            <div class="detail"><dt>Subject</dt><dd data-testid="email-subject">${preview.subject}</dd></div>
            ${preview.attachments.length > 0 && html`<div class="detail"><dt>Attached</dt><dd>${preview.attachments.join(", ")}</dd></div>`}
          </dl>
          <pre class="email-text" data-testid="email-text">${preview.text}</pre>
        </div>`}
        ${actionable && html`<div class="form-actions">
          ${sendable && html`<button type="button" class="btn btn-primary" disabled=${busy || !preview || blocking.length > 0} onClick=${send}>
            ${busy ? "Sending…" : reminder.status === "failed" ? "Send again" : "Send email"}</button>`}
          ${sendable && html`<button type="button" class="btn" data-testid="reminder-whatsapp" onClick=${() => setChat(true)}>WhatsApp</button>`}
          <button type="button" class="btn" onClick=${() => setAsking(true)}>Dismiss</button>
        </div>`}
      </div>
    </${Card}>`;
}

export function RemindersPage() {
  const { me } = useSession();
  useTitle("Reminders");
  const managerial = me.role !== "staff";
  const [query] = useQuery();
  const status = query.status || "";
  const extra = status === "all" ? {} : { status: status || "open" };
  const list = useUrlList("/api/reminders", FILTER_KEYS, { csv: true, extra });
  const { setQuery } = list;
  const employees = useActiveEmployees(managerial);
  const sel = useSelection();
  const [asking, setAsking] = useState(false);
  const chosen = list.rows.find((r) => r.id === query.r) || null;
  const [pinned, setPinned] = useState(null);
  // The chosen row stays in the pane after it leaves the filtered page (sent, dismissed).
  useEffect(() => {
    if (chosen) setPinned(chosen);
    else if (!query.r) setPinned(null);
  }, [chosen, query.r]);
  const shown = chosen || (pinned && pinned.id === query.r ? pinned : null);
  const refresh = async () => {
    list.reload();
    if (shown) setPinned(await get(`/api/reminders/${enc(shown.id)}`).catch(() => shown));
  };
  const open = (r) => setQuery({ r: r.id, page: list.page > 1 ? list.page : "" }, { replace: true });

  const bulkDismiss = async () => {
    const answer = await post("/api/reminders/bulk-dismiss", { ids: sel.ids });
    setAsking(false);
    sel.clear();
    toast.success(`${answer.dismissed} ${answer.dismissed === 1 ? "reminder" : "reminders"} dismissed.`);
    remindersChanged();
    list.reload();
  };

  const columns = [
    selectColumn(sel, list.rows, (r) => `${KIND_LABELS[r.rule_kind]} for ${r.client_name}`),
    { key: "due_on", sortable: true, label: "Due", render: (r) => date(r.due_on) },
    {
      key: "rule_kind", sortable: true, label: "Kind",
      render: (r) => html`<button type="button" class="link-button cell-main" onClick=${() => open(r)}
        aria-pressed=${query.r === r.id ? "true" : "false"}>${KIND_LABELS[r.rule_kind] || r.rule_kind}</button>`,
    },
    { key: "client_name", sortable: true, label: "Client", wrap: true, render: (r) => html`<${Link} href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>` },
    { key: "about", label: "About", render: (r) => about(r, managerial) },
    // With the preview pane open, the pane says why and whose.
    ...(shown ? [] : [{ key: "reason", label: "Why", wrap: true, render: (r) => html`<div class="break"><${Sentence} r=${r} main="cell-main" /></div>` }]),
    ...(managerial && !shown ? [{ key: "owner_name", sortable: true, label: "Owner", render: (r) => r.owner_name || html`<span class="muted">Shared</span>` }] : []),
    { key: "status", sortable: true, label: "Status", render: (r) => html`<${StatusBadge} r=${r} />` },
  ];
  const filtered = FILTER_KEYS.some((k) => query[k]) || !!status;
  const dialog = asking && html`<${ConfirmDialog} title=${`Dismiss ${sel.count} ${sel.count === 1 ? "reminder" : "reminders"}?`}
    message="They leave the queue and are not sent. Reminders already sent or dismissed are passed over." confirmLabel="Dismiss"
    onConfirm=${bulkDismiss} onCancel=${() => setAsking(false)} />`;
  return html`<main data-page="reminders">
    ${dialog}
    <${PageHeader} title="Reminders"
      subtitle=${managerial ? "What needs chasing today: the daily scan raises these." : "Your reminders and the office's shared work (renewals, contracts, follow-ups, bounced mail)."} />
    <${FilterBar} label="Filter reminders">
      <${FilterSelect} label="Status" name="status" value=${status} options=${STATUS_FILTER} onChange=${(s) => setQuery({ status: s })} />
      <${FilterSelect} label="Kind" name="rule_kind" value=${query.rule_kind} options=${KIND_FILTER} onChange=${(k) => setQuery({ rule_kind: k })} />
      ${managerial && html`<${FilterSelect} label="Owner" name="owner_id" value=${query.owner_id}
        options=${ownerChoices(employees, { blank: "Everyone" })} onChange=${(o) => setQuery({ owner_id: o })} />`}
      ${filtered && html`<div class="filter-clear"><button type="button" class="btn btn-sm"
        onClick=${() => setQuery({ status: "", rule_kind: "", owner_id: "", client_id: "" })}>Clear filters</button></div>`}
    </${FilterBar}>
    <div class="list-toolbar">
      <span class="list-toolbar-text" aria-live="polite">
        ${sel.count ? `${sel.count} ${sel.count === 1 ? "reminder" : "reminders"} selected` : "Tick reminders to dismiss several at once; choose a kind to see its email."}
      </span>
      ${sel.count > 0 && html`<button type="button" class="btn btn-sm" onClick=${sel.clear}>Clear selection</button>`}
      <button type="button" class="btn btn-sm" disabled=${sel.count === 0} onClick=${() => setAsking(true)}>Dismiss selected</button>
    </div>
    <div class=${shown ? "queue-layout with-pane" : "queue-layout"}>
      <div data-testid="reminders">
        <${DataTable} caption="Reminders" columns=${columns} ...${list.tableProps}
          rowAttrs=${(r) => ({ "data-id": r.id, "data-kind": r.rule_kind, class: r.id === query.r ? "is-selected" : sel.has(r.id) ? "is-selected" : undefined })}
          empty=${filtered ? "No reminder matches these filters." : "Nothing to chase: the queue is empty."} />
      </div>
      ${shown && html`<${PreviewPane} key=${shown.id} reminder=${shown} onChanged=${refresh} onClose=${() => setQuery({ r: "" }, { replace: true })} />`}
    </div>
  </main>`;
}
