// The reports (/reports): a small index of what the office can read off its books.
import { html } from "/vendor/preact-htm.js";
import { Link, useSession, useTitle, PageHeader } from "../components.js";

// `roles` absent = everyone signed in.
const REPORTS = [
  { href: "/cockpit", title: "Owner cockpit", text: "This month against last: billed, collected, outstanding, pipeline, renewals, tickets, reminders and SMS, with 12-month trends.", roles: ["owner"] },
  { href: "/reports/dues-aging", title: "Dues aging", text: "What each client owes on a date, by days past due (not due, 1–30, 31–60, 61–90, over 90), with the invoices behind every figure." },
  { href: "/reports/gst-summary", title: "GST summary", text: "Taxable value, CGST, SGST and IGST by month for a period (the financial year by default), credit notes subtracted." },
  { href: "/reports/gstr1", title: "GSTR-1 export", text: "The month's return from the issued invoices and credit notes: B2B, B2C small, credit notes and the HSN/SAC summary, as the offline tool's CSV sheets or the portal's JSON, with what would make the tool refuse it.", roles: ["owner", "manager"] },
  { href: "/reports/module-revenue", title: "Module revenue", text: "What each module billed per month, before GST, over a financial year or any months, credit notes subtracted; chart and CSV." },
  { href: "/reports/client-profitability", title: "Client profitability", text: "Per client: billed, collected, cloud cost and the margin, sortable, with the best and worst margins drawn; CSV." },
  { href: "/reports/number-continuity", title: "Number continuity", text: "Each document series by financial year: first and last number, count, and any gap or duplicate, printable for the auditor.", roles: ["owner", "manager"] },
  { href: "/reports/year-end-statements", title: "Year-end statements", text: "Every client owing something at the financial year's end, and its statement of account sent to each by email, with the progress and who could not be reached; never twice the same day.", roles: ["owner", "manager"] },
  { href: "/reports/sms-balances", title: "SMS balances", text: "The last balance the SMS gateway gave for each SMS subscription, the low ones first, the flagged ones with the reason; a top-up quote from any row." },
  { href: "/reports/tds", title: "TDS certificates", text: "Per society and quarter, the TDS deducted from our fees against the Form 16A it sent: awaited, received or not matching; record a certificate in place.", roles: ["owner", "manager"] },
  { href: "/reports/tally", title: "Tally export", text: "A period's invoices, credit notes and payments as vouchers TallyPrime imports, and the societies' party ledgers; the ledger names they post to.", roles: ["owner", "manager"] },
  { href: "/reports/cloud-costs", title: "Cloud costs", text: "What each society's cloud server cost a month, entered or pulled from the provider, and the clients ranked by their cost over a range of months." },
];

export function ReportsPage() {
  const { me } = useSession();
  useTitle("Reports");
  return html`<main data-page="reports">
    <${PageHeader} title="Reports"
      subtitle=${me.role === "staff" ? "Figures of the invoices and credit notes you made, your clients' module revenue and profitability, and their SMS balances; each table downloads as CSV." : "Figures from the issued documents, payments and cloud costs, drawn as charts where a picture helps, and the SMS balances; each table downloads as CSV."} />
    <ul class="tiles">
      ${REPORTS.filter((r) => !r.roles || r.roles.includes(me.role)).map((r) => html`<li class="tile">
        <${Link} href=${r.href} class="tile-link">
          <span class="tile-title">${r.title}</span>
          <span class="tile-text">${r.text}</span>
        </${Link}>
      </li>`)}
    </ul>
  </main>`;
}
