//! Parsers for option values that carry units or percentages.

/// A confidence level: `99.9%`, `99.9` or `0.999` → 0.999. Levels below 50 % are refused
/// (a bare `1` would otherwise read as 1 %).
pub fn confidence(s: &str) -> Result<f64, String> {
    let (num, percent) = match s.trim().strip_suffix('%') {
        Some(n) => (n, true),
        None => (s.trim(), false),
    };
    let v: f64 = num.parse().map_err(|_| format!("{s:?} is not a number"))?;
    let v = if percent || v >= 1.0 { v / 100.0 } else { v };
    if (0.5..1.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!(
            "{s:?} is not a confidence level between 50% and 100% (write e.g. 99.9% or 0.999)"
        ))
    }
}

/// A smallest effect size of interest: `2%` or `0.02` → 0.02. A bare number of 1 or more
/// is refused rather than guessed at (is `2` two percent or two hundred?).
pub fn sesoi(s: &str) -> Result<f64, String> {
    let v = match s.trim().strip_suffix('%') {
        Some(n) => {
            n.parse::<f64>()
                .map_err(|_| format!("{s:?} is not a number"))?
                / 100.0
        }
        None => {
            let v: f64 = s
                .trim()
                .parse()
                .map_err(|_| format!("{s:?} is not a number"))?;
            if v >= 1.0 {
                return Err(format!("{s:?}: write a percentage with %, e.g. {v}%"));
            }
            v
        }
    };
    if v > 0.0 && v < 1.0 {
        Ok(v)
    } else {
        Err(format!("{s:?} must be above 0% and below 100%"))
    }
}

/// Seconds, with an optional unit: `3`, `3s`, `500ms`, `2m`.
pub fn seconds(s: &str) -> Result<f64, String> {
    let t = s.trim();
    let (num, mult) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else {
        (t, 1.0)
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a duration"))?;
    let secs = v * mult;
    // A year is more than any benchmark needs, and keeps Duration conversions safe.
    if secs.is_finite() && (0.0..=3.2e7).contains(&secs) {
        Ok(secs)
    } else {
        Err(format!("{s:?} must be a duration between 0 and a year"))
    }
}

/// A duration in microseconds: `250us`, `250µs`, `1ms`, `0.2s`, or a bare number of µs.
pub fn micros(s: &str) -> Result<f64, String> {
    let t = s.trim();
    let (num, mult) = if let Some(n) = t.strip_suffix("us").or_else(|| t.strip_suffix("µs")) {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix("ms") {
        (n, 1e3)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1e6)
    } else {
        (t, 1.0)
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a duration (e.g. 250us, 1ms, 0.2s)"))?;
    let us = v * mult;
    if us.is_finite() && (0.0..=3.6e9).contains(&us) {
        Ok(us)
    } else {
        Err(format!("{s:?} must be a duration between 0 and an hour"))
    }
}

/// A positive rate (per second).
pub fn rate(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a number"))?;
    if v.is_finite() && v > 0.0 && v <= 1e9 {
        Ok(v)
    } else {
        Err(format!(
            "the rate must be above 0 and at most 1e9 per second, got {s:?}"
        ))
    }
}

/// A wall-clock time in Unix seconds (fractions allowed).
pub fn unix_time(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seconds since 1970"))?;
    if v.is_finite() && v > 0.0 && v < 1e11 {
        Ok(v)
    } else {
        Err(format!(
            "{s:?} is not a Unix time (seconds since 1970, e.g. $(date +%s))"
        ))
    }
}

/// A count of zero or more.
pub fn count(s: &str) -> Result<u64, String> {
    match s.trim().parse::<i64>() {
        Ok(n) if n >= 0 => Ok(n as u64),
        Ok(n) => Err(format!("must be 0 or more, got {n}")),
        Err(_) => Err(format!("{s:?} is not a whole number")),
    }
}

/// A count of at least 1.
pub fn positive(s: &str) -> Result<u64, String> {
    match s.trim().parse::<i64>() {
        Ok(n) if n >= 1 => Ok(n as u64),
        Ok(n) => Err(format!("must be at least 1, got {n}")),
        Err(_) => Err(format!("{s:?} is not a whole number")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_levels_and_effects() {
        assert!((confidence("99.9%").unwrap() - 0.999).abs() < 1e-12);
        assert_eq!(confidence("0.95").unwrap(), 0.95);
        assert!((confidence("99").unwrap() - 0.99).abs() < 1e-12);
        assert!(confidence("100%").is_err());
        assert!(
            confidence("1").is_err(),
            "1 is neither 1% nor 100% in any useful sense"
        );
        assert!(confidence("0.3").is_err());
        assert_eq!(sesoi("2%").unwrap(), 0.02);
        assert_eq!(sesoi("0.05").unwrap(), 0.05);
        assert!(sesoi("2").unwrap_err().contains("2%"));
        assert!(sesoi("0").is_err());
    }

    #[test]
    fn parses_micros_and_rates() {
        assert_eq!(micros("250us").unwrap(), 250.0);
        assert_eq!(micros("1ms").unwrap(), 1000.0);
        assert_eq!(micros("0.2s").unwrap(), 200_000.0);
        assert!(micros("fast").is_err());
        assert!(rate("0").is_err() && rate("-5").is_err() && rate("x").is_err());
        assert_eq!(rate("450").unwrap(), 450.0);
    }

    #[test]
    fn parses_durations_and_counts() {
        assert_eq!(seconds("500ms").unwrap(), 0.5);
        assert_eq!(seconds("2m").unwrap(), 120.0);
        assert_eq!(seconds("3").unwrap(), 3.0);
        assert!(seconds("-1").is_err());
        assert!(seconds("1e20").is_err());
        assert_eq!(positive("5").unwrap(), 5);
        assert!(positive("0").is_err());
        assert!(positive("-3").is_err());
    }
}
