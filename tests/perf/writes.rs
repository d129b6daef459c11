//! What the office writes: an invoice (create the draft, then issue it), a payment with one
//! allocation, and a payment entered in error and cancelled (its allocation reversed). Each request is its own transaction on the server's one writer (synchronous=FULL).
//! The floor runs the same transactions (the same library calls the handlers make, in the same
//! order) directly through `Db::write_blocking` on the same file, one after another.

use crate::http::{Client, Work};
use crate::reads::Fixture;
use backoffice::auth::Role;
use backoffice::auth::session::AuthUser;
use backoffice::documents::{drafts, numbering};
use backoffice::payments::{corrections, recording};
use backoffice::plumbing::db::Db;
use backoffice::plumbing::error::AppError;
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

pub fn manager(f: &Fixture) -> AuthUser {
    AuthUser {
        id: f.manager_id.clone(),
        role: Role::Manager,
        session_id: String::new(),
    }
}

/// The floor of [`issue_invoice`]: the create handler's transaction on the same body, then the
/// issue handler's.
pub fn issue_invoice_directly(db: &Db, f: &Fixture, client_id: &str) -> Result<(), AppError> {
    let user = manager(f);
    let input = serde_json::from_str(&draft_body(client_id, &f.priced_module)).unwrap();
    let draft = drafts::NewDraft::check(input)?;
    let id = db
        .write_blocking(|tx| drafts::create_in(tx, &user, draft))?
        .document
        .id;
    db.write_blocking(|tx| numbering::issue_in(tx, &user, &id))?;
    Ok(())
}

/// A payment entered in error: recorded with one allocation, then cancelled with a reason.
pub fn cancel_payment(f: &Fixture, next: Arc<AtomicUsize>) -> Work {
    let (cookie, owing, today) = (f.manager.clone(), Arc::new(f.owing.clone()), f.today.to_string());
    Arc::new(move |c: &mut Client, _, _| {
        let (client, invoice) = &owing[next.fetch_add(1, Ordering::Relaxed) % owing.len()];
        let reply = c.post(
            "/api/payments",
            &cookie,
            &payment_body(client, invoice, &today),
            201,
        );
        let id = reply.json()["id"].as_str().unwrap().to_string();
        c.post(
            &format!("/api/payments/{id}/cancel"),
            &cookie,
            r#"{"reason":"Entered twice"}"#,
            200,
        );
    })
}

/// The floor of [`cancel_payment`]: the record handler's transaction, then the cancel handler's.
pub fn cancel_payment_directly(db: &Db, f: &Fixture, client_id: &str, invoice: &str) -> Result<(), AppError> {
    let user = manager(f);
    let input = serde_json::from_str(&payment_body(client_id, invoice, &f.today.to_string())).unwrap();
    let payment = recording::NewPayment::check(input)?;
    let id = db
        .write_blocking(|tx| recording::record_in(tx, &user, payment))?
        .id;
    db.write_blocking(|tx| corrections::cancel_in(tx, &user, &id, "Entered twice"))?;
    Ok(())
}

/// The floor of [`record_payment`]: the record handler's transaction on the same body.
pub fn record_payment_directly(db: &Db, f: &Fixture, client_id: &str, invoice: &str) -> Result<(), AppError> {
    let user = manager(f);
    let input = serde_json::from_str(&payment_body(client_id, invoice, &f.today.to_string())).unwrap();
    let payment = recording::NewPayment::check(input)?;
    db.write_blocking(|tx| recording::record_in(tx, &user, payment))?;
    Ok(())
}
