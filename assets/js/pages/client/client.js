// One client: the profile (with an Edit dialog), what it owes, its statement of account, its modules (projects), payments, contacts, branches, tickets and
// the interactions timeline; for owner and manager also the account owner and the DB password (set, reveal).
import { html, useState, useEffect } from "/vendor/preact-htm.js";
import { post, patch } from "../../api.js";
import { dateTime, duration } from "../../format.js";
import {
  Card, Badge, Notice, Loading, ConfirmDialog, TimedSecret, Field, Form, SubmitButton, useForm, toast, toastWarnings, useFetch,
  useSession, useTitle, PageHeader, Link, Detail,
} from "../../components.js";
import { NotFoundPage } from "../../ui/errors.js";
import {
  isManagerial, StatusBadge, CategoryBadge, stateLabel, useClientOptions, useActiveEmployees, ownerChoices, listUrl,
} from "../../ui/clients.js";
import { EditClientDialog, SetPasswordDialog } from "./dialogs.js";
import { ContactsSection, BranchesSection, InteractionsSection, PaymentsSection, OwesSection } from "./sections.js";
import { ModulesSection } from "./modules.js";
import { StatementSection } from "./statement.js";
import { TicketsCard } from "./tickets.js";

const enc = encodeURIComponent;

function ProfileCard({ client, onEdit }) {
  const c = client;
  return html`<${Card} title="Profile" class="section-card"
    actions=${html`<button type="button" class="btn btn-sm" aria-label="Edit profile" onClick=${onEdit}>Edit</button>`}>
    <dl class="details">
      <${Detail} label="GSTIN" value=${c.gstin} mono />
      ${c.same_gstin && c.same_gstin.length > 0 && html`<${Detail} label="Same GSTIN" value=${html`<span data-testid="same-gstin">${
        c.same_gstin.map((o, i) => html`${i > 0 ? ", " : ""}<${Link} href=${`/clients/${enc(o.id)}`}>${o.name}</${Link}>`)}</span>`} />`}
      <${Detail} label="State" value=${stateLabel(c.state_code)} />
      <${Detail} label="TAN" value=${c.tan && html`<span data-testid="client-tan">${c.tan}</span>`} mono />
      <${Detail} label="TDS section" value=${c.tds_section || "The office's default"} />
      <${Detail} label="Type" value=${c.client_type} />
      <${Detail} label="Category" value=${c.category} />
      <${Detail} label="Status" value=${html`<${StatusBadge} status=${c.status} />`} />
      <${Detail} label="Account owner" value=${c.owner_name} />
      <${Detail} label="District" value=${c.district} />
      <${Detail} label="Sector" value=${c.sector} />
      <${Detail} label="Phone" value=${c.phone && html`<a href=${`tel:${c.phone.replace(/[^\d+]/g, "")}`}>${c.phone}</a>`} />
      <${Detail} label="Email" value=${c.email && html`<a href=${`mailto:${c.email}`}>${c.email}</a>`} />
      <${Detail} label="Remote access ID" value=${c.remote_access_id} mono />
      <${Detail} label="OS" value=${c.os} />
      <${Detail} label="Address" value=${c.address} wide />
      <${Detail} label="Notes" value=${c.notes} wide />
    </dl>
    <p class="hint">Added ${dateTime(c.created_at)}${c.updated_at !== c.created_at ? ` · last changed ${dateTime(c.updated_at)}` : ""}.</p>
  </${Card}>`;
}

function OwnerCard({ client, onSaved }) {
  const employees = useActiveEmployees(true);
  const form = useForm({ owner_id: client.owner_id || "" });
  const onSubmit = form.submit(async (v) => {
    if ((v.owner_id || "") === (client.owner_id || "")) return toast.info("Nothing to save: the owner is unchanged.");
    const updated = await patch(`/api/clients/${enc(client.id)}/owner`, { owner_id: v.owner_id || null });
    onSaved(updated);
    toast.success(updated.owner_name ? `${updated.owner_name} now owns this account.` : "The account has no owner now.");
  });
  return html`<${Card} title="Account owner" class="section-card">
    <p>Current owner: <strong data-testid="current-owner">${client.owner_name || "No owner"}</strong></p>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Account owner" class="inline-form">
      <${Field} label="New owner" as="select" ...${form.field("owner_id")}
        options=${ownerChoices(employees, { blank: "No owner", current: client.owner_id, currentName: client.owner_name })} />
      <${SubmitButton} saving=${form.saving}>Save owner</${SubmitButton}>
    </${Form}>
  </${Card}>`;
}

function revealFailure(err) {
  if (err.status === 429) {
    const wait = err.retryAfter !== null && err.retryAfter !== undefined ? ` Try again in ${duration(err.retryAfter)}.` : " Wait a minute and try again.";
    return `Too many reveals: at most 20 a minute per person.${wait}`;
  }
  return err.message;
}

function DbPasswordCard({ client, onSaved }) {
  const [dialog, setDialog] = useState(null);
  const [revealed, setRevealed] = useState(null);
  const [revealing, setRevealing] = useState(false);
  const [error, setError] = useState(null);
  const close = () => setDialog(null);
  const reveal = async () => {
    setRevealing(true);
    setError(null);
    try {
      const answer = await post(`/api/clients/${enc(client.id)}/reveal-db-password`, {});
      setRevealed({ password: answer.password || "" });
    } catch (err) {
      setRevealed(null);
      setError(revealFailure(err));
    } finally {
      setRevealing(false);
    }
  };
  let dialogEl = null;
  if (dialog === "set") {
    dialogEl = html`<${SetPasswordDialog} client=${client} onClose=${close} onSaved=${(updated) => {
      close();
      setRevealed(null);
      onSaved(updated);
      toast.success("DB password saved.");
    }} />`;
  } else if (dialog === "remove") {
    dialogEl = html`<${ConfirmDialog} title="Remove the DB password?" message="The stored password is deleted; set a new one any time." confirmLabel="Remove password"
      onCancel=${close} onConfirm=${async () => {
        const updated = await patch(`/api/clients/${enc(client.id)}`, { dbPassword: "" });
        close();
        setRevealed(null);
        onSaved(updated);
        toast.success("DB password removed.");
      }} />`;
  }
  return html`<${Card} title="DB password" class="section-card">
    ${dialogEl}
    <p class="db-state">Password:
      ${client.hasDbPassword
        ? html`<${Badge} tone="success">Set</${Badge}>`
        : html`<${Badge} tone="neutral">Not set</${Badge}>`}
    </p>
    <div class="btn-row">
      <button type="button" class="btn btn-sm" onClick=${() => setDialog("set")}>Set password</button>
      <button type="button" class="btn btn-sm" onClick=${reveal} disabled=${revealing || !client.hasDbPassword}
        aria-busy=${revealing ? "true" : undefined} title=${client.hasDbPassword ? undefined : "No password is stored"}>Reveal</button>
      ${client.hasDbPassword && html`<button type="button" class="btn btn-sm" onClick=${() => setDialog("remove")}>Remove</button>`}
    </div>
    ${error && html`<${Notice} tone="danger" alert=${true}>${error}</${Notice}>`}
    ${revealed && html`<${TimedSecret} secret=${revealed.password} seconds=${30} label="DB password" onHide=${() => setRevealed(null)} />`}
    <p class="hint">Every reveal is recorded in the audit trail.</p>
  </${Card}>`;
}

export function ClientPage({ id }) {
  const { me } = useSession();
  const managerial = isManagerial(me);
  const { data, error } = useFetch(`/api/clients/${enc(id)}`);
  const [client, setClient] = useState(null);
  const [editing, setEditing] = useState(false);
  const options = useClientOptions();
  useEffect(() => setClient(data), [data]);
  const c = client || data;
  useTitle(c ? c.name : "Client");

  if (error && error.status === 404) {
    return html`<${NotFoundPage} title="Client not found"
      text="There is no such client, or it is not in your book. It may have been given to another account owner." />`;
  }
  if (error) {
    return html`<main data-page="client"><${PageHeader} title="Client" />
      <${Notice} tone="danger" alert=${true}>${error.message}</${Notice}></main>`;
  }
  if (!c) {
    // Same shape as the loaded page (an empty dialog slot first), so the focused <h1> stays put.
    return html`<main data-page="client">
      ${null}
      <p class="crumbs"><${Link} href=${listUrl()}>← Clients</${Link}></p>
      <${PageHeader} title="Client" /><${Loading} label="Loading the client…" />
    </main>`;
  }

  const subtitle = html`<span class="badges header-badges">
      <${CategoryBadge} category=${c.category} />
      <${Badge} tone="neutral">${c.client_type}</${Badge}>
      <${StatusBadge} status=${c.status} />
    </span>
    ${c.gstin && html` <span class="mono-ish header-meta">GSTIN ${c.gstin}</span>`}
    ${c.district && html` <span class="header-meta">${c.district}</span>`}`;

  return html`<main data-page="client" class="client-page">
    ${editing && html`<${EditClientDialog} client=${c} options=${options} onClose=${() => setEditing(false)}
      onSaved=${(updated) => {
        setEditing(false);
        if (!updated) return toast.info("Nothing to save: no field was changed.");
        setClient(updated);
        toast.success(`${updated.name} is saved.`);
        toastWarnings(updated.warnings);
      }} />`}
    <p class="crumbs"><${Link} href=${listUrl()}>← Clients</${Link}></p>
    <${PageHeader} title=${c.name} subtitle=${subtitle} actions=${html`
      <${Link} class="btn" href=${`/documents?client_id=${enc(c.id)}`}>Documents</${Link}>
      <${Link} class="btn" href=${`/email-log?client_id=${enc(c.id)}`} data-testid="client-emails">Emails</${Link}>
      <${Link} class="btn" href=${`/documents/new?client_id=${enc(c.id)}`}>New quotation</${Link}>`} />
    <div class="client-grid">
      <div class="client-col">
        <${ProfileCard} client=${c} onEdit=${() => setEditing(true)} />
        <${OwesSection} client=${c} />
        <${StatementSection} client=${c} />
        <${ModulesSection} client=${c} />
        <${PaymentsSection} client=${c} />
        <${ContactsSection} client=${c} />
        <${BranchesSection} client=${c} districts=${options.districts} />
      </div>
      <div class="client-col">
        ${managerial && html`<${OwnerCard} key=${`owner-${c.owner_id || ""}`} client=${c} onSaved=${setClient} />`}
        ${managerial && html`<${DbPasswordCard} client=${c} onSaved=${setClient} />`}
        <${TicketsCard} client=${c} />
        <${InteractionsSection} client=${c} me=${me} managerial=${managerial} types=${options.interaction_types} />
      </div>
    </div>
  </main>`;
}
