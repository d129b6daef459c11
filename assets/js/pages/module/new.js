// New module (owner): the module form; on success, the new module's page.
import { html } from "/vendor/preact-htm.js";
import { toast, useTitle, PageHeader, Card, Link, navigate } from "../../components.js";
import { ModuleForm } from "./form.js";
import { moduleUrl } from "../../ui/modules.js";

export function ModuleNewPage() {
  useTitle("New module");
  return html`<main data-page="module-new">
    <p class="crumbs"><${Link} href="/modules">← Catalog</${Link}></p>
    <${PageHeader} title="New module" subtitle="Prices and rate cards are added on the module's page once it exists." />
    <${Card} class="form-card">
      <${ModuleForm} onCancel=${() => navigate("/modules")} onSaved=${(m) => {
        toast.success(`${m.name} is in the catalog.`);
        navigate(moduleUrl(m.id), { replace: true });
      }} />
    </${Card}>
  </main>`;
}
