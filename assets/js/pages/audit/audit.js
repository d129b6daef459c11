// Audit trail (owner): every recorded change, newest first, filtered by entity, action, person,
// record id and date range (all kept in the URL). Records show by name, as links; each row
// opens to a readable before → after (values.js says how a value reads).
import { html, useState } from "/vendor/preact-htm.js";
import { dateTime, humanize } from "../../format.js";
import {
  DataTable, useUrlList, SearchBox, FilterBar, FilterSelect, DateField, Badge, Notice, ChangeDiff, useFetch, useTitle,
  PageHeader,
} from "../../components.js";
import { ForbiddenPage } from "../../ui/errors.js";
import { entityWord, keyLabel, readable, RecordCell } from "./values.js";

const FILTERS = ["entity", "action", "user_id", "entity_id", "from", "to"];
const ACTION_TONE = { create: "success", delete: "danger", update: "info", bulk_update: "info" };

export function AuditPage() {
  useTitle("Audit trail");
  const list = useUrlList("/api/audit", FILTERS, { csv: true });
  const { query, setQuery } = list;
  const facets = useFetch("/api/audit/facets");
  const [open, setOpen] = useState(() => new Set());

  if ((list.error && list.error.status === 403) || (facets.error && facets.error.status === 403)) return html`<${ForbiddenPage} />`;

  const f = facets.data || { entities: [], actions: [], users: [] };
  const pick = (values, blank, current, word) => {
    const opts = [{ value: "", label: blank }, ...values.map((v) => ({ value: v, label: word(v) }))];
    if (current && !values.includes(current)) opts.push({ value: current, label: word(current) });
    return opts;
  };
  const userOptions = [{ value: "", label: "Everyone" }, ...f.users.map((u) => ({ value: u.id, label: u.name }))];
  if (query.user_id && !f.users.some((u) => u.id === query.user_id)) userOptions.push({ value: query.user_id, label: "Selected person" });

  const toggle = (id) => setOpen((s) => {
    const next = new Set(s);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  });

  const columns = [
    { key: "at", sortable: true, label: "Time", render: (r) => html`<time datetime=${r.at}>${dateTime(r.at)}</time>` },
    { key: "user_name", sortable: true, label: "User", render: (r) => r.user_name || html`<span class="muted">System</span>` },
    { key: "entity", sortable: true, label: "Entity", render: (r) => entityWord(r.entity) },
    { key: "entity_id", label: "Record", render: (r) => html`<${RecordCell} row=${r} />` },
    { key: "action", sortable: true, label: "Action", render: (r) => html`<${Badge} tone=${ACTION_TONE[r.action] || "neutral"}>${humanize(r.action)}</${Badge}>` },
    {
      key: "changes",
      label: "Changes",
      class: "actions-col",
      render: (r) => html`<button type="button" class="btn btn-sm" aria-expanded=${open.has(r.id) ? "true" : "false"}
        onClick=${() => toggle(r.id)}>${open.has(r.id) ? "Hide changes" : "Show changes"}</button>`,
    },
  ];

  const filtered = FILTERS.some((k) => query[k]);
  const backwards = query.from && query.to && query.from > query.to;

  return html`<main data-page="audit">
    <${PageHeader} title="Audit trail" subtitle="Every change to the records, who made it and when, newest first. Times are in this computer's time zone." />
    <${FilterBar} label="Filter the audit trail">
      <${FilterSelect} label="Entity" name="entity" value=${query.entity} options=${pick(f.entities, "All entities", query.entity, entityWord)}
        onChange=${(entity) => setQuery({ entity })} />
      <${FilterSelect} label="Action" name="action" value=${query.action} options=${pick(f.actions, "All actions", query.action, humanize)}
        onChange=${(action) => setQuery({ action })} />
      <${FilterSelect} label="User" name="user_id" value=${query.user_id} options=${userOptions} onChange=${(user_id) => setQuery({ user_id })} />
      <${SearchBox} name="entity_id" type="text" class="text-filter" label="Record id" placeholder="Any record" value=${query.entity_id || ""}
        spellcheck=${false} onSearch=${(entity_id) => setQuery({ entity_id }, { replace: true })} />
      <${DateField} label="From" name="from" value=${query.from || ""} onChange=${(from) => setQuery({ from })} />
      <${DateField} label="To" name="to" value=${query.to || ""} onChange=${(to) => setQuery({ to })} />
      ${filtered && html`<div class="filter-clear"><button type="button" class="btn btn-sm"
        onClick=${() => setQuery(Object.fromEntries(FILTERS.map((k) => [k, ""])))}>Clear filters</button></div>`}
    </${FilterBar}>
    ${backwards && html`<${Notice} tone="warning">The “From” date is after the “To” date, so nothing can match.</${Notice}>`}
    <${DataTable} caption="Audit trail" columns=${columns} ...${list.tableProps}
      empty=${filtered ? "No audit entry matches these filters." : "Nothing has been recorded yet."}
      expanded=${(r) => open.has(r.id) && html`<${ChangeDiff} before=${r.before} after=${r.after} keyLabel=${keyLabel}
        format=${(key, value) => readable(r.refs, key, value)} />`} />
  </main>`;
}
