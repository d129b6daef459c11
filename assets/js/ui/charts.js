// Small charts in plain SVG (no library): vertical bars (one or two series side by side, or
// stacked), horizontal bars (rankings, buckets; negatives left of zero) and a sparkline for a
// tile. Each scales with its `viewBox`, is styled by classes in /app.css (the CSP forbids style
// attributes), names itself with a <title>, and carries its figures in a visually hidden table
// for screen readers (and in a <title> per bar, the tooltip on hover).
//
// Every data bar is a `rect.bar` (`data-series`, `data-label`, `data-value`); background and
// zero lines are not, so `svg rect.bar` counts the figures drawn.
import { html } from "/vendor/preact-htm.js";
import { groupIndian, integer, rupees } from "../format.js";
import { useId } from "./forms.js";

/** Paise → a short rupee figure for an axis: ₹0, ₹500, ₹45,000, ₹2.5 L, ₹1.2 Cr (Indian units). */
export function rupeesCompact(paise) {
  const r = Math.round(Number(paise) / 100);
  const sign = r < 0 ? "-" : "";
  const a = Math.abs(r);
  const short = (n, unit) => `${sign}₹${parseFloat(n.toFixed(n < 10 ? 2 : 1))} ${unit}`;
  if (a >= 1e7) return short(a / 1e7, "Cr");
  if (a >= 1e5) return short(a / 1e5, "L");
  return `${sign}₹${groupIndian(String(a))}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-05" → "May 26" (an axis label). */
export function monthShort(ym) {
  const m = /^(\d{4})-(\d{2})$/.exec(String(ym || ""));
  return m && MONTHS[Number(m[2]) - 1] ? `${MONTHS[Number(m[2]) - 1]} ${m[1].slice(2)}` : String(ym || "");
}

/**
 * Round tick values covering [lo, hi] (lo ≤ 0 ≤ hi), about `count` steps of 1, 2, 2.5 or 5 × 10ⁿ,
 * none smaller than `minStep` (₹1 for paise, 1 for counts).
 */
export function ticks(lo, hi, count = 4, minStep = 0) {
  if (lo === hi) hi = lo + 1;
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(minStep, [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw));
  const out = [];
  for (let v = Math.floor(lo / step) * step; v < hi + step / 2; v += step) out.push(Math.round(v * 1e6) / 1e6);
  if (out[out.length - 1] < hi) out.push(out[out.length - 1] + step);
  return out;
}

/** The range the axis spans: always holds zero, rounded out to ticks. */
function domain(values, count, minStep) {
  const lo = Math.min(0, ...values);
  const hi = Math.max(0, ...values);
  const t = ticks(lo, hi === lo ? lo + minStep * count : hi, count, minStep);
  return { lo: t[0], hi: t[t.length - 1], ticks: t };
}

/** The figures of a chart as a table only screen readers see (and print hides). */
function DataTableHidden({ id, caption, labels, series, exact }) {
  return html`<div class="sr-only"><table class="sr-only chart-data" id=${id}>
    <caption>${caption}</caption>
    <thead><tr><th scope="col">${series.length > 1 ? "" : "Item"}</th>${series.map((s) => html`<th scope="col">${s.name}</th>`)}</tr></thead>
    <tbody>
      ${labels.map((l, i) => html`<tr><th scope="row">${l}</th>${series.map((s) => html`<td>${exact(s.values[i])}</td>`)}</tr>`)}
    </tbody>
  </table></div>`;
}

/** The series' names with their colours, under a chart of more than one series. */
function Legend({ series }) {
  if (series.length < 2) return null;
  return html`<ul class="chart-legend">
    ${series.map((s, k) => html`<li><span class=${`swatch series-${s.tone ?? k}`} aria-hidden="true"></span>${s.name}</li>`)}
  </ul>`;
}

/** A figure: the caption (the chart's name, shown), the SVG, the legend and the hidden table. */
function Figure({ testid, title, note, wide, children, legend, table }) {
  return html`<figure class=${`chart${wide ? " chart-wide" : ""}`} data-testid=${testid}>
    <figcaption class="chart-title">${title}${note && html` <span class="chart-note">${note}</span>`}</figcaption>
    <div class="chart-box">${children}</div>
    ${legend}
    ${table}
  </figure>`;
}

const W = 640;

/**
 * Vertical bars per label: one series, two side by side (e.g. collections against billing), or
 * `stacked` (positives up from zero, negatives down; a zero part draws nothing).
 * Props: title, labels ([text]), series ([{ name, values: [number], tone? }]), format (axis,
 * default rupeesCompact), exact (bar titles and the table, default rupees), minStep (the
 * smallest axis step: 100 paise; 1 for counts), height (viewBox units), note, testid, stacked.
 */
export function BarChart({ title, labels, series, format = rupeesCompact, exact = rupees, minStep = 100, height = 260, note, testid, stacked = false }) {
  const id = useId("chart-");
  const left = 76;
  const right = 10;
  const top = 14;
  const bottom = 30;
  const plotW = W - left - right;
  const plotH = height - top - bottom;
  const n = Math.max(1, labels.length);
  let extent = [];
  if (stacked) {
    labels.forEach((_, i) => {
      let up = 0;
      let down = 0;
      for (const s of series) {
        const v = s.values[i] || 0;
        if (v > 0) up += v;
        else down += v;
      }
      extent.push(up, down);
    });
  } else {
    extent = series.flatMap((s) => s.values.map((v) => v || 0));
  }
  const d = domain(extent, 4, minStep);
  const y = (v) => top + ((d.hi - v) / (d.hi - d.lo)) * plotH;
  const band = plotW / n;
  const inner = Math.min(band * 0.72, 64);
  const each = stacked ? inner : inner / Math.max(1, series.length);
  const every = Math.ceil(n / 12);
  const bars = [];
  labels.forEach((label, i) => {
    const x0 = left + band * i + (band - inner) / 2;
    let up = 0;
    let down = 0;
    series.forEach((s, k) => {
      const v = s.values[i] || 0;
      if (stacked && v === 0) return;
      let from = 0;
      if (stacked) {
        from = v > 0 ? up : down;
        if (v > 0) up += v;
        else down += v;
      }
      const a = y(from);
      const b = y(from + v);
      const x = stacked ? x0 : x0 + each * k;
      bars.push(html`<rect class=${`bar series-${s.tone ?? k}${v < 0 ? " bar-negative" : ""}`} x=${x.toFixed(1)} y=${Math.min(a, b).toFixed(1)}
        width=${Math.max(1, each - (stacked ? 0 : 2)).toFixed(1)} height=${Math.abs(b - a).toFixed(1)}
        data-series=${s.name} data-label=${label} data-value=${v}><title>${`${label}, ${s.name}: ${exact(v)}`}</title></rect>`);
    });
  });
  const svg = html`<svg class="chart-svg" viewBox=${`0 0 ${W} ${height}`} role="img" aria-labelledby=${`${id}-t`} aria-describedby=${`${id}-d`}>
    <title id=${`${id}-t`}>${title}</title>
    ${d.ticks.map((t) => html`<g class=${t === 0 ? "axis-zero" : "grid"}>
      <line x1=${left} x2=${W - right} y1=${y(t).toFixed(1)} y2=${y(t).toFixed(1)} />
      <text class="axis-label" x=${left - 6} y=${(y(t) + 4).toFixed(1)} text-anchor="end">${format(t)}</text>
    </g>`)}
    ${bars}
    ${labels.map((l, i) => (i % every === 0
      ? html`<text class="axis-label" x=${(left + band * i + band / 2).toFixed(1)} y=${height - 10} text-anchor="middle">${l}</text>`
      : null))}
  </svg>`;
  return html`<${Figure} testid=${testid} title=${title} note=${note} wide=${n > 6}
    legend=${html`<${Legend} series=${series} />`}
    table=${html`<${DataTableHidden} id=${`${id}-d`} caption=${title} labels=${labels} series=${series} exact=${exact} />`}>${svg}</${Figure}>`;
}

const clip = (text, max) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Horizontal bars, one per row, largest first as given: rankings and buckets. A negative value
 * is drawn left of the zero line (and in red). A row `{ gap: "…" }` draws a dashed divider with
 * that text (e.g. between the top and the bottom of a ranking).
 * Props: title, rows ([{ label, value, tone? }]), name (the figure's name in the table),
 * format, exact, minStep, note, testid.
 */
export function HBarChart({ title, rows, name = "Amount", format = rupeesCompact, exact = rupees, minStep = 100, note, testid }) {
  const id = useId("chart-");
  const labelW = 196;
  const valueW = 104;
  const rowH = 28;
  const top = 8;
  const plotL = labelW + 8;
  const plotR = W - valueW - 8;
  const data = rows.filter((r) => !r.gap);
  const d = domain(data.map((r) => r.value || 0), 3, minStep);
  const x = (v) => plotL + ((v - d.lo) / (d.hi - d.lo)) * (plotR - plotL);
  const height = top * 2 + rows.length * rowH + 18;
  const svg = html`<svg class="chart-svg" viewBox=${`0 0 ${W} ${height}`} role="img" aria-labelledby=${`${id}-t`} aria-describedby=${`${id}-d`}>
    <title id=${`${id}-t`}>${title}</title>
    ${d.ticks.map((t) => html`<g class=${t === 0 ? "axis-zero" : "grid"}>
      <line x1=${x(t).toFixed(1)} x2=${x(t).toFixed(1)} y1=${top} y2=${height - 18} />
      <text class="axis-label" x=${x(t).toFixed(1)} y=${height - 4} text-anchor="middle">${format(t)}</text>
    </g>`)}
    ${rows.map((r, i) => {
      const mid = top + rowH * i + rowH / 2;
      if (r.gap) {
        return html`<g class="chart-gap"><line x1="0" x2=${W} y1=${mid} y2=${mid} />
          <text class="axis-label" x=${plotL} y=${mid - 4}>${r.gap}</text></g>`;
      }
      const v = r.value || 0;
      const a = x(0);
      const b = x(v);
      return html`<g>
        <text class="bar-label" x=${labelW} y=${mid + 4} text-anchor="end">${clip(r.label, 24)}<title>${r.label}</title></text>
        <rect class=${`bar series-${r.tone ?? 0}${v < 0 ? " bar-negative" : ""}`} x=${Math.min(a, b).toFixed(1)} y=${mid - 9}
          width=${Math.abs(b - a).toFixed(1)} height="18" data-label=${r.label} data-value=${v}><title>${`${r.label}: ${exact(v)}`}</title></rect>
        <text class=${`bar-value${v < 0 ? " negative" : ""}`} x=${W - 4} y=${mid + 4} text-anchor="end">${format(v)}</text>
      </g>`;
    })}
  </svg>`;
  return html`<${Figure} testid=${testid} title=${title} note=${note}
    table=${html`<${DataTableHidden} id=${`${id}-d`} caption=${title} labels=${data.map((r) => r.label)}
      series=${[{ name, values: data.map((r) => r.value) }]} exact=${exact} />`}>${svg}</${Figure}>`;
}

/**
 * A tiny line of a series for a tile (no axes): the last point marked. Props: values, labels
 * (for the text read out), title ("Billed, last 12 months"), exact (default rupees).
 */
export function Sparkline({ values, labels = [], title, exact = rupees }) {
  const id = useId("spark-");
  const w = 120;
  const h = 32;
  const vs = values.map((v) => v || 0);
  if (vs.length < 2) return null;
  const lo = Math.min(...vs);
  const hi = Math.max(...vs);
  const span = hi - lo || 1;
  const pts = vs.map((v, i) => [(i / (vs.length - 1)) * (w - 6) + 3, h - 4 - ((v - lo) / span) * (h - 8)]);
  const last = pts[pts.length - 1];
  const described = vs.map((v, i) => `${labels[i] || i + 1}: ${exact(v)}`).join("; ");
  return html`<svg class="sparkline" viewBox=${`0 0 ${w} ${h}`} role="img" aria-labelledby=${`${id}-t ${id}-d`}>
    <title id=${`${id}-t`}>${title}</title>
    <desc id=${`${id}-d`}>${described}</desc>
    <polyline points=${pts.map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(" ")} />
    <circle cx=${last[0].toFixed(1)} cy=${last[1].toFixed(1)} r="2.5" />
  </svg>`;
}

/** A count for the `format`/`exact` of a chart of counts. */
export const countFormat = (v) => integer(Math.round(v));
