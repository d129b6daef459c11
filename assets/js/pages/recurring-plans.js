// Recurring plans (owner): clients billed the same lines every month, quarter or year. The list
// (filters in the URL) shows each plan's next run and last invoice, and a parked plan with the
// reason its generation failed and a Retry button. A plan is set up and edited in a dialog whose
// lines are the document editor's, priced live as the plan's next invoice would be.
import { html, useState, useRef } from "/vendor/preact-htm.js";
import { post, patch } from "../api.js";
import { date, dateTime, rupeesInput, humanize } from "../format.js";
import {
  DataTable, useUrlList, SearchBox, FilterBar, FilterSelect, Badge, ConfirmDialog, Dialog, Form, Field, DateField, Notice, Loading,
  DialogActions, useForm, toast, useTitle, PageHeader, Link, keyed, listFieldError, focusRowControl,
} from "../components.js";
import { ClientFilter, ClientPicker } from "../ui/clients.js";
import { docUrl, TotalsBox, blankLine, linesBody, renumber, useModules } from "../ui/documents.js";
import { LinesEditor, usePreview } from "../ui/lines.js";
import { ForbiddenPage } from "../ui/errors.js";

const enc = encodeURIComponent;
const FILTER_KEYS = ["q", "active", "parked", "client_id"];
const INTERVALS = [{ value: "monthly", label: "Monthly" }, { value: "quarterly", label: "Quarterly" }, { value: "yearly", label: "Yearly" }];
const ACTIVE_FILTER = [{ value: "", label: "On and off" }, { value: "1", label: "On" }, { value: "0", label: "Switched off" }];
const PARKED_FILTER = [{ value: "", label: "Any" }, { value: "1", label: "Parked" }, { value: "0", label: "Not parked" }];

/** A plan's line (as the API keeps it) → the line editor's text row. */
const planLineRow = (l) => ({
  module_id: l.module_id || "",
  description: l.description || "",
  sac: l.sac || "",
  qty: String(l.qty ?? ""),
  unit_price: l.unit_price === null || l.unit_price === undefined ? "" : rupeesInput(l.unit_price),
  gst_rate: l.gst_rate === null || l.gst_rate === undefined ? "" : String(l.gst_rate),
});

/** The form of a new plan (`plan` null) or of an existing one; onSaved(plan or null). */
function PlanDialog({ plan, onClose, onSaved }) {
  const start = {
    client_id: plan ? plan.client_id : "",
    interval: plan ? plan.interval : "monthly",
    next_run: plan ? plan.next_run : "",
    active: plan ? !!plan.active : true,
  };
  const form = useForm(start);
  const v = form.values;
  const [rows, setRows] = useState(() => keyed(plan ? plan.lines.map(planLineRow) : [blankLine()]));
  const [rowErrors, setRowErrors] = useState({});
  const [listError, setListError] = useState(null);
  const listRef = useRef(null);
  const { modules, loaded: modulesLoaded, error: modulesError } = useModules();

  // The next invoice, priced live as the server would price it on the next run.
  const live = linesBody(rows, { forPreview: true });
  const previewBody = v.client_id ? { type: "INVOICE", client_id: v.client_id, ...(v.next_run ? { doc_date: v.next_run } : {}), lines: live.lines } : null;
  const preview = usePreview(previewBody);
  const answer = previewBody && preview.data && preview.data.lines.length === live.lines.length ? preview.data : null;
  const priced = {};
  if (answer) answer.lines.forEach((l, j) => (priced[live.index[j]] = l));
  const errors = {};
  for (const [i, e] of Object.entries(live.errors)) errors[i] = { ...e };
  for (const [i, e] of Object.entries(rowErrors)) errors[i] = { ...(errors[i] || {}), ...e };

  const changeRows = (next) => {
    setRows(next);
    setRowErrors({});
    setListError(null);
  };

  const onSubmit = form.submit(async (values) => {
    const { lines, index, errors: bad } = linesBody(rows);
    const first = Object.keys(bad).map(Number).sort((a, b) => a - b)[0];
    if (first !== undefined) {
      setRowErrors(bad);
      focusRowControl(listRef.current, first, Object.keys(bad[first])[0]);
      return;
    }
    const body = { interval: values.interval, active: values.active ? 1 : 0, lines };
    if (values.next_run) body.next_run = values.next_run;
    if (!plan && values.client_id) body.client_id = values.client_id;
    if (plan) {
      if (values.interval === start.interval) delete body.interval;
      if (values.active === start.active) delete body.active;
      if (values.next_run === start.next_run) delete body.next_run;
    }
    try {
      onSaved(plan ? await patch(`/api/recurring-plans/${enc(plan.id)}`, body) : await post("/api/recurring-plans", body));
    } catch (err) {
      const at = listFieldError(err);
      if (at && at.list === "lines" && index[at.index] !== undefined) {
        setRowErrors({ [index[at.index]]: { [at.key || "module_id"]: renumber(err.message, index) } });
        focusRowControl(listRef.current, index[at.index], at.key || "module_id");
        // Other fields the server named (a 422 lists them all) show beside them too.
        const others = ((err.body && err.body.errors) || []).filter((e) => !e.field.startsWith("lines["));
        if (others.length) form.fail({ ...err, body: { errors: others } });
        return;
      }
      if (err && err.field === "lines") {
        setListError(err.message);
        const others = ((err.body && err.body.errors) || []).filter((e) => e.field !== "lines");
        if (others.length) form.fail({ ...err, body: { errors: others } });
        return;
      }
      throw err;
    }
  });

  const title = plan ? `Edit the plan of ${plan.client_name}` : "New recurring plan";
  return html`<${Dialog} title=${title} onClose=${onClose} closable=${!form.saving} size="wide">
    <${Form} onSubmit=${onSubmit} error=${form.formError} label=${title}>
      <div class="form-grid">
        ${plan
          ? html`<div class="field"><span class="field-label">Client</span><span class="static-value">${plan.client_name}</span></div>`
          : html`<${ClientPicker} value=${v.client_id} error=${form.errors.client_id} onChange=${(id) => form.set("client_id", id)} />`}
        <${Field} label="Every" as="select" ...${form.field("interval")} options=${INTERVALS} />
        <${DateField} label="Next invoice on" name="next_run" value=${v.next_run} error=${form.errors.next_run}
          onChange=${(d) => form.set("next_run", d)} hint="Its day of the month is the plan's (the last day in shorter months)." />
      </div>
      <label class="check"><input type="checkbox" name="active" checked=${v.active}
        onChange=${(e) => form.set("active", e.currentTarget.checked)} /> On: issue its invoices on their days</label>
      ${modulesError && html`<${Notice} tone="danger">The module list could not be read: ${modulesError.message}</${Notice}>`}
      <div ref=${listRef}>
        ${modulesLoaded || modulesError
          ? html`<${LinesEditor} rows=${rows} onChange=${changeRows} modules=${modules} errors=${errors} listError=${listError}
              priced=${priced} excluded=${Object.fromEntries(Object.keys(live.errors).map((i) => [i, true]))} waiting=${preview.pending} />`
          : html`<${Loading} label="Loading the catalog…" />`}
      </div>
      <div class="doc-summary">
        <div class="doc-warnings" aria-live="polite">
          ${!v.client_id && html`<p class="hint">Choose a client to see each invoice's prices and total.</p>`}
          ${preview.error && !listFieldError(preview.error) && html`<${Notice} tone="warning">${preview.error.message}</${Notice}>`}
        </div>
        <${TotalsBox} totals=${answer && answer.totals} intra=${answer ? answer.intra_state : true} stale=${preview.pending}
          note="Each invoice, priced on the day it is issued." />
      </div>
      <${DialogActions} onClose=${onClose} saving=${form.saving} label=${plan ? "Save changes" : "Save plan"} />
    </${Form}>
  </${Dialog}>`;
}

function LinesCell({ lines }) {
  const first = lines[0];
  const name = first ? first.description || "Module line" : "";
  return html`<span>${name}${lines.length > 1 && html` <span class="muted">+ ${lines.length - 1} more</span>`}</span>`;
}

function StatusCell({ plan }) {
  return html`<div class="badges">
      ${plan.active ? html`<${Badge} tone="success">On</${Badge}>` : html`<${Badge} tone="neutral">Switched off</${Badge}>`}
      ${plan.parked_at && html`<span data-testid="parked-badge"><${Badge} tone="danger" title=${`Parked ${dateTime(plan.parked_at)}`}>Parked</${Badge}></span>`}
    </div>
    ${plan.parked_reason && html`<div class="cell-sub" data-testid="parked-reason">${plan.parked_reason}</div>`}`;
}

export function RecurringPlansPage() {
  useTitle("Recurring plans");
  const list = useUrlList("/api/recurring-plans", FILTER_KEYS, { csv: true });
  const { query, setQuery } = list;
  // One dialog at a time: { kind: "new" | "edit" | "retry", plan }.
  const [dialog, setDialog] = useState(null);
  const close = () => setDialog(null);
  if (list.error && list.error.status === 403) return html`<${ForbiddenPage} />`;
  const filtered = FILTER_KEYS.some((k) => query[k]);

  const retry = async (p) => {
    try {
      const done = await post(`/api/recurring-plans/${enc(p.id)}/retry`, {});
      close();
      toast.success(done.last_docNo && done.last_docNo !== p.last_docNo ? `The plan of ${p.client_name} runs again: ${done.last_docNo} is issued.` : `The plan of ${p.client_name} runs again.`);
    } finally {
      // Parked again or not, the row shows what the plan is now.
      list.reload();
    }
  };

  const columns = [
    { key: "client_name", sortable: true, label: "Client", wrap: true, render: (r) => html`<${Link} href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>` },
    { key: "lines", label: "Bills", wrap: true, render: (r) => html`<${LinesCell} lines=${r.lines} />` },
    { key: "interval", sortable: true, label: "Every", render: (r) => humanize(r.interval) },
    { key: "next_run", sortable: true, label: "Next invoice", render: (r) => date(r.next_run) },
    { key: "parked_at", sortable: true, label: "Status", wrap: true, render: (r) => html`<${StatusCell} plan=${r} />` },
    {
      key: "last_docNo", label: "Last invoice",
      render: (r) => (r.last_invoice_id ? html`<${Link} href=${docUrl(r.last_invoice_id)}>${r.last_docNo || "Invoice"}</${Link}>` : html`<span class="muted">—</span>`),
    },
    {
      key: "actions", label: "Actions", class: "actions-col",
      render: (r) => html`<div class="row-actions">
        <button type="button" class="btn btn-sm" onClick=${() => setDialog({ kind: "edit", plan: r })}>Edit</button>
        ${r.parked_at && html`<button type="button" class="btn btn-sm btn-primary" onClick=${() => setDialog({ kind: "retry", plan: r })}>Retry</button>`}
      </div>`,
    },
  ];

  let dialogEl = null;
  if (dialog && (dialog.kind === "new" || dialog.kind === "edit")) {
    dialogEl = html`<${PlanDialog} plan=${dialog.plan || null} onClose=${close} onSaved=${(saved) => {
      close();
      list.reload();
      toast.success(`The plan of ${saved.client_name} is saved.`);
    }} />`;
  } else if (dialog && dialog.kind === "retry") {
    const p = dialog.plan;
    dialogEl = html`<${ConfirmDialog} title=${`Retry the plan of ${p.client_name}?`} tone="primary" confirmLabel="Retry now"
      message=${html`<p>It stopped because: <strong>${p.parked_reason}</strong></p>
        <p>The invoices due today are issued now. If it fails again, the plan stays parked with the new reason.</p>`}
      onCancel=${close} onConfirm=${() => retry(p)} />`;
  }

  const empty = filtered
    ? html`<div class="empty-state"><p class="empty-title">No plan matches these filters.</p>
        <button type="button" class="btn btn-sm" onClick=${() => setQuery(Object.fromEntries(FILTER_KEYS.map((k) => [k, ""])))}>Clear filters</button></div>`
    : "No recurring plans yet: set one up with New plan.";
  return html`<main data-page="recurring-plans">
    ${dialogEl}
    <${PageHeader} title="Recurring plans" subtitle="Invoices issued on their own every month, quarter or year. A plan whose invoice could not be issued is parked until you retry it."
      actions=${html`<button type="button" class="btn btn-primary" onClick=${() => setDialog({ kind: "new" })}>New plan</button>`} />
    <${FilterBar} label="Filter recurring plans">
      <${SearchBox} value=${query.q || ""} label="Search" placeholder="Client…" onSearch=${(q) => setQuery({ q }, { replace: true })} />
      <${FilterSelect} label="On or off" name="active" value=${query.active} options=${ACTIVE_FILTER} onChange=${(active) => setQuery({ active })} />
      <${FilterSelect} label="Parked" name="parked" value=${query.parked} options=${PARKED_FILTER} onChange=${(parked) => setQuery({ parked })} />
    </${FilterBar}>
    ${query.client_id && html`<${ClientFilter} id=${query.client_id} onClear=${() => setQuery({ client_id: "" })} />`}
    <div data-testid="plans">
      <${DataTable} caption="Recurring plans" columns=${columns} empty=${empty} ...${list.tableProps}
        rowAttrs=${(r) => ({ "data-id": r.id, "data-parked": r.parked_at ? "1" : "0" })} />
    </div>
  </main>`;
}
