// What the SMS screens share (the SMS balances report, the client page's Modules card and the
// project page): the words for what a pull of balances from the gateway came to and for why one
// could not run, and the SMS top-up quote with the rate card that prices it.
import { html, useState, useEffect } from "/vendor/preact-htm.js";
import { post } from "../api.js";
import { integer } from "../format.js";
import { Notice, Link, Dialog, Form, Field, DialogActions, useForm, fieldError } from "../components.js";

const enc = encodeURIComponent;

/** The module code whose subscriptions are SMS subscriptions (the server's `SMS_CODE`). */
export const SMS_CODE = "SMS";

export const SMS_BALANCES_URL = "/reports/sms-balances";

/** A pull's counts → "1,980 checked: 120 changed, 1,800 unchanged, 60 flagged". */
export function countsText(c) {
  const text = `${integer(c.total)} checked: ${integer(c.updated)} changed, ${integer(c.unchanged)} unchanged, ${integer(c.flagged)} flagged`;
  return c.unreachable ? `${text} (${integer(c.unreachable)} without an answer from the gateway)` : text;
}

const FAILURE_TITLES = {
  sms_gateway_not_set: "No gateway address is set",
  sms_refresh_running: "A refresh is already running",
  sms_gateway_failed: "The gateway did not answer",
  no_sms_subscription: "Nothing to refresh",
};

/**
 * Why a refresh did not run, in words (`[data-testid=refresh-error]`): the server's message under
 * a title for its code; the owner also gets the way to the gateway's address when none is set.
 */
export function RefreshFailure({ error, me }) {
  const title = FAILURE_TITLES[error.code] || "The refresh failed";
  const settings = error.code === "sms_gateway_not_set" && me && me.role === "owner";
  return html`<${Notice} tone="danger" alert=${true} title=${title} testid="refresh-error">
    ${error.message}${settings && html` <${Link} href="/settings/operations">Set the gateway's address</${Link}>`}
  </${Notice}>`;
}

/**
 * The count of an SMS top-up and "SMS top-up quote": a proforma draft for the subscription
 * `project` ({ id, client_name }), handed to onDone(doc). `minimum`: the rate card's minimum
 * order, when known; `suggested`: a count put in while the field is still empty (e.g. that
 * minimum, found after the dialog opened). The project page and the SMS balances report use it.
 */
export function SmsQuoteDialog({ project, minimum, suggested, onClose, onDone }) {
  const form = useForm({ count: "" });
  useEffect(() => {
    if (suggested && !form.values.count) form.set("count", String(suggested));
  }, [suggested]);
  const onSubmit = form.submit(async (v) => {
    const count = v.count.trim().replace(/,/g, "");
    if (!/^\d+$/.test(count) || Number(count) < 1) throw fieldError("count", "A whole number of SMS, e.g. 25000.");
    if (minimum && Number(count) < minimum) throw fieldError("count", `${integer(Number(count))} is under the minimum order of ${integer(minimum)}.`);
    onDone(await post(`/api/client-modules/${enc(project.id)}/bulk-sms-quote`, { count: Number(count) }));
  });
  return html`<${Dialog} title=${`SMS top-up quote for ${project.client_name}`} size="narrow" onClose=${onClose} closable=${!form.saving}>
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="SMS top-up quote">
      <p class="dialog-intro">A proforma draft priced by the rate card band the count reaches.</p>
      <${Field} label="Number of SMS" ...${form.field("count")} inputMode="numeric" autocomplete="off" autofocus
        hint=${minimum ? `The minimum order is ${integer(minimum)}.` : "The rate card's minimum order applies."} />
      <${DialogActions} onClose=${onClose} saving=${form.saving} label="SMS top-up quote" />
    </${Form}>
  </${Dialog}>`;
}

/**
 * Whether the module of `project` ({ id, client_id, module_id }) is priced by a rate card today:
 * { minimum } (its minimum order) when it is, else null. Found with a preview of one unit (a dry
 * run anyone may make; reading rate cards is the owner's).
 */
export function useRateCard(project) {
  const [card, setCard] = useState(null);
  useEffect(() => {
    if (!project) return undefined;
    const ctl = new AbortController();
    post("/api/documents/preview", { type: "PROFORMA", client_id: project.client_id, lines: [{ module_id: project.module_id, qty: 1 }] }, { signal: ctl.signal })
      .then((p) => {
        const line = p.lines[0];
        if (!line || line.price_source !== "rate_card") return setCard(null);
        const under = (p.warnings || []).find((w) => w.code === "under_minimum");
        const m = under && /minimum order of (\d+)/.exec(under.message);
        setCard({ minimum: m ? Number(m[1]) : 1 });
      })
      .catch(() => setCard(null));
    return () => ctl.abort();
  }, [project && project.id]);
  return card;
}
