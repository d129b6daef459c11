// Client profitability (/reports/client-profitability): per client over a period, what was
// billed (before GST), collected (GST included) and what its cloud server cost, the margin
// (billed less cost) and its share of billed; sortable and paged, with the totals of every
// client. Above it the ten best and ten worst margins as horizontal bars (a loss left of zero).
import { html } from "/vendor/preact-htm.js";
import { rupees, monthLabel } from "../format.js";
import { DataTable, EmptyState, FilterBar, SearchBox, useFetch, useUrlList, useTitle, PageHeader, Link } from "../components.js";
import { HBarChart } from "../ui/charts.js";
import { RangePicker } from "../ui/periods.js";

const enc = encodeURIComponent;
const RANGE_KEYS = ["fy", "from", "to"];
const SIDE = 10;

const money = (v) => html`<span class=${v < 0 ? "negative" : ""}>${rupees(v)}</span>`;
const pct = (p) => (p === null || p === undefined ? html`<span class="muted" title="Nothing billed">—</span>`
  : html`<span class=${p < 0 ? "negative" : ""}>${p.toFixed(1)}%</span>`);

/**
 * The chart's rows: the best margins and the worst, each client once, best first; a divider
 * between them when clients lie in between.
 */
export function rankRows(top, bottom, total) {
  const seen = new Set(top.map((r) => r.client_id));
  const tail = bottom.filter((r) => !seen.has(r.client_id)).reverse();
  const row = (r) => ({ label: r.client_name, value: r.margin, tone: r.margin < 0 ? "loss" : 0 });
  const between = total - top.length - tail.length;
  return [...top.map(row), ...(between > 0 ? [{ gap: `${between} more ${between === 1 ? "client" : "clients"} in between` }] : []), ...tail.map(row)];
}

function MarginChart({ range, total }) {
  // Up to twice SIDE clients: every one from the first answer; more: the best SIDE of it and the
  // worst SIDE from a second.
  const many = total > SIDE * 2;
  const top = useFetch("/api/reports/client-profitability", { ...range, sort: "-margin", per_page: SIDE * 2 });
  const bottom = useFetch(many ? "/api/reports/client-profitability" : null, { ...range, sort: "margin", per_page: SIDE });
  if (!top.data || top.error || total === 0 || (many && (!bottom.data || bottom.error))) return null;
  const rows = many ? rankRows(top.data.rows.slice(0, SIDE), bottom.data.rows, top.data.total) : rankRows(top.data.rows, [], top.data.total);
  return html`<div class="card chart-card">
    <${HBarChart} testid="profitability-chart" name="Margin"
      title=${many ? `Margin: the ${SIDE} best and the ${SIDE} worst clients` : "Margin by client"}
      note=${`${monthLabel(top.data.from)} to ${monthLabel(top.data.to)}; billed before GST less cloud cost`}
      rows=${rows} />
  </div>`;
}

export function ClientProfitabilityPage() {
  useTitle("Client profitability");
  const list = useUrlList("/api/reports/client-profitability", [...RANGE_KEYS, "q"], { csv: true });
  const { query, setQuery, data, error } = list;
  const refused = error && error.status === 400;
  // The chart follows the list: its period and its client filter.
  const range = { ...(query.fy ? { fy: query.fy } : { from: query.from || "", to: query.to || "" }), ...(query.q ? { q: query.q } : {}) };
  const ok = data && !error;
  const columns = [
    { key: "client_name", label: "Client", sortable: true, wrap: true, render: (r) => html`<${Link} class="cell-main" href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>` },
    { key: "billed", label: "Billed (before GST)", sortable: true, class: "num", render: (r) => money(r.billed) },
    { key: "collected", label: "Collected", sortable: true, class: "num", render: (r) => money(r.collected) },
    { key: "cost", label: "Cloud cost", sortable: true, class: "num", render: (r) => money(r.cost) },
    { key: "margin", label: "Margin", sortable: true, class: "num", render: (r) => html`<strong>${money(r.margin)}</strong>` },
    { key: "margin_pct", label: "Margin %", sortable: true, class: "num", render: (r) => pct(r.margin_pct) },
  ];
  const t = ok && data.totals;
  const footer = t && html`<tr class="totals-foot" data-testid="profitability-totals">
    <th scope="row">Total (${data.total} ${data.total === 1 ? "client" : "clients"})</th>
    <td class="num">${money(t.billed)}</td><td class="num">${money(t.collected)}</td><td class="num">${money(t.cost)}</td>
    <td class="num">${money(t.margin)}</td><td class="num">${pct(t.margin_pct)}</td>
  </tr>`;
  const period = ok ? `${monthLabel(data.from)} to ${monthLabel(data.to)}` : "";
  return html`<main data-page="client-profitability">
    <p class="crumbs"><${Link} href="/reports">← Reports</${Link}></p>
    <${PageHeader} title="Client profitability"
      subtitle="Per client over a period: billed (issued invoices less credit notes, before GST), collected (payments, GST included), cloud cost, and the margin: billed less cost."
      actions=${html`<${Link} class="btn" href="/reports/module-revenue">Module revenue</${Link}>`} />
    <${FilterBar} label="Period">
      <${RangePicker} query=${query} setQuery=${setQuery} data=${data} error=${error} />
      <${SearchBox} value=${query.q || ""} label="Client" placeholder="Part of a client's name…" onSearch=${(q) => setQuery({ q }, { replace: true })} />
    </${FilterBar}>
    ${ok && html`<${MarginChart} key=${JSON.stringify(range)} range=${range} total=${data.total} />`}
    <div data-testid="profitability-table" class="report-table">
      <${DataTable} caption=${`Client profitability, ${period}`} columns=${columns} ...${list.tableProps}
        rows=${ok ? list.rows : []} error=${refused ? null : error} rowKey="client_id"
        rowAttrs=${(r) => ({ "data-id": r.client_id, "data-loss": r.margin < 0 ? "true" : undefined })} footer=${footer}
        empty=${html`<${EmptyState} title=${refused ? "Choose a period the report can read." : "No client was billed, paid or cost anything in this period."} />`} />
    </div>
    ${ok && data.total > 0 && html`<p class="hint report-note">The totals are over every client of the period, on all pages. Margin % is of billed; “—” where nothing was billed.</p>`}
  </main>`;
}
