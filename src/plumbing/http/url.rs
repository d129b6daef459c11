//! Percent-encoding of a value inside a link (a UPI link, a WhatsApp click-to-chat link).

/// `value` with every byte but RFC 3986's unreserved ones (`A-Z a-z 0-9 - . _ ~`) as `%XX`:
/// safe in any part of a query, and a space is `%20` (not `+`, which some readers keep).
pub fn encode_component(value: &str) -> String {
    let mut out = String::with_capacity(value.len() * 3);
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_but_the_unreserved_bytes_are_encoded() {
        assert_eq!(encode_component("a-z_0.9~"), "a-z_0.9~");
        assert_eq!(encode_component("a b&c=d/e@f\n+"), "a%20b%26c%3Dd%2Fe%40f%0A%2B");
        assert_eq!(encode_component("₹"), "%E2%82%B9");
    }
}
