// Pure formatting and parsing helpers. No DOM use, so they can be tested on their own
// (e.g. `node --input-type=module` or the browser console) and reused by every screen.

// Money travels as integer paise. BigInt keeps the digits exact for any size; floats would
// round large sums and print 0.1 + 0.2 style noise.
function toBigInt(paise) {
  if (typeof paise === "bigint") return paise;
  if (typeof paise === "number") {
    if (!Number.isSafeInteger(paise)) throw new TypeError(`rupees() wants integer paise, got ${paise}`);
    return BigInt(paise);
  }
  if (typeof paise === "string" && /^-?\d+$/.test(paise.trim())) return BigInt(paise.trim());
  throw new TypeError(`rupees() wants integer paise, got ${String(paise)}`);
}

/** Indian digit grouping of a string of digits: "123456" → "1,23,456" (last 3, then pairs). */
export function groupIndian(digits) {
  if (digits.length <= 3) return digits;
  const last3 = digits.slice(-3);
  let rest = digits.slice(0, -3);
  const pairs = [];
  while (rest.length > 2) {
    pairs.unshift(rest.slice(-2));
    rest = rest.slice(0, -2);
  }
  if (rest) pairs.unshift(rest);
  return `${pairs.join(",")},${last3}`;
}

/** 12345600 → "₹1,23,456.00"; -5 → "-₹0.05"; null/undefined/"" → "". */
export function rupees(paise) {
  if (paise === null || paise === undefined || paise === "") return "";
  const n = toBigInt(paise);
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const whole = (abs / 100n).toString();
  const fraction = (abs % 100n).toString().padStart(2, "0");
  return `${negative ? "-" : ""}₹${groupIndian(whole)}.${fraction}`;
}

/**
 * Rupees typed by a person → integer paise, with string arithmetic (no float rounding):
 * "2,500.50" → 250050, "₹1,23,456" → 12345600, "0.5" → 50, "-12" → -1200.
 * Commas may group the whole rupees (Indian or western style); a ₹ or "Rs" prefix and spaces
 * are ignored. More than two decimals, stray characters, an empty text or a sum beyond
 * Number.MAX_SAFE_INTEGER paise → null (the caller says what is wrong).
 */
export function paiseFromRupees(text) {
  if (text === null || text === undefined) return null;
  let s = String(text).replace(/[\s\u00a0]/g, "");
  let negative = false;
  if (s.startsWith("-")) {
    negative = true;
    s = s.slice(1);
  }
  s = s.replace(/^(₹|rs\.?|inr)/i, "");
  if (!negative && s.startsWith("-")) {
    negative = true;
    s = s.slice(1);
  }
  const m = /^(\d+(?:,\d+)*)?(?:\.(\d{0,2}))?$/.exec(s);
  if (!m || (!m[1] && !m[2])) return null;
  const whole = BigInt((m[1] || "0").replace(/,/g, ""));
  const fraction = BigInt((m[2] || "").padEnd(2, "0"));
  const paise = whole * 100n + fraction;
  if (paise > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const n = Number(paise);
  return negative && n !== 0 ? -n : n;
}

/** Paise → the plain rupee text an input starts with: 250050 → "2500.50"; null → "". */
export function rupeesInput(paise) {
  if (paise === null || paise === undefined || paise === "") return "";
  return rupees(paise).replace(/[₹,]/g, "");
}

/** An integer count with Indian grouping: 132000 → "1,32,000". */
export function integer(n) {
  if (n === null || n === undefined || n === "") return "";
  const big = toBigInt(n);
  const negative = big < 0n;
  return (negative ? "-" : "") + groupIndian((negative ? -big : big).toString());
}

const pad2 = (n) => String(n).padStart(2, "0");

/**
 * A run of missing numbers of one series by their sequences, with the series' zero padding:
 * "0159–0899 (741 numbers)", or "0159" alone. `from` and `to` are whole numbers ("INV/25-26-0159").
 */
export function numberRange(from, to, count) {
  const seq = (n) => String(n).slice(String(n).lastIndexOf("-") + 1);
  return from === to ? seq(from) : `${seq(from)}–${seq(to)} (${integer(count)} numbers)`;
}

/** "2026-11-22" (or an RFC 3339 text: its date part) → "22-11-2026"; anything else as given. */
export function date(iso) {
  if (!iso) return "";
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(iso));
  return m ? `${m[3]}-${m[2]}-${m[1]}` : String(iso);
}

function parseInstant(rfc3339) {
  if (!rfc3339) return null;
  const d = new Date(rfc3339);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** RFC 3339 (UTC) → the browser's local "22-11-2026 15:04". */
export function dateTime(rfc3339) {
  const d = parseInstant(rfc3339);
  if (!d) return rfc3339 ? String(rfc3339) : "";
  return `${pad2(d.getDate())}-${pad2(d.getMonth() + 1)}-${d.getFullYear()} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** RFC 3339 → local "15:04". */
export function time(rfc3339) {
  const d = parseInstant(rfc3339);
  return d ? `${pad2(d.getHours())}:${pad2(d.getMinutes())}` : "";
}

/**
 * A moment for "try again after …": only the local time when it falls today (relative to
 * `now`), else the date and time, so a lock that ends tomorrow is not misread.
 */
export function timeOrDateTime(rfc3339, now = new Date()) {
  const d = parseInstant(rfc3339);
  if (!d) return "";
  const sameDay = d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate();
  return sameDay ? time(rfc3339) : dateTime(rfc3339);
}

/**
 * How long ago an RFC 3339 moment was, relative to `now`: "just now", "5 min ago", "3 h ago",
 * "2 days ago" (a moment in the future reads "just now"); "" when it is not a moment.
 */
export function ago(rfc3339, now = Date.now()) {
  const d = parseInstant(rfc3339);
  if (!d) return "";
  const minutes = Math.floor((now - d.getTime()) / 60000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return days === 1 ? "1 day ago" : `${integer(days)} days ago`;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "2026-05" → "May 2026". */
export function monthLabel(ym) {
  const m = /^(\d{4})-(\d{2})$/.exec(String(ym || ""));
  return m && MONTHS[Number(m[2]) - 1] ? `${MONTHS[Number(m[2]) - 1]} ${m[1]}` : String(ym || "");
}

/**
 * The one reading of a typed date. "22-11-2026" (also with / or . between, and 1-digit day or
 * month) → { iso: "2026-11-22" }; a real month without that day → { problem: "31-02-2026: there
 * is no such date (February has 28 days in 2026)." }; any other text → {}.
 */
function readDate(text) {
  const m = /^\s*(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})\s*$/.exec(String(text ?? ""));
  if (!m) return {};
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Years before 100 are typos (and Date would read them as 19xx).
  if (month < 1 || month > 12 || year < 100) return {};
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > days) {
    return { problem: `${String(text).trim()}: there is no such date (${MONTHS[month - 1]} has ${days} days in ${year}).` };
  }
  return { iso: `${year}-${pad2(month)}-${pad2(day)}` };
}

/** "22-11-2026" → "2026-11-22"; null when the text is not a real calendar date. */
export function parseDate(text) {
  return readDate(text).iso || null;
}

/** Why text written as a date is none: "31-02-2026: there is no such date (February has 28 days in 2026)."; null otherwise. */
export function noSuchDate(text) {
  return readDate(text).problem || null;
}

/** The local date of `d` as "YYYY-MM-DD". */
export function isoDate(d = new Date()) {
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

/** Seconds (e.g. a Retry-After header) → "14 minutes", "1 minute", "45 seconds". */
export function duration(seconds) {
  const s = Math.max(0, Math.ceil(Number(seconds) || 0));
  if (s < 60) return s === 1 ? "1 second" : `${s} seconds`;
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return minutes === 1 ? "1 minute" : `${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? "1 hour" : `${hours} hours`;
}

/** The honest range line of a paged list: (1, 50, 132) → "1–50 of 132"; empty → "0 of 0". */
export function pageRange(page, perPage, total) {
  const t = Number(total) || 0;
  if (t === 0) return "0 of 0";
  const first = (page - 1) * perPage + 1;
  if (first > t) return `0 of ${integer(t)}`;
  const last = Math.min(page * perPage, t);
  return `${integer(first)}–${integer(last)} of ${integer(t)}`;
}

const ROLE_LABELS = { owner: "Owner", manager: "Manager", staff: "Staff" };

/** "owner" → "Owner". */
export function roleLabel(role) {
  return ROLE_LABELS[role] ?? String(role ?? "");
}

/** "success" → "Success" (any snake_case code → a capitalised phrase). */
export function humanize(code) {
  const s = String(code ?? "").replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** True when an RFC 3339 `locked_until` is still in the future. */
export function isLocked(lockedUntil, now = Date.now()) {
  const d = parseInstant(lockedUntil);
  return !!d && d.getTime() > now;
}
