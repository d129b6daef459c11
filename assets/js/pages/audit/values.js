// How the audit viewer reads a row to a person: entities and codes as words, ids as the names of
// the records they point to (links), money in rupees, dates as DD-MM-YYYY.
import { html } from "/vendor/preact-htm.js";
import { date, dateTime, humanize, rupees, roleLabel } from "../../format.js";
import { Link } from "../../components.js";
import { docUrl, typeLabel } from "../../ui/documents.js";
import { paymentUrl, modeLabel } from "../../ui/payments.js";
import { moduleUrl } from "../../ui/modules.js";
import { projectUrl } from "../../ui/projects.js";

const ENTITY_WORDS = {
  client: "Client",
  client_module: "Project",
  contact: "Contact",
  branch: "Branch",
  document: "Document",
  document_share: "Share link",
  payment: "Payment",
  module: "Module",
  staff: "Employee",
  setting: "Setting",
};
/** "client_module" → "Project". */
export const entityWord = (entity) => ENTITY_WORDS[entity] || humanize(entity);

const enc = encodeURIComponent;
const RECORD_URLS = {
  client: (id) => `/clients/${enc(id)}`,
  document: docUrl,
  payment: paymentUrl,
  module: moduleUrl,
  client_module: projectUrl,
  staff: (_id, label) => `/employees?q=${enc(label)}`,
};
/** Settings are audited under their key; each opens the page that edits it. */
const SETTING_PAGES = [
  ["template", "/settings/template"],
  ["company", "/settings/company"],
  ["mail", "/settings/mail"],
  ["milestone", "/settings/milestones"],
];

/** A record named by the server (`{ entity, id, label }`) as a link to its page. */
export function RecordLink({ record }) {
  const url = RECORD_URLS[record.entity];
  return url ? html`<${Link} href=${url(record.id, record.label)}>${record.label}</${Link}>` : record.label;
}

/** The Record cell: the record's name as a link, a setting's page, or the id of a record that is gone. */
export function RecordCell({ row }) {
  const id = row.entity_id;
  if (!id) return html`<span class="muted">—</span>`;
  const record = row.refs && row.refs[id];
  if (record) return html`<${RecordLink} record=${record} />`;
  if (row.entity === "setting") {
    const page = SETTING_PAGES.find(([prefix]) => id.startsWith(prefix));
    const word = humanize(id.replace(/[.]/g, " "));
    return page ? html`<${Link} href=${page[1]}>${word}</${Link}>` : word;
  }
  const was = (row.before && row.before.name) || (row.after && row.after.name);
  return html`<span class="mono-ish" title="This record no longer exists">${was ? `${was} (removed)` : id}</span>`;
}

const KEY_WORDS = {
  docNo: "Document no.",
  doc_no: "Document no.",
  doc_date: "Date",
  receipt_no: "Receipt no.",
  owner_id: "Account owner",
  user_id: "Employee",
  created_by: "Created by",
  set_by: "Set by",
  cancelled_by: "Cancelled by",
  parent_id: "Made from",
  child_id: "Converted to",
  replaced_by: "Replaced by",
  tds: "TDS",
  gstin: "GSTIN",
  gst_rate: "GST rate (%)",
  sac: "SAC",
  cgst: "CGST",
  sgst: "SGST",
  igst: "IGST",
  upi_id: "UPI id",
  bank_ifsc: "Bank IFSC",
  hasDbPassword: "DB password set",
  mustChangePassword: "Must change password",
};
/** "owner_id" → "Account owner", "client_id" → "Client", "hasToken" → "Has token". */
export function keyLabel(key) {
  const k = String(key);
  if (KEY_WORDS[k]) return KEY_WORDS[k];
  const words = k.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
  return humanize(words.endsWith("_id") ? words.slice(0, -3) : words);
}

/** Keys whose numbers are paise. */
const MONEY = new Set([
  "amount", "total", "outstanding", "tds", "unallocated", "refunded", "price", "price_today", "rate", "minimum",
  "subtotal", "taxable", "cgst", "sgst", "igst", "round_off", "unit_price", "explicit_price",
]);
/** Keys whose values are codes, each with its words. */
const CODES = {
  type: typeLabel,
  mode: modeLabel,
  role: roleLabel,
  entity: entityWord,
};
const CODE_KEYS = new Set(["status", "kind", "state", "via", "source", "action", "key", "client_type", "category"]);
/** 0/1 flags (the API's booleans). */
const FLAGS = new Set(["active", "revoked", "round_to_rupee", "must_change_password", "done"]);

/**
 * One image value as a person reads it, or undefined for the diff's default: an id the row
 * names → a link to that record; money → rupees; a date → DD-MM-YYYY; a timestamp → local
 * time to the second (two edits may share a minute); a code → words; a 0/1 flag → yes/no.
 */
export function readable(refs, key, value) {
  if (typeof value === "string" && refs && refs[value]) return html`<${RecordLink} record=${refs[value]} />`;
  if (typeof value === "number" && MONEY.has(key)) return rupees(value);
  if ((value === 0 || value === 1) && FLAGS.has(key)) return value ? "yes" : "no";
  if (typeof value !== "string") return undefined;
  if (CODES[key]) return CODES[key](value);
  if (CODE_KEYS.has(key) && /^[a-z][a-z0-9_]*$/.test(value)) return humanize(value);
  if (/^\d{4}-\d\d-\d\d$/.test(value)) return date(value);
  if (/^\d{4}-\d\d-\d\dT/.test(value)) {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? undefined : `${dateTime(value)}:${String(d.getSeconds()).padStart(2, "0")}`;
  }
  return undefined;
}
