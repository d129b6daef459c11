// Module revenue (/reports/module-revenue): what each module billed per month over a period
// (invoice lines naming a module, credit notes subtracted; before GST), the largest first, with
// the totals per month. A stacked bar chart of the top modules above the table; the CSV of the
// same period. The period is a financial year or a range of months (ui/periods.js).
import { html } from "/vendor/preact-htm.js";
import { qs } from "../api.js";
import { rupees, monthLabel } from "../format.js";
import { DataTable, EmptyState, FilterBar, useFetch, useQuery, useTitle, PageHeader, Link, xlsxHref } from "../components.js";
import { BarChart, monthShort } from "../ui/charts.js";
import { RangePicker } from "../ui/periods.js";
import { moduleUrl } from "../ui/modules.js";

/** Modules drawn on their own; the rest are summed as "Other modules". */
const TOP = 5;

const money = (v) => (v ? html`<span class=${v < 0 ? "negative" : ""}>${rupees(v)}</span>` : html`<span class="muted">—</span>`);

/** The chart's series: the top modules by total, then the others as one. */
export function chartSeries(rows) {
  const top = rows.slice(0, rows.length > TOP + 1 ? TOP : TOP + 1);
  const rest = rows.slice(top.length);
  const series = top.map((r, k) => ({ name: r.name, values: r.months, tone: k }));
  if (rest.length) {
    series.push({
      name: `Other modules (${rest.length})`,
      values: rest[0].months.map((_, i) => rest.reduce((s, r) => s + r.months[i], 0)),
      tone: "other",
    });
  }
  return series;
}

export function ModuleRevenuePage() {
  useTitle("Module revenue");
  const [query, setQuery] = useQuery();
  const params = query.fy ? { fy: query.fy } : { from: query.from || "", to: query.to || "" };
  const { data, error, loading, reload } = useFetch("/api/reports/module-revenue", params);
  const refused = error && error.status === 400;
  const ok = data && !error;
  const months = ok ? data.months : [];
  const rows = ok ? data.rows : [];
  const columns = [
    {
      key: "name", label: "Module", wrap: true,
      render: (r) => html`<${Link} class="cell-main" href=${moduleUrl(r.module_id)}>${r.name}</${Link}> <span class="cell-sub mono-ish">${r.code}</span>`,
    },
    ...months.map((m, i) => ({ key: `m${i}`, label: monthShort(m), class: "num", render: (r) => money(r.months[i]) })),
    { key: "total", label: "Total", class: "num", render: (r) => html`<strong>${money(r.total)}</strong>` },
  ];
  const footer = ok && html`<tr class="totals-foot" data-testid="module-revenue-totals">
    <th scope="row">Total</th>
    ${data.totals.map((t, i) => html`<td class="num" data-label=${monthShort(months[i])}>${money(t)}</td>`)}
    <td class="num" data-label="Total">${money(data.total)}</td>
  </tr>`;
  const csv = `/api/reports/module-revenue.csv${qs(ok ? { from: data.from, to: data.to } : params)}`;
  const period = ok ? `${monthLabel(data.from)} to ${monthLabel(data.to)}` : "";
  return html`<main data-page="module-revenue">
    <p class="crumbs"><${Link} href="/reports">← Reports</${Link}></p>
    <${PageHeader} title="Module revenue"
      subtitle="What each module billed per month, before GST: issued invoice lines naming the module, credit notes subtracted."
      actions=${html`<a class="btn" href=${csv} download data-testid="csv-link">Download CSV</a><a class="btn" href=${xlsxHref(csv)} download data-testid="xlsx-link">Download Excel</a><${Link} class="btn" href="/reports/client-profitability">Client profitability</${Link}>`} />
    <${FilterBar} label="Period">
      <${RangePicker} query=${query} setQuery=${setQuery} data=${data} error=${error} />
    </${FilterBar}>
    ${ok && rows.length > 0 && html`<div class="card chart-card">
      <${BarChart} testid="module-revenue-chart" stacked=${true} title=${`Module revenue by month, ${period}`}
        note=${rows.length > TOP + 1 ? `the ${TOP} largest modules, the rest together` : ""}
        labels=${months.map(monthShort)} series=${chartSeries(rows)} />
    </div>`}
    <div data-testid="module-revenue-table" class=${`report-table${months.length > 6 ? " month-grid" : ""}`}>
      <${DataTable} caption=${`Module revenue, ${period}`} columns=${columns} rows=${rows} rowKey="module_id"
        rowAttrs=${(r) => ({ "data-id": r.module_id, "data-code": r.code })} loading=${loading} loaded=${!!data || !!error}
        error=${refused ? null : error} onRetry=${reload} footer=${footer}
        empty=${html`<${EmptyState} title=${refused ? "Choose a period the report can read." : "No module was billed in this period."}>
          ${!refused && "Only invoice lines that name a module count here."}</${EmptyState}>`} />
    </div>
  </main>`;
}
