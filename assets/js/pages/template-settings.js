// The letterhead (owner, /settings/template): what every rendered document, PDF and email shows
// at its head and foot. Each field left empty falls back to its default (the company profile,
// a stock sentence, the standard colour), shown greyed in the field. The logo is uploaded on
// its own; a sample invoice beside the form shows the unsaved values as you type. Also here:
// how long a new public link lasts by default and the public address of links
// (`#public-links`, where the setup checklist and the share and send dialogs point).
import { html, useState, useEffect } from "/vendor/preact-htm.js";
import { put, upload } from "../api.js";
import { integer } from "../format.js";
import { Card, Notice, Loading, Form, Field, SubmitButton, useForm, fieldError, toast, useFetch, useTitle, PageHeader, Link, useLeaveGuard } from "../components.js";
import { DocSheet } from "../ui/documents.js";
import { usePreview } from "../ui/lines.js";

const ACCENT = "template.accent_color";
const HEX = /^#[0-9a-fA-F]{6}$/;
const LOGO_MAX = 512 * 1024;

// The letterhead's own fields, grouped as the form shows them. What is printed of the company
// (address, GSTIN, phone, email, bank and UPI details) is entered once, on the Company page.
const GROUPS = [
  { legend: "Name", fields: [
    { key: "template.trade_name", label: "Trade name", hint: "The name at the head of every document; empty: the company's legal name." },
  ] },
  { legend: "Terms and footer", fields: [
    { key: "template.terms", label: "Terms", as: "textarea", rows: 3, wide: true, hint: "Printed under the payment details." },
    { key: "template.footer", label: "Footer", as: "textarea", rows: 2, wide: true, hint: "The small line at the very bottom." },
  ] },
];
// Older versions let these be set here too; a value still stored is printed instead of the
// company profile's, so the page says so and offers to drop it.
const COMPANY_KEYS = ["address", "gstin", "phone", "email", "bank_name", "bank_account", "bank_ifsc", "upi_id"].map((k) => `template.${k}`);
const COMPANY_LABEL = { "template.address": "Address", "template.gstin": "GSTIN", "template.phone": "Phone", "template.email": "Email",
  "template.bank_name": "Bank", "template.bank_account": "Account number", "template.bank_ifsc": "IFSC", "template.upi_id": "UPI ID" };
const FIELDS = GROUPS.flatMap((g) => g.fields);
const KEYS = [...FIELDS.map((f) => f.key), ACCENT];
const LABEL = Object.fromEntries([...FIELDS.map((f) => [f.key, f.label]), [ACCENT, "Accent colour"]]);

const start = (settings) => Object.fromEntries(KEYS.map((k) => [k, (settings && settings[k]) || ""]));

/**
 * The values to try in the sample: an emptied field shows its default (the server would otherwise
 * keep the saved value), and a colour or GSTIN still being typed is left out until it is whole.
 */
function sampleValues(values, defaults) {
  const out = {};
  for (const k of KEYS) {
    const v = values[k].trim();
    if (k === ACCENT && v && !HEX.test(v)) continue;
    if (k === "template.gstin" && v && v.length !== 15) continue;
    out[k] = v || (defaults && defaults[k]) || "";
  }
  return out;
}

function LetterheadForm({ form, defaults, onSaved }) {
  const v = form.values;
  const onSubmit = form.submit(async (values) => {
    const accent = values[ACCENT].trim();
    if (accent && !HEX.test(accent)) throw fieldError(ACCENT, "Give the colour as #RRGGBB, e.g. #1f4e79.");
    const body = {};
    for (const k of KEYS) body[k] = values[k].trim() || null;
    onSaved(await put("/api/settings/template", body));
    toast.success("Letterhead saved.");
  });
  const placeholder = (k) => (defaults[k] ? String(defaults[k]) : "");
  const control = (f) => html`<${Field} key=${f.key} label=${f.label} ...${form.field(f.key)} as=${f.as} rows=${f.rows} type=${f.type}
    wide=${f.wide} optional placeholder=${placeholder(f.key)} class=${f.mono ? "mono-field" : ""} autocomplete="off"
    spellcheck=${f.as === "textarea"} maxLength=${f.as === "textarea" ? "2000" : "200"} hint=${f.hint} />`;
  const picker = HEX.test(v[ACCENT].trim()) ? v[ACCENT].trim().toLowerCase() : placeholder(ACCENT) || "#1f4e79";
  return html`<${Form} onSubmit=${onSubmit} error=${form.formError} label="Letterhead">
    <p class="form-section-intro hint">A field left empty uses the default shown in grey. The address, GSTIN, phone, email and
      bank details printed are the <${Link} href="/settings/company">company profile's</${Link}>: change them there.</p>
    ${GROUPS.map((g) => html`<fieldset class="form-section" key=${g.legend}>
      <legend>${g.legend}</legend>
      <div class="form-grid">${g.fields.map(control)}
        ${g.legend === "Terms and footer" && html`<${Field} label="Accent colour" ...${form.field(ACCENT)} optional placeholder=${placeholder(ACCENT)}
          class="mono-field accent-field" autocomplete="off" spellcheck=${false} maxLength="7"
          hint="#RRGGBB: the headings, rules and the head of the lines table."
          after=${html`<input type="color" class="accent-picker" value=${picker} aria-label="Pick the accent colour"
            onInput=${(e) => form.set(ACCENT, e.currentTarget.value)} />`} />`}
      </div>
    </fieldset>`)}
    <div class="form-actions"><${SubmitButton} saving=${form.saving}>Save letterhead</${SubmitButton}></div>
  </${Form}>`;
}

function LogoForm({ settings, onSaved }) {
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (e) => {
    e.preventDefault();
    if (busy) return;
    const input = e.currentTarget.elements.logo;
    const file = input && input.files && input.files[0];
    const refuse = (message) => {
      setError(message);
      input.focus();
    };
    if (!file) return refuse("Choose a PNG or JPEG file first.");
    if (file.size > LOGO_MAX) return refuse(`The logo is larger than 512 KiB (this file is ${integer(Math.ceil(file.size / 1024))} KiB).`);
    const data = new FormData();
    data.append("logo", file, file.name);
    setBusy(true);
    setError(null);
    try {
      const saved = await upload("/api/settings/template/logo", data);
      input.value = "";
      onSaved(saved);
      toast.success("Logo uploaded.");
    } catch (err) {
      refuse(err.message);
    } finally {
      setBusy(false);
    }
  };
  return html`<div class="logo-current">
      ${settings.logo
        ? html`<img class="logo-image" src=${settings.logo} alt="The current logo" data-testid="logo" />`
        : html`<p class="hint">No logo yet: documents show the trade name alone.</p>`}
    </div>
    <${Form} onSubmit=${onSubmit} label="Upload logo" class="inline-form logo-form">
      <${Field} label=${settings.has_logo ? "Replace with" : "Logo file"} type="file" name="logo" accept="image/png,image/jpeg" error=${error}
        onInput=${() => setError(null)} hint="PNG or JPEG, at most 512 KiB. Printed at most 72 pixels high." />
      <${SubmitButton} saving=${busy}>Upload logo</${SubmitButton}>
    </${Form}>`;
}

const shareStart = (s) => ({ default_expiry_days: String(s.default_expiry_days), base_url: s.base_url || "" });

function ShareSettingsForm({ settings, onSaved }) {
  const form = useForm(shareStart(settings));
  const onSubmit = form.submit(async (v) => {
    const t = v.default_expiry_days.trim();
    if (!/^\d+$/.test(t) || Number(t) < 1 || Number(t) > 3650) throw fieldError("default_expiry_days", "A whole number of days, 1 to 3650 (ten years).");
    // The server checks the address; "" clears it.
    const saved = await put("/api/settings/share", { default_expiry_days: Number(t), base_url: v.base_url.trim() });
    form.reset(shareStart(saved));
    onSaved(saved);
    toast.success(`Link settings saved: new links last ${saved.default_expiry_days} days.`);
  });
  const server = settings.server_base_url;
  return html`<${Form} onSubmit=${onSubmit} error=${form.formError} label="Public links">
    <div class="form-grid form-grid-narrow">
      <${Field} label="Days a new link lasts" type="number" min="1" max="3650" step="1" inputMode="numeric" ...${form.field("default_expiry_days")}
        hint="Used when a link is made without its own expiry, and for the link in a document's email." />
      <${Field} label="Address of public links" type="url" optional autocomplete="off" spellcheck=${false} ...${form.field("base_url")}
        placeholder=${server || "https://office.example.in"}
        hint=${server
          ? `Where clients open shared documents (share.base_url). Empty: the server's own, ${server}.`
          : "Where clients open shared documents (share.base_url). Quote follow-ups are not sent until it is set."} />
    </div>
    ${!settings.effective_base_url && html`<${Notice} tone="warning" testid="base-url-unset">No address is set: quote follow-up emails are refused until one is.</${Notice}>`}
    <div class="form-actions"><${SubmitButton} saving=${form.saving}>Save link settings</${SubmitButton}></div>
  </${Form}>`;
}

function ShareSettingsCard() {
  const { data, error, reload } = useFetch("/api/settings/share");
  const [saved, setSaved] = useState(null);
  const s = saved || data;
  // /settings/template#public-links (the setup checklist, the share and send dialogs) scrolls here.
  const shown = !!s;
  useEffect(() => {
    const card = shown && location.hash === "#public-links" && document.getElementById("public-links");
    if (card) card.scrollIntoView({ block: "start" });
  }, [shown]);
  let body;
  if (error) body = html`<${Notice} tone="danger" alert=${true}>${error.message} <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`;
  else if (!s) body = html`<${Loading} label="Loading the link settings…" />`;
  else body = html`<${ShareSettingsForm} settings=${s} onSaved=${setSaved} />`;
  return html`<div id="public-links" data-testid="public-links-settings"><${Card} title="Public links" class="section-card">${body}</${Card}></div>`;
}

function TemplateEditor({ settings: first }) {
  const [settings, setSettings] = useState(first);
  const form = useForm(start(first));
  useLeaveGuard(form.dirty && !form.saving);
  const [logoTick, setLogoTick] = useState(0);
  const sample = usePreview({ template: sampleValues(form.values, settings.defaults) }, { path: "/api/previews/sample", refresh: logoTick });
  const sampleField = sample.error && sample.error.field;
  const saved = (fresh) => {
    setSettings(fresh);
    form.reset(start(fresh));
  };
  const overriding = COMPANY_KEYS.filter((k) => settings[k] !== null && settings[k] !== undefined && settings[k] !== "");
  const useCompany = async () => {
    const fresh = await put("/api/settings/template", Object.fromEntries(overriding.map((k) => [k, null])));
    saved(fresh);
    toast.success("Documents now print the company profile's details.");
  };
  return html`<div class="page-grid even template-grid">
    <div class="page-col">
      ${overriding.length > 0 && html`<${Notice} tone="warning" testid="letterhead-overrides" title="Printed instead of the company profile">
        ${overriding.map((k) => `${COMPANY_LABEL[k]}: ${settings[k]}`).join(" · ")}
        <p><button type="button" class="btn btn-sm" onClick=${useCompany}>Use the company profile</button></p></${Notice}>`}
      <${Card} title="Text and colour" class="section-card">
        <${LetterheadForm} form=${form} defaults=${settings.defaults || {}} onSaved=${saved} />
      </${Card}>
      <${Card} title="Logo" class="section-card">
        <${LogoForm} settings=${settings} onSaved=${(fresh) => { setSettings(fresh); setLogoTick((t) => t + 1); }} />
      </${Card}>
      <${ShareSettingsCard} />
    </div>
    <${Card} title="Sample" class="section-card sample-card">
      <p class="hint sample-lead">A made-up invoice with the values above, saved or not.</p>
      ${sample.error && html`<${Notice} tone="warning">${sampleField && LABEL[sampleField] ? `${LABEL[sampleField]}: ` : ""}${sample.error.message}${" "}The sample shows
        the last good values.</${Notice}>`}
      <${DocSheet} html=${sample.data && sample.data.html} testid="sample-preview" stale=${sample.pending} empty="Preparing the sample…" />
    </${Card}>
  </div>`;
}

export function TemplateSettingsPage() {
  useTitle("Letterhead");
  const { data, error, reload } = useFetch("/api/settings/template");
  let body;
  if (error) body = html`<${Notice} tone="danger" alert=${true}>${error.message} <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`;
  else if (!data) body = html`<${Loading} label="Loading the letterhead…" />`;
  else body = html`<${TemplateEditor} settings=${data} />`;
  return html`<main data-page="template-settings" class="template-settings-page">
    <p class="crumbs"><${Link} href="/settings">← Settings</${Link}></p>
    <${PageHeader} title="Letterhead" subtitle="The head and foot of every quotation, invoice and credit note, on screen, in the PDF and in emails."
      actions=${html`<${Link} class="btn" href="/settings/company">Company settings</${Link}>`} />
    ${body}
  </main>`;
}
