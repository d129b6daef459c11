// Catalog: every module the office sells, with search and an active filter. Everyone reads it;
// the owner adds modules ("New module") and reaches the milestone templates from here.
import { html } from "/vendor/preact-htm.js";
import { rupees } from "../format.js";
import {
  DataTable, useUrlList, SearchBox, FilterBar, FilterSelect, useSession, useTitle, PageHeader, Link, navigate,
} from "../components.js";
import { moduleUrl, ActiveBadge } from "../ui/modules.js";

const ACTIVE_CHOICES = [
  { value: "", label: "Active and retired" },
  { value: "1", label: "Active" },
  { value: "0", label: "Retired" },
];

export function ModulesPage() {
  const { me } = useSession();
  useTitle("Catalog");
  const isOwner = me.role === "owner";
  const list = useUrlList("/api/modules", ["q", "active"], { csv: true });
  const { query, setQuery } = list;
  const filtered = !!(query.q || query.active);

  const columns = [
    { key: "code", sortable: true, label: "Code", render: (m) => html`<span class="mono-ish code-cell">${m.code}</span>` },
    { key: "name", sortable: true, label: "Name", wrap: true, render: (m) => html`<${Link} class="cell-main" href=${moduleUrl(m.id)}>${m.name}</${Link}>
      ${m.kind && html`<div class="cell-sub">${m.kind}</div>`}` },
    { key: "gst_rate", sortable: true, label: "GST %", class: "num", render: (m) => `${m.gst_rate}%` },
    { key: "renewal_months", sortable: true, label: "Renewal (months)", class: "num", render: (m) => m.renewal_months ?? html`<span class="muted">—</span>` },
    { key: "price_today", label: "Price today", class: "num", render: (m) => (m.price_today === null ? html`<span class="muted">No price</span>` : rupees(m.price_today)) },
    { key: "active", sortable: true, label: "Status", render: (m) => html`<${ActiveBadge} active=${m.active} />` },
  ];

  const empty = filtered
    ? html`<div class="empty-state"><p class="empty-title">No module matches.</p>
        <button type="button" class="btn btn-sm" onClick=${() => setQuery({ q: "", active: "" })}>Clear filters</button></div>`
    : html`<div class="empty-state"><p class="empty-title">The catalog is empty.</p>
        ${isOwner && html`<${Link} class="btn btn-sm" href="/modules/new">Add the first module</${Link}>`}</div>`;

  return html`<main data-page="modules">
    <${PageHeader} title="Catalog" subtitle="The modules the office sells, with today's price."
      actions=${isOwner && html`
        <${Link} class="btn" href="/settings/milestones">Milestone templates</${Link}>
        <button type="button" class="btn btn-primary" onClick=${() => navigate("/modules/new")}>New module</button>`} />
    <${FilterBar} label="Filter modules">
      <${SearchBox} value=${query.q || ""} onSearch=${(q) => setQuery({ q }, { replace: true })} label="Search" placeholder="Code or name" />
      <${FilterSelect} label="Status" name="filter_active" value=${query.active} options=${ACTIVE_CHOICES} onChange=${(active) => setQuery({ active })} />
    </${FilterBar}>
    <${DataTable} caption="Modules" columns=${columns} empty=${empty} ...${list.tableProps} />
  </main>`;
}
