// One module: the owner edits it (the module form) and keeps its price book and rate card;
// everyone sees the details, the price book and the roster of subscribers (owner and managers
// may email them all).
import { html, useState, useEffect } from "/vendor/preact-htm.js";
import { rupees } from "../../format.js";
import { Card, Badge, Notice, Loading, toast, useFetch, useSession, useTitle, PageHeader, Link } from "../../components.js";
import { NotFoundPage } from "../../ui/errors.js";
import { ModuleForm, ModuleDetails } from "./form.js";
import { ActiveBadge } from "../../ui/modules.js";
import { PriceBookCard, RateCardCard, RosterCard } from "./sections.js";
import { isManagerial } from "../../ui/clients.js";

const enc = encodeURIComponent;

export function ModulePage({ id }) {
  const { me } = useSession();
  const isOwner = me.role === "owner";
  const { data, error, reload } = useFetch(`/api/modules/${enc(id)}`);
  const [module, setModule] = useState(null);
  // The form starts from the module it was given: a new key after a save starts it afresh.
  const [formKey, setFormKey] = useState(0);
  useEffect(() => setModule(data), [data]);
  const m = module || data;
  useTitle(m ? m.name : "Module");

  if (error && error.status === 404) return html`<${NotFoundPage} title="Module not found" text="There is no such module in the catalog." />`;
  const crumbs = html`<p class="crumbs"><${Link} href="/modules">← Catalog</${Link}></p>`;
  if (error) {
    return html`<main data-page="module">${crumbs}<${PageHeader} title="Module" />
      <${Notice} tone="danger" alert=${true}>${error.message}</${Notice}></main>`;
  }
  if (!m) return html`<main data-page="module">${crumbs}<${PageHeader} title="Module" /><${Loading} label="Loading the module…" /></main>`;

  const subtitle = html`<span class="badges header-badges">
      <${Badge} tone="neutral"><span class="mono-ish">${m.code}</span></${Badge}>
      <${ActiveBadge} active=${m.active} />
    </span>
    <span class="header-meta">Price today: <strong>${m.price_today === null ? "none" : rupees(m.price_today)}</strong></span>
    <span class="header-meta">GST ${m.gst_rate}%</span>`;

  return html`<main data-page="module" class="module-page">
    ${crumbs}
    <${PageHeader} title=${m.name} subtitle=${subtitle}
      actions=${html`<${Link} class="btn" href=${`/email-log?module_id=${enc(m.id)}`} data-testid="module-emails">Emails</${Link}>
        ${isOwner && html`<${Link} class="btn" href=${`/settings/milestones?module=${enc(m.code)}`}>Checklist template</${Link}>`}`} />
    <div class="page-grid">
      <div class="page-col">
        <${Card} title=${isOwner ? "Module details" : "Details"} class="section-card">
          ${isOwner
            ? html`<${ModuleForm} key=${formKey} module=${m} onSaved=${(updated) => {
                if (!updated) return toast.info("Nothing to save: no field was changed.");
                setModule(updated);
                setFormKey((k) => k + 1);
                toast.success(`${updated.name} is saved.`);
              }} />`
            : html`<${ModuleDetails} module=${m} />`}
        </${Card}>
      </div>
      <div class="page-col">
        <${PriceBookCard} module=${m} isOwner=${isOwner} onChanged=${reload} />
        ${isOwner && html`<${RateCardCard} module=${m} />`}
      </div>
    </div>
    <${RosterCard} module=${m} canNotify=${isManagerial(me)} />
  </main>`;
}
