//! A mixed office day: 16 clients, each request drawn at random (a fixed seed per client) from
//! the reads of the table (85 %) and the writes (15 %: create a draft invoice, issue a draft,
//! record a payment).

use crate::http::{Client, Work};
use crate::reads::{Fixture, PathOf, ReadScenario};
use crate::writes::{create_draft, payment_body};
use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Weights out of 100, by scenario name prefix for the reads.
const READS: &[(&str, u64)] = &[
    ("client list", 10),
    ("documents, page 1 ", 14),
    ("documents, page 1000", 4),
    ("documents q by number", 8),
    ("documents q by client name", 8),
    ("one document", 16),
    ("module roster", 5),
    ("projects board", 5),
    ("projects stalled", 2),
    ("audit", 3),
    ("dues aging", 3),
    ("GST summary", 3),
    ("invoice PDF, one page", 4),
];
const DRAFT: u64 = 5;
const ISSUE: u64 = 5;
const PAYMENT: u64 = 5;

thread_local! {
    static DRAFTS: RefCell<Vec<String>> = const { RefCell::new(vec![]) };
}

/// One request of the day; `writes_done` counts the writes.
pub fn office_day(f: &Fixture, reads: &[ReadScenario], writes_done: Arc<AtomicUsize>) -> Work {
    let weighted: Vec<(u64, PathOf, String)> = READS
        .iter()
        .map(|(prefix, w)| {
            let s = reads
                .iter()
                .find(|s| s.name.starts_with(prefix))
                .unwrap_or_else(|| panic!("no read scenario {prefix}"));
            (*w, s.path.clone(), s.cookie.clone())
        })
        .collect();
    let read_weight: u64 = weighted.iter().map(|w| w.0).sum();
    assert_eq!(read_weight + DRAFT + ISSUE + PAYMENT, 100);
    let (manager, clients, module) = (
        f.manager.clone(),
        Arc::new(f.clients.clone()),
        f.priced_module.clone(),
    );
    let (owing, today) = (Arc::new(f.owing.clone()), f.today.to_string());
    let next = Arc::new(AtomicUsize::new(7919));
    Arc::new(move |c: &mut Client, thread: usize, i: usize| {
        let mut rng = backoffice::demo::Rng::new((thread as u64) << 32 | i as u64);
        let mut pick = rng.below(100);
        if pick < read_weight {
            for (w, path, cookie) in &weighted {
                if pick < *w {
                    c.get(&path(rng.below(1 << 20) as usize), cookie);
                    return;
                }
                pick -= w;
            }
        }
        writes_done.fetch_add(1, Ordering::Relaxed);
        let n = next.fetch_add(1, Ordering::Relaxed);
        pick -= read_weight;
        if (DRAFT..DRAFT + ISSUE).contains(&pick)
            && let Some(draft) = DRAFTS.with(|d| d.borrow_mut().pop())
        {
            c.post(&format!("/api/documents/{draft}/issue"), &manager, "", 200);
            return;
        }
        if pick < DRAFT + ISSUE {
            let id = create_draft(c, &manager, &clients[n % clients.len()], &module);
            DRAFTS.with(|d| d.borrow_mut().push(id));
        } else {
            let (client, invoice) = &owing[n % owing.len()];
            c.post(
                "/api/payments",
                &manager,
                &payment_body(client, invoice, &today),
                201,
            );
        }
    })
}
