// Small hooks shared by the screens.
import { useState, useEffect, createContext, useContext } from "/vendor/preact-htm.js";
import { get, isAbort } from "./api.js";

/**
 * GET one resource: const { data, error, loading, reload } = useFetch("/api/me").
 * `params` are sent as the query; the request is redone when path or params change, and a
 * superseded request is aborted so an old answer never overwrites a newer one.
 * Pass path null to skip.
 */
export function useFetch(path, params) {
  const key = path ? path + JSON.stringify(params || {}) : null;
  const [state, setState] = useState({ data: null, error: null, loading: !!path });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!path) return undefined;
    const ctl = new AbortController();
    setState((s) => ({ ...s, loading: true, error: null }));
    get(path, params, { signal: ctl.signal })
      .then((data) => setState({ data, error: null, loading: false }))
      .catch((error) => {
        if (!isAbort(error)) setState((s) => ({ ...s, error, loading: false }));
      });
    return () => ctl.abort();
  }, [key, tick]);
  return { ...state, reload: () => setTick((t) => t + 1) };
}

/** Sets the tab title to "<title> · Back office". */
export function useTitle(title) {
  useEffect(() => {
    document.title = title ? `${title} · Back office` : "Back office";
  }, [title]);
}

/**
 * The signed-in session, provided by app.js:
 * { me (the /api/me employee), setMe, refreshMe() → Promise, signOut() → Promise }.
 */
export const SessionContext = createContext(null);
export const useSession = () => useContext(SessionContext);
