// The signed-in user's own page: their details and their password. While the user still has
// an initial password (mustChangePassword) this is the only screen, with a banner saying why.
import { html } from "/vendor/preact-htm.js";
import { patch, post } from "../api.js";
import { roleLabel } from "../format.js";
import { navigate } from "../router.js";
import { useForm, Form, Field, StaticField, SubmitButton, fieldError, checkFields, toast, useSession, useTitle, PageHeader, Card } from "../components.js";

function DetailsForm({ me, setMe }) {
  const start = { name: me.name || "", phone: me.phone || "", title: me.title || "" };
  const form = useForm(start);
  const onSubmit = form.submit(async (v) => {
    if (!v.name.trim()) throw fieldError("name", "Enter your name.");
    const updated = await patch("/api/me", { name: v.name.trim(), phone: v.phone.trim(), title: v.title.trim() });
    setMe(updated);
    form.reset({ name: updated.name || "", phone: updated.phone || "", title: updated.title || "" });
    toast.success("Profile saved.");
  });
  return html`<${Card} title="Your details">
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Your details">
      <div class="form-grid">
        <${Field} label="Name" ...${form.field("name")} autocomplete="name" required />
        <${Field} label="Phone" type="tel" ...${form.field("phone")} autocomplete="tel" optional hint="6 to 15 digits; spaces, +, - and brackets are fine." />
        <${Field} label="Title" ...${form.field("title")} autocomplete="organization-title" optional hint="Your job title, e.g. Accounts executive." />
        <${StaticField} label="Username" name="username" value=${me.username} />
        <${StaticField} label="Email" name="email" value=${me.email} />
        <${StaticField} label="Role" name="role" value=${roleLabel(me.role)} />
      </div>
      <p class="hint">Username, email and role are set by the owner.</p>
      <div class="form-actions">
        <${SubmitButton} saving=${form.saving}>Save profile</${SubmitButton}>
      </div>
    </${Form}>
  </${Card}>`;
}

function PasswordForm({ forced, refreshMe, username }) {
  const empty = { current_password: "", new_password: "", confirm_password: "" };
  const form = useForm(empty);
  const onSubmit = form.submit(async (v) => {
    checkFields({
      current_password: !v.current_password && "Enter your current password.",
      new_password: !v.new_password && "Enter a new password.",
      // The server never sees the confirmation; checking it here catches a typo before it
      // becomes the password nobody can type.
      confirm_password: v.new_password !== v.confirm_password && "The two new passwords do not match.",
    });
    await post("/api/me/password", { current_password: v.current_password, new_password: v.new_password });
    form.reset(empty);
    toast.success(forced ? "Password changed. The whole back office is open to you now." : "Password changed.");
    await refreshMe();
    // A forced change was in the way of where the user was going: go on to the home page.
    if (forced) navigate("/", { replace: true });
  });
  return html`<${Card} title="Change password">
    <${Form} onSubmit=${onSubmit} error=${form.formError} label="Change password">
      <input type="text" class="sr-only" autocomplete="username" value=${username} readOnly tabindex="-1" aria-hidden="true" />
      <div class="form-grid form-grid-narrow">
        <${Field} label="Current password" type="password" ...${form.field("current_password")} autocomplete="current-password" autofocus=${forced} />
        <${Field} label="New password" type="password" ...${form.field("new_password")} autocomplete="new-password"
          hint="At least 10 characters, different from the current one. A short sentence is easy to remember." />
        <${Field} label="Confirm new password" type="password" ...${form.field("confirm_password")} autocomplete="new-password" />
      </div>
      <div class="form-actions">
        <${SubmitButton} saving=${form.saving}>Change password</${SubmitButton}>
      </div>
    </${Form}>
  </${Card}>`;
}

export function ProfilePage() {
  const { me, setMe, refreshMe } = useSession();
  useTitle("Profile");
  const forced = !!me.mustChangePassword;
  const details = html`<${DetailsForm} key=${`d-${me.id}`} me=${me} setMe=${setMe} />`;
  const password = html`<${PasswordForm} key=${`p-${me.id}`} forced=${forced} refreshMe=${refreshMe} username=${me.username} />`;
  return html`<main data-page="profile">
    <${PageHeader} title="Profile" subtitle=${`${me.name} · ${roleLabel(me.role)}`} />
    <div class="stack stack-narrow">
      ${forced &&
      html`<div class="banner banner-warning">
        <strong>Choose your own password before you continue</strong>
        <p>You signed in with a password that someone gave you. Choose a new one below; the rest of the back office opens as soon as it is changed.</p>
      </div>`}
      ${forced ? [password, details] : [details, password]}
    </div>
  </main>`;
}
