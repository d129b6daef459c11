//! What is set up, as the signed-in user may see it: whether public links have an address,
//! whether mail can go out, and for the owner the first-run checklist.

use crate::auth::Role;
use crate::auth::session::AuthUser;
use crate::company::{self, letterhead};
use crate::documents::shares;
use crate::email;
use crate::plumbing::config::Config;
use crate::plumbing::error::AppError;
use crate::staff::store as staff_store;
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

/// One step of the first-run checklist.
#[derive(Debug, Serialize, ToSchema)]
pub struct SetupItem {
    /// `company_profile`, `gstin_state`, `public_address`, `mail`, `upi_id`, `logo`, `first_staff`.
    pub key: &'static str,
    pub label: &'static str,
    pub done: bool,
    /// The console page where it is done.
    pub href: &'static str,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Setup {
    /// share.base_url or the server's `--base-url` is set: public links carry that address.
    pub public_address_set: bool,
    /// A mail provider is configured (its address, sender and token): documents can be emailed.
    pub mail_set: bool,
    /// The owner's first-run checklist, in order; null for everyone else.
    pub checklist: Option<Vec<SetupItem>>,
    /// Every step of the checklist is done (null for everyone but the owner).
    pub complete: Option<bool>,
}

fn filled(text: Option<&str>) -> bool {
    text.is_some_and(|t| !t.trim().is_empty())
}

/// What is set up, as `user` may see it.
pub fn setup(conn: &Connection, config: &Config, user: &AuthUser) -> Result<Setup, AppError> {
    let public_address_set = shares::base_url(conn, config)?.is_some();
    let mail_set = email::config(conn).is_ok();
    if user.role != Role::Owner {
        return Ok(Setup {
            public_address_set,
            mail_set,
            checklist: None,
            complete: None,
        });
    }
    let profile = company::profile(conn)?;
    let items = vec![
        SetupItem {
            key: "company_profile",
            label: "Company name and address",
            done: filled(Some(&profile.name)) && filled(Some(&profile.address)),
            href: "/settings/company",
        },
        SetupItem {
            key: "gstin_state",
            label: "GSTIN and state",
            done: filled(profile.gstin.as_deref()) && filled(profile.state_code.as_deref()),
            href: "/settings/company",
        },
        SetupItem {
            key: "public_address",
            label: "Public address of shared links",
            done: public_address_set,
            href: "/settings/template#public-links",
        },
        SetupItem {
            key: "mail",
            label: "Mail provider",
            done: mail_set,
            href: "/settings/mail",
        },
        SetupItem {
            key: "upi_id",
            label: "UPI ID for payments",
            done: filled(profile.upi_id.as_deref()),
            href: "/settings/company",
        },
        SetupItem {
            key: "logo",
            label: "Letterhead logo",
            done: letterhead::logo(conn)?.is_some(),
            href: "/settings/template",
        },
        SetupItem {
            key: "first_staff",
            label: "First staff member",
            done: staff_store::active_besides_owners(conn)? > 0,
            href: "/employees",
        },
    ];
    let complete = items.iter().all(|i| i.done);
    Ok(Setup {
        public_address_set,
        mail_set,
        checklist: Some(items),
        complete: Some(complete),
    })
}
