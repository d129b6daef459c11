//! Screens that fit (issue 34): on a demo office (long society names, lakhs of rupees, every list
//! full), every list page at 1366×800 and on a 390 px phone shows each table cell inside its
//! table's visible box (nothing to scroll sideways for), the page itself never wider than the
//! window, tile figures whole, names wrapped at spaces, and Settings and Sign out in view without
//! scrolling the navigation. A screenshot per page and size: target/screenshots/layout-PAGE-WIDTH.png.

use crate::common::browser::{OFFICE_OWNER_PASSWORD, Office, shot, sign_in_home, until};
use crate::common::webdriver::Session;
use serde_json::{Value, json};

/// What does not fit on the page now, in words (empty when all fits).
const CHECK: &str = r#"
const problems = [];
const vw = document.documentElement.clientWidth;
const vh = window.innerHeight;
const said = (el) => el.textContent.replace(/\s+/g, ' ').trim().slice(0, 60);
const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
// The part of the window an element can be seen in: the viewport, cut by every ancestor that
// clips or scrolls sideways.
const visibleBox = (el) => {
  let left = 0, right = vw;
  for (let p = el.parentElement; p && p !== document.documentElement; p = p.parentElement) {
    const ox = getComputedStyle(p).overflowX;
    if (ox !== 'visible') {
      const r = p.getBoundingClientRect();
      left = Math.max(left, r.left); right = Math.min(right, r.right);
    }
  }
  return { left, right };
};
if (document.documentElement.scrollWidth > vw + 1) {
  const wide = [...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > vw + 1)
    .slice(-3).map((e) => e.tagName.toLowerCase() + '.' + e.className + ' "' + said(e) + '"');
  problems.push('the page is ' + document.documentElement.scrollWidth + ' px wide in a ' + vw + ' px window: ' + wide.join('; '));
}
for (const table of document.querySelectorAll('main table')) {
  if (table.closest('.sr-only') || !shown(table)) continue;
  const box = visibleBox(table);
  for (const cell of table.querySelectorAll('th, td')) {
    if (!shown(cell)) continue;
    const r = cell.getBoundingClientRect();
    if (r.right > box.right + 1 || r.left < box.left - 1) {
      problems.push('cell "' + said(cell) + '" at x ' + Math.round(r.left) + '..' + Math.round(r.right) + ' outside its table\'s box ' + Math.round(box.left) + '..' + Math.round(box.right));
    } else if (cell.scrollWidth > cell.clientWidth + 1 && getComputedStyle(cell).overflowX === 'visible') {
      problems.push('cell "' + said(cell) + '" spills over its column (' + cell.scrollWidth + ' > ' + cell.clientWidth + ')');
    }
    const cs = getComputedStyle(cell);
    if (/\s/.test(said(cell)) && (cs.overflowWrap === 'anywhere' || cs.wordBreak === 'break-all')) {
      problems.push('cell "' + said(cell) + '" may break inside a word');
    }
  }
}
// On a phone a totals row is a card too: each figure names its column.
if (vw <= 600) {
  for (const td of document.querySelectorAll('main .table-card:not(.alloc-table) tfoot td')) {
    if (shown(td) && said(td) && !td.dataset.label) problems.push('total "' + said(td) + '" does not say its column');
  }
}
const figures = '.stat-value, .gstr1-totals dd, .gstr1-totals dt, .import-count dd, .board-count, .board-label, .tile-title, .stat-label';
const tiles = '.tile-link, .gstr1-totals > div, .import-count, .stat, .board-link';
for (const el of document.querySelectorAll(`main :is(${figures}), main :is(${tiles})`)) {
  if (!shown(el)) continue;
  if (el.scrollWidth > el.clientWidth + 1) problems.push('tile text "' + said(el) + '" is clipped (' + el.scrollWidth + ' > ' + el.clientWidth + ')');
}
return problems;
"#;

/// Whether Settings and Sign out can be clicked now without scrolling anything: inside the
/// window and inside every box around them that scrolls.
const NAV_CHECK: &str = r#"
const problems = [];
const settings = [...document.querySelectorAll('aside a')].find((a) => a.textContent.trim() === 'Settings');
const signOut = [...document.querySelectorAll('aside button')].find((b) => b.textContent.trim() === 'Sign out');
for (const [name, el] of [['Settings', settings], ['Sign out', signOut]]) {
  if (!el) { problems.push(name + ' is not in the navigation'); continue; }
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) { problems.push(name + ' is hidden'); continue; }
  let top = 0, bottom = window.innerHeight, left = 0, right = document.documentElement.clientWidth;
  for (let p = el.parentElement; p && p !== document.documentElement; p = p.parentElement) {
    const cs = getComputedStyle(p);
    if (cs.overflowY !== 'visible' || cs.overflowX !== 'visible') {
      const b = p.getBoundingClientRect();
      top = Math.max(top, b.top); bottom = Math.min(bottom, b.bottom); left = Math.max(left, b.left); right = Math.min(right, b.right);
    }
  }
  if (r.top < top - 1 || r.bottom > bottom + 1 || r.left < left - 1 || r.right > right + 1) {
    problems.push(name + ' is out of view (' + Math.round(r.top) + '..' + Math.round(r.bottom) + ' in ' + Math.round(top) + '..' + Math.round(bottom) + ')');
  }
}
return problems;
"#;

/// (screenshot name, path, `data-page`) of every list page of the console, and the pages of tiles.
fn pages(module_id: &str, month: &str) -> Vec<(&'static str, String, &'static str)> {
    let mut pages: Vec<(&str, String, &str)> = [
        ("home", "/", "home"),
        ("clients", "/clients", "clients"),
        ("documents", "/documents", "documents"),
        ("payments", "/payments", "payments"),
        ("contracts", "/contracts", "contracts"),
        ("recurring-plans", "/recurring-plans", "recurring-plans"),
        ("reminders", "/reminders", "reminders"),
        ("pipeline", "/pipeline", "pipeline"),
        ("renewals", "/renewals", "renewals"),
        ("tickets", "/tickets", "tickets"),
        ("projects", "/projects", "projects"),
        ("audit", "/audit", "audit"),
        ("login-history", "/login-history", "login-history"),
        ("employees", "/employees", "employees"),
        ("catalog", "/modules", "modules"),
        ("jobs", "/jobs", "jobs"),
        ("portals", "/portals", "portals"),
        ("email-log", "/email-log", "email-log"),
        ("import", "/import", "import"),
        (
            "milestone-templates",
            "/settings/milestones",
            "milestone-templates",
        ),
        ("reports", "/reports", "reports"),
        ("cockpit", "/cockpit", "cockpit"),
        ("dues-aging", "/reports/dues-aging", "dues-aging"),
        ("gst-summary", "/reports/gst-summary", "gst-summary"),
        ("gstr1", "/reports/gstr1", "gstr1"),
        ("module-revenue", "/reports/module-revenue", "module-revenue"),
        (
            "client-profitability",
            "/reports/client-profitability",
            "client-profitability",
        ),
        (
            "number-continuity",
            "/reports/number-continuity",
            "number-continuity",
        ),
        ("sms-balances", "/reports/sms-balances?filter=all", "sms-balances"),
        ("cloud-costs", "/reports/cloud-costs", "cloud-costs"),
        (
            "cloud-ranking",
            "/reports/cloud-costs?view=ranking",
            "cloud-costs",
        ),
        ("tds-certificates", "/reports/tds", "tds-certificates"),
        ("tally-export", "/reports/tally", "tally-export"),
    ]
    .into_iter()
    .map(|(name, path, page)| (name, path.to_string(), page))
    .collect();
    pages.push((
        "module-data",
        format!("/module-data?module_id={module_id}"),
        "module-data",
    ));
    // This month's return holds the big invoice below.
    pages.push(("gstr1-month", format!("/reports/gstr1?period={month}"), "gstr1"));
    pages
}

/// Opens `path`, waits for its lists to load, and answers what does not fit, each prefixed by
/// the page and the width.
fn visit(s: &Session, server_url: &str, name: &str, path: &str, page: &str, width: u32) -> Vec<String> {
    s.goto(&format!("{server_url}{path}"));
    s.wait_page(page);
    until(s, &format!("{name} loads"), || {
        s.script(
            "return !document.querySelector('main .spinner, main [aria-busy=true], .loading-block');",
            json!([]),
        ) == Value::Bool(true)
    });
    std::thread::sleep(std::time::Duration::from_millis(300));
    s.script(
        "document.querySelectorAll('.toast-close').forEach(b => b.click())",
        json!([]),
    );
    shot(s, &format!("layout-{name}-{width}"));
    let found = s.script(CHECK, json!([]));
    // A list below the fold: a second picture of it.
    let below = s.script(
        "const t = document.querySelector('main .table-card');
         if (!t || t.getBoundingClientRect().top < innerHeight * 0.6) return false;
         t.scrollIntoView({ block: 'start' }); return true;",
        json!([]),
    );
    if below == Value::Bool(true) {
        shot(s, &format!("layout-{name}-{width}-list"));
    }
    let totals = s.script(
        "const f = document.querySelector('main .table-card tfoot');
         if (!f) return false;
         f.scrollIntoView({ block: 'end' }); return true;",
        json!([]),
    );
    if totals == Value::Bool(true) {
        shot(s, &format!("layout-{name}-{width}-totals"));
    }
    said(&format!("{name} at {width} px"), &found)
}

/// Up to four of `found` in words, each under `what`, and how many more there are.
fn said(what: &str, found: &Value) -> Vec<String> {
    let found = found.as_array().unwrap();
    let mut lines: Vec<String> = found
        .iter()
        .take(4)
        .map(|p| format!("{what}: {}", p.as_str().unwrap()))
        .collect();
    if found.len() > 4 {
        lines.push(format!("{what}: … and {} more", found.len() - 4));
    }
    lines
}

/// The audit trail with its first entries' changes open: the before → after fits too.
fn audit_open(s: &Session, width: u32) -> Vec<String> {
    s.wait_page("audit");
    s.wait_text("main tbody button", "Show changes");
    s.script(
        "document.querySelector('main tbody tr').scrollIntoView({ block: 'start' });
         [...document.querySelectorAll('main button')].filter((b) => b.textContent.trim() === 'Show changes')
           .slice(0, 3).forEach((b) => b.click());",
        json!([]),
    );
    s.wait("main .diff");
    std::thread::sleep(std::time::Duration::from_millis(300));
    shot(s, &format!("layout-audit-open-{width}"));
    said(
        &format!("audit, changes open, at {width} px"),
        &s.script(CHECK, json!([])),
    )
}

fn nav_problems(s: &Session, width: u32) -> Vec<String> {
    said(
        &format!("navigation at {width} px"),
        &s.script(NAV_CHECK, json!([])),
    )
}

#[test]
fn every_list_fits_a_laptop_and_a_phone() {
    let Some(office) = Office::start_demo(30) else {
        return;
    };
    let (server, owner) = (&office.server, &office.owner);
    // The longest names and the biggest figures are what break a layout.
    let kummil = office.client("Kummil Service Co-operative Bank Ltd. No. 1234");
    office.issued_invoice(
        &kummil,
        "Core banking, deposit, loan and gold loan modules with the mobile app for the members",
        174_371_700,
    );
    let (_, _, modules) = server.call("GET", "/api/modules", Some(owner), None);
    let module_id = modules["rows"][0]["id"]
        .as_str()
        .or_else(|| modules[0]["id"].as_str())
        .unwrap_or_else(|| panic!("a module: {modules}"))
        .to_string();
    let month = (chrono::Utc::now() + chrono::Duration::minutes(330))
        .format("%Y-%m")
        .to_string();
    let pages = pages(&module_id, &month);
    let url = server.url("");
    let mut problems = vec![];

    let laptop = office.driver.session(1366, 800);
    sign_in_home(&laptop, server, "owner@localhost", OFFICE_OWNER_PASSWORD);
    problems.extend(nav_problems(&laptop, 1366));
    for (name, path, page) in &pages {
        problems.extend(visit(&laptop, &url, name, path, page, 1366));
    }
    laptop.goto(&server.url("/audit"));
    problems.extend(audit_open(&laptop, 1366));
    drop(laptop);

    let phone = office.driver.phone_session(390, 844);
    sign_in_home(&phone, server, "owner@localhost", OFFICE_OWNER_PASSWORD);
    for (name, path, page) in &pages {
        problems.extend(visit(&phone, &url, name, path, page, 390));
    }
    phone.goto(&server.url("/audit"));
    problems.extend(audit_open(&phone, 390));
    // On the phone the navigation sits behind the menu button.
    phone.click_button("Menu");
    phone.wait(".sidebar-menu.open, .main-nav.open");
    shot(&phone, "layout-menu-390");
    problems.extend(nav_problems(&phone, 390));

    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
