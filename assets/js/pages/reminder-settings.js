// The reminder schedule (owner, /settings/reminders): for each kind the days on which the daily
// scan raises a reminder, drawn as a timeline around the day that matters (the renewal, the
// contract's end, the invoice's due date, the day the quotation was sent), and whether quote
// follow-ups wait in the queue or go out by themselves. A save appends a new dated set; the
// earlier sets stay (reminders raised under them keep their rung).
import { html, useState } from "/vendor/preact-htm.js";
import { put } from "../api.js";
import { date } from "../format.js";
import { Card, Notice, Loading, Form, Field, SubmitButton, DateField, useForm, fieldError, toast, useFetch, useTitle, PageHeader, Link } from "../components.js";

// Each ladder: its field in the API, its label, which side of the day it falls on.
const LADDERS = [
  { key: "renewal_due", list: "days_before", label: "Module renewals", anchor: "renewal", before: true },
  { key: "amc_expiring", list: "days_before", label: "Service contracts ending", anchor: "contract ends", before: true },
  { key: "invoice_overdue", list: "days_after", label: "Overdue invoices", anchor: "due date", before: false },
  { key: "quote_followup", list: "day_offsets", label: "Quote follow-ups", anchor: "quotation sent", before: false },
];

const field = (l) => `${l.key}.${l.list}`;
const POLICY = "quote_followup.policy";

/** "30, 7, 1" → [30, 7, 1], or null when it is not a list of whole numbers. */
export function parseDays(text) {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  if (!parts.length || parts.some((p) => !/^\d+$/.test(p))) return null;
  return parts.map(Number);
}

const start = (s) => ({
  effective_from: "",
  [POLICY]: s.quote_followup.policy,
  ...Object.fromEntries(LADDERS.map((l) => [field(l), s[l.key][l.list].join(", ")])),
});

/** One ladder as a line: the day in the middle of its side, a dot and a label per rung. */
export function Timeline({ ladder, days }) {
  const width = 560;
  const pad = 30;
  const far = Math.max(...days, 1);
  const anchorX = ladder.before ? width - pad : pad;
  const x = (d) => (ladder.before ? anchorX - (d / far) * (width - 2 * pad) : anchorX + (d / far) * (width - 2 * pad));
  return html`<svg class="timeline" viewBox=${`0 0 ${width} 56`} role="img" data-testid=${`timeline-${ladder.key}`}
    aria-label=${`${ladder.label}: ${days.map((d) => `${d} ${d === 1 ? "day" : "days"} ${ladder.before ? "before" : "after"}`).join(", ")} the ${ladder.anchor}`}>
    <line x1=${pad} y1="22" x2=${width - pad} y2="22" class="timeline-line" />
    <line x1=${anchorX} y1="10" x2=${anchorX} y2="34" class="timeline-anchor" />
    <text x=${anchorX} y="50" text-anchor=${ladder.before ? "end" : "start"} class="timeline-anchor-label">${ladder.anchor}</text>
    ${days.map((d) => html`<g key=${d} class="timeline-rung" data-day=${d}>
      <circle cx=${x(d)} cy="22" r="6" />
      <text x=${x(d)} y="8" text-anchor="middle">${d === 0 ? "day" : `${d}d`}</text>
    </g>`)}
  </svg>`;
}

function ScheduleForm({ schedule, onSaved }) {
  const form = useForm(start(schedule));
  const v = form.values;
  const onSubmit = form.submit(async (values) => {
    const body = {};
    for (const l of LADDERS) {
      const days = parseDays(values[field(l)]);
      if (!days) throw fieldError(field(l), "Whole numbers of days, separated by commas.");
      body[l.key] = { [l.list]: days };
    }
    body.quote_followup.policy = values[POLICY];
    if (values.effective_from) body.effective_from = values.effective_from;
    // The server checks the whole set (range, repeats) and names every field it refuses.
    const saved = await put("/api/settings/reminders", body);
    form.reset(start(saved));
    onSaved(saved);
    toast.success(`Schedule saved, in force from ${date(saved.effective_from)}.`);
  });
  return html`<${Form} onSubmit=${onSubmit} error=${form.formError} label="Reminder schedule">
    ${LADDERS.map((l) => {
      const days = parseDays(v[field(l)]);
      return html`<div class="ladder" key=${l.key}>
        <${Field} label=${`${l.label}: days ${l.before ? "before" : "after"} the ${l.anchor}`} ...${form.field(field(l))}
          inputMode="numeric" hint="Whole days, separated by commas: a reminder is raised when each is reached." />
        ${days && html`<${Timeline} ladder=${l} days=${[...new Set(days)].sort((a, b) => a - b)} />`}
      </div>`;
    })}
    <div class="form-grid form-grid-narrow">
      <div class="field">
        <label for="policy">Quote follow-ups</label>
        <select id="policy" name=${POLICY} class="control" value=${v[POLICY]} onChange=${(e) => form.set(POLICY, e.currentTarget.value)}>
          <option value="manual">Wait in the queue for someone to send them</option>
          <option value="auto">Send by themselves after the daily scan</option>
        </select>
        ${form.errors[POLICY] && html`<p class="field-error">${form.errors[POLICY]}</p>`}
      </div>
      <${DateField} label="In force from" name="effective_from" value=${v.effective_from} error=${form.errors.effective_from}
        onChange=${(d) => form.set("effective_from", d)} hint="Empty: today. The earlier schedules stay for the days before it." />
    </div>
    <div class="form-actions"><${SubmitButton} saving=${form.saving}>Save schedule</${SubmitButton}></div>
  </${Form}>`;
}

export function ReminderSettingsPage() {
  useTitle("Reminder schedule");
  const { data, error, reload } = useFetch("/api/settings/reminders");
  const [saved, setSaved] = useState(null);
  const s = saved || data;
  let body;
  if (error) body = html`<${Notice} tone="danger" alert=${true}>${error.message} <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`;
  else if (!s) body = html`<${Loading} label="Loading the schedule…" />`;
  else {
    body = html`<${Card} title=${`In force from ${date(s.effective_from)}`} class="section-card">
      <${ScheduleForm} key=${s.effective_from + JSON.stringify(s)} schedule=${s} onSaved=${setSaved} />
    </${Card}>`;
  }
  return html`<main data-page="reminder-settings">
    <${PageHeader} title="Reminder schedule" subtitle=${html`When the daily scan raises reminders. <${Link} href="/settings">All settings</${Link}> · <${Link} href="/reminders">The queue</${Link}>`} />
    ${body}
  </main>`;
}
