//! The GSTR-1 tables a demo month shows beyond B2B and B2C small (issue 36): on the office's
//! today, two inter-state invoices of staff training over ₹1,00,000 to active societies without
//! a GSTIN outside Kerala (B2C large), the first with a nil-rated line (Table 8), and a credit
//! note against it (CDNUR). Written after every other pass with a generator of its own, so
//! nothing the other passes draw moves, and numbered after each series' last number: dated
//! today, after every other document, they keep numbers in date order and the month's series
//! unbroken (Table 13). Nothing is written when the office has no such society.

use crate::demo::names::{self, OTHER_SAC};
use crate::demo::{Rng, Summary};
use crate::documents::rules;
use crate::plumbing::clock;
use crate::plumbing::error::AppError;
use chrono::{Duration, NaiveDate};
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::json;

/// A planned line: module, description, SAC, qty, unit price (paise), GST rate.
type Line = (Option<String>, &'static str, &'static str, i64, i64, i64);

struct Writer<'a> {
    conn: &'a Connection,
    rng: Rng,
    owner: &'a str,
    summary: &'a mut Summary,
}

impl Writer<'_> {
    fn audit(&mut self, at: &str, id: &str, action: &str, after: serde_json::Value) -> Result<(), AppError> {
        let audit_id = self.rng.id(clock::parse_timestamp(at).unwrap_or_default());
        self.conn.execute(
            "INSERT INTO audit (id, at, user_id, entity, entity_id, action, before, after) VALUES (?1, ?2, ?3, 'document', ?4, ?5, NULL, ?6)",
            params![audit_id, at, self.owner, id, action, after.to_string()],
        )?;
        self.summary.audit += 1;
        Ok(())
    }

    /// The next number of `doc_type`'s series for `day`, the series moved on.
    fn number(&self, doc_type: &str, day: NaiveDate) -> Result<String, AppError> {
        let prefix = rules::prefix(doc_type).expect("a known type");
        let fy = crate::plumbing::clock::Fy::of(day).short();
        let last: Option<i64> = self
            .conn
            .query_row(
                "SELECT last_seq FROM number_series WHERE prefix = ?1 AND fy = ?2",
                params![prefix, fy],
                |r| r.get(0),
            )
            .optional()?;
        let seq = last.unwrap_or(0) + 1;
        self.conn.execute(
            "INSERT INTO number_series (prefix, fy, last_seq) VALUES (?1, ?2, ?3)
             ON CONFLICT (prefix, fy) DO UPDATE SET last_seq = excluded.last_seq",
            params![prefix, fy, seq],
        )?;
        Ok(rules::number(prefix, &fy, seq))
    }

    /// An issued document of `client` dated `day`, inter-state; its id and taxable value.
    fn document(
        &mut self,
        doc_type: &str,
        client: &str,
        parent: Option<&str>,
        day: NaiveDate,
        lines: &[Line],
        notes: Option<&str>,
    ) -> Result<(String, i64), AppError> {
        let at = self.rng.office_time(day);
        let now = clock::timestamp(at);
        let id = self.rng.id(at);
        let doc_no = self.number(doc_type, day)?;
        let taxes: Vec<_> = lines
            .iter()
            .map(|(_, _, _, qty, price, rate)| rules::line_tax(*qty, *price, *rate, false))
            .collect();
        let subtotal: i64 = taxes.iter().map(|t| t.taxable).sum();
        let igst: i64 = taxes.iter().map(|t| t.igst).sum();
        let due = (doc_type == "INVOICE").then(|| (day + Duration::days(15)).to_string());
        self.conn.execute(
            "INSERT INTO document (id, type, status, doc_no, doc_date, due_date, client_id, parent_id, source, created_by, notes,
                 intra_state, subtotal, cgst, sgst, igst, total, created_at, updated_at)
             VALUES (?1, ?2, 'issued', ?3, ?4, ?5, ?6, ?7, 'hq', ?8, ?9, 0, ?10, 0, 0, ?11, ?12, ?13, ?13)",
            params![id, doc_type, doc_no, day.to_string(), due, client, parent, self.owner, notes, subtotal, igst, subtotal + igst, now],
        )?;
        for (position, ((module, description, sac, qty, price, rate), t)) in
            lines.iter().zip(&taxes).enumerate()
        {
            let line_id = self.rng.id(at);
            self.conn.execute(
                "INSERT INTO document_line (id, document_id, position, module_id, description, sac, qty, explicit_price, unit_price, gst_rate,
                     price_source, taxable, cgst, sgst, igst, total, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?9, 'override', ?10, ?11, ?12, ?13, ?14, ?15, ?15)",
                params![line_id, id, position as i64, module, description, sac, qty, price, rate,
                    t.taxable, t.cgst, t.sgst, t.igst, t.total(), now],
            )?;
            self.summary.lines += 1;
        }
        let event = self.rng.id(at);
        self.conn.execute(
            "INSERT INTO document_event (id, document_id, kind, at, user_id, reason, created_at, updated_at) VALUES (?1, ?2, 'issued', ?3, ?4, NULL, ?3, ?3)",
            params![event, id, now, self.owner],
        )?;
        self.audit(
            &now,
            &id,
            "create",
            json!({ "type": doc_type, "client_id": client, "total": subtotal + igst }),
        )?;
        self.audit(
            &now,
            &id,
            "issued",
            json!({ "docNo": doc_no, "doc_date": day.to_string(), "due_date": due, "total": subtotal + igst }),
        )?;
        self.summary.documents += 1;
        Ok((id, subtotal))
    }
}

/// Writes today's B2C large invoices, nil-rated line and unregistered credit note.
pub fn write(
    conn: &Connection,
    seed: u64,
    owner: &str,
    today: NaiveDate,
    summary: &mut Summary,
) -> Result<(), AppError> {
    let mut stmt = conn.prepare(
        "SELECT id FROM client WHERE (gstin IS NULL OR gstin = '') AND state_code IS NOT NULL AND state_code <> '32'
           AND status = 'active' AND created_at < ?1 ORDER BY id LIMIT 2",
    )?;
    let clients: Vec<String> = stmt
        .query_map([(today - Duration::days(30)).to_string()], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let training: Option<String> = conn
        .query_row("SELECT id FROM module WHERE code = 'TRN'", [], |r| r.get(0))
        .optional()?;
    let mut w = Writer {
        conn,
        rng: Rng::new(seed ^ 0x4753_5452_315f_3336),
        owner,
        summary,
    };
    let trn = names::sac("TRN");
    for (k, client) in clients.iter().enumerate() {
        let day = today;
        // Eight or nine days of training at ₹12,000: over ₹1,00,000 with IGST.
        let mut lines: Vec<Line> = vec![(
            training.clone(),
            "Training (per day)",
            trn,
            8 + k as i64,
            1_200_000,
            18,
        )];
        if k == 0 {
            lines.push((None, "Audit returns filing (nil-rated)", OTHER_SAC, 1, 150_000, 0));
        }
        let (invoice, taxable) = w.document("INVOICE", client, None, day, &lines, None)?;
        if k == 0 {
            let on = day;
            let reason = "Discount agreed after delivery";
            // 5 % of the training, to the rupee.
            let discount = (taxable - 150_000) * 5 / 100 / 100 * 100;
            w.document(
                "CREDIT_NOTE",
                client,
                Some(&invoice),
                on,
                &[(None, reason, OTHER_SAC, 1, discount, 18)],
                Some(reason),
            )?;
            let at = w.rng.office_time(on);
            let now = clock::timestamp(at);
            let event = w.rng.id(at);
            conn.execute(
                "INSERT INTO document_event (id, document_id, kind, at, user_id, reason, created_at, updated_at) VALUES (?1, ?2, 'credited', ?3, ?4, ?5, ?3, ?3)",
                params![event, invoice, now, owner, reason],
            )?;
            w.audit(&now, &invoice, "credited", json!({ "status": "credited" }))?;
        }
    }
    Ok(())
}
