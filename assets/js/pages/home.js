// Home: a welcome, how many SMS balances are low, and the screens this role can use (the day's
// worklists first: pipeline, renewals, tickets). A dashboard comes here later.
import { html } from "/vendor/preact-htm.js";
import { Link, useFetch, useSession, useTitle, PageHeader } from "../components.js";
import { roleLabel, integer } from "../format.js";

// What each card offers; `roles` absent = everyone signed in.
const DESTINATIONS = [
  { href: "/pipeline", title: "Pipeline", text: "Open quotations and leads to chase, the longest waiting first, coloured by the follow-up ladder." },
  { href: "/renewals", title: "Renewals", text: "Module subscriptions and service contracts renewing soon, priced, with a renewal quote or invoice in one click." },
  { href: "/tickets", title: "Tickets", text: "Support calls: what is still open, past the SLA or assigned to you; move, note and bill them." },
  { href: "/clients", title: "Clients", text: "The client book: societies, their contacts, branches and the log of calls and visits." },
  { href: "/projects", title: "Projects", text: "Onboarding of every module sold: the board of pending steps, each project's checklist, stalled projects." },
  { href: "/documents", title: "Documents", text: "Quotations, proforma invoices, tax invoices and credit notes: draft, issue, convert, cancel." },
  { href: "/payments", title: "Payments", text: "Money received: record a payment with its receipt, settle invoices (TDS too) and apply advances." },
  { href: "/reports", title: "Reports", text: "Dues aging by client and days past due, the GST summary by month (both as CSV), and the SMS balances." },
  { href: "/settings/company", title: "Company", text: "The company profile printed on documents: GSTIN and state, address, bank details.", roles: ["owner"] },
  { href: "/settings/template", title: "Letterhead", text: "How documents look: trade name, logo, terms, footer and colour, with a live sample; how long public links last.", roles: ["owner"] },
  { href: "/settings/mail", title: "Mail", text: "The mail provider that sends documents and module notices: address, sender, token, and a connection test.", roles: ["owner"] },
  { href: "/modules", title: "Catalog", text: "The modules the office sells: prices, rate cards, custom fields and who subscribes.", roles: ["owner"] },
  { href: "/employees", title: "Employees", text: "Invite staff, change roles, deactivate accounts and reset passwords.", roles: ["owner"] },
  { href: "/login-history", title: "Login history", text: "Every sign-in attempt: who, when, from where, and whether it worked.", roles: ["owner"] },
  { href: "/audit", title: "Audit trail", text: "Every change to the records: who changed what, and when, with before and after.", roles: ["owner"] },
  { href: "/profile", title: "Profile", text: "Your name, phone and title, and your password." },
];

/**
 * "SMS balances low: N" (`[data-testid=sms-low-tile]`, staff: of their clients), to the Low list;
 * with none low it says so and leads to every balance. Left out when the count cannot be read.
 */
function SmsLowTile() {
  const { data, error } = useFetch("/api/reports/sms-balances", { filter: "low", per_page: 1 });
  if (error) return null;
  const low = data ? data.total : null;
  let title = "SMS balances";
  let text = "Counting the low balances…";
  if (low > 0) {
    title = `SMS balances low: ${integer(low)}`;
    text = `${low === 1 ? "One SMS subscription is" : `${integer(low)} SMS subscriptions are`} below ${integer(data.threshold)} credits: make top-up quotes.`;
  } else if (low === 0) {
    title = "SMS balances: none low";
    text = `No SMS subscription is below ${integer(data.threshold)} credits.`;
  }
  return html`<li class=${`tile${low > 0 ? " tile-alert" : ""}`} data-testid="sms-low-tile" data-low=${low ?? ""}>
    <${Link} href=${low === 0 ? "/reports/sms-balances?filter=all" : "/reports/sms-balances"} class="tile-link">
      <span class="tile-title">${title}</span>
      <span class="tile-text">${text}</span>
    </${Link}>
  </li>`;
}

export function HomePage() {
  const { me } = useSession();
  useTitle("Home");
  const cards = DESTINATIONS.filter((d) => !d.roles || d.roles.includes(me.role));
  return html`<main data-page="home">
    <${PageHeader} title=${`Welcome, ${me.name}`} subtitle=${`Signed in as ${me.username} · ${roleLabel(me.role)}`} />
    <ul class="tiles">
      <${SmsLowTile} />
      ${cards.map(
        (c) => html`<li class="tile">
          <${Link} href=${c.href} class="tile-link">
            <span class="tile-title">${c.title}</span>
            <span class="tile-text">${c.text}</span>
          </${Link}>
        </li>`,
      )}
    </ul>
  </main>`;
}
