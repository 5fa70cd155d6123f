//! SHA-256 as every manifest writes it (a blob's source files, a model's
//! files, the index manifest's model hashes): lower-case hex. One function,
//! so the builder, the CLI and the browser can never disagree on the form.

use sha2::{Digest, Sha256};

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FIPS 180-2's "abc" example.
    #[test]
    fn matches_the_standard() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
