// The client's statement of account (issue 35): a period (the server's default, the current financial year to today), the
// rows with their running balance between the opening and the closing, the open invoices' aging, Download PDF / CSV and
// Send by email (to the address given, else the client's).
import { html, useState } from "/vendor/preact-htm.js";
import { post, qs } from "../../api.js";
import { date, humanize, rupees } from "../../format.js";
import { Card, DataTable, DateField, Field, FilterBar, Notice, toast, useFetch } from "../../components.js";
import { WhatsAppDialog } from "../../ui/whatsapp.js";

const enc = encodeURIComponent;
const AGING = ["0-30", "31-60", "61-90", "90+"];
const amount = (v) => (v ? rupees(v) : "");

const columns = [
  { key: "date", label: "Date", render: (r) => date(r.date) },
  { key: "kind", label: "Particulars", class: "break", render: (r) => html`<span class="cell-main">${humanize(r.kind)}</span> ${r.ref}` },
  { key: "debit", label: "Debit", class: "num", render: (r) => amount(r.debit) },
  { key: "credit", label: "Credit", class: "num", render: (r) => amount(r.credit) },
  { key: "balance", label: "Balance", class: "num", render: (r) => rupees(r.balance) },
];

export function StatementSection({ client }) {
  const [period, setPeriod] = useState({ from: "", to: "" });
  const [toEmail, setToEmail] = useState("");
  const [sending, setSending] = useState(false);
  const [chat, setChat] = useState(false);
  const base = `/api/clients/${enc(client.id)}/statement`;
  const { data, error, loading, reload } = useFetch(base, period);
  const s = data && !error ? data : null;
  // Two rows of one payment (its money and its TDS) share every id: the position keys them.
  const rows = s ? s.rows.map((r, i) => ({ ...r, id: String(i) })) : [];
  // Empty fields: the period the server chose shows in them, and the downloads ask for exactly it.
  const shown = s ? { from: s.from, to: s.to } : period;
  const from = period.from || (s ? s.from : "");
  const to = period.to || (s ? s.to : "");
  const send = async (e) => {
    e.preventDefault();
    setSending(true);
    try {
      const answer = await post(`${base}/send`, { ...shown, to_email: toEmail.trim() || undefined });
      if (answer.status === "sent") toast.success(`Statement sent to ${answer.to}.`);
      else toast.error(`The email to ${answer.to} failed: ${answer.error || "the provider refused it"}.`);
    } catch (err) {
      toast.error(err.message || "That did not work. Try again.");
    } finally {
      setSending(false);
    }
  };
  const footer = s && html`<tr class="totals-foot">
    <th scope="row" colspan="2">Totals</th>
    <td class="num">${rupees(s.totals.debit)}</td>
    <td class="num">${rupees(s.totals.credit)}</td>
    <td class="num">${rupees(s.closing)}</td>
  </tr>`;
  const figure = (label, value, testid) => html`<div class="detail"><dt>${label}</dt><dd data-testid=${testid}>${value}</dd></div>`;
  return html`<${Card} title="Statement of account" class="section-card client-statement-card"
    actions=${html`<a class="btn btn-sm" href=${`${base}.pdf${qs(shown)}`} target="_blank" rel="noopener" data-testid="statement-pdf">Download PDF</a>
      <a class="btn btn-sm" href=${`${base}.csv${qs(shown)}`} download data-testid="statement-csv">Download CSV</a>
      <a class="btn btn-sm" href=${`${base}.xlsx${qs(shown)}`} download data-testid="statement-xlsx">Download Excel</a>`}>
    ${chat && s && html`<${WhatsAppDialog} path=${`${base}/whatsapp`} params=${shown} what="the statement of account" onClose=${() => setChat(false)} />`}
    <div data-testid="client-statement">
      <${FilterBar} label="Statement period">
        <${DateField} label="From" name="statement_from" value=${from} onChange=${(d) => setPeriod((p) => ({ ...p, from: d }))} />
        <${DateField} label="To" name="statement_to" value=${to} onChange=${(d) => setPeriod((p) => ({ ...p, to: d }))} />
        ${(period.from || period.to) && html`<div class="filter-clear"><button type="button" class="btn btn-sm"
          onClick=${() => setPeriod({ from: "", to: "" })}>This financial year</button></div>`}
      </${FilterBar}>
      ${error && error.status === 422 && html`<${Notice} tone="warning">${error.message}</${Notice}>`}
      ${s && html`<dl class="details">
        ${figure(`Opening ${date(s.from)}`, rupees(s.opening), "statement-opening")}
        ${figure(`Closing ${date(s.to)}`, html`<strong>${rupees(s.closing)}</strong>`, "statement-closing-amount")}
        ${AGING.map((k) => figure(`${k} days`, rupees(s.aging[k]), `statement-aging-${k}`))}
      </dl>`}
      <div class="table-boxed">
        <${DataTable} caption="Statement rows, oldest first" columns=${columns} rows=${rows}
          loading=${loading} loaded=${!!data || !!error} error=${error && error.status !== 422 ? error : null} onRetry=${reload}
          footer=${footer} empty="Nothing happened in this period." />
      </div>
      <form class="inline-form statement-send" onSubmit=${send} aria-label="Send the statement by email">
        <${Field} label="Email to" name="to_email" type="email" value=${toEmail} hint="Empty: the client's address."
          onInput=${(e) => setToEmail(e.currentTarget.value)} />
        <button type="submit" class="btn" disabled=${sending || !s} aria-busy=${sending ? "true" : undefined}
          data-testid="statement-send">Send by email</button>
        <button type="button" class="btn" disabled=${!s} onClick=${() => setChat(true)} data-testid="statement-whatsapp">WhatsApp</button>
      </form>
    </div>
  </${Card}>`;
}
