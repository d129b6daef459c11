//! The history of a demo office, planned in memory before anything is written: clients and their
//! subscriptions, then year by year the documents each client went through and how they paid.

use crate::demo::names::{FIRST, KINDS, LAST, MALAYALAM_PLACES, MODULES, PLACES};
use crate::demo::{Options, Rng};
use crate::documents::rules;
use chrono::{Datelike, Duration, NaiveDate};

pub struct Client {
    pub name: String,
    /// The name in English: what the type and the category are read from (the same as `name`
    /// but for the societies written in Malayalam).
    pub english_name: String,
    pub gstin: Option<String>,
    pub address: String,
    pub state_code: &'static str,
    pub district: &'static str,
    /// Index into the staff (0 is the manager; staff follow).
    pub owner: usize,
    pub since: NaiveDate,
    pub email: Option<String>,
    pub phone: String,
    /// 'active', 'lost' or `LEAD`.
    pub status: &'static str,
    /// (name, role, phone, email).
    pub contacts: Vec<(String, &'static str, String, Option<String>)>,
}

/// The status of a client still in the pipeline (no subscription, no document yet).
pub const LEAD: &str = "lead";

impl Client {
    pub fn is_lead(&self) -> bool {
        self.status == LEAD
    }
}

pub struct Sub {
    pub client: usize,
    pub module: usize,
    pub start: NaiveDate,
    pub active: bool,
    /// Per checklist step: when it was ticked.
    pub done: Vec<Option<NaiveDate>>,
}

#[derive(Clone)]
pub struct Line {
    pub module: Option<usize>,
    pub description: String,
    pub qty: i64,
    pub unit_price: i64,
    pub gst_rate: i64,
    pub source: &'static str,
}

pub struct Doc {
    pub doc_type: &'static str,
    pub status: &'static str,
    pub client: usize,
    pub parent: Option<usize>,
    pub source: &'static str,
    pub created: NaiveDate,
    /// The issue date (None: a draft).
    pub doc_date: Option<NaiveDate>,
    pub due_date: Option<NaiveDate>,
    pub intra: bool,
    pub lines: Vec<Line>,
    /// (kind, day, reason).
    pub events: Vec<(&'static str, NaiveDate, Option<&'static str>)>,
    pub notes: Option<String>,
    pub subtotal: i64,
    pub cgst: i64,
    pub sgst: i64,
    pub igst: i64,
    pub total: i64,
}

pub struct Payment {
    pub client: usize,
    pub received_on: NaiveDate,
    pub amount: i64,
    pub mode: &'static str,
    pub reference: Option<String>,
    /// (document index, money, tds).
    pub allocations: Vec<(usize, i64, i64)>,
    /// Entered by mistake and cancelled the same day, with this reason (it then settles nothing).
    pub cancelled: Option<&'static str>,
    /// Part of the advance given back: (amount, day, reason).
    pub refund: Option<(i64, NaiveDate, &'static str)>,
}

pub struct Plan {
    pub staff: usize,
    /// Per module: (effective_from, price in paise), in date order.
    pub prices: Vec<Vec<(NaiveDate, i64)>>,
    /// SMS rate card: (min_qty, rate in paise).
    pub sms_bands: Vec<(i64, i64)>,
    pub clients: Vec<Client>,
    pub subs: Vec<Sub>,
    pub docs: Vec<Doc>,
    pub payments: Vec<Payment>,
}

/// The checklist every demo subscription follows (the default tail; no front steps).
pub fn checklist() -> Vec<crate::projects::rules::Step> {
    crate::projects::rules::default_tail()
}

/// A subscription's installed and trained days and its status, from the days its checklist
/// steps were done (as ticking them through the API moves the status).
pub fn project_status(
    steps: &[crate::projects::rules::Step],
    done: &[Option<NaiveDate>],
) -> (Option<String>, Option<String>, &'static str) {
    let step_day = |key: &str| {
        steps
            .iter()
            .position(|st| st.key == key)
            .and_then(|i| done[i])
            .map(|d| d.to_string())
    };
    let (installed, trained) = (step_day("installed"), step_day("trained"));
    let status = if trained.is_some() {
        "trained"
    } else if installed.is_some() {
        "installed"
    } else {
        "new"
    };
    (installed, trained, status)
}

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

/// A valid GSTIN for a state: a made-up PAN, entity 1, 'Z' and the check character.
fn gstin(rng: &mut Rng, state: &str) -> String {
    let letter = |rng: &mut Rng| (b'A' + rng.below(26) as u8) as char;
    let mut first14 = state.to_string();
    for _ in 0..3 {
        first14.push(letter(rng));
    }
    first14.push('A'); // an association of persons, as societies register
    first14.push(letter(rng));
    first14.push_str(&format!("{:04}", rng.below(10_000)));
    first14.push(letter(rng));
    first14.push('1');
    first14.push('Z');
    let check = crate::plumbing::gstin::check_char(&first14).expect("a well-formed GSTIN body");
    format!("{first14}{check}")
}

fn person(rng: &mut Rng) -> String {
    format!("{} {}", rng.pick(FIRST), rng.pick(LAST))
}

fn phone(rng: &mut Rng) -> String {
    format!("9{:09}", rng.below(1_000_000_000))
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

struct Planner<'a> {
    rng: &'a mut Rng,
    today: NaiveDate,
    plan: Plan,
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

    fn client(&mut self, n: usize, start: NaiveDate, staff: usize) {
        let rng = &mut *self.rng;
        let (place, district, state) = *rng.pick(PLACES);
        let total_weight: u32 = KINDS.iter().map(|(_, _, w)| w).sum();
        let mut roll = rng.below(u64::from(total_weight)) as u32;
        let kind = KINDS.iter().find(|(_, _, w)| {
            let hit = roll < *w;
            roll = roll.saturating_sub(*w);
            hit
        });
        let (english, malayalam, _) = kind.unwrap_or(&KINDS[0]);
        let named = |pattern: &str, place: &str| {
            pattern
                .replace("{place}", place)
                .replace("{no}", &(1000 + n).to_string())
        };
        let english_name = named(english, place);
        // One society in five of Kerala writes its name in Malayalam.
        let (name, address) = match MALAYALAM_PLACES.iter().find(|(p, _)| *p == place) {
            Some((_, in_malayalam)) if n % 5 == 2 => (
                named(malayalam, in_malayalam),
                format!("മെയിൻ റോഡ്, {in_malayalam}"),
            ),
            _ => (english_name.clone(), format!("Main Road, {}", title_case(place))),
        };
        // Most societies have been clients from the start; the rest joined along the way. One in
        // forty is still a lead: it came in over the last months and has bought nothing yet.
        let span = (self.today - start).num_days();
        let lead = rng.below(1000) < 25;
        let since = if lead {
            self.today - Duration::days(rng.range(5, 150))
        } else if rng.chance(60) {
            start + Duration::days(rng.range(0, 60))
        } else {
            start + Duration::days(rng.range(0, span - 30))
        };
        let email = rng
            .chance(70)
            .then(|| format!("{}{}@coop.in", place.to_lowercase().replace(' ', ""), n));
        let contacts = (0..rng.range(1, 2))
            .map(|i| {
                let role = if i == 0 {
                    "secretary"
                } else {
                    *rng.pick(&["president", "accountant", "WhatsApp"])
                };
                let mail = rng
                    .chance(50)
                    .then(|| format!("{}.{n}@coop.in", role.to_lowercase()));
                (person(rng), role, phone(rng), mail)
            })
            .collect();
        let client = Client {
            gstin: rng.chance(60).then(|| gstin(rng, state)),
            name,
            english_name,
            address,
            state_code: state,
            district,
            owner: 1 + n % staff,
            since,
            email,
            phone: phone(rng),
            status: if lead {
                LEAD
            } else if rng.chance(3) {
                "lost"
            } else {
                "active"
            },
            contacts,
        };
        self.plan.clients.push(client);
    }

    /// The subscriptions of client `c`: a core module for its kind, and a few more over the years.
    /// A lead has none.
    fn subscriptions(&mut self, c: usize) {
        if self.plan.clients[c].is_lead() {
            return;
        }
        let since = self.plan.clients[c].since;
        let store = self.plan.clients[c].english_name.contains("STORES");
        let mut modules: Vec<usize> = vec![if store { 6 } else { 0 }];
        let extra = [1, 2, 3, 4, 5, 7, 8, 9];
        for _ in 0..self.rng.range(3, 5) {
            let m = *self.rng.pick(&extra);
            if !modules.contains(&m) {
                modules.push(m);
            }
        }
        let steps = checklist().len();
        let mut start = since;
        for module in modules {
            if start > self.today {
                break;
            }
            let mut done = vec![None; steps];
            let stalled = self.rng.chance(6);
            let mut day = start;
            for (i, slot) in done.iter_mut().enumerate() {
                day += Duration::days(self.rng.range(3, 20));
                if day > self.today || (stalled && i >= 2) {
                    break;
                }
                *slot = Some(day);
            }
            self.plan.subs.push(Sub {
                client: c,
                module,
                start,
                active: !self.rng.chance(5),
                done,
            });
            start += Duration::days(self.rng.range(60, 500));
        }
    }

    /// Year by year: the renewal billed on each anniversary, a new-sale quotation, an SMS top-up.
    /// A lead has none: it is a bare client of the pipeline.
    fn documents(&mut self, c: usize) {
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

/// Plans the whole office from `start` to `today`.
pub fn plan(rng: &mut Rng, options: Options, start: NaiveDate, today: NaiveDate) -> Plan {
    let staff = (options.clients / 250).clamp(3, 20);
    let mut prices = vec![];
    for (_, _, _, rupees, _) in MODULES {
        let mut list = vec![];
        let mut price = rupees * 100;
        let mut from = start - Duration::days(365);
        while from <= today {
            list.push((from, price));
            price = (price * 108 / 100 / 100) * 100;
            from += Duration::days(730);
        }
        prices.push(list);
    }
    let mut planner = Planner {
        rng,
        today,
        plan: Plan {
            staff,
            prices,
            sms_bands: vec![(10, 25_000), (50, 22_000), (100, 20_000)],
            clients: vec![],
            subs: vec![],
            docs: vec![],
            payments: vec![],
        },
    };
    for n in 0..options.clients {
        planner.client(n, start, staff);
    }
    for c in 0..options.clients {
        planner.subscriptions(c);
        planner.documents(c);
    }
    planner.plan
}

/// "KADAKKAL" → "Kadakkal".
fn title_case(s: &str) -> String {
    s.split(' ')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map_or(String::new(), |f| f.to_string() + &c.as_str().to_lowercase())
        })
        .collect::<Vec<_>>()
        .join(" ")
}
