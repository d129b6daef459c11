//! Browser tests of issue 20's finding screens. The global search: `/` puts the cursor in the
//! top bar's box (not while typing in a field), hits show grouped as one types, the arrows
//! move, Enter opens the highlighted client (or the first hit: a document by its number), a
//! click opens a ticket, Escape closes the list, and a group with more than five ends in a link
//! to the full list. The portals list shows each login without its password (revealed on
//! demand by the owner) and filters by provider; the module data directory lays a module's
//! subscriptions out under its fields' labels, with the CSV of the filter.

use crate::common::browser::{Office, quiet, select, shot, until};
use crate::common::webdriver::Session;
use serde_json::{Value, json};

/// Answers the `id` of a 200 or 201 reply.
fn created(call: (u16, Option<String>, Value)) -> String {
    let (status, _, body) = call;
    assert!(status == 200 || status == 201, "{status}: {body}");
    body["id"].as_str().unwrap().to_string()
}

/// The hits the list shows, group by group: "group: label | line".
fn shown_hits(s: &Session) -> Value {
    s.script(
        "const text = (e) => e ? e.textContent.replace(/\\s+/g, ' ').trim() : '';
         return [...document.querySelectorAll('#global-search-results [role=option]')].map((o) =>
           o.closest('[data-group]').dataset.group + ': ' + text(o.querySelector('.search-hit-label')) + ' | ' + text(o.querySelector('.search-hit-line')));",
        json!([]),
    )
}

/// What the search box holds.
fn typed(s: &Session) -> Value {
    s.script(
        "return document.getElementById('global-search-input').value",
        json!([]),
    )
}

fn active_id(s: &Session) -> Value {
    s.script(
        "return document.activeElement ? document.activeElement.id : null",
        json!([]),
    )
}

fn search_input(s: &Session) -> crate::common::webdriver::Element<'_> {
    s.wait("#global-search-input")
}

/// Types `text` into the search box after clearing it, and waits for the answer to it.
fn search_for(s: &Session, text: &str) {
    // Emptied as a person would (an input event), so the box's own state follows.
    let input = search_input(s);
    s.script(
        "const el = document.getElementById('global-search-input'); el.value = ''; el.dispatchEvent(new Event('input', { bubbles: true }));",
        json!([]),
    );
    input.type_text(text);
    // Hits, or a status that is not "Searching…" (nothing matches), for this very text.
    until(s, &format!("the answer to {text}"), || {
        let status: Vec<String> = s
            .find_all("[data-testid=search-status]")
            .iter()
            .map(|e| e.text())
            .collect();
        let hits = !s.find_all("#global-search-results [role=option]").is_empty();
        (hits && status.is_empty()) || status.iter().any(|t| t.contains(text))
    });
}

const ARROW_DOWN: &str = "\u{E015}";
const ENTER: &str = "\u{E007}";
const ESCAPE: &str = "\u{E00C}";

#[test]
fn slash_finds_clients_documents_and_tickets_as_one_types_and_enter_opens_them() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    let (status, _, _) = server.call(
        "PUT",
        "/api/settings/company",
        Some(owner),
        Some(json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" })),
    );
    assert_eq!(status, 200);
    let perinad = created(server.call(
        "POST",
        "/api/clients",
        Some(owner),
        Some(
            json!({ "name": "PERINAD SERVICE CO-OPERATIVE BANK", "state_code": "32", "district": "Kollam" }),
        ),
    ));
    let kundara = created(server.call(
        "POST",
        "/api/clients",
        Some(owner),
        Some(json!({ "name": "KUNDARA PACS", "state_code": "32", "district": "Kollam", "remote_access_id": "AD 551 907" })),
    ));
    let (invoice, invoice_no) = office.issued_invoice(&perinad, "Deposit module", 1_000_000);
    let ticket = created(server.call(
        "POST",
        "/api/tickets",
        Some(owner),
        Some(json!({ "client_id": kundara, "subject": "Passbook printer skips lines" })),
    ));
    for n in 1..=6 {
        office.client(&format!("KARUNAGAPPALLY UNIT {n} SCB"));
    }

    let s = office.owner_window();
    // `/` from the page puts the cursor in the box.
    s.wait("body").type_text("/");
    until(&s, "the search box has the focus", || {
        active_id(&s) == "global-search-input"
    });
    search_input(&s).type_text("perinad");
    s.wait("[data-group=documents] [role=option]");
    assert_eq!(
        shown_hits(&s),
        json!([
            "clients: PERINAD SERVICE CO-OPERATIVE BANK | Kollam",
            format!(
                "documents: {invoice_no} issued | Invoice · PERINAD SERVICE CO-OPERATIVE BANK · {} · ₹11,800.00",
                office_date(&s)
            ),
        ])
    );
    assert_eq!(
        search_input(&s).attribute("aria-expanded").as_deref(),
        Some("true")
    );
    shot(&s, "140-search-grouped-hits");

    // The arrows move the highlight; Enter opens the client.
    search_input(&s).type_text(ARROW_DOWN);
    until(&s, "the first hit is highlighted", || {
        s.find_all("[role=option][aria-selected=true]")
            .first()
            .is_some_and(|o| o.attribute("data-id").as_deref() == Some(perinad.as_str()))
    });
    assert_eq!(
        search_input(&s).attribute("aria-activedescendant").as_deref(),
        Some("search-hit-0")
    );
    search_input(&s).type_text(ENTER);
    s.wait_page("client");
    assert!(s.url().ends_with(&format!("/clients/{perinad}")), "{}", s.url());
    assert_eq!(typed(&s), "");

    // A `/` typed into a field is text, not the shortcut: the number has two of them.
    s.wait("body").type_text("/");
    until(&s, "the search box has the focus again", || {
        active_id(&s) == "global-search-input"
    });
    search_for(&s, &invoice_no.to_lowercase());
    assert_eq!(typed(&s), invoice_no.to_lowercase());
    s.wait("[data-group=documents] [role=option]");
    search_input(&s).type_text(ENTER);
    s.wait_page("document");
    assert!(s.url().ends_with(&format!("/documents/{invoice}")), "{}", s.url());

    // The remote access id finds the client; a click on a ticket opens it.
    search_for(&s, "551 9");
    assert_eq!(
        shown_hits(&s),
        json!(["clients: KUNDARA PACS | Kollam · Remote AD 551 907"])
    );
    search_for(&s, "printer");
    let hit = s.wait(&format!("[role=option][data-id='{ticket}']"));
    assert_eq!(
        shown_hits(&s),
        json!([format!(
            "tickets: Passbook printer skips lines open | KUNDARA PACS · opened {}",
            office_date(&s)
        )])
    );
    hit.click();
    s.wait_page("ticket");
    assert!(s.url().ends_with(&format!("/tickets/{ticket}")), "{}", s.url());

    // Escape closes the list; a sixth client caps the group with a link to the whole list.
    search_for(&s, "karunagappally");
    assert_eq!(s.find_all("[data-group=clients] [role=option]").len(), 5);
    let more = s.wait("[data-group=clients] .search-more");
    assert_eq!(more.text(), "More clients matching “karunagappally” →");
    assert_eq!(
        more.attribute("href").as_deref(),
        Some("/clients?q=karunagappally")
    );
    shot(&s, "141-search-capped-group");
    search_input(&s).type_text(ESCAPE);
    until(&s, "the list is closed", || {
        search_input(&s).attribute("aria-expanded").as_deref() == Some("false")
            && !s.wait(".global-search-panel").displayed()
    });
    search_for(&s, "zzqx");
    s.wait_text("[data-testid=search-status]", "Nothing matches “zzqx”.");
    shot(&s, "142-search-nothing-matches");

    // On a phone the box spans the top of the page.
    let phone = office.driver.phone_session(390, 844);
    crate::common::browser::sign_in_home(
        &phone,
        server,
        "owner@localhost",
        crate::common::browser::OFFICE_OWNER_PASSWORD,
    );
    search_for(&phone, "kollam");
    assert_eq!(phone.find_all("[data-group=clients] [role=option]").len(), 2);
    quiet(&phone);
    shot(&phone, "143-search-phone");
}

/// Today at the office as the console writes it (the browser's clock, UTC+05:30 office).
fn office_date(s: &Session) -> String {
    s.script(
        "const d = new Date(Date.now() + 330 * 60000); const p = (n) => String(n).padStart(2, '0');
         return `${p(d.getUTCDate())}-${p(d.getUTCMonth() + 1)}-${d.getUTCFullYear()}`;",
        json!([]),
    )
    .as_str()
    .unwrap()
    .to_string()
}

#[test]
fn portals_show_logins_without_passwords_and_module_data_follows_the_field_spec() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    let spec = json!([
        { "key": "members", "label": "Members", "type": "integer" },
        { "key": "go_live", "label": "Go-live date", "type": "date" },
        { "key": "dlt_registered", "label": "DLT registered", "type": "boolean" }
    ]);
    let sms = created(server.call(
        "POST",
        "/api/modules",
        Some(owner),
        Some(json!({ "code": "SMS", "name": "Bulk SMS", "field_spec": spec })),
    ));
    let subscribe = |client: &str, values: Value, login: Value| {
        let id = created(server.call(
            "POST",
            "/api/client-modules",
            Some(owner),
            Some(json!({ "client_id": client, "module_id": sms, "field_values": values })),
        ));
        let (status, _, body) = server.call(
            "PATCH",
            &format!("/api/client-modules/{id}"),
            Some(owner),
            Some(login),
        );
        assert_eq!(status, 200, "{body}");
        id
    };
    let perinad = office.client("PERINAD SERVICE CO-OPERATIVE BANK");
    let kundara = office.client("KUNDARA PACS");
    let chavara = office.client("CHAVARA FARMERS SOCIETY");
    let perinad_sms = subscribe(
        &perinad,
        json!({ "members": 12_400, "go_live": "2024-06-01", "dlt_registered": true }),
        json!({ "provider": "msg91", "username": "perinad-scb", "password": "perinad-portal-pw" }),
    );
    subscribe(
        &kundara,
        json!({ "members": 3_100 }),
        json!({ "provider": "Textlocal", "username": "kundara-pacs" }),
    );
    subscribe(
        &chavara,
        json!({ "members": 800, "dlt_registered": false }),
        json!({ "active": 0 }),
    );

    let s = office.owner_window();
    s.find_all("nav a")
        .into_iter()
        .find(|a| a.text().trim() == "Portals")
        .unwrap()
        .click();
    s.wait_page("portals");
    s.wait(&format!("[data-testid=portals] tr[data-id='{perinad_sms}']"));
    let rows = || {
        s.script(
            "return [...document.querySelectorAll('[data-testid=portals] tbody tr[data-id]')].map((tr) =>
               [...tr.children].map((td) => td.innerText.replace(/\\s+/g, ' ').trim()).join(' | '));",
            json!([]),
        )
    };
    assert_eq!(
        rows(),
        json!([
            "KUNDARA PACS | Bulk SMS SMS | Textlocal | kundara-pacs | None | Active",
            "PERINAD SERVICE CO-OPERATIVE BANK | Bulk SMS SMS | msg91 | perinad-scb | Stored Reveal | Active",
        ])
    );
    assert!(!s.page_text().contains("perinad-portal-pw"));
    // The provider filter, and the CSV of it.
    until(&s, "the providers are listed", || {
        !s.find_all("select[name=provider] option[value=msg91]").is_empty()
    });
    select(&s, "select[name=provider]", "msg91");
    until(&s, "only msg91", || rows().as_array().unwrap().len() == 1);
    let csv = s.wait("[data-testid=csv-link]").attribute("href").unwrap();
    assert_eq!(csv, "/api/portals.csv?provider=msg91");
    s.click_button("Reveal");
    assert_eq!(
        s.wait("[data-testid=revealed-password]").text(),
        "perinad-portal-pw"
    );
    quiet(&s);
    shot(&s, "144-portals-revealed");

    // Module data: pick the module, read its fields under their labels.
    s.find_all("nav a")
        .into_iter()
        .find(|a| a.text().trim() == "Module data")
        .unwrap()
        .click();
    s.wait_page("module-data");
    s.wait_text("main", "Choose a module to see its subscriptions' data.");
    until(&s, "the modules are listed", || {
        !s.find_all(&format!("select[name=module_id] option[value='{sms}']"))
            .is_empty()
    });
    select(&s, "select[name=module_id]", &sms);
    s.wait(&format!("[data-testid=module-data] tr[data-id='{perinad_sms}']"));
    let headers = s.script(
        "return [...document.querySelectorAll('[data-testid=module-data] thead th')].map((th) => {
           const c = th.cloneNode(true); c.querySelectorAll('.sort-arrow').forEach((a) => a.remove()); return c.textContent.trim(); });",
        json!([]),
    );
    assert_eq!(
        headers,
        json!([
            "Client",
            "Members",
            "Go-live date",
            "DLT registered",
            "Active",
            ""
        ])
    );
    let table = || {
        s.script(
            "return [...document.querySelectorAll('[data-testid=module-data] tbody tr[data-id]')].map((tr) =>
               [...tr.children].map((td) => td.textContent.replace(/\\s+/g, ' ').trim()).join(' | '));",
            json!([]),
        )
    };
    assert_eq!(
        table(),
        json!([
            "CHAVARA FARMERS SOCIETY | 800 | — | No | Inactive | Project",
            "KUNDARA PACS | 3,100 | — | — | Active | Project",
            "PERINAD SERVICE CO-OPERATIVE BANK | 12,400 | 01-06-2024 | Yes | Active | Project",
        ])
    );
    assert_eq!(s.wait("h1").text(), "Module data: Bulk SMS");
    s.find_all(".filter-bar .chip")
        .into_iter()
        .find(|c| c.text() == "Active")
        .unwrap()
        .click();
    until(&s, "the active ones", || table().as_array().unwrap().len() == 2);
    assert_eq!(
        s.wait("[data-testid=csv-link]").attribute("href").as_deref(),
        Some(format!("/api/module-data.csv?module_id={sms}&active=1").as_str())
    );
    shot(&s, "145-module-data");
    // A row's project opens from its button.
    s.find_all(&format!(
        "[data-testid=module-data] tr[data-id='{perinad_sms}'] a.btn"
    ))
    .into_iter()
    .next()
    .unwrap()
    .click();
    s.wait_page("project");
    assert!(
        s.url().ends_with(&format!("/projects/{perinad_sms}")),
        "{}",
        s.url()
    );
}

#[test]
fn a_phone_number_finds_the_client_a_receipt_number_its_payment_and_a_paid_invoice_says_so() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    let (status, _, _) = server.call(
        "PUT",
        "/api/settings/company",
        Some(owner),
        Some(json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" })),
    );
    assert_eq!(status, 200);
    let perinad = created(server.call(
        "POST",
        "/api/clients",
        Some(owner),
        Some(
            json!({ "name": "PERINAD SERVICE CO-OPERATIVE BANK", "state_code": "32", "district": "Kollam" }),
        ),
    ));
    created(server.call(
        "POST",
        &format!("/api/clients/{perinad}/contacts"),
        Some(owner),
        Some(json!({ "name": "Ravi", "role": "secretary", "phone": "+91 94470-12345" })),
    ));
    let (invoice, invoice_no) = office.issued_invoice(&perinad, "Deposit module", 1_000_000);
    let payment = created(server.call(
        "POST",
        "/api/payments",
        Some(owner),
        Some(json!({ "client_id": perinad, "received_on": "2026-10-01", "amount": 1_180_000, "mode": "neft_rtgs",
                     "allocations": [ { "document_id": invoice, "amount": 1_180_000 } ] })),
    ));

    let s = office.owner_window();
    search_for(&s, "0944701 2345");
    assert_eq!(
        shown_hits(&s),
        json!(["clients: PERINAD SERVICE CO-OPERATIVE BANK | Kollam · Ravi +91 94470-12345"])
    );

    search_for(&s, &invoice_no);
    assert_eq!(
        s.texts("[data-group=documents] [data-testid=paid-badge]"),
        json!(["paid"])
    );

    search_for(&s, "RCT/26-27-0001");
    assert_eq!(
        shown_hits(&s),
        json!(["payments: RCT/26-27-0001 | PERINAD SERVICE CO-OPERATIVE BANK · 01-10-2026 · ₹11,800.00"])
    );
    shot(&s, "141-search-payment-by-receipt");
    s.find_all("[data-group=payments] [role=option]")[0].click();
    s.wait_page("payment");
    assert!(s.url().ends_with(&format!("/payments/{payment}")), "{}", s.url());
}
