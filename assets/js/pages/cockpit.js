// The owner's cockpit (/cockpit, owner): how the business is doing this month, from
// GET /api/reports/mis. Billed (issued invoices less credit notes) and collected (payments) this
// month against last month with the change (GST included), outstanding, the open pipeline, renewals due, tickets,
// the reminder queue and the low SMS balances; a sparkline of the last 12 months where there is a
// series, each tile a link to its list; then collections against billing as bars, and the open
// pipeline by stage (enquiries, and the quotations waiting by follow-up band).
import { html } from "/vendor/preact-htm.js";
import { date, integer, rupees, monthLabel } from "../format.js";
import { Link, Loading, Notice, useFetch, useTitle, PageHeader } from "../components.js";
import { BarChart, HBarChart, Sparkline, monthShort } from "../ui/charts.js";

/** "2026-05" → ["2026-05-01", "2026-05-31"]. */
export function monthDays(ym) {
  const [y, m] = ym.split("-").map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return [`${ym}-01`, `${ym}-${String(last).padStart(2, "0")}`];
}

function addDays(iso, n) {
  const [y, m, d] = iso.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** This month against last: "▲ 25.0% on last month (₹8,000.00)"; `fmt` writes a figure. */
export function changeText(now, before, fmt = rupees) {
  if (now === before) return { dir: "same", text: `= same as last month (${fmt(before)})` };
  const dir = now > before ? "up" : "down";
  const arrow = dir === "up" ? "▲" : "▼";
  if (before === 0) return { dir, text: `${arrow} from ${fmt(0)} last month` };
  const pct = (Math.abs(now - before) * 100) / Math.abs(before);
  return { dir, text: `${arrow} ${pct.toFixed(1)}% on last month (${fmt(before)})` };
}

function Change({ now, before, format }) {
  const c = changeText(now, before, format);
  return html`<span class=${`change change-${c.dir}`} data-testid="change" data-dir=${c.dir}>${c.text}</span>`;
}

/** A cockpit tile: name, figure (`[data-testid=stat]`), lines under it, an optional sparkline. */
function Tile({ name, title, value, href, alert, children, spark }) {
  return html`<li class=${`tile stat-tile cockpit-tile${alert ? " tile-alert" : ""}`} data-testid=${`cockpit-${name}`}>
    <${Link} href=${href} class="tile-link">
      <span class="tile-title">${title}</span>
      <span class="stat-value" data-testid="stat">${value}</span>
      ${children}
      ${spark}
    </${Link}>
  </li>`;
}

export function CockpitPage() {
  useTitle("Owner cockpit");
  const { data: d, error, reload } = useFetch("/api/reports/mis");
  let body;
  if (error) body = html`<${Notice} tone="danger" alert=${true}>${error.message} <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`;
  else if (!d) body = html`<${Loading} label="Reading this month's figures…" />`;
  else {
    const labels = d.months.map(monthLabel);
    const spark = (values, title, exact) => html`<${Sparkline} values=${values} labels=${labels} title=${title} exact=${exact} />`;
    const [monthFrom, monthTo] = monthDays(d.month);
    const renewalsTo = addDays(d.as_of, d.renewals.days);
    body = html`
      <ul class="tiles stat-tiles cockpit-tiles">
        <${Tile} name="billed" title=${`Billed in ${monthLabel(d.month)}`} value=${rupees(d.billed.this_month)}
          href=${`/documents?type=INVOICE&from=${monthFrom}&to=${monthTo}`}
          spark=${spark(d.billed.series, "Billed, last 12 months", rupees)}>
          <${Change} now=${d.billed.this_month} before=${d.billed.last_month} />
          <span class="tile-text">Issued invoices less credit notes, GST included.</span>
        </${Tile}>
        <${Tile} name="collections" title=${`Collected in ${monthLabel(d.month)}`} value=${rupees(d.collections.this_month)}
          href=${`/payments?from=${monthFrom}&to=${monthTo}`}
          spark=${spark(d.collections.series, "Collected, last 12 months", rupees)}>
          <${Change} now=${d.collections.this_month} before=${d.collections.last_month} />
          <span class="tile-text">Payments received.</span>
        </${Tile}>
        <${Tile} name="outstanding" title="Outstanding" value=${rupees(d.outstanding.total)} href="/reports/dues-aging"
          spark=${spark(d.outstanding.series, "Outstanding at each month's end, last 12 months", rupees)}>
          <span class="tile-text">Owed on issued invoices today.</span>
        </${Tile}>
        <${Tile} name="pipeline" title="Open pipeline" value=${rupees(d.pipeline.open_value)} href="/pipeline">
          <span class="tile-text"><strong>${integer(d.pipeline.open_count)}</strong> open ${d.pipeline.open_count === 1 ? "quotation" : "quotations"}.</span>
        </${Tile}>
        <${Tile} name="renewals" title=${`Renewals in ${d.renewals.days} days`} value=${rupees(d.renewals.amount)}
          href=${`/renewals?from=${d.as_of}&to=${renewalsTo}`}>
          <span class="tile-text"><strong>${integer(d.renewals.count)}</strong> ${d.renewals.count === 1 ? "renewal" : "renewals"} by ${date(renewalsTo)}.</span>
        </${Tile}>
        <${Tile} name="tickets" title="Open tickets" value=${integer(d.tickets.open)} alert=${d.tickets.past_sla > 0}
          href=${d.tickets.past_sla > 0 ? "/tickets?overdue=1" : "/tickets"}
          spark=${spark(d.tickets.series, "Tickets still open at each month's end, last 12 months", integer)}>
          <span class="tile-text"><strong>${integer(d.tickets.past_sla)}</strong> past SLA.</span>
        </${Tile}>
        <${Tile} name="reminders" title="Reminder queue" value=${integer(d.reminders.open)} alert=${d.reminders.failed > 0}
          href=${d.reminders.failed > 0 ? "/reminders?status=failed" : "/reminders"}>
          <span class="tile-text">open; <strong>${integer(d.reminders.failed)}</strong> failed to send.</span>
        </${Tile}>
        <${Tile} name="sms" title="Low SMS balances" value=${integer(d.sms.low)} alert=${d.sms.low > 0} href="/reports/sms-balances">
          <span class="tile-text">below ${integer(d.sms.threshold)} credits.</span>
        </${Tile}>
      </ul>
      <div class="card chart-card">
        <${BarChart} testid="collections-chart" title="Collections against billing, last 12 months"
          labels=${d.months.map(monthShort)}
          series=${[{ name: "Billed", values: d.billed.series, tone: 0 }, { name: "Collected", values: d.collections.series, tone: 1 }]} />
      </div>
      <div class="card chart-card">
        <${HBarChart} testid="pipeline-chart" name="Conversations" title="Open pipeline by stage"
          format=${integer} exact=${integer} minStep=${1}
          note=${`${integer(d.pipeline.enquiries + d.pipeline.open_count)} open conversations`}
          rows=${[
            { label: "Enquiry", value: d.pipeline.enquiries, tone: 0 },
            { label: "Quoted: on track", value: d.pipeline.bands.green, tone: "band-green" },
            { label: "Quoted: follow up", value: d.pipeline.bands.amber, tone: "band-amber" },
            { label: "Quoted: overdue", value: d.pipeline.bands.red, tone: "band-red" },
          ]} />
      </div>`;
  }
  return html`<main data-page="cockpit">
    <${PageHeader} title="Owner cockpit"
      subtitle=${d ? `${monthLabel(d.month)} against ${monthLabel(d.last_month)}, as of ${date(d.as_of)}.` : "This month against last month."}
      actions=${html`<${Link} class="btn" href="/reports">Reports</${Link}>`} />
    ${body}
  </main>`;
}
