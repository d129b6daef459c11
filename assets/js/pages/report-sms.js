// SMS balances (/reports/sms-balances): the last balance the gateway gave for each active SMS
// subscription, lowest first; Low (below the threshold in force) by default, Flagged (the last
// poll read no balance) or All, with a name search, all in the URL. Anyone may make a top-up
// quote from a row. Owner and manager also see each portal login (the password revealed for 30
// seconds, audited), download the logins as CSV (audited) and refresh every balance from the
// gateway, watching its progress; staff see the balances of their own clients only.
import { html, useState, useEffect, useRef } from "/vendor/preact-htm.js";
import { get, post, qs } from "../api.js";
import { integer, dateTime, ago } from "../format.js";
import {
  DataTable, useUrlList, SearchBox, FilterBar, FilterChips, Badge, ConfirmDialog, Notice, Progress, EmptyState,
  toast, navigate, useQuery, useSession, useTitle, PageHeader, Link, xlsxHref,
} from "../components.js";
import { isManagerial } from "../ui/clients.js";
import { usePortalReveal } from "../ui/projects.js";
import { SmsQuoteDialog, useRateCard, countsText, RefreshFailure } from "../ui/sms.js";
import { docUrl } from "../ui/documents.js";

const enc = encodeURIComponent;
const PATH = "/api/reports/sms-balances";
const REFRESH = "/api/reports/sms-balances/refresh";
const POLL_MS = 500;

const FILTERS = [
  { value: "low", label: "Low" },
  { value: "flagged", label: "Flagged" },
  { value: "all", label: "All" },
];
const DEFAULT_FILTER = "low";

/**
 * "Refresh all from the gateway": the POST answers only when every subscription was polled (up
 * to a minute), so while it is out the progress route is asked every half second. A pull already
 * running when the page opens (the daily pass, someone else's refresh) is followed the same way.
 * Returns { phase: idle | running | watching | done | failed, progress, counts, error, run, busy };
 * `onFinished` is called once a pull has ended (the list is read again).
 */
function useGatewayRefresh(enabled, onFinished) {
  const [state, setState] = useState({ phase: "idle" });
  const phase = useRef("idle");
  const finished = useRef(onFinished);
  finished.current = onFinished;
  const timer = useRef(null);
  const alive = useRef(true);
  const set = (next) => {
    phase.current = next.phase;
    if (alive.current) setState(next);
  };
  const stop = () => {
    clearInterval(timer.current);
    timer.current = null;
  };
  const poll = async () => {
    let p;
    try {
      p = await get(REFRESH);
    } catch {
      return; // the next tick asks again; the POST's answer settles the outcome
    }
    if (!alive.current) return;
    if (p.running && (phase.current === "running" || phase.current === "watching")) {
      set({ phase: phase.current, progress: p });
    } else if (!p.running && phase.current === "watching") {
      stop();
      set({ phase: "done", counts: p.counts });
      finished.current();
    }
  };
  const follow = () => {
    stop();
    timer.current = setInterval(poll, POLL_MS);
  };
  useEffect(() => {
    alive.current = true;
    if (enabled) {
      get(REFRESH)
        .then((p) => {
          if (!alive.current || !p.running || phase.current !== "idle") return;
          set({ phase: "watching", progress: p });
          follow();
        })
        .catch(() => {});
    }
    return () => {
      alive.current = false;
      stop();
    };
  }, [enabled]);
  const run = async () => {
    set({ phase: "running", progress: null });
    follow();
    try {
      const counts = await post(REFRESH, {});
      stop();
      set({ phase: "done", counts });
    } catch (error) {
      if (error.code === "sms_refresh_running") {
        // Someone else's pull: follow it to its end instead.
        set({ phase: "watching", progress: null });
        return;
      }
      stop();
      set({ phase: "failed", error });
    }
    finished.current();
  };
  return { ...state, run, busy: state.phase === "running" || state.phase === "watching" };
}

/** Where the refresh stands: its progress while it runs, then what it came to or why it failed. */
function RefreshStatus({ refresh, me }) {
  const { phase, progress: p } = refresh;
  if (phase === "running" || phase === "watching") {
    const label = phase === "running" ? "Asking the gateway for every balance…" : "A refresh is running…";
    return html`<div class="sms-refresh" data-testid="refresh-progress">
      ${p && p.total > 0
        ? html`<${Progress} value=${p.done} max=${p.total} label=${label} detail=${`${integer(p.done)} of ${integer(p.total)}`} />`
        : html`<${Progress} label=${label} />`}
    </div>`;
  }
  if (phase === "done") {
    const c = refresh.counts;
    return html`<${Notice} tone=${c.flagged > 0 ? "warning" : "success"} title="Refreshed from the gateway" testid="refresh-result">
      ${countsText(c)}.${c.flagged > 0 ? " A flagged subscription kept its last balance; the Flagged list says why." : ""}
    </${Notice}>`;
  }
  if (phase === "failed") return html`<${RefreshFailure} error=${refresh.error} me=${me} />`;
  return null;
}

/** The top-up quote of one row: the project page's dialog, its count starting at the rate card's minimum. */
function TopUpDialog({ row, onClose }) {
  const sub = { id: row.client_module_id, client_id: row.client_id, module_id: row.module_id, client_name: row.client_name };
  const card = useRateCard(sub);
  const minimum = card ? card.minimum : null;
  return html`<${SmsQuoteDialog} project=${sub} minimum=${minimum} suggested=${minimum} onClose=${onClose} onDone=${(doc) => {
    onClose();
    toast.success("Proforma draft made: check it and issue it.");
    navigate(docUrl(doc.id));
  }} />`;
}

const EMPTY = {
  low: (threshold) => `No subscription is below ${integer(threshold)} credits.`,
  flagged: () => "No subscription is flagged: the last poll read every balance.",
  all: () => "No active SMS subscription yet: subscriptions of the module with code SMS are listed here.",
};

export function SmsBalancesPage() {
  const { me } = useSession();
  const managerial = isManagerial(me);
  useTitle("SMS balances");
  const [query] = useQuery();
  const filter = FILTERS.some((f) => f.value === query.filter) ? query.filter : DEFAULT_FILTER;
  const list = useUrlList(PATH, ["q"], { extra: { filter } });
  const { setQuery, data } = list;
  const reload = useRef(list.reload);
  reload.current = list.reload;
  const refresh = useGatewayRefresh(managerial, () => reload.current());
  const [confirming, setConfirming] = useState(false);
  const [quoting, setQuoting] = useState(null);
  const { reveal, revealing, secretOf } = usePortalReveal([filter, query.q, query.page, query.sort]);

  const columns = [
    {
      key: "client_name", label: "Client", sortable: true, wrap: true,
      render: (r) => html`<${Link} class="cell-main" href=${`/clients/${enc(r.client_id)}`}>${r.client_name}</${Link}>`,
    },
    { key: "module_code", label: "Code", render: (r) => html`<span class="mono-ish">${r.module_code}</span>` },
    {
      key: "balance", label: "Balance", sortable: true, class: "num",
      render: (r) => (r.balance === null || r.balance === undefined
        ? html`<span class="muted">Not read yet</span>`
        : html`<span class="sms-balance">${r.low && html`<${Badge} tone="danger">Low</${Badge}> `}<span class=${r.low ? "sms-low" : ""} data-testid="balance">${integer(r.balance)}</span></span>`),
    },
    {
      key: "checked_at", label: "Last checked", sortable: true,
      render: (r) => (r.checked_at
        ? html`<time datetime=${r.checked_at}>${dateTime(r.checked_at)}</time><div class="cell-sub">${ago(r.checked_at)}</div>`
        : html`<span class="muted">Never</span>`),
    },
    {
      key: "flag", label: "Flag", wrap: true,
      render: (r) => (r.flag
        ? html`<span class="sms-flag" data-testid="flag"><${Badge} tone="warning">Flagged</${Badge}> <span class="sms-flag-text">${r.flag}</span></span>`
        : html`<span class="muted">—</span>`),
    },
  ];
  if (managerial) {
    columns.push(
      { key: "username", label: "Username", render: (r) => (r.username ? html`<span class="mono-ish">${r.username}</span>` : html`<span class="muted">—</span>`) },
      {
        key: "password", label: "Password",
        render: (r) => r.hasPassword && html`<button type="button" class="btn btn-sm" onClick=${() => reveal(r)}
          disabled=${revealing === r.client_module_id} aria-busy=${revealing === r.client_module_id ? "true" : undefined}
          aria-label=${`Reveal the password of ${r.client_name}`}>Reveal</button>`,
      },
    );
  }
  columns.push({
    key: "actions", label: "", class: "actions-col",
    render: (r) => html`<button type="button" class="btn btn-sm" onClick=${() => setQuoting(r)}
      aria-label=${`Top-up quote for ${r.client_name}`}>Top-up quote</button>`,
  });


  const threshold = data ? data.threshold : null;
  const csv = `${PATH}.csv${qs({ filter, q: query.q, sort: query.sort })}`;
  const actions = managerial && html`
    <a class="btn" href=${csv} download data-testid="sms-csv" title="Every login of this list with its password, in clear; the download is recorded in the audit trail">Download logins (CSV)</a>
    <a class="btn" href=${xlsxHref(csv)} download data-testid="sms-xlsx" title="Every login of this list with its password, in clear; the download is recorded in the audit trail">Download logins (Excel)</a>
    <button type="button" class="btn btn-primary" onClick=${() => setConfirming(true)} disabled=${refresh.busy}
      aria-busy=${refresh.busy ? "true" : undefined}>${refresh.busy && html`<span class="spinner small" aria-hidden="true"></span>`}Refresh all from the gateway</button>`;
  const empty = query.q
    ? html`<${EmptyState} title=${`No client named like “${query.q}” in this list.`}>
        <button type="button" class="btn btn-sm" onClick=${() => setQuery({ q: "" })}>Clear the search</button></${EmptyState}>`
    : EMPTY[filter](threshold ?? 0);
  return html`<main data-page="sms-balances">
    ${quoting && html`<${TopUpDialog} row=${quoting} onClose=${() => setQuoting(null)} />`}
    ${confirming && html`<${ConfirmDialog} title="Refresh every balance from the gateway?" tone="primary" confirmLabel="Refresh all"
      message=${html`<p>The gateway is asked for the balance of every active SMS subscription, a few at a time; with many subscriptions this takes up to a minute.</p>
        <p>A balance that changed is recorded in the audit trail. A subscription the gateway cannot read is flagged with the reason and keeps its last balance.</p>`}
      onCancel=${() => setConfirming(false)} onConfirm=${() => {
        setConfirming(false);
        refresh.run();
      }} />`}
    <p class="crumbs"><${Link} href="/reports">← Reports</${Link}></p>
    <${PageHeader} title="SMS balances" actions=${actions}
      subtitle=${managerial
        ? "The last balance the SMS gateway gave for each active SMS subscription, lowest first, with its portal login."
        : "The last balance the SMS gateway gave for the SMS subscriptions of your clients, lowest first."} />
    <${RefreshStatus} refresh=${refresh} me=${me} />
    <${FilterBar} label="Filter SMS balances">
      <${FilterChips} value=${filter} options=${FILTERS} onChange=${(f) => setQuery({ filter: f === DEFAULT_FILTER ? "" : f })} />
      <${SearchBox} value=${query.q || ""} label="Client" placeholder="Part of the name…" onSearch=${(q) => setQuery({ q }, { replace: true })} />
    </${FilterBar}>
    ${threshold !== null && html`<p class="sms-threshold" data-testid="sms-threshold">
      Low is below <strong>${integer(threshold)}</strong> credits.${me.role === "owner" && html` <${Link} href="/settings/operations">Change the threshold</${Link}>`}
    </p>`}
    <div data-testid="sms-balances">
      <${DataTable} caption="SMS balances" columns=${columns} ...${list.tableProps} rowKey="client_module_id" expanded=${secretOf} empty=${empty}
        rowAttrs=${(r) => ({ "data-id": r.client_module_id, "data-client-id": r.client_id, "data-low": r.low ? "1" : "0", "data-flagged": r.flag ? "1" : "0" })} />
    </div>
  </main>`;
}
