// The company profile (owner): the letterhead of every document, the GSTIN whose state decides
// CGST + SGST or IGST, bank details for payment, and the office's UTC offset ("today"). Below it,
// the TDS section a society deducts under when its client record names none (its own setting,
// `PUT /api/settings/tds`).
import { html, useState } from "/vendor/preact-htm.js";
import { put } from "../api.js";
import {
  Card, Notice, Loading, Form, Field, SubmitButton, useForm, toast, useFetch, useTitle, PageHeader, Link, useLeaveGuard,
} from "../components.js";
import { date } from "../format.js";
import { stateLabel, stateName, TDS_SECTIONS } from "../ui/clients.js";

const TEXT = ["name", "address", "gstin", "state_code", "phone", "email", "bank_name", "bank_account", "bank_ifsc", "upi_id", "utc_offset"];

function start(profile) {
  const v = {};
  for (const k of TEXT) v[k] = (profile && profile[k]) || "";
  if (!v.utc_offset) v.utc_offset = "+05:30";
  return v;
}

function gstinHint(gstin) {
  const g = gstin.trim().toUpperCase();
  if (!g) return "15 letters and digits, e.g. 32AABCK1234L1ZV. Its first two digits are the state.";
  const code = g.slice(0, 2);
  if (/^\d{2}$/.test(code) && stateName(code)) return `State: ${stateLabel(code)}.`;
  return "The first two digits should be a GST state code, e.g. 32 for Kerala.";
}

function CompanyForm({ profile, onSaved }) {
  const form = useForm(start(profile));
  useLeaveGuard(form.dirty && !form.saving);
  const v = form.values;
  const hasGstin = !!v.gstin.trim();
  // Every field is checked by the server, which names every invalid one at once.
  const onSubmit = form.submit(async (values) => {
    const body = { name: values.name.trim(), address: values.address.trim() };
    for (const k of TEXT.slice(2)) body[k] = values[k].trim() || null;
    if (body.gstin) body.gstin = body.gstin.toUpperCase();
    if (hasGstin) body.state_code = null; // the GSTIN gives it
    if (body.bank_ifsc) body.bank_ifsc = body.bank_ifsc.toUpperCase();
    const saved = await put("/api/settings/company", body);
    form.reset(start(saved));
    onSaved(saved);
    toast.success("Company profile saved.");
  });
  return html`<${Form} onSubmit=${onSubmit} error=${form.formError} label="Company profile">
    <fieldset class="form-section">
      <legend>Company</legend>
      <div class="form-grid">
        <${Field} label="Legal name" ...${form.field("name")} wide autocomplete="organization" autofocus />
        <${Field} label="Address" as="textarea" rows="3" ...${form.field("address")} wide hint="As printed on the letterhead." />
        <${Field} label="GSTIN" ...${form.field("gstin")} optional autocomplete="off" spellcheck=${false} autocapitalize="characters"
          class="mono-field" hint=${gstinHint(v.gstin)} />
        <${Field} label="State code" ...${form.field("state_code")} optional inputMode="numeric" maxLength="2" autocomplete="off"
          readOnly=${hasGstin} value=${hasGstin ? v.gstin.trim().slice(0, 2) : v.state_code}
          hint=${hasGstin ? "From the GSTIN." : v.state_code && stateName(v.state_code) ? `State: ${stateLabel(v.state_code)}.` : "Without a GSTIN: the two-digit GST state code, e.g. 32."} />
        <${Field} label="Phone" type="tel" ...${form.field("phone")} optional autocomplete="off" />
        <${Field} label="Email" type="email" ...${form.field("email")} optional autocomplete="off" spellcheck=${false} />
      </div>
    </fieldset>
    <fieldset class="form-section">
      <legend>Payment details</legend>
      <div class="form-grid">
        <${Field} label="Bank" ...${form.field("bank_name")} optional autocomplete="off" />
        <${Field} label="Account number" ...${form.field("bank_account")} optional autocomplete="off" inputMode="numeric" class="mono-field" />
        <${Field} label="IFSC" ...${form.field("bank_ifsc")} optional autocomplete="off" autocapitalize="characters" class="mono-field" />
        <${Field} label="UPI ID" ...${form.field("upi_id")} optional autocomplete="off" spellcheck=${false} />
      </div>
    </fieldset>
    <fieldset class="form-section">
      <legend>Office clock</legend>
      <div class="form-grid">
        <${Field} label="UTC offset" ...${form.field("utc_offset")} autocomplete="off" placeholder="+05:30"
          hint="Decides which day is “today” for document dates and financial years. India: +05:30." />
      </div>
    </fieldset>
    <div class="form-actions"><${SubmitButton} saving=${form.saving}>Save company</${SubmitButton}></div>
  </${Form}>`;
}

/** The TDS section of clients that name none (owner, audited, in force from today). */
function TdsSectionForm({ settings, onSaved }) {
  const form = useForm({ default_section: settings.default_section });
  const onSubmit = form.submit(async (values) => {
    if (values.default_section === settings.default_section) {
      toast.info("Nothing to save: the section is unchanged.");
      return;
    }
    const saved = await put("/api/settings/tds", { default_section: values.default_section });
    form.reset({ default_section: saved.default_section });
    onSaved(saved);
    toast.success(`Clients without a section of their own now deduct under ${saved.default_section}.`);
  });
  return html`<${Form} onSubmit=${onSubmit} error=${form.formError} label="TDS section">
    <p class="card-lead">The societies deduct TDS from our fees and owe us a Form 16A each quarter. A client whose record names no
      section is read under this one on the TDS certificates report.</p>
    <div class="form-grid form-grid-narrow">
      <${Field} label="Default TDS section" as="select" ...${form.field("default_section")} options=${TDS_SECTIONS.filter((o) => o.value)}
        hint=${settings.effective_from ? html`In force since <time datetime=${settings.effective_from}>${date(settings.effective_from)}</time>.` : "The default: never changed."} />
    </div>
    <div class="form-actions"><${SubmitButton} saving=${form.saving}>Save TDS section</${SubmitButton}></div>
  </${Form}>`;
}

function TdsCard() {
  const { data, error, reload } = useFetch("/api/settings/tds");
  const [saved, setSaved] = useState(null);
  const s = saved || data;
  let body;
  if (error) body = html`<${Notice} tone="danger">${error.message} <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`;
  else if (!s) body = html`<${Loading} label="Loading the TDS section…" />`;
  else body = html`<${TdsSectionForm} settings=${s} onSaved=${setSaved} />`;
  return html`<${Card} title="Tax deducted at source" class="form-card section-card tds-settings">${body}</${Card}>`;
}

export function CompanyPage() {
  useTitle("Company");
  const { data, error, reload } = useFetch("/api/settings/company");
  const [saved, setSaved] = useState(null);
  const p = saved || data;
  let body;
  if (error) body = html`<${Notice} tone="danger" alert=${true}>${error.message} <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`;
  else if (!p) body = html`<${Loading} label="Loading the company profile…" />`;
  else body = html`<${CompanyForm} profile=${p} onSaved=${setSaved} />`;
  return html`<main data-page="company">
    <p class="crumbs"><${Link} href="/settings">← Settings</${Link}></p>
    <${PageHeader} title="Company" subtitle="Printed on every quotation, invoice and credit note; the GSTIN's state decides CGST + SGST or IGST." />
    ${p && !p.state_code && html`<${Notice} tone="warning">The company has no state yet: until a GSTIN or state code is saved, every document is
      treated as within the state (CGST + SGST) and carries a warning.</${Notice}>`}
    <${Card} class="form-card">${body}</${Card}>
    <${TdsCard} />
  </main>`;
}
