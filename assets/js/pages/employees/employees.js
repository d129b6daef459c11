// Employees (owner): the staff list with search and filters in the URL, and the owner's
// actions: invite, edit, deactivate / reactivate, reset password.
import { html, useState } from "/vendor/preact-htm.js";
import { post } from "../../api.js";
import { roleLabel, isLocked, dateTime } from "../../format.js";
import {
  DataTable, useUrlList, SearchBox, FilterBar, FilterSelect, Badge, ConfirmDialog, toast,
  useSession, useTitle, PageHeader,
} from "../../components.js";
import { ForbiddenPage } from "../../ui/errors.js";
import { InviteDialog, EditDialog, SecretDialog } from "./dialogs.js";

const ROLE_FILTER = [{ value: "", label: "All roles" }, { value: "owner", label: "Owner" }, { value: "manager", label: "Manager" }, { value: "staff", label: "Staff" }];
const ACTIVE_FILTER = [{ value: "", label: "All" }, { value: "1", label: "Active" }, { value: "0", label: "Deactivated" }];

function StatusBadges({ row }) {
  return html`<span class="badges">
    ${row.active ? html`<${Badge} tone="success">Active</${Badge}>` : html`<${Badge} tone="neutral">Deactivated</${Badge}>`}
    ${isLocked(row.locked_until) && html`<${Badge} tone="danger" title=${`Locked until ${dateTime(row.locked_until)}`}>Locked</${Badge}>`}
  </span>`;
}

// What each confirmable action asks, calls and reports.
const ACTIONS = {
  deactivate: {
    title: (e) => `Deactivate ${e.name}?`,
    message: (e) => `${e.name} is signed out at once and cannot sign in until reactivated. Their records stay as they are.`,
    tone: "danger",
    confirm: "Deactivate",
    done: (e) => `${e.name} is deactivated.`,
  },
  reactivate: {
    title: (e) => `Reactivate ${e.name}?`,
    message: (e) => `${e.name} can sign in again with their current password.`,
    tone: "primary",
    confirm: "Reactivate",
    done: (e) => `${e.name} is active again.`,
  },
  "reset-password": {
    title: (e) => `Reset the password of ${e.name}?`,
    message: (e) => `A new one-time password is made and shown to you once. ${e.name} is signed out everywhere and must choose their own password at the next sign-in.`,
    tone: "danger",
    confirm: "Reset password",
  },
};

export function EmployeesPage() {
  const { me, refreshMe } = useSession();
  useTitle("Employees");
  const list = useUrlList("/api/employees", ["q", "role", "active"], { csv: true });
  const { query, setQuery } = list;
  // One dialog at a time: { kind: "invite" | "edit" | "confirm" | "secret", ... }.
  const [dialog, setDialog] = useState(null);
  const close = () => setDialog(null);

  if (list.error && list.error.status === 403) return html`<${ForbiddenPage} />`;

  const runAction = async (action, employee) => {
    const answer = await post(`/api/employees/${encodeURIComponent(employee.id)}/${action}`, {});
    list.reload();
    if (action === "reset-password") {
      setDialog({ kind: "secret", title: "New password", who: employee.name, secret: answer.password,
        intro: `${employee.name}'s password is reset and their sessions are ended.` });
    } else {
      close();
      toast.success(ACTIONS[action].done(employee));
    }
  };

  const columns = [
    {
      key: "name",
      sortable: true,
      label: "Name",
      render: (r) => html`<div class="cell-main">${r.name}${r.id === me.id && html` <span class="muted">(you)</span>`}</div>
        ${r.title && html`<div class="cell-sub">${r.title}</div>`}`,
    },
    { key: "username", sortable: true, label: "Username", class: "mono-ish" },
    { key: "email", sortable: true, label: "Email" },
    { key: "role", sortable: true, label: "Role", render: (r) => roleLabel(r.role) },
    { key: "status", sortable: true, label: "Status", render: (r) => html`<${StatusBadges} row=${r} />` },
    {
      key: "actions",
      label: "Actions",
      class: "actions-col",
      render: (r) => html`<div class="row-actions">
        <button type="button" class="btn btn-sm" onClick=${() => setDialog({ kind: "edit", employee: r })}>Edit</button>
        ${r.active
          ? r.id !== me.id &&
            html`<button type="button" class="btn btn-sm" onClick=${() => setDialog({ kind: "confirm", action: "deactivate", employee: r })}>Deactivate</button>`
          : html`<button type="button" class="btn btn-sm" onClick=${() => setDialog({ kind: "confirm", action: "reactivate", employee: r })}>Reactivate</button>`}
        ${r.id !== me.id &&
        html`<button type="button" class="btn btn-sm" onClick=${() => setDialog({ kind: "confirm", action: "reset-password", employee: r })}>Reset password</button>`}
      </div>`,
    },
  ];

  const filtered = !!(query.q || query.role || query.active);
  const empty = filtered
    ? html`<div class="empty-state"><p class="empty-title">No employee matches these filters.</p>
        <button type="button" class="btn btn-sm" onClick=${() => setQuery({ q: "", role: "", active: "" })}>Clear filters</button></div>`
    : "No employees yet.";

  let dialogEl = null;
  if (dialog && dialog.kind === "invite") {
    dialogEl = html`<${InviteDialog} onClose=${close} onInvited=${(created) => {
      list.reload();
      toast.success(`${created.name} is invited.`);
      if (created.initial_password) {
        setDialog({ kind: "secret", title: "Employee invited", who: created.name, secret: created.initial_password,
          intro: `${created.name} can sign in as ${created.username}.` });
      } else close();
    }} />`;
  } else if (dialog && dialog.kind === "edit") {
    dialogEl = html`<${EditDialog} employee=${dialog.employee} onClose=${close} onSaved=${(updated) => {
      close();
      if (!updated) return toast.info("Nothing to save: no field was changed.");
      list.reload();
      toast.success(`${updated.name} is saved.`);
      // Editing oneself (e.g. a role change) changes what the console may show.
      if (updated.id === me.id) refreshMe().catch(() => {});
    }} />`;
  } else if (dialog && dialog.kind === "confirm") {
    const a = ACTIONS[dialog.action];
    const e = dialog.employee;
    dialogEl = html`<${ConfirmDialog} title=${a.title(e)} message=${a.message(e)} tone=${a.tone} confirmLabel=${a.confirm}
      onConfirm=${() => runAction(dialog.action, e)} onCancel=${close} />`;
  } else if (dialog && dialog.kind === "secret") {
    dialogEl = html`<${SecretDialog} title=${dialog.title} intro=${dialog.intro} secret=${dialog.secret} who=${dialog.who} onClose=${close} />`;
  }

  return html`<main data-page="employees">
    <${PageHeader} title="Employees" subtitle="Everyone who can sign in to the back office."
      actions=${html`<button type="button" class="btn btn-primary" onClick=${() => setDialog({ kind: "invite" })}>Invite employee</button>`} />
    <${FilterBar} label="Filter employees">
      <${SearchBox} value=${query.q || ""} onSearch=${(q) => setQuery({ q }, { replace: true })}
        label="Search" placeholder="Name, username or email" />
      <${FilterSelect} label="Role" name="filter_role" value=${query.role} options=${ROLE_FILTER} onChange=${(role) => setQuery({ role })} />
      <${FilterSelect} label="Status" name="filter_active" value=${query.active} options=${ACTIVE_FILTER} onChange=${(active) => setQuery({ active })} />
    </${FilterBar}>
    <${DataTable} caption="Employees" columns=${columns} empty=${empty} ...${list.tableProps} />
    ${dialogEl}
  </main>`;
}
