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
