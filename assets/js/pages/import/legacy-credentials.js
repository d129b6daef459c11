// The old system's encrypted credentials (owner, on the import page): values it stored
// encrypted cannot be read here and already show as empty; the card counts them by place and
// empties them after a confirmation that states the count, then says what was emptied.
import { html, useState } from "/vendor/preact-htm.js";
import { post } from "../../api.js";
import { integer } from "../../format.js";
import { Card, Notice, Loading, ConfirmDialog, toast, useFetch } from "../../components.js";

const PLACES = [
  { key: "db_passwords", one: "client DB password", many: "client DB passwords" },
  { key: "portal_passwords", one: "project portal password", many: "project portal passwords" },
  { key: "module_secrets", one: "project secret", many: "project secrets" },
  { key: "mail_token", one: "mail-provider token", many: "mail-provider tokens" },
];

const values = (n) => `${integer(n)} ${n === 1 ? "value" : "values"}`;

/** "1 client DB password and 2 project secrets" (the places that hold any). */
export function describeCounts(counts) {
  const parts = PLACES.filter((p) => counts[p.key] > 0).map((p) => `${integer(counts[p.key])} ${counts[p.key] === 1 ? p.one : p.many}`);
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

export function LegacyCredentialsCard() {
  const { data, error, reload } = useFetch("/api/admin/legacy-credentials");
  const [asking, setAsking] = useState(false);
  const [cleared, setCleared] = useState(null);
  const clear = async () => {
    const answer = await post("/api/admin/clear-legacy-credentials", {});
    setAsking(false);
    setCleared(answer);
    toast.success(`Cleared ${values(answer.total)}.`);
    reload();
  };
  let body;
  if (error) body = html`<${Notice} tone="danger" alert=${true}>${error.message} <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`;
  else if (!data) body = html`<${Loading} label="Counting the old system's values…" />`;
  else {
    body = html`
      <p class="hint card-lead">The old system kept passwords and keys encrypted with its own key. The back office cannot read them:
        they show as empty, and stay in the data file until they are cleared. Enter the real values again where they are still needed.</p>
      ${data.total === 0
        ? html`<p data-testid="legacy-none">Nothing to clear: no value in the old system's encrypted form is left.</p>`
        : html`<dl class="details legacy-counts">
            ${PLACES.map((p) => html`<div class="detail" key=${p.key}><dt>${p.many}</dt><dd data-testid=${`legacy-${p.key}`}>${integer(data[p.key])}</dd></div>`)}
          </dl>
          <button type="button" class="btn btn-danger" onClick=${() => setAsking(true)}>Clear ${values(data.total)}</button>`}`;
  }
  return html`
    ${asking && data && html`<${ConfirmDialog} title=${`Clear ${values(data.total)}?`} confirmLabel="Clear values"
      message=${html`<p>${describeCounts(data)} from the old system ${data.total === 1 ? "is" : "are"} emptied for good. They cannot be read
        now either; a value still needed must be entered again by hand.</p>`}
      onConfirm=${clear} onCancel=${() => setAsking(false)} />`}
    <${Card} title="Old system's encrypted credentials" class="section-card">
      <div data-testid="legacy-credentials">
        ${cleared && html`<${Notice} tone="success" testid="legacy-cleared" title=${`Cleared ${values(cleared.total)}`}>
          ${cleared.total ? `${describeCounts(cleared)}: now empty.` : "Nothing was left to clear."}</${Notice}>`}
        ${body}
      </div>
    </${Card}>`;
}
