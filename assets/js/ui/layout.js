// Page furniture shared by the screens.
import { html } from "/vendor/preact-htm.js";

/** The page's one <h1>, an optional line under it, and actions on the right. */
export function PageHeader({ title, subtitle, actions }) {
  return html`<div class="page-header">
    <div class="page-heading">
      <h1 tabindex="-1">${title}</h1>
      ${subtitle && html`<p class="page-subtitle">${subtitle}</p>`}
    </div>
    ${actions && html`<div class="page-actions">${actions}</div>`}
  </div>`;
}

/** A titled white panel. */
export function Card({ title, children, class: cls, actions }) {
  return html`<section class=${`card ${cls || ""}`}>
    ${(title || actions) &&
    html`<div class="card-head">
      ${title && html`<h2 class="card-title">${title}</h2>`}
      ${actions && html`<div class="card-actions">${actions}</div>`}
    </div>`}
    <div class="card-body">${children}</div>
  </section>`;
}

/**
 * One row of a details list (`<dl class="details">`): `label` and `value`, a dash when the value
 * is empty. Markup given as children shows as it is, empty or not. `wide` spans the list and keeps
 * line breaks, `mono` sets codes (a GSTIN) apart, `testid` marks the value.
 */
export function Detail({ label, value, children, wide, mono, testid }) {
  const empty = value === null || value === undefined || value === "";
  const shown = children !== undefined ? children : empty ? html`<span class="muted">—</span>` : value;
  const cls = [mono && "mono-ish", wide && "pre-wrap"].filter(Boolean).join(" ");
  return html`<div class=${`detail${wide ? " wide" : ""}`}><dt>${label}</dt><dd class=${cls || undefined} data-testid=${testid}>${shown}</dd></div>`;
}
