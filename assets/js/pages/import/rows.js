// The staged rows of the legacy import (/import): a paged list that opens on the rows with a
// problem, each row's problem markers in words, and what the owner does about a row before the
// commit: correct its cells in a dialog (the server checks the whole file again and the row comes
// back with what is left), leave it out or bring it back, and for a client already in the
// registry choose to update it or leave it as it is (one row or every such client at once).
import { html, useState, useEffect } from "/vendor/preact-htm.js";
import { patch, post } from "../../api.js";
import { integer } from "../../format.js";
import {
  DataTable, useUrlList, SearchBox, FilterBar, Badge, Notice, Dialog, Form, Field, DialogActions, useForm, toast, Link, useQuery, FilterChips,
} from "../../components.js";

const enc = encodeURIComponent;

/** The cells of a staged row, in the file's usual order. */
export const CELLS = [
  "name", "gstin", "district", "sector", "remote_access_id", "os", "phone", "email", "address",
  "contact_name", "contact_role", "contact_phone", "contact_email", "invoice_no", "invoice_date", "invoice_total", "invoice_balance",
];

export const CELL_LABELS = {
  name: "Name",
  gstin: "GSTIN",
  district: "District",
  sector: "Sector",
  remote_access_id: "Remote access ID",
  os: "Operating system",
  phone: "Phone",
  email: "Email",
  address: "Address",
  contact_name: "Contact's name",
  contact_role: "Contact's role",
  contact_phone: "Contact's phone",
  contact_email: "Contact's email",
  invoice_no: "Invoice no.",
  invoice_date: "Invoice date",
  invoice_total: "Invoice total",
  invoice_balance: "Balance still owed",
};

const CELL_HINTS = {
  contact_name: "A person at the society; the role, phone and email below are theirs.",
  invoice_no: "e.g. INV/24-25-0042, in the financial year of its date.",
  invoice_date: "2024-04-01, 01-04-2024 or 01/04/2024.",
  invoice_total: "Rupees, e.g. 1,180.00 or ₹1,180.50.",
  invoice_balance: "Empty: the invoice was paid in the old system.",
};

/** Each problem marker's kind in a few words. */
export const PROBLEM_LABELS = {
  name_missing: "Name missing",
  name_too_long: "Name too long",
  gstin_invalid: "GSTIN not valid",
  duplicate_row: "Duplicate row",
  conflicting_gstin: "Two GSTINs for one client",
  value_too_long: "Value too long",
  invoice_incomplete: "Invoice incomplete",
  date_invalid: "Date not readable",
  amount_invalid: "Amount not readable",
  invoice_no_shape: "Invoice number not in series form",
  invoice_fy_mismatch: "Number and date in different years",
  invoice_no_clash: "Invoice number taken",
  phone_invalid: "Phone not valid",
  email_invalid: "Email not valid",
  contact_incomplete: "Contact without a name",
};
export const problemLabel = (kind) => PROBLEM_LABELS[kind] || kind;

/** What the commit does with a row (its `action`). */
const ACTIONS = {
  create: { label: "New client", tone: "info" },
  update: { label: "Update client", tone: "warning" },
  skip: { label: "Leave as it is", tone: "neutral" },
  exclude: { label: "Excluded", tone: "neutral" },
};

const FILTERS = [
  { value: "problems", label: "Problems" },
  { value: "all", label: "All rows" },
  { value: "create", label: "New clients" },
  { value: "update", label: "Updating" },
  { value: "skip", label: "Left as they are" },
  { value: "excluded", label: "Excluded" },
  { value: "invoices", label: "With an invoice" },
];
const EMPTY = {
  problems: "No row has a problem: the file is ready to commit.",
  all: "No rows staged.",
  create: "No row makes a new client.",
  update: "No row updates a client already in the registry.",
  skip: "No client already in the registry is left as it is.",
  excluded: "No row is excluded.",
  invoices: "No row gives an invoice.",
};

/** The problem messages of a row by the cell they are on: { invoice_total: "…" }. */
export function markers(row) {
  const out = {};
  for (const p of row.problems || []) out[p.field] = out[p.field] ? `${out[p.field]} ${p.message}` : p.message;
  return out;
}

const cellsOf = (row) => Object.fromEntries(CELLS.map((k) => [k, row[k] || ""]));
/** A balance cell that says something is still owed ("0" and "0.00" do not). */
const owes = (text) => !!text && !/^\s*(₹|rs\.?|inr)?\s*0*(\.0*)?\s*$/i.test(text);
const rowsWord = (n) => `${integer(n)} ${n === 1 ? "row" : "rows"}`;

function ProblemList({ problems }) {
  return html`<ul class="problem-list">
    ${problems.map((p) => html`<li data-kind=${p.kind}>
      <span class="problem-kind">${problemLabel(p.kind)}</span>
      <span class="problem-text">${CELL_LABELS[p.field] ? `${CELL_LABELS[p.field]}: ` : ""}${p.message}</span>
    </li>`)}
  </ul>`;
}

function ActionBadge({ row }) {
  const a = ACTIONS[row.action] || { label: row.action, tone: "neutral" };
  return html`<${Badge} tone=${a.tone}>${a.label}</${Badge}>`;
}

/**
 * Corrects one staged row: its ten cells, the ones at fault marked with the server's message.
 * Saving sends the changed cells; the server checks the file again and answers the row as it
 * now is. Still at fault: the dialog stays with the new markers. Clean: onFixed(row).
 */
function RowDialog({ row, onClose, onSaved, onFixed }) {
  const [current, setCurrent] = useState(row);
  const form = useForm(cellsOf(row));
  useEffect(() => form.setErrors(markers(row)), []);
  const onSubmit = form.submit(async (values) => {
    const before = cellsOf(current);
    const body = {};
    for (const k of CELLS) if (values[k].trim() !== before[k]) body[k] = values[k].trim();
    if (Object.keys(body).length === 0) {
      if (current.problems.length === 0) return onClose();
      form.setErrors(markers(current));
      form.setFormError("Nothing was changed: correct the cells marked in red, or exclude the row.");
      return;
    }
    const saved = await patch(`/api/import/rows/${enc(row.row)}`, body);
    onSaved(saved);
    if (saved.problems.length === 0) return onFixed(saved);
    setCurrent(saved);
    form.reset(cellsOf(saved));
    form.setErrors(markers(saved));
    form.setFormError(`Checked again: ${saved.problems.length === 1 ? "one problem is" : `${saved.problems.length} problems are`} left.`);
  });
  const title = `${row.problems.length ? "Correct" : "Edit"} row ${row.row}`;
  return html`<${Dialog} title=${title} onClose=${onClose} closable=${!form.saving} size="wide">
    <${Form} onSubmit=${onSubmit} error=${form.formError} label=${title}>
      <p class="dialog-intro">
        ${current.problems.length
          ? "Correct the cells marked in red, as they should have been in the file. Saving checks the whole file again."
          : "This row has no problem. A change is checked with the whole file again."}
        ${current.match_client_id && html` This client is already in the registry as <${Link} href=${`/clients/${enc(current.match_client_id)}`}>${current.match_client_name}</${Link}>.`}
      </p>
      ${current.problems.length > 0 && html`<div class="row-problems" data-testid="row-problems"><${ProblemList} problems=${current.problems} /></div>`}
      <div class="form-grid">
        ${CELLS.map((k) => html`<${Field} key=${k} label=${CELL_LABELS[k]} ...${form.field(k)} hint=${CELL_HINTS[k]}
          autocomplete="off" spellcheck=${false} wide=${k === "name"} />`)}
      </div>
      <${DialogActions} onClose=${onClose} saving=${form.saving} label="Save and check" />
    </${Form}>
  </${Dialog}>`;
}

/**
 * The staged rows with their filters in the URL (`filter`, default problems; `q`; page; sort).
 * Props: status (the import status: its counts go on the chips, the bulk buttons and the notes),
 * onChanged() after any change (the page reads the status again), editable (false once
 * committed), reloadKey (changed by the page when the staged file changed: the list is read again).
 */
export function StagedRows({ status, onChanged, editable, reloadKey }) {
  const [query] = useQuery();
  // Before the commit the rows to work on come first; after it, the whole file.
  const fallback = editable ? "problems" : "all";
  const filter = FILTERS.some((f) => f.value === query.filter) ? query.filter : fallback;
  const list = useUrlList("/api/import/rows", ["q"], { extra: { filter }, csv: true });
  const { setQuery } = list;
  const [editing, setEditing] = useState(null);
  const [fixed, setFixed] = useState(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!reloadKey) return;
    setFixed(null);
    list.reload();
  }, [reloadKey]);

  const changed = () => {
    list.reload();
    onChanged();
  };
  const edit = async (row, body, done) => {
    setBusy(true);
    try {
      const saved = await patch(`/api/import/rows/${enc(row.row)}`, body);
      toast.success(done(saved));
      changed();
    } catch (e) {
      toast.error(e.message);
    } finally {
      setBusy(false);
    }
  };
  const chooseAction = (r, action) => edit(r, { action }, () =>
    (action === "update" ? `${r.match_client_name} will be updated from the file.` : `${r.match_client_name} will be left as it is.`));
  const setAll = async (action) => {
    setBusy(true);
    try {
      const answer = await post("/api/import/rows/action", { action });
      toast.success(action === "update"
        ? `Every client already in the registry will be updated (${rowsWord(answer.rows)}).`
        : `Every client already in the registry will be left as it is (${rowsWord(answer.rows)}).`);
      changed();
    } catch (e) {
      toast.error(e.message);
    } finally {
      setBusy(false);
    }
  };

  const columns = [
    { key: "row", label: "Row", sortable: true, class: "num" },
    {
      key: "name", label: "Name and GSTIN", sortable: true, wrap: true,
      render: (r) => html`<span class="cell-main">${r.name || html`<span class="muted">(no name)</span>`}</span>
        ${r.gstin && html`<div class="cell-sub">GSTIN ${r.gstin}</div>`}
        ${r.match_client_id && html`<div class="cell-sub">In the registry: <${Link} href=${`/clients/${enc(r.match_client_id)}`}>${r.match_client_name}</${Link}></div>`}`,
    },
    {
      key: "invoice", label: "Invoice",
      render: (r) => (r.invoice_no || r.invoice_date || r.invoice_total
        ? html`<span class="cell-main">${r.invoice_no || html`<span class="muted">no number</span>`}</span>
          <div class="cell-sub">${[r.invoice_date, r.invoice_total].filter(Boolean).join(" · ")}${owes(r.invoice_balance) ? ` · owes ${r.invoice_balance}` : ""}</div>`
        : html`<span class="muted">—</span>`),
    },
    {
      key: "action", label: "What happens",
      // A client already in the registry: the owner chooses here whether the file updates it.
      render: (r) => html`${editable && r.match_client_id && !r.excluded
        ? html`<select class="control control-sm" name="row_action" value=${r.action} disabled=${busy}
            aria-label=${`Row ${r.row}: update ${r.match_client_name} from the file, or leave it as it is`}
            onChange=${(e) => chooseAction(r, e.currentTarget.value)}>
            <option value="update">Update client</option>
            <option value="skip">Leave as it is</option>
          </select>`
        : html`<${ActionBadge} row=${r} />`}
        ${r.invoice_no && !r.excluded && html`<div class="cell-sub">${r.invoice_known ? "Invoice already imported" : "Invoice recorded"}</div>`}`,
    },
    {
      key: "problems", label: "Problems", wrap: true, class: "problems-col",
      render: (r) => (r.problems.length
        ? html`<${ProblemList} problems=${r.problems} />`
        : r.excluded ? html`<span class="muted">Left out</span>` : html`<span class="ok-text">Ready</span>`),
    },
  ];
  if (editable) {
    columns.push({
      key: "actions", label: "Actions", class: "actions-col",
      render: (r) => html`<div class="row-actions">
        ${!r.excluded && html`<button type="button" class=${`btn btn-sm${r.problems.length ? " btn-primary" : ""}`} onClick=${() => { setFixed(null); setEditing(r); }}>
          ${r.problems.length ? "Correct" : "Edit"}</button>`}
        ${r.excluded
          ? html`<button type="button" class="btn btn-sm" disabled=${busy} onClick=${() => edit(r, { excluded: 0 }, () => `Row ${r.row} is back in the import.`)}>Include</button>`
          : html`<button type="button" class="btn btn-sm" disabled=${busy} onClick=${() => edit(r, { excluded: 1 }, () => `Row ${r.row} is left out of the commit.`)}>Exclude</button>`}
      </div>`,
    });
  }

  const existing = status.to_update + status.to_skip;
  const searched = !!list.query.q;
  const empty = searched ? "No staged row matches this search." : filter === "problems" && !editable ? "No row has a problem." : EMPTY[filter];
  return html`<section class="import-rows" aria-labelledby="staged-rows-title">
    ${editing && html`<${RowDialog} row=${editing} onClose=${() => setEditing(null)} onSaved=${changed}
      onFixed=${(row) => { setEditing(null); setFixed(row); }} />`}
    <h2 class="section-title" id="staged-rows-title">Staged rows</h2>
    <${FilterBar} label="Filter staged rows">
      <${FilterChips} value=${filter} options=${FILTERS.map((f) => ({ ...f, count: f.value === "problems" ? status.problems : 0 }))} onChange=${(f) => setQuery({ filter: f === fallback ? "" : f })} />
      <${SearchBox} value=${list.query.q || ""} label="Search" placeholder="Name or invoice number…" onSearch=${(q) => setQuery({ q }, { replace: true })} />
    </${FilterBar}>
    ${fixed && html`<${Notice} tone="success" testid="row-result" title=${`Row ${fixed.row} checked again: no problems left`}>
      ${fixed.name}${fixed.invoice_no ? `, invoice ${fixed.invoice_no}` : ""}: ${(ACTIONS[fixed.action] || { label: fixed.action }).label.toLowerCase()}${fixed.invoice_no ? ", invoice recorded" : ""}.
      ${status.problems > 0 ? ` ${rowsWord(status.problems)} of the file still ${status.problems === 1 ? "has a problem" : "have problems"}.` : " No row of the file has a problem now."}
    </${Notice}>`}
    ${editable && existing > 0 && html`<div class="list-toolbar">
      <span class="list-toolbar-text">${integer(existing)} ${existing === 1 ? "client is" : "clients are"} already in the registry: update ${existing === 1 ? "it" : "them"} with the file's cells, or leave ${existing === 1 ? "it" : "them"} as ${existing === 1 ? "it is" : "they are"}.</span>
      <button type="button" class="btn btn-sm" disabled=${busy} onClick=${() => setAll("update")}>Update all existing</button>
      <button type="button" class="btn btn-sm" disabled=${busy} onClick=${() => setAll("skip")}>Skip all existing</button>
    </div>`}
    <div data-testid="import-rows">
      <${DataTable} caption="Staged rows" columns=${columns} rowKey="row" ...${list.tableProps} empty=${empty}
        rowAttrs=${(r) => ({ "data-row": r.row, class: r.problems.length ? "has-problem" : r.excluded ? "is-excluded" : undefined })} />
    </div>
  </section>`;
}
