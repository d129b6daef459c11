// Tally export (/reports/tally, owner and manager): a period (from, to; default this financial
// year to today), "Download Tally XML" (the period's invoices, credit notes and receipts as
// TallyPrime's Import Data vouchers) and "Download ledgers only" (the party ledgers of the
// period's clients), both plain links to `GET /api/exports/tally`; below, the ledger names the
// vouchers post to (`/api/settings/tally`): the owner saves them (only what changed is sent, the
// server names each refused field, which shows on it), a manager reads them.
import { html, useState } from "/vendor/preact-htm.js";
import { put, qs } from "../api.js";
import { date, isoDate } from "../format.js";
import {
  Card, DateField, Field, Form, Link, Loading, Notice, PageHeader, SubmitButton, fieldError, toast, useFetch, useForm, useSession, useTitle,
} from "../components.js";
import { fyStartYear } from "../ui/periods.js";

/** The names, in the order shown, with their labels and hints. */
const LEDGERS = [
  { name: "sales_ledger", label: "Sales", hint: "Credited with an invoice's taxable value." },
  { name: "cgst_ledger", label: "Output CGST", hint: "Intra-state tax, half." },
  { name: "sgst_ledger", label: "Output SGST", hint: "Intra-state tax, the other half." },
  { name: "igst_ledger", label: "Output IGST", hint: "Inter-state tax." },
  { name: "bank_ledger", label: "Bank", hint: "Debited with money received by cheque, NEFT/RTGS, UPI or other." },
  { name: "cash_ledger", label: "Cash", hint: "Debited with money received in cash." },
  { name: "tds_ledger", label: "TDS receivable", hint: "Debited with the TDS a society deducted." },
  { name: "round_off_ledger", label: "Round off", hint: "What brought a total to the rupee." },
  { name: "company_name", label: "Company in Tally", hint: "As named in Tally. Empty: the company loaded in Tally when you import." },
];

const start = (s) => Object.fromEntries(LEDGERS.map((l) => [l.name, s[l.name] || ""]));

function LedgerForm({ settings, owner, onSaved }) {
  const form = useForm(start(settings));
  const onSubmit = form.submit(async (values) => {
    const body = {};
    for (const { name, label } of LEDGERS) {
      const v = values[name].trim();
      if (!v && name !== "company_name") throw fieldError(name, `Give the ${label} ledger's name, as it is in Tally.`);
      if (v !== settings[name]) body[name] = v;
    }
    if (Object.keys(body).length === 0) {
      toast.info("Nothing to save: no name was changed.");
      return;
    }
    const saved = await put("/api/settings/tally", body);
    form.reset(start(saved));
    onSaved(saved);
    toast.success("Tally ledger names saved: the next download uses them.");
  });
  return html`<${Form} onSubmit=${onSubmit} error=${form.formError} label="Tally ledger names">
    <div class="form-grid" data-testid="tally-ledgers-form">
      ${LEDGERS.map((l) => html`<${Field} key=${l.name} label=${l.label} ...${form.field(l.name)} hint=${l.hint}
        autocomplete="off" spellcheck=${false} maxLength="100" optional=${l.name === "company_name"} readOnly=${!owner} />`)}
    </div>
    ${owner
      ? html`<p class="hint">A change is in force from today and recorded in the audit trail.</p>
        <div class="form-actions"><${SubmitButton} saving=${form.saving}>Save ledger names</${SubmitButton}></div>`
      : html`<p class="hint">Only the owner changes these names.</p>`}
  </${Form}>`;
}

export function TallyExportPage() {
  useTitle("Tally export");
  const { me } = useSession();
  const owner = me.role === "owner";
  const [from, setFrom] = useState(`${fyStartYear()}-04-01`);
  const [to, setTo] = useState(isoDate());
  const { data, error, reload } = useFetch("/api/settings/tally");
  const [saved, setSaved] = useState(null);
  const settings = saved || data;
  const wrong = from && to && from > to ? `The period starts on ${date(from)}, after its end ${date(to)}.` : null;
  const href = (masters) => `/api/exports/tally${qs({ from, to, masters: masters ? 1 : "" })}`;
  const link = (masters, label, testid, tone) => (wrong
    ? html`<button type="button" class=${`btn ${tone}`} disabled data-testid=${testid}>${label}</button>`
    : html`<a class=${`btn ${tone}`} href=${href(masters)} download data-testid=${testid}>${label}</a>`);

  let form;
  if (error) form = html`<${Notice} tone="danger" alert=${true}>${error.message} <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`;
  else if (!settings) form = html`<${Loading} label="Loading…" />`;
  else form = html`<${LedgerForm} key=${JSON.stringify(settings)} settings=${settings} owner=${owner} onSaved=${setSaved} />`;

  return html`<main data-page="tally-export">
    <p class="crumbs"><${Link} href="/reports">← Reports</${Link}></p>
    <${PageHeader} title="Tally export"
      subtitle="The period's issued invoices, credit notes and payments as vouchers TallyPrime imports (Import Data), and the societies' party ledgers. Importing the same period again alters the vouchers instead of adding them twice." />
    <${Card} title="Period" class="section-card">
      <div class="form-grid form-grid-narrow" data-testid="tally-period">
        <${DateField} label="From" name="from" value=${from} onChange=${setFrom} error=${wrong} />
        <${DateField} label="To" name="to" value=${to} onChange=${setTo} />
      </div>
      <div class="form-actions">
        ${link(false, "Download Tally XML", "tally-download", "btn-primary")}
        ${link(true, "Download ledgers only", "tally-download-ledgers", "")}
      </div>
      <p class="hint">In TallyPrime, import the ledgers first (Import → Masters), then the vouchers (Import → Transactions).
        Cancelled documents and payments are left out.</p>
    </${Card}>
    <${Card} title="Ledger names" class="section-card">${form}</${Card}>
  </main>`;
}
