//! The UPI link on a bill that is owed (decisions 12): the exact link and amount with and
//! without TDS, part paid and paid; none on a draft, a quotation or without a UPI ID; the PDF's
//! QR rendered (pdftoppm) and decoded back (rqrr) to the exact link; the share page's code and
//! link.

use crate::common::{Call, TestApp};
use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

struct Office {
    app: TestApp,
    owner: String,
    module: String,
}

/// Softland India with the UPI ID `softland@okaxis`, and the module at ₹1,00,000 (+18 % GST).
async fn office(upi_id: Option<&str>) -> Office {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.set_company(&owner, json!({ "upi_id": upi_id })).await;
    let module = app.priced_module(&owner, 10_000_000).await;
    Office { app, owner, module }
}

impl Office {
    async fn client(&self, name: &str, tds_section: Option<&str>) -> String {
        let mut body = json!({ "name": name, "state_code": "32" });
        if let Some(s) = tds_section {
            body["tds_section"] = json!(s);
        }
        let reply = self.app.post("/api/clients", &self.owner, body).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        id(&reply.body)
    }

    async fn draft(&self, doc_type: &str, client: &str) -> Value {
        let body = json!({ "type": doc_type, "client_id": client, "lines": [ { "module_id": self.module, "qty": 1 } ] });
        let draft = self.app.post("/api/documents", &self.owner, body).await;
        assert_eq!(draft.status, StatusCode::CREATED, "{}", draft.text);
        draft.body
    }

    async fn issued(&self, doc_type: &str, client: &str) -> Value {
        let draft = self.draft(doc_type, client).await;
        let reply = self
            .app
            .post(
                &format!("/api/documents/{}/issue", id(&draft)),
                &self.owner,
                json!({}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        reply.body
    }

    async fn get(&self, doc: &Value) -> Value {
        self.app
            .get(&format!("/api/documents/{}", id(doc)), &self.owner)
            .await
            .body
    }

    async fn pay(&self, client: &str, invoice: &Value, amount: i64, tds: i64) {
        let reply = self
            .app
            .post(
                "/api/payments",
                &self.owner,
                json!({ "client_id": client, "received_on": "2026-10-01", "amount": amount, "mode": "upi",
                        "allocations": [ { "document_id": id(invoice), "amount": amount, "tds": tds } ] }),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    }
}

fn link(amount: &str, doc_no: &str) -> String {
    format!(
        "upi://pay?pa=softland%40okaxis&pn=Softland%20India&am={amount}&cu=INR&tn={}",
        doc_no.replace('/', "%2F")
    )
}

#[tokio::test]
async fn an_owed_bill_carries_the_link_for_what_is_left_after_tds() {
    let o = office(Some("softland@okaxis")).await;
    let plain = o.client("Anchal SCB", None).await;
    let under_194j = o.client("Kadakkal SCB", Some("194J")).await;

    // No TDS section of its own: the whole ₹1,18,000.
    let invoice = o.issued("INVOICE", &plain).await;
    let no = invoice["docNo"].as_str().unwrap().to_string();
    assert_eq!(
        invoice["upi"],
        json!({ "uri": link("118000.00", &no), "amount": 11_800_000 })
    );

    // 194J: 10 % of the ₹1,00,000 taxable is left to deduct.
    let invoice = o.issued("INVOICE", &under_194j).await;
    let no = invoice["docNo"].as_str().unwrap().to_string();
    assert_eq!(invoice["upi"]["amount"], 10_800_000);
    assert_eq!(invoice["upi"]["uri"], link("108000.00", &no));

    // Part paid with part of the TDS booked: ₹50,000 money and ₹4,000 TDS leave ₹64,000
    // outstanding, of which ₹6,000 is TDS still to deduct.
    o.pay(&under_194j, &invoice, 5_000_000, 400_000).await;
    let part = o.get(&invoice).await;
    assert_eq!(part["outstanding"], 6_400_000);
    assert_eq!(
        part["upi"],
        json!({ "uri": link("58000.00", &no), "amount": 5_800_000 })
    );

    // Paid: no link.
    o.pay(&under_194j, &invoice, 5_800_000, 600_000).await;
    let paid = o.get(&invoice).await;
    assert_eq!(
        (paid["outstanding"].as_i64(), &paid["upi"]),
        (Some(0), &Value::Null)
    );

    // A proforma: its total less the TDS.
    let proforma = o.issued("PROFORMA", &under_194j).await;
    assert_eq!(proforma["upi"]["amount"], 10_800_000);

    // A draft, a quotation: no link.
    assert_eq!(o.draft("INVOICE", &plain).await["upi"], Value::Null);
    assert_eq!(o.issued("QUOTATION", &plain).await["upi"], Value::Null);
}

#[tokio::test]
async fn without_a_upi_id_no_bill_carries_a_link() {
    let o = office(None).await;
    let client = o.client("Anchal SCB", None).await;
    let invoice = o.issued("INVOICE", &client).await;
    assert_eq!(invoice["upi"], Value::Null);
    let pdf = o
        .app
        .get(&format!("/api/documents/{}/pdf", id(&invoice)), &o.owner)
        .await;
    assert_eq!(pdf.status, StatusCode::OK);
    assert_eq!(decode_qr_codes(&pdf.bytes), Vec::<String>::new());
}

/// Every QR code on page 1 of `pdf` (rendered by pdftoppm), decoded by rqrr.
fn decode_qr_codes(pdf: &[u8]) -> Vec<String> {
    let png = crate::common::pdf::first_page_png(pdf, &format!("upi-pdf-page1-{}", pdf.len()));
    crate::common::qr::codes_in_png(&png)
}

#[tokio::test]
async fn the_pdf_and_the_share_page_carry_the_same_link() {
    let o = office(Some("softland@okaxis")).await;
    let client = o.client("Kadakkal SCB", Some("194J")).await;
    let invoice = o.issued("INVOICE", &client).await;
    let uri = invoice["upi"]["uri"].as_str().unwrap().to_string();

    let pdf = o
        .app
        .get(&format!("/api/documents/{}/pdf", id(&invoice)), &o.owner)
        .await;
    assert_eq!(pdf.status, StatusCode::OK);
    assert_eq!(decode_qr_codes(&pdf.bytes), vec![uri.clone()]);

    let minted = o
        .app
        .post(
            &format!("/api/documents/{}/share", id(&invoice)),
            &o.owner,
            json!({}),
        )
        .await;
    assert_eq!(minted.status, StatusCode::CREATED, "{}", minted.text);
    let token = minted.body["token"].as_str().unwrap();
    let page = o
        .app
        .send(Call::new(Method::GET, &format!("/share/{token}")))
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(
        page.text
            .matches(r#"<svg xmlns="http://www.w3.org/2000/svg" class="upi-qr""#)
            .count(),
        1
    );
    // askama writes `&` in an attribute as `&#38;`.
    assert!(
        page.text
            .replace("&#38;", "&")
            .contains(&format!(r#"href="{uri}""#))
    );
    assert!(page.text.contains("Pay ₹1,08,000.00 by UPI"));
    assert!(
        page.text
            .contains("That is what is owed less the TDS of ₹10,000.00 you deduct.")
    );

    // Once paid, neither has a code.
    o.pay(&client, &invoice, 10_800_000, 1_000_000).await;
    let pdf = o
        .app
        .get(&format!("/api/documents/{}/pdf", id(&invoice)), &o.owner)
        .await;
    assert_eq!(decode_qr_codes(&pdf.bytes), Vec::<String>::new());
    let page = o
        .app
        .send(Call::new(Method::GET, &format!("/share/{token}")))
        .await;
    assert!(!page.text.contains("upi-qr") && !page.text.contains("upi://"));
}
