// Login history (owner): every sign-in attempt, newest first, filtered by person, outcome and
// date range, all kept in the URL. Attempts a rate limiter refused share one row per window,
// which says how many it stands for.
import { html } from "/vendor/preact-htm.js";
import { dateTime, humanize } from "../format.js";
import {
  DataTable, useUrlList, FilterBar, FilterSelect, DateField, Badge, Notice, useFetch, useTitle, PageHeader,
} from "../components.js";
import { ForbiddenPage } from "../ui/errors.js";

const OUTCOME_FILTER = [
  { value: "", label: "All outcomes" },
  { value: "success", label: "Success" },
  { value: "failed", label: "Failed" },
  { value: "locked", label: "Locked" },
  { value: "limited", label: "Rate limited" },
];
const OUTCOME_TONE = { success: "success", failed: "danger", locked: "warning", limited: "warning" };
const OUTCOME_LABEL = Object.fromEntries(OUTCOME_FILTER.filter((o) => o.value).map((o) => [o.value, o.label]));

const columns = [
  { key: "at", sortable: true, label: "Time", render: (r) => html`<time datetime=${r.at}>${dateTime(r.at)}</time>` },
  { key: "username", sortable: true, label: "User", render: (r) => r.username || html`<span class="muted">unknown</span>` },
  { key: "outcome", sortable: true, label: "Outcome", render: (r) => html`<${Badge} tone=${OUTCOME_TONE[r.outcome] || "neutral"}>${OUTCOME_LABEL[r.outcome] || humanize(r.outcome)}</${Badge}>${r.attempts > 1 ? html` <span class="muted" data-attempts=${r.attempts}>× ${r.attempts} attempts</span>` : ""}` },
  { key: "ip", sortable: true, label: "IP address", class: "mono-ish" },
  { key: "device", label: "Device", render: (r) => html`<span title=${r.user_agent || ""}>${r.device || r.user_agent || ""}</span>` },
];

export function LoginHistoryPage() {
  useTitle("Login history");
  const list = useUrlList("/api/login-events", ["staff_id", "outcome", "from", "to"], { csv: true });
  const { query, setQuery } = list;
  // The person picker: the first 200 employees by name is every office this is built for.
  const people = useFetch("/api/employees", { per_page: 200 });

  if (list.error && list.error.status === 403) return html`<${ForbiddenPage} />`;

  const personOptions = [{ value: "", label: "Everyone" }, ...((people.data && people.data.rows) || []).map((e) => ({ value: e.id, label: `${e.name} (${e.username})` }))];
  // Keep a person chosen by URL visible even before (or without) the list of names.
  if (query.staff_id && !personOptions.some((o) => o.value === query.staff_id)) personOptions.push({ value: query.staff_id, label: "Selected person" });
  const backwards = query.from && query.to && query.from > query.to;
  const filtered = !!(query.staff_id || query.outcome || query.from || query.to);

  return html`<main data-page="login-history">
    <${PageHeader} title="Login history" subtitle="Every sign-in attempt, newest first. Times are in this computer's time zone." />
    <${FilterBar} label="Filter login history">
      <${FilterSelect} label="Person" name="staff_id" value=${query.staff_id} options=${personOptions} onChange=${(staff_id) => setQuery({ staff_id })} />
      <${FilterSelect} label="Outcome" name="outcome" value=${query.outcome} options=${OUTCOME_FILTER} onChange=${(outcome) => setQuery({ outcome })} />
      <${DateField} label="From" name="from" value=${query.from || ""} onChange=${(from) => setQuery({ from })} />
      <${DateField} label="To" name="to" value=${query.to || ""} onChange=${(to) => setQuery({ to })} />
      ${filtered && html`<div class="filter-clear"><button type="button" class="btn btn-sm" onClick=${() => setQuery({ staff_id: "", outcome: "", from: "", to: "" })}>Clear filters</button></div>`}
    </${FilterBar}>
    ${backwards && html`<${Notice} tone="warning">The “From” date is after the “To” date, so nothing can match.</${Notice}>`}
    <${DataTable} caption="Sign-in attempts" columns=${columns} empty=${filtered ? "No sign-in attempt matches these filters." : "No sign-in attempts yet."} ...${list.tableProps} />
  </main>`;
}
