//! A society that writes in Malayalam, through the API: its name, address and an invoice line
//! typed in Malayalam print on the invoice, the proforma, the receipt and the statement of
//! account, and each PDF's text layer gives back exactly what was typed (pdftotext). The pages
//! are kept under target/screenshots to be looked at; the shaping itself (conjuncts, vowel signs,
//! chillus) is held by the fixture in src/documents/pdf.rs.

use crate::common::TestApp;
use crate::common::pdf::{first_page_png, pdftotext};
use axum::http::StatusCode;
use serde_json::{Value, json};

const NAME: &str = "കുമ്മിൾ സർവീസ് സഹകരണ ബാങ്ക് ലിമിറ്റഡ് നമ്പർ 1234";
const ADDRESS: [&str; 2] = ["മെയിൻ റോഡ്, കുമ്മിൾ", "കൊല്ലം ജില്ല"];
const LINE: &str = "സോഫ്റ്റ്‌വെയർ വാർഷിക പരിപാലനം";

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

async fn pdf(app: &TestApp, cookie: &str, path: &str) -> Vec<u8> {
    let reply = app.get(path, cookie).await;
    assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.text);
    assert_eq!(reply.header("content-type"), Some("application/pdf"));
    reply.bytes.to_vec()
}

fn assert_reads_back(pdf: &[u8], name: &str, typed: &[&str]) {
    let text = pdftotext(pdf);
    for t in typed {
        assert!(text.contains(t), "{name}: {t:?} missing from {text:?}");
    }
    // Not one glyph is missing from the fonts embedded: no empty box drawn.
    assert!(!text.contains('\u{FFFD}'), "{name}: {text}");
    assert!(!first_page_png(pdf, name).is_empty());
}

#[tokio::test]
async fn a_society_named_in_malayalam_reads_its_papers_in_malayalam() {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.set_company(&owner, json!({ "upi_id": "softland@okaxis" }))
        .await;
    let module = app.priced_module(&owner, 10_000_000).await;
    let client = app
        .post(
            "/api/clients",
            &owner,
            json!({ "name": NAME, "state_code": "32", "address": ADDRESS.join("\n") }),
        )
        .await;
    assert_eq!(client.status, StatusCode::CREATED, "{}", client.text);
    assert_eq!(client.body["name"], NAME);
    let client = id(&client.body);

    let mut issued = vec![];
    for doc_type in ["PROFORMA", "INVOICE"] {
        let body = json!({ "type": doc_type, "client_id": client, "lines": [
            { "module_id": module, "qty": 1 },
            { "description": LINE, "qty": 1, "unit_price": 2_000_000 },
        ] });
        let reply = app.issue(&owner, body).await;
        let path = format!("/api/documents/{}/pdf", id(&reply));
        let bytes = pdf(&app, &owner, &path).await;
        let name = format!("malayalam-{}", doc_type.to_lowercase());
        assert_reads_back(&bytes, &name, &[NAME, ADDRESS[0], ADDRESS[1], LINE]);
        issued.push(reply);
    }

    let invoice = &issued[1];
    let payment = app
        .record_payment(
            &owner,
            json!({ "client_id": client, "received_on": invoice["doc_date"], "amount": 5_000_000, "mode": "upi",
                    "reference": "UPI/4471", "allocations": [ { "document_id": id(invoice), "amount": 5_000_000, "tds": 0 } ] }),
        )
        .await;
    let receipt = pdf(
        &app,
        &owner,
        &format!("/api/payments/{}/receipt.pdf", id(&payment)),
    )
    .await;
    assert_reads_back(&receipt, "malayalam-receipt", &[NAME]);

    let statement = pdf(&app, &owner, &format!("/api/clients/{client}/statement.pdf")).await;
    let number = invoice["docNo"].as_str().unwrap();
    assert_reads_back(&statement, "malayalam-statement", &[NAME, number]);
}
