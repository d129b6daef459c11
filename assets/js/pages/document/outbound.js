// A document going out, on the document page: the PDF links, public share links (made by the
// owner and managers, revoked by anyone who sees the document), "Send by email", "Convert and
// send" of an issued proforma (a failed email leaves a warning on the new invoice), and the
// document's email log. Both dialogs say when no public address is set (GET /api/setup); the
// send dialog says "Mail is not set up yet" and keeps Send disabled until it is.
import { html, useState, useEffect, useRef } from "/vendor/preact-htm.js";
import { post } from "../../api.js";
import { dateTime } from "../../format.js";
import {
  Card, Badge, Notice, Dialog, ConfirmDialog, DataTable, Form, Field, SubmitButton, Spinner, useForm, fieldError, useId, toast, navigate,
  useFetch, Link,
} from "../../components.js";
import { docUrl, docNumber } from "../../ui/documents.js";
import { isManagerial } from "../../ui/clients.js";
import { keepWarnings, readWarnings, dropWarnings } from "./warnings.js";
import { useSetup, PublicAddressNotice, MailNotice, PUBLIC_LINKS_SETTINGS } from "../../ui/setup.js";

const enc = encodeURIComponent;
const api = (doc) => `/api/documents/${enc(doc.id)}`;

/** The public address of a share, as the list shows it (a new link's `url` comes from the server). */
export const shareUrl = (token) => `${location.origin}/share/${enc(token)}`;

/** "Open PDF" (a new tab) and, unless `download` is false, "Download PDF". */
export function PdfLinks({ doc, download = true }) {
  return html`<a class="btn" href=${`${api(doc)}/pdf`} target="_blank" rel="noopener">Open PDF</a>
    ${download && html`<a class="btn" href=${`${api(doc)}/pdf?download=1`}>Download PDF</a>`}`;
}

/** Copies an input's text: the clipboard API where the page is a secure context, else select and copy. */
async function copyInput(input) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(input.value);
      return true;
    }
  } catch {
    /* fall through to the legacy way */
  }
  try {
    input.focus();
    input.select();
    return document.execCommand("copy");
  } catch {
    return false;
  }
}

// ---- Share links --------------------------------------------------------------------------------
const STATE_TONE = { live: "success", expired: "neutral", revoked: "danger" };

/** The document's public links (`[data-testid=shares]`), with Revoke (after a confirmation) on live ones. */
export function SharesList({ doc, onChanged }) {
  const [revoking, setRevoking] = useState(null);
  const revoke = async () => {
    await post(`${api(doc)}/share/${enc(revoking.id)}/revoke`, {});
    setRevoking(null);
    toast.success("The link is revoked: it answers “not found” from now on.");
    onChanged(null);
  };
  // Revoke and the link right after the state, so a phone shows them without scrolling the table.
  const columns = [
    { key: "state", label: "State", render: (s) => html`<${Badge} tone=${STATE_TONE[s.state] || "neutral"}>${s.state}</${Badge}>` },
    { key: "link", label: "Link", class: "actions-col", render: (s) => (s.state === "live"
      ? html`<span class="share-actions"><button type="button" class="btn btn-sm btn-danger-outline" onClick=${() => setRevoking(s)}>Revoke</button>
          <a href=${shareUrl(s.token)} target="_blank" rel="noopener">Open link</a></span>`
      : html`<span class="muted">—</span>`) },
    { key: "expires_at", label: "Expires", render: (s) => html`<time datetime=${s.expires_at}>${dateTime(s.expires_at)}</time>` },
    { key: "created_at", label: "Made", render: (s) => html`<span class="muted">${dateTime(s.created_at)}</span>` },
  ];
  return html`${revoking && html`<${ConfirmDialog} title="Revoke this link?" confirmLabel="Revoke link"
      message=${html`<p>Anyone who opens it gets “not found” from now on. This cannot be undone; a new link can be made later.</p>
        <p class="hint">Expires ${dateTime(revoking.expires_at)}.</p>`}
      onCancel=${() => setRevoking(null)} onConfirm=${revoke} />`}
    <div data-testid="shares">
      <${DataTable} caption="Public links, newest first" columns=${columns} rows=${doc.shares || []}
        empty="No public links yet." rowAttrs=${(s) => ({ "data-id": s.id, "data-state": s.state })} />
    </div>`;
}

/** Makes a public link (days, or the default from settings), shows it with Copy, and lists the links. */
function ShareDialog({ doc, me, onClose, onChanged }) {
  const setup = useSetup();
  const form = useForm({ days: "" });
  const [made, setMade] = useState(null);
  const urlRef = useRef(null);
  const urlId = useId("share-");
  const onSubmit = form.submit(async (v) => {
    const days = v.days.trim();
    const body = {};
    if (days) {
      if (!/^\d+$/.test(days) || Number(days) < 1 || Number(days) > 3650) throw fieldError("days", "A whole number of days, 1 to 3650 (ten years).");
      body.days = Number(days);
    }
    const share = await post(`${api(doc)}/share`, body);
    setMade(share);
    toast.success(`Link made; it works until ${dateTime(share.expires_at)}.`);
    onChanged(null);
  });
  const copy = async () => {
    if (await copyInput(urlRef.current)) toast.success("Link copied.");
    else toast.error("Select the link and copy it by hand.");
  };
  return html`<${Dialog} title=${`Public link to ${docNumber(doc)}`} size="wide" onClose=${onClose} closable=${!form.saving}
    footer=${html`<button type="button" class="btn" onClick=${onClose} disabled=${form.saving}>Close</button>`}>
    <p class="dialog-intro">Anyone with the link can read the document and download its PDF, without signing in, until it expires or is revoked.</p>
    ${!made && html`<${PublicAddressNotice} setup=${setup.data} me=${me} />`}
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="New public link" class="inline-form share-form">
      <${Field} label="Days it lasts" type="number" min="1" max="3650" step="1" inputMode="numeric" ...${form.field("days")} optional autofocus
        hint="Empty: the default from settings." />
      <${SubmitButton} saving=${form.saving}>Create link</${SubmitButton}>
    </${Form}>
    ${made && html`<div class="share-made">
      <label for=${urlId} class="field-label">New link</label>
      <div class="share-url-row">
        <input id=${urlId} class="control readonly" readOnly value=${made.url} data-testid="share-url" ref=${urlRef}
          onFocus=${(e) => e.currentTarget.select()} />
        <button type="button" class="btn" onClick=${copy}>Copy</button>
      </div>
      <p class="hint">Works until ${dateTime(made.expires_at)}.</p>
      ${made.warnings && made.warnings.length > 0 && html`<${Notice} tone="warning" testid="share-warnings" title="This link may not open for others">
        <ul class="plain-list">${made.warnings.map((w) => html`<li key=${w.code} data-code=${w.code}>${w.message}</li>`)}</ul>${" "}
        ${me.role === "owner"
          ? html`<${Link} href=${PUBLIC_LINKS_SETTINGS}>Set the public address in Settings → Letterhead → Public links</${Link}>.`
          : "Ask the owner to set the public address in Settings → Letterhead → Public links."}
      </${Notice}>`}
    </div>`}
    <h3 class="sub-title">Links to this document</h3>
    <${SharesList} doc=${doc} onChanged=${onChanged} />
  </${Dialog}>`;
}

// ---- Sending ------------------------------------------------------------------------------------
const SEND_FIELDS = ["to", "cc", "message"];

/**
 * "Send by email" (mode "send") or "Convert and send" (mode "convert"): to (the client's address
 * to start with), cc, message. A refusal or a provider failure shows here and the dialog stays.
 * onSent(answer) after a 200; onTried() after any attempt (the email log may have a new row).
 */
function SendDialog({ doc, me, mode, onClose, onSent, onTried }) {
  const convert = mode === "convert";
  const setup = useSetup();
  const noMail = !!setup.data && !setup.data.mail_set;
  const recipient = useFetch(`${api(doc)}/recipient`);
  const form = useForm({ to: "", cc: "", message: "" });
  const [problem, setProblem] = useState(null);
  const known = recipient.data ? recipient.data.to : null;
  const noAddress = !!recipient.data && !known;
  useEffect(() => {
    if (known && !form.values.to) form.set("to", known);
  }, [known]);
  const onSubmit = form.submit(async (v) => {
    setProblem(null);
    const to = v.to.trim();
    if (!to && noAddress) throw fieldError("to", "The client has no email address: give the address to send to.");
    // Empty: the server sends to the client's address.
    const body = to ? { to } : {};
    if (v.cc.trim()) body.cc = v.cc.trim();
    if (v.message.trim()) body.message = v.message.trim();
    try {
      const answer = await post(`${api(doc)}/${convert ? "convert-and-send" : "send"}`, body);
      onTried();
      onSent(answer);
    } catch (err) {
      onTried();
      if (err && SEND_FIELDS.includes(err.field)) throw err;
      setProblem((err && err.message) || "That did not work. Try again.");
    }
  });
  const title = convert ? `Convert ${docNumber(doc)} to a tax invoice and send it` : `Send ${docNumber(doc)} by email`;
  return html`<${Dialog} title=${title} onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label=${convert ? "Convert and send" : "Send by email"}>
      <p class="dialog-intro">${convert
        ? "A tax invoice is made from this proforma and issued (it gets its number), then emailed with its PDF and a public link. If the mail provider is not answering, nothing is made."
        : "The PDF goes attached, with a public link to the document in the message."}</p>
      <${MailNotice} setup=${setup.data} me=${me} />
      <${PublicAddressNotice} setup=${setup.data} me=${me} />
      ${problem && html`<${Notice} tone="danger" alert=${true} testid="send-error">${problem}</${Notice}>`}
      ${noAddress && html`<${Notice} tone="warning">The client has no email address, and no contact with one: give the address to send to.</${Notice}>`}
      ${recipient.data && recipient.data.bouncing === 1 && html`<${Notice} tone="warning" testid="recipient-bouncing">Mail to ${known} has bounced: check the address, or give another.</${Notice}>`}
      <${Field} label="To" type="email" ...${form.field("to")} required=${noAddress} autocomplete="off" spellcheck=${false} autofocus
        hint=${recipient.loading ? "Looking up the client's address…" : known ? "The client's address; change it to send elsewhere." : undefined} />
      <${Field} label="Cc" type="email" ...${form.field("cc")} optional autocomplete="off" spellcheck=${false} />
      <${Field} label="Message" as="textarea" rows="4" maxLength="5000" ...${form.field("message")} optional
        hint="Empty: a short greeting with the document's number and total." />
      ${form.saving && html`<p class="send-progress"><${Spinner} small=${true} label="Sending…" showLabel=${true} /></p>`}
      <div class="dialog-actions">
        <button type="button" class="btn" onClick=${onClose} disabled=${form.saving}>Cancel</button>
        <${SubmitButton} saving=${form.saving} disabled=${noMail}>${convert ? "Convert, issue and send" : "Send"}</${SubmitButton}>
      </div>
    </${Form}>
  </${Dialog}>`;
}

// ---- Email log ----------------------------------------------------------------------------------
function EmailLog({ log }) {
  const rows = (log.data && log.data.rows) || [];
  const columns = [
    { key: "at", label: "Time", render: (r) => html`<time datetime=${r.at}>${dateTime(r.at)}</time>` },
    { key: "to", label: "To", wrap: true, render: (r) => html`${r.to}${r.cc && html`<span class="muted email-cc"> cc ${r.cc}</span>`}` },
    { key: "subject", label: "Subject", wrap: true },
    { key: "status", label: "Status", wrap: true, render: (r) => (r.status === "failed"
      ? html`<span class="email-failed"><${Badge} tone="danger">failed</${Badge}> <span class="email-error">${r.error}</span></span>`
      : html`<${Badge} tone="success">${r.status}</${Badge}>`) },
  ];
  return html`<div data-testid="email-log">
    <${DataTable} caption="Emails of this document, newest first" columns=${columns} rows=${rows} loading=${log.loading} loaded=${!!log.data}
      error=${log.error} onRetry=${log.reload} empty="No emails sent yet."
      rowAttrs=${(r) => ({ "data-id": r.id, "data-status": r.status, class: r.status === "failed" ? "is-failed" : undefined })} />
    ${log.data && log.data.total > rows.length && html`<p class="hint table-note">The latest ${rows.length} of ${log.data.total}.</p>`}
  </div>`;
}

/** An issued proforma with no invoice made from it yet. */
export const canConvertAndSend = (doc) => doc.type === "PROFORMA" && ["issued", "sent"].includes(doc.status) && !doc.child_id;

/**
 * What the document page shows for sending and sharing an issued document:
 * { bar (PDF links and the Share / Send / Convert and send buttons), dialog (render first in
 * <main>), warning (a failed email's notice, after convert-and-send), sections (Public links and
 * Emails cards) }. onChanged(null) re-reads the document.
 */
export function useOutbound(doc, me, onChanged) {
  const [dialog, setDialog] = useState(null);
  const [warnings, setWarnings] = useState(() => readWarnings(doc.id, "send"));
  const log = useFetch("/api/email-log", { document_id: doc.id, per_page: 100 });
  const close = () => setDialog(null);
  const dismiss = () => {
    dropWarnings(doc.id, "send");
    setWarnings(null);
  };
  const sent = (answer) => {
    close();
    dismiss();
    toast.success(`Sent to ${answer.email.to}.`);
    onChanged(null);
  };
  const converted = (invoice) => {
    close();
    if (invoice.warnings && invoice.warnings.length) {
      keepWarnings(invoice.id, invoice.warnings, "send");
      toast.error(`${invoice.docNo} is issued, but the email was not sent.`);
    } else {
      toast.success(`Tax invoice ${invoice.docNo} issued and sent to ${invoice.email.to}.`);
    }
    navigate(docUrl(invoice.id));
  };
  let dialogEl = null;
  if (dialog === "share") dialogEl = html`<${ShareDialog} doc=${doc} me=${me} onClose=${close} onChanged=${onChanged} />`;
  if (dialog === "send" || dialog === "convert") {
    dialogEl = html`<${SendDialog} key=${dialog} doc=${doc} me=${me} mode=${dialog} onClose=${close} onTried=${log.reload}
      onSent=${dialog === "send" ? sent : converted} />`;
  }
  const live = doc.status !== "draft" && doc.status !== "cancelled";
  const bar = html`<div class="btn-row doc-outbound" role="group" aria-label="Send and share">
    <${PdfLinks} doc=${doc} />
    ${live && isManagerial(me) && html`<button type="button" class="btn" onClick=${() => setDialog("share")}>Share link</button>`}
    ${live && html`<button type="button" class="btn" onClick=${() => setDialog("send")}>Send by email</button>`}
    ${canConvertAndSend(doc) && html`<button type="button" class="btn btn-primary" onClick=${() => setDialog("convert")}>Convert and send</button>`}
  </div>`;
  const warning = warnings && warnings.length > 0 && html`<${Notice} tone="warning" title="The email was not sent" testid="send-warning">
    <ul class="plain-list">${warnings.map((w, i) => html`<li key=${i} data-code=${w.code}>${w.message}</li>`)}</ul>
    <p class="send-warning-actions">
      ${live && html`<button type="button" class="btn btn-sm" onClick=${() => setDialog("send")}>Send again</button>`}
      <button type="button" class="btn btn-sm" onClick=${dismiss}>Dismiss</button>
    </p>
  </${Notice}>`;
  const sections = html`<${Card} title="Public links" class="section-card doc-out-card">
      <${SharesList} doc=${doc} onChanged=${onChanged} />
    </${Card}>
    <${Card} title="Emails" class="section-card doc-out-card">
      <${EmailLog} log=${log} />
    </${Card}>`;
  return { bar, dialog: dialogEl, warning, sections };
}
