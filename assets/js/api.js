// The one way the console talks to the server. It sends the session cookie, always gives
// state-changing requests a JSON body (the server answers 415 otherwise, as its CSRF rule; the
// logo upload is the one multipart request, through upload()), and turns every failure into an
// ApiError carrying the server's code, message and field.

/** A failed call: `status` 0 means the server could not be reached. */
export class ApiError extends Error {
  constructor(status, body, headers) {
    const err = (body && body.error) || {};
    super(err.message || defaultMessage(status));
    this.name = "ApiError";
    this.status = status;
    this.code = err.code || (status === 0 ? "network" : `http_${status}`);
    this.field = err.field || null;
    this.body = body || null;
    const retry = headers && headers.get("Retry-After");
    this.retryAfter = retry !== null && retry !== undefined && retry !== "" ? Number(retry) : null;
  }
}

function defaultMessage(status) {
  if (status === 0) return "Could not reach the server. Check the connection and try again.";
  if (status === 401) return "Please sign in.";
  if (status === 403) return "You do not have access to this.";
  if (status === 404) return "Not found. It may have been removed.";
  if (status === 429) return "Too many requests. Wait a moment and try again.";
  if (status >= 500) return "The server had a problem. Try again; if it goes on, tell the administrator.";
  return `The request failed (${status}).`;
}

// Whoever owns the session (app.js) registers here, so a 401 anywhere sends the user to
// the sign-in screen without each page having to handle it.
let unauthenticatedHandler = null;
export function onUnauthenticated(fn) {
  unauthenticatedHandler = fn;
}

/** Query string from an object, leaving out empty values: ({q:"a", role:""}) → "?q=a". */
export function qs(params) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v === null || v === undefined || v === "") continue;
    p.set(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** Sends one request and reads the answer: parsed JSON (null for 204), or throws an ApiError. */
async function exchange(path, init, auth) {
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    if (e && e.name === "AbortError") throw e;
    throw new ApiError(0, null, null);
  }
  let data = null;
  if (res.status !== 204) {
    const text = await res.text();
    if (text) {
      try {
        data = JSON.parse(text);
      } catch {
        data = null;
      }
    }
  }
  if (!res.ok) {
    const error = new ApiError(res.status, data, res.headers);
    if (res.status === 401 && auth && unauthenticatedHandler) unauthenticatedHandler(error);
    throw error;
  }
  return data;
}

/**
 * request("POST", "/api/employees", {...}) → parsed JSON (null for 204).
 * Options: `signal` (AbortSignal), `auth: false` to handle a 401 yourself (sign-in, boot).
 */
export async function request(method, path, body, { signal, auth = true } = {}) {
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" }, signal };
  if (method !== "GET" && method !== "HEAD") {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body ?? {});
  }
  return exchange(path, init, auth);
}

/**
 * POSTs a FormData (a file upload, e.g. the letterhead logo) as multipart/form-data; the browser
 * sets the Content-Type with its boundary. Answers and errors as request().
 */
export function upload(path, formData, { signal, auth = true } = {}) {
  const init = { method: "POST", credentials: "same-origin", headers: { Accept: "application/json" }, body: formData, signal };
  return exchange(path, init, auth);
}

export const get = (path, params, opts) => request("GET", path + qs(params), undefined, opts);
export const post = (path, body, opts) => request("POST", path, body, opts);
export const put = (path, body, opts) => request("PUT", path, body, opts);
export const patch = (path, body, opts) => request("PATCH", path, body, opts);
export const del = (path, body, opts) => request("DELETE", path, body, opts);

/** True for the error a superseded request throws when its AbortController fires. */
export const isAbort = (e) => !!e && e.name === "AbortError";
