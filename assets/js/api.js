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

/**
 * POSTs a JSON body as request() does, reporting the upload's progress (a large body such as an
 * import file): `onProgress({ loaded, total })` while the body goes up, then `onSent()` once it
 * is all sent and the server is working on it. fetch() cannot report an upload's progress, so
 * this one request uses XMLHttpRequest. `body` is an object, or its JSON text when the caller has
 * made it already (to measure it). Answers and errors as request(); `signal` aborts it.
 */
export function postWithProgress(path, body, { onProgress, onSent, signal, auth = true } = {}) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const aborted = () => reject(new DOMException("The request was aborted.", "AbortError"));
    if (signal && signal.aborted) return aborted();
    xhr.open("POST", path);
    xhr.withCredentials = true;
    xhr.setRequestHeader("Content-Type", "application/json");
    xhr.setRequestHeader("Accept", "application/json");
    if (onProgress) xhr.upload.onprogress = (e) => onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : null });
    if (onSent) xhr.upload.onload = () => onSent();
    xhr.onerror = () => reject(new ApiError(0, null, null));
    xhr.onabort = aborted;
    xhr.onload = () => {
      let data = null;
      if (xhr.status !== 204 && xhr.responseText) {
        try {
          data = JSON.parse(xhr.responseText);
        } catch {
          data = null;
        }
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(data);
      const error = new ApiError(xhr.status, data, { get: (name) => xhr.getResponseHeader(name) });
      if (xhr.status === 401 && auth && unauthenticatedHandler) unauthenticatedHandler(error);
      reject(error);
    };
    if (signal) signal.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(typeof body === "string" ? body : JSON.stringify(body ?? {}));
  });
}

export const get = (path, params, opts) => request("GET", path + qs(params), undefined, opts);
export const post = (path, body, opts) => request("POST", path, body, opts);
export const put = (path, body, opts) => request("PUT", path, body, opts);
export const patch = (path, body, opts) => request("PATCH", path, body, opts);
export const del = (path, body, opts) => request("DELETE", path, body, opts);

/** True for the error a superseded request throws when its AbortController fires. */
export const isAbort = (e) => !!e && e.name === "AbortError";
