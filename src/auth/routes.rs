//! Sign-in, sign-out, one's own profile and password, and the owner's login history.

use crate::auth::Role;
use crate::auth::profile::{self, ProfilePatch};
use crate::auth::rules::Outcome;
use crate::auth::rules::{self, Verdict};
use crate::auth::session::{AuthUser, Owner, SESSION_COOKIE};
use crate::auth::signin;
use crate::auth::store::{self, LoginEvent, LoginEventFilter};
use crate::plumbing::clock;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, Checks, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::{ClientInfo, JsonBody, QueryParams};
use crate::staff::store::{self as staff_store, Employee};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(login))
        .routes(routes!(logout))
        .routes(routes!(get_me, patch_me))
        .routes(routes!(change_password))
        .routes(routes!(login_events))
        .routes(routes!(login_events_csv))
}

#[derive(Deserialize, ToSchema)]
pub struct LoginRequest {
    /// A username, or an email as the legacy fallback (`email` is accepted as the key too).
    #[serde(alias = "email")]
    pub username: String,
    pub password: String,
}

#[derive(Serialize, ToSchema)]
pub struct LoginResponse {
    /// Always "success" here; failures answer the error body with their outcome.
    pub outcome: &'static str,
    /// True while the user is on a password somebody else chose: the console sends them to the profile.
    #[serde(rename = "mustChangePassword")]
    pub must_change_password: bool,
    pub user: UserSummary,
}

#[derive(Serialize, ToSchema)]
pub struct UserSummary {
    pub id: String,
    pub username: String,
    pub email: String,
    pub name: String,
    pub role: Role,
}

/// Sign in with a username (or email) and password; sets the `bo_session` cookie.
#[utoipa::path(post, path = "/api/auth/login", tag = "auth", security(()),
    request_body = LoginRequest,
    responses(
        (status = 200, description = "Signed in; the session cookie is set", body = LoginResponse),
        (status = 401, description = "Wrong credentials (`invalid_credentials`) or a deactivated account (`inactive`)", body = ErrorBody),
        (status = 423, description = "The account is locked", body = ErrorBody),
        (status = 429, description = "Too many attempts from this address or for this name", body = ErrorBody),
    ))]
async fn login(
    State(state): State<AppState>,
    client: ClientInfo,
    JsonBody(req): JsonBody<LoginRequest>,
) -> Result<Response, AppError> {
    let identifier = req.username.trim().to_string();
    if identifier.is_empty() {
        return Err(AppError::invalid(
            "username",
            "required",
            "Enter your username or email.",
        ));
    }
    if req.password.chars().count() > rules::MAX_PASSWORD_LEN {
        return Err(AppError::invalid(
            "password",
            "too_long",
            "That password is longer than any account has.",
        ));
    }
    signin::pass_limiters(&state, &client, &identifier).await?;

    let lookup = identifier.clone();
    let candidate = state.db.read(move |c| store::find_for_login(c, &lookup)).await?;
    let now = clock::now();
    let password = req.password;
    let (staff_id, verdict, must_change_password) = match candidate {
        None => {
            // Same cost as a real check, so timing does not tell which names exist.
            state
                .hashing(move || rules::verify_against_dummy(&password))
                .await?;
            (None, Verdict::Failed, false)
        }
        Some(account) => match account.locked_until.filter(|until| *until > now) {
            Some(until) => (Some(account.id), Verdict::Locked(until), false),
            None => {
                let phc = account.password_hash;
                let matches = state
                    .hashing(move || rules::verify_password(&password, &phc))
                    .await?;
                let verdict = Verdict::of_check(matches, account.active);
                (Some(account.id), verdict, account.must_change_password)
            }
        },
    };

    let (ip, agent) = (client.ip.clone(), client.user_agent.clone());
    let written = state
        .db
        .write(move |tx| {
            signin::record_in(
                tx,
                &verdict,
                staff_id.as_deref(),
                &identifier,
                &ip,
                agent.as_deref(),
                now,
            )
        })
        .await;

    match (verdict, written) {
        (Verdict::Success, Ok(Some((token, employee)))) => {
            let body = LoginResponse {
                outcome: Outcome::Success.as_str(),
                must_change_password,
                user: UserSummary {
                    id: employee.id,
                    username: employee.username,
                    email: employee.email,
                    name: employee.name,
                    role: employee.role,
                },
            };
            let mut response = Json(body).into_response();
            response
                .headers_mut()
                .insert(header::SET_COOKIE, session_cookie(&token, client.https));
            Ok(response)
        }
        // The session or the failure counter could not be stored: that is a real error.
        (Verdict::Success | Verdict::WrongPassword, Err(e)) => Err(e),
        (verdict, written) => {
            if let Err(e) = written {
                tracing::warn!(error = %e, "login event not written");
            }
            Err(verdict.refusal())
        }
    }
}

fn session_cookie(token: &str, secure: bool) -> HeaderValue {
    let max_age = rules::SESSION_MAX_DAYS * 24 * 3600;
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{SESSION_COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/; Max-Age={max_age}{secure}"
    ))
    .expect("a hex token is a valid header value")
}

/// End the current session.
#[utoipa::path(post, path = "/api/auth/logout", tag = "auth",
    responses((status = 204, description = "Signed out; the cookie is cleared"), (status = 401, body = ErrorBody)))]
async fn logout(State(state): State<AppState>, user: AuthUser) -> Result<Response, AppError> {
    state
        .db
        .write(move |tx| store::delete_session(tx, &user.session_id))
        .await?;
    let mut response = StatusCode::NO_CONTENT.into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static("bo_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0"),
    );
    Ok(response)
}

/// The signed-in user's own profile.
#[utoipa::path(get, path = "/api/me", tag = "auth",
    responses((status = 200, body = Employee), (status = 401, body = ErrorBody)))]
async fn get_me(State(state): State<AppState>, user: AuthUser) -> Result<Json<Employee>, AppError> {
    let me = state.db.read(move |c| staff_store::get(c, &user.id)).await?;
    me.map(Json).ok_or_else(AppError::unauthorized)
}

/// Change one's own name, phone or title. Role and email are refused (422).
#[utoipa::path(patch, path = "/api/me", tag = "auth", request_body = ProfilePatch,
    responses((status = 200, body = Employee), (status = 422, description = "An invalid or read-only field", body = ErrorBody)))]
async fn patch_me(
    State(state): State<AppState>,
    user: AuthUser,
    JsonBody(patch): JsonBody<ProfilePatch>,
) -> Result<Json<Employee>, AppError> {
    let changes = profile::changes(patch)?;
    let updated = state
        .db
        .write(move |tx| profile::update_in(tx, &user, changes))
        .await?;
    Ok(Json(updated))
}

#[derive(Deserialize, ToSchema)]
pub struct PasswordChange {
    pub current_password: String,
    pub new_password: String,
}

/// Change one's own password. The current one is required; every other session of the user ends.
#[utoipa::path(post, path = "/api/me/password", tag = "auth", request_body = PasswordChange,
    responses((status = 204, description = "Changed; other sessions ended"),
              (status = 422, description = "Wrong current password (`wrong_password` on `current_password`) or a weak new one; both at once in `errors` when both", body = ErrorBody),
              (status = 423, description = "The account is locked, or this wrong current password locked it", body = ErrorBody),
              (status = 429, description = "Too many sign-in attempts from this address or for this account", body = ErrorBody)))]
async fn change_password(
    State(state): State<AppState>,
    user: AuthUser,
    client: ClientInfo,
    JsonBody(req): JsonBody<PasswordChange>,
) -> Result<StatusCode, AppError> {
    let id = user.id.clone();
    let me = state
        .db
        .read(move |c| staff_store::get(c, &id))
        .await?
        .ok_or_else(AppError::unauthorized)?;
    let known = [me.name.as_str(), me.email.as_str(), me.username.as_str()];
    let new_problem = if let Some(problem) = rules::password_problem(&req.new_password, &known) {
        Some(AppError::invalid("new_password", "weak_password", problem))
    } else {
        (req.new_password == req.current_password).then(|| {
            AppError::invalid(
                "new_password",
                "same_password",
                "Choose a password different from the current one.",
            )
        })
    };
    // Both fields are answered at once, in the form's order; a lock or a limit answers alone.
    let mut checks = Checks::default();
    match signin::check_current_password(&state, &user.id, &client, req.current_password).await {
        Err(e) if e.status == StatusCode::UNPROCESSABLE_ENTITY => checks.fail(e),
        other => other?,
    }
    if let Some(e) = new_problem {
        checks.fail(e);
    }
    checks.done()?;
    let new = req.new_password;
    let new_hash = state.hashing(move || rules::hash_password(&new)).await?;
    state
        .db
        .write(move |tx| profile::set_password_in(tx, &user, &new_hash))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LoginEventQuery {
    pub staff_id: Option<String>,
    /// success, failed, locked or limited.
    pub outcome: Option<String>,
    /// First day, inclusive (YYYY-MM-DD, UTC).
    pub from: Option<NaiveDate>,
    /// Last day, inclusive (YYYY-MM-DD, UTC).
    pub to: Option<NaiveDate>,
}

/// The login history, newest first (owner).
#[utoipa::path(get, path = "/api/login-events", tag = "auth", params(Page, LoginEventQuery),
    responses((status = 200, body = Paginated<LoginEvent>), (status = 403, body = ErrorBody)))]
async fn login_events(
    State(state): State<AppState>,
    _owner: Owner,
    page: Page,
    QueryParams(q): QueryParams<LoginEventQuery>,
) -> Result<Json<Paginated<LoginEvent>>, AppError> {
    let events = state
        .db
        .read(move |c| q.filter(c).map(store::list_login_events)?.page(c, &page))
        .await?;
    Ok(Json(events))
}

impl LoginEventQuery {
    /// The dates are office days; the stored times are UTC.
    fn filter(self, c: &rusqlite::Connection) -> Result<LoginEventFilter, AppError> {
        let (from, to) = clock::office_days(self.from, self.to, settings::office_offset(c)?);
        Ok(LoginEventFilter {
            staff_id: self.staff_id,
            outcome: self.outcome,
            from,
            to,
        })
    }
}

const LOGIN_CSV: &[&str] = &["Time", "User", "Outcome", "IP address", "Device", "Attempts"];

fn login_cells(e: &LoginEvent) -> Vec<String> {
    vec![
        e.at.clone(),
        e.username.clone(),
        e.outcome.clone(),
        e.ip.clone().unwrap_or_default(),
        e.device.clone(),
        e.attempts.to_string(),
    ]
}

/// The whole filtered login history as CSV (owner).
#[utoipa::path(get, path = "/api/login-events.csv", tag = "auth", params(Page, LoginEventQuery),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered history"),
              (status = 403, body = ErrorBody)))]
async fn login_events_csv(
    State(state): State<AppState>,
    _owner: Owner,
    page: Page,
    QueryParams(q): QueryParams<LoginEventQuery>,
) -> Result<Response, AppError> {
    let list = move |c: &rusqlite::Connection| q.filter(c).map(store::list_login_events);
    csv::stream(
        &state.db,
        "login-history.csv".into(),
        LOGIN_CSV,
        page.sort,
        list,
        login_cells,
    )
    .await
}
