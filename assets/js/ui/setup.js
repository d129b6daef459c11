// What is set up in this office (GET /api/setup, everyone signed in): whether public links have
// an address and whether mail can go out, and for the owner the first-run checklist.
import { html } from "/vendor/preact-htm.js";
import { Link, Notice, useFetch } from "../components.js";

export const PUBLIC_LINKS_SETTINGS = "/settings/template#public-links";

/** `{ data, error, loading, reload }` of GET /api/setup. */
export const useSetup = () => useFetch("/api/setup");

/** Where the owner sets it, or "ask the owner" for everyone else. */
function Where({ me, href, place }) {
  return me.role === "owner"
    ? html`<${Link} href=${href}>Set it in ${place}</${Link}>.`
    : html`Ask the owner to set it in ${place}.`;
}

/**
 * `[data-testid=public-address-unset]`: shown while no public address is set (links are made
 * from the address this page was opened at, and may point at this PC).
 */
export function PublicAddressNotice({ setup, me }) {
  if (!setup || setup.public_address_set) return null;
  return html`<${Notice} tone="warning" testid="public-address-unset" title="No public address for links">
    Links to documents use the address this page was opened at, so people outside this PC may not be able to open them.${" "}
    <${Where} me=${me} href=${PUBLIC_LINKS_SETTINGS} place="Settings → Letterhead → Public links" />
  </${Notice}>`;
}

/** `[data-testid=mail-unset]`: "Mail is not set up yet", with the way to Settings → Mail. */
export function MailNotice({ setup, me }) {
  if (!setup || setup.mail_set) return null;
  return html`<${Notice} tone="warning" testid="mail-unset" title="Mail is not set up yet">
    Documents cannot be emailed until a mail provider is set.${" "}
    <${Where} me=${me} href="/settings/mail" place="Settings → Mail" />
  </${Notice}>`;
}

/**
 * The owner's first-run checklist (`[data-testid=setup-checklist]`, an `li[data-key][data-done]`
 * per step linking to where it is done); nothing once every step is done.
 */
export function SetupChecklist({ setup }) {
  if (!setup || !setup.checklist || setup.complete) return null;
  const left = setup.checklist.filter((i) => !i.done).length;
  return html`<section class="card section-card setup-card" data-testid="setup-checklist" aria-labelledby="setup-title">
    <div class="card-head"><h2 class="card-title" id="setup-title">Getting started: ${left} of ${setup.checklist.length} left</h2></div>
    <div class="card-body">
      <ul class="setup-list">
        ${setup.checklist.map((i) => html`<li key=${i.key} data-key=${i.key} data-done=${i.done ? "1" : "0"}>
          <span class=${i.done ? "setup-done" : "setup-todo"} aria-hidden="true">${i.done ? "✓" : "○"}</span>
          ${" "}<${Link} href=${i.href}>${i.label}</${Link}>${i.done ? html`<span class="sr-only"> (done)</span>` : ""}
        </li>`)}
      </ul>
    </div>
  </section>`;
}
