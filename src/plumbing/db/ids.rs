//! Record ids: ULID text, strictly increasing within the process, so `ORDER BY id` is creation order.

use std::sync::{Mutex, OnceLock};
use ulid::Generator;

static GENERATOR: OnceLock<Mutex<Generator>> = OnceLock::new();

/// A new id, greater than every id this process made before.
pub fn new_id() -> String {
    let mut generator = GENERATOR
        .get_or_init(|| Mutex::new(Generator::new()))
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    loop {
        // The generator only fails when 2^80 ids were made in one millisecond; wait for the next one.
        match generator.generate() {
            Ok(id) => return id.to_string(),
            Err(_) => std::thread::sleep(std::time::Duration::from_millis(1)),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_strictly_increase() {
        let ids: Vec<String> = (0..10_000).map(|_| super::new_id()).collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(ids[0].len(), 26);
    }
}
