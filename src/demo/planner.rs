//! The planner of a demo office's history: the clients (names, places, GSTINs, people) and their
//! subscriptions, then each client's documents and payments (`billing`), into a `history::Plan`.

use crate::demo::history::{Client, LEAD, Plan, Sub, checklist};
use crate::demo::names::{FIRST, KINDS, LAST, MALAYALAM_PLACES, MODULES, PLACES};
use crate::demo::{Options, Rng};
use chrono::{Duration, NaiveDate};

pub(super) struct Planner<'a> {
    pub(super) rng: &'a mut Rng,
    pub(super) today: NaiveDate,
    pub(super) plan: Plan,
}

impl Planner<'_> {
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
