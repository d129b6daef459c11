//! The documents of a planned history, year by year per client (the renewal billed on each
//! anniversary, a new-sale quotation, an SMS top-up), priced and taxed as the pricing code does,
//! converted, settled and paid.

use crate::demo::history::{Doc, Line, Payment};
use crate::demo::names::MODULES;
use crate::demo::planner::Planner;
use crate::documents::rules;
use chrono::{Datelike, Duration, NaiveDate};

const SMS: usize = 11;
const TRAINING: usize = 10;

fn price_on(prices: &[(NaiveDate, i64)], day: NaiveDate) -> i64 {
    prices
        .iter()
        .rev()
        .find(|(from, _)| *from <= day)
        .map_or(prices[0].1, |(_, p)| *p)
}

fn band_rate(bands: &[(i64, i64)], qty: i64) -> i64 {
    bands
        .iter()
        .rev()
        .find(|(min, _)| *min <= qty)
        .map_or(bands[0].1, |(_, r)| *r)
}

/// Totals of lines as the pricing code computes them: per-line taxes, sums.
fn with_totals(mut doc: Doc) -> Doc {
    let (mut sub, mut c, mut s, mut i) = (0, 0, 0, 0);
    for l in &doc.lines {
        let t = rules::line_tax(l.qty, l.unit_price, l.gst_rate, doc.intra);
        sub += t.taxable;
        c += t.cgst;
        s += t.sgst;
        i += t.igst;
    }
    doc.subtotal = sub;
    doc.cgst = c;
    doc.sgst = s;
    doc.igst = i;
    doc.total = sub + c + s + i;
    doc
}

impl Planner<'_> {
    fn line(&self, module: usize, qty: i64, day: NaiveDate) -> Line {
        let (code, name, kind, _, _) = MODULES[module];
        let (unit_price, source) = if module == SMS {
            (band_rate(&self.plan.sms_bands, qty), "rate_card")
        } else {
            (price_on(&self.plan.prices[module], day), "price_book")
        };
        Line {
            module: Some(module),
            description: if kind == "licence" && code != "TRN" {
                format!("{name} ({kind})")
            } else {
                name.to_string()
            },
            qty,
            unit_price,
            gst_rate: 18,
            source,
        }
    }

    fn doc(
        &mut self,
        doc_type: &'static str,
        client: usize,
        day: NaiveDate,
        lines: Vec<Line>,
        source: &'static str,
    ) -> usize {
        let intra = self.plan.clients[client].state_code == "32";
        let doc = with_totals(Doc {
            doc_type,
            status: "issued",
            client,
            parent: None,
            source,
            created: day,
            doc_date: Some(day),
            due_date: (doc_type == "INVOICE").then(|| day + Duration::days(15)),
            intra,
            lines,
            events: vec![("issued", day, None)],
            notes: None,
            subtotal: 0,
            cgst: 0,
            sgst: 0,
            igst: 0,
            total: 0,
        });
        self.plan.docs.push(doc);
        self.plan.docs.len() - 1
    }

    /// Converts `from` into a new issued document of `to` on `day` (its lines re-priced when an invoice).
    fn convert(&mut self, from: usize, to: &'static str, day: NaiveDate) -> usize {
        let lines = self.plan.docs[from].lines.clone();
        let (client, source) = (self.plan.docs[from].client, self.plan.docs[from].source);
        let lines = if to == "INVOICE" {
            lines
                .into_iter()
                .map(|l| match l.module {
                    Some(m) => self.line(m, l.qty, day),
                    None => l,
                })
                .collect()
        } else {
            lines
        };
        let child = self.doc(to, client, day, lines, source);
        self.plan.docs[child].parent = Some(from);
        let source_doc = &mut self.plan.docs[from];
        source_doc.status = "invoiced";
        source_doc.events.push(("converted", day, None));
        child
    }

    /// An invoice's afterlife: maybe cancelled or credited, then paid (in full, in parts, with
    /// TDS, or not yet).
    fn settle(&mut self, invoice: usize) {
        let day = self.plan.docs[invoice].doc_date.expect("issued");
        let client = self.plan.docs[invoice].client;
        let age = (self.today - day).num_days();
        if self.rng.chance(2) {
            let doc = &mut self.plan.docs[invoice];
            doc.status = "cancelled";
            doc.events.push((
                "cancelled",
                day + Duration::days(2).min(Duration::days(age.max(0))),
                Some("Raised against the wrong society"),
            ));
            return;
        }
        let mut owed = self.plan.docs[invoice].total;
        if self.rng.chance(3) && age > 40 {
            let taxable = self.plan.docs[invoice].subtotal;
            let discount = (taxable * self.rng.range(5, 10) / 100 / 100) * 100;
            let on = day + Duration::days(self.rng.range(10, 40));
            let note = self.doc(
                "CREDIT_NOTE",
                client,
                on,
                vec![Line {
                    module: None,
                    description: "Discount agreed after delivery".into(),
                    qty: 1,
                    unit_price: discount,
                    gst_rate: 18,
                    source: "override",
                }],
                "hq",
            );
            self.plan.docs[note].parent = Some(invoice);
            self.plan.docs[note].notes = Some("Discount agreed after delivery".into());
            self.plan.docs[invoice]
                .events
                .push(("credited", on, Some("Discount agreed after delivery")));
            owed -= self.plan.docs[note].total;
        }
        if age < 20 && self.rng.chance(50) || owed <= 0 {
            return;
        }
        let taxable = self.plan.docs[invoice].subtotal;
        let tds = if self.rng.chance(40) {
            crate::payments::rules::tds_at(taxable, *self.rng.pick(&[10, 2]))
        } else {
            0
        };
        let tds = tds.min(owed);
        let roll = self.rng.below(100);
        let first_day = day + Duration::days(self.rng.range(5, 40));
        if roll < 45 {
            let advance = if self.rng.chance(4) {
                self.rng.range(1, 50) * 100_000
            } else {
                0
            };
            self.pay(
                client,
                first_day,
                owed - tds + advance,
                vec![(invoice, owed - tds, tds)],
            );
            // Now and then a society asks for its advance back.
            let back = first_day + Duration::days(self.rng.range(10, 60));
            if advance > 0
                && self.rng.chance(20)
                && back <= self.today
                && let Some(p) = self
                    .plan
                    .payments
                    .last_mut()
                    .filter(|p| p.received_on == first_day)
            {
                p.refund = Some((
                    advance,
                    back,
                    "Advance returned: the society deferred the project",
                ));
            }
        } else if roll < 90 {
            let part = (owed - tds) * self.rng.range(50, 80) / 100;
            self.pay(client, first_day, part, vec![(invoice, part, tds)]);
            let second = first_day + Duration::days(self.rng.range(20, 60));
            self.pay(
                client,
                second,
                owed - tds - part,
                vec![(invoice, owed - tds - part, 0)],
            );
        } else {
            let part = (owed - tds) * self.rng.range(20, 60) / 100;
            self.pay(client, first_day, part, vec![(invoice, part, tds)]);
        }
    }

    fn pay(&mut self, client: usize, on: NaiveDate, amount: i64, allocations: Vec<(usize, i64, i64)>) {
        if on > self.today || amount <= 0 {
            return;
        }
        let mode = *self
            .rng
            .pick(&["neft_rtgs", "neft_rtgs", "cheque", "upi", "cash"]);
        let reference = match mode {
            "cheque" => Some(format!("{:06}", self.rng.below(1_000_000))),
            "neft_rtgs" => Some(format!("SBIN{:012}", self.rng.below(1_000_000_000_000))),
            "upi" => Some(format!("{:012}", self.rng.below(1_000_000_000_000))),
            _ => None,
        };
        let allocations = allocations.into_iter().filter(|(_, m, t)| m + t > 0).collect();
        // About one payment in a hundred is entered twice; the second is cancelled, and its
        // allocations with it, so it settles nothing.
        let twice = self.rng.chance(1);
        self.plan.payments.push(Payment {
            client,
            received_on: on,
            amount,
            mode,
            reference: reference.clone(),
            allocations,
            cancelled: None,
            refund: None,
        });
        if twice {
            self.plan.payments.push(Payment {
                client,
                received_on: on,
                amount,
                mode,
                reference,
                allocations: vec![],
                cancelled: Some("Entered twice"),
                refund: None,
            });
        }
    }

    /// Year by year: the renewal billed on each anniversary, a new-sale quotation, an SMS top-up.
    /// A lead has none: it is a bare client of the pipeline.
    pub(super) fn documents(&mut self, c: usize) {
        if self.plan.clients[c].is_lead() {
            return;
        }
        let since = self.plan.clients[c].since;
        let mut year_start = since;
        while year_start <= self.today {
            let anniversary = year_start;
            let renewing: Vec<usize> = self
                .plan
                .subs
                .iter()
                .filter(|s| {
                    s.client == c
                        && s.active
                        && s.start + Duration::days(365) <= anniversary + Duration::days(30)
                })
                .map(|s| s.module)
                .collect();
            if !renewing.is_empty() && anniversary > since {
                let lines = renewing.iter().map(|m| self.line(*m, 1, anniversary)).collect();
                let pi = self.doc("PROFORMA", c, anniversary, lines, "module_renewal");
                let invoice_day = anniversary + Duration::days(self.rng.range(3, 20));
                if invoice_day <= self.today {
                    let inv = self.convert(pi, "INVOICE", invoice_day);
                    self.settle(inv);
                }
            }
            let quote_day = year_start + Duration::days(self.rng.range(20, 330));
            if self.rng.chance(80) && quote_day <= self.today {
                let mut lines = vec![];
                for _ in 0..self.rng.range(4, 10) {
                    let m = self.rng.below(10) as usize;
                    let qty = if m == TRAINING { self.rng.range(2, 5) } else { 1 };
                    lines.push(self.line(m, qty, quote_day));
                }
                let qt = self.doc("QUOTATION", c, quote_day, lines, "hq");
                let sent = quote_day + Duration::days(self.rng.range(0, 3));
                if sent <= self.today {
                    self.plan.docs[qt].events.push(("sent", sent, None));
                    self.plan.docs[qt].status = "sent";
                }
                let decided = sent + Duration::days(self.rng.range(5, 30));
                let roll = self.rng.below(100);
                if decided > self.today || roll >= 75 && (self.today - quote_day).num_days() < 90 {
                    // still open
                } else if roll < 50 {
                    self.plan.docs[qt].events.push(("accepted", decided, None));
                    let pi = self.convert(qt, "PROFORMA", decided);
                    let invoice_day = decided + Duration::days(self.rng.range(3, 15));
                    if invoice_day <= self.today {
                        let inv = self.convert(pi, "INVOICE", invoice_day);
                        self.settle(inv);
                    }
                } else {
                    self.plan.docs[qt].status = "lost";
                    self.plan.docs[qt].events.push(("lost", decided, None));
                }
            }
            let sms_day = year_start + Duration::days(self.rng.range(30, 350));
            if self.rng.chance(50) && sms_day <= self.today {
                let qty = self.rng.range(10, 150);
                let line = self.line(SMS, qty, sms_day);
                let pi = self.doc("PROFORMA", c, sms_day, vec![line], "bulk_sms_topup");
                let invoice_day = sms_day + Duration::days(self.rng.range(1, 10));
                if invoice_day <= self.today {
                    let inv = self.convert(pi, "INVOICE", invoice_day);
                    self.settle(inv);
                }
            }
            let service_day = year_start + Duration::days(self.rng.range(10, 360));
            if self.rng.chance(40) && service_day <= self.today {
                let lines = (0..self.rng.range(2, 6))
                    .map(|_| {
                        let m = *self.rng.pick(&[TRAINING, 8, 9]);
                        let qty = if m == TRAINING { self.rng.range(1, 4) } else { 1 };
                        self.line(m, qty, service_day)
                    })
                    .collect();
                let inv = self.doc("INVOICE", c, service_day, lines, "hq");
                self.settle(inv);
            }
            year_start = year_start
                .with_year(year_start.year() + 1)
                .unwrap_or(year_start + Duration::days(365));
        }
        // A few drafts being worked on now.
        if self.rng.chance(5) {
            let lines = vec![self.line(TRAINING, 2, self.today)];
            let d = self.doc("QUOTATION", c, self.today, lines, "hq");
            let draft = &mut self.plan.docs[d];
            draft.status = "draft";
            draft.doc_date = None;
            draft.events.clear();
        }
    }
}
