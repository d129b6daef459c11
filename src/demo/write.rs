//! Writes a planned history: numbers given in date order per series and financial year, ids that
//! sort in time order, and the audit rows the API would have written.

use crate::company::PROFILE_KEY;
use crate::demo::history::{Plan, checklist, project_status};
use crate::demo::names::{self, MODULES};
use crate::demo::{Rng, Summary};
use crate::documents::rules;
use crate::plumbing::clock;
use crate::plumbing::db::audit::Audit;
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use rusqlite::{Connection, params};
use serde_json::json;
use std::collections::HashMap;

struct Writer<'a> {
    conn: &'a Connection,
    rng: &'a mut Rng,
    audit: usize,
}

impl Writer<'_> {
    /// An audit row as the API would have written it `at` that moment.
    fn audit(&mut self, at: DateTime<Utc>, row: Audit<'_>) -> Result<(), AppError> {
        let id = self.rng.id(at);
        self.conn
            .prepare_cached("INSERT INTO audit (id, at, user_id, entity, entity_id, action, before, after) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)")?
            .execute(params![
                id,
                clock::timestamp(at),
                row.user_id,
                row.entity,
                row.entity_id,
                row.action,
                row.before.map(|b| b.to_string()),
                row.after.map(|a| a.to_string())
            ])?;
        self.audit += 1;
        Ok(())
    }
}

fn next_anniversary(start: NaiveDate, today: NaiveDate) -> NaiveDate {
    let mut day = start;
    while day <= today {
        day = day.with_year(day.year() + 1).unwrap_or(day + Duration::days(365));
    }
    day
}

pub fn write(
    conn: &Connection,
    rng: &mut Rng,
    plan: &Plan,
    owner_id: &str,
    staff_hash: &str,
    start: NaiveDate,
    today: NaiveDate,
) -> Result<Summary, AppError> {
    conn.execute_batch("PRAGMA defer_foreign_keys = ON")?;
    let mut w = Writer { conn, rng, audit: 0 };
    let mut summary = Summary::default();
    let begin = w.rng.office_time(start - Duration::days(400));

    // The company, its staff and its catalog.
    let company_gstin = {
        let body = "32AAHCM4521K1Z";
        format!(
            "{body}{}",
            crate::plumbing::gstin::check_char(body).expect("valid body")
        )
    };
    let profile = json!({
        "name": "Malabar Cooperative Software Pvt Ltd", "address": "2nd Floor, Civil Station Road\nKozhikode, Kerala 673020",
        "gstin": company_gstin, "state_code": "32", "phone": "+91 495 276 5432", "email": "accounts@malabarsoft.in",
        "bank_name": "State Bank of India, Civil Station", "bank_account": "38291047561", "bank_ifsc": "SBIN0070213", "upi_id": "malabarsoft@sbi"
    });
    settings::set(
        conn,
        PROFILE_KEY,
        &profile,
        start - Duration::days(400),
        Some(owner_id),
    )?;
    let mut staff_ids = vec![];
    for n in 0..=plan.staff {
        let (username, role, name) = if n == 0 {
            (
                "manager@demo.office".to_string(),
                "manager",
                "Lekha Menon (Manager)".to_string(),
            )
        } else {
            (
                format!("staff{n}@demo.office"),
                "staff",
                format!("Field officer {n}"),
            )
        };
        let id = w.rng.id(begin);
        let now = clock::timestamp(begin);
        conn.execute(
            "INSERT INTO staff (id, username, email, name, role, must_change_password, password_hash, created_at, updated_at)
             VALUES (?1, ?2, ?2, ?3, ?4, 0, ?5, ?6, ?6)",
            params![id, username, name, role, staff_hash, now],
        )?;
        w.audit(
            begin,
            Audit {
                user_id: Some(owner_id),
                entity: "staff",
                entity_id: Some(&id),
                action: "create",
                before: None,
                after: Some(json!({ "username": username, "role": role })),
            },
        )?;
        staff_ids.push(id);
    }
    summary.staff = staff_ids.len();
    let mut module_ids = vec![];
    for (m, (code, name, kind, _, renewal)) in MODULES.iter().enumerate() {
        let id = w.rng.id(begin);
        let now = clock::timestamp(begin);
        conn.execute(
            "INSERT INTO module (id, code, name, kind, sac, gst_rate, renewal_months, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, 18, ?6, ?7, ?7)",
            params![id, code, name, kind, names::sac(code), renewal, now],
        )?;
        for (from, price) in &plan.prices[m] {
            let at = w.rng.office_time(*from - Duration::days(20));
            conn.prepare_cached(
                "INSERT INTO module_price (id, module_id, effective_from, price, created_by, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
            )?
            .execute(params![w.rng.id(at), id, from.to_string(), price, owner_id, clock::timestamp(at)])?;
        }
        if *code == "SMS" {
            for (min, rate) in &plan.sms_bands {
                conn.execute(
                    "INSERT INTO usage_rate_band (id, module_id, effective_from, min_qty, rate, created_by, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
                    params![w.rng.id(begin), id, (start - Duration::days(365)).to_string(), min, rate, owner_id, now],
                )?;
            }
        }
        module_ids.push(id);
    }

    // Clients and their contacts.
    let mut client_ids = vec![];
    for c in &plan.clients {
        let at = w.rng.office_time(c.since);
        let id = w.rng.id(at);
        let now = clock::timestamp(at);
        let owner = &staff_ids[c.owner];
        conn.prepare_cached(
            "INSERT INTO client (id, name, gstin, state_code, status, owner_id, district, sector, client_type, category, address, phone, email, created_by, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'co-operative', ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?14)",
        )?
        .execute(params![
            id, c.name, c.gstin, c.state_code, c.status, owner, c.district,
            crate::clients::rules::client_type_for(&c.english_name), crate::clients::rules::category_for(&c.english_name),
            c.address, c.phone, c.email, owner, now
        ])?;
        for (name, role, phone, email) in &c.contacts {
            conn.prepare_cached("INSERT INTO contact (id, client_id, name, role, phone, email, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)")?
                .execute(params![w.rng.id(at), id, name, role, phone, email, now])?;
        }
        w.audit(
            at,
            Audit {
                user_id: Some(owner),
                entity: "client",
                entity_id: Some(&id),
                action: "create",
                before: None,
                after: Some(json!({ "name": c.name, "gstin": c.gstin, "owner_id": owner })),
            },
        )?;
        client_ids.push(id);
    }
    summary.clients = client_ids.len();

    // Subscriptions with their checklists.
    let steps = checklist();
    for s in &plan.subs {
        let at = w.rng.office_time(s.start);
        let id = w.rng.id(at);
        let owner = &staff_ids[plan.clients[s.client].owner];
        let (installed, trained, status) = project_status(&steps, &s.done);
        let renewal = MODULES[s.module]
            .4
            .map(|_| next_anniversary(s.start, today).to_string());
        conn.prepare_cached(
            "INSERT INTO client_module (id, client_id, module_id, active, status, installed_on, trained_on, next_renewal, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)",
        )?
        .execute(params![id, client_ids[s.client], module_ids[s.module], s.active, status, installed, trained, renewal, clock::timestamp(at)])?;
        for (position, (step, done)) in steps.iter().zip(&s.done).enumerate() {
            conn.prepare_cached(
                "INSERT INTO project_milestone (id, client_module_id, key, label, position, done_on, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
            )?
            .execute(params![w.rng.id(at), id, step.key, step.label, position as i64, done.map(|d| d.to_string()), clock::timestamp(at)])?;
            summary.milestones += 1;
            if let Some(day) = done {
                let tick_at = w.rng.office_time(*day);
                w.audit(
                    tick_at,
                    Audit {
                        user_id: Some(owner),
                        entity: "client_module",
                        entity_id: Some(&id),
                        action: "milestone_tick",
                        before: Some(json!({ "key": step.key, "done_on": null })),
                        after: Some(json!({ "key": step.key, "done_on": day.to_string() })),
                    },
                )?;
            }
        }
        summary.subscriptions += 1;
    }

    // Documents: numbers in date order within each series and financial year.
    let times: Vec<DateTime<Utc>> = plan.docs.iter().map(|d| w.rng.office_time(d.created)).collect();
    let doc_ids: Vec<String> = times.iter().map(|at| w.rng.id(*at)).collect();
    let mut order: Vec<usize> = (0..plan.docs.len())
        .filter(|i| plan.docs[*i].doc_date.is_some())
        .collect();
    order.sort_by_key(|i| (plan.docs[*i].doc_date, doc_ids[*i].clone()));
    let mut series: HashMap<(&str, String), i64> = HashMap::new();
    let mut numbers: Vec<Option<String>> = vec![None; plan.docs.len()];
    for i in order {
        let d = &plan.docs[i];
        let prefix = rules::prefix(d.doc_type).expect("a known type");
        let fy = crate::plumbing::clock::Fy::of(d.doc_date.expect("issued")).short();
        let seq = series.entry((prefix, fy.clone())).or_insert(0);
        *seq += 1;
        numbers[i] = Some(rules::number(prefix, &fy, *seq));
    }
    // What each invoice still owes as history goes on (for the audit's before and after).
    let mut owed: Vec<i64> = plan.docs.iter().map(|d| d.total).collect();
    for (i, d) in plan.docs.iter().enumerate() {
        let at = times[i];
        let id = &doc_ids[i];
        let user = &staff_ids[plan.clients[d.client].owner];
        let parent = d.parent.map(|p| doc_ids[p].clone());
        if d.doc_type == "CREDIT_NOTE"
            && let Some(p) = d.parent
        {
            owed[p] -= d.total;
        }
        let now = clock::timestamp(at);
        conn.prepare_cached(
            "INSERT INTO document (id, type, status, doc_no, doc_date, due_date, client_id, parent_id, source, created_by, notes,
                 intra_state, subtotal, cgst, sgst, igst, total, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?18)",
        )?
        .execute(params![
            id, d.doc_type, d.status, numbers[i], d.doc_date.map(|x| x.to_string()), d.due_date.map(|x| x.to_string()),
            client_ids[d.client], parent, d.source, user, d.notes, d.intra, d.subtotal, d.cgst, d.sgst, d.igst, d.total, now
        ])?;
        for (position, l) in d.lines.iter().enumerate() {
            let t = rules::line_tax(l.qty, l.unit_price, l.gst_rate, d.intra);
            conn.prepare_cached(
                "INSERT INTO document_line (id, document_id, position, module_id, description, sac, qty, explicit_price, unit_price, gst_rate,
                     price_source, taxable, cgst, sgst, igst, total, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?17)",
            )?
            .execute(params![
                w.rng.id(at), id, position as i64, l.module.map(|m| module_ids[m].clone()), l.description,
                l.module.map_or(names::OTHER_SAC, |m| names::sac(MODULES[m].0)), l.qty,
                (l.source == "override").then_some(l.unit_price), l.unit_price, l.gst_rate, l.source,
                t.taxable, t.cgst, t.sgst, t.igst, t.total(), now
            ])?;
            summary.lines += 1;
        }
        w.audit(
            at,
            Audit {
                user_id: Some(user),
                entity: "document",
                entity_id: Some(id),
                action: "create",
                before: None,
                after: Some(
                    json!({ "type": d.doc_type, "client_id": client_ids[d.client], "total": d.total }),
                ),
            },
        )?;
        for (kind, day, reason) in &d.events {
            let event_at = if *day == d.created {
                at
            } else {
                w.rng.office_time(*day)
            };
            conn.prepare_cached(
                "INSERT INTO document_event (id, document_id, kind, at, user_id, reason, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?4, ?4)",
            )?
            .execute(params![w.rng.id(event_at), id, kind, clock::timestamp(event_at), user, reason])?;
            let after = match *kind {
                "issued" => {
                    json!({ "docNo": numbers[i], "doc_date": d.doc_date.map(|x| x.to_string()), "due_date": d.due_date.map(|x| x.to_string()), "total": d.total })
                }
                "cancelled" => json!({ "status": "cancelled", "reason": reason }),
                other => json!({ "status": other }),
            };
            w.audit(
                event_at,
                Audit {
                    user_id: Some(user),
                    entity: "document",
                    entity_id: Some(id),
                    action: kind,
                    before: None,
                    after: Some(after),
                },
            )?;
        }
        summary.documents += 1;
    }

    // Payments: receipt numbers in date order per financial year; allocations audited on their invoices.
    let mut payments: Vec<usize> = (0..plan.payments.len()).collect();
    let pay_times: Vec<DateTime<Utc>> = plan
        .payments
        .iter()
        .map(|p| w.rng.office_time(p.received_on))
        .collect();
    let pay_ids: Vec<String> = pay_times.iter().map(|at| w.rng.id(*at)).collect();
    payments.sort_by_key(|i| (plan.payments[*i].received_on, pay_ids[*i].clone()));
    for i in payments {
        let p = &plan.payments[i];
        let (at, id) = (pay_times[i], &pay_ids[i]);
        let user = &staff_ids[plan.clients[p.client].owner];
        let fy = crate::plumbing::clock::Fy::of(p.received_on).short();
        let seq = series.entry(("RCT", fy.clone())).or_insert(0);
        *seq += 1;
        let receipt_no = rules::number("RCT", &fy, *seq);
        conn.prepare_cached(
            "INSERT INTO payment (id, client_id, received_on, amount, mode, reference, receipt_no, created_by, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)",
        )?
        .execute(params![id, client_ids[p.client], p.received_on.to_string(), p.amount, p.mode, p.reference, receipt_no, user, clock::timestamp(at)])?;
        w.audit(
            at,
            Audit {
                user_id: Some(user),
                entity: "payment",
                entity_id: Some(id),
                action: "recorded",
                before: None,
                after: Some(json!({ "receipt_no": receipt_no, "amount": p.amount, "mode": p.mode })),
            },
        )?;
        if let Some(reason) = p.cancelled {
            conn.prepare_cached(
                "UPDATE payment SET status = 'cancelled', cancel_reason = ?2, cancelled_on = ?3, cancelled_by = ?4 WHERE id = ?1",
            )?
            .execute(params![id, reason, p.received_on.to_string(), user])?;
            w.audit(
                at,
                Audit {
                    user_id: Some(user),
                    entity: "payment",
                    entity_id: Some(id),
                    action: "cancelled",
                    before: Some(json!({ "receipt_no": receipt_no, "status": "recorded" })),
                    after: Some(json!({ "receipt_no": receipt_no, "status": "cancelled", "reason": reason })),
                },
            )?;
            summary.cancelled_payments += 1;
        }
        if let Some((amount, on, reason)) = p.refund {
            let refund_at = w.rng.office_time(on);
            let refund_id = w.rng.id(refund_at);
            conn.prepare_cached(
                "INSERT INTO payment_refund (id, payment_id, amount, refunded_on, reason, created_by, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
            )?
            .execute(params![refund_id, id, amount, on.to_string(), reason, user, clock::timestamp(refund_at)])?;
            w.audit(refund_at, Audit { user_id: Some(user), entity: "payment", entity_id: Some(id), action: "refunded", before: None, after: Some(json!({ "refund_id": refund_id, "amount": amount, "refunded_on": on, "reason": reason })) })?;
            summary.refunds += 1;
        }
        for (doc, amount, tds) in &p.allocations {
            let alloc_id = w.rng.id(at);
            conn.prepare_cached(
                "INSERT INTO payment_allocation (id, payment_id, document_id, amount, tds, created_by, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
            )?
            .execute(params![alloc_id, id, doc_ids[*doc], amount, tds, user, clock::timestamp(at)])?;
            let before = owed[*doc];
            owed[*doc] -= amount + tds;
            w.audit(at, Audit { user_id: Some(user), entity: "document", entity_id: Some(&doc_ids[*doc]), action: "payment_allocated", before: Some(json!({ "outstanding": before })), after: Some(json!({ "outstanding": owed[*doc], "payment_id": id, "receipt_no": receipt_no, "allocation_id": alloc_id, "amount": amount, "tds": tds })) })?;
            summary.allocations += 1;
        }
        summary.payments += 1;
    }
    for ((prefix, fy), last) in &series {
        conn.execute(
            "INSERT INTO number_series (prefix, fy, last_seq) VALUES (?1, ?2, ?3)",
            params![prefix, fy, last],
        )?;
    }
    summary.audit = w.audit;
    Ok(summary)
}
