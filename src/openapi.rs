//! The OpenAPI description served at `GET /api/openapi.json`: its header and the session
//! cookie scheme. The operations come from each area's router (`crate::app`).

use crate::auth::session::SESSION_COOKIE;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityScheme};
use utoipa::{Modify, OpenApi};

#[derive(OpenApi)]
#[openapi(
    info(title = "Back office API", description = "JSON API of the back office. Money is integer paise; dates are YYYY-MM-DD; timestamps RFC 3339 UTC. Errors are `{ error: { code, message, field? } }`."),
    modifiers(&SessionCookie),
    security(("session" = [])),
)]
pub struct ApiDoc;

struct SessionCookie;

impl Modify for SessionCookie {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "session",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::new(SESSION_COOKIE))),
        );
    }
}
