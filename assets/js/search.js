// The search box of the console's top bar (issue 20): clients (also by phone), issued documents,
// tickets and payments (by receipt number, issue 34) as one types; a paid invoice is badged "paid". `/` anywhere but in a field puts the cursor in it. The server is asked 150 ms after
// typing stops (and not under two characters); an answer to older text is dropped (its request
// aborted). The hits show grouped in a listbox under the box: ArrowDown / ArrowUp move through
// them, Enter opens the highlighted one (the first when none is), Escape closes the list, and a
// click opens a hit too. A group with more than it shows ends in a link to the full list.
import { html, useState, useEffect, useRef } from "/vendor/preact-htm.js";
import { get, isAbort } from "./api.js";
import { navigate, useLocation } from "./router.js";
import { date, rupees } from "./format.js";

const DEBOUNCE_MS = 150;
const MIN_CHARS = 2;
const MAX_CHARS = 100;
const enc = encodeURIComponent;

const TYPES = { QUOTATION: "Quotation", PROFORMA: "Proforma invoice", INVOICE: "Invoice", CREDIT_NOTE: "Credit note" };
const words = (code) => String(code || "").replace(/_/g, " ");

/** Each group: its title, how a hit reads and links, and where its full list is. */
const GROUPS = [
  {
    key: "clients",
    title: "Clients",
    href: (h) => `/clients/${enc(h.id)}`,
    line: (h) => h.detail,
    badge: (h) => (h.status !== "active" ? words(h.status) : null),
    more: (q) => `/clients?q=${enc(q)}`,
  },
  {
    key: "documents",
    title: "Documents",
    href: (h) => `/documents/${enc(h.id)}`,
    line: (h) => [TYPES[h.type] || h.type, h.client_name, date(h.doc_date), rupees(h.total)].filter(Boolean).join(" · "),
    badge: (h) => words(h.status),
    // A paid invoice says so beside its status (issue 34).
    paid: (h) => h.payment_state === "paid",
    more: (q) => `/documents?q=${enc(q)}`,
  },
  {
    key: "tickets",
    title: "Tickets",
    href: (h) => `/tickets/${enc(h.id)}`,
    line: (h) => `${h.client_name} · opened ${date(h.opened_on)}`,
    badge: (h) => words(h.status),
    more: (q) => `/tickets?search=${enc(q)}&chip=all`,
  },
  {
    key: "payments",
    title: "Payments",
    href: (h) => `/payments/${enc(h.id)}`,
    line: (h) => [h.client_name, date(h.received_on), rupees(h.amount)].filter(Boolean).join(" · "),
    badge: (h) => (h.status !== "recorded" ? words(h.status) : null),
    more: (q) => `/payments?q=${enc(q)}`,
  },
];

/** Whether a key press happens while the person types into something. */
function typing(target) {
  if (!target || !(target instanceof Element)) return false;
  return !!target.closest("input, textarea, select, [contenteditable='true'], [contenteditable='']");
}

/** The top bar's search box. */
export function GlobalSearch() {
  const loc = useLocation();
  const [text, setText] = useState("");
  const [answer, setAnswer] = useState(null); // { q, data } of the latest answer
  const [error, setError] = useState(null);
  const [loading, setLoading] = useState(false);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef(null);
  const box = useRef(null);

  // `/` puts the cursor in the box, unless one is typing into a field already.
  useEffect(() => {
    const onKey = (e) => {
      if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      if (typing(e.target) || document.querySelector("dialog[open]")) return;
      e.preventDefault();
      input.current.focus();
      input.current.select();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  // Another screen closes the list.
  useEffect(() => setOpen(false), [loc.path]);

  // Ask 150 ms after the last key; an older request is aborted, so its answer never lands.
  const q = text.trim();
  useEffect(() => {
    setActive(-1);
    if (q.length < MIN_CHARS || q.length > MAX_CHARS) {
      setAnswer(null);
      setError(null);
      setLoading(false);
      return undefined;
    }
    const ctl = new AbortController();
    setLoading(true);
    const timer = setTimeout(() => {
      get("/api/search", { q }, { signal: ctl.signal })
        .then((data) => {
          setAnswer({ q, data });
          setError(null);
          setLoading(false);
        })
        .catch((err) => {
          if (isAbort(err)) return;
          setError(err);
          setLoading(false);
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [q]);

  // Close when the focus or a click goes elsewhere.
  useEffect(() => {
    const away = (e) => {
      if (box.current && !box.current.contains(e.target)) setOpen(false);
    };
    document.addEventListener("mousedown", away);
    document.addEventListener("focusin", away);
    return () => {
      document.removeEventListener("mousedown", away);
      document.removeEventListener("focusin", away);
    };
  }, []);

  const data = answer && answer.q === q ? answer.data : null;
  const groups = data
    ? GROUPS.filter((g) => data[g.key]).map((g) => ({ ...g, rows: data[g.key].rows, capped: data[g.key].capped })).filter((g) => g.rows.length > 0)
    : [];
  const flat = groups.flatMap((g) => g.rows.map((h) => ({ group: g, hit: h })));
  const optionId = (i) => `search-hit-${i}`;

  const go = (href) => {
    setOpen(false);
    setText("");
    input.current.blur();
    navigate(href);
  };

  const onKeyDown = (e) => {
    if (e.key === "Escape") {
      if (open && q) {
        e.preventDefault();
        setOpen(false);
      } else {
        setText("");
        input.current.blur();
      }
      return;
    }
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (flat.length === 0) return;
      e.preventDefault();
      setOpen(true);
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (i < 0 && step < 0 ? flat.length - 1 : (i + step + flat.length) % flat.length));
      return;
    }
    if (e.key === "Enter") {
      e.preventDefault();
      const chosen = flat[active >= 0 ? active : 0];
      if (chosen) go(chosen.group.href(chosen.hit));
    }
  };

  // Keep the highlighted hit in view as the arrows move it.
  useEffect(() => {
    const el = active >= 0 && document.getElementById(optionId(active));
    if (el) el.scrollIntoView({ block: "nearest" });
  }, [active]);

  const showList = open && q.length >= MIN_CHARS;
  let status = "";
  if (q.length > MAX_CHARS) status = `Search for at most ${MAX_CHARS} characters.`;
  else if (error) status = error.message;
  else if (data && flat.length === 0) status = `Nothing matches “${q}”.`;
  else if (!data && loading) status = "Searching…";
  let index = -1;
  return html`<div class="global-search" ref=${box} data-testid="global-search">
    <label for="global-search-input" class="sr-only">Search clients, documents, tickets and payments</label>
    <span class="global-search-icon" aria-hidden="true"></span>
    <input id="global-search-input" ref=${input} class="control global-search-input" type="search" name="global_search"
      placeholder="Search clients, documents, tickets, payments…" autocomplete="off" spellcheck="false" maxlength=${MAX_CHARS + 20}
      role="combobox" aria-autocomplete="list" aria-controls="global-search-results" aria-expanded=${showList ? "true" : "false"}
      aria-activedescendant=${showList && active >= 0 ? optionId(active) : undefined}
      value=${text}
      onInput=${(e) => {
        setText(e.currentTarget.value);
        setOpen(true);
      }}
      onFocus=${() => setOpen(true)} onKeyDown=${onKeyDown} />
    <kbd class="global-search-key" aria-hidden="true">/</kbd>
    <div class=${`global-search-panel${showList ? " open" : ""}`} hidden=${!showList}>
      ${status && html`<p class="global-search-status" data-testid="search-status">${status}</p>`}
      <div id="global-search-results" role="listbox" aria-label="Search results" class="global-search-results">
        ${groups.map((g) => html`<div role="group" class="search-group" aria-labelledby=${`search-group-${g.key}`} data-group=${g.key} key=${g.key}>
          <div class="search-group-title" id=${`search-group-${g.key}`}>${g.title}</div>
          ${g.rows.map((h) => {
            index += 1;
            const i = index;
            const badge = g.badge(h);
            return html`<a id=${optionId(i)} role="option" key=${h.id} class="search-hit" href=${g.href(h)} tabindex="-1"
              aria-selected=${i === active ? "true" : "false"} data-id=${h.id}
              onMouseMove=${() => active !== i && setActive(i)}
              onClick=${(e) => {
                if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
                e.preventDefault();
                go(g.href(h));
              }}>
              <span class="search-hit-label">${h.label}${badge && html` <span class="badge badge-neutral">${badge}</span>`}${
                g.paid && g.paid(h) && html` <span class="badge badge-success" data-testid="paid-badge">paid</span>`}</span>
              ${g.line(h) && html`<span class="search-hit-line">${g.line(h)}</span>`}
            </a>`;
          })}
          ${g.capped && html`<a class="search-more" href=${g.more(q)} tabindex="-1" onClick=${(e) => {
            if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
            e.preventDefault();
            go(g.more(q));
          }}>More ${g.title.toLowerCase()} matching “${q}” →</a>`}
        </div>`)}
      </div>
    </div>
    <span class="sr-only" aria-live="polite">${showList && data ? (flat.length ? `${flat.length} results` : "No results") : ""}</span>
  </div>`;
}
