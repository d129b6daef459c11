// Warnings that must reach another document's page. A convert-and-send's failed email (kind
// "send") and a conversion's moved prices (kind "price") are told on the new document's page,
// after a navigation. Kept in memory (the page changes without a reload) and in sessionStorage (a
// reload keeps them) until the user deals with them.
const pendingWarnings = new Map();
const warningKey = (id, kind) => `${kind}-warning:${id}`;

export function keepWarnings(id, warnings, kind) {
  pendingWarnings.set(warningKey(id, kind), warnings);
  try {
    sessionStorage.setItem(warningKey(id, kind), JSON.stringify(warnings));
  } catch {
    /* storage off: memory is enough for this visit */
  }
}

export function readWarnings(id, kind) {
  const key = warningKey(id, kind);
  if (pendingWarnings.has(key)) return pendingWarnings.get(key);
  try {
    const stored = JSON.parse(sessionStorage.getItem(key) || "null");
    return Array.isArray(stored) ? stored : null;
  } catch {
    return null;
  }
}

export function dropWarnings(id, kind) {
  pendingWarnings.delete(warningKey(id, kind));
  try {
    sessionStorage.removeItem(warningKey(id, kind));
  } catch {
    /* nothing stored */
  }
}
