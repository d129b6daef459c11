//! Browser tests of the views at a glance (issue 20) on a small office built through the API:
//! the home dashboard's tiles with the counts seeded (everything, then "Mine only", then a staff
//! member's book), each tile linking to its list; the owner's cockpit with this month's billed
//! and collected figures and the 12-month chart; the module revenue and client profitability
//! reports with their rows, charts and a refused range; number continuity; the charts of the dues
//! aging and the GST summary. Staff have no cockpit: no navigation entry, and the page refuses.

use crate::common::browser::{Office, ready_user, select, shot, sign_in_home, until};
use crate::common::webdriver::Session;
use chrono::{Datelike, Duration, NaiveDate};
use serde_json::{Value, json};

const STAFF_PASSWORD: &str = "the staff member's passphrase";

/// The office's today (the company is at UTC+05:30).
fn office_today() -> NaiveDate {
    (chrono::Utc::now() + Duration::minutes(330)).date_naive()
}

/// The first of April that starts the financial year holding `day`.
fn fy_start(day: NaiveDate) -> NaiveDate {
    let year = if day.month() >= 4 {
        day.year()
    } else {
        day.year() - 1
    };
    NaiveDate::from_ymd_opt(year, 4, 1).unwrap()
}

/// Answers the `id` of a 200 or 201 reply.
fn created(call: (u16, Option<String>, Value)) -> String {
    let (status, _, body) = call;
    assert!(status == 200 || status == 201, "{status}: {body}");
    body["id"].as_str().unwrap().to_string()
}

/// Issues a document of one line at 18% GST (a module's when `module` is given) dated
/// `doc_date`; answers its id.
fn issued(
    office: &Office,
    kind: &str,
    client_id: &str,
    module: Option<&str>,
    unit_price: i64,
    doc_date: NaiveDate,
    due: Option<NaiveDate>,
) -> String {
    let mut body = json!({ "type": kind, "client_id": client_id, "doc_date": doc_date.to_string(),
                           "lines": [ { "description": "Annual licence", "qty": 1, "unit_price": unit_price,
                                        "gst_rate": 18, "module_id": module } ] });
    if let Some(due) = due {
        body["dueDate"] = json!(due.to_string());
    }
    let id = created(
        office
            .server
            .call("POST", "/api/documents", Some(&office.owner), Some(body)),
    );
    let (status, _, reply) = office.server.call(
        "POST",
        &format!("/api/documents/{id}/issue"),
        Some(&office.owner),
        Some(json!({})),
    );
    assert_eq!(status, 200, "{reply}");
    id
}

fn get(office: &Office, path: &str) -> Value {
    let (status, _, body) = office.server.call("GET", path, Some(&office.owner), None);
    assert_eq!(status, 200, "{path}: {body}");
    body
}

/// The texts of the cells of the row `css`, spaces collapsed.
fn cells(s: &Session, css: &str) -> Value {
    s.wait(css);
    s.script(
        "return [...document.querySelector(arguments[0]).children].map((td) => td.textContent.replace(/\\s+/g, ' ').trim());",
        json!([css]),
    )
}

/// The big figure of the dashboard or cockpit tile `name`.
fn stat(s: &Session, tile: &str) -> String {
    s.wait(&format!("[data-testid='{tile}'] [data-testid='stat']"))
        .text()
}

fn href(s: &Session, css: &str) -> String {
    s.wait(css);
    s.script(
        "return document.querySelector(arguments[0]).getAttribute('href')",
        json!([css]),
    )
    .as_str()
    .unwrap()
    .to_string()
}

fn nav_labels(s: &Session) -> Vec<String> {
    s.find_all("nav a")
        .iter()
        .map(|a| a.text().trim().to_string())
        .collect()
}

#[test]
fn the_office_at_a_glance_dashboard_cockpit_and_revenue_reports() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    let (status, _, _) = server.call(
        "PUT",
        "/api/settings/company",
        Some(owner),
        Some(json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" })),
    );
    assert_eq!(status, 200);
    let today = office_today();
    ready_user(server, owner, "staff@office.in", "staff", STAFF_PASSWORD);
    let (_, staff, _) = server.call(
        "POST",
        "/api/auth/login",
        None,
        Some(json!({ "username": "staff@office.in", "password": STAFF_PASSWORD })),
    );
    let staff = staff.unwrap();

    // The owner's book: Kallada; Perinad has no account owner; the staff member's: Chavara.
    let me = get(&office, "/api/me")["id"].as_str().unwrap().to_string();
    let kallada = created(server.call(
        "POST",
        "/api/clients",
        Some(owner),
        Some(json!({ "name": "KALLADA SERVICE CO-OPERATIVE BANK", "state_code": "32", "owner_id": me })),
    ));
    let perinad = office.client("PERINAD VANITHA SOCIETY");
    let chavara = created(server.call(
        "POST",
        "/api/clients",
        Some(&staff),
        Some(json!({ "name": "CHAVARA FARMERS SOCIETY", "state_code": "32" })),
    ));
    let module = |code: &str, name: &str| {
        created(server.call(
            "POST",
            "/api/modules",
            Some(owner),
            Some(json!({ "code": code, "name": name, "sac": "998314", "gst_rate": 18 })),
        ))
    };
    let dep = module("DEP", "Deposit module");
    let cbs = module("CBS", "Core banking");
    let (status, _, _) = server.call(
        "POST",
        &format!("/api/modules/{dep}/prices"),
        Some(owner),
        Some(json!({ "effective_from": "2020-04-01", "price": 1_000_000 })),
    );
    assert_eq!(status, 201);

    // Chavara's invoice of 20 days ago was due 5 days ago (₹2,000 + GST = ₹2,360): overdue.
    let old_day = today - Duration::days(20);
    issued(
        &office,
        "INVOICE",
        &chavara,
        None,
        200_000,
        old_day,
        Some(today - Duration::days(5)),
    );
    // Today: Kallada's Deposit module ₹10,000 (₹11,800, paid in full), Perinad's Core banking ₹5,000.
    let kallada_invoice = issued(&office, "INVOICE", &kallada, Some(&dep), 1_000_000, today, None);
    issued(&office, "INVOICE", &perinad, Some(&cbs), 500_000, today, None);
    let (status, _, paid) = server.call(
        "POST",
        "/api/payments",
        Some(owner),
        Some(json!({ "client_id": kallada, "received_on": today.to_string(), "amount": 1_180_000, "mode": "upi",
                     "allocations": [ { "document_id": kallada_invoice, "amount": 1_180_000 } ] })),
    );
    assert_eq!(status, 201, "{paid}");
    // Two open quotations of ₹11,800: Kallada's sent today (on track), Perinad's of five days
    // ago never sent (follow up).
    let sent = issued(&office, "QUOTATION", &kallada, None, 1_000_000, today, None);
    let (status, _, _) = server.call(
        "POST",
        &format!("/api/documents/{sent}/mark-sent"),
        Some(owner),
        Some(json!({})),
    );
    assert_eq!(status, 200);
    issued(
        &office,
        "QUOTATION",
        &perinad,
        None,
        1_000_000,
        today - Duration::days(5),
        None,
    );
    // Two tickets still open, Kallada's nine days old: past the seven-day SLA.
    for (client, days) in [(&kallada, 9), (&perinad, 0)] {
        created(server.call(
            "POST",
            "/api/tickets",
            Some(owner),
            Some(json!({ "client_id": client, "subject": "Day-end stuck",
                         "opened_on": (today - Duration::days(days)).to_string() })),
        ));
    }
    // Kallada's Deposit module renews in ten days at the price book's ₹10,000.
    created(server.call(
        "POST",
        "/api/client-modules",
        Some(owner),
        Some(json!({ "client_id": kallada, "module_id": dep,
                     "next_renewal": (today + Duration::days(10)).to_string() })),
    ));

    // The API's figures are the hand-made ones.
    let dash = get(&office, "/api/dashboard");
    assert_eq!(
        (
            &dash["quotes"],
            &dash["overdue_invoices"],
            &dash["tickets"],
            &dash["renewals"]["count"],
            &dash["renewals"]["amount"],
            &dash["low_sms"]["count"]
        ),
        (
            &json!({ "count": 2, "value": 2_360_000, "bands": { "green": 1, "amber": 1, "red": 0, "grey": 0 }, "enquiries": 0 }),
            &json!({ "count": 1, "amount": 236_000 }),
            &json!({ "still_open": 2, "past_sla": 1 }),
            &json!(1),
            &json!(1_000_000),
            &json!(0)
        )
    );

    // ---- Home: the dashboard's tiles, each a link to the list behind it.
    let s = office.owner_window();
    s.wait("[data-testid='dashboard']");
    assert_eq!(stat(&s, "tile-quotes"), "2");
    s.wait_text("[data-testid='quotes-value']", "₹23,600.00");
    assert_eq!(
        s.texts("[data-testid='tile-quotes'] [data-testid='bands'] .band"),
        json!(["1 on track", "1 follow up"])
    );
    assert_eq!(stat(&s, "tile-overdue-invoices"), "1");
    assert_eq!(s.wait("[data-testid='overdue-amount']").text(), "₹2,360.00");
    assert_eq!(stat(&s, "tile-tickets"), "1");
    assert_eq!(s.wait("[data-testid='tickets-open']").text(), "2");
    assert_eq!(stat(&s, "tile-renewals"), "1");
    assert_eq!(s.wait("[data-testid='renewals-amount']").text(), "₹10,000.00");
    s.wait_text("[data-testid='sms-low-tile']", "SMS balances: none low");
    assert_eq!(
        stat(&s, "tile-reminders"),
        dash["reminders"]["due_today"].to_string()
    );
    assert_eq!(
        stat(&s, "tile-stalled"),
        dash["stalled_projects"]["count"].to_string()
    );
    assert_eq!(href(&s, "[data-testid='tile-tickets'] a"), "/tickets?overdue=1");
    assert_eq!(
        href(&s, "[data-testid='tile-overdue-invoices'] a"),
        "/documents?type=INVOICE&payment_state=overdue"
    );
    assert_eq!(
        href(&s, "[data-testid='tile-renewals'] a"),
        format!("/renewals?from={today}&to={}", today + Duration::days(30))
    );
    shot(&s, "150-home-dashboard");

    // "Mine only": the owner's own book, Kallada (its quotation, its ticket past the SLA, its
    // renewal) and the tickets assigned to them.
    s.wait("[data-toggle='mine']").click();
    s.wait("[data-toggle='mine'][aria-pressed='true']");
    until(&s, "the owner's own book", || {
        s.find_all("[data-testid='tile-overdue-invoices'] [data-testid='stat']")
            .first()
            .is_some_and(|e| e.text() == "0")
    });
    assert_eq!(stat(&s, "tile-quotes"), "1");
    assert_eq!(s.wait("[data-testid='quotes-value']").text(), "₹11,800.00");
    // Perinad's ticket is assigned to the owner (its opener): still theirs.
    assert_eq!(stat(&s, "tile-tickets"), "1");
    assert_eq!(s.wait("[data-testid='tickets-open']").text(), "2");
    assert_eq!(stat(&s, "tile-renewals"), "1");
    assert_eq!(
        href(&s, "[data-testid='tile-quotes'] a"),
        format!("/pipeline?owner_id={me}")
    );
    assert!(s.url().ends_with("/?mine=1"), "{}", s.url());
    shot(&s, "151-home-dashboard-mine");

    // A tile opens its list: the tickets past the SLA.
    s.wait("[data-testid='tile-tickets'] a").click();
    s.wait_page("tickets");
    s.wait("[data-toggle='overdue'][aria-pressed='true']");
    until(&s, "one ticket past the SLA", || {
        s.count("[data-testid='tickets'] tbody tr[data-id]") == 1
    });

    // ---- The cockpit: this month against last, the 12-month chart.
    let mis = get(&office, "/api/reports/mis");
    let same_month = old_day.month() == today.month() && old_day.year() == today.year();
    let billed = if same_month { 2_006_000 } else { 1_770_000 };
    assert_eq!(mis["billed"]["this_month"], billed);
    assert_eq!(mis["collections"]["this_month"], 1_180_000);
    s.find_all("nav a")
        .into_iter()
        .find(|a| a.text().trim() == "Cockpit")
        .expect("the owner's Cockpit entry")
        .click();
    s.wait_page("cockpit");
    assert_eq!(
        stat(&s, "cockpit-billed"),
        if same_month {
            "₹20,060.00"
        } else {
            "₹17,700.00"
        }
    );
    assert_eq!(stat(&s, "cockpit-collections"), "₹11,800.00");
    s.wait_text(
        "[data-testid='cockpit-collections'] [data-testid='change']",
        "▲ from ₹0.00 last month",
    );
    assert_eq!(stat(&s, "cockpit-pipeline"), "₹23,600.00");
    assert_eq!(stat(&s, "cockpit-tickets"), "2");
    assert_eq!(
        s.count("[data-testid='cockpit-billed'] svg.sparkline polyline"),
        1
    );
    // The open pipeline by stage: the two quotations, one on track and one to follow up.
    assert_eq!(s.count("[data-testid='pipeline-chart'] svg rect.bar"), 4);
    for stage in ["Quoted: on track", "Quoted: follow up"] {
        assert_eq!(
            s.count(&format!(
                "[data-testid='pipeline-chart'] svg rect.bar[data-label='{stage}'][data-value='1']"
            )),
            1,
            "{stage}"
        );
    }
    // Billed and collected for each of the twelve months.
    assert_eq!(s.count("[data-testid='collections-chart'] svg rect.bar"), 24);
    assert_eq!(
        s.count(
            "[data-testid='collections-chart'] svg rect.bar[data-series='Collected'][data-value='1180000']"
        ),
        1
    );
    s.wait("[data-testid='collections-chart'] svg[role='img'] title");
    assert_eq!(
        s.count("[data-testid='collections-chart'] table.sr-only tbody tr"),
        12
    );
    shot(&s, "152-cockpit");
    s.set_window(390, 844);
    s.goto(&server.url("/cockpit"));
    s.wait_page("cockpit");
    s.wait("[data-testid='collections-chart'] svg");
    shot(&s, "153-cockpit-phone");
    s.set_window(1366, 900);

    // ---- Module revenue: a row per module, the chart's bars, a refused range.
    s.goto(&server.url("/reports"));
    s.wait_page("reports");
    s.find_all("a.tile-link")
        .into_iter()
        .find(|a| a.text().contains("Module revenue"))
        .expect("the Module revenue report")
        .click();
    s.wait_page("module-revenue");
    let dep_row = "[data-testid='module-revenue-table'] tr[data-code='DEP']";
    s.wait(dep_row);
    let dep_cells = cells(&s, dep_row);
    let dep_cells = dep_cells.as_array().unwrap();
    assert_eq!(dep_cells[0], "Deposit module DEP");
    assert_eq!(dep_cells[dep_cells.len() - 1], "₹10,000.00");
    let cbs_cells = cells(&s, "[data-testid='module-revenue-table'] tr[data-code='CBS']");
    assert_eq!(cbs_cells.as_array().unwrap().last().unwrap(), "₹5,000.00");
    s.wait_text("[data-testid='module-revenue-totals']", "₹15,000.00");
    // Both modules billed this month only: one stacked part each.
    assert_eq!(s.count("[data-testid='module-revenue-chart'] svg rect.bar"), 2);
    assert_eq!(
        s.count("[data-testid='module-revenue-chart'] rect.bar[data-series='Deposit module'][data-value='1000000']"
        ),
        1
    );
    let csv = href(&s, "[data-testid='csv-link']");
    assert!(csv.starts_with("/api/reports/module-revenue.csv?from="), "{csv}");
    shot(&s, "154-module-revenue");

    // Last financial year: nothing billed.
    let start = fy_start(today).year();
    let last_fy = format!("{}-{:02}", start - 1, start % 100);
    select(&s, "select[name='fy']", &last_fy);
    s.wait_text(
        "[data-testid='module-revenue-table']",
        "No module was billed in this period.",
    );
    assert!(s.url().contains(&format!("fy={last_fy}")), "{}", s.url());
    // Custom months running backwards: the server's refusal shows under the month it names.
    select(&s, "select[name='fy']", "custom");
    s.fill("from", "12-2030");
    s.wait("[name='from']").type_text("\u{E007}");
    s.fill("to", "01-2030");
    s.wait("[name='to']").type_text("\u{E007}");
    s.wait_text("[data-testid='month-error']", "to is on or after from.");
    s.wait("[name='to'][aria-invalid='true']");
    // Text that is not a month is held back with its own message.
    s.fill("from", "2030");
    s.wait("[name='from']").type_text("\u{E007}");
    s.wait_text("[data-testid='month-error']", "Write the month as MM-YYYY");
    shot(&s, "155-module-revenue-refused-range");

    // ---- Client profitability: a row per client, the margins drawn, sortable.
    s.goto(&server.url("/reports/client-profitability"));
    s.wait_page("client-profitability");
    let kallada_row = format!("[data-testid='profitability-table'] tr[data-id='{kallada}']");
    assert_eq!(
        cells(&s, &kallada_row),
        json!([
            "KALLADA SERVICE CO-OPERATIVE BANK",
            "₹10,000.00",
            "₹11,800.00",
            "₹0.00",
            "₹10,000.00",
            "100.0%"
        ])
    );
    assert!(
        s.texts("[data-testid='profitability-table'] thead th")
            .as_array()
            .unwrap()
            .contains(&json!("Billed (before GST)↕"))
    );
    let profit = get(&office, "/api/reports/client-profitability");
    let clients = profit["total"].as_u64().unwrap() as usize;
    assert!(clients >= 2, "{profit}");
    s.wait("[data-testid='profitability-chart'] svg");
    assert_eq!(
        s.count("[data-testid='profitability-chart'] svg rect.bar"),
        clients
    );
    assert_eq!(
        s.count("[data-testid='profitability-chart'] rect.bar[data-label='KALLADA SERVICE CO-OPERATIVE BANK'][data-value='1000000']"
        ),
        1
    );
    shot(&s, "156-client-profitability");
    s.click_button("Client↕");
    until(&s, "sorted by client", || s.url().contains("sort=client_name"));
    until(&s, "the rows by name", || {
        let names = s.texts("[data-testid='profitability-table'] tbody tr[data-id] td:first-child");
        let names: Vec<String> = names
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        let mut sorted = names.clone();
        sorted.sort();
        names.len() == clients && names == sorted
    });
    shot(&s, "157-client-profitability-by-name");

    // ---- Number continuity: every series unbroken.
    s.goto(&server.url("/reports/number-continuity"));
    s.wait_page("number-continuity");
    s.wait_text("[data-testid='continuity-summary']", "Every series is unbroken");
    let csv = s.find_all("[data-testid='continuity-csv']");
    assert_eq!(
        csv.first().and_then(|a| a.attribute("href")).as_deref(),
        Some("/api/reports/number-continuity.csv")
    );
    let verdicts = s.texts("[data-testid='continuity-table'] [data-testid='verdict']");
    assert!(
        !verdicts.as_array().unwrap().is_empty()
            && verdicts.as_array().unwrap().iter().all(|v| v == "✓ Unbroken"),
        "{verdicts}"
    );
    shot(&s, "158-number-continuity");

    // ---- Dues aging and GST summary: a chart above each table.
    s.goto(&server.url("/reports/dues-aging"));
    s.wait_page("dues-aging");
    s.wait("[data-testid='dues-chart'] svg");
    assert_eq!(s.count("[data-testid='dues-chart'] svg rect.bar"), 5);
    assert_eq!(
        s.count("[data-testid='dues-chart'] rect.bar[data-label='1–30 days'][data-value='236000']"),
        1
    );
    shot(&s, "159-dues-aging-chart");
    s.goto(&server.url("/reports/gst-summary"));
    s.wait_page("gst-summary");
    s.wait("[data-testid='gst-chart'] svg");
    let gst_months = s.count("[data-testid='gst-table'] tbody tr[data-month]");
    assert_eq!(s.count("[data-testid='gst-chart'] svg rect.bar"), gst_months);
    shot(&s, "160-gst-summary-chart");

    // The home page on a phone.
    s.set_window(390, 844);
    s.goto(&server.url("/"));
    s.wait("[data-testid='dashboard']");
    shot(&s, "161-home-dashboard-phone");
    drop(s);

    // ---- Staff: their book's dashboard, no cockpit.
    let t = office.driver.session(1366, 900);
    sign_in_home(&t, server, "staff@office.in", STAFF_PASSWORD);
    t.wait("[data-testid='dashboard']");
    assert_eq!(stat(&t, "tile-overdue-invoices"), "1");
    assert_eq!(t.wait("[data-testid='overdue-amount']").text(), "₹2,360.00");
    assert_eq!(stat(&t, "tile-quotes"), "0");
    assert_eq!(stat(&t, "tile-tickets"), "0");
    assert_eq!(stat(&t, "tile-renewals"), "0");
    assert!(
        t.find_all("[data-toggle='mine']").is_empty(),
        "no Mine only for staff"
    );
    let nav = nav_labels(&t);
    assert!(!nav.iter().any(|l| l == "Cockpit"), "{nav:?}");
    shot(&t, "162-home-dashboard-staff");
    t.goto(&server.url("/reports"));
    t.wait_page("reports");
    assert!(!t.page_text().contains("Owner cockpit"));
    assert!(!t.page_text().contains("Number continuity"));
    t.goto(&server.url("/cockpit"));
    t.wait_page("forbidden");
    let (status, _, _) = server.call("GET", "/api/reports/mis", Some(&staff), None);
    assert_eq!(status, 403);
    shot(&t, "163-cockpit-staff-refused");
    // Staff's module revenue: their client's invoice names no module.
    t.goto(&server.url("/reports/module-revenue"));
    t.wait_page("module-revenue");
    t.wait_text(
        "[data-testid='module-revenue-table']",
        "No module was billed in this period.",
    );
    assert!(t.find_all("[data-testid='module-revenue-chart']").is_empty());
    shot(&t, "164-module-revenue-staff");
}

/// The first-run checklist on the owner's home page as `[key, done]` pairs.
fn setup_items(s: &Session) -> Value {
    s.script(
        "return [...document.querySelectorAll(\"[data-testid='setup-checklist'] li\")].map((li) => [li.dataset.key, li.dataset.done]);",
        json!([]),
    )
}

#[test]
fn a_fresh_office_shows_the_owner_the_setup_checklist_and_ticks_what_is_done() {
    let Some(office) = Office::start() else { return };
    let s = office.owner_window();
    s.wait("[data-testid='setup-checklist'] li");
    let all = [
        "company_profile",
        "gstin_state",
        "public_address",
        "mail",
        "upi_id",
        "logo",
        "first_staff",
    ];
    let expect = |done: &[&str]| -> Value {
        json!(
            all.iter()
                .map(|k| json!([k, if done.contains(k) { "1" } else { "0" }]))
                .collect::<Vec<_>>()
        )
    };
    assert_eq!(setup_items(&s), expect(&[]));
    s.wait_text(
        "[data-testid='setup-checklist'] .card-title",
        "Getting started: 7 of 7 left",
    );
    // Until a public address is set, the home page says so and links to where it is set.
    let notice = s.wait("[data-testid='public-address-unset'] a");
    assert_eq!(
        notice.attribute("href").as_deref(),
        Some("/settings/template#public-links")
    );
    shot(&s, "95-setup-checklist-fresh");

    // The company profile and a first employee, through the API; a reload ticks them.
    let (status, _, reply) = office.server.call(
        "PUT",
        "/api/settings/company",
        Some(&office.owner),
        Some(json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" })),
    );
    assert_eq!(status, 200, "{reply}");
    ready_user(
        &office.server,
        &office.owner,
        "anu@softland.in",
        "staff",
        STAFF_PASSWORD,
    );
    s.goto(&office.server.url("/"));
    s.wait_page("home");
    until(&s, "the profile, GSTIN and staff ticked", || {
        setup_items(&s) == expect(&["company_profile", "gstin_state", "first_staff"])
    });
    s.wait_text(
        "[data-testid='setup-checklist'] .card-title",
        "Getting started: 4 of 7 left",
    );

    // Others never see the card.
    let staff = office.driver.session(1366, 900);
    sign_in_home(&staff, &office.server, "anu@softland.in", STAFF_PASSWORD);
    staff.wait("[data-testid='dashboard']");
    assert_eq!(staff.count("[data-testid='setup-checklist']"), 0);
    assert_eq!(staff.count("[data-testid='public-address-unset']"), 0);
}
