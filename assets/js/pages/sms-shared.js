// What the SMS screens share (the SMS balances report and the client page's Modules card): the
// words for what a pull of balances from the gateway came to, and for why one could not run.
import { html } from "/vendor/preact-htm.js";
import { integer } from "../format.js";
import { Notice, Link } from "../components.js";

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
