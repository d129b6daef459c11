//! What the old system left behind in a demo office that moved in from it: a few DB and portal
//! passwords still in its encrypted form (`enc:`), unreadable here and read as empty, for the
//! owner's clean-up on the import page to find and clear.

use crate::clients::rules::LEGACY_ENCRYPTED_PREFIX;
use crate::demo::{Rng, Summary};
use crate::plumbing::error::AppError;
use rusqlite::{Connection, params};

/// Ciphertext-looking text (base64 letters), as the old system wrote it.
pub(super) fn ciphertext(rng: &mut Rng) -> String {
    const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let body: String = (0..32).map(|_| B64[rng.range(0, 63) as usize] as char).collect();
    format!("{LEGACY_ENCRYPTED_PREFIX}U2FsdGVkX1{body}=")
}

/// Leaves one client in fifty with a legacy DB password and one project in forty with a legacy
/// portal password.
pub fn write(conn: &Connection, rng: &mut Rng, summary: &mut Summary) -> Result<(), AppError> {
    for (table, column, one_in) in [("client", "db_password", 50), ("client_module", "password", 40)] {
        let ids: Vec<String> = conn
            .prepare(&format!("SELECT id FROM {table} ORDER BY id"))?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let mut update = conn.prepare(&format!("UPDATE {table} SET {column} = ?2 WHERE id = ?1"))?;
        for id in ids {
            if rng.range(1, one_in) == 1 {
                update.execute(params![id, ciphertext(rng)])?;
                summary.legacy_credentials += 1;
            }
        }
    }
    Ok(())
}
