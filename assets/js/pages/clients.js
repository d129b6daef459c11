// Clients: the client book with quick search and filters kept in the URL. Owner and manager see
// every book (and may narrow to theirs); staff see their own. The owner may tick clients and
// change several at once (bulk edit).
import { html, useState, useEffect } from "/vendor/preact-htm.js";
import { post } from "../api.js";
import { humanize } from "../format.js";
import {
  DataTable, useUrlList, SearchBox, FilterBar, FilterSelect, Dialog, ConfirmDialog, Form, Field, SubmitButton,
  useForm, toast, useSession, useTitle, PageHeader, Link, navigate, useSelection, selectColumn,
} from "../components.js";
import { ForbiddenPage } from "../ui/errors.js";
import {
  isManagerial, StatusBadge, CategoryBadge, useClientOptions, useActiveEmployees, choices, ownerChoices, rememberListUrl,
} from "../ui/clients.js";

const FILTER_KEYS = ["q", "district", "sector", "client_type", "category", "status"];
const NO_OWNER = "__none__";

/** The bulk-edit form, then a confirmation of exactly what will change. */
function BulkEditDialog({ ids, options, employees, onClose, onDone }) {
  const form = useForm({ district: "", sector: "", status: "", client_type: "", owner_id: "" });
  const [changes, setChanges] = useState(null);
  const n = ids.length;
  const clients = n === 1 ? "1 client" : `${n} clients`;

  const onSubmit = form.submit(async (v) => {
    const c = {};
    if (v.district.trim()) c.district = v.district.trim();
    if (v.sector.trim()) c.sector = v.sector.trim();
    if (v.status) c.status = v.status;
    if (v.client_type) c.client_type = v.client_type;
    if (v.owner_id) c.owner_id = v.owner_id === NO_OWNER ? "" : v.owner_id;
    if (Object.keys(c).length === 0) throw new Error("Fill in at least one field to change; empty fields are left as they are.");
    setChanges(c);
  });

  if (changes) {
    const ownerName = (id) => (id === "" ? "no owner" : (employees.find((e) => e.id === id) || {}).name || id);
    const lines = [
      ["district", "District", (x) => x],
      ["sector", "Sector", (x) => x],
      ["status", "Status", humanize],
      ["client_type", "Type", (x) => x],
      ["owner_id", "Account owner", ownerName],
    ].filter(([k]) => k in changes);
    const message = html`<p>These changes are made to ${clients} at once:</p>
      <ul class="change-list">${lines.map(([k, label, show]) => html`<li><strong>${label}</strong>: ${show(changes[k])}</li>`)}</ul>
      <p class="hint">Each client's audit trail records the change.</p>`;
    return html`<${ConfirmDialog} title=${`Change ${clients}?`} message=${message} tone="primary" confirmLabel=${`Change ${clients}`}
      onCancel=${() => setChanges(null)}
      onConfirm=${async () => {
        const answer = await post("/api/clients/bulk", { ids, changes });
        onDone(answer.updated);
      }} />`;
  }

  return html`<${Dialog} title=${`Bulk edit ${clients}`} onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Bulk edit">
      <p class="hint dialog-intro">Only the fields you fill in are changed; empty ones stay as they are on each client.</p>
      <div class="form-grid">
        <${Field} label="District" ...${form.field("district")} autocomplete="off" suggestions=${options.districts} autofocus />
        <${Field} label="Sector" ...${form.field("sector")} autocomplete="off" suggestions=${options.sectors} />
        <${Field} label="Status" as="select" ...${form.field("status")} options=${choices(options.statuses, "Keep as is")} />
        <${Field} label="Type" as="select" ...${form.field("client_type")} options=${choices(options.client_types, "Keep as is", (t) => t)} />
        <${Field} label="Account owner" as="select" ...${form.field("owner_id")}
          options=${[{ value: "", label: "Keep as is" }, { value: NO_OWNER, label: "No owner" }, ...ownerChoices(employees)]} />
      </div>
      <div class="dialog-actions">
        <button type="button" class="btn" onClick=${onClose}>Cancel</button>
        <${SubmitButton} saving=${form.saving}>Apply</${SubmitButton}>
      </div>
    </${Form}>
  </${Dialog}>`;
}

export function ClientsPage() {
  const { me } = useSession();
  useTitle("Clients");
  const managerial = isManagerial(me);
  const isOwner = me.role === "owner";
  const list = useUrlList("/api/clients", managerial ? [...FILTER_KEYS, "owner_id", "mine"] : FILTER_KEYS, { csv: true });
  const { query, setQuery } = list;
  const options = useClientOptions();
  const employees = useActiveEmployees(managerial);
  const sel = useSelection();
  const [bulkOpen, setBulkOpen] = useState(false);
  useEffect(() => rememberListUrl(location.pathname + location.search));

  if (list.error && list.error.status === 403) return html`<${ForbiddenPage} />`;

  const columns = [
    ...(isOwner ? [selectColumn(sel, list.rows, (r) => r.name)] : []),
    {
      key: "name",
      sortable: true,
      label: "Name",
      wrap: true,
      render: (r) => html`<${Link} class="cell-main" href=${`/clients/${encodeURIComponent(r.id)}`}>${r.name}</${Link}>
        ${r.gstin && html`<div class="cell-sub mono-ish">${r.gstin}</div>`}`,
    },
    { key: "category", sortable: true, label: "Category", render: (r) => html`<${CategoryBadge} category=${r.category} />` },
    { key: "client_type", sortable: true, label: "Type" },
    { key: "district", sortable: true, label: "District" },
    { key: "status", sortable: true, label: "Status", render: (r) => html`<${StatusBadge} status=${r.status} />` },
    { key: "owner_name", sortable: true, label: "Owner", render: (r) => r.owner_name || html`<span class="muted">No owner</span>` },
    { key: "phone", sortable: true, label: "Phone", render: (r) => r.phone && html`<a href=${`tel:${r.phone.replace(/[^\d+]/g, "")}`}>${r.phone}</a>` },
  ];

  const allKeys = [...FILTER_KEYS, "owner_id", "mine"];
  const filtered = allKeys.some((k) => query[k]);
  const clearAll = () => setQuery(Object.fromEntries(allKeys.map((k) => [k, ""])));
  const empty = filtered
    ? html`<div class="empty-state"><p class="empty-title">No client matches these filters.</p>
        <button type="button" class="btn btn-sm" onClick=${clearAll}>Clear filters</button></div>`
    : html`<div class="empty-state"><p class="empty-title">${managerial ? "No clients yet." : "You have no clients yet."}</p>
        <${Link} class="btn btn-sm" href="/clients/new">Add the first one</${Link}></div>`;

  const ownerFilter = ownerChoices(employees, { blank: "Any owner" });
  if (query.owner_id && !ownerFilter.some((o) => o.value === query.owner_id)) ownerFilter.push({ value: query.owner_id, label: "Selected owner" });

  const dialogEl = bulkOpen && html`<${BulkEditDialog} ids=${sel.ids} options=${options} employees=${employees}
    onClose=${() => setBulkOpen(false)}
    onDone=${(updated) => {
      setBulkOpen(false);
      sel.clear();
      list.reload();
      toast.success(`Updated ${updated} ${updated === 1 ? "client" : "clients"}`);
    }} />`;

  return html`<main data-page="clients">
    ${dialogEl}
    <${PageHeader} title="Clients"
      subtitle=${managerial ? "Every society in the registry." : "The societies in your book."}
      actions=${html`<button type="button" class="btn btn-primary" onClick=${() => navigate("/clients/new")}>New client</button>`} />
    <${FilterBar} label="Filter clients">
      <${SearchBox} value=${query.q || ""} onSearch=${(q) => setQuery({ q }, { replace: true })} label="Search" placeholder="Name, GSTIN or phone" />
      <${SearchBox} name="district" type="text" class="text-filter" label="District" placeholder="Any district" value=${query.district || ""}
        list="district-choices" onSearch=${(district) => setQuery({ district }, { replace: true })} />
      <${SearchBox} name="sector" type="text" class="text-filter" label="Sector" placeholder="Any sector" value=${query.sector || ""}
        list="sector-choices" onSearch=${(sector) => setQuery({ sector }, { replace: true })} />
      <${FilterSelect} label="Type" name="filter_client_type" value=${query.client_type} options=${choices(options.client_types, "All types", (t) => t)}
        onChange=${(client_type) => setQuery({ client_type })} />
      <${FilterSelect} label="Category" name="category" value=${query.category} options=${choices(options.categories, "All categories", (c) => c)}
        onChange=${(category) => setQuery({ category })} />
      <${FilterSelect} label="Status" name="filter_status" value=${query.status} options=${choices(options.statuses, "All statuses")}
        onChange=${(status) => setQuery({ status })} />
      ${managerial && !query.mine &&
      html`<${FilterSelect} label="Owner" name="filter_owner_id" value=${query.owner_id} options=${ownerFilter}
        onChange=${(owner_id) => setQuery({ owner_id })} />`}
      ${managerial &&
      html`<label class="check filter-check">
        <input type="checkbox" name="mine" checked=${query.mine === "1"} onChange=${(e) => setQuery({ mine: e.currentTarget.checked ? "1" : "", owner_id: "" })} />
        Mine only
      </label>`}
      ${filtered && html`<div class="filter-clear"><button type="button" class="btn btn-sm" onClick=${clearAll}>Clear filters</button></div>`}
    </${FilterBar}>
    <datalist id="district-choices">${options.districts.map((d) => html`<option value=${d}></option>`)}</datalist>
    <datalist id="sector-choices">${options.sectors.map((d) => html`<option value=${d}></option>`)}</datalist>
    ${isOwner &&
    html`<div class="list-toolbar">
      <span class="list-toolbar-text" aria-live="polite">
        ${sel.count ? `${sel.count} ${sel.count === 1 ? "client" : "clients"} selected` : "Tick clients to change several at once."}
      </span>
      ${sel.count > 0 && html`<button type="button" class="btn btn-sm" onClick=${sel.clear}>Clear selection</button>`}
      <button type="button" class="btn btn-sm btn-primary" disabled=${sel.count === 0} onClick=${() => setBulkOpen(true)}>Bulk edit</button>
    </div>`}
    <${DataTable} caption="Clients" columns=${columns} empty=${empty}
      rowAttrs=${(r) => ({ "data-id": r.id, class: sel.has(r.id) ? "is-selected" : undefined })} ...${list.tableProps} />
  </main>`;
}
