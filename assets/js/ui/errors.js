// Screens for a route the role may not use, and for a route that does not exist.
import { html } from "/vendor/preact-htm.js";
import { Link, useTitle, PageHeader } from "../components.js";

export function ForbiddenPage() {
  useTitle("No access");
  return html`<main data-page="forbidden">
    <${PageHeader} title="You do not have access to this page" />
    <p>This page is for the owner. If you need it, ask the owner to change your role.</p>
    <p><${Link} href="/" class="btn">Go to Home</${Link}></p>
  </main>`;
}

/** Props (optional): title and text, for a record that is not there (e.g. "Client not found"). */
export function NotFoundPage({ title = "Page not found", text = "There is no page at this address. It may have moved, or the link may be mistyped." } = {}) {
  useTitle("Not found");
  return html`<main data-page="not-found">
    <${PageHeader} title=${title} />
    <p>${text}</p>
    <p><${Link} href="/" class="btn">Go to Home</${Link}></p>
  </main>`;
}
