// Home: what needs me today (GET /api/dashboard: staff their book; owner and manager everything,
// or their own with "Mine only"), a tile per figure linking to the list behind it, then the
// screens this role can use. The owner also sees the first-run checklist and, until it is set,
// that public links have no address (GET /api/setup).
import { html } from "/vendor/preact-htm.js";
import { Link, Loading, Notice, useFetch, useQuery, useSession, useTitle, PageHeader } from "../components.js";
import { roleLabel, integer, rupees, date } from "../format.js";
import { useSetup, PublicAddressNotice, SetupChecklist } from "../ui/setup.js";

// What each card offers; `roles` absent = everyone signed in.
const DESTINATIONS = [
  { href: "/pipeline", title: "Pipeline", text: "Open quotations and leads to chase, the longest waiting first, coloured by the follow-up ladder." },
  { href: "/renewals", title: "Renewals", text: "Module subscriptions and service contracts renewing soon, priced, with a renewal proforma or invoice in one click." },
  { href: "/tickets", title: "Tickets", text: "Support calls: what is still open, past the SLA or assigned to you; move, note and bill them." },
  { href: "/clients", title: "Clients", text: "The client book: societies, their contacts, branches and the log of calls and visits." },
  { href: "/projects", title: "Projects", text: "Onboarding of every module sold: the board of pending steps, each project's checklist, stalled projects." },
  { href: "/documents", title: "Documents", text: "Quotations, proforma invoices, tax invoices and credit notes: draft, issue, convert, cancel." },
  { href: "/payments", title: "Payments", text: "Money received: record a payment with its receipt, settle invoices (TDS too) and apply advances." },
  { href: "/cockpit", title: "Owner cockpit", text: "How the business is doing this month: billed and collected against last month, outstanding, pipeline, renewals, tickets.", roles: ["owner"] },
  { href: "/reports", title: "Reports", text: "Dues aging, GST summary, module revenue and client profitability (with charts and CSV), number continuity and the SMS balances." },
  { href: "/settings/company", title: "Company", text: "The company profile printed on documents: GSTIN and state, address, bank details.", roles: ["owner"] },
  { href: "/settings/template", title: "Letterhead", text: "How documents look: trade name, logo, terms, footer and colour, with a live sample; how long public links last.", roles: ["owner"] },
  { href: "/settings/mail", title: "Mail", text: "How documents and module notices are emailed: a mail API or your own mailbox over SMTP, and a test email.", roles: ["owner"] },
  { href: "/modules", title: "Catalog", text: "The modules the office sells: prices, rate cards, custom fields and who subscribes.", roles: ["owner"] },
  { href: "/employees", title: "Employees", text: "Invite staff, change roles, deactivate accounts and reset passwords.", roles: ["owner"] },
  { href: "/login-history", title: "Login history", text: "Every sign-in attempt: who, when, from where, and whether it worked.", roles: ["owner"] },
  { href: "/audit", title: "Audit trail", text: "Every change to the records: who changed what, and when, with before and after.", roles: ["owner"] },
  { href: "/profile", title: "Profile", text: "Your name, phone and title, and your password." },
];

const BANDS = [
  { key: "green", label: "on track" },
  { key: "amber", label: "follow up" },
  { key: "red", label: "overdue" },
  { key: "grey", label: "lost" },
];

/** ISO day + n days, as ISO (whole days, no time zone involved). */
function addDays(iso, n) {
  const [y, m, d] = iso.split("-").map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return t.toISOString().slice(0, 10);
}

/**
 * One figure of the dashboard: its name, the number (`[data-testid=stat]`), a line under it, and
 * the whole tile a link to the list behind it. `alert` marks it red (something is late).
 */
function Tile({ name, title, value, text, href, alert, children }) {
  return html`<li class=${`tile stat-tile${alert ? " tile-alert" : ""}`} data-testid=${`tile-${name}`} data-value=${value}>
    <${Link} href=${href} class="tile-link">
      <span class="tile-title">${title}</span>
      <span class="stat-value" data-testid="stat">${integer(value)}</span>
      <span class="tile-text">${text}</span>
      ${children}
    </${Link}>
  </li>`;
}

/**
 * "SMS balances low: N" (`[data-testid=sms-low-tile]`), to the Low list; with none low it says
 * so and leads to every balance.
 */
function SmsLowTile({ low }) {
  const { count, threshold } = low;
  const title = count > 0 ? `SMS balances low: ${integer(count)}` : "SMS balances: none low";
  const text = count > 0
    ? `${count === 1 ? "One SMS subscription is" : `${integer(count)} SMS subscriptions are`} below ${integer(threshold)} credits: make top-up quotes.`
    : `No SMS subscription is below ${integer(threshold)} credits.`;
  return html`<li class=${`tile stat-tile${count > 0 ? " tile-alert" : ""}`} data-testid="sms-low-tile" data-low=${count}>
    <${Link} href=${count === 0 ? "/reports/sms-balances?filter=all" : "/reports/sms-balances"} class="tile-link">
      <span class="tile-title">${title}</span>
      <span class="tile-text">${text}</span>
    </${Link}>
  </li>`;
}

/** The tiles of one answer of /api/dashboard. */
function DashboardTiles({ d, me, mine }) {
  const q = d.quotes;
  const bands = BANDS.filter((b) => q.bands && q.bands[b.key] > 0);
  const renewalsTo = addDays(d.as_of, d.renewals.days);
  return html`<ul class="tiles stat-tiles" data-testid="dashboard">
    <${Tile} name="quotes" title="Open quotations" value=${q.count} href=${mine ? `/pipeline?owner_id=${encodeURIComponent(me.id)}` : "/pipeline"}
      alert=${q.bands && q.bands.red > 0}
      text=${q.count ? html`worth <strong data-testid="quotes-value">${rupees(q.value)}</strong>` : "No quotation is waiting for an answer."}>
      ${bands.length > 0 && html`<span class="band-row" data-testid="bands">
        ${bands.map((b) => html`<span class=${`band band-${b.key}`} data-band=${b.key}>${integer(q.bands[b.key])} ${b.label}</span>`)}
      </span>`}
    </${Tile}>
    <${Tile} name="overdue-invoices" title="Overdue invoices" value=${d.overdue_invoices.count} alert=${d.overdue_invoices.count > 0}
      href="/documents?type=INVOICE&payment_state=overdue"
      text=${d.overdue_invoices.count ? html`<strong data-testid="overdue-amount">${rupees(d.overdue_invoices.amount)}</strong> past due` : "Nothing is past its due date."} />
    <${Tile} name="reminders" title="Reminders due today" value=${d.reminders.due_today} alert=${d.reminders.overdue > 0} href="/reminders"
      text=${d.reminders.overdue ? html`<strong data-testid="reminders-overdue">${integer(d.reminders.overdue)}</strong> overdue from earlier days` : "None overdue from earlier days."} />
    <${Tile} name="tickets" title="Tickets past SLA" value=${d.tickets.past_sla} alert=${d.tickets.past_sla > 0} href="/tickets?overdue=1"
      text=${html`of <strong data-testid="tickets-open">${integer(d.tickets.still_open)}</strong> still open`} />
    <${Tile} name="stalled" title="Stalled projects" value=${d.stalled_projects.count} href=${`/projects?days=${d.stalled_projects.stall_days}`}
      text=${`No activity for ${integer(d.stalled_projects.stall_days)} days or more.`} />
    <${SmsLowTile} low=${d.low_sms} />
    <${Tile} name="renewals" title=${`Renewals in ${d.renewals.days} days`} value=${d.renewals.count}
      href=${`/renewals?from=${d.as_of}&to=${renewalsTo}`}
      text=${d.renewals.count ? html`<strong data-testid="renewals-amount">${rupees(d.renewals.amount)}</strong> by ${date(renewalsTo)}` : `Nothing renews by ${date(renewalsTo)}.`} />
  </ul>`;
}

function Dashboard({ me }) {
  const [query, setQuery] = useQuery();
  const managerial = me.role === "owner" || me.role === "manager";
  const mine = managerial && query.mine === "1";
  const { data, error, loading, reload } = useFetch("/api/dashboard", mine ? { mine: 1 } : {});
  return html`<section class="dashboard" aria-labelledby="dashboard-title">
    <div class="section-head">
      <h2 id="dashboard-title">What needs ${mine || !managerial ? "me" : "the office"} today</h2>
      ${data && html`<span class="muted" data-testid="as-of">as of ${date(data.as_of)}</span>`}
      ${managerial && html`<div class="chips section-tools"><button type="button" class="chip" data-toggle="mine" aria-pressed=${mine ? "true" : "false"}
        onClick=${() => setQuery({ mine: mine ? "" : "1" }, { replace: true })}>Mine only</button></div>`}
    </div>
    ${error
      ? html`<${Notice} tone="danger" alert=${true}>${error.message} <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`
      : data ? html`<div class=${loading ? "is-loading" : ""}><${DashboardTiles} d=${data} me=${me} mine=${mine} /></div>` : html`<${Loading} label="Reading the day's figures…" />`}
  </section>`;
}

export function HomePage() {
  const { me } = useSession();
  useTitle("Home");
  const cards = DESTINATIONS.filter((d) => !d.roles || d.roles.includes(me.role));
  const owner = me.role === "owner";
  const setup = useSetup();
  return html`<main data-page="home">
    <${PageHeader} title=${`Welcome, ${me.name}`} subtitle=${`Signed in as ${me.username} · ${roleLabel(me.role)}`} />
    ${owner && html`<${PublicAddressNotice} setup=${setup.data} me=${me} />`}
    ${owner && html`<${SetupChecklist} setup=${setup.data} />`}
    <${Dashboard} me=${me} />
    <section class="home-screens" aria-labelledby="screens-title">
      <h2 id="screens-title" class="section-title">Screens</h2>
      <ul class="tiles">
        ${cards.map(
          (c) => html`<li class="tile">
            <${Link} href=${c.href} class="tile-link">
              <span class="tile-title">${c.title}</span>
              <span class="tile-text">${c.text}</span>
            </${Link}>
          </li>`,
        )}
      </ul>
    </section>
  </main>`;
}
