//! How numbers, sizes and progress read in the views and messages. Pure,
//! shared by every view and store, depending on nothing in the app.

use nomos_core::search::QUERY_RUNS_MAX;

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

/// What a download of `bytes` leaves of the room the browser reports
/// (`usage` of `quota` bytes), and whether it fits: said before the
/// download starts. No estimate (`None`) says so rather than guess.
pub fn room(bytes: u64, estimate: Option<(u64, u64)>) -> (String, bool) {
    let Some((usage, quota)) = estimate else {
        return (
            "this browser does not say how much room it gives this site".into(),
            true,
        );
    };
    let free = quota.saturating_sub(usage);
    match bytes <= free {
        true => (format!("{} free for this site", size(free as usize)), true),
        false => (
            format!(
                "not enough room: it needs {}, this browser gives this site {} more \
                 (free some space first)",
                megabytes(bytes),
                megabytes(free)
            ),
            false,
        ),
    }
}

/// `840 B`, `12.3 KB`, `4.5 MB`, `10.7 GB`: a file's size, or room.
pub fn size(bytes: usize) -> String {
    match bytes {
        0..1000 => format!("{bytes} B"),
        1000..1_000_000 => format!("{:.1} KB", bytes as f64 / 1e3),
        1_000_000..1_000_000_000 => megabytes(bytes as u64),
        _ => format!("{:.1} GB", bytes as f64 / 1e9),
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

/// `2026-12-02 04:58 UTC`: a moment given in milliseconds since the
/// Unix epoch (as `Date.now()`), by the proleptic Gregorian calendar.
pub fn utc_minute(millis: f64) -> String {
    let minutes = (millis / 60_000.0).floor() as i64;
    let (days, minute) = (minutes.div_euclid(1440), minutes.rem_euclid(1440));
    // Days since 0000-03-01, counted in 400-year eras of 146,097 days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        minute / 60,
        minute % 60
    )
}

/// "Version of 23 February 1946" for a version date `1946-02-23`; a date
/// of another form is shown as it is.
pub fn version_of(date: &str) -> String {
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    let parts: Vec<&str> = date.split('-').collect();
    let named = match parts[..] {
        [year, month, day] => month
            .parse::<usize>()
            .ok()
            .and_then(|m| MONTHS.get(m.checked_sub(1)?))
            .zip(day.parse::<u8>().ok().filter(|d| (1..=31).contains(d)))
            .map(|(month, day)| format!("{day} {month} {year}")),
        _ => None,
    };
    format!("Version of {}", named.unwrap_or_else(|| date.to_owned()))
}

/// `text` quoted (“…”) inside a bidi isolate (U+2068 … U+2069), as
/// `<bdi>` does for markup: a query holding U+202E or right-to-left
/// script cannot reorder the sentence around it.
pub fn quoted(text: &str) -> String {
    format!("“\u{2068}{text}\u{2069}”")
}

/// Most characters of outside text (a link's citation) echoed in a
/// sentence: enough to recognise it, short of pushing the sentence away.
pub const ECHO_MAX: usize = 60;

/// [`quoted`] `text`, cut to [`ECHO_MAX`] characters with "…".
pub fn quoted_short(text: &str) -> String {
    match text.char_indices().nth(ECHO_MAX) {
        Some((end, _)) => quoted(&format!("{}…", &text[..end])),
        None => quoted(text),
    }
}

/// What a status line adds when a query was ranked on only its first
/// [`QUERY_RUNS_MAX`] words (a word repeated in a row counting once), so
/// that the result is never taken for the whole query's.
pub fn ranked_cut(cut: bool) -> String {
    match cut {
        true => format!(
            " (the query was cut: only its first {} words were ranked)",
            thousands(QUERY_RUNS_MAX)
        ),
        false => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_ranking_says_so() {
        assert_eq!(ranked_cut(false), "");
        assert!(ranked_cut(true).contains("only its first 1,000 words"));
    }

    #[test]
    fn quoted_text_is_isolated() {
        assert_eq!(quoted("a\u{202E}b"), "“\u{2068}a\u{202E}b\u{2069}”");
    }

    #[test]
    fn echoed_text_is_isolated_and_short() {
        assert_eq!(quoted_short("§ 2"), quoted("§ 2"));
        let long = "\u{202E}§".repeat(100);
        let echoed = quoted_short(&long);
        assert_eq!(echoed.chars().count(), ECHO_MAX + 5);
        assert!(echoed.starts_with("“\u{2068}\u{202E}") && echoed.ends_with("…\u{2069}”"));
    }

    #[test]
    fn version_dates_read_as_english_dates() {
        assert_eq!(version_of("1946-02-23"), "Version of 23 February 1946");
        assert_eq!(version_of("2016-05-12"), "Version of 12 May 2016");
        assert_eq!(version_of("2019-12-01"), "Version of 1 December 2019");
        assert_eq!(version_of("2019-13-01"), "Version of 2019-13-01");
        assert_eq!(version_of("23.02.1946"), "Version of 23.02.1946");
    }

    #[test]
    fn moments_read_as_utc_dates() {
        assert_eq!(utc_minute(0.0), "1970-01-01 00:00 UTC");
        // `date -u -d @1796180400` (a Wednesday).
        assert_eq!(utc_minute(1_796_180_400_000.0), "2026-12-02 03:00 UTC");
        assert_eq!(
            utc_minute(951_782_400_000.0 + 59_999.0),
            "2000-02-29 00:00 UTC"
        );
        assert_eq!(utc_minute(-60_000.0), "1969-12-31 23:59 UTC");
    }

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
        assert_eq!(
            room(2_000_000, Some((1_000_000, 10_000_000))),
            ("9.0 MB free for this site".into(), true)
        );
        let (short, fits) = room(2_000_000, Some((9_500_000, 10_000_000)));
        assert!(
            !fits && short.starts_with("not enough room: it needs 2.0 MB"),
            "{short}"
        );
        assert!(short.contains("0.5 MB more"), "{short}");
        assert!(room(1, None).1);
        assert_eq!(size(840), "840 B");
        assert_eq!(size(12_345), "12.3 KB");
        assert_eq!(size(4_500_000), "4.5 MB");
        assert_eq!(size(10_737_400_000), "10.7 GB");
        assert_eq!(
            room(1, Some((0, 10_737_400_000))).0,
            "10.7 GB free for this site"
        );
        assert_eq!(duration(849.6), "850 ms");
        assert_eq!(duration(35_240.0), "35.2 s");
        assert_eq!(duration(245_000.0), "4 min 5 s");
    }
}
