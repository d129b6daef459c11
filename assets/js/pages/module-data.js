// Module data (/module-data): pick a module, then its subscriptions (staff: their clients') as a
// table whose columns are the module's custom fields, in the order of its field spec. Module,
// client search and active filter in the URL; sorting by client or active; paging; the CSV of
// the filter (client, then a column per field). Each row links to its client and its project.
// Secret fields are never here: they are revealed one at a time on the project page.
import { html } from "/vendor/preact-htm.js";
import { date, integer } from "../format.js";
import {
  DataTable, useUrlList, SearchBox, FilterBar, FilterSelect, FilterChips, Badge, EmptyState, Card, useQuery, useTitle, PageHeader, Link,
} from "../components.js";
import { ACTIVE_CHIPS, useModuleOptions } from "../ui/modules.js";
import { projectUrl } from "../ui/projects.js";

const enc = encodeURIComponent;
const FILTER_KEYS = ["module_id", "q", "active"];

/** A field's value as its type reads: dates as the console writes them, yes/no, links. */
function FieldValue({ def, value }) {
  if (value === null || value === undefined || value === "") return html`<span class="muted">—</span>`;
  switch (def.type) {
    case "boolean":
      return value ? "Yes" : "No";
    case "date":
      return date(value);
    case "integer":
      return html`<span class="mono-ish">${typeof value === "number" ? integer(value) : String(value)}</span>`;
    case "decimal":
      return html`<span class="mono-ish">${String(value)}</span>`;
    case "email":
      return html`<a href=${`mailto:${value}`}>${value}</a>`;
    case "url":
      return /^https?:\/\//i.test(String(value))
        ? html`<a href=${value} target="_blank" rel="noopener noreferrer">${value}</a>`
        : String(value);
    default:
      return String(value);
  }
}

export function ModuleDataPage() {
  useTitle("Module data");
  const modules = useModuleOptions("Choose a module…");
  const [url] = useQuery();
  const list = useUrlList("/api/module-data", FILTER_KEYS, { csv: true, enabled: !!url.module_id });
  const { query, setQuery, data } = list;
  const chosen = !!query.module_id;
  const spec = (data && data.columns) || [];
  const numeric = (def) => def.type === "integer" || def.type === "decimal";

  const columns = [
    {
      key: "client_name", label: "Client", sortable: true, wrap: true,
      render: (r) => html`<${Link} class="cell-main" href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>`,
    },
    ...spec.map((def) => ({
      key: `field:${def.key}`,
      label: def.label,
      wrap: def.type === "text" || def.type === "url",
      class: numeric(def) ? "num" : "",
      render: (r) => html`<span data-field=${def.key}><${FieldValue} def=${def} value=${r.values[def.key]} /></span>`,
    })),
    { key: "active", label: "Active", sortable: true, render: (r) => (r.active ? html`<${Badge} tone="success">Active</${Badge}>` : html`<${Badge}>Inactive</${Badge}>`) },
    {
      key: "project", label: "", class: "actions-col",
      render: (r) => html`<${Link} class="btn btn-sm" href=${projectUrl(r.client_module_id)} aria-label=${`Open the project of ${r.client_name}`}>Project</${Link}>`,
    },
  ];

  const filtered = query.q || query.active;
  const empty = filtered
    ? html`<${EmptyState} title="No subscription of this module matches these filters.">
        <button type="button" class="btn btn-sm" onClick=${() => setQuery({ q: "", active: "" })}>Clear filters</button></${EmptyState}>`
    : "No client subscribes to this module yet.";
  const module = data && data.module;
  return html`<main data-page="module-data">
    <${PageHeader} title=${module ? `Module data: ${module.name}` : "Module data"}
      subtitle="A module's custom fields for each subscription, one column per field of the module's spec." />
    <${FilterBar} label="Filter module data">
      <${FilterSelect} label="Module" name="module_id" value=${query.module_id} options=${modules}
        onChange=${(module_id) => setQuery({ module_id, sort: "" })} />
      ${chosen && html`<${SearchBox} value=${query.q || ""} label="Client" placeholder="Part of the name…" onSearch=${(q) => setQuery({ q }, { replace: true })} />
        <${FilterChips} label="Subscriptions" value=${query.active || ""} options=${ACTIVE_CHIPS} onChange=${(active) => setQuery({ active })} />`}
    </${FilterBar}>
    ${!chosen && html`<${Card}><div class="card-body"><${EmptyState} title="Choose a module to see its subscriptions' data.">
      <p class="muted">Each module's fields (members, go-live date, plan…) are set in the catalog; the values are kept on each project.</p>
    </${EmptyState}></div></${Card}>`}
    ${chosen && html`<div data-testid="module-data">
      ${data && spec.length === 0 && html`<p class="muted module-data-note">This module has no custom fields: the table lists its subscriptions only.</p>`}
      <${DataTable} caption=${module ? `${module.name}: data of each subscription` : "Module data"} columns=${columns} ...${list.tableProps}
        rowKey="client_module_id" empty=${empty}
        rowAttrs=${(r) => ({ "data-id": r.client_module_id, "data-client-id": r.client_id, "data-active": String(r.active) })} />
    </div>`}
  </main>`;
}
