//! The signed-in user of a request: the `bo_session` cookie looked up, expired sessions ended,
//! the last-seen time kept, and the role gates `AuthUser`, `Manager`, `Owner`, so that a
//! handler's signature shows who may call it (decisions 4).

use crate::auth::{self, Role};
use crate::plumbing::clock;
use crate::plumbing::error::AppError;
use crate::state::AppState;
use axum::extract::FromRequestParts;
use axum::http::StatusCode;
use axum::http::request::Parts;

/// Any signed-in user.
#[derive(Debug, Clone)]
pub struct AuthUser {
    pub id: String,
    pub role: Role,
    pub session_id: String,
}

impl AuthUser {
    pub fn is_managerial(&self) -> bool {
        matches!(self.role, Role::Owner | Role::Manager)
    }
}

/// The name of the session cookie.
pub const SESSION_COOKIE: &str = "bo_session";

fn session_token(parts: &Parts) -> Option<String> {
    parts
        .headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value.to_string())
}

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        if let Some(user) = parts.extensions.get::<AuthUser>() {
            return Ok(user.clone());
        }
        let token = session_token(parts).ok_or_else(AppError::unauthorized)?;
        let hash = auth::rules::hash_token(&token);
        let session = state
            .db
            .read(move |c| auth::store::session_by_hash(c, &hash))
            .await?;
        let session = session.ok_or_else(AppError::unauthorized)?;
        let now = clock::now();
        let alive = matches!(
            (clock::parse_timestamp(&session.last_seen_at), clock::parse_timestamp(&session.expires_at)),
            (Some(seen), Some(expires)) if auth::rules::session_alive(seen, expires, now)
        );
        if !alive {
            let id = session.id.clone();
            state
                .db
                .write(move |tx| auth::store::delete_session(tx, &id))
                .await?;
            return Err(AppError::new(
                StatusCode::UNAUTHORIZED,
                "session_expired",
                "Your session has expired. Please sign in again.",
            ));
        }
        if clock::parse_timestamp(&session.last_seen_at)
            .is_some_and(|seen| now - seen > chrono::Duration::seconds(60))
        {
            // Recorded without waiting: a request is not held behind a long write (an import's
            // commit holds the writer for seconds) for a time stamp that only needs to be within
            // the 12-hour idle limit; a touch that fails is made by the next request.
            let id = session.id.clone();
            let db = state.db.clone();
            tokio::spawn(async move {
                if let Err(e) = db.write(move |tx| auth::store::touch_session(tx, &id)).await {
                    tracing::warn!(error = %e, "a session's last-seen time was not recorded");
                }
            });
        }
        let user = AuthUser {
            id: session.staff_id,
            role: session.role,
            session_id: session.id,
        };
        parts.extensions.insert(user.clone());
        Ok(user)
    }
}

/// An owner or a manager.
pub struct Manager(pub AuthUser);

impl FromRequestParts<AppState> for Manager {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let user = AuthUser::from_request_parts(parts, state).await?;
        if user.is_managerial() {
            Ok(Manager(user))
        } else {
            Err(AppError::forbidden())
        }
    }
}

/// The owner.
pub struct Owner(pub AuthUser);

impl FromRequestParts<AppState> for Owner {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let user = AuthUser::from_request_parts(parts, state).await?;
        if user.role == Role::Owner {
            Ok(Owner(user))
        } else {
            Err(AppError::forbidden())
        }
    }
}
