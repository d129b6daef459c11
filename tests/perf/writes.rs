//! What the office writes: an invoice (create the draft, then issue it) and a payment with one
//! allocation. Each request is its own transaction on the server's one writer (synchronous=FULL).
//! The floor runs the same transactions (the same library calls the handlers make, in the same
//! order) directly through `Db::write_blocking` on the same file, one after another.

use crate::http::{Client, Work};
use crate::reads::Fixture;
use backoffice::auth::Role;
use backoffice::db::Db;
use backoffice::db::audit::{Audit, audit};
use backoffice::documents::pricing::{LineInput, Mode};
use backoffice::documents::{routes as doc_routes, rules as doc_rules, store as doc_store};
use backoffice::http::error::AppError;
use backoffice::http::extract::AuthUser;
use backoffice::payments::rules::Claim;
use backoffice::payments::store as pay_store;
use rusqlite::types::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The body of a new draft invoice with one price-book line.
pub fn draft_body(client: &str, module: &str) -> String {
    format!(r#"{{"type":"INVOICE","client_id":"{client}","lines":[{{"module_id":"{module}","qty":1}}]}}"#)
}

/// The body of a ₹1,000 UPI payment with ₹1 allocated to `invoice`.
pub fn payment_body(client: &str, invoice: &str, today: &str) -> String {
    format!(
        r#"{{"client_id":"{client}","received_on":"{today}","amount":100000,"mode":"upi","reference":"UTR-BENCH","allocations":[{{"document_id":"{invoice}","amount":100}}]}}"#
    )
}

/// Creates a draft invoice through the API; answers its id.
pub fn create_draft(c: &mut Client, cookie: &str, client: &str, module: &str) -> String {
    let reply = c.post("/api/documents", cookie, &draft_body(client, module), 201);
    reply.json()["id"].as_str().unwrap().to_string()
}

/// One invoice: create the draft, issue it (two requests, two transactions).
pub fn issue_invoice(f: &Fixture, next: Arc<AtomicUsize>) -> Work {
    let (cookie, clients, module) = (
        f.manager.clone(),
        Arc::new(f.clients.clone()),
        f.priced_module.clone(),
    );
    Arc::new(move |c: &mut Client, _, _| {
        let client = &clients[next.fetch_add(1, Ordering::Relaxed) % clients.len()];
        let id = create_draft(c, &cookie, client, &module);
        c.post(&format!("/api/documents/{id}/issue"), &cookie, "", 200);
    })
}

/// One payment with one allocation.
pub fn record_payment(f: &Fixture, next: Arc<AtomicUsize>) -> Work {
    let (cookie, owing, today) = (f.manager.clone(), Arc::new(f.owing.clone()), f.today.to_string());
    Arc::new(move |c: &mut Client, _, _| {
        let (client, invoice) = &owing[next.fetch_add(1, Ordering::Relaxed) % owing.len()];
        c.post(
            "/api/payments",
            &cookie,
            &payment_body(client, invoice, &today),
            201,
        );
    })
}

fn manager(f: &Fixture) -> AuthUser {
    AuthUser {
        id: f.manager_id.clone(),
        role: Role::Manager,
        session_id: String::new(),
    }
}

/// The floor of [`issue_invoice`]: the create handler's transaction, then the issue handler's.
pub fn issue_invoice_directly(db: &Db, f: &Fixture, client_id: &str) -> Result<(), AppError> {
    let user = manager(f);
    let id = db.write_blocking(|tx| {
        let client = doc_routes::visible_client(tx, &user, client_id)?;
        let on = backoffice::db::settings::office_today(tx)?;
        let lines = [LineInput {
            module_id: Some(f.priced_module.clone()),
            description: None,
            sac: None,
            qty: 1,
            unit_price: None,
            gst_rate: None,
        }];
        let (priced, intra) = doc_routes::compose(tx, &client, &lines, on, false, Mode::Strict)?;
        let id = doc_store::insert(
            tx,
            vec![
                ("type", Value::Text("INVOICE".into())),
                ("status", Value::Text("draft".into())),
                ("client_id", Value::Text(client_id.into())),
                ("created_by", Value::Text(user.id.clone())),
                ("intra_state", Value::Integer(i64::from(intra))),
            ],
        )?;
        doc_store::set_lines(tx, &id, &priced)?;
        let document = doc_routes::visible(tx, &user, &id)?;
        let after = serde_json::json!({ "type": document.doc_type, "client_id": document.client_id, "total": document.total });
        audit(
            tx,
            Audit {
                entity: "document",
                entity_id: Some(&id),
                action: "create",
                user_id: Some(&user.id),
                before: None,
                after: Some(after),
            },
        )?;
        Ok(id)
    })?;
    db.write_blocking(|tx| {
        doc_routes::visible(tx, &user, &id)?;
        doc_routes::issue_in(tx, &user, &id)
    })?;
    Ok(())
}

/// The floor of [`record_payment`]: the record handler's transaction.
pub fn record_payment_directly(db: &Db, f: &Fixture, client_id: &str, invoice: &str) -> Result<(), AppError> {
    let user = manager(f);
    db.write_blocking(|tx| {
        doc_routes::visible_client(tx, &user, client_id)?;
        let today = backoffice::db::settings::office_today(tx)?;
        let fy = doc_rules::financial_year(today);
        let receipt_no = doc_rules::number("RCT", &fy, doc_store::next_seq(tx, "RCT", &fy)?);
        let id = pay_store::insert(
            tx,
            vec![
                ("client_id", Value::Text(client_id.into())),
                ("received_on", Value::Text(today.to_string())),
                ("amount", Value::Integer(100_000)),
                ("mode", Value::Text("upi".into())),
                ("reference", Value::Text("UTR-BENCH".into())),
                ("notes", Value::Null),
                ("receipt_no", Value::Text(receipt_no)),
                ("created_by", Value::Text(user.id.clone())),
            ],
        )?;
        let recorded = pay_store::get(tx, &id, None)?.ok_or_else(|| AppError::not_found("payment"))?;
        audit(
            tx,
            Audit {
                entity: "payment",
                entity_id: Some(&id),
                action: "recorded",
                user_id: Some(&user.id),
                before: None,
                after: Some(serde_json::json!({ "receipt_no": recorded.receipt_no, "amount": recorded.amount })),
            },
        )?;
        let claim = Claim {
            document_id: invoice.to_string(),
            amount: 100,
            tds: 0,
        };
        let target = pay_store::target(tx, invoice, None)?;
        let before = target.as_ref().map(|t| t.outstanding).unwrap_or_default();
        let checked = vec![(claim.clone(), target)];
        backoffice::payments::rules::check_claims(&recorded.client_id, recorded.unallocated, &checked)?;
        let allocation = pay_store::allocate(tx, &id, &claim, &user.id)?;
        audit(
            tx,
            Audit {
                entity: "document",
                entity_id: Some(invoice),
                action: "payment_allocated",
                user_id: Some(&user.id),
                before: Some(serde_json::json!({ "outstanding": before })),
                after: Some(serde_json::json!({ "outstanding": before - 100, "payment_id": id, "allocation_id": allocation })),
            },
        )?;
        pay_store::get(tx, &id, None)?;
        Ok(())
    })
}
