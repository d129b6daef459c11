// A small history-API router. The URL is the single source of truth for which screen shows
// and for list state (filters, page, sort), so reload, back/forward and shared links work.
import { html, useState, useEffect, useCallback } from "/vendor/preact-htm.js";

const listeners = new Set();

function snapshot() {
  return { path: location.pathname, search: location.search, query: Object.fromEntries(new URLSearchParams(location.search)) };
}

function emit() {
  for (const fn of listeners) fn();
}

window.addEventListener("popstate", emit);

const leaveGuards = new Set();

/**
 * While `dirty`, leaving the screen asks first: an in-app link (a confirmation the user may
 * decline, staying with their changes), and a reload or closing the tab (the browser's own
 * question). Saving and then moving on (a programmatic `navigate`) does not ask.
 */
export function useLeaveGuard(dirty, message = "You have changes that are not saved. Leave this page and lose them?") {
  useEffect(() => {
    if (!dirty) return undefined;
    const guard = () => message;
    const beforeUnload = (e) => {
      e.preventDefault();
      e.returnValue = "";
    };
    leaveGuards.add(guard);
    window.addEventListener("beforeunload", beforeUnload);
    return () => {
      leaveGuards.delete(guard);
      window.removeEventListener("beforeunload", beforeUnload);
    };
  }, [dirty, message]);
}

/** Whether the user lets the current screen go (true when nothing is unsaved). */
function mayLeave(to) {
  if (leaveGuards.size === 0 || new URL(to, location.origin).pathname === location.pathname) return true;
  return window.confirm([...leaveGuards][0]());
}

/** Go to an in-app URL ("/employees?page=2"). `replace` rewrites the current history entry. */
export function navigate(to, { replace = false } = {}) {
  const here = location.pathname + location.search;
  if (to === here) return;
  const samePath = new URL(to, location.origin).pathname === location.pathname;
  history[replace ? "replaceState" : "pushState"](null, "", to);
  // A new screen starts at the top; a filter change on the same screen keeps its place.
  if (!samePath) window.scrollTo(0, 0);
  emit();
}

/** The current location as `{path, search, query}`, re-rendering on every change. */
export function useLocation() {
  const [loc, setLoc] = useState(snapshot);
  useEffect(() => {
    const fn = () => setLoc(snapshot());
    listeners.add(fn);
    fn(); // catch a change between first render and subscription
    return () => listeners.delete(fn);
  }, []);
  return loc;
}

/**
 * The URL query as a plain object, and `setQuery(patch, {replace})` that merges the patch
 * (empty values are dropped). Any change other than `page` goes back to page 1, since the
 * old page number means nothing for a new filter.
 */
export function useQuery() {
  const loc = useLocation();
  const setQuery = useCallback((patch, { replace = false } = {}) => {
    const next = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null || v === undefined || v === "") next.delete(k);
      else next.set(k, String(v));
    }
    if (!("page" in patch)) next.delete("page");
    const s = next.toString();
    navigate(location.pathname + (s ? `?${s}` : ""), { replace });
  }, []);
  return [loc.query, setQuery];
}

/** An in-app link: a real <a href> (so open-in-new-tab works) that navigates without reload. */
export function Link({ href, children, onClick, ...rest }) {
  const click = (e) => {
    if (onClick) onClick(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    if (mayLeave(href)) navigate(href);
  };
  return html`<a href=${href} onClick=${click} ...${rest}>${children}</a>`;
}

/** Only same-site paths are followed after sign-in, so ?next= cannot send a user elsewhere. */
export function safeNext(next) {
  if (typeof next !== "string" || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  if (next.startsWith("/login")) return "/";
  return next;
}
