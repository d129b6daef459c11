// Clients wherever the console names one: badges, GST state names, the pick-lists, the employee
// picker, the client form's fields (the new-client page and the Edit dialog), the client picker of
// the forms that take a client and the "Client: X" chip of the lists narrowed to one.
import { html, useState, useEffect } from "/vendor/preact-htm.js";
import { humanize, integer } from "../format.js";
import { Badge, Field, StaticField, useFetch } from "../components.js";
import { upperField } from "./forms.js";

const enc = encodeURIComponent;

export const isManagerial = (me) => !!me && (me.role === "owner" || me.role === "manager");

const STATUS_TONE = { lead: "info", active: "success", lost: "danger", inactive: "neutral" };

export function StatusBadge({ status }) {
  return html`<${Badge} tone=${STATUS_TONE[status] || "neutral"}>${humanize(status)}</${Badge}>`;
}

export function CategoryBadge({ category }) {
  return category ? html`<${Badge} tone="info">${category}</${Badge}>` : null;
}

// GST state codes (the server's table: rules::state_name).
const STATES = {
  "01": "Jammu and Kashmir", "02": "Himachal Pradesh", "03": "Punjab", "04": "Chandigarh", "05": "Uttarakhand",
  "06": "Haryana", "07": "Delhi", "08": "Rajasthan", "09": "Uttar Pradesh", "10": "Bihar", "11": "Sikkim",
  "12": "Arunachal Pradesh", "13": "Nagaland", "14": "Manipur", "15": "Mizoram", "16": "Tripura", "17": "Meghalaya",
  "18": "Assam", "19": "West Bengal", "20": "Jharkhand", "21": "Odisha", "22": "Chhattisgarh", "23": "Madhya Pradesh",
  "24": "Gujarat", "25": "Daman and Diu", "26": "Dadra and Nagar Haveli and Daman and Diu", "27": "Maharashtra",
  "28": "Andhra Pradesh (old)", "29": "Karnataka", "30": "Goa", "31": "Lakshadweep", "32": "Kerala", "33": "Tamil Nadu",
  "34": "Puducherry", "35": "Andaman and Nicobar Islands", "36": "Telangana", "37": "Andhra Pradesh", "38": "Ladakh",
  "97": "Other Territory", "99": "Centre Jurisdiction",
};

/** "32" → "Kerala"; unknown → null. */
export const stateName = (code) => STATES[String(code || "").trim()] || null;

/** "Kerala (32)", or the bare code when it is not a known state. */
export const stateLabel = (code) => (code ? (stateName(code) ? `${stateName(code)} (${code})` : code) : "");

const FALLBACK_OPTIONS = {
  statuses: ["lead", "active", "lost", "inactive"],
  client_types: ["PACS", "Store"],
  categories: [],
  districts: [],
  sectors: [],
  contact_roles: ["WhatsApp", "secretary", "president", "accountant"],
  interaction_types: ["call", "visit", "email", "whatsapp", "meeting", "note"],
};

/** The pick-lists of the client screens (/api/clients/options), with sane values until they come. */
export function useClientOptions() {
  const { data } = useFetch("/api/clients/options");
  return { ...FALLBACK_OPTIONS, ...(data || {}) };
}

/** Active employees for an owner picker (only fetched when `enabled`). */
export function useActiveEmployees(enabled) {
  const { data } = useFetch(enabled ? "/api/employees" : null, { active: 1, per_page: 200 });
  return (data && data.rows) || [];
}

/** [{value, label}] of a list of codes, labelled "Lead", "Active", …; `blank` adds a first "" choice. */
export function choices(values, blank, label = humanize) {
  const list = values.map((v) => ({ value: v, label: label(v) }));
  return blank ? [{ value: "", label: blank }, ...list] : list;
}

/**
 * Owner choices: the active employees, plus the current owner if they are not among them
 * (e.g. deactivated since), so the picker never silently shows someone else.
 */
export function ownerChoices(employees, { blank, current, currentName } = {}) {
  const list = employees.map((e) => ({ value: e.id, label: e.name }));
  if (current && !list.some((o) => o.value === current)) list.unshift({ value: current, label: `${currentName || "Current owner"} (inactive)` });
  return blank ? [{ value: "", label: blank }, ...list] : list;
}

// The client fields a form edits, in the order the API names them.
export const CLIENT_FIELDS = ["name", "gstin", "state_code", "status", "client_type", "district", "sector", "phone", "email", "address", "notes", "remote_access_id", "os", "tan", "tds_section"];

/** The sections a society deducts TDS under; "" = the office's default (Settings → Company). */
export const TDS_SECTIONS = [
  { value: "", label: "The office's default" },
  { value: "194J", label: "194J — professional or technical fees" },
  { value: "194C", label: "194C — work contracts" },
];

/** The form values of a client (or the empty new-client form). */
export function clientValues(client) {
  const v = {};
  for (const k of CLIENT_FIELDS) v[k] = (client && client[k]) || "";
  if (!client) {
    v.status = "active";
    v.client_type = "PACS";
  }
  return v;
}

/** The GST state hint under the state code field. */
function stateHint(gstin, code) {
  const g = (gstin || "").trim();
  const c = (code || "").trim();
  const fromGstin = /^\d\d/.test(g) ? stateName(g.slice(0, 2)) : null;
  if (c) {
    const name = stateName(c);
    if (!name) return "Not a GST state code: two digits, such as 32 for Kerala.";
    return fromGstin && g.slice(0, 2) !== c ? `${name}, but the GSTIN is from ${fromGstin}.` : `State: ${name}.`;
  }
  if (fromGstin) return `From the GSTIN: ${fromGstin} (${g.slice(0, 2)}).`;
  return "Only needed without a GSTIN, e.g. 32 for Kerala.";
}

/** GSTIN input props that upper-case as the user types, keeping the caret where it was. */
function gstinField(form) {
  return upperField(form, "gstin");
}

/**
 * The client form's fields in three groups. Props: form (useForm with clientValues), options
 * (useClientOptions), nameAfter (markup under the name, e.g. the derived type and category),
 * typeField (props overriding the client_type select), categoryField (markup beside the type),
 * extra (markup for a last group, e.g. owner and DB password).
 */
export function ClientFields({ form, options, nameAfter, typeField, categoryField, extra, autofocus }) {
  const v = form.values;
  return html`<fieldset class="form-section">
      <legend>Society</legend>
      <div class="form-grid">
        <${Field} label="Name" ...${form.field("name")} wide autocomplete="off" autofocus=${autofocus} after=${nameAfter}
          hint="The registered name, e.g. Kottayam Service Co-operative Bank Ltd No 123." />
        <${Field} label="GSTIN" ...${gstinField(form)} optional autocomplete="off" spellcheck=${false} autocapitalize="characters"
          class="mono-field" hint="15 letters and digits, e.g. 32AABCK1234L1ZV." />
        <${Field} label="State code" ...${form.field("state_code")} optional inputMode="numeric" autocomplete="off" maxLength="2"
          hint=${stateHint(v.gstin, v.state_code)} />
        <${Field} label="Type" as="select" ...${form.field("client_type")} options=${choices(options.client_types, null, (t) => t)} ...${typeField || {}} />
        ${categoryField}
        <${Field} label="Status" as="select" ...${form.field("status")} options=${choices(options.statuses)} />
        <${Field} label="District" ...${form.field("district")} optional autocomplete="off" suggestions=${options.districts} />
        <${Field} label="Sector" ...${form.field("sector")} optional autocomplete="off" suggestions=${options.sectors} />
      </div>
    </fieldset>
    <fieldset class="form-section">
      <legend>Contact</legend>
      <div class="form-grid">
        <${Field} label="Phone" type="tel" ...${form.field("phone")} optional autocomplete="off" hint="6 to 15 digits." />
        <${Field} label="Email" type="email" ...${form.field("email")} optional autocomplete="off" spellcheck=${false} />
        <${Field} label="Address" as="textarea" ...${form.field("address")} optional wide rows="2" />
      </div>
    </fieldset>
    <fieldset class="form-section">
      <legend>Tax deducted at source</legend>
      <div class="form-grid">
        <${Field} label="TAN" ...${upperField(form, "tan")} optional autocomplete="off" spellcheck=${false} autocapitalize="characters"
          maxLength="10" class="mono-field" hint="The society's TAN as a deductor: 4 letters, 5 digits, a letter, e.g. TVDK01234E." />
        <${Field} label="TDS section" as="select" ...${form.field("tds_section")} options=${TDS_SECTIONS}
          hint="The section its Form 16A names for our fees." />
      </div>
    </fieldset>
    <fieldset class="form-section">
      <legend>Systems and notes</legend>
      <div class="form-grid">
        <${Field} label="Remote access ID" ...${form.field("remote_access_id")} optional autocomplete="off" spellcheck=${false}
          hint="e.g. the AnyDesk or TeamViewer ID." />
        <${Field} label="OS" ...${form.field("os")} optional autocomplete="off" hint="e.g. Windows 10." />
        <${Field} label="Notes" as="textarea" ...${form.field("notes")} optional wide rows="3" />
      </div>
    </fieldset>
    ${extra}`;
}

// Where the list was last (with its filters), so "All clients" goes back to the same view.
let lastListUrl = "/clients";
export const rememberListUrl = (url) => (lastListUrl = url);
export const listUrl = () => lastListUrl;

/**
 * A search box (`client_search`) and a real <select name="client_id"> of the clients it finds
 * (all of them, up to 200, while the search is empty). One match is chosen for you.
 */
export function ClientPicker({ value, onChange, error, startName }) {
  const [text, setText] = useState("");
  const [q, setQ] = useState("");
  const [chosenName, setChosenName] = useState(startName || "");
  useEffect(() => {
    const t = setTimeout(() => setQ(text.trim()), 300);
    return () => clearTimeout(t);
  }, [text]);
  const { data, error: loadError } = useFetch("/api/clients", { per_page: 200, q });
  const rows = (data && data.rows) || [];
  useEffect(() => {
    if (q && rows.length === 1 && !value) choose(rows[0].id);
  }, [data]);
  const choose = (id) => {
    const found = rows.find((r) => r.id === id);
    if (found) setChosenName(found.name);
    onChange(id);
  };
  const options = [{ value: "", label: rows.length ? "Choose a client…" : q ? "No client matches the search" : "No clients yet" }];
  if (value && !rows.some((r) => r.id === value)) options.push({ value, label: chosenName || "The chosen client" });
  for (const r of rows) options.push({ value: r.id, label: r.district ? `${r.name} — ${r.district}` : r.name });
  const total = data ? data.total : 0;
  return html`<div class="client-picker">
    <${Field} label="Find a client" name="client_search" type="search" value=${text} autocomplete="off" placeholder="Name, GSTIN, phone…"
      onInput=${(e) => setText(e.currentTarget.value)} onKeyDown=${(e) => e.key === "Enter" && e.preventDefault()}
      hint=${data && total > rows.length ? `Showing ${rows.length} of ${integer(total)}: search to narrow.` : undefined} />
    ${data
      ? html`<${Field} label="Client" as="select" name="client_id" value=${value} options=${options} error=${error}
          onInput=${(e) => choose(e.currentTarget.value)} />`
      : html`<${StaticField} label="Client" value=${loadError ? `The clients could not be read: ${loadError.message}` : "Loading clients…"} />`}
  </div>`;
}

/** The name of a client the list is narrowed to (from a client page's link). */
export function ClientFilter({ id, onClear }) {
  const { data } = useFetch(`/api/clients/${enc(id)}`);
  return html`<div class="filter-chip">
    <span>Client: <strong>${data ? data.name : "…"}</strong></span>
    <button type="button" class="btn btn-sm" onClick=${onClear}>Show all clients</button>
  </div>`;
}
