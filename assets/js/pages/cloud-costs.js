// Cloud costs (/reports/cloud-costs; staff: their clients): what running each society's cloud
// server cost a month. Two views in the URL (`view`): the months (the list, latest month first,
// filtered by month, client name and source, with its CSV) and the ranking (each client's total
// over a range of months, costliest first, as a table and as horizontal bars drawn in plain
// SVG, with its CSV). "Enter a cost" adds or replaces a client's month (amount in rupees). The
// owner also sets the provider (report address and a write-only token) and pulls a month now.
import { html, useState } from "/vendor/preact-htm.js";
import { put, post } from "../api.js";
import { dateTime, integer, rupees, rupeesInput, paiseFromRupees, monthLabel } from "../format.js";
import {
  Card, DataTable, Dialog, DialogActions, EmptyState, Field, FilterBar, FilterChips, FilterSelect, Form, Loading, MoneyField, Notice,
  PageHeader, SearchBox, Spinner, SubmitButton, Badge, Link, fieldError, toast, useFetch, useForm, useQuery, useSession, useTitle, useUrlList,
} from "../components.js";
import { ClientPicker } from "../ui/clients.js";
import { recentMonths } from "../ui/periods.js";

const enc = encodeURIComponent;
const LIST_KEYS = ["month", "q", "source"];
const RANKING_KEYS = ["from", "to"];
const VIEWS = [
  { value: "months", label: "Months" },
  { value: "ranking", label: "Ranking" },
];
const SOURCES = [
  { value: "", label: "All" },
  { value: "manual", label: "Entered" },
  { value: "pull", label: "Pulled" },
];

/** The `count` months up to the current one, latest first, as select options. */
const monthChoices = (count) => recentMonths(count).map((m) => ({ value: m, label: monthLabel(m) }));

const sourceBadge = (s) => (s === "pull" ? html`<${Badge} tone="info">Pulled</${Badge}>` : html`<${Badge}>Entered</${Badge}>`);

/** The server's `rows[0].x` errors of a one-row write, as the dialog's fields `x`. */
function oneRow(err) {
  const strip = (f) => (typeof f === "string" ? f.replace(/^rows\[0\]\./, "") : f);
  if (err && err.field) err.field = strip(err.field);
  if (err && err.body && Array.isArray(err.body.errors)) err.body.errors = err.body.errors.map((e) => ({ ...e, field: strip(e.field) }));
  return err;
}

/** Add or replace one client's month; `cost` (a row of the list) fixes the client and month. */
function CostDialog({ cost, onClose, onSaved }) {
  const form = useForm({
    client_id: cost ? cost.client_id : "",
    month: cost ? cost.month : monthChoices(2)[1].value,
    amount: cost ? rupeesInput(cost.amount) : "",
  });
  const v = form.values;
  const months = monthChoices(36);
  if (cost && !months.some((m) => m.value === cost.month)) months.push({ value: cost.month, label: monthLabel(cost.month) });
  const onSubmit = form.submit(async (values) => {
    const amount = paiseFromRupees(values.amount);
    if (!String(values.amount).trim()) throw fieldError("amount", "Give the month's cost in rupees, e.g. 2,450.50.");
    if (amount === null) throw fieldError("amount", "Write the amount in rupees, e.g. 2,450.50.");
    let answer;
    try {
      answer = await put("/api/cloud-costs", { rows: [{ client_id: values.client_id || null, month: values.month, amount }] });
    } catch (err) {
      throw oneRow(err);
    }
    onSaved(answer.rows[0], answer.written > 0);
  });
  const title = cost ? `Cost of ${cost.client_name}, ${monthLabel(cost.month)}` : "Enter a cloud cost";
  return html`<${Dialog} title=${title} onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label=${title}>
      <p class="card-lead">One cost per client and month: a month already entered or pulled is replaced.</p>
      <div class="form-grid">
        ${cost
          ? html`<div class="field"><span class="field-label">Client</span><span class="static-value">${cost.client_name}</span></div>`
          : html`<${ClientPicker} value=${v.client_id} error=${form.errors.client_id} onChange=${(id) => form.set("client_id", id)} />`}
        <${Field} label="Month" as="select" ...${form.field("month")} options=${months} disabled=${!!cost} />
        <${MoneyField} label="Amount (₹)" ...${form.field("amount")} hint="What the cloud server cost that month, before GST." />
      </div>
      <${DialogActions} onClose=${onClose} saving=${form.saving} label=${cost ? "Save cost" : "Enter cost"} />
    </${Form}>
  </${Dialog}>`;
}

function MonthsView({ chips, onEdit }) {
  const list = useUrlList("/api/cloud-costs", LIST_KEYS, { csv: true });
  const { query, setQuery } = list;
  const filtered = LIST_KEYS.some((k) => query[k]);
  const columns = [
    { key: "month", label: "Month", sortable: true, render: (r) => html`<span class="cell-main">${monthLabel(r.month)}</span>` },
    { key: "client_name", label: "Client", sortable: true, wrap: true, render: (r) => html`<${Link} href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>` },
    { key: "amount", label: "Cost", sortable: true, class: "num", render: (r) => html`<span data-testid="cost-amount">${rupees(r.amount)}</span>` },
    { key: "source", label: "How", sortable: true, render: (r) => sourceBadge(r.source) },
    { key: "updated_at", label: "Recorded", sortable: true, render: (r) => dateTime(r.updated_at) },
    { key: "edit", label: html`<span class="sr-only">Actions</span>`, render: (r) => html`<button type="button" class="btn btn-sm" data-action="edit-cost"
        onClick=${() => onEdit(r)}>Change</button>` },
  ];
  const empty = filtered
    ? html`<${EmptyState} title="No cost matches these filters.">
        <button type="button" class="btn btn-sm" onClick=${() => setQuery(Object.fromEntries(LIST_KEYS.map((k) => [k, ""])))}>Clear filters</button></${EmptyState}>`
    : "No cloud cost is recorded yet.";
  return html`<div data-testid="cost-months">
    <${FilterBar} label="Filter costs">
      ${chips}
      <${FilterSelect} label="Month" name="month" value=${query.month} options=${[{ value: "", label: "All months" }, ...monthChoices(36)]}
        onChange=${(month) => setQuery({ month })} />
      <${SearchBox} value=${query.q || ""} label="Client" placeholder="Part of the client's name…" onSearch=${(q) => setQuery({ q }, { replace: true })} />
      <${FilterSelect} label="How" name="source" value=${query.source} options=${SOURCES} onChange=${(source) => setQuery({ source })} />
    </${FilterBar}>
    <${DataTable} caption="Cloud costs by month" columns=${columns} empty=${empty} ...${list.tableProps}
      rowKey="key" rows=${list.rows.map((r) => ({ ...r, key: `${r.client_id}/${r.month}` }))}
      rowAttrs=${(r) => ({ "data-client-id": r.client_id, "data-month": r.month, "data-source": r.source })} />
  </div>`;
}

/**
 * Horizontal bars of the ranking's rows, plain SVG: each client's name above a bar scaled to the
 * largest total, its amount after the bar. Lengths are percentages of the chart's width and text
 * is in CSS pixels, so the bars fit a phone and the names stay readable.
 */
export function CostBars({ rows }) {
  if (!rows.length) return null;
  const rowHeight = 42;
  const height = rows.length * rowHeight;
  const max = Math.max(...rows.map((r) => r.total), 1);
  // The longest bar leaves a quarter of the width for its amount.
  const pct = (total) => Math.max(0.5, (total / max) * 75);
  const short = (name) => (name.length > 48 ? `${name.slice(0, 47)}…` : name);
  return html`<svg class="bar-chart" data-testid="ranking-chart" width="100%" height=${height} role="img"
    aria-label=${`Cloud cost per client, costliest first: ${rows.map((r) => `${r.client_name} ${rupees(r.total)}`).join("; ")}`}>
    ${rows.map((r, i) => {
      const y = i * rowHeight;
      const w = pct(r.total);
      return html`<g class="bar-row" data-client-id=${r.client_id}>
        <title>${`${r.client_name}: ${rupees(r.total)} over ${r.months} ${r.months === 1 ? "month" : "months"}`}</title>
        <text class="bar-label" x="0" y=${y + 14}>${short(r.client_name)}</text>
        <rect class="bar" x="0" y=${y + 20} width=${`${w.toFixed(2)}%`} height="14" rx="2"></rect>
        <text class="bar-value" x=${`${(w + 1).toFixed(2)}%`} y=${y + 32}>${rupees(r.total)}</text>
      </g>`;
    })}
  </svg>`;
}

function RankingView({ chips }) {
  const list = useUrlList("/api/cloud-costs/ranking", RANKING_KEYS, { csv: true, perPage: 25 });
  const { query, setQuery, data } = list;
  const months = monthChoices(120);
  const from = query.from || (data ? data.from : "");
  const to = query.to || (data ? data.to : "");
  const start = (list.page - 1) * list.perPage;
  const columns = [
    { key: "rank", label: "#", class: "num", render: (r) => integer(r.rank) },
    { key: "client_name", label: "Client", sortable: true, wrap: true, render: (r) => html`<${Link} href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>` },
    { key: "total", label: "Total", sortable: true, class: "num", render: (r) => html`<span data-testid="rank-total">${rupees(r.total)}</span>` },
    { key: "months", label: "Months", sortable: true, class: "num", render: (r) => integer(r.months) },
    { key: "average", label: "Average a month", sortable: true, class: "num", render: (r) => rupees(r.average) },
  ];
  const rows = list.rows.map((r, i) => ({ ...r, rank: start + i + 1 }));
  const footer = data && rows.length > 0 && html`<tr class="totals-foot" data-testid="ranking-total">
    <th scope="row" colspan="2">All ${integer(data.total)} clients</th>
    <td class="num">${rupees(data.grand_total)}</td><td></td><td></td>
  </tr>`;
  return html`<div data-testid="cost-ranking">
    <${FilterBar} label="Range of months">
      ${chips}
      <${FilterSelect} label="From" name="from" value=${from} options=${months} onChange=${(f) => setQuery({ from: f })} />
      <${FilterSelect} label="To" name="to" value=${to} options=${months} onChange=${(t) => setQuery({ to: t })} />
      ${(query.from || query.to) && html`<div class="filter-clear"><button type="button" class="btn btn-sm"
        onClick=${() => setQuery({ from: "", to: "" })}>The last 12 months</button></div>`}
    </${FilterBar}>
    ${data && html`<p class="hint report-note" data-testid="ranking-range">${monthLabel(data.from)} to ${monthLabel(data.to)} (${data.range_months} months):
      each client's cost over the range, the months with a cost, and the average of those months.</p>`}
    ${rows.length > 0 && html`<${Card} title="Costliest clients" class="section-card chart-card"><${CostBars} rows=${rows.slice(0, 15)} /></${Card}>`}
    <div class="report-table">
      <${DataTable} caption="Cloud cost ranking" columns=${columns} ...${list.tableProps} rows=${rows} rowKey="client_id" footer=${footer}
        rowAttrs=${(r) => ({ "data-client-id": r.client_id })}
        empty=${html`<${EmptyState} title="No cloud cost in this range." />`} />
    </div>
  </div>`;
}

/** The provider's form (owner): report address and write-only token. */
function ProviderForm({ settings, onSaved }) {
  const start = (x) => ({ api_url: (x && x.api_url) || "", token: "", remove_token: false });
  const form = useForm(start(settings));
  const v = form.values;
  const onSubmit = form.submit(async (values) => {
    const body = { api_url: values.api_url.trim() };
    // The token is write-only: sent only when typed (or removed on purpose).
    if (values.token.trim()) body.token = values.token.trim();
    else if (values.remove_token) body.token = "";
    const answer = await put("/api/settings/cloud-costs", body);
    form.reset(start(answer));
    onSaved(answer);
    toast.success("Cloud-cost provider saved.");
  });
  return html`<${Form} onSubmit=${onSubmit} error=${form.formError} label="Cloud-cost provider">
    <p class="card-lead">The monthly report is read from <code>GET address?month=YYYY-MM</code>, the token sent as a bearer token.</p>
    <div class="form-grid form-grid-narrow">
      <${Field} label="Report address" type="url" ...${form.field("api_url")} autocomplete="off" spellcheck=${false}
        placeholder="https://costs.example.com/api/usage" hint="Private and local addresses are refused." />
      <${Field} label="API token" type="password" ...${form.field("token")} optional autocomplete="new-password" spellcheck=${false}
        readOnly=${v.remove_token}
        hint=${settings.hasToken ? "A token is stored. Leave this empty to keep it; type a new one to replace it." : "No token is stored yet."} />
      ${settings.hasToken && html`<label class="check"><input type="checkbox" name="remove_token" checked=${v.remove_token}
        onChange=${(e) => form.set("remove_token", e.currentTarget.checked)} /> Remove the stored token</label>`}
    </div>
    <div class="form-actions"><${SubmitButton} saving=${form.saving}>Save provider</${SubmitButton}></div>
  </${Form}>`;
}

/** "Pull now" (owner) for a month, and what came of it (`pull-result`, or `pull-error` in words). */
function PullNow({ onPulled }) {
  const [month, setMonth] = useState("");
  const [pull, setPull] = useState({ busy: false, result: null, error: null });
  const pullNow = async () => {
    if (pull.busy) return;
    setPull({ busy: true, result: null, error: null });
    try {
      const result = await post("/api/cloud-costs/pull", month ? { month } : {});
      setPull({ busy: false, result, error: null });
      onPulled();
    } catch (err) {
      setPull({ busy: false, result: null, error: err });
    }
  };
  const r = pull.result;
  return html`<div class="cloud-pull">
    <p class="card-lead">The server pulls the month before the current one by itself early each month. Pull a month now to see
      its figures at once: the rows of our clients are written, any other client id in the report is named and skipped.</p>
    <div class="form-grid form-grid-narrow">
      <${Field} label="Month" as="select" name="pull_month" value=${month} onInput=${(e) => setMonth(e.currentTarget.value)}
        options=${[{ value: "", label: "The month before this one" }, ...monthChoices(24)]} />
    </div>
    <div class="btn-row">
      <button type="button" class="btn" data-action="pull-now" onClick=${pullNow} disabled=${pull.busy} aria-busy=${pull.busy ? "true" : undefined}>
        ${pull.busy && html`<span class="spinner small" aria-hidden="true"></span>`}Pull now</button>
      ${pull.busy && html`<${Spinner} small=${true} label="Asking the provider…" showLabel=${true} />`}
    </div>
    ${r && html`<${Notice} tone="success" testid="pull-result" title=${`Pulled ${monthLabel(r.month)}`}>
      ${integer(r.written)} written, ${integer(r.unchanged)} unchanged${r.skipped.length
        ? html`; ${integer(r.skipped.length)} not our clients, skipped: <span class="mono-ish">${r.skipped.join(", ")}</span>`
        : ""}.</${Notice}>`}
    ${pull.error && html`<${Notice} tone="danger" alert=${true} testid="pull-error" title="Nothing was pulled">${pull.error.message}</${Notice}>`}
  </div>`;
}

/** The owner's provider cards: settings and the pull. */
function ProviderCards({ onPulled }) {
  const { data, error, reload } = useFetch("/api/settings/cloud-costs");
  const [saved, setSaved] = useState(null);
  const s = saved || data;
  let form;
  if (error) form = html`<${Notice} tone="danger">${error.message} <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`;
  else if (!s) form = html`<${Loading} label="Loading the provider settings…" />`;
  else form = html`<${ProviderForm} settings=${s} onSaved=${setSaved} />`;
  return html`<div class="page-grid even cloud-provider" data-testid="cloud-provider">
    <${Card} title="Provider" class="section-card">${form}</${Card}>
    <${Card} title="Pull from the provider" class="section-card"><${PullNow} onPulled=${onPulled} /></${Card}>
  </div>`;
}

export function CloudCostsPage() {
  const { me } = useSession();
  useTitle("Cloud costs");
  const [query, setQuery] = useQuery();
  const view = query.view === "ranking" ? "ranking" : "months";
  // { cost }: the dialog is open (cost null: a new entry).
  const [dialog, setDialog] = useState(null);
  // Bumped after a write: the view is drawn afresh and reads again.
  const [round, setRound] = useState(0);
  const again = () => setRound((n) => n + 1);
  const switchTo = (next) => {
    const clear = Object.fromEntries([...LIST_KEYS, ...RANKING_KEYS, "page", "per_page", "sort"].map((k) => [k, ""]));
    setQuery({ ...clear, view: next === "months" ? "" : next });
  };
  const chips = html`<${FilterChips} label="View" value=${view} options=${VIEWS} onChange=${switchTo} />`;
  return html`<main data-page="cloud-costs">
    ${dialog && html`<${CostDialog} cost=${dialog.cost} onClose=${() => setDialog(null)} onSaved=${(row, changed) => {
      setDialog(null);
      again();
      toast.success(changed
        ? `${row.client_name}: ${rupees(row.amount)} for ${monthLabel(row.month)}.`
        : `${row.client_name} already had ${rupees(row.amount)} for ${monthLabel(row.month)}.`);
    }} />`}
    <p class="crumbs"><${Link} href="/reports">← Reports</${Link}></p>
    <${PageHeader} title="Cloud costs"
      subtitle=${me.role === "staff"
        ? "What running your clients' cloud servers cost each month, before GST."
        : "What running each society's cloud server cost each month, before GST: entered here or pulled from the provider."}
      actions=${html`<button type="button" class="btn btn-primary" data-action="new-cost" onClick=${() => setDialog({ cost: null })}>Enter a cost</button>`} />
    ${view === "ranking"
      ? html`<${RankingView} key=${`r${round}`} chips=${chips} />`
      : html`<${MonthsView} key=${`m${round}`} chips=${chips} onEdit=${(cost) => setDialog({ cost })} />`}
    ${me.role === "owner" && html`<${ProviderCards} onPulled=${again} />`}
  </main>`;
}
