// One document (/documents/{id}): the draft editor while it is a draft, else the issued view —
// type title, number, status, client, dates, parent and child links, the lines with their
// taxes, totals (and on an issued invoice what is outstanding, a Paid / Part paid / Outstanding
// badge and "Record payment"), the timeline, the actions its state and the user's role allow, and
// what goes out: PDF, public links, email (outbound.js).
import { html, useState, useEffect } from "/vendor/preact-htm.js";
import { date, dateTime, integer, rupees, humanize } from "../../format.js";
import { Card, Notice, Loading, DataTable, useFetch, useSession, useTitle, PageHeader, Link, navigate, Detail } from "../../components.js";
import { NotFoundPage } from "../../ui/errors.js";
import { docUrl, docNumber, typeLabel, TYPE_TITLE, DocStatusBadge, PaymentStateBadge, TotalsBox, placeOfSupply, sourceLabel } from "../../ui/documents.js";
import { DraftEditor } from "./editor.js";
import { useDocumentActions, PriceChanges } from "./actions.js";
import { useOutbound, PdfLinks } from "./outbound.js";
import { WhatsAppDialog } from "../../ui/whatsapp.js";
import { paymentUrl } from "../../ui/payments.js";

const enc = encodeURIComponent;

/** An issued (not cancelled) invoice that carries what is still owed on it. */
const owingInvoice = (doc) => doc.type === "INVOICE" && doc.status !== "draft" && doc.status !== "cancelled" && doc.outstanding !== null && doc.outstanding !== undefined;

/** A link to a related document, named by its number once it is read. */
function DocLink({ id, testid }) {
  const { data, error } = useFetch(id ? `/api/documents/${enc(id)}` : null);
  if (!id) return null;
  const label = data ? `${typeLabel(data.type)} ${docNumber(data)}${data.status === "cancelled" ? " (cancelled)" : ""}` : error ? "Open" : "…";
  return html`<${Link} href=${docUrl(id)} data-testid=${testid}>${label}</${Link}>`;
}

const EVENT_LABEL = {
  issued: "Issued", sent: "Sent", accepted: "Accepted", lost: "Lost", converted: "Converted",
  superseded: "Superseded", cancelled: "Cancelled", credited: "Credit note issued", imported: "Imported from the old system",
};

function Timeline({ doc, me }) {
  const events = doc.events || [];
  return html`<${Card} title="Timeline" class="section-card">
    <p class="hint">Made ${dateTime(doc.created_at)}${doc.created_by === me.id ? " by you" : ""}.</p>
    ${events.length === 0 && html`<p class="hint">Nothing has happened to it yet.</p>`}
    <ol class="timeline doc-timeline" data-testid="timeline">
      ${events.map((e, i) => html`<li key=${i} class="timeline-item" data-kind=${e.kind}>
        <div class="timeline-head">
          <strong>${EVENT_LABEL[e.kind] || humanize(e.kind)}</strong>
          <time datetime=${e.at} class="muted">${dateTime(e.at)}</time>
          ${e.user_id === me.id && html`<span class="muted">by you</span>`}
        </div>
        ${e.reason && html`<p class="timeline-notes">${e.reason}</p>`}
      </li>`)}
    </ol>
  </${Card}>`;
}

function LinesTable({ doc }) {
  const tax = doc.intra_state
    ? [
        { key: "cgst", label: "CGST", class: "num", render: (l) => rupees(l.cgst) },
        { key: "sgst", label: "SGST", class: "num", render: (l) => rupees(l.sgst) },
      ]
    : [{ key: "igst", label: "IGST", class: "num", render: (l) => rupees(l.igst) }];
  const columns = [
    { key: "position", label: "#", class: "num", render: (l) => l.position + 1 },
    { key: "description", label: "Description", wrap: true, render: (l) => html`<span class="cell-main">${l.description}</span>` },
    { key: "sac", label: "SAC", render: (l) => l.sac || html`<span class="muted">—</span>` },
    { key: "qty", label: "Qty", class: "num", render: (l) => integer(l.qty) },
    { key: "unit_price", label: "Rate", class: "num", render: (l) => rupees(l.unit_price) },
    { key: "taxable", label: "Taxable", class: "num", render: (l) => rupees(l.taxable) },
    { key: "gst_rate", label: "GST", class: "num", render: (l) => `${l.gst_rate}%` },
    ...tax,
    { key: "total", label: "Total", class: "num", render: (l) => html`<strong>${rupees(l.total)}</strong>` },
  ];
  return html`<div data-testid="doc-lines">
    <${DataTable} caption="Lines" columns=${columns} rows=${doc.lines} empty="No lines." />
  </div>`;
}

/** An invoice's payments (each opening its receipt) and the credit notes against it. */
function SettlementCard({ doc }) {
  const payments = doc.payments || [];
  const notes = doc.credit_notes || [];
  const columns = [
    { key: "receipt_no", label: "Receipt", render: (p) => html`<${Link} href=${paymentUrl(p.payment_id)}>${p.receipt_no}</${Link}>` },
    { key: "received_on", label: "Received", render: (p) => date(p.received_on) },
    { key: "amount", label: "Amount", class: "num", render: (p) => rupees(p.amount) },
    { key: "tds", label: "TDS", class: "num", render: (p) => (p.tds ? rupees(p.tds) : html`<span class="muted">—</span>`) },
  ];
  return html`<${Card} title="Payments and credit notes" class="section-card"><div data-testid="settlements">
    <${DataTable} caption="Payments allocated to this invoice" columns=${columns} rows=${payments}
      empty="No payment is allocated to this invoice." rowAttrs=${(p) => ({ "data-payment-id": p.payment_id })} />
    ${notes.length > 0 && html`<ul class="plain-list credit-note-list">${notes.map((n) => html`<li key=${n.id} data-note-id=${n.id}>
      Credit note <${Link} href=${docUrl(n.id)}>${n.docNo || "draft"}</${Link}> · ${date(n.doc_date)} · ${rupees(n.total)}${n.status === "cancelled" ? " (cancelled)" : ""}</li>`)}</ul>`}
  </div></${Card}>`;
}

function DocumentView({ doc, me, onChanged }) {
  const [lastNote, setLastNote] = useState(null);
  const [chat, setChat] = useState(false);
  const changed = (updated, note) => {
    if (note) setLastNote(note);
    onChanged(updated);
  };
  const { buttons, dialog } = useDocumentActions(doc, me, changed);
  const out = useOutbound(doc, me, changed);
  const title = html`${TYPE_TITLE[doc.type] || doc.type} <span class="doc-no" data-testid="doc-no">${docNumber(doc)}</span>`;
  const owing = owingInvoice(doc);
  const subtitle = html`<span class="badges header-badges"><${DocStatusBadge} status=${doc.status} testid="status" /><${PaymentStateBadge} state=${doc.payment_state} testid="paid-badge" /></span>
    <span class="header-meta">Client: <${Link} class="header-client" href=${`/clients/${enc(doc.client_id)}`}>${doc.client_name}</${Link}></span>`;
  const cancelled = doc.events.find((e) => e.kind === "cancelled");
  const outstanding = owing
    ? html`<div class="totals-row is-outstanding"><dt>Outstanding</dt><dd data-testid="outstanding">${rupees(doc.outstanding)}</dd></div>`
    : null;
  // An invoice with something owed: "Record payment" comes first among the actions.
  const pay = owing && doc.outstanding > 0
    ? html`<button type="button" key="record-payment" class="btn btn-primary" onClick=${() => navigate(`/payments/new?document_id=${enc(doc.id)}`)}>Record payment</button>`
    : null;
  const chatButton = doc.status !== "cancelled"
    ? html`<button type="button" key="whatsapp" class="btn" data-testid="whatsapp" onClick=${() => setChat(true)}>WhatsApp</button>`
    : null;
  const actions = [pay, ...buttons, chatButton].filter(Boolean);
  return html`<main data-page="document" class="document-page">
    ${dialog}${out.dialog}
    ${chat && html`<${WhatsAppDialog} path=${`/api/documents/${enc(doc.id)}/whatsapp`} what=${docNumber(doc)} onClose=${() => setChat(false)} />`}
    <p class="crumbs"><${Link} href="/documents">← Documents</${Link}></p>
    <${PageHeader} title=${title} subtitle=${subtitle} actions=${actions.length ? actions : null} />
    ${out.bar}
    ${out.warning}
    ${doc.status === "cancelled" && html`<${Notice} tone="danger" title="Cancelled">${cancelled && cancelled.reason ? cancelled.reason : "This document is cancelled."}
      ${(doc.shares || []).length > 0 && html`<p data-testid="links-revoked">Its public links stopped working when it was cancelled: they answer “not found”.</p>`}</${Notice}>`}
    ${lastNote && html`<${Notice} tone="success">Credit note <${Link} href=${docUrl(lastNote.id)} data-testid="credit-note-link">${lastNote.docNo}</${Link}>${" "}issued for ${rupees(lastNote.total)}.</${Notice}>`}
    <div class="page-grid">
      <${Card} title="Details" class="section-card">
        <dl class="details">
          <${Detail} label="Number" value=${doc.docNo} />
          <${Detail} label="Date" value=${date(doc.doc_date)} />
          ${doc.type === "INVOICE" && html`<${Detail} label="Due date" value=${date(doc.due_date)} />`}
          <${Detail} label="Place of supply" value=${placeOfSupply(doc.intra_state)} />
          ${doc.upi && html`<${Detail} label="Pay by UPI" value=${html`<span data-testid="upi-amount">${rupees(doc.upi.amount)}</span>${" "}
            <a href=${doc.upi.uri} data-testid="upi-link" title="What is owed less the TDS still to deduct: the QR code on the PDF and the share page pays this">UPI link</a>`} />`}
          <${Detail} label=${doc.type === "CREDIT_NOTE" ? "Credits" : "Made from"} value=${doc.parent_id && html`<${DocLink} id=${doc.parent_id} testid="parent-link" />`} />
          ${doc.type !== "CREDIT_NOTE" && doc.type !== "INVOICE" && html`<${Detail} label="Followed by" value=${doc.child_id && html`<${DocLink} id=${doc.child_id} testid="child-link" />`} />`}
          <${Detail} label="Origin" value=${sourceLabel(doc.source)} />
          <${Detail} label=${doc.type === "CREDIT_NOTE" ? "Reason" : "Notes"} value=${doc.notes} wide />
          ${doc.terms && html`<${Detail} label="Terms" value=${doc.terms} wide />`}
        </dl>
      </${Card}>
      <${Timeline} doc=${doc} me=${me} />
    </div>
    <${Card} title="Lines" class="section-card lines-view-card">
      <${LinesTable} doc=${doc} />
    </${Card}>
    <div class="doc-summary is-view">
      <${TotalsBox} totals=${doc} intra=${doc.intra_state} round=${doc.round_to_rupee} extra=${outstanding} />
    </div>
    ${doc.type === "INVOICE" && html`<${SettlementCard} doc=${doc} />`}
    ${out.sections}
  </main>`;
}

export function DocumentPage({ id }) {
  const { me } = useSession();
  const { data, error, reload } = useFetch(`/api/documents/${enc(id)}`);
  const [doc, setDoc] = useState(null);
  // Bumped when a line's price is kept from outside the editor: the editor starts again from it.
  const [kept, setKept] = useState(0);
  useEffect(() => setDoc(data), [data]);
  const d = doc || data;
  useTitle(d ? `${typeLabel(d.type)} ${docNumber(d)}` : "Document");

  if (error && (error.status === 404 || error.status === 400)) {
    return html`<${NotFoundPage} title="Document not found" text="There is no such document, or it is not one you made." />`;
  }
  const crumbs = html`<p class="crumbs"><${Link} href="/documents">← Documents</${Link}></p>`;
  if (error) return html`<main data-page="document">${crumbs}<${PageHeader} title="Document" /><${Notice} tone="danger" alert=${true}>${error.message}</${Notice}></main>`;
  if (!d) return html`<main data-page="document">${null}${crumbs}<${PageHeader} title="Document" /><${Loading} label="Loading the document…" /></main>`;

  // An action answers the document itself; a credit note answers the note (the invoice is re-read).
  const onChanged = (updated) => (updated ? setDoc(updated) : reload());
  if (d.status !== "draft") return html`<${DocumentView} doc=${d} me=${me} onChanged=${onChanged} />`;

  const subtitle = html`<span class="badges header-badges"><${DocStatusBadge} status=${d.status} testid="status" /></span>
    <span class="header-meta">Client: <${Link} class="header-client" href=${`/clients/${enc(d.client_id)}`}>${d.client_name}</${Link}></span>
    ${d.parent_id && html`<span class="header-meta">Made from <${DocLink} id=${d.parent_id} testid="parent-link" /></span>`}`;
  return html`<main data-page="document" class="document-page has-preview">
    ${null}
    ${crumbs}
    <${PageHeader} title=${`${TYPE_TITLE[d.type] || d.type} (draft)`} subtitle=${subtitle}
      actions=${html`<${PdfLinks} doc=${d} download=${false} />`} />
    <${PriceChanges} doc=${d} onSaved=${(saved) => { setKept((n) => n + 1); onChanged(saved); }} />
    <${DraftEditor} key=${kept} doc=${d} onSaved=${onChanged} />
  </main>`;
}
