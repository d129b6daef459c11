//! Rebuilds the crate when a migration is added or changed: `refinery::embed_migrations!` reads
//! `migrations/` at compile time, and Cargo does not otherwise know the crate depends on it.

fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
