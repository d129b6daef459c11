//! Browser tests of the day's worklists (issue 19): the pipeline shows a lead as Enquiry and the
//! quotations as Quoted/Waiting with their colour bands, as a list and as a board; a quotation is
//! marked sent and another lost from the list (the lost one moves to the Lost chip); a call is
//! logged. The renewals list prices a subscription by the price book, totals the range, and its
//! "Renewal proforma" opens the new draft, after which the row, and the project's page, link that
//! proforma instead. A ticket is opened in the dialog (a future day is refused on its field first), shows in the list with its SLA badge and the chips' counts, is started,
//! resolved, noted and billed on its page, and is listed on its client's page.

use crate::common::browser::{Office, quiet, select, shot, until};
use crate::common::webdriver::Session;
use chrono::{Duration, NaiveDate};
use serde_json::{Value, json};

fn company(office: &Office) {
    let (status, _, _) = office.server.call(
        "PUT",
        "/api/settings/company",
        Some(&office.owner),
        Some(json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" })),
    );
    assert_eq!(status, 200);
}

/// The office's today (the company is at UTC+05:30).
fn office_today() -> NaiveDate {
    (chrono::Utc::now() + Duration::minutes(330)).date_naive()
}

fn dd_mm_yyyy(day: NaiveDate) -> String {
    day.format("%d-%m-%Y").to_string()
}

/// Answers the `id` of a 200 or 201 reply.
fn created(call: (u16, Option<String>, Value)) -> String {
    let (status, _, body) = call;
    assert!(status == 200 || status == 201, "{status}: {body}");
    body["id"].as_str().unwrap().to_string()
}

/// An issued quotation of one ₹10,000 line (₹11,800.00 with GST) dated `doc_date`; answers its
/// id and number.
fn quotation(office: &Office, client_id: &str, doc_date: NaiveDate) -> (String, String) {
    let (server, owner) = (&office.server, &office.owner);
    let id = created(server.call(
        "POST",
        "/api/documents",
        Some(owner),
        Some(json!({ "type": "QUOTATION", "client_id": client_id, "doc_date": doc_date.to_string(),
                     "lines": [ { "description": "Deposit module", "qty": 1, "unit_price": 1_000_000, "gst_rate": 18 } ] })),
    ));
    let (status, _, issued) = server.call(
        "POST",
        &format!("/api/documents/{id}/issue"),
        Some(owner),
        Some(json!({})),
    );
    assert_eq!(status, 200, "{issued}");
    (id, issued["docNo"].as_str().unwrap().to_string())
}

/// The texts of the cells of the row `css`, spaces collapsed; a cell of row actions as their
/// labels joined by " | ".
fn cells(s: &Session, css: &str) -> Value {
    s.wait(css);
    s.script(
        "const text = (e) => e.textContent.replace(/\\s+/g, ' ').trim();
         return [...document.querySelector(arguments[0]).children].map((td) => {
           const actions = td.querySelector('.row-actions');
           return actions ? [...actions.children].map(text).join(' | ') : text(td);
         });",
        json!([css]),
    )
}

/// What a pipeline row shows: client, owner, stage, band, age, next action, next on, quotation,
/// total and the actions.
fn pipeline_cells(s: &Session, css: &str) -> Value {
    s.wait(css);
    s.script(
        "const row = document.querySelector(arguments[0]);
         const text = (e) => e ? e.textContent.replace(/\\s+/g, ' ').trim() : null;
         const td = (n) => text(row.children[n]);
         return [td(0), td(1), text(row.querySelector('[data-testid=stage]')), text(row.querySelector('[data-testid=band]')), td(3),
           text(row.querySelector('[data-testid=next-action]')), text(row.querySelector('[data-testid=next-on]')), td(5), td(6),
           [...row.querySelectorAll('.row-actions > *')].map(text).join(' | ')];",
        json!([css]),
    )
}

/// The `href` of the first element matching `css`, as written.
fn href(s: &Session, css: &str) -> Value {
    s.wait(css);
    s.script(
        "return document.querySelector(arguments[0]).getAttribute('href')",
        json!([css]),
    )
}

fn value_of(s: &Session, css: &str) -> Value {
    s.script("return document.querySelector(arguments[0]).value", json!([css]))
}

#[test]
fn the_pipeline_shows_leads_and_quotations_by_band_and_they_are_chased_from_the_list() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    company(&office);
    let today = office_today();
    let perinad = office.client("PERINAD SERVICE CO-OPERATIVE BANK");
    let kundara = office.client("KUNDARA SERVICE CO-OPERATIVE BANK");
    let lead = created(server.call(
        "POST",
        "/api/clients",
        Some(owner),
        Some(json!({ "name": "THRIKKOVILVATTOM PACS", "state_code": "32", "status": "lead" })),
    ));
    // Perinad's quotation went out today; Kundara's was issued five days ago and never sent.
    let (sent, sent_no) = quotation(&office, &perinad, today);
    let (status, _, _) = server.call(
        "POST",
        &format!("/api/documents/{sent}/mark-sent"),
        Some(owner),
        Some(json!({})),
    );
    assert_eq!(status, 200);
    let (unsent, unsent_no) = quotation(&office, &kundara, today - Duration::days(5));

    let s = office.owner_window();
    s.find_all("nav a")
        .into_iter()
        .find(|a| a.text().trim() == "Pipeline")
        .unwrap()
        .click();
    s.wait_page("pipeline");
    let sent_row = format!("[data-testid='pipeline'] tr[data-document-id='{sent}']");
    let unsent_row = format!("[data-testid='pipeline'] tr[data-document-id='{unsent}']");
    let lead_row = format!("[data-testid='pipeline'] tr[data-id='lead-{lead}']");
    s.wait(&sent_row);
    let next = |days: i64| dd_mm_yyyy(today + Duration::days(days));
    // Client, owner, stage, band, age, next action, next on, quotation, total, actions.
    assert_eq!(
        pipeline_cells(&s, &sent_row),
        json!([
            "PERINAD SERVICE CO-OPERATIVE BANK",
            "Nobody",
            "Quoted/Waiting",
            "On track",
            "0 days",
            "Wait for an answer",
            format!("Next on {}", next(3)),
            sent_no,
            "₹11,800.00",
            "Accepted | Lost | Log a call"
        ])
    );
    assert_eq!(
        pipeline_cells(&s, &unsent_row),
        json!([
            "KUNDARA SERVICE CO-OPERATIVE BANK",
            "Nobody",
            "Quoted/Waiting",
            "Follow up",
            "5 days",
            "Send the quotation",
            format!("Next on {}", next(2)),
            unsent_no,
            "₹11,800.00",
            "Mark sent | Accepted | Lost | Log a call"
        ])
    );
    assert_eq!(
        pipeline_cells(&s, &lead_row),
        json!([
            "THRIKKOVILVATTOM PACS",
            "Nobody",
            "Enquiry",
            "On track",
            "0 days",
            "Send a quotation",
            format!("Next on {}", next(3)),
            "No quotation yet",
            "—",
            "New quotation | Mark lost | Log a call"
        ])
    );
    assert_eq!(
        (
            s.wait(&sent_row).attribute("data-band"),
            s.wait(&unsent_row).attribute("data-band"),
            s.wait(&format!("{unsent_row} [data-testid='band']"))
                .attribute("data-band"),
        ),
        (Some("green".into()), Some("amber".into()), Some("amber".into()))
    );
    assert_eq!(href(&s, "[data-testid='csv-link']"), json!("/api/pipeline.csv"));
    shot(&s, "112-pipeline-list");

    // Kundara's quotation is marked sent: it waits for an answer from today.
    s.wait(&format!("{unsent_row} button[data-action='mark-sent']"))
        .click();
    s.wait_text(".toast", &format!("{unsent_no} is marked sent."));
    until(&s, "Kundara's row to wait for an answer", || {
        pipeline_cells(&s, &unsent_row)[5] == json!("Wait for an answer")
    });
    assert_eq!(s.wait(&unsent_row).attribute("data-band"), Some("green".into()));

    // A call logged with the lead, with a follow-up.
    s.wait(&format!("{lead_row} button[data-action='call']")).click();
    s.fill("follow_up_on", &next(4));
    s.fill("notes", "The secretary wants a demo of the deposit module.");
    s.click_button("Log call");
    s.wait_text(".toast", "Call with THRIKKOVILVATTOM PACS logged.");
    let (_, _, calls) = server.call(
        "GET",
        &format!("/api/interactions?client_id={lead}"),
        Some(owner),
        None,
    );
    assert_eq!(
        (
            calls["total"].as_i64(),
            calls["rows"][0]["type"].as_str(),
            calls["rows"][0]["notes"].as_str(),
            calls["rows"][0]["follow_up_on"].as_str()
        ),
        (
            Some(1),
            Some("call"),
            Some("The secretary wants a demo of the deposit module."),
            Some((today + Duration::days(4)).to_string().as_str())
        )
    );
    quiet(&s);

    // The board: a column per open stage, each card coloured by its band.
    s.wait("[data-filter='board']").click();
    s.wait("[data-testid='pipeline-board']");
    assert!(s.url().ends_with("/pipeline?view=board"), "{}", s.url());
    assert_eq!(
        s.texts(".pipeline-column-title"),
        json!(["Enquiry 1", "Quoted/Waiting 2"])
    );
    assert_eq!(
        s.texts(".pipeline-column[data-stage='Enquiry'] .pipeline-card .cell-main"),
        json!(["THRIKKOVILVATTOM PACS"])
    );
    assert_eq!(
        s.texts(".pipeline-column[data-stage='Quoted/Waiting'] .pipeline-card .cell-main"),
        json!([
            "PERINAD SERVICE CO-OPERATIVE BANK",
            "KUNDARA SERVICE CO-OPERATIVE BANK"
        ])
    );
    assert_eq!(
        s.wait(&format!(".pipeline-card[data-document-id='{sent}']"))
            .attribute("class"),
        Some("pipeline-card band-edge-green".into())
    );
    shot(&s, "113-pipeline-board");

    // Back to the list: Perinad's quotation is lost, after a confirmation.
    s.wait("[data-filter='list']").click();
    s.wait(&format!("{sent_row} button[data-action='lost']")).click();
    s.wait_text(".dialog-title", &format!("Mark {sent_no} lost?"));
    shot(&s, "114-pipeline-lost-confirm");
    s.click_button("Mark quotation lost");
    s.wait_text(".toast", &format!("{sent_no} is marked lost."));
    until(&s, "the lost quotation to leave the open list", || {
        s.find_all(&sent_row).is_empty()
    });
    s.wait("[data-filter='lost']").click();
    s.wait(&sent_row);
    assert_eq!(
        pipeline_cells(&s, &sent_row),
        json!([
            "PERINAD SERVICE CO-OPERATIVE BANK",
            "Nobody",
            "Lost",
            "Lost",
            "0 days",
            "None: lost",
            "No follow-up due",
            sent_no,
            "₹11,800.00",
            "Log a call"
        ])
    );
    assert_eq!(
        s.find_all("[data-testid='pipeline'] tbody tr[data-id]").len(),
        1,
        "only the lost quotation"
    );
    assert!(s.url().ends_with("/pipeline?filter=lost"), "{}", s.url());
    quiet(&s);
    shot(&s, "115-pipeline-lost");
    let (_, _, doc) = server.call("GET", &format!("/api/documents/{sent}"), Some(owner), None);
    assert_eq!(doc["status"].as_str(), Some("lost"));
}

#[test]
fn a_renewal_in_range_is_priced_totalled_and_quoted_in_one_click() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    company(&office);
    let today = office_today();
    let anchal = office.client("ANCHAL SERVICE CO-OPERATIVE BANK");
    let kallai = office.client("KALLAI PACS");
    let module = created(server.call(
        "POST",
        "/api/modules",
        Some(owner),
        Some(json!({ "code": "DEP", "name": "Deposit module", "sac": "998314", "gst_rate": 18 })),
    ));
    let (status, _, _) = server.call(
        "POST",
        &format!("/api/modules/{module}/prices"),
        Some(owner),
        Some(json!({ "effective_from": "2020-04-01", "price": 1_000_000 })),
    );
    assert_eq!(status, 201);
    let due = today + Duration::days(10);
    let subscription = created(server.call(
        "POST",
        "/api/client-modules",
        Some(owner),
        Some(json!({ "client_id": anchal, "module_id": module, "next_renewal": due.to_string() })),
    ));
    // Kallai's AMC ends in five days (₹25,000); one renewing past the range is left out.
    let contract = created(server.call(
        "POST",
        "/api/service-contracts",
        Some(owner),
        Some(json!({ "client_id": kallai, "description": "Core banking AMC",
                     "period_from": (today - Duration::days(360)).to_string(),
                     "period_to": (today + Duration::days(5)).to_string(), "amount": 2_500_000 })),
    ));
    created(server.call(
        "POST",
        "/api/client-modules",
        Some(owner),
        Some(json!({ "client_id": kallai, "module_id": module,
                     "next_renewal": (today + Duration::days(61)).to_string() })),
    ));

    let s = office.owner_window();
    s.goto(&server.url("/renewals"));
    s.wait_page("renewals");
    let module_row = format!("[data-testid='renewals'] tr[data-kind='module'][data-id='{subscription}']");
    let contract_row = format!("[data-testid='renewals'] tr[data-kind='contract'][data-id='{contract}']");
    s.wait(&module_row);
    assert_eq!(
        s.texts("[data-testid='renewals'] tbody tr td:nth-child(4)"),
        json!(["KALLAI PACS", "ANCHAL SERVICE CO-OPERATIVE BANK"]),
        "earliest first"
    );
    assert_eq!(
        cells(&s, &module_row),
        json!([
            dd_mm_yyyy(due),
            "in 10 days",
            "Module",
            "ANCHAL SERVICE CO-OPERATIVE BANK",
            "Deposit module",
            "₹10,000.00",
            "Renewal proforma"
        ])
    );
    assert_eq!(
        cells(&s, &contract_row),
        json!([
            dd_mm_yyyy(today + Duration::days(5)),
            "in 5 days",
            "Contract",
            "KALLAI PACS",
            "Core banking AMC",
            "₹25,000.00",
            "Renewal invoice"
        ])
    );
    assert_eq!(s.wait("[data-testid='renewals-total']").text(), "₹35,000.00");
    assert_eq!(
        s.wait(".renewals-summary").text(),
        format!(
            "2 renewals from {} to {}, worth ₹35,000.00 before GST.",
            dd_mm_yyyy(today),
            dd_mm_yyyy(today + Duration::days(60))
        )
    );
    // The empty dates show the server's default range.
    assert_eq!(value_of(&s, "[name='from']"), json!(""));
    s.wait_text(
        ".field:has([name='from']) .hint",
        &format!("Empty: today ({})", dd_mm_yyyy(today)),
    );
    shot(&s, "116-renewals");

    // Modules only: the contract leaves the list and the total.
    s.wait("[data-filter='module']").click();
    s.wait_text("[data-testid='renewals-total']", "₹10,000.00");
    until(&s, "the contract to leave the list", || {
        s.find_all(&contract_row).is_empty()
    });
    assert!(s.url().ends_with("/renewals?kind=module"), "{}", s.url());
    assert_eq!(
        href(&s, "[data-testid='csv-link']"),
        json!("/api/renewals.csv?kind=module")
    );

    // One click: the renewal proforma's draft opens, at today's price.
    let button = s.wait(&format!("{module_row} button[data-action='renewal-quote']"));
    assert_eq!(
        button.attribute("aria-label").as_deref(),
        Some("Renewal proforma for ANCHAL SERVICE CO-OPERATIVE BANK: Deposit module")
    );
    button.click();
    s.wait_text(
        ".toast",
        "Renewal proforma draft made for ANCHAL SERVICE CO-OPERATIVE BANK.",
    );
    s.wait_page("document");
    s.wait_text("[data-testid='total']", "₹11,800.00");
    shot(&s, "117-renewal-quote-draft");
    let draft = s.url().rsplit('/').next().unwrap().to_string();
    let (_, _, doc) = server.call("GET", &format!("/api/documents/{draft}"), Some(owner), None);
    assert_eq!(
        (
            doc["type"].as_str(),
            doc["status"].as_str(),
            doc["client_id"].as_str(),
            doc["total"].as_i64()
        ),
        (
            Some("PROFORMA"),
            Some("draft"),
            Some(anchal.as_str()),
            Some(1_180_000)
        )
    );

    // Back on the list, the row links its live renewal proforma instead of making a second.
    let link = format!("{module_row} [data-testid='renewal-proforma']");
    s.goto(&server.url("/renewals?kind=module"));
    s.wait_page("renewals");
    s.wait_text(&link, "Proforma draft");
    assert_eq!(href(&s, &link), json!(format!("/documents/{draft}")));
    assert!(
        s.find_all(&format!("{module_row} button[data-action='renewal-quote']"))
            .is_empty(),
        "no second renewal proforma"
    );
    // So does the project's page, in place of its "Renewal proforma" button (issue 34).
    let project_link = "main[data-page='project'] [data-testid='renewal-proforma']";
    s.goto(&server.url(&format!("/projects/{subscription}")));
    s.wait_page("project");
    s.wait_text(project_link, "Renewal proforma draft");
    assert_eq!(href(&s, project_link), json!(format!("/documents/{draft}")));
    assert!(
        s.find_all("main[data-page='project'] button")
            .iter()
            .all(|b| b.text().trim() != "Renewal proforma"),
        "no button to make a second"
    );
    let (status, _, issued) = server.call(
        "POST",
        &format!("/api/documents/{draft}/issue"),
        Some(owner),
        Some(json!({})),
    );
    assert_eq!(status, 200, "{issued}");
    let no = issued["docNo"].as_str().unwrap();
    s.goto(&server.url("/renewals?kind=module"));
    s.wait_page("renewals");
    s.wait_text(&link, &format!("Proforma {no}, issued"));
    assert_eq!(s.wait(&link).text(), format!("Proforma {no}, issued"));
    shot(&s, "118-renewal-proforma-link");
    s.goto(&server.url(&format!("/projects/{subscription}")));
    s.wait_page("project");
    assert_eq!(
        s.wait_text(project_link, "issued").text(),
        format!("Proforma {no}, issued")
    );
    shot(&s, "118b-project-renewal-proforma-link");
    s.goto(&server.url("/renewals?kind=module"));
    s.wait_page("renewals");
    s.wait(&link).click();
    s.wait_page("document");
    assert!(s.url().ends_with(&format!("/documents/{draft}")), "{}", s.url());
}

#[test]
fn a_ticket_is_opened_moved_noted_and_billed_and_listed_on_its_client() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    company(&office);
    let today = office_today();
    let chavara = office.client("CHAVARA SERVICE CO-OPERATIVE BANK");
    let anchal = office.client("ANCHAL SERVICE CO-OPERATIVE BANK");
    // A call nine days old, past the seven-day SLA.
    let old = created(server.call(
        "POST",
        "/api/tickets",
        Some(owner),
        Some(
            json!({ "client_id": anchal, "subject": "Loan ledger mismatch", "kind": "Ledger",
                     "opened_on": (today - Duration::days(9)).to_string() }),
        ),
    ));
    let (_, _, me) = server.call("GET", "/api/me", Some(owner), None);
    let me = me["id"].as_str().unwrap().to_string();

    let s = office.owner_window();
    s.goto(&server.url("/tickets"));
    s.wait_page("tickets");
    s.wait(&format!("[data-testid='tickets'] tr[data-id='{old}']"));
    s.click_button("New ticket");
    s.wait(&format!("select[name='client_id'] option[value='{chavara}']"));
    select(&s, "select[name='client_id']", &chavara);
    assert_eq!(
        (
            value_of(&s, "dialog select[name='type']"),
            value_of(&s, "dialog select[name='assignee_id']"),
            value_of(&s, "dialog select[name='status']")
        ),
        (json!("service"), json!(me), json!("open"))
    );
    s.wait("dialog datalist option[value='Ledger']");
    s.fill("subject", "Day-end stuck");
    s.fill(
        "description",
        "The day-end process stops at the interest posting.",
    );
    s.fill("opened_on", &dd_mm_yyyy(today + Duration::days(1)));
    s.fill("kind", "Day-end");
    s.click_button("Open ticket");
    assert_eq!(
        s.wait(".field.has-error:has([name='opened_on']) .field-error")
            .text(),
        format!("A ticket cannot be opened after today ({today}).")
    );
    s.wait("[name='opened_on'][aria-invalid='true']");
    shot(&s, "118-ticket-form-errors");
    let (_, _, listed) = server.call("GET", "/api/tickets?chip=all", Some(owner), None);
    assert_eq!(listed["total"].as_i64(), Some(1), "nothing written");
    s.fill("opened_on", &dd_mm_yyyy(today - Duration::days(2)));
    s.fill("kind", "Day-end");
    s.click_button("Open ticket");
    s.wait_text(".toast", "Ticket opened for CHAVARA SERVICE CO-OPERATIVE BANK.");
    let (_, _, listed) = server.call("GET", "/api/tickets?search=Day-end", Some(owner), None);
    let ticket = listed["rows"][0]["id"].as_str().unwrap().to_string();
    let row = format!("[data-testid='tickets'] tr[data-id='{ticket}']");
    s.wait(&row);
    // Opened, subject, client, type, kind, status, age, assigned to, resolved.
    assert_eq!(
        cells(&s, &row),
        json!([
            dd_mm_yyyy(today - Duration::days(2)),
            "Day-end stuck",
            "CHAVARA SERVICE CO-OPERATIVE BANK",
            "Service",
            "Day-end",
            "Open",
            "2 days",
            "Me",
            "—"
        ])
    );
    assert_eq!(
        cells(&s, &format!("[data-testid='tickets'] tr[data-id='{old}']"))[6],
        json!("Overdue: 9 days")
    );
    assert_eq!(
        s.wait(&format!(
            "[data-testid='tickets'] tr[data-id='{old}'] [data-testid='sla'] .badge"
        ))
        .attribute("class"),
        Some("badge badge-danger".into())
    );
    assert_eq!(
        s.texts("[data-testid='tickets'] tbody tr td:nth-child(2)"),
        json!(["Loan ledger mismatch", "Day-end stuck"]),
        "still open: the oldest first"
    );
    assert_eq!(
        s.texts(".ticket-chips .chip"),
        json!([
            "Still open 2",
            "Open 2",
            "In progress",
            "Waiting on client",
            "Resolved",
            "Closed",
            "All 2"
        ])
    );
    quiet(&s);
    shot(&s, "119-tickets");

    // Past SLA: only the old one.
    s.wait("[data-toggle='overdue']").click();
    until(&s, "only the overdue ticket", || s.find_all(&row).is_empty());
    assert_eq!(
        s.texts("[data-testid='tickets'] tbody tr td:nth-child(2)"),
        json!(["Loan ledger mismatch"])
    );
    assert!(s.url().ends_with("/tickets?overdue=1"), "{}", s.url());
    s.wait("[data-toggle='overdue']").click();

    // Its page: started, then resolved; the timeline lists both moves; a note.
    s.wait(&format!("{row} a")).click();
    s.wait_page("ticket");
    s.wait_text("h1", "Day-end stuck");
    s.wait_text(
        "[data-testid='ticket-client']",
        "CHAVARA SERVICE CO-OPERATIVE BANK",
    );
    assert_eq!(
        s.texts(".ticket-moves button"),
        json!(["Start", "Waiting on client", "Resolve", "Close"])
    );
    s.click_button("Start");
    s.wait_text("[data-testid='ticket-status']", "In progress");
    assert_eq!(
        s.texts(".ticket-moves button"),
        json!(["Waiting on client", "Resolve", "Close"])
    );
    s.click_button("Resolve");
    s.wait_text("[data-testid='ticket-status']", "Resolved");
    assert_eq!(s.texts(".ticket-moves button"), json!(["Close", "Reopen"]));
    assert_eq!(s.wait("[data-testid='sla']").text(), "Took 2 days");
    assert_eq!(
        s.texts("[data-testid='timeline'] [data-testid='status-move']"),
        json!(["Open → In progress", "In progress → Resolved"])
    );
    s.fill(
        "note",
        "Rebuilt the interest posting index; the day-end runs again.",
    );
    s.click_button("Add note");
    s.wait_text(
        "[data-testid='timeline'] li:last-child .timeline-notes",
        "Rebuilt the interest posting index; the day-end runs again.",
    );
    assert_eq!(
        s.script(
            "return [...document.querySelectorAll('[data-testid=timeline] li')].map((li) => li.dataset.kind)",
            json!([])
        ),
        json!(["opened", "status", "status", "note"])
    );
    assert_eq!(value_of(&s, "[name='note']"), json!(""));
    quiet(&s);
    shot(&s, "120-ticket-resolved");

    // Billed after a confirmation: the invoice draft opens, naming the ticket.
    s.click_button("Bill this ticket");
    s.click_button("Make invoice draft");
    s.wait_page("document");
    s.wait_text(
        "[data-testid='doc-preview']",
        &format!(
            "Support: Day-end stuck (ticket of {})",
            dd_mm_yyyy(today - Duration::days(2))
        ),
    );
    shot(&s, "121-ticket-bill-draft");
    let draft = s.url().rsplit('/').next().unwrap().to_string();
    let (_, _, doc) = server.call("GET", &format!("/api/documents/{draft}"), Some(owner), None);
    assert_eq!(
        (
            doc["type"].as_str(),
            doc["status"].as_str(),
            doc["client_id"].as_str()
        ),
        (Some("INVOICE"), Some("draft"), Some(chavara.as_str()))
    );
    s.goto(&server.url(&format!("/tickets/{ticket}")));
    s.wait_page("ticket");
    assert_eq!(
        s.wait("[data-testid='ticket-bill']").text(),
        "Billed: Draft tax invoice"
    );
    assert!(
        s.find_all("main button")
            .iter()
            .all(|b| b.text() != "Bill this ticket"),
        "billed once"
    );
    s.wait_text(
        "[data-testid='timeline'] li[data-kind='billed']",
        "Billed: Draft tax invoice",
    );

    // The client's page lists its tickets.
    s.goto(&server.url(&format!("/clients/{chavara}")));
    s.wait_page("client");
    let card_row = format!("[data-testid='client-tickets'] tr[data-id='{ticket}']");
    s.wait(&card_row);
    assert_eq!(
        [
            " a",
            " [data-testid='opened-on']",
            " [data-testid='ticket-status']",
            " [data-testid='sla']"
        ]
        .map(|part| s.texts(&format!("{card_row}{part}"))),
        [
            json!(["Day-end stuck"]),
            json!([format!("Opened {}", dd_mm_yyyy(today - Duration::days(2)))]),
            json!(["Resolved"]),
            json!(["Took 2 days"])
        ]
    );
    assert_eq!(s.find_all("[data-testid='client-tickets'] tbody tr").len(), 1);
    s.wait_text(".client-tickets-card .card-actions a", "All tickets");
    assert_eq!(
        href(&s, ".client-tickets-card .card-actions a"),
        json!(format!("/tickets?client_id={chavara}&chip=all"))
    );
    shot(&s, "122-client-tickets");
}
