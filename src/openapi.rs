//! The OpenAPI description served at `/api/openapi.json`: its frame ([`ApiDoc`], the session
//! cookie scheme) and [`PlumbingStatuses`], which documents the answers that follow from the
//! plumbing every route goes through (extractors, the CSRF and body-limit layers), so that each
//! operation lists every status it can answer, each with the error body of decisions 3.
//!
//! The statuses that belong to one route (a 409 state refusal, a 422 validation, a 502 from the
//! upstream, the role behind a 403 on a read, a 204) are in that route's own `responses(...)`.

use crate::auth::session::SESSION_COOKIE;
use crate::plumbing::error::{ErrorBody, ErrorDetail};
use utoipa::openapi::content::Content;
use utoipa::openapi::header::Header;
use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::response::Response;
use utoipa::openapi::schema::{Object, Ref, Type};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{OpenApi as Document, RefOr};
use utoipa::{Modify, OpenApi};

/// The document's frame; the areas' routers add the paths (`crate::app`), then
/// [`PlumbingStatuses`] completes every operation.
#[derive(OpenApi)]
#[openapi(
    info(title = "Back office API", description = "JSON API of the back office. Money is integer paise; dates are YYYY-MM-DD; timestamps RFC 3339 UTC. Errors are `{ error: { code, message, field? } }`."),
    modifiers(&SessionCookie),
    security(("session" = [])),
    components(schemas(ErrorBody, ErrorDetail)),
)]
pub struct ApiDoc;

/// The `session` security scheme: the `bo_session` cookie.
struct SessionCookie;

impl Modify for SessionCookie {
    fn modify(&self, openapi: &mut Document) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "session",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::new(SESSION_COOKIE))),
        );
    }
}

/// Operations whose handler answers every failure of its own (a missing record, a bad body)
/// with 400, as the spec asks of the milestone routes (spec 4.4, 7): they get no 404, 413 or 422.
pub const FAILURES_AS_400: &[(&str, &str)] = &[
    ("get", "/api/client-modules/{id}/milestones"),
    ("post", "/api/client-modules/{id}/milestones"),
];

/// Adds to every operation of the whole document the statuses that its shape implies, each with
/// the [`ErrorBody`] schema and a description; a status the route lists itself keeps its
/// description, and the plumbing's reason is appended to it. The rules:
///
/// | status | on operations that | because |
/// |---|---|---|
/// | 400 | take a query, a path parameter or a JSON body | `QueryParams`/`Page`, `IdPath`, `JsonBody` refuse malformed input |
/// | 401 | carry the `session` security requirement | `AuthUser` (and so `Manager`, `Owner`) |
/// | 403 | are POST, PUT, PATCH or DELETE | the CSRF layer refuses a foreign `Origin` |
/// | 404 | name a record in the path (`{id}`, `{..._id}`) | no such record, or one outside a staff user's book |
/// | 413 | take a request body | the body limit |
/// | 415 | are POST, PUT, PATCH or DELETE | the CSRF layer wants a JSON content type |
/// | 422 | take a JSON body | `JsonBody` refuses a well-formed body with a wrong value |
/// | 500 | answer any error body | an unexpected failure (the detail goes to the log only) |
/// | 503 | are secured or change state | the writer's queue is full (a signed-in read may write: the session's last-seen time) |
///
/// A role gate's 403 is the route's own entry (on a write, the CSRF reason is appended to it);
/// a 429 and a 503 get their `Retry-After` header; an error entry without a description gets the usual one.
pub struct PlumbingStatuses;

impl Modify for PlumbingStatuses {
    fn modify(&self, openapi: &mut Document) {
        for (path, item) in openapi.paths.paths.iter_mut() {
            let shared = item.parameters.clone().unwrap_or_default();
            let operations = [
                ("get", &mut item.get),
                ("put", &mut item.put),
                ("post", &mut item.post),
                ("delete", &mut item.delete),
                ("patch", &mut item.patch),
                ("options", &mut item.options),
                ("head", &mut item.head),
                ("trace", &mut item.trace),
            ];
            for (method, operation) in operations {
                if let Some(operation) = operation {
                    let facts = Facts::of(method, path, operation, &shared);
                    complete(operation, &facts);
                }
            }
        }
    }
}

/// What the document says about one operation, as far as the plumbing cares.
struct Facts {
    query: bool,
    path_params: bool,
    /// A path parameter that names a record.
    record_in_path: bool,
    json_body: bool,
    any_body: bool,
    multipart_body: bool,
    changes_state: bool,
    secured: bool,
    folds_into_400: bool,
}

impl Facts {
    fn of(method: &str, path: &str, op: &Operation, shared: &[utoipa::openapi::path::Parameter]) -> Facts {
        let params: Vec<_> = shared.iter().chain(op.parameters.iter().flatten()).collect();
        let path_params: Vec<&str> = params
            .iter()
            .filter(|p| p.parameter_in == ParameterIn::Path)
            .map(|p| p.name.as_str())
            .collect();
        let body_types: Vec<&str> = op
            .request_body
            .iter()
            .flat_map(|b| b.content.keys())
            .map(String::as_str)
            .collect();
        // No `security` of its own inherits the document's (the session); `security(())` is public.
        let secured = op
            .security
            .as_ref()
            .is_none_or(|reqs| reqs.iter().any(|r| *r != SecurityRequirement::default()));
        Facts {
            query: params.iter().any(|p| p.parameter_in == ParameterIn::Query),
            path_params: !path_params.is_empty(),
            record_in_path: path_params.iter().any(|n| *n == "id" || n.ends_with("_id")),
            json_body: body_types.iter().any(|t| t.starts_with("application/json")),
            any_body: !body_types.is_empty(),
            multipart_body: body_types.iter().any(|t| t.starts_with("multipart/")),
            changes_state: matches!(method, "post" | "put" | "patch" | "delete"),
            secured,
            folds_into_400: FAILURES_AS_400.contains(&(method, path)),
        }
    }
}

fn complete(op: &mut Operation, f: &Facts) {
    let mut malformed = vec![];
    if f.query {
        malformed
            .push("a query parameter that is not valid or out of range (`invalid_query`, `field` names it)");
    }
    if f.path_params {
        malformed.push("a path segment that is not valid text (`invalid_path`)");
    }
    if f.json_body {
        malformed.push("a body that is not JSON (`malformed_json`)");
    }
    if !malformed.is_empty() {
        let reason = format!("Malformed request: {}.", malformed.join("; "));
        add(op, 400, &reason);
    }
    if f.secured {
        add(
            op,
            401,
            "Not signed in, or the session has expired (`unauthenticated`, `session_expired`).",
        );
    }
    if f.changes_state {
        add(
            op,
            403,
            "The request came from another site: its `Origin` does not match the `Host` (`cross_origin`).",
        );
    }
    if f.record_in_path && !f.folds_into_400 {
        add(
            op,
            404,
            "No such record; a record outside a staff user's book answers the same (`not_found`).",
        );
    }
    if f.any_body && !f.folds_into_400 {
        add(op, 413, "The request body is too large (`body_too_large`).");
    }
    if f.changes_state {
        let wanted = if f.multipart_body {
            "`Content-Type: multipart/form-data` with its boundary"
        } else {
            "`Content-Type: application/json`"
        };
        add(
            op,
            415,
            &format!("The request does not carry {wanted} (`unsupported_media_type`)."),
        );
    }
    if f.json_body && !f.folds_into_400 {
        add(
            op,
            422,
            "The body is JSON but holds a wrong or missing value (`invalid_value`, `field` names it).",
        );
    }
    let answers_errors = op
        .responses
        .responses
        .values()
        .any(|r| matches!(r, RefOr::T(r) if has_error_body(r)));
    if answers_errors {
        add(
            op,
            500,
            "An unexpected failure on the server (`internal`): the message is generic, the detail goes to the log.",
        );
    }
    if f.secured || f.changes_state {
        add(
            op,
            503,
            "The server is busy: too many writes are waiting for the data file (`busy`); `Retry-After` says when to try again.",
        );
    }
    for (status, response) in op.responses.responses.iter_mut() {
        let RefOr::T(response) = response else { continue };
        if status.starts_with('4') || status.starts_with('5') {
            if response.content.is_empty() {
                response
                    .content
                    .insert("application/json".into(), error_content());
            }
            if response.description.is_empty()
                && let Some(default) = default_description(status)
            {
                response.description = default.into();
            }
        }
        if (status == "429" || status == "503" && has_error_body(response))
            && !response.headers.contains_key("Retry-After")
        {
            let mut header = Header::new(Object::with_type(Type::Integer));
            header.description = Some("Seconds until a new attempt may succeed.".into());
            response.headers.insert("Retry-After".into(), header);
        }
    }
}

/// Adds `status` with the error body, or appends `reason` to the route's own entry.
fn add(op: &mut Operation, status: u16, reason: &str) {
    let key = status.to_string();
    match op.responses.responses.get_mut(&key) {
        Some(RefOr::T(existing)) => {
            let own = existing.description.trim().trim_end_matches('.').to_string();
            if own.is_empty() {
                // A route's bare 403 is its role gate; the other statuses mean what the plumbing says.
                existing.description = match (key.as_str(), default_description(&key)) {
                    ("403", Some(role)) => format!("{role} Or: {reason}"),
                    _ => reason.into(),
                };
            } else if !existing.description.contains(reason) {
                existing.description = format!("{own}. Or: {reason}");
            }
            if existing.content.is_empty() {
                existing
                    .content
                    .insert("application/json".into(), error_content());
            }
        }
        Some(RefOr::Ref(_)) => {}
        None => {
            let mut response = Response::new(reason);
            response
                .content
                .insert("application/json".into(), error_content());
            op.responses.responses.insert(key, RefOr::T(response));
        }
    }
}

fn error_content() -> Content {
    Content::new(Some(Ref::from_schema_name("ErrorBody")))
}

fn has_error_body(response: &Response) -> bool {
    response.content.values().any(
        |c| matches!(&c.schema, Some(RefOr::Ref(r)) if r.ref_location == "#/components/schemas/ErrorBody"),
    )
}

/// The sentence for a route's own error entry that came without one.
fn default_description(status: &str) -> Option<&'static str> {
    Some(match status {
        "400" => "The request is not valid.",
        "401" => "Not signed in, or the session has expired.",
        "403" => "Signed in, but the role does not allow this (`forbidden`).",
        "404" => {
            "A record the request names does not exist, or is outside a staff user's book (`not_found`)."
        }
        "409" => {
            "Refused by the current state: a duplicate, or a state that does not allow this (`error.code` says which)."
        }
        "413" => "The request body is too large.",
        "422" => "A value in the body is not valid; `field` names it.",
        "423" => "The account is locked.",
        "429" => "A rate limiter tripped; `Retry-After` says how many seconds to wait.",
        "502" => "The upstream service failed.",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    //! The served document is checked twice: for the facts the rules promise, and against the
    //! real router, in-process, by requests that each plumbing rule is about.

    use super::{FAILURES_AS_400, default_description};
    use crate::app;
    use crate::auth::{Role, store as auth_store};
    use crate::plumbing::config::Config;
    use crate::setup::first_start::bootstrap;
    use crate::staff::store::{self as staff_store, NewEmployee};
    use crate::state::AppState;
    use axum::body::Body;
    use axum::http::{Request, StatusCode, header};
    use http_body_util::BodyExt;
    use serde_json::Value;
    use tower::ServiceExt;

    const ERROR_BODY: &str = "#/components/schemas/ErrorBody";
    const METHODS: [&str; 5] = ["get", "put", "post", "delete", "patch"];

    struct Op {
        method: String,
        path: String,
        doc: Value,
    }

    impl Op {
        fn name(&self) -> String {
            format!("{} {}", self.method.to_uppercase(), self.path)
        }
        fn lists(&self, status: u16) -> bool {
            self.doc["responses"].get(status.to_string()).is_some()
        }
        fn params_in(&self, place: &str) -> Vec<&Value> {
            self.doc["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|p| p["in"] == place)
                .collect()
        }
        fn body_types(&self) -> Vec<&str> {
            self.doc["requestBody"]["content"]
                .as_object()
                .into_iter()
                .flat_map(|c| c.keys().map(String::as_str))
                .collect()
        }
        fn json_body(&self) -> bool {
            self.body_types().contains(&"application/json")
        }
        fn secured(&self) -> bool {
            // `security: [{}]` is public; no `security` of its own inherits the session.
            self.doc.get("security").is_none_or(|s| {
                s.as_array()
                    .is_some_and(|a| a.iter().any(|r| r != &serde_json::json!({})))
            })
        }
        fn changes_state(&self) -> bool {
            matches!(self.method.as_str(), "post" | "put" | "patch" | "delete")
        }
        fn record_in_path(&self) -> bool {
            self.params_in("path").iter().any(|p| {
                let name = p["name"].as_str().unwrap_or("");
                name == "id" || name.ends_with("_id")
            })
        }
        fn folds_into_400(&self) -> bool {
            FAILURES_AS_400.contains(&(self.method.as_str(), self.path.as_str()))
        }
        /// The path with every parameter replaced by `value`.
        fn url(&self, value: &str) -> String {
            let mut url = String::new();
            for (i, part) in self.path.split(['{', '}']).enumerate() {
                url.push_str(if i % 2 == 1 { value } else { part });
            }
            url
        }
    }

    fn operations(doc: &Value) -> Vec<Op> {
        let mut ops = vec![];
        for (path, item) in doc["paths"].as_object().expect("paths") {
            for method in METHODS {
                if let Some(op) = item.get(method) {
                    ops.push(Op {
                        method: method.into(),
                        path: path.clone(),
                        doc: op.clone(),
                    });
                }
            }
        }
        ops
    }

    struct Harness {
        _dir: tempfile::TempDir,
        router: axum::Router,
        owner: String,
        staff: String,
    }

    struct Answer {
        status: StatusCode,
        json: bool,
        body: Value,
    }

    impl Answer {
        fn code(&self) -> &str {
            self.body["error"]["code"].as_str().unwrap_or("")
        }
    }

    impl Harness {
        fn new() -> Harness {
            let dir = tempfile::TempDir::new().unwrap();
            let config = Config {
                data: dir.path().join("openapi.db"),
                owner_password: Some("the owner's initial password".into()),
                ..Config::default()
            };
            let boot = bootstrap(&config).expect("bootstrap");
            let (owner, staff) = boot
                .db
                .write_blocking(|tx| {
                    let owner_id: String = tx.query_row("SELECT id FROM staff", [], |r| r.get(0))?;
                    let staff = staff_store::insert(
                        tx,
                        NewEmployee {
                            username: "probe".into(),
                            email: "probe@example.com".into(),
                            name: "Probe".into(),
                            role: Role::Staff,
                            phone: None,
                            title: None,
                            password_hash: "unused".into(),
                            must_change_password: false,
                        },
                    )?;
                    Ok((
                        auth_store::start_session(tx, &owner_id, "127.0.0.1", None)?,
                        auth_store::start_session(tx, &staff.id, "127.0.0.1", None)?,
                    ))
                })
                .unwrap();
            let router = app(AppState::new(boot.db, config));
            Harness {
                _dir: dir,
                router,
                owner: format!("bo_session={owner}"),
                staff: format!("bo_session={staff}"),
            }
        }

        async fn call(&self, method: &str, url: &str, headers: &[(&str, &str)], body: Vec<u8>) -> Answer {
            let mut request = Request::builder()
                .method(method.to_uppercase().as_str())
                .uri(url)
                .header(header::HOST, "localhost");
            for (name, value) in headers {
                request = request.header(*name, *value);
            }
            let response = self
                .router
                .clone()
                .oneshot(request.body(Body::from(body)).unwrap())
                .await
                .unwrap();
            let status = response.status();
            let json = response
                .headers()
                .get(header::CONTENT_TYPE)
                .is_some_and(|c| c.as_bytes().starts_with(b"application/json"));
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            Answer {
                status,
                json,
                body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
            }
        }

        async fn document(&self) -> Value {
            let answer = self.call("get", "/api/openapi.json", &[], vec![]).await;
            assert_eq!(answer.status, StatusCode::OK);
            answer.body
        }
    }

    fn error_body(response: &Value) -> bool {
        response["content"]["application/json"]["schema"]["$ref"] == ERROR_BODY
    }

    #[tokio::test]
    async fn every_operation_lists_what_its_plumbing_answers() {
        let harness = Harness::new();
        let doc = harness.document().await;
        let ops = operations(&doc);
        assert!(ops.len() > 100, "{} operations", ops.len());
        for schema in ["ErrorBody", "ErrorDetail"] {
            assert!(doc["components"]["schemas"].get(schema).is_some(), "{schema}");
        }
        for (method, path) in FAILURES_AS_400 {
            assert!(
                ops.iter().any(|op| op.method == *method && op.path == *path),
                "FAILURES_AS_400 names {method} {path}, which the document lacks"
            );
        }
        let mut json_bodies = 0;
        for op in &ops {
            let name = op.name();
            let mut expected: Vec<u16> = vec![];
            if op.json_body() {
                json_bodies += 1;
                expected.extend([400, 415]);
                if !op.folds_into_400() {
                    expected.extend([413, 422]);
                }
            }
            if !op.params_in("query").is_empty() || !op.params_in("path").is_empty() {
                expected.push(400);
            }
            if op.secured() {
                expected.extend([401, 500]);
            }
            if op.changes_state() {
                expected.extend([403, 415, 500]);
            }
            if op.record_in_path() && !op.folds_into_400() {
                expected.push(404);
            }
            for status in expected {
                let response = &op.doc["responses"][status.to_string()];
                assert!(
                    error_body(response),
                    "{name} lacks {status} with the ErrorBody: {response}"
                );
            }
            if op.folds_into_400() {
                for status in [404, 413, 422] {
                    assert!(!op.lists(status), "{name} folds {status} into 400 but lists it");
                }
            }
            for (status, response) in op.doc["responses"].as_object().unwrap() {
                if status.starts_with('4') || status.starts_with('5') {
                    let description = response["description"].as_str().unwrap_or("");
                    assert!(!description.is_empty(), "{name} {status} has no description");
                    if op.path != "/api/health" {
                        assert!(error_body(response), "{name} {status} is not the ErrorBody");
                    }
                }
                if status == "429" {
                    let retry = &response["headers"]["Retry-After"]["schema"]["type"];
                    assert_eq!(retry, "integer", "{name} 429 without Retry-After");
                }
            }
        }
        assert!(json_bodies > 40, "{json_bodies} operations with a JSON body");
        // Every CSV download has its Excel twin (decisions 12, "Excel"): the same parameters,
        // a workbook for its 200.
        let paths = doc["paths"].as_object().unwrap();
        let csvs: Vec<&String> = paths.keys().filter(|p| p.ends_with(".csv")).collect();
        assert!(csvs.len() >= 30, "{} CSV routes", csvs.len());
        for csv in csvs {
            let twin = format!("{}.xlsx", csv.strip_suffix(".csv").unwrap());
            let (csv_op, twin_op) = (&paths[csv]["get"], &paths[&twin]["get"]);
            assert!(twin_op.is_object(), "{csv} has no twin {twin}");
            assert_eq!(twin_op["parameters"], csv_op["parameters"], "{twin}");
            assert!(
                twin_op["responses"]["200"]["content"][crate::plumbing::http::xlsx::CONTENT_TYPE].is_object(),
                "{twin}: {}",
                twin_op["responses"]["200"]
            );
        }
        // The exact texts a client sees, on one operation of each kind.
        let login = &doc["paths"]["/api/auth/login"]["post"]["responses"];
        assert!(login.get("401").is_some() && login.get("423").is_some());
        assert_eq!(
            login["415"]["description"],
            "The request does not carry `Content-Type: application/json` (`unsupported_media_type`)."
        );
        let logo = &doc["paths"]["/api/settings/template/logo"]["post"]["responses"];
        assert!(
            logo["403"]["description"]
                .as_str()
                .unwrap()
                .starts_with(default_description("403").unwrap())
        );
        assert!(
            logo["415"]["description"]
                .as_str()
                .unwrap()
                .contains("multipart/form-data")
        );
        let health = &doc["paths"]["/api/health"]["get"]["responses"];
        let mut statuses: Vec<&String> = health.as_object().unwrap().keys().collect();
        statuses.sort();
        assert_eq!(
            statuses,
            ["200", "503"],
            "a public read without input answers no error body"
        );
    }

    /// Every answer of a probe is listed for its operation, in the error body's shape.
    fn documented(op: &Op, probe: &str, answer: &Answer) {
        let name = op.name();
        assert!(
            op.lists(answer.status.as_u16()),
            "{name} answered {} to {probe}, which it does not list: {}",
            answer.status,
            answer.body
        );
        assert!(
            answer.json && !answer.code().is_empty(),
            "{name} answered {probe} without the error body: {}",
            answer.body
        );
    }

    #[tokio::test]
    async fn the_router_answers_what_the_document_says() {
        let harness = Harness::new();
        let doc = harness.document().await;
        let (owner, staff) = (harness.owner.as_str(), harness.staff.as_str());
        let json = (header::CONTENT_TYPE.as_str(), "application/json");
        let id = "01JB0000000000000000000000";
        let mut ops = operations(&doc);
        // Signing the probing staff user out would end the probes: last.
        ops.sort_by_key(|op| op.path == "/api/auth/logout");
        for op in &ops {
            let (method, url) = (op.method.as_str(), op.url(id));
            let empty = if op.changes_state() {
                b"{}".to_vec()
            } else {
                vec![]
            };
            if op.secured() {
                let answer = harness.call(method, &url, &[json], empty.clone()).await;
                assert_eq!(
                    answer.status,
                    StatusCode::UNAUTHORIZED,
                    "{} without a session",
                    op.name()
                );
                documented(op, "no session", &answer);
            }
            if op.changes_state() {
                let answer = harness
                    .call(method, &url, &[("cookie", owner)], empty.clone())
                    .await;
                assert_eq!(
                    answer.status,
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    "{} without a content type",
                    op.name()
                );
                documented(op, "no content type", &answer);
                let foreign = [("cookie", owner), json, ("origin", "https://elsewhere.example")];
                let answer = harness.call(method, &url, &foreign, empty.clone()).await;
                assert_eq!(answer.code(), "cross_origin", "{} from another site", op.name());
                documented(op, "another site", &answer);
            }
            if !op.params_in("path").is_empty() {
                let answer = harness
                    .call(method, &op.url("%FF"), &[("cookie", owner), json], empty.clone())
                    .await;
                assert_eq!(
                    answer.status,
                    StatusCode::BAD_REQUEST,
                    "{} with a path that is not UTF-8",
                    op.name()
                );
                documented(op, "a path that is not UTF-8", &answer);
            }
            let query: Vec<String> = op
                .params_in("query")
                .iter()
                .map(|p| p["name"].as_str().unwrap().to_string())
                .collect();
            if !query.is_empty() {
                let mut tries = vec![String::new(), "page=0".into()];
                tries.extend(query.iter().map(|name| format!("{name}=x")));
                let mut refused = false;
                for q in tries
                    .iter()
                    .filter(|q| q.is_empty() || query.iter().any(|n| q.starts_with(&format!("{n}="))))
                {
                    let answer = harness
                        .call(method, &format!("{url}?{q}"), &[("cookie", owner)], vec![])
                        .await;
                    if answer.status == StatusCode::BAD_REQUEST {
                        documented(op, &format!("?{q}"), &answer);
                        refused = true;
                        break;
                    }
                }
                assert!(refused, "{} refuses no malformed query", op.name());
            }
            if !op.body_types().is_empty() {
                let (content_type, body) = oversized(op);
                let headers = [
                    ("cookie", owner),
                    (header::CONTENT_TYPE.as_str(), content_type.as_str()),
                ];
                let answer = harness.call(method, &url, &headers, body).await;
                let expected = if op.folds_into_400() { 400 } else { 413 };
                assert_eq!(
                    answer.status.as_u16(),
                    expected,
                    "{} with an oversized body",
                    op.name()
                );
                documented(op, "an oversized body", &answer);
            }
            if op.json_body() {
                let answer = harness
                    .call(method, &url, &[("cookie", owner), json], b"{".to_vec())
                    .await;
                assert_eq!(
                    answer.status,
                    StatusCode::BAD_REQUEST,
                    "{} with a body that is not JSON",
                    op.name()
                );
                documented(op, "a body that is not JSON", &answer);
                let answer = harness
                    .call(method, &url, &[("cookie", owner), json], b"[]".to_vec())
                    .await;
                documented_or_success(op, "a JSON array", &answer);
            }
            // A role gate refuses a staff user before anything else: the route lists its 403.
            let answer = harness
                .call(method, &url, &[("cookie", staff), json], empty.clone())
                .await;
            if answer.code() == "forbidden" {
                let listed = op.doc["responses"]["403"]["description"].as_str().unwrap_or("");
                assert!(
                    !listed.starts_with("The request came from another site"),
                    "{} refuses a staff user but documents its 403 as the CSRF rule only: {listed}",
                    op.name()
                );
            }
            documented_or_success(op, "a staff user", &answer);
        }
    }

    fn documented_or_success(op: &Op, probe: &str, answer: &Answer) {
        if !answer.status.is_success() {
            documented(op, probe, answer);
        }
    }

    /// A body past the limit, in the operation's own content type (the import's file and Form
    /// 26AS have limits of their own).
    fn oversized(op: &Op) -> (String, Vec<u8>) {
        let limit = if op.name().ends_with("/api/import/stage") {
            crate::imports::rules::STAGE_BODY_LIMIT
        } else if op.name().ends_with("/api/tds/26as") {
            crate::tds::form26as::BODY_LIMIT
        } else {
            crate::plumbing::http::BODY_LIMIT
        };
        let filler = vec![b' '; limit + 1];
        if op.body_types().iter().any(|t| t.starts_with("multipart/")) {
            let mut body = b"--x\r\nContent-Disposition: form-data; name=\"logo\"; filename=\"logo.png\"\r\n\
                 Content-Type: image/png\r\n\r\n"
                .to_vec();
            body.extend(filler);
            body.extend(b"\r\n--x--\r\n");
            ("multipart/form-data; boundary=x".into(), body)
        } else {
            ("application/json".into(), filler)
        }
    }
}
