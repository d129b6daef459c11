// The legacy import (owner, /import; issue 17): an office moving in from spreadsheets stages a
// CSV file of its clients and their old invoices (picked or dropped, read in the browser and sent
// with its progress), reads what the server made of it (the columns it found, what the commit
// would create, update or leave alone, the problems by kind, the invoice totals per financial year
// to compare with the old system's), corrects or excludes the rows at fault (import-rows.js),
// and commits after a confirmation that says exactly what will be written. After the commit the
// page shows what was done and the totals read back beside the staged ones. The old system's
// encrypted credentials are cleared here too (legacy-credentials.js).
import { html, useState, useEffect, useRef } from "/vendor/preact-htm.js";
import { get, post, postWithProgress, isAbort } from "../../api.js";
import { dateTime, integer, numberRange, rupees } from "../../format.js";
import {
  Card, Notice, Loading, Progress, Badge, ConfirmDialog, DataTable, Field, toast, useFetch, useTitle, useId, PageHeader, useQuery,
} from "../../components.js";
import { StagedRows, CELL_LABELS, problemLabel } from "./rows.js";
import { LegacyCredentialsCard } from "./legacy-credentials.js";

/** The server's limit on a file's text (rules::MAX_BYTES) and on the body that carries it. */
const MAX_BYTES = 20 * 1024 * 1024;
const MAX_BODY = 2 * MAX_BYTES + 64 * 1024;
/** Above this many invoice rows the confirmation names the series without reading every row. */
const SERIES_PREVIEW_ROWS = 2000;

const plural = (n, one, many = `${one}s`) => `${integer(n)} ${n === 1 ? one : many}`;
const megabytes = (bytes) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
const pad4 = (n) => String(n).padStart(4, "0");
/** "24-25" → "2024-25". */
const fyLabel = (fy) => {
  const y = Number(String(fy).slice(0, 2));
  return Number.isNaN(y) ? fy : `${y >= 50 ? 1900 + y : 2000 + y}-${String(fy).slice(3)}`;
};

/** The data rows of a CSV text, about: its lines after the header (a cell holding a line break counts twice). */
function countRows(text) {
  let lines = 0;
  let start = 0;
  for (;;) {
    const end = text.indexOf("\n", start);
    const line = text.slice(start, end === -1 ? text.length : end);
    if (line.replace(/[\s,;"]/g, "") !== "") lines += 1;
    if (end === -1) break;
    start = end + 1;
  }
  return Math.max(0, lines - 1);
}

/** Reads a file as UTF-8 text, reporting progress: onProgress(loaded, total). */
function readText(file, onProgress, signal) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(`${file.name} could not be read: ${reader.error ? reader.error.message : "the browser refused it"}.`));
    reader.onabort = () => reject(new DOMException("Reading was stopped.", "AbortError"));
    if (signal) signal.addEventListener("abort", () => reader.readyState === 1 && reader.abort(), { once: true });
    reader.readAsText(file, "utf-8");
  });
}

/** Why a file is refused before it is read or sent, or null. */
function refusal(file) {
  if (/\.(xlsx?|ods|numbers)$/i.test(file.name)) return `${file.name} is a spreadsheet, not a CSV file: in the spreadsheet choose Save as → “CSV UTF-8 (comma delimited)” and import that file.`;
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > MAX_BYTES) return `${file.name} is ${megabytes(file.size)}; at most 20 MB is imported at once. Split it and import the parts one after the other.`;
  return null;
}

/**
 * The file picker and drop zone: reads the file, sends it with its progress, and shows the
 * server's refusal in words. onStaged(status) with the new status.
 */
function StageCard({ status, onStaged }) {
  const inputId = useId("csv-");
  const inputRef = useRef(null);
  const ctl = useRef(null);
  const [over, setOver] = useState(false);
  const [phase, setPhase] = useState(null);
  const [error, setError] = useState(null);
  const [warning, setWarning] = useState(null);
  const [checklist, setChecklist] = useState("");
  useEffect(() => () => ctl.current && ctl.current.abort(), []);
  const busy = !!phase;

  const stage = async (file) => {
    if (!file || busy) return;
    setError(null);
    setWarning(null);
    const refused = refusal(file);
    if (refused) return setError(refused);
    const abort = new AbortController();
    ctl.current = abort;
    try {
      setPhase({ step: "reading", name: file.name, loaded: 0, total: file.size });
      const text = await readText(file, (loaded, total) => setPhase({ step: "reading", name: file.name, loaded, total }), abort.signal);
      const rows = countRows(text);
      const steps = checklist.split("\n").map((l) => l.trim()).filter(Boolean);
      const body = JSON.stringify(steps.length ? { csv: text, file_name: file.name, checklist: steps } : { csv: text, file_name: file.name });
      if (new Blob([body]).size > MAX_BODY) {
        throw new Error(`${file.name} is too large to send at once (its quotes and line breaks take room too). Split it and import the parts one after the other.`);
      }
      setPhase({ step: "sending", name: file.name, rows, loaded: 0, total: body.length });
      const answer = await postWithProgress("/api/import/stage", body, {
        signal: abort.signal,
        onProgress: ({ loaded, total }) => setPhase({ step: "sending", name: file.name, rows, loaded, total: total || body.length }),
        onSent: () => setPhase({ step: "checking", name: file.name, rows }),
      });
      // Bytes that are not UTF-8 (a file saved as "CSV" in an old Excel) read as U+FFFD.
      if (text.includes("\uFFFD")) {
        setWarning("Some characters of the file could not be read (they show as �): it was not saved as UTF-8. In the spreadsheet save it as “CSV UTF-8” and stage it again.");
      }
      toast.success(`${file.name} is staged: ${plural(answer.staged, "row")}, ${answer.problems ? plural(answer.problems, "row") + " with a problem" : "no problems"}.`);
      onStaged(answer);
    } catch (e) {
      if (isAbort(e)) return;
      setError(e.code === "body_too_large" ? `${file.name} is too large to send at once. Split it and import the parts one after the other.` : e.message);
    } finally {
      ctl.current = null;
      setPhase(null);
      if (inputRef.current) inputRef.current.value = "";
    }
  };

  const onDrop = (e) => {
    e.preventDefault();
    setOver(false);
    const files = e.dataTransfer && e.dataTransfer.files;
    if (files && files.length > 1) return setError("Drop one file at a time.");
    stage(files && files[0]);
  };
  const dragging = (e) => {
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = busy ? "none" : "copy";
    if (!busy) setOver(true);
  };

  const staged = status.staged_at && !status.committed;
  let progress = null;
  if (phase && phase.step === "reading") {
    progress = html`<${Progress} label=${`Reading ${phase.name}…`} value=${phase.loaded} max=${phase.total || 1} detail=${`${megabytes(phase.loaded)} of ${megabytes(phase.total)}`} />`;
  } else if (phase && phase.step === "sending") {
    progress = html`<${Progress} label=${`Sending ${plural(phase.rows, "row")}…`} value=${phase.loaded} max=${phase.total || 1} />`;
  } else if (phase) {
    progress = html`<${Progress} label=${`Checking ${plural(phase.rows, "row")}…`} />`;
  }
  return html`<${Card} title=${status.staged_at ? "Stage another file" : "Stage the file"} class="section-card">
    <div data-testid="stage-card">
      <${Field} label="The old system's onboarding checklist" as="textarea" rows="3" name="checklist" optional value=${checklist}
        onInput=${(e) => setChecklist(e.currentTarget.value)} disabled=${busy}
        hint="One step per line, in order, staged with the file. On commit it becomes the whole checklist of every module with no checklist of its own (Settings → Checklist templates)." />
      <div class=${`drop-zone${over ? " is-over" : ""}${busy ? " is-busy" : ""}`} data-testid="drop-zone"
        onDragEnter=${dragging} onDragOver=${dragging} onDragLeave=${(e) => !e.currentTarget.contains(e.relatedTarget) && setOver(false)} onDrop=${onDrop}>
        <p class="drop-title">Drop the CSV file here, or choose it</p>
        <label class="btn btn-primary" for=${inputId} aria-disabled=${busy ? "true" : undefined}>Choose a CSV file</label>
        <input id=${inputId} ref=${inputRef} class="drop-input" type="file" name="csv_file" accept=".csv,text/csv,text/plain" disabled=${busy}
          aria-describedby=${error ? `${inputId}-error` : undefined} onChange=${(e) => stage(e.currentTarget.files[0])} />
        <p class="hint">${staged
          ? `Staging a file replaces ${status.file_name || "the staged file"} and the corrections made to it.`
          : status.committed
            ? "Staging a file starts a new import; what was committed stays in the registry."
            : "Nothing is written to the registry until you commit: staging only reads and checks the file."}</p>
      </div>
      ${progress && html`<div class="stage-progress" data-testid="stage-progress" aria-live="polite">${progress}</div>`}
      ${error && html`<div class="form-error stage-error" role="alert" id=${`${inputId}-error`} data-testid="stage-error">${error}</div>`}
      ${warning && html`<${Notice} tone="warning" testid="stage-warning">${warning}</${Notice}>`}
    </div>
  </${Card}>`;
}

/** The columns and formats the import reads, and the sample file. */
function FormatCard() {
  return html`<${Card} title="What the file holds" class="section-card"
    actions=${html`<a class="btn btn-sm" href="/api/import/sample.csv" download="import-sample.csv" data-testid="sample-csv">Sample CSV</a>`}>
    <p class="hint card-lead">One row per client, or one per legacy invoice (a client with three invoices is on three rows under the same name).
      The first row holds the headers, in any order; “GSTIN No.” reads as gstin, and columns the import does not know are ignored.</p>
    <dl class="format-list">
      <div><dt>name</dt><dd>Required: the society or client.</dd></div>
      <div><dt>gstin, district, sector</dt><dd>Optional.</dd></div>
      <div><dt>remote_access_id, os</dt><dd>Optional: the AnyDesk or TeamViewer ID, the operating system.</dd></div>
      <div><dt>phone, email, address</dt><dd>Optional: the society's own. A phone has 6 to 15 digits.</dd></div>
      <div><dt>contact_name, contact_role, contact_phone, contact_email</dt><dd>Optional: a person at the society (secretary, president…), added to its contacts. A society's rows may name several.</dd></div>
      <div><dt>invoice_no</dt><dd>As <code>INV/24-25-0042</code>, in the financial year of its date. The series continues after the largest number.</dd></div>
      <div><dt>invoice_date</dt><dd><code>2024-04-01</code>, <code>01-04-2024</code> or <code>01/04/2024</code>.</dd></div>
      <div><dt>invoice_total</dt><dd>Rupees: <code>1,180.00</code> or <code>₹1,180.50</code>.</dd></div>
      <div><dt>invoice_balance</dt><dd>Optional: what is still owed. Empty: the invoice was paid in the old system.</dd></div>
    </dl>
    <p class="hint">Save from Excel as “CSV UTF-8”. At most 20 MB and 1,00,000 rows at once.</p>
  </${Card}>`;
}

const COUNTS = [
  { key: "staged", label: "Rows" },
  { key: "to_create", label: "New clients" },
  { key: "to_update", label: "Clients updated" },
  { key: "to_skip", label: "Left as they are" },
  { key: "invoices", label: "Invoices to record" },
  { key: "invoices_known", label: "Already imported" },
  { key: "excluded", label: "Excluded rows" },
  { key: "problems", label: "Rows with problems" },
];

function Counts({ status }) {
  return html`<dl class="import-counts" data-testid="import-counts">
    ${COUNTS.map((c) => html`<div key=${c.key} class=${`import-count${c.key === "problems" && status.problems > 0 ? " is-problem" : ""}`} data-count=${c.key}>
      <dt>${c.label}</dt><dd>${integer(status[c.key])}</dd></div>`)}
  </dl>`;
}

function ColumnMap({ columns }) {
  return html`<ul class="column-map" data-testid="import-columns">
    ${columns.map((c, i) => html`<li key=${i}><code>${c.header || "(no header)"}</code>
      <span aria-hidden="true">→</span>${c.field ? html`<strong>${CELL_LABELS[c.field] || c.field}</strong>` : html`<span class="muted">ignored</span>`}</li>`)}
  </ul>`;
}

/**
 * The staged invoices per financial year: count and amount. With `beside` (the read-back after
 * a commit) each year shows the staged and the recorded side by side.
 */
function VerificationTable({ staged, beside }) {
  const years = [...new Set([...Object.keys(staged.invoices_by_fy), ...Object.keys(beside ? beside.invoices_by_fy : {})])].sort();
  const rows = years.map((fy) => ({ fy }));
  const count = (v, fy) => integer(v.invoices_by_fy[fy] || 0);
  const amount = (v, fy) => rupees(v.totals_by_fy[fy] || 0);
  const sum = (v) => Object.values(v.invoices_by_fy).reduce((a, b) => a + b, 0);
  const both = (v, fy) => html`${plural(v.invoices_by_fy[fy] || 0, "invoice")} · <strong>${amount(v, fy)}</strong>`;
  const columns = beside
    ? [
        { key: "fy", label: "Financial year", render: (r) => fyLabel(r.fy) },
        { key: "staged", label: "Staged", class: "num", render: (r) => both(staged, r.fy) },
        { key: "recorded", label: "Recorded", class: "num", render: (r) => both(beside, r.fy) },
      ]
    : [
        { key: "fy", label: "Financial year", render: (r) => fyLabel(r.fy) },
        { key: "n", label: "Invoices", class: "num", render: (r) => count(staged, r.fy) },
        { key: "amount", label: "Amount", class: "num", render: (r) => amount(staged, r.fy) },
      ];
  const footer = beside
    ? html`<tr><th scope="row">Total</th><td class="num">${plural(sum(staged), "invoice")} · ${rupees(staged.invoice_total)}</td>
        <td class="num" data-testid="recorded-total">${plural(sum(beside), "invoice")} · ${rupees(beside.invoice_total)}</td></tr>`
    : html`<tr><th scope="row">Total</th><td class="num">${integer(sum(staged))}</td><td class="num" data-testid="invoice-total">${rupees(staged.invoice_total)}</td></tr>`;
  return html`<div class="table-boxed">
    <${DataTable} caption="Invoices per financial year" columns=${columns} rows=${rows} rowKey="fy" footer=${footer}
      rowAttrs=${(r) => ({ "data-fy": r.fy })} empty="No readable invoice in the file." />
  </div>`;
}

/** The invoice number series the commit moves, read from the staged invoice rows (null: too many to read). */
async function seriesPreview(invoiceRows) {
  if (invoiceRows > SERIES_PREVIEW_ROWS) return null;
  const last = new Map();
  for (let page = 1; page <= Math.ceil(invoiceRows / 200) + 1; page += 1) {
    const answer = await get("/api/import/rows", { filter: "invoices", page, per_page: 200 });
    for (const r of answer.rows) {
      const m = /^([A-Z][A-Z0-9]{0,9})\/(\d\d-\d\d)-(\d{1,9})$/.exec(r.invoice_no);
      if (!m) continue;
      const key = `${m[1]} ${m[2]}`;
      const seq = Number(m[3]);
      if (!last.has(key) || last.get(key).seq < seq) last.set(key, { prefix: m[1], fy: m[2], seq, no: r.invoice_no });
    }
    if (page * 200 >= answer.total) break;
  }
  return [...last.values()].sort((a, b) => (a.prefix + a.fy).localeCompare(b.prefix + b.fy));
}

/** The gaps the commit would open in the office's number series, each as its range. */
function GapWarnings({ warnings }) {
  return html`<${Notice} tone="warning" title=${warnings.length === 1 ? "The commit opens a gap in a number series" : "The commit opens gaps in number series"} testid="import-warnings">
    <ul class="plain-list">
      ${warnings.map((w) => html`<li key=${w.series} data-series=${w.series}>
        <strong>${w.series}</strong>: ${numberRange(w.from, w.to, w.count)} missing between this office's last number and the file's first.</li>`)}
    </ul>
    <p class="hint">The number continuity report will show ${warnings.length === 1 ? "it" : "them"} as explained by the import. If the old system's numbers should follow on from this office's, correct them before committing.</p>
  </${Notice}>`;
}

/** "Create 2 clients, update 1, leave 1 as it is and record 3 invoices." */
function commitSentence(s) {
  const parts = [`create ${plural(s.to_create, "client")}`];
  if (s.to_update) parts.push(`update ${integer(s.to_update)}`);
  if (s.to_skip) parts.push(`leave ${integer(s.to_skip)} as ${s.to_skip === 1 ? "it is" : "they are"}`);
  parts.push(`record ${plural(s.invoices, "invoice")}`);
  const text = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}` : parts[0];
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function CommitMessage({ status, series }) {
  return html`<div data-testid="commit-summary">
    <p><strong>${commitSentence(status)}</strong></p>
    ${status.warnings.length > 0 && html`<${GapWarnings} warnings=${status.warnings} />`}
    ${(status.invoices_known > 0 || status.excluded > 0) && html`<p>
      ${status.invoices_known > 0 && `${plural(status.invoices_known, "invoice")} already imported ${status.invoices_known === 1 ? "is" : "are"} left as ${status.invoices_known === 1 ? "it is" : "they are"}. `}
      ${status.excluded > 0 && `${plural(status.excluded, "excluded row")} ${status.excluded === 1 ? "is" : "are"} left out.`}</p>`}
    ${status.checklist && html`<p>The old system's checklist of ${plural(status.checklist.length, "step")} becomes the whole checklist of modules with no checklist of their own.</p>`}
    ${series === null
      ? html`<p>Each invoice number series continues after the largest legacy number of its prefix and year.</p>`
      : series.length > 0 && html`<ul class="plain-list series-list">
          ${series.map((x) => html`<li key=${x.no}>Series ${x.prefix} ${x.fy} continues after ${x.no}: the next invoice of ${fyLabel(x.fy)} is ${x.prefix}/${x.fy}-${pad4(x.seq + 1)} at the earliest.</li>`)}
        </ul>`}
    <p class="hint">The clients and invoices are written in one go; there is no undo here.</p>
  </div>`;
}

/** The staged file: columns read, what the commit would do, problems by kind, Commit and Discard. */
function StagedCard({ status, onChanged }) {
  const [dialog, setDialog] = useState(null);
  const [preparing, setPreparing] = useState(false);
  const blocked = status.problems > 0;
  const kinds = Object.entries(status.problems_by_kind || {});
  const reason = blocked
    ? `Correct or exclude the ${status.problems === 1 ? "row with a problem" : `${integer(status.problems)} rows with problems`} first.`
    : status.staged === status.excluded ? "Every row is excluded: there is nothing to commit." : null;

  const review = async () => {
    setPreparing(true);
    try {
      const series = await seriesPreview(status.invoices + status.invoices_known);
      setDialog({ kind: "commit", series });
    } catch (e) {
      toast.error(e.message);
    } finally {
      setPreparing(false);
    }
  };
  const commit = async () => {
    try {
      const result = await post("/api/import/commit", {});
      setDialog(null);
      toast.success(`Imported: ${plural(result.clients_created, "client")} created, ${plural(result.invoices_created, "invoice")} recorded.`);
      onChanged();
    } catch (e) {
      // Refused (a problem the registry raised since staging): the counts are read again and the
      // dialog shows why.
      onChanged();
      throw e;
    }
  };
  const discard = async () => {
    await post("/api/import/discard", {});
    setDialog(null);
    toast.success(`${status.file_name || "The staged file"} is discarded.`);
    onChanged();
  };

  return html`
    ${dialog && dialog.kind === "commit" && html`<${ConfirmDialog} title=${`Commit ${status.file_name || "the staged file"}?`} tone="primary"
      confirmLabel=${status.warnings.length ? "Commit, leaving the gaps" : "Commit import"}
      message=${html`<${CommitMessage} status=${status} series=${dialog.series} />`} onConfirm=${commit} onCancel=${() => setDialog(null)} />`}
    ${dialog && dialog.kind === "discard" && html`<${ConfirmDialog} title=${`Discard ${status.file_name || "the staged file"}?`} confirmLabel="Discard file"
      message=${html`<p>The ${plural(status.staged, "staged row")} and the corrections made to them are forgotten. Nothing in the registry changes.</p>`}
      onConfirm=${discard} onCancel=${() => setDialog(null)} />`}
    <${Card} title=${status.file_name || "Staged file"} class="section-card staged-card">
      <div data-testid="import-summary">
        <p class="hint card-lead">Staged ${dateTime(status.staged_at)}. Nothing is in the registry yet.</p>
        <${Counts} status=${status} />
        ${kinds.length > 0 && html`<div class="problem-kinds" data-testid="problem-kinds">
          <h3 class="sub-title">Problems by kind</h3>
          <ul class="kind-list">${kinds.map(([k, n]) => html`<li key=${k} data-kind=${k}><${Badge} tone="danger">${integer(n)}</${Badge}> ${problemLabel(k)}</li>`)}</ul>
        </div>`}
        <h3 class="sub-title">Columns read</h3>
        <${ColumnMap} columns=${status.columns} />
        ${status.checklist && html`<h3 class="sub-title">Onboarding checklist</h3>
          <ol class="step-list" data-testid="import-checklist">${status.checklist.map((st) => html`<li key=${st.key}>${st.label}</li>`)}</ol>`}
        ${status.warnings.length > 0 && html`<${GapWarnings} warnings=${status.warnings} />`}
        <div class="commit-bar">
          <button type="button" class="btn btn-primary" disabled=${!!reason || preparing} aria-describedby=${reason ? "commit-reason" : undefined}
            aria-busy=${preparing ? "true" : undefined} onClick=${review}>
            ${preparing && html`<span class="spinner small" aria-hidden="true"></span>`}Review and commit</button>
          <button type="button" class="btn" onClick=${() => setDialog({ kind: "discard" })}>Discard staged file</button>
          ${reason && html`<p class="commit-reason" id="commit-reason" data-testid="commit-reason">${reason}</p>`}
        </div>
      </div>
    </${Card}>`;
}

function VerificationCard({ status }) {
  return html`<${Card} title="Compare the totals" class="section-card">
    <div data-testid="verification">
      <p class="card-lead">Invoices in the file: <strong data-testid="verification-total">${rupees(status.verification.invoice_total)}</strong>.
        Compare the count and amount of each year with the old system's own totals before committing: a difference means rows are
        missing, doubled or misread.</p>
      <${VerificationTable} staged=${status.verification} />
      ${status.problems > 0 && html`<p class="hint table-note">Rows whose date or total cannot be read are not in these sums until they are corrected.</p>`}
    </div>
  </${Card}>`;
}

/** What the commit did, and the totals read back from the recorded invoices beside the staged ones. */
function CommittedCards({ status }) {
  const { at, result, verification } = status.committed;
  const same = JSON.stringify(verification) === JSON.stringify(status.verification);
  const items = [
    `${plural(result.clients_created, "client")} created`,
    ...(result.clients_updated ? [`${plural(result.clients_updated, "client")} updated`] : []),
    ...(result.clients_unchanged ? [`${plural(result.clients_unchanged, "client")} already in the registry left as ${result.clients_unchanged === 1 ? "it was" : "they were"}`] : []),
    `${plural(result.invoices_created, "legacy invoice")} recorded`,
    ...(result.invoices_known ? [`${plural(result.invoices_known, "invoice")} already imported earlier left as ${result.invoices_known === 1 ? "it was" : "they were"}`] : []),
  ];
  return html`<div class="page-grid import-done">
    <${Card} title="Committed" class="section-card">
      <div data-testid="import-result">
        <p class="card-lead">${status.file_name || "The file"} was committed ${dateTime(at)}.</p>
        <ul class="plain-list result-list">${items.map((t) => html`<li key=${t}>${t}</li>`)}</ul>
        ${(result.series || []).length > 0 && html`<h3 class="sub-title">Number series</h3>
          <ul class="plain-list series-list" data-testid="import-series">
            ${result.series.map((x) => html`<li key=${x.prefix + x.fy}>${x.prefix} ${fyLabel(x.fy)}: continues after ${x.prefix}/${x.fy}-${pad4(x.last_seq)}</li>`)}
          </ul>`}
        <p class="hint">Imported invoices show “Imported from the old system” as their origin; what the old system was paid is settled on them.</p>
      </div>
    </${Card}>
    <${Card} title="Totals read back" class="section-card">
      <div data-testid="verification-compare">
        ${same
          ? html`<${Notice} tone="success" testid="verification-match">The recorded invoices match the staged file: the same count and amount in every year.</${Notice}>`
          : html`<${Notice} tone="warning" testid="verification-match">The recorded invoices differ from the staged file: compare the years below.</${Notice}>`}
        <${VerificationTable} staged=${status.verification} beside=${verification} />
      </div>
    </${Card}>
  </div>`;
}

export function ImportPage() {
  useTitle("Import");
  const { data: status, error, reload } = useFetch("/api/import/status");
  const [, setQuery] = useQuery();
  // Bumped when the staged file changes as a whole, so the rows list is read again.
  const [generation, setGeneration] = useState(0);
  const changedWhole = () => {
    reload();
    setGeneration((g) => g + 1);
  };

  let body;
  if (error) {
    body = html`<${Notice} tone="danger" alert=${true}>${error.message} <button type="button" class="btn btn-sm" onClick=${reload}>Try again</button></${Notice}>`;
  } else if (!status) {
    body = html`<${Loading} label="Reading what is staged…" />`;
  } else {
    const staged = !!status.staged_at;
    const committed = !!status.committed;
    body = html`
      ${staged && !committed && html`<div class="page-grid">
        <${StagedCard} status=${status} onChanged=${changedWhole} />
        <${VerificationCard} status=${status} />
      </div>`}
      ${committed && html`<${CommittedCards} status=${status} />`}
      ${staged && html`<${StagedRows} status=${status} onChanged=${reload} editable=${!committed} reloadKey=${generation} />`}
      <div class="page-grid">
        <div class="page-col">
          <${StageCard} status=${status} onStaged=${() => {
            setQuery({ filter: "", q: "" }, { replace: true });
            changedWhole();
          }} />
          <${LegacyCredentialsCard} />
        </div>
        <${FormatCard} />
      </div>`;
  }
  return html`<main data-page="import" class="import-page">
    <${PageHeader} title="Import from the old system"
      subtitle="Clients and their old invoices from a spreadsheet: stage the file, correct what it flags, compare the totals, then commit." />
    ${body}
  </main>`;
}
