// Background jobs (owner, /jobs): what the server does by itself every six hours, each job's
// last run, its last error and its next run, and "Run now" (the daily scan may be run for
// another day, to catch up or to try a schedule). A run answers when it is done, with its counts.
import { html, useState } from "/vendor/preact-htm.js";
import { post } from "../api.js";
import { date, dateTime, humanize } from "../format.js";
import { Card, Notice, Loading, Badge, DateField, Spinner, toast, useFetch, useTitle, PageHeader, Link } from "../components.js";

const ABOUT = {
  daily_scan: "Reads bounced mail and raises the day's reminders (renewals, contracts ending, overdue invoices, quote follow-ups, follow-ups). Run now, it also sends the quote follow-ups set to go by themselves.",
  recurring_generation: "Issues the invoices of recurring plans that are due; a plan that fails is parked with its reason.",
  auto_send_drain: "Sends the reminders set to go by themselves (quote follow-ups with the auto policy), after the scan and the recurring invoices; a send that fails is marked failed with its reason and waits for a person.",
  cloud_cost_pull: "Pulls the month before the day's month from the cloud-cost provider, once a month: a month already pulled is not asked again, and with no provider set it does nothing.",
  sms_balance_pass: "Asks the SMS gateway for every SMS subscription's balance (eight at a time); an answer that is an error or makes no sense flags the subscription and keeps its last balance. The day does not matter to it.",
};
const TONES = { ok: "success", failed: "danger", running: "info" };

function counts(result) {
  if (!result || typeof result !== "object") return "";
  const parts = [];
  if (result.created) {
    const made = Object.entries(result.created).filter(([, n]) => n > 0);
    parts.push(made.length ? `raised ${made.map(([k, n]) => `${n} ${humanize(k).toLowerCase()}`).join(", ")}` : "raised nothing new");
    parts.push(`sent ${result.sent}, failed ${result.failed}`);
  } else if ("sent" in result && "failed" in result) {
    parts.push(`sent ${result.sent}, failed ${result.failed}`);
  }
  if (typeof result.skipped === "string") parts.push(`skipped: ${result.skipped}`);
  for (const k of ["generated", "parked", "skipped", "total", "written", "updated", "unchanged", "flagged"]) {
    if (k in result && typeof result[k] !== "string") parts.push(`${k} ${Array.isArray(result[k]) ? result[k].length : result[k]}`);
  }
  return parts.join("; ");
}

function JobCard({ job, onRan }) {
  const [asOf, setAsOf] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState(null);
  const run = async () => {
    setBusy(true);
    setResult(null);
    try {
      const body = asOf ? { as_of: asOf } : {};
      const answer = await post(`/api/jobs/${encodeURIComponent(job.job)}/run`, body);
      setResult({ ok: true, text: counts(answer), answer });
      toast.success(`${humanize(job.job)} done.`);
    } catch (e) {
      setResult({ ok: false, text: e.message });
    } finally {
      setBusy(false);
      onRan();
    }
  };
  const warnings = (result && result.answer && result.answer.warnings) || [];
  return html`<${Card} title=${humanize(job.job)} class="section-card">
    <div data-testid=${`job-${job.job}`} data-outcome=${job.last_outcome || ""}>
      <p class="hint">${ABOUT[job.job] || ""}</p>
      <dl class="details">
        <div class="detail"><dt>Last run</dt><dd>${job.last_started ? html`${dateTime(job.last_started)}${job.last_as_of && html` <span class="muted">for ${date(job.last_as_of)}</span>`}` : "Never"}</dd></div>
        <div class="detail"><dt>Outcome</dt><dd>${job.last_outcome ? html`<${Badge} tone=${TONES[job.last_outcome] || "neutral"}>${humanize(job.last_outcome)}</${Badge}>` : "—"}</dd></div>
        <div class="detail"><dt>Next run</dt><dd>${dateTime(job.next_run)}</dd></div>
      </dl>
      ${job.last_error && html`<${Notice} tone="danger" title="Last error" testid="job-error">${job.last_error}</${Notice}>`}
      ${job.run_now && html`<div class="inline-form">
        ${job.job !== "sms_balance_pass" && html`<${DateField} label="For the day" name="as_of" value=${asOf} onChange=${setAsOf} optional hint="Empty: today." />`}
        <button type="button" class="btn btn-primary" disabled=${busy} onClick=${run}>${busy ? "Running…" : "Run now"}</button>
        ${busy && html`<${Spinner} small=${true} label="Running the job…" showLabel=${true} />`}
      </div>`}
      ${result && html`<${Notice} tone=${result.ok ? "success" : "danger"} alert=${!result.ok} testid="job-result">${result.text}</${Notice}>`}
      ${warnings.map((w) => html`<${Notice} tone="warning">${w.message}</${Notice}>`)}
    </div>
  </${Card}>`;
}

export function JobsPage() {
  useTitle("Background jobs");
  const { data, error, reload } = useFetch("/api/jobs");
  let body;
  if (error) body = html`<${Notice} tone="danger" alert=${true}>${error.message} <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`;
  else if (!data) body = html`<${Loading} label="Loading the jobs…" />`;
  else body = html`<div class="settings-grid">${data.rows.map((j) => html`<${JobCard} key=${j.job} job=${j} onRan=${reload} />`)}</div>`;
  return html`<main data-page="jobs">
    <${PageHeader} title="Background jobs"
      subtitle=${html`The server runs these at 00:15, 06:15, 12:15 and 18:15 office time, each once a day. <${Link} href="/settings/reminders">Reminder schedule</${Link}>`} />
    ${body}
  </main>`;
}
