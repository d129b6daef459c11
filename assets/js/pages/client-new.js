// New client: the form, with the type and category the server will derive from the name shown
// as the user types. Owner and manager also pick the account owner and may store a DB password.
import { html, useState, useEffect, useRef } from "/vendor/preact-htm.js";
import { get, post, isAbort } from "../api.js";
import {
  useForm, Form, Field, SubmitButton, toast, toastWarnings, useSession, useTitle, PageHeader, Card, Link, navigate, useLeaveGuard,
} from "../components.js";
import { isManagerial, useClientOptions, useActiveEmployees, ownerChoices, clientValues, ClientFields, CLIENT_FIELDS, listUrl } from "../ui/clients.js";

/** The type and category a name gives, asked of the server 300 ms after typing stops. */
function useClassification(name) {
  const [derived, setDerived] = useState(null);
  const timer = useRef(null);
  useEffect(() => {
    const n = name.trim();
    clearTimeout(timer.current);
    if (!n) {
      setDerived(null);
      return undefined;
    }
    const ctl = new AbortController();
    timer.current = setTimeout(() => {
      get("/api/clients/classify", { name: n }, { signal: ctl.signal })
        .then(setDerived)
        .catch((e) => {
          if (!isAbort(e)) setDerived(null);
        });
    }, 300);
    return () => {
      clearTimeout(timer.current);
      ctl.abort();
    };
  }, [name]);
  return derived;
}

function Derived({ derived }) {
  return html`<div class="derived" aria-live="polite">
    <span class="derived-item">Type: <strong data-testid="derived-type">${derived ? derived.client_type : "—"}</strong></span>
    <span class="derived-item">Category: <strong data-testid="derived-category">${derived ? derived.category : "—"}</strong></span>
    <span class="hint">${derived ? "Worked out from the name." : "Shown as you type the name."}</span>
  </div>`;
}

export function ClientNewPage() {
  const { me } = useSession();
  useTitle("New client");
  const managerial = isManagerial(me);
  const options = useClientOptions();
  const employees = useActiveEmployees(managerial);
  const form = useForm({ ...clientValues(null), owner_id: managerial ? me.id : "", dbPassword: "" });
  useLeaveGuard(form.dirty && !form.saving);
  const [typeTouched, setTypeTouched] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const derived = useClassification(form.values.name);

  // The type follows the name until the user picks one.
  useEffect(() => {
    if (derived && !typeTouched && form.values.client_type !== derived.client_type) form.set("client_type", derived.client_type);
  }, [derived, typeTouched]);

  // A blank name is left out, so the server says it is required beside every other invalid field.
  const onSubmit = form.submit(async (v) => {
    const body = {};
    for (const k of CLIENT_FIELDS) {
      const value = typeof v[k] === "string" ? v[k].trim() : v[k];
      if (value) body[k] = value;
    }
    // Untouched, the type is left to the server, which derives it from the name.
    if (!typeTouched) delete body.client_type;
    if (body.gstin && body.state_code === body.gstin.slice(0, 2)) delete body.state_code;
    if (managerial) {
      if (v.owner_id) body.owner_id = v.owner_id;
      if (v.dbPassword) body.dbPassword = v.dbPassword;
    }
    const created = await post("/api/clients", body);
    toast.success(`${created.name} is added.`);
    toastWarnings(created.warnings);
    navigate(`/clients/${encodeURIComponent(created.id)}`);
  });

  const typeHint = derived && typeTouched && form.values.client_type !== derived.client_type
    ? `The name suggests ${derived.client_type}.`
    : "Follows the name until you choose.";

  const extra = managerial &&
    html`<fieldset class="form-section">
      <legend>Account</legend>
      <div class="form-grid">
        <${Field} label="Account owner" as="select" ...${form.field("owner_id")}
          options=${ownerChoices(employees, { blank: "No owner" })} hint="The employee who looks after this client." />
        <div class="field">
          <${Field} label="DB password" type=${showPassword ? "text" : "password"} ...${form.field("dbPassword")} optional
            autocomplete="new-password" spellcheck=${false} hint="Stored for the office; only owner and manager can reveal it." />
          <label class="check">
            <input type="checkbox" checked=${showPassword} onChange=${(e) => setShowPassword(e.currentTarget.checked)} /> Show password
          </label>
        </div>
      </div>
    </fieldset>`;

  return html`<main data-page="client-new">
    <p class="crumbs"><${Link} href=${listUrl()}>← Clients</${Link}></p>
    <${PageHeader} title="New client" subtitle="Type and category are worked out from the name." />
    <${Card} class="form-card">
      <${Form} onSubmit=${onSubmit} error=${form.formError} label="New client">
        <${ClientFields} form=${form} options=${options} autofocus=${true}
          nameAfter=${html`<${Derived} derived=${derived} />`}
          typeField=${{
            hint: typeHint,
            onInput: (e) => {
              setTypeTouched(true);
              form.set("client_type", e.currentTarget.value);
            },
          }}
          extra=${extra} />
        <div class="form-actions">
          <${SubmitButton} saving=${form.saving}>Create client</${SubmitButton}>
          <${Link} class="btn" href=${listUrl()}>Cancel</${Link}>
        </div>
      </${Form}>
    </${Card}>
  </main>`;
}
