// Portals (/portals): every subscription with a portal provider or username (staff: their
// clients'), by client and module. Filters module, provider, active and a search on the client's
// name or the username, all in the URL; sorting, paging and the CSV of the filter (no
// passwords). Each row links to its client and its project. Whether a password is stored shows
// as a badge; owner and manager may reveal it for 30 seconds (the project's audited reveal).
import { html } from "/vendor/preact-htm.js";
import {
  DataTable, useUrlList, SearchBox, FilterBar, FilterSelect, FilterChips, Badge, EmptyState,
  useFetch, useSession, useTitle, PageHeader, Link,
} from "../components.js";
import { isManagerial } from "../ui/clients.js";
import { usePortalReveal, projectUrl } from "../ui/projects.js";
import { ACTIVE_CHIPS, useModuleOptions } from "../ui/modules.js";

const enc = encodeURIComponent;
const FILTER_KEYS = ["module_id", "provider", "q", "active"];

export function PortalsPage() {
  const { me } = useSession();
  const managerial = isManagerial(me);
  useTitle("Portals");
  const list = useUrlList("/api/portals", FILTER_KEYS, { csv: true });
  const { query, setQuery } = list;
  const modules = useModuleOptions("All modules");
  const providers = useFetch("/api/portals/providers");
  const providerOptions = [{ value: "", label: "All providers" }, ...((providers.data && providers.data.rows) || []).map((p) => ({ value: p, label: p }))];
  if (query.provider && !providerOptions.some((o) => o.value === query.provider)) providerOptions.push({ value: query.provider, label: query.provider });
  const { reveal, revealing, secretOf } = usePortalReveal([query.module_id, query.provider, query.q, query.active, query.page, query.sort]);

  const columns = [
    {
      key: "client_name", label: "Client", sortable: true, wrap: true,
      render: (r) => html`<${Link} class="cell-main" href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>`,
    },
    {
      key: "module_name", label: "Module", sortable: true, wrap: true,
      render: (r) => html`<${Link} href=${projectUrl(r.client_module_id)} title="Open the project">${r.module_name}</${Link}>
        <div class="cell-sub"><span class="mono-ish">${r.module_code}</span></div>`,
    },
    { key: "provider", label: "Provider", sortable: true, render: (r) => r.provider || html`<span class="muted">—</span>` },
    { key: "username", label: "Username", sortable: true, render: (r) => (r.username ? html`<span class="mono-ish" data-testid="username">${r.username}</span>` : html`<span class="muted">—</span>`) },
    {
      key: "password", label: "Password",
      render: (r) => (r.hasPassword
        ? html`<span class="portal-password"><${Badge} tone="success">Stored</${Badge}>
            ${managerial && html` <button type="button" class="btn btn-sm" onClick=${() => reveal(r)} disabled=${revealing === r.client_module_id}
              aria-busy=${revealing === r.client_module_id ? "true" : undefined} aria-label=${`Reveal the portal password of ${r.client_name}, ${r.module_name}`}>Reveal</button>`}</span>`
        : html`<span class="muted">None</span>`),
    },
    { key: "active", label: "Active", sortable: true, render: (r) => (r.active ? html`<${Badge} tone="success">Active</${Badge}>` : html`<${Badge}>Inactive</${Badge}>`) },
  ];


  const filtered = FILTER_KEYS.some((k) => query[k]);
  const empty = filtered
    ? html`<${EmptyState} title="No portal login matches these filters.">
        <button type="button" class="btn btn-sm" onClick=${() => setQuery(Object.fromEntries(FILTER_KEYS.map((k) => [k, ""])))}>Clear filters</button></${EmptyState}>`
    : "No subscription has a portal login yet: set one on the project page (provider, username, password).";
  return html`<main data-page="portals">
    <${PageHeader} title="Portals"
      subtitle=${managerial
        ? "Who logs in where: each subscription's portal provider and username. Passwords are revealed one at a time, and each reveal is recorded in the audit trail."
        : "Who logs in where: the portal provider and username of your clients' subscriptions."} />
    <${FilterBar} label="Filter portals">
      <${SearchBox} value=${query.q || ""} label="Search" placeholder="Client name or username…" onSearch=${(q) => setQuery({ q }, { replace: true })} />
      <${FilterSelect} label="Module" name="module_id" value=${query.module_id} options=${modules} onChange=${(module_id) => setQuery({ module_id })} />
      <${FilterSelect} label="Provider" name="provider" value=${query.provider} options=${providerOptions} onChange=${(provider) => setQuery({ provider })} />
      <${FilterChips} label="Subscriptions" value=${query.active || ""} options=${ACTIVE_CHIPS} onChange=${(active) => setQuery({ active })} />
    </${FilterBar}>
    <div data-testid="portals">
      <${DataTable} caption="Portal logins" columns=${columns} ...${list.tableProps} rowKey="client_module_id" expanded=${secretOf} empty=${empty}
        rowAttrs=${(r) => ({ "data-id": r.client_module_id, "data-client-id": r.client_id, "data-active": String(r.active) })} />
    </div>
  </main>`;
}
