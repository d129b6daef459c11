//! The Tally export (issue 36): a hand-built period (an intra-state and an inter-state invoice, a
//! credit note, a payment with TDS settling two invoices, a cash payment, a cancelled invoice and
//! a cancelled payment, a client named `A & B <Co>` and one in Malayalam) exported and read back
//! with quick-xml's reader: per voucher balance, signs, counts, ledgers, dates, bill allocations,
//! REMOTEIDs stable across two exports; the party ledgers on their own; the ledger names as an
//! owner's audited setting; bad periods, staff and bad names refused with nothing written.

use crate::common::{Call, TestApp};
use axum::http::{Method, StatusCode};
use quick_xml::events::Event;
use quick_xml::{Reader, XmlVersion};
use serde_json::{Value, json};
use std::collections::HashMap;

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

fn no(v: &Value) -> String {
    v["docNo"].as_str().unwrap().to_string()
}

const AB: &str = "A & B <Co>";
const MALAYALAM: &str = "കടയ്ക്കൽ സർവീസ് സഹകരണ ബാങ്ക്";
const PERIOD: &str = "from=2026-05-01&to=2026-06-30";

/// One ledger entry as read back: ledger, ISDEEMEDPOSITIVE, ISPARTYLEDGER, paise, bills
/// (name, type, paise).
#[derive(Debug, Default, Clone)]
struct Entry {
    ledger: String,
    deemed_positive: String,
    party: String,
    amount: i64,
    bills: Vec<(String, String, i64)>,
}

/// A VOUCHER or LEDGER as read back: its attributes, its direct text children, its entries.
#[derive(Debug, Default, Clone)]
struct Object {
    tag: String,
    attrs: HashMap<String, String>,
    fields: HashMap<String, String>,
    entries: Vec<Entry>,
}

impl Object {
    fn field(&self, name: &str) -> &str {
        self.fields.get(name).map_or("", String::as_str)
    }
    fn attr(&self, name: &str) -> &str {
        self.attrs.get(name).map_or("", String::as_str)
    }
    fn balance(&self) -> i64 {
        self.entries.iter().map(|e| e.amount).sum()
    }
    /// Ledger → paise.
    fn ledgers(&self) -> HashMap<String, i64> {
        self.entries
            .iter()
            .map(|e| (e.ledger.clone(), e.amount))
            .collect()
    }
}

/// "-1234.50" → -123450.
fn paise(text: &str) -> i64 {
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, text),
    };
    let (whole, fraction) = digits.split_once('.').expect("two decimals");
    assert_eq!(fraction.len(), 2, "{text}");
    sign * (whole.parse::<i64>().unwrap() * 100 + fraction.parse::<i64>().unwrap())
}

/// The envelope read back: the header and request description's texts (by path) and every
/// VOUCHER and LEDGER.
struct Parsed {
    heads: HashMap<String, String>,
    objects: Vec<Object>,
}

fn parse(xml: &str) -> Parsed {
    let mut reader = Reader::from_str(xml);
    let mut stack: Vec<String> = vec![];
    let mut text = String::new();
    let mut heads = HashMap::new();
    let mut objects = vec![];
    let mut object: Option<Object> = None;
    let mut entry: Option<Entry> = None;
    let mut bill: Option<(String, String, i64)> = None;
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) => {
                let name = e.name().as_ref().to_string();
                if name == "VOUCHER" || name == "LEDGER" {
                    let attrs = e
                        .attributes()
                        .map(|a| {
                            let a = a.unwrap();
                            (
                                a.key.as_ref().to_string(),
                                a.normalized_value(XmlVersion::Implicit1_0).unwrap().into_owned(),
                            )
                        })
                        .collect();
                    object = Some(Object {
                        tag: name.clone(),
                        attrs,
                        ..Object::default()
                    });
                }
                if name == "ALLLEDGERENTRIES.LIST" {
                    entry = Some(Entry::default());
                }
                if name == "BILLALLOCATIONS.LIST" {
                    bill = Some(Default::default());
                }
                stack.push(name);
                text.clear();
            }
            Event::Text(t) => text.push_str(&t.xml10_content()),
            Event::GeneralRef(r) => {
                let name = r.into_inner();
                text.push_str(&quick_xml::escape::unescape(&format!("&{name};")).unwrap());
            }
            Event::End(_) => {
                let name = stack.pop().unwrap();
                let parent = stack.last().cloned().unwrap_or_default();
                let value = std::mem::take(&mut text);
                match (parent.as_str(), name.as_str()) {
                    (_, "VOUCHER" | "LEDGER") => objects.push(object.take().unwrap()),
                    (_, "ALLLEDGERENTRIES.LIST") => {
                        object.as_mut().unwrap().entries.push(entry.take().unwrap())
                    }
                    (_, "BILLALLOCATIONS.LIST") => entry.as_mut().unwrap().bills.push(bill.take().unwrap()),
                    ("BILLALLOCATIONS.LIST", field) => {
                        let b = bill.as_mut().unwrap();
                        match field {
                            "NAME" => b.0 = value,
                            "BILLTYPE" => b.1 = value,
                            "AMOUNT" => b.2 = paise(&value),
                            _ => {}
                        }
                    }
                    ("ALLLEDGERENTRIES.LIST", field) => {
                        let e = entry.as_mut().unwrap();
                        match field {
                            "LEDGERNAME" => e.ledger = value,
                            "ISDEEMEDPOSITIVE" => e.deemed_positive = value,
                            "ISPARTYLEDGER" => e.party = value,
                            "AMOUNT" => e.amount = paise(&value),
                            _ => {}
                        }
                    }
                    ("VOUCHER" | "LEDGER", field) => {
                        object.as_mut().unwrap().fields.insert(field.to_string(), value);
                    }
                    ("NAME.LIST" | "ADDRESS.LIST", field) => {
                        let o = object.as_mut().unwrap();
                        let at = o.fields.entry(field.to_string()).or_default();
                        if !at.is_empty() {
                            at.push('\n');
                        }
                        at.push_str(&value);
                    }
                    _ if object.is_none() => {
                        heads.insert(format!("{}/{name}", stack.join("/")), value);
                    }
                    _ => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Parsed { heads, objects }
}

struct Period {
    app: TestApp,
    owner: String,
    intra: Value,
    intra_2: Value,
    inter: Value,
    void: Value,
    early: Value,
    credit_note: Value,
    with_tds: Value,
    cash: Value,
    bounced: Value,
}

/// An issued invoice of ₹1,00,000 + 18% GST dated `doc_date`.
async fn invoice(app: &TestApp, owner: &str, module: &str, client: &str, doc_date: &str) -> Value {
    app.issue(owner, json!({ "type": "INVOICE", "client_id": client, "doc_date": doc_date, "lines": [ { "module_id": module, "qty": 1 } ] })).await
}

/// The company in Kerala; `A & B <Co>` in Kerala without a GSTIN, the Malayalam society in
/// Karnataka with one. In May and June: two intra-state invoices, one inter-state, a cancelled
/// invoice, a credit note on the inter-state one, a cheque settling both intra-state invoices
/// with TDS on the first, cash against the inter-state one and a cancelled cheque; an invoice of
/// April, outside the period.
async fn period() -> Period {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.set_company(&owner, json!({})).await;
    let module = app.priced_module(&owner, 10_000_000).await;
    let ab = app
        .post(
            "/api/clients",
            &owner,
            json!({ "name": AB, "state_code": "32", "address": "Main Road\nKollam" }),
        )
        .await;
    assert_eq!(ab.status, StatusCode::CREATED, "{}", ab.text);
    let ab = id(&ab.body);
    let ml = app
        .post(
            "/api/clients",
            &owner,
            json!({ "name": MALAYALAM, "gstin": "29AAGCB7383J1Z4" }),
        )
        .await;
    assert_eq!(ml.status, StatusCode::CREATED, "{}", ml.text);
    let ml = id(&ml.body);
    let early = invoice(&app, &owner, &module, &ab, "2026-04-20").await;
    let intra = invoice(&app, &owner, &module, &ab, "2026-05-10").await;
    let void = invoice(&app, &owner, &module, &ab, "2026-05-15").await;
    let inter = invoice(&app, &owner, &module, &ml, "2026-05-20").await;
    let intra_2 = invoice(&app, &owner, &module, &ab, "2026-06-01").await;
    let cancel = app
        .post(
            &format!("/api/documents/{}/cancel", id(&void)),
            &owner,
            json!({ "reason": "Raised twice" }),
        )
        .await;
    assert_eq!(cancel.status, StatusCode::OK, "{}", cancel.text);
    let credit = app
        .post(
            &format!("/api/documents/{}/credit-note", id(&inter)),
            &owner,
            json!({ "reason": "Discount agreed", "lines": [ { "description": "Discount", "qty": 1, "unit_price": 1_000_000 } ] }),
        )
        .await;
    assert_eq!(credit.status, StatusCode::OK, "{}", credit.text);
    app.sql()
        .execute(
            "UPDATE document SET doc_date = '2026-06-10' WHERE id = ?1",
            [id(&credit.body)],
        )
        .unwrap();
    let with_tds = app.record_payment(
        &owner,
        json!({ "client_id": ab, "received_on": "2026-06-20", "amount": 15_800_000, "mode": "cheque", "reference": "CHQ 4411",
                "allocations": [ { "document_id": id(&intra), "amount": 10_800_000, "tds": 1_000_000 },
                                 { "document_id": id(&intra_2), "amount": 5_000_000 } ] }),
    )
    .await;
    let cash = app
        .record_payment(
            &owner,
            json!({ "client_id": ml, "received_on": "2026-06-25", "amount": 1_000_000, "mode": "cash",
                "allocations": [ { "document_id": id(&inter), "amount": 1_000_000 } ] }),
        )
        .await;
    let bounced = app
        .record_payment(
            &owner,
            json!({ "client_id": ab, "received_on": "2026-06-22", "amount": 1_000_000, "mode": "cheque",
                "allocations": [ { "document_id": id(&intra_2), "amount": 1_000_000 } ] }),
        )
        .await;
    let reply = app
        .post(
            &format!("/api/payments/{}/cancel", id(&bounced)),
            &owner,
            json!({ "reason": "Cheque bounced" }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    Period {
        app,
        owner,
        intra,
        intra_2,
        inter,
        void,
        early,
        credit_note: credit.body,
        with_tds,
        cash,
        bounced,
    }
}

async fn export(app: &TestApp, cookie: &str, query: &str) -> (String, Parsed) {
    let reply = app.get(&format!("/api/exports/tally?{query}"), cookie).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(
        reply.header("content-type"),
        Some("application/xml; charset=utf-8")
    );
    assert!(
        reply
            .header("content-disposition")
            .is_some_and(|d| d.starts_with("attachment; filename=\"tally-")),
        "{:?}",
        reply.header("content-disposition")
    );
    let parsed = parse(&reply.text);
    (reply.text, parsed)
}

#[tokio::test]
async fn a_periods_vouchers_balance_under_tallys_signs_and_keep_their_ids() {
    let p = period().await;
    let (text, x) = export(&p.app, &p.owner, PERIOD).await;
    assert_eq!(x.heads["ENVELOPE/HEADER/TALLYREQUEST"], "Import Data");
    assert_eq!(
        x.heads["ENVELOPE/BODY/IMPORTDATA/REQUESTDESC/REPORTNAME"],
        "Vouchers"
    );
    assert!(
        text.contains("A &amp; B &lt;Co&gt;"),
        "the writer escapes the name"
    );
    assert!(text.contains(MALAYALAM), "Malayalam passes as UTF-8");

    // Counts by type, and nothing cancelled or outside the period.
    let count = |kind: &str| x.objects.iter().filter(|o| o.attr("VCHTYPE") == kind).count();
    assert_eq!(
        (
            count("Sales"),
            count("Credit Note"),
            count("Receipt"),
            x.objects.len()
        ),
        (3, 1, 2, 6)
    );
    let ids: Vec<&str> = x.objects.iter().map(|o| o.attr("REMOTEID")).collect();
    for gone in [&p.void, &p.early, &p.bounced] {
        assert!(!ids.contains(&id(gone).as_str()), "{gone} is left out");
    }

    // Every voucher balances; a debit is ISDEEMEDPOSITIVE Yes with a negative amount.
    for v in &x.objects {
        assert_eq!(v.tag, "VOUCHER");
        assert_eq!(v.balance(), 0, "{v:?}");
        assert_eq!(v.field("VOUCHERTYPENAME"), v.attr("VCHTYPE"));
        for e in &v.entries {
            assert_eq!(
                e.deemed_positive,
                if e.amount < 0 { "Yes" } else { "No" },
                "{e:?}"
            );
            assert_ne!(e.amount, 0);
        }
        let party: Vec<&Entry> = v.entries.iter().filter(|e| e.party == "Yes").collect();
        assert_eq!(party.len(), 1);
        assert_eq!(party[0].ledger, v.field("PARTYLEDGERNAME"));
        let bills: i64 = party[0].bills.iter().map(|b| b.2).sum();
        assert_eq!(bills, party[0].amount, "the bills hold the party's whole amount");
    }
    let by_id = |v: &Value| {
        x.objects
            .iter()
            .find(|o| o.attr("REMOTEID") == id(v))
            .unwrap()
            .clone()
    };
    let map = |pairs: &[(&str, i64)]| -> HashMap<String, i64> {
        pairs.iter().map(|(l, a)| (l.to_string(), *a)).collect()
    };

    let intra = by_id(&p.intra);
    assert_eq!(
        (
            intra.attr("VCHTYPE"),
            intra.field("DATE"),
            intra.field("VOUCHERNUMBER"),
            intra.field("PARTYLEDGERNAME")
        ),
        ("Sales", "20260510", no(&p.intra).as_str(), AB)
    );
    assert_eq!(
        intra.ledgers(),
        map(&[
            (AB, -11_800_000),
            ("Sales", 10_000_000),
            ("Output CGST", 900_000),
            ("Output SGST", 900_000)
        ])
    );
    assert_eq!(
        intra.entries[0].bills,
        [(no(&p.intra), "New Ref".to_string(), -11_800_000)]
    );
    assert_eq!(by_id(&p.intra_2).field("DATE"), "20260601");

    let inter = by_id(&p.inter);
    assert_eq!(
        (inter.field("PARTYLEDGERNAME"), inter.field("PARTYGSTIN")),
        (MALAYALAM, "29AAGCB7383J1Z4")
    );
    assert_eq!(inter.field("STATENAME"), "Karnataka");
    assert_eq!(
        inter.ledgers(),
        map(&[
            (MALAYALAM, -11_800_000),
            ("Sales", 10_000_000),
            ("Output IGST", 1_800_000)
        ])
    );

    let note = by_id(&p.credit_note);
    assert_eq!(
        (
            note.attr("VCHTYPE"),
            note.field("DATE"),
            note.field("VOUCHERNUMBER")
        ),
        ("Credit Note", "20260610", no(&p.credit_note).as_str())
    );
    assert_eq!(
        note.ledgers(),
        map(&[
            (MALAYALAM, 1_180_000),
            ("Sales", -1_000_000),
            ("Output IGST", -180_000)
        ])
    );
    assert_eq!(
        note.entries[0].bills,
        [(no(&p.inter), "Agst Ref".to_string(), 1_180_000)]
    );

    let receipt = by_id(&p.with_tds);
    assert_eq!(
        (
            receipt.attr("VCHTYPE"),
            receipt.field("DATE"),
            receipt.field("VOUCHERNUMBER")
        ),
        ("Receipt", "20260620", p.with_tds["receipt_no"].as_str().unwrap())
    );
    assert_eq!(
        receipt.ledgers(),
        map(&[
            (AB, 16_800_000),
            ("Bank", -15_800_000),
            ("TDS Receivable", -1_000_000)
        ])
    );
    let party = receipt.entries.iter().find(|e| e.party == "Yes").unwrap();
    assert_eq!(
        party.bills,
        [
            (no(&p.intra), "Agst Ref".to_string(), 11_800_000),
            (no(&p.intra_2), "Agst Ref".to_string(), 5_000_000)
        ]
    );
    let cash = by_id(&p.cash);
    assert_eq!(
        cash.ledgers(),
        map(&[(MALAYALAM, 1_000_000), ("Cash", -1_000_000)])
    );

    // A second export is the same file: the same vouchers under the same REMOTEIDs.
    let (again, _) = export(&p.app, &p.owner, PERIOD).await;
    assert_eq!(again, text);
}

#[tokio::test]
async fn the_party_ledgers_come_on_their_own_with_gstin_state_and_address() {
    let p = period().await;
    let (text, x) = export(&p.app, &p.owner, &format!("{PERIOD}&masters=1")).await;
    assert_eq!(
        x.heads["ENVELOPE/BODY/IMPORTDATA/REQUESTDESC/REPORTNAME"],
        "All Masters"
    );
    assert!(!text.contains("<VOUCHER"));
    let names: Vec<&str> = x.objects.iter().map(|o| o.attr("NAME")).collect();
    assert_eq!(names, [AB, MALAYALAM]);
    for l in &x.objects {
        assert_eq!(
            (l.tag.as_str(), l.field("PARENT"), l.field("ISBILLWISEON")),
            ("LEDGER", "Sundry Debtors", "Yes")
        );
        assert_eq!(l.field("NAME"), l.attr("NAME"));
    }
    let (ab, ml) = (&x.objects[0], &x.objects[1]);
    assert_eq!(
        (
            ab.field("STATENAME"),
            ab.field("GSTREGISTRATIONTYPE"),
            ab.field("PARTYGSTIN"),
            ab.field("ADDRESS")
        ),
        ("Kerala", "Unregistered", "", "Main Road\nKollam")
    );
    assert_eq!(
        (
            ml.field("STATENAME"),
            ml.field("GSTREGISTRATIONTYPE"),
            ml.field("PARTYGSTIN")
        ),
        ("Karnataka", "Regular", "29AAGCB7383J1Z4")
    );
    // A period without vouchers names no party.
    let (_, empty) = export(&p.app, &p.owner, "from=2025-01-01&to=2025-01-31&masters=1").await;
    assert!(empty.objects.is_empty());
}

#[tokio::test]
async fn the_ledger_names_are_the_owners_audited_setting_and_the_vouchers_use_them() {
    let p = period().await;
    let app = &p.app;
    let settings = app.get("/api/settings/tally", &p.owner).await;
    assert_eq!(settings.status, StatusCode::OK, "{}", settings.text);
    assert_eq!(
        settings.body,
        json!({ "sales_ledger": "Sales", "cgst_ledger": "Output CGST", "sgst_ledger": "Output SGST",
                "igst_ledger": "Output IGST", "bank_ledger": "Bank", "cash_ledger": "Cash",
                "tds_ledger": "TDS Receivable", "round_off_ledger": "Round Off", "company_name": "" })
    );
    let put = |body: Value| {
        Call::new(Method::PUT, "/api/settings/tally")
            .cookie(&p.owner)
            .json(body)
    };
    let saved = app
        .send(put(json!({ "sales_ledger": " Software Sales & AMC ", "bank_ledger": "SBI Kollam", "company_name": "Softland India <2026>" })))
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    assert_eq!(
        (
            &saved.body["sales_ledger"],
            &saved.body["bank_ledger"],
            &saved.body["cgst_ledger"]
        ),
        (
            &json!("Software Sales & AMC"),
            &json!("SBI Kollam"),
            &json!("Output CGST")
        )
    );
    assert_eq!(app.get("/api/settings/tally", &p.owner).await.body, saved.body);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM audit WHERE entity = 'setting' AND entity_id = 'tally.ledgers'"),
        1
    );
    // The same names again write nothing.
    let same = app.send(put(json!({ "bank_ledger": "SBI Kollam" }))).await;
    assert_eq!(same.status, StatusCode::OK);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM audit WHERE entity = 'setting' AND entity_id = 'tally.ledgers'"),
        1
    );

    let (_, x) = export(app, &p.owner, PERIOD).await;
    assert_eq!(
        x.heads["ENVELOPE/BODY/IMPORTDATA/REQUESTDESC/STATICVARIABLES/SVCURRENTCOMPANY"],
        "Softland India <2026>"
    );
    let receipt = x
        .objects
        .iter()
        .find(|o| o.attr("REMOTEID") == id(&p.with_tds))
        .unwrap();
    assert_eq!(receipt.ledgers()["SBI Kollam"], -15_800_000);
    let sale = x
        .objects
        .iter()
        .find(|o| o.attr("REMOTEID") == id(&p.intra))
        .unwrap();
    assert_eq!(sale.ledgers()["Software Sales & AMC"], 10_000_000);

    // Every wrong name is named, and nothing is written.
    let wrong = app
        .send(put(json!({ "sales_ledger": "  ", "tds_ledger": "x".repeat(101), "cash_ledger": "Cash\nbox", "igst_ledger": "IGST out" })))
        .await;
    assert_eq!(
        (wrong.status, wrong.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "required"),
        "{}",
        wrong.text
    );
    let fields: Vec<&str> = wrong.body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["sales_ledger", "cash_ledger", "tds_ledger"]);
    assert_eq!(app.get("/api/settings/tally", &p.owner).await.body, saved.body);
    let unknown = app.send(put(json!({ "sales": "Sales" }))).await;
    assert_eq!(
        unknown.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        unknown.text
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM setting WHERE key = 'tally.ledgers'"),
        1
    );
}

#[tokio::test]
async fn bad_periods_and_staff_are_refused_and_nothing_is_written() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let (_, staff_pw) = app.invite(&owner, "staff@coop.in", "staff").await;
    let (_, manager_pw) = app.invite(&owner, "manager@coop.in", "manager").await;
    let staff = app.login("staff@coop.in", &staff_pw).await;
    let manager = app.login("manager@coop.in", &manager_pw).await;
    let audits = app.count("SELECT COUNT(*) FROM audit");
    for (query, status, field) in [
        ("from=2026-13-01&to=2026-12-31", StatusCode::BAD_REQUEST, "from"),
        ("from=2026-04-01&to=yesterday", StatusCode::BAD_REQUEST, "to"),
        ("from=2026-04-01&to=2026-04-31", StatusCode::BAD_REQUEST, "to"),
        ("masters=yes", StatusCode::BAD_REQUEST, "masters"),
        (
            "from=2026-06-01&to=2026-05-31",
            StatusCode::UNPROCESSABLE_ENTITY,
            "from",
        ),
    ] {
        let reply = app.get(&format!("/api/exports/tally?{query}"), &owner).await;
        assert_eq!(
            (reply.status, reply.body["error"]["field"].as_str()),
            (status, Some(field)),
            "{query}: {}",
            reply.text
        );
    }
    let reply = app
        .get("/api/exports/tally?from=2026-06-01&to=2026-05-31", &owner)
        .await;
    assert_eq!(reply.code(), "invalid_period");

    for path in ["/api/exports/tally", "/api/settings/tally"] {
        assert_eq!(
            app.get(path, &staff).await.status,
            StatusCode::FORBIDDEN,
            "{path}"
        );
        assert_eq!(app.get(path, &manager).await.status, StatusCode::OK, "{path}");
    }
    for cookie in [&staff, &manager] {
        let reply = app
            .send(
                Call::new(Method::PUT, "/api/settings/tally")
                    .cookie(cookie)
                    .json(json!({ "sales_ledger": "Mine" })),
            )
            .await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN);
    }
    assert_eq!(app.count("SELECT COUNT(*) FROM audit"), audits);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM setting WHERE key = 'tally.ledgers'"),
        0
    );
    // An empty period is a well-formed envelope with no voucher.
    let (_, x) = export(&app, &manager, "from=2026-05-01&to=2026-05-31").await;
    assert!(x.objects.is_empty());
    assert_eq!(x.heads["ENVELOPE/HEADER/TALLYREQUEST"], "Import Data");
}

/// On a demo office (40 societies, three years; a fifth of the Kerala ones named in Malayalam,
/// legacy invoices, credit notes, TDS, cancelled payments): every voucher of the whole span
/// balances under Tally's signs, there is one per issued invoice and credit note and recorded
/// payment, the receipts' bills against each invoice add up to what its allocations settled,
/// and the party ledgers are the clients the vouchers name.
#[tokio::test]
async fn every_voucher_of_a_demo_office_balances_and_matches_the_books() {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.state
        .db
        .write_blocking(|tx| {
            let owner: String =
                tx.query_row("SELECT id FROM staff WHERE role = 'owner'", [], |r| r.get(0))?;
            let today = backoffice::plumbing::db::settings::office_today(tx)?;
            let options = backoffice::demo::Options {
                clients: 40,
                years: 3,
                seed: 11,
            };
            backoffice::demo::fill(tx, options, &owner, today)?;
            Ok(())
        })
        .unwrap();
    let span = "from=2000-04-01&to=2099-03-31";
    let (_, x) = export(&app, &owner, span).await;
    let count = |kind: &str| x.objects.iter().filter(|o| o.attr("VCHTYPE") == kind).count() as i64;
    let sales = app.count(
        "SELECT COUNT(*) FROM document WHERE type = 'INVOICE' AND status NOT IN ('draft', 'cancelled')",
    );
    let notes = app.count(
        "SELECT COUNT(*) FROM document n JOIN document i ON i.id = n.parent_id
          WHERE n.type = 'CREDIT_NOTE' AND n.status NOT IN ('draft', 'cancelled') AND i.status NOT IN ('draft', 'cancelled')",
    );
    let receipts = app.count("SELECT COUNT(*) FROM payment WHERE status = 'recorded'");
    assert!(
        sales > 100 && notes > 0 && receipts > 100,
        "{sales} {notes} {receipts}"
    );
    assert_eq!(
        (count("Sales"), count("Credit Note"), count("Receipt")),
        (sales, notes, receipts)
    );
    let mut settled: HashMap<String, i64> = HashMap::new();
    for v in &x.objects {
        assert_eq!(v.balance(), 0, "{v:?}");
        for e in &v.entries {
            assert_eq!(
                e.deemed_positive,
                if e.amount < 0 { "Yes" } else { "No" },
                "{e:?}"
            );
        }
        if v.attr("VCHTYPE") == "Receipt" {
            for e in v.entries.iter().filter(|e| e.party == "Yes") {
                for (name, kind, amount) in &e.bills {
                    if kind == "Agst Ref" {
                        *settled.entry(name.clone()).or_default() += amount;
                    }
                }
            }
        }
    }
    let mut books: HashMap<String, i64> = HashMap::new();
    let sql = app.sql();
    let mut stmt = sql
        .prepare(
            "SELECT d.doc_no, SUM(a.amount + a.tds) FROM payment_allocation a
               JOIN payment p ON p.id = a.payment_id JOIN document d ON d.id = a.document_id
              WHERE p.status = 'recorded' GROUP BY d.id",
        )
        .unwrap();
    for row in stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
        .unwrap()
    {
        let (doc_no, amount) = row.unwrap();
        books.insert(doc_no, amount);
    }
    assert_eq!(settled, books);
    let (_, masters) = export(&app, &owner, &format!("{span}&masters=1")).await;
    let named: std::collections::BTreeSet<&str> =
        x.objects.iter().map(|v| v.field("PARTYLEDGERNAME")).collect();
    let ledgers: std::collections::BTreeSet<&str> = masters.objects.iter().map(|l| l.attr("NAME")).collect();
    assert_eq!(ledgers, named);
}
