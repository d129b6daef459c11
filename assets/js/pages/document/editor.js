// The draft editor: a new document (/documents/new) and a draft (/documents/{id} while it is a
// draft). Header fields, the lines, LIVE totals from /api/documents/preview as you type, then
// "Save draft" (POST or PATCH) and "Issue" (after a confirmation; unsaved changes are saved first).
// Beside it (under it on a narrow screen) the preview's HTML: the draft as it will look.
import { html, useState, useEffect, useRef } from "/vendor/preact-htm.js";
import { post, patch } from "../../api.js";
import {
  Card, Notice, Loading, ConfirmDialog, Form, Field, DateField, SubmitButton, useForm, fieldError, toast, useFetch, useSession, blockUnreadable,
  useTitle, useQuery, PageHeader, Link, navigate, keyed, unkeyed, listFieldError, focusRowControl, useLeaveGuard,
} from "../../components.js";
import { docUrl, typeLabel, TYPE_LABEL, TotalsBox, DocSheet, placeOfSupply, blankLine, lineRow, linesBody, renumber, useModules } from "../../ui/documents.js";
import { isManagerial, ClientPicker } from "../../ui/clients.js";
import { LinesEditor, usePreview } from "../../ui/lines.js";
import { CancelDialog } from "./actions.js";

const enc = encodeURIComponent;
const NEW_TYPES = ["QUOTATION", "PROFORMA", "INVOICE"];

function headerValues(doc, query) {
  return {
    type: doc ? doc.type : NEW_TYPES.includes(query.type) ? query.type : "QUOTATION",
    client_id: doc ? doc.client_id : query.client_id || "",
    doc_date: (doc && doc.doc_date) || "",
    dueDate: (doc && doc.due_date) || "",
    notes: (doc && doc.notes) || "",
    terms: (doc && doc.terms) || "",
    round_to_rupee: !!(doc && doc.round_to_rupee),
  };
}

// An emptied date is sent as null, which clears it (a draft then takes the day it is issued).
function headerBody(v) {
  const b = { notes: v.notes.trim(), terms: v.terms.trim(), round_to_rupee: !!v.round_to_rupee, doc_date: v.doc_date || null };
  if (v.type === "INVOICE") b.dueDate = v.dueDate || null;
  return b;
}

// Preview warnings a save turns into refusals, and the control each belongs to.
const BLOCKING = { under_minimum: "qty", no_price: "unit_price", price_required: "unit_price" };

/** {row: {key: message}} for the preview's warnings that name a line and would stop a save. */
function blockingWarnings(warnings, index) {
  const out = {};
  for (const w of warnings || []) {
    const m = /^Line (\d+): (.*)$/.exec(w.message);
    const row = m && index[Number(m[1]) - 1];
    if (!BLOCKING[w.code] || row === undefined) continue;
    out[row] = { ...(out[row] || {}), [BLOCKING[w.code]]: m[2] };
  }
  return out;
}

const firstRowError = (errors) => {
  const i = Object.keys(errors).map(Number).sort((a, b) => a - b)[0];
  return i === undefined ? null : { index: i, key: Object.keys(errors[i])[0] };
};

/**
 * Props: doc (null for a new document), onSaved(document) after a PATCH, issue or cancel of an
 * existing draft. A new document goes to its own page once saved.
 */
export function DraftEditor({ doc, onSaved }) {
  const { me } = useSession();
  const [query] = useQuery();
  const form = useForm(headerValues(doc, query));
  const v = form.values;
  const type = v.type;
  // A new document starts with one empty line (left out until something is put in it).
  const [rows, setRows] = useState(() => keyed(doc ? doc.lines.map(lineRow) : [blankLine()]));
  const [rowErrors, setRowErrors] = useState({});
  const [listError, setListError] = useState(null);
  const [dialog, setDialog] = useState(null);
  const { modules, loaded: modulesLoaded, error: modulesError } = useModules();
  const billing = useFetch(type === "INVOICE" ? "/api/settings/billing" : null);
  const listRef = useRef(null);
  const stateKey = JSON.stringify({ h: headerBody(v), rows: rows.map(unkeyed) });
  const [savedKey, setSavedKey] = useState(() => (doc ? stateKey : null));
  const dirty = stateKey !== savedKey;
  const [startKey] = useState(stateKey);
  useLeaveGuard(doc ? dirty : stateKey !== startKey);

  // Live totals: every line that can be sent, priced as the server would price it.
  const live = linesBody(rows, { forPreview: true });
  const previewBody = v.client_id ? { type, client_id: v.client_id, ...headerBody(v), lines: live.lines } : null;
  const preview = usePreview(previewBody);
  // The last answer stays on screen (dimmed) while a newer one is on its way.
  const answer = previewBody && preview.data && preview.data.lines.length === live.lines.length ? preview.data : null;
  const priced = {};
  if (answer) answer.lines.forEach((l, j) => (priced[live.index[j]] = l));
  const fresh = !!previewBody && preview.key === JSON.stringify(previewBody) && !preview.pending;
  const previewFailure = fresh ? preview.error : null;
  const previewAt = previewFailure && listFieldError(previewFailure);
  const errors = {};
  const addErrors = (i, e) => (errors[i] = { ...(errors[i] || {}), ...e });
  for (const [i, e] of Object.entries(live.errors)) addErrors(i, e);
  if (previewAt && previewAt.list === "lines" && live.index[previewAt.index] !== undefined) {
    addErrors(live.index[previewAt.index], { [previewAt.key || "module_id"]: previewAt.message });
  }
  for (const [i, e] of Object.entries(rowErrors)) addErrors(i, e);
  const excluded = Object.fromEntries(Object.keys(live.errors).map((i) => [i, true]));
  const intra = answer ? answer.intra_state : doc ? doc.intra_state : true;

  // The form's error box is at its top, far from the buttons: bring it into view.
  useEffect(() => {
    if (form.formError) document.querySelector(".doc-editor > .form-error")?.scrollIntoView({ block: "center" });
  }, [form.formError]);

  const changeRows = (next) => {
    setRows(next);
    setRowErrors({});
    setListError(null);
  };

  /** Saves (POST or PATCH); null when the problem is shown beside a line already. */
  const save = async (values) => {
    if (!doc && !values.client_id) throw fieldError("client_id", "Choose the client.");
    const { lines, index, errors: bad } = linesBody(rows);
    // What the up-to-date preview could not price, the save would refuse: say so beside the line.
    if (answer && fresh && Object.keys(bad).length === 0) Object.assign(bad, blockingWarnings(answer.warnings, live.index));
    const first = firstRowError(bad);
    if (first) {
      setRowErrors(bad);
      focusRowControl(listRef.current, first.index, first.key);
      return null;
    }
    const body = { ...headerBody(values), lines };
    try {
      const saved = doc ? await patch(`/api/documents/${enc(doc.id)}`, body) : await post("/api/documents", { type: values.type, client_id: values.client_id, ...body });
      setSavedKey(stateKey);
      return saved;
    } catch (err) {
      const at = listFieldError(err);
      if (at && at.list === "lines" && index[at.index] !== undefined) {
        setRowErrors({ [index[at.index]]: { [at.key || "module_id"]: renumber(err.message, index) } });
        focusRowControl(listRef.current, index[at.index], at.key || "module_id");
        return null;
      }
      if (err && err.field === "lines") {
        setListError(err.message);
        return null;
      }
      if (err && err.status === 409) toast.error(err.message);
      throw err;
    }
  };

  const onSubmit = form.submit(async (values) => {
    const saved = await save(values);
    if (!saved) return;
    toast.success(doc ? "Draft saved." : `${typeLabel(saved.type)} draft saved.`);
    if (doc) onSaved(saved);
    else navigate(docUrl(saved.id));
  });

  const issue = async () => {
    let target = doc;
    if (!doc || dirty) {
      target = await save(form.values);
      if (!target) return setDialog(null);
    }
    try {
      const issued = await post(`/api/documents/${enc(target.id)}/issue`, {});
      setDialog(null);
      toast.success(`Issued as ${issued.docNo}.`);
      if (doc) onSaved(issued);
      else navigate(docUrl(issued.id));
    } catch (err) {
      if (!doc) {
        // Saved but not issued: carry on from the draft's own page.
        setDialog(null);
        toast.error(`Saved as a draft, not issued: ${err.message}`);
        return navigate(docUrl(target.id));
      }
      if (target !== doc) onSaved(target);
      throw err;
    }
  };

  const dueHint = billing.data ? `Empty: ${billing.data.payment_terms_days} days after the document date, set at issue.` : "Empty: set from the payment terms at issue.";
  const warnings = answer ? answer.warnings : [];
  const left = Object.keys(live.errors).length;
  return html`
    ${dialog === "issue" && html`<${ConfirmDialog} title=${`Issue this ${(TYPE_LABEL[type] || "document").toLowerCase()}?`} tone="primary" confirmLabel="Issue now"
      message=${html`<p>The number, date and prices are fixed once issued.</p>${dirty ? html`<p class="hint">Your unsaved changes are saved first.</p>` : null}`}
      onCancel=${() => setDialog(null)} onConfirm=${issue} />`}
    ${dialog === "cancel" && html`<${CancelDialog} doc=${doc} onClose=${() => setDialog(null)} onDone=${(d) => { setDialog(null); onSaved(d); }} />`}
    <div class="doc-editor-layout">
      <${Form} onSubmit=${onSubmit} error=${form.formError} label=${doc ? "Draft" : "New document"} class="doc-editor">
        <${Card} title="Document" class="section-card">
          <div class="form-grid doc-head-grid">
            ${doc
              ? html`<div class="field"><span class="field-label">Client</span><${Link} class="cell-main static-value" href=${`/clients/${enc(doc.client_id)}`}>${doc.client_name}</${Link}></div>
                  <div class="field"><span class="field-label">Type</span><span class="static-value">${typeLabel(doc.type)}</span></div>`
              : html`<${ClientPicker} value=${v.client_id} error=${form.errors.client_id} onChange=${(id) => form.set("client_id", id)} />
                  <${Field} label="Type" as="select" ...${form.field("type")} options=${NEW_TYPES.map((t) => ({ value: t, label: TYPE_LABEL[t] }))} />`}
            <${DateField} label="Document date" name="doc_date" value=${v.doc_date} optional error=${form.errors.doc_date}
              onChange=${(d) => form.set("doc_date", d)} hint="Empty: the day it is issued. Prices are taken on this date." />
            ${type === "INVOICE" && html`<${DateField} label="Due date" name="dueDate" value=${v.dueDate} optional error=${form.errors.dueDate}
              onChange=${(d) => form.set("dueDate", d)} hint=${dueHint} />`}
          </div>
          <div class="form-grid doc-text-grid">
            <${Field} label="Notes" as="textarea" rows="2" ...${form.field("notes")} optional />
            <${Field} label="Terms" as="textarea" rows="2" ...${form.field("terms")} optional />
          </div>
          <label class="check"><input type="checkbox" name="round_to_rupee" checked=${v.round_to_rupee}
            onChange=${(e) => form.set("round_to_rupee", e.currentTarget.checked)} /> Round the total to the rupee</label>
        </${Card}>
        <${Card} title="Lines" class="section-card lines-card">
          ${modulesError && html`<${Notice} tone="danger">The module list could not be read: ${modulesError.message}</${Notice}>`}
          <div ref=${listRef}>
            ${modulesLoaded || modulesError
              ? html`<${LinesEditor} rows=${rows} onChange=${changeRows} modules=${modules} errors=${errors} listError=${listError}
                  priced=${priced} excluded=${excluded} waiting=${preview.pending} />`
              : html`<${Loading} label="Loading the catalog…" />`}
          </div>
          <div class="doc-summary">
            <div class="doc-warnings" data-testid="warnings" aria-live="polite">
              ${!v.client_id && html`<p class="hint">Choose a client to see the prices and totals.</p>`}
              ${v.client_id && html`<p class="hint">${placeOfSupply(intra)}.</p>`}
              ${previewFailure && !(previewAt && previewAt.list === "lines") && html`<${Notice} tone="danger">${previewFailure.message}</${Notice}>`}
              ${warnings.length > 0 && html`<${Notice} tone="warning" title="Warnings"><ul class="plain-list">
                ${warnings.map((w) => html`<li data-code=${w.code}>${renumber(w.message, live.index)}</li>`)}</ul></${Notice}>`}
              ${left > 0 && html`<p class="hint">${left === 1 ? "One line is" : `${left} lines are`} left out of the totals until fixed.</p>`}
            </div>
            <${TotalsBox} totals=${answer && answer.totals} intra=${intra} round=${v.round_to_rupee} stale=${preview.pending} />
          </div>
        </${Card}>
        <div class="form-actions doc-actions">
          <${SubmitButton} saving=${form.saving} tone="secondary">Save draft</${SubmitButton}>
          <button type="button" class="btn btn-primary" disabled=${form.saving} onClick=${(e) => blockUnreadable(e.currentTarget.form) || setDialog("issue")}>Issue</button>
          ${doc && isManagerial(me) && html`<button type="button" class="btn btn-danger-outline" onClick=${() => setDialog("cancel")}>Cancel document</button>`}
          <span class="hint">${dirty ? (doc ? "Unsaved changes." : "Not saved yet.") : "All changes saved."}</span>
        </div>
      </${Form}>
      <${Card} title="Preview" class="section-card doc-preview-card">
        <${DocSheet} html=${previewBody && preview.data ? preview.data.html : null} testid="doc-preview" stale=${preview.pending}
          empty=${v.client_id ? "The document shows here as it will look." : "Choose a client to see the document as it will look."} />
      </${Card}>
    </div>`;
}

export function DocumentNewPage() {
  useTitle("New document");
  return html`<main data-page="document-new" class="document-page has-preview">
    <p class="crumbs"><${Link} href="/documents">← Documents</${Link}></p>
    <${PageHeader} title="New document" subtitle="A draft has no number: it gets one when it is issued." />
    <${DraftEditor} doc=${null} />
  </main>`;
}
