// The console's reusable pieces, in one import:
//   import { DataTable, Field, toast } from "/js/components.js";
// Each lives in a small module under js/ui/ (or router.js / hooks.js); see the comment above
// each export for its props.
export { Toasts, toast, toastWarnings, dismissToast, Spinner, Loading, Progress, Badge, EmptyState, Notice, OnceSecret, TimedSecret } from "./ui/feedback.js";
export { useForm, fieldError, checkFields, Form, Field, StaticField, SubmitButton, DialogActions, DateField, MoneyField, useId, blockUnreadable, readable, upperField } from "./ui/forms.js";
export { Dialog, ConfirmDialog } from "./ui/dialogs.js";
export { DataTable, Pagination, useUrlList, SearchBox, FilterBar, FilterSelect, FilterChips, PER_PAGE_CHOICES, useSelection, selectColumn, xlsxHref } from "./ui/table.js";
export { ChangeDiff, diffEntries } from "./ui/diff.js";
export { Link, navigate, useLocation, useQuery, safeNext, useLeaveGuard } from "./router.js";
export { useFetch, useTitle, useSession, SessionContext } from "./hooks.js";
export { PageHeader, Card, Detail } from "./ui/layout.js";
export { RowsEditor, keyed, unkeyed, listFieldError, focusRowControl } from "./ui/rows.js";
export { BarChart, HBarChart, Sparkline, rupeesCompact, monthShort, countFormat } from "./ui/charts.js";
