// Settings (owner, /settings): one place for everything that shapes the office's documents and
// work. Each settings page links back here.
import { html } from "/vendor/preact-htm.js";
import { Card, useTitle, PageHeader, Link } from "../components.js";

const SECTIONS = [
  { href: "/settings/company", title: "Company profile", text: "The legal name, address, GSTIN, state, bank and UPI details printed on every document, the office's time zone, and the TDS section of clients that name none." },
  { href: "/settings/template", title: "Letterhead", text: "The trade name, logo, colour, terms and footer of quotations, invoices, receipts and emails; how long a public link lasts." },
  { href: "/settings/mail", title: "Mail", text: "How documents are emailed: a mail API or your own mailbox over SMTP, and a test email." },
  { href: "/settings/reminders", title: "Reminder schedule", text: "The days renewals, contracts, overdue invoices and quote follow-ups are chased on, and whether follow-ups go out by themselves." },
  { href: "/settings/operations", title: "Operations", text: "The SMS gateway's balance address, the low-balance threshold in credits, the ticket SLA and types, the payment terms of invoices, and when a project is stalled." },
  { href: "/jobs", title: "Background jobs", text: "The daily scan and recurring invoices: their last run, last error and next run, and Run now." },
  { href: "/settings/milestones", title: "Checklist templates", text: "The onboarding steps a new subscription starts with, per module." },
  { href: "/modules", title: "Catalog", text: "Modules, their dated prices and volume rate cards." },
  { href: "/employees", title: "Employees", text: "Staff accounts, roles, and password resets." },
  { href: "/import", title: "Import", text: "Clients and their invoices from the old system's spreadsheet, checked before they are committed; clearing the old system's encrypted credentials." },
];

export function SettingsPage() {
  useTitle("Settings");
  return html`<main data-page="settings">
    <${PageHeader} title="Settings" subtitle="What the office prints, sends and starts from." />
    <div class="settings-grid" data-testid="settings-sections">
      ${SECTIONS.map((s) => html`<${Card} key=${s.href} title=${html`<${Link} href=${s.href}>${s.title}</${Link}>`} class="section-card">
        <p class="hint">${s.text}</p></${Card}>`)}
    </div>
  </main>`;
}
