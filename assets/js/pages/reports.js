// The reports (/reports): a small index of what the office can read off its books.
import { html } from "/vendor/preact-htm.js";
import { Link, useSession, useTitle, PageHeader } from "../components.js";

const REPORTS = [
  { href: "/reports/dues-aging", title: "Dues aging", text: "What each client owes on a date, by days past due (not due, 1–30, 31–60, 61–90, over 90), with the invoices behind every figure." },
  { href: "/reports/gst-summary", title: "GST summary", text: "Taxable value, CGST, SGST and IGST by month for a period (the financial year by default), credit notes subtracted." },
  { href: "/reports/sms-balances", title: "SMS balances", text: "The last balance the SMS gateway gave for each SMS subscription, the low ones first, the flagged ones with the reason; a top-up quote from any row." },
  { href: "/reports/cloud-costs", title: "Cloud costs", text: "What each society's cloud server cost a month, entered or pulled from the provider, and the clients ranked by their cost over a range of months." },
];

export function ReportsPage() {
  const { me } = useSession();
  useTitle("Reports");
  return html`<main data-page="reports">
    <${PageHeader} title="Reports"
      subtitle=${me.role === "staff" ? "Figures of the invoices and credit notes you made, and your clients' SMS balances; the dues and GST figures download as CSV." : "Figures from the issued documents and payments, and the SMS balances; each downloads as CSV."} />
    <ul class="tiles">
      ${REPORTS.map((r) => html`<li class="tile">
        <${Link} href=${r.href} class="tile-link">
          <span class="tile-title">${r.title}</span>
          <span class="tile-text">${r.text}</span>
        </${Link}>
      </li>`)}
    </ul>
  </main>`;
}
