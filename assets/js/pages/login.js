// Sign-in. Each refusal the server types (wrong credentials, deactivated, locked, rate
// limited) gets its own sentence, because "try again after 15:42" helps more than "failed".
import { html, useState } from "/vendor/preact-htm.js";
import { post, get } from "../api.js";
import { duration, timeOrDateTime } from "../format.js";
import { useForm, Form, Field, SubmitButton, fieldError, useTitle, Notice } from "../components.js";

/** The sentence to show for a failed sign-in (exported so it can be checked on its own). */
export function signInFailure(err) {
  const body = (err && err.body) || {};
  switch (err && err.code) {
    case "invalid_credentials":
      return "Wrong username or password.";
    case "inactive":
      return "This account has been deactivated. Ask the owner to reactivate it.";
    case "locked": {
      const until = body.locked_until || (body.error && body.error.locked_until);
      const when = until ? timeOrDateTime(until) : "";
      return when
        ? `Locked after too many failed sign-ins. Try again after ${when}.`
        : "Locked after too many failed sign-ins. Try again later.";
    }
    case "rate_limited":
      return err.retryAfter !== null && err.retryAfter !== undefined
        ? `Too many attempts. Try again in ${duration(err.retryAfter)}.`
        : "Too many attempts. Wait a few minutes and try again.";
    default:
      return (err && err.message) || "Sign-in failed. Try again.";
  }
}

export function LoginPage({ note, onSignedIn }) {
  useTitle("Sign in");
  const form = useForm({ username: "", password: "" });
  const [showPassword, setShowPassword] = useState(false);

  const onSubmit = form.submit(async ({ username, password }) => {
    if (!username.trim()) throw fieldError("username", "Enter your username or email.");
    if (!password) throw fieldError("password", "Enter your password.");
    try {
      await post("/api/auth/login", { username: username.trim(), password }, { auth: false });
    } catch (err) {
      // Every refusal is a whole-form message: naming a field would hint which one was wrong.
      form.set("password", "");
      const e = new Error(signInFailure(err));
      throw e;
    }
    // The login answer holds only part of the employee; the shell wants the full record.
    const me = await get("/api/me", null, { auth: false });
    onSignedIn(me);
  });

  return html`<main data-page="login" class="login-page">
    <div class="login-card">
      <div class="login-brand"><span class="brand-mark" aria-hidden="true">B</span>Back office</div>
      <h1>Sign in</h1>
      ${note && html`<${Notice} tone="info">${note}</${Notice}>`}
      <${Form} onSubmit=${onSubmit} error=${form.formError} label="Sign in">
        <${Field} label="Username or email" ...${form.field("username")} autocomplete="username" autofocus
          autocapitalize="none" spellcheck=${false} />
        <${Field} label="Password" type=${showPassword ? "text" : "password"} ...${form.field("password")} autocomplete="current-password" />
        <label class="check">
          <input type="checkbox" checked=${showPassword} onChange=${(e) => setShowPassword(e.currentTarget.checked)} /> Show password
        </label>
        <div class="form-actions">
          <${SubmitButton} saving=${form.saving}>Sign in</${SubmitButton}>
        </div>
      </${Form}>
      <p class="login-help">Forgot your password? Ask the owner to reset it.</p>
    </div>
  </main>`;
}
