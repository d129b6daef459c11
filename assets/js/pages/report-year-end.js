// The year-end statements (/reports/year-end-statements, owner and manager): every client whose statement for the
// financial year closes with something owed, then "Send all": each statement by email in turn with the progress shown,
// and at the end who could not be reached (no address, or the send failed). A client already sent its statement today
// is skipped, here and by the server (409 already_sent), so running it again the same day sends nothing twice.
import { html, useState } from "/vendor/preact-htm.js";
import { post, qs } from "../api.js";
import { date, rupees } from "../format.js";
import { DataTable, FilterBar, FilterSelect, Notice, Progress, useFetch, useTitle, PageHeader, Link } from "../components.js";
import { fyChoices } from "../ui/periods.js";

const enc = encodeURIComponent;

/** The last six financial years, this one first, each named as "2026-27". */
const yearChoices = () => fyChoices(5).map((o) => ({ value: o.value, label: o.value }));

export function YearEndStatementsPage() {
  useTitle("Year-end statements");
  const years = yearChoices();
  const [fy, setFy] = useState(years[0].value);
  const { data, error, loading, reload } = useFetch("/api/statements/year-end", { fy });
  const [run, setRun] = useState(null);
  const rows = (data && data.rows) || [];
  const running = run && !run.finished;

  const sendAll = async () => {
    const state = { done: 0, total: rows.length, sent: 0, skipped: 0, unreachable: [], finished: false };
    setRun({ ...state });
    for (const r of rows) {
      if (r.sent_today) {
        state.skipped += 1;
      } else if (!r.email) {
        state.unreachable.push({ ...r, reason: "No email address for the client or its contacts." });
      } else {
        try {
          const answer = await post(`/api/clients/${enc(r.client_id)}/statement/send`, { from: data.from, to: data.to });
          if (answer.status === "sent") state.sent += 1;
          else state.unreachable.push({ ...r, reason: answer.error || "The mail provider refused it." });
        } catch (err) {
          if (err.code === "already_sent") state.skipped += 1;
          else state.unreachable.push({ ...r, reason: err.message });
        }
      }
      state.done += 1;
      setRun({ ...state, unreachable: [...state.unreachable] });
    }
    setRun({ ...state, unreachable: [...state.unreachable], finished: true });
    reload();
  };

  const columns = [
    { key: "client_name", label: "Client", render: (r) => html`<${Link} class="cell-main" href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>` },
    { key: "closing", label: "Closing", class: "num", render: (r) => rupees(r.closing) },
    { key: "email", label: "Sent to", class: "break", render: (r) => r.email || html`<span class="muted">No address</span>` },
    { key: "sent_today", label: "Today", render: (r) => (r.sent_today ? "Sent" : "") },
  ];
  return html`<main data-page="year-end-statements">
    <p class="crumbs"><${Link} href="/reports">← Reports</${Link}></p>
    <${PageHeader} title="Year-end statements"
      subtitle=${data ? `Every client owing something on ${date(data.to)}, its statement from ${date(data.from)}.` : "Every client owing something at the year's end."}
      actions=${html`<a class="btn" href=${`/api/statements/year-end.csv${qs({ fy })}`} download data-testid="year-end-csv">Download CSV</a>
        <a class="btn" href=${`/api/statements/year-end.xlsx${qs({ fy })}`} download data-testid="year-end-xlsx">Download Excel</a>
        <button type="button" class="btn btn-primary" data-testid="year-end-send" disabled=${!data || running || rows.length === 0}
        onClick=${sendAll}>Send all by email</button>`} />
    <${FilterBar} label="Financial year">
      <${FilterSelect} label="Financial year" name="fy" value=${fy} options=${years} onChange=${(v) => { setFy(v); setRun(null); }} />
    </${FilterBar}>
    ${run && html`<div data-testid="year-end-progress">
      <${Progress} value=${run.done} max=${run.total} label=${`${run.done} of ${run.total}`} />
      <p>${run.done} of ${run.total}: ${run.sent} sent, ${run.skipped} already sent today, ${run.unreachable.length} not reached.</p>
    </div>`}
    ${run && run.finished && run.unreachable.length > 0 && html`<${Notice} tone="warning">
      <p>Could not be reached:</p>
      <ul data-testid="year-end-unreachable">${run.unreachable.map((u) => html`<li>${u.client_name}: ${u.reason}</li>`)}</ul>
    </${Notice}>`}
    <div class="report-table">
      <${DataTable} caption="Clients owing at the year's end" columns=${columns} rows=${rows} rowKey="client_id"
        loading=${loading} loaded=${!!data || !!error} error=${error} onRetry=${reload} empty="No client owes anything." />
    </div>
  </main>`;
}
