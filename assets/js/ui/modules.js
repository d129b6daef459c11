// Modules wherever the console names one: the address of a module's page, its Active / Retired
// badge, and the module and active filters of the lists by subscription (portals, module data).
import { html } from "/vendor/preact-htm.js";
import { Badge, useFetch } from "../components.js";

export const moduleUrl = (id) => `/modules/${encodeURIComponent(id)}`;

export function ActiveBadge({ active }) {
  return html`<${Badge} tone=${active ? "success" : "neutral"}>${active ? "Active" : "Retired"}</${Badge}>`;
}

export const ACTIVE_CHIPS = [
  { value: "", label: "All" },
  { value: "1", label: "Active" },
  { value: "0", label: "Inactive" },
];

/** The catalog's modules as filter options (the first 200 by name). */
export function useModuleOptions(allLabel) {
  const { data } = useFetch("/api/modules", { per_page: 200 });
  const modules = (data && data.rows) || [];
  return [{ value: "", label: allLabel }, ...modules.map((m) => ({ value: m.id, label: `${m.code} · ${m.name}` }))];
}
