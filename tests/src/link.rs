//! Links into the app: a value percent-encoded for the URL's fragment
//! (`#pool=…&q=…`), every byte but letters, digits, `-`, `.` and `_`.

/// Percent-encodes `s` for a URL fragment.
pub fn escape(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
