// The financial year (1 April to 31 March) wherever the console offers one: the year holding a
// day, its name ("2026-27"), the years to choose from (the month-range reports, number
// continuity, TDS certificates, year-end statements, the Tally export's start); a month typed as
// MM-YYYY, and the range picker of the month-range reports (module revenue, client profitability)
// that keeps `fy` or `from` / `to` in the URL and shows the server's refusal of a range beside
// its inputs.
import { html, useState, useEffect } from "/vendor/preact-htm.js";
import { useId } from "../components.js";
import { monthLabel } from "../format.js";

/** The year whose 1 April starts the financial year holding `d` (January 2027 → 2026). */
export function fyStartYear(d = new Date()) {
  return d.getMonth() >= 3 ? d.getFullYear() : d.getFullYear() - 1;
}

/** 2026 → "2026-27". */
export const fyText = (start) => `${start}-${String((start + 1) % 100).padStart(2, "0")}`;

/** The current financial year and the `back` before it, newest first: [{ value: "2026-27", label }]. */
export function fyChoices(back = 5) {
  const start = fyStartYear();
  return Array.from({ length: back + 1 }, (_, i) => {
    const y = start - i;
    return { value: fyText(y), label: `FY ${fyText(y)} (Apr ${y} – Mar ${y + 1})` };
  });
}

/** "2026-10" of a date, in the browser's calendar (the office's, as it runs in the office). */
export const monthOf = (d) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}`;

/** The `count` months up to the current one, newest first, as YYYY-MM. */
export function recentMonths(count) {
  const now = new Date();
  return Array.from({ length: count }, (_, i) => monthOf(new Date(now.getFullYear(), now.getMonth() - i, 1)));
}

/** "04-2026", "4/2026", "2026-04" → "2026-04"; anything else → null. */
export function parseMonth(text) {
  const t = String(text || "").trim();
  let m = /^(\d{1,2})[-/.](\d{4})$/.exec(t);
  if (m) return Number(m[1]) >= 1 && Number(m[1]) <= 12 ? `${m[2]}-${m[1].padStart(2, "0")}` : null;
  m = /^(\d{4})-(\d{2})$/.exec(t);
  if (m) return Number(m[2]) >= 1 && Number(m[2]) <= 12 ? t : null;
  return null;
}

/** "2026-04" → "04-2026" (how a month is typed). */
const monthText = (ym) => {
  const m = /^(\d{4})-(\d{2})$/.exec(String(ym || ""));
  return m ? `${m[2]}-${m[1]}` : String(ym || "");
};

/**
 * A month typed as MM-YYYY, committed on leaving the field or Enter (YYYY-MM to `onChange`);
 * text that is not a month stays with its message and is not sent. `error`: the server's;
 * `placeholder`: the month the server reads while the field is empty (YYYY-MM).
 */
function MonthField({ label, name, value, onChange, error, placeholder }) {
  const id = useId("m-");
  const [text, setText] = useState(monthText(value));
  const [bad, setBad] = useState(false);
  useEffect(() => {
    setText(monthText(value));
    setBad(false);
  }, [value]);
  const commit = (e) => {
    const raw = e && e.currentTarget ? e.currentTarget.value : text;
    const t = raw.trim();
    if (t === "") {
      setBad(false);
      if (value) onChange("");
      return;
    }
    const ym = parseMonth(t);
    setBad(!ym);
    if (ym && ym !== value) onChange(ym);
  };
  const shown = bad ? "Write the month as MM-YYYY, e.g. 04-2026." : error;
  return html`<div class=${`field month-field${shown ? " has-error" : ""}`}>
    <label for=${id}>${label}</label>
    <input id=${id} class="control" name=${name} value=${text} placeholder=${placeholder ? monthText(placeholder) : "MM-YYYY"} inputmode="numeric" autocomplete="off"
      aria-invalid=${shown ? "true" : undefined} aria-describedby=${shown ? `${id}-e` : undefined}
      onInput=${(e) => setText(e.currentTarget.value)} onChange=${commit}
      onKeyDown=${(e) => { if (e.key === "Enter") { e.preventDefault(); commit(e); } }} />
    ${shown && html`<p class="field-error" id=${`${id}-e`} role=${error && !bad ? "alert" : undefined} data-testid="month-error">${shown}</p>`}
  </div>`;
}

/**
 * The period of a month-range report, in the URL: a financial year (`fy`), or custom months
 * (`from`, `to`, either may be empty: the server's default), or nothing (the current financial
 * year so far). `data` is the last answer (its `from` / `to` show in empty month fields); a 400
 * `error` shows beside the field it names (`[data-testid=range-error]`).
 */
export function RangePicker({ query, setQuery, data, error }) {
  const id = useId("fy-");
  const [custom, setCustom] = useState(!!(query.from || query.to));
  const isCustom = custom || !!(query.from || query.to);
  const value = query.fy || (isCustom ? "custom" : "");
  const refused = error && error.status === 400 ? error : null;
  const choose = (v) => {
    if (v === "custom") {
      setCustom(true);
      // Start from the months shown, so that the figures do not change until a month does.
      if (data && data.from && data.to) setQuery({ fy: "", from: data.from, to: data.to });
      else setQuery({ fy: "" });
    } else {
      setCustom(false);
      setQuery({ fy: v, from: "", to: "" });
    }
  };
  const monthsShown = isCustom && !query.fy;
  const monthError = (field) => (refused && refused.field === field ? refused.message : null);
  // A refusal naming a month field shows under it; any other beside the inputs.
  const beside = refused && !(monthsShown && ["from", "to"].includes(refused.field));
  const span = data && data.from && data.to && !refused ? `${monthLabel(data.from)} to ${monthLabel(data.to)}` : "";
  return html`<div class="range-picker">
    <div class=${`field${refused && refused.field === "fy" ? " has-error" : ""}`}>
      <label for=${id}>Period</label>
      <select id=${id} name="fy" class="control" value=${value} onChange=${(e) => choose(e.currentTarget.value)}>
        <option value="">This financial year so far</option>
        ${fyChoices().map((o) => html`<option value=${o.value}>${o.label}</option>`)}
        <option value="custom">Months…</option>
      </select>
    </div>
    ${monthsShown && html`
      <${MonthField} label="From month" name="from" value=${query.from || ""} placeholder=${data && data.from} error=${monthError("from")}
        onChange=${(from) => setQuery({ fy: "", from })} />
      <${MonthField} label="To month" name="to" value=${query.to || ""} placeholder=${data && data.to} error=${monthError("to")}
        onChange=${(to) => setQuery({ fy: "", to })} />`}
    ${beside && html`<p class="field-error range-error" role="alert" data-testid="range-error" data-field=${refused.field || ""}>${refused.message}</p>`}
    ${span && html`<p class="range-span" data-testid="range-span">${span}</p>`}
  </div>`;
}
