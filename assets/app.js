// Entry of the console: holds the session, picks the screen for the URL, and draws the shell
// (navigation that shows only what the signed-in role may use).
import { html, render, useState, useEffect, useCallback, useRef } from "/vendor/preact-htm.js";
import { get, post, onUnauthenticated } from "/js/api.js";
import { useLocation, navigate, Link, safeNext } from "/js/router.js";
import { SessionContext } from "/js/hooks.js";
import { Toasts, Loading, Notice } from "/js/components.js";
import { roleLabel } from "/js/format.js";
import { LoginPage } from "/js/pages/login.js";
import { HomePage } from "/js/pages/home.js";
import { ProfilePage } from "/js/pages/profile.js";
import { EmployeesPage } from "/js/pages/employees/employees.js";
import { LoginHistoryPage } from "/js/pages/login-history.js";
import { ClientsPage } from "/js/pages/clients.js";
import { ClientNewPage } from "/js/pages/client-new.js";
import { ClientPage } from "/js/pages/client/client.js";
import { AuditPage } from "/js/pages/audit/audit.js";
import { ModulesPage } from "/js/pages/modules.js";
import { ModuleNewPage } from "/js/pages/module/new.js";
import { ModulePage } from "/js/pages/module/module.js";
import { ProjectsPage } from "/js/pages/projects.js";
import { ProjectPage } from "/js/pages/project/project.js";
import { MilestoneTemplatesPage } from "/js/pages/milestone-templates.js";
import { DocumentsPage } from "/js/pages/documents.js";
import { DocumentNewPage } from "/js/pages/document/editor.js";
import { DocumentPage } from "/js/pages/document/document.js";
import { CompanyPage } from "/js/pages/company.js";
import { TemplateSettingsPage } from "/js/pages/template-settings.js";
import { MailSettingsPage } from "/js/pages/mail-settings.js";
import { SettingsPage } from "/js/pages/settings.js";
import { PaymentsPage } from "/js/pages/payments.js";
import { PaymentNewPage } from "/js/pages/payment-new.js";
import { PaymentPage } from "/js/pages/payment.js";
import { ReportsPage } from "/js/pages/reports.js";
import { DuesAgingPage } from "/js/pages/report-dues.js";
import { GstSummaryPage } from "/js/pages/report-gst.js";
import { SmsBalancesPage } from "/js/pages/report-sms.js";
import { ModuleRevenuePage } from "/js/pages/report-module-revenue.js";
import { ClientProfitabilityPage } from "/js/pages/report-profitability.js";
import { NumberContinuityPage } from "/js/pages/report-continuity.js";
import { YearEndStatementsPage } from "/js/pages/report-year-end.js";
import { Gstr1Page } from "/js/pages/report-gstr1.js";
import { CockpitPage } from "/js/pages/cockpit.js";
import { CloudCostsPage } from "/js/pages/cloud-costs.js";
import { TdsCertificatesPage } from "/js/pages/report-tds.js";
import { TallyExportPage } from "/js/pages/report-tally.js";
import { OperationsSettingsPage } from "/js/pages/operations-settings.js";
import { ContractsPage } from "/js/pages/contracts.js";
import { RecurringPlansPage } from "/js/pages/recurring-plans.js";
import { RemindersPage } from "/js/pages/reminders.js";
import { ReminderSettingsPage } from "/js/pages/reminder-settings.js";
import { JobsPage } from "/js/pages/jobs.js";
import { ImportPage } from "/js/pages/import/import.js";
import { PipelinePage } from "/js/pages/pipeline.js";
import { RenewalsPage } from "/js/pages/renewals.js";
import { TicketsPage } from "/js/pages/tickets.js";
import { TicketPage } from "/js/pages/ticket.js";
import { PortalsPage } from "/js/pages/portals.js";
import { ModuleDataPage } from "/js/pages/module-data.js";
import { EmailLogPage } from "/js/pages/email-log.js";
import { ForbiddenPage, NotFoundPage } from "/js/ui/errors.js";
import { GlobalSearch } from "/js/search.js";

// `roles` absent = every signed-in user. Later screens add a line here and, when they belong
// in the navigation, one in NAV.
const ROUTES = {
  "/": { page: HomePage },
  "/profile": { page: ProfilePage },
  "/employees": { page: EmployeesPage, roles: ["owner"] },
  "/login-history": { page: LoginHistoryPage, roles: ["owner"] },
  "/clients": { page: ClientsPage },
  "/clients/new": { page: ClientNewPage },
  "/audit": { page: AuditPage, roles: ["owner"] },
  "/modules": { page: ModulesPage },
  "/modules/new": { page: ModuleNewPage, roles: ["owner"] },
  "/projects": { page: ProjectsPage },
  "/settings/milestones": { page: MilestoneTemplatesPage, roles: ["owner"] },
  "/documents": { page: DocumentsPage },
  "/documents/new": { page: DocumentNewPage },
  "/payments": { page: PaymentsPage },
  "/payments/new": { page: PaymentNewPage },
  "/contracts": { page: ContractsPage },
  "/recurring-plans": { page: RecurringPlansPage, roles: ["owner"] },
  "/reports": { page: ReportsPage },
  "/reports/dues-aging": { page: DuesAgingPage },
  "/reports/gst-summary": { page: GstSummaryPage },
  "/reports/sms-balances": { page: SmsBalancesPage },
  "/reports/module-revenue": { page: ModuleRevenuePage },
  "/reports/client-profitability": { page: ClientProfitabilityPage },
  "/reports/number-continuity": { page: NumberContinuityPage, roles: ["owner", "manager"] },
  "/reports/year-end-statements": { page: YearEndStatementsPage, roles: ["owner", "manager"] },
  "/reports/gstr1": { page: Gstr1Page, roles: ["owner", "manager"] },
  "/cockpit": { page: CockpitPage, roles: ["owner"] },
  "/reports/cloud-costs": { page: CloudCostsPage },
  "/reports/tds": { page: TdsCertificatesPage, roles: ["owner", "manager"] },
  "/reports/tally": { page: TallyExportPage, roles: ["owner", "manager"] },
  "/settings": { page: SettingsPage, roles: ["owner"] },
  "/settings/company": { page: CompanyPage, roles: ["owner"] },
  "/settings/template": { page: TemplateSettingsPage, roles: ["owner"] },
  "/settings/mail": { page: MailSettingsPage, roles: ["owner"] },
  "/reminders": { page: RemindersPage },
  "/settings/reminders": { page: ReminderSettingsPage, roles: ["owner"] },
  "/settings/operations": { page: OperationsSettingsPage, roles: ["owner"] },
  "/jobs": { page: JobsPage, roles: ["owner"] },
  "/import": { page: ImportPage, roles: ["owner"] },
  "/pipeline": { page: PipelinePage },
  "/renewals": { page: RenewalsPage },
  "/tickets": { page: TicketsPage },
  "/portals": { page: PortalsPage },
  "/module-data": { page: ModuleDataPage },
  "/email-log": { page: EmailLogPage },
};

// Screens whose path ends in a record id ("/clients/01J…"): an exact ROUTES entry wins, else
// the first prefix that matches gets the rest of the path (one segment) as the `id` prop.
const PARAM_ROUTES = [
  { prefix: "/clients/", page: ClientPage },
  { prefix: "/modules/", page: ModulePage },
  { prefix: "/projects/", page: ProjectPage },
  { prefix: "/documents/", page: DocumentPage },
  { prefix: "/payments/", page: PaymentPage },
  { prefix: "/tickets/", page: TicketPage },
];

function findRoute(path) {
  if (ROUTES[path]) return { route: ROUTES[path], props: {} };
  for (const r of PARAM_ROUTES) {
    const rest = path.startsWith(r.prefix) ? path.slice(r.prefix.length) : "";
    if (!rest || rest.includes("/")) continue;
    try {
      return { route: r, props: { id: decodeURIComponent(rest) } };
    } catch {
      return null; // a malformed %-escape: no such page
    }
  }
  return null;
}

// Grouped so that it reads at a glance as screens are added (reminders, tickets, SMS, import).
// `pinned`: shown under "You" at the foot of the navigation, beside Sign out, which stays in
// view however short the window (the groups above it scroll).
export const NAV = [
  { href: "/", label: "Home", group: "Work" },
  { href: "/reminders", label: "Reminders", group: "Work", badge: "reminders" },
  { href: "/pipeline", label: "Pipeline", group: "Work" },
  { href: "/renewals", label: "Renewals", group: "Work" },
  { href: "/tickets", label: "Tickets", group: "Work" },
  { href: "/projects", label: "Projects", group: "Work" },
  { href: "/clients", label: "Clients", group: "Sales" },
  { href: "/documents", label: "Documents", group: "Sales" },
  { href: "/payments", label: "Payments", group: "Sales" },
  { href: "/contracts", label: "Service contracts", group: "Sales" },
  { href: "/recurring-plans", label: "Recurring plans", roles: ["owner"], group: "Sales" },
  { href: "/cockpit", label: "Cockpit", roles: ["owner"], group: "Reports" },
  { href: "/reports", label: "Reports", group: "Reports" },
  { href: "/reports/sms-balances", label: "SMS balances", group: "Reports" },
  { href: "/reports/cloud-costs", label: "Cloud costs", group: "Reports" },
  { href: "/reports/tds", label: "TDS certificates", roles: ["owner", "manager"], group: "Reports" },
  { href: "/portals", label: "Portals", group: "Reports" },
  { href: "/module-data", label: "Module data", group: "Reports" },
  { href: "/email-log", label: "Email log", group: "Reports" },
  { href: "/audit", label: "Audit", roles: ["owner"], group: "Reports" },
  { href: "/login-history", label: "Login history", roles: ["owner"], group: "Reports" },
  { href: "/settings", label: "Settings", roles: ["owner"], group: "Settings", pinned: true },
  { href: "/modules", label: "Catalog", roles: ["owner"], group: "Settings" },
  { href: "/employees", label: "Employees", roles: ["owner"], group: "Settings" },
  { href: "/jobs", label: "Background jobs", roles: ["owner"], group: "Settings" },
  { href: "/import", label: "Import", roles: ["owner"], group: "Settings" },
  { href: "/profile", label: "Profile", group: "You", pinned: true },
];

export const canUse = (me, roles) => !roles || (!!me && roles.includes(me.role));

/** Navigates after render (a redirect must not happen during render). */
function Redirect({ to }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return html`<${Loading} />`;
}

/** The open reminders of the user's share, asked again on each screen and after a change. */
function useOpenReminders(enabled, path) {
  const [open, setOpen] = useState(0);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const bump = () => setTick((t) => t + 1);
    window.addEventListener("reminders-changed", bump);
    return () => window.removeEventListener("reminders-changed", bump);
  }, []);
  useEffect(() => {
    if (!enabled) return;
    get("/api/reminders/open-count").then((a) => setOpen(a.open)).catch(() => {});
  }, [enabled, path, tick]);
  return open;
}

function Shell({ me, path, forced, onSignOut, children }) {
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [path]);
  const openReminders = useOpenReminders(!forced, path);
  const badge = (n) => n.badge === "reminders" && openReminders > 0 &&
    html` <span class="nav-badge" data-testid="reminders-badge" aria-label=${`${openReminders} open`}>${openReminders}</span>`;
  const links = NAV.filter((n) => canUse(me, n.roles));
  // The most specific entry that holds the path is the current one ("/reports/sms-balances" is
  // SMS balances, not Reports as well).
  const holds = (href) => (href === "/" ? path === "/" : path === href || path.startsWith(`${href}/`));
  const current = links.filter((n) => holds(n.href)).reduce((best, n) => (!best || n.href.length > best.length ? n.href : best), null);
  const isCurrent = (href) => href === current;
  const groups = [...new Set(links.filter((n) => !n.pinned).map((n) => n.group))]
    .map((g) => [g, links.filter((n) => n.group === g && !n.pinned)]);
  const link = (n) =>
    forced
      ? html`<li><a class="nav-link disabled" aria-disabled="true" title="Choose your own password first">${n.label}</a></li>`
      : html`<li><${Link} class="nav-link" href=${n.href} aria-current=${isCurrent(n.href) ? "page" : undefined}>${n.label}${badge(n)}</${Link}></li>`;
  return html`<div class="shell">
    <a class="skip-link" href="#content">Skip to content</a>
    <aside class="sidebar">
      <div class="sidebar-top">
        <span class="brand"><span class="brand-mark" aria-hidden="true">B</span>Back office</span>
        <button type="button" class="btn menu-btn" aria-expanded=${menuOpen ? "true" : "false"} aria-controls="main-nav"
          onClick=${() => setMenuOpen(!menuOpen)}>
          <span class="menu-icon" aria-hidden="true"></span>Menu
        </button>
      </div>
      <nav id="main-nav" class=${`sidebar-menu${menuOpen ? " open" : ""}`} aria-label="Main">
        <div class="main-nav">
          ${groups.map(([group, items]) => html`<div class="nav-group" key=${group}>
            <p class="nav-group-title">${group}</p>
            <ul class="nav-list">${items.map(link)}</ul>
          </div>`)}
        </div>
        <div class="nav-user">
          <p class="nav-group-title">You</p>
          <div class="nav-user-name">${me.name} <span class="nav-user-role">${roleLabel(me.role)}</span></div>
          <ul class="nav-list nav-user-links">${links.filter((n) => n.pinned).map(link)}</ul>
          <button type="button" class="btn btn-block" onClick=${onSignOut}>Sign out</button>
        </div>
      </nav>
    </aside>
    <div class="content" id="content">
      ${!forced && html`<header class="topbar"><${GlobalSearch} /></header>`}
      ${children}
    </div>
  </div>`;
}

function App() {
  const loc = useLocation();
  // undefined: still asking the server; null: signed out; object: the /api/me employee.
  const [me, setMe] = useState(undefined);
  const [bootError, setBootError] = useState(null);
  const [endedNote, setEndedNote] = useState(null);

  const refreshMe = useCallback(async () => {
    const fresh = await get("/api/me", null, { auth: false });
    setMe(fresh);
    return fresh;
  }, []);

  const boot = useCallback(() => {
    setBootError(null);
    // On the sign-in screen there is nothing to ask: skipping the probe spares a 401 in the
    // browser console (a user who is in fact signed in simply signs in again).
    if (location.pathname.replace(/\/+$/, "") === "/login") {
      setMe(null);
      return;
    }
    refreshMe().catch((err) => {
      if (err.status === 401) setMe(null);
      else setBootError(err);
    });
  }, []);

  useEffect(() => {
    // Any API call answered 401 means the session is gone (expired, ended by a password
    // reset or deactivation): back to sign-in, remembering where the user was.
    onUnauthenticated((err) => {
      setMe(null);
      setEndedNote(err.code === "session_expired" ? "Your session has expired. Sign in again to continue." : "Your session has ended. Sign in again to continue.");
      const here = location.pathname + location.search;
      if (!location.pathname.startsWith("/login")) navigate(`/login?next=${encodeURIComponent(here)}`, { replace: true });
    });
    boot();
  }, []);

  const signOut = useCallback(async () => {
    try {
      await post("/api/auth/logout", {}, { auth: false });
    } catch {
      /* signed out either way: the session is dropped client-side below */
    }
    setEndedNote(null);
    setMe(null);
    navigate("/login", { replace: true });
  }, []);

  // Move focus to the new page's heading after a screen change, so keyboard and screen
  // reader users start at the top of what changed.
  const lastPath = useRef(loc.path);
  useEffect(() => {
    if (lastPath.current === loc.path) return;
    lastPath.current = loc.path;
    // A page may name its starting field with autofocus (e.g. the forced password change).
    const target = document.querySelector("main [autofocus]") || document.querySelector("main h1");
    if (target && !document.querySelector("dialog[open]")) target.focus({ preventScroll: true });
  });

  const session = { me, setMe, refreshMe, signOut };

  if (bootError) {
    return html`<main class="boot-error" data-page="error"><h1>The back office is not answering</h1>
      <${Notice} tone="danger" alert=${true}>${bootError.message}</${Notice}>
      <button type="button" class="btn btn-primary" onClick=${boot}>Try again</button></main>`;
  }
  if (me === undefined) return html`<${Loading} label="Loading the back office…" />`;

  const path = loc.path.length > 1 ? loc.path.replace(/\/+$/, "") : loc.path;

  if (path === "/login") {
    if (me) return html`<${Redirect} to=${me.mustChangePassword ? "/profile" : safeNext(loc.query.next)} />`;
    return html`<${SessionContext.Provider} value=${session}>
      <${LoginPage} note=${endedNote} onSignedIn=${(fresh) => { setEndedNote(null); setMe(fresh); }} />
      <${Toasts} />
    </${SessionContext.Provider}>`;
  }
  if (!me) return html`<${Redirect} to=${path === "/" ? "/login" : `/login?next=${encodeURIComponent(loc.path + loc.search)}`} />`;

  // Until the initial password is replaced, the profile page is the only screen.
  const forced = !!me.mustChangePassword;
  if (forced && path !== "/profile") return html`<${Redirect} to="/profile" />`;

  const found = findRoute(path);
  let page;
  if (!found) page = html`<${NotFoundPage} />`;
  else if (!canUse(me, found.route.roles)) page = html`<${ForbiddenPage} />`;
  else page = html`<${found.route.page} key=${path} ...${found.props} />`;

  return html`<${SessionContext.Provider} value=${session}>
    <${Shell} me=${me} path=${path} forced=${forced} onSignOut=${signOut}>${page}</${Shell}>
    <${Toasts} />
  </${SessionContext.Provider}>`;
}

// Clear the "Loading…" placeholder first: Preact would otherwise keep it beside the app.
const root = document.getElementById("app");
root.textContent = "";
render(html`<${App} />`, root);
