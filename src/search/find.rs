//! The one read behind the search box: [`search`] answers the four groups, each with its
//! `capped` flag; the types of the answer live here beside it.

use super::rules::{self, Groups};
use super::store::{self, ClientHit, DocumentHit, PaymentHit, TicketHit};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

/// Clients found; `capped` when there are more than `rows`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClientHits {
    pub rows: Vec<ClientHit>,
    pub capped: bool,
}

/// Documents found; `capped` when there are more than `rows`.
#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentHits {
    pub rows: Vec<DocumentHit>,
    pub capped: bool,
}

/// Tickets found; `capped` when there are more than `rows`.
#[derive(Debug, Serialize, ToSchema)]
pub struct TicketHits {
    pub rows: Vec<TicketHit>,
    pub capped: bool,
}

/// Payments found; `capped` when there are more than `rows`.
#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentHits {
    pub rows: Vec<PaymentHit>,
    pub capped: bool,
}

/// The answer of `GET /api/search` (decisions 11, 12).
#[derive(Debug, Serialize, ToSchema)]
pub struct SearchResults {
    pub clients: ClientHits,
    pub documents: DocumentHits,
    pub tickets: TicketHits,
    pub payments: PaymentHits,
}

impl SearchResults {
    fn empty() -> Self {
        SearchResults {
            clients: ClientHits {
                rows: vec![],
                capped: false,
            },
            documents: DocumentHits {
                rows: vec![],
                capped: false,
            },
            tickets: TicketHits {
                rows: vec![],
                capped: false,
            },
            payments: PaymentHits {
                rows: vec![],
                capped: false,
            },
        }
    }
}

/// How many clients' documents a name search looks through: the documents group shows a few
/// hits, and the clients group names the clients themselves.
const NAMED_CLIENTS: usize = rules::LOOKED_FOR;

/// Searches `q` as typed (trimmed; under two characters: four empty groups; over 100: 400)
/// in `groups`, within `book` (a staff user's id; None: every book).
pub fn search(
    conn: &Connection,
    q: Option<&str>,
    groups: Groups,
    book: Option<&str>,
) -> Result<SearchResults, AppError> {
    let Some(q) = rules::text(q)? else {
        return Ok(SearchResults::empty());
    };
    let (clients, clients_capped) = match groups.clients {
        true => rules::shown(clients(conn, &q, book)?),
        false => (vec![], false),
    };
    let (documents, documents_capped) = match groups.documents {
        true => documents(conn, &q, book, settings::office_today(conn)?)?,
        false => (vec![], false),
    };
    let (payments, payments_capped) = match groups.payments {
        true => rules::shown(store::payments(conn, &q, book)?),
        false => (vec![], false),
    };
    let (tickets, tickets_capped) = match groups.tickets {
        true => rules::shown(store::tickets(conn, &q, book)?),
        false => (vec![], false),
    };
    Ok(SearchResults {
        clients: ClientHits {
            rows: clients,
            capped: clients_capped,
        },
        documents: DocumentHits {
            rows: documents,
            capped: documents_capped,
        },
        tickets: TicketHits {
            rows: tickets,
            capped: tickets_capped,
        },
        payments: PaymentHits {
            rows: payments,
            capped: payments_capped,
        },
    })
}

/// Clients by name, GSTIN, district or remote access id; then, when the text is a phone
/// number, those whose phone holds it, each client once.
fn clients(conn: &Connection, q: &str, book: Option<&str>) -> Result<Vec<ClientHit>, AppError> {
    let mut hits = store::clients(conn, q, book)?;
    if let Some(digits) = rules::phone_query(q)
        && hits.len() < rules::LOOKED_FOR
    {
        for hit in store::clients_by_phone(conn, &digits, book)? {
            if hits.len() < rules::LOOKED_FOR && !hits.iter().any(|h| h.id == hit.id) {
                hits.push(hit);
            }
        }
    }
    Ok(hits)
}

/// Number matches first, then the newest documents of the clients the name matches (the
/// first [`NAMED_CLIENTS`] of them, in the order of what follows the text in their names), each
/// document once. A client past those with a document of its own caps the group too: there is
/// more to see than the group shows.
fn documents(
    conn: &Connection,
    q: &str,
    book: Option<&str>,
    today: chrono::NaiveDate,
) -> Result<(Vec<DocumentHit>, bool), AppError> {
    let mut hits = store::documents_by_number(conn, q, book, today)?;
    let mut more = false;
    if hits.len() < rules::LOOKED_FOR {
        let (named, more_clients) = store::clients_named(conn, q, book, NAMED_CLIENTS)?;
        if !named.is_empty() {
            for hit in store::documents_of(conn, &named, today)? {
                if !hits.iter().any(|h| h.id == hit.id) {
                    hits.push(hit);
                }
            }
        }
        more = more_clients
            && hits.len() < rules::LOOKED_FOR
            && store::more_documents_named(conn, q, book, &named)?;
    }
    let (shown, capped) = rules::shown(hits);
    Ok((shown, capped || more))
}
