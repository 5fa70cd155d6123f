//! How numbers, sizes and progress read in the views and messages. Pure,
//! shared by every view and store, depending on nothing in the app.

/// `12345` → `12,345`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `1` → `1 result`, `2` → `2 results`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// `1,543 of 3,086`.
pub fn fraction(done: usize, total: usize) -> String {
    format!("{} of {}", thousands(done), thousands(total))
}

/// `27.5 MB` (decimal megabytes, as download sizes are usually given).
pub fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// `840 B`, `12.3 KB`, `4.5 MB`: a file's size.
pub fn size(bytes: usize) -> String {
    match bytes {
        0..1000 => format!("{bytes} B"),
        1000..1_000_000 => format!("{:.1} KB", bytes as f64 / 1e3),
        _ => megabytes(bytes as u64),
    }
}

/// `850 ms`, `35.2 s`, `4 min 5 s`: how long something took.
pub fn duration(millis: f64) -> String {
    if millis < 1000.0 {
        format!("{millis:.0} ms")
    } else if millis < 60_000.0 {
        format!("{:.1} s", millis / 1000.0)
    } else {
        let seconds = (millis / 1000.0).round() as u64;
        format!("{} min {} s", seconds / 60, seconds % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_well() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(plural(1, "query", "queries"), "1 query");
        assert_eq!(plural(1543, "query", "queries"), "1,543 queries");
        assert_eq!(fraction(1543, 3086), "1,543 of 3,086");
        assert_eq!(megabytes(27_460_000), "27.5 MB");
        assert_eq!(size(840), "840 B");
        assert_eq!(size(12_345), "12.3 KB");
        assert_eq!(size(4_500_000), "4.5 MB");
        assert_eq!(duration(849.6), "850 ms");
        assert_eq!(duration(35_240.0), "35.2 s");
        assert_eq!(duration(245_000.0), "4 min 5 s");
    }
}
