// Applies each rendered document's accent colour (data-accent, a checked #rrggbb) as a CSS
// variable: the strict CSP allows no inline style, but a script from this origin may set it.
export function applyAccent(root = document) {
  for (const sheet of root.querySelectorAll(".doc-sheet[data-accent]")) {
    const accent = sheet.dataset.accent;
    if (/^#[0-9a-fA-F]{6}$/.test(accent)) sheet.style.setProperty("--accent", accent);
  }
}
applyAccent();
