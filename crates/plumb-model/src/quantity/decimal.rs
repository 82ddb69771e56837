//! Decimal text to f64 with the decimal point moved exactly: `99.9` as a percentage is the
//! double nearest to 0.999, not 99.9 / 100 (= 0.9990000000000001), so a level written as
//! `99.9%` and one written as `0.999` are the same number and print the same way.

/// A plain decimal as an exact fraction: (digits, power of ten), so `1.25e-3` is
/// (125, −5). `None` if it is not a plain non-negative decimal or does not fit.
pub fn parse_exact(s: &str) -> Option<(u128, i32)> {
    let s = s.trim();
    let (mantissa, exp) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], s[i + 1..].parse::<i32>().ok()?),
        None => (s, 0),
    };
    let (whole, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() && frac.is_empty()
        || !whole
            .bytes()
            .chain(frac.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let digits: u128 = format!("{whole}{frac}").parse().ok()?;
    Some((digits, exp.checked_sub(i32::try_from(frac.len()).ok()?)?))
}

/// Parses a plain decimal (`12`, `0.5`, `.5`, `1e3`) and divides it by 10^`shift` in the
/// text before converting. `None` if it is not a finite number.
pub fn parse_shifted(s: &str, shift: u32) -> Option<f64> {
    let s = s.trim();
    if s.is_empty()
        || !s
            .bytes()
            .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
    {
        return None;
    }
    let (mantissa, exp) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], s[i + 1..].parse::<i32>().ok()?),
        None => (s, 0),
    };
    let text = format!("{mantissa}e{}", exp.checked_sub(shift as i32)?);
    let v: f64 = text.parse().ok()?;
    v.is_finite().then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_fractions() {
        assert_eq!(parse_exact("1.25e-3"), Some((125, -5)));
        assert_eq!(parse_exact("500"), Some((500, 0)));
        assert_eq!(parse_exact(".5"), Some((5, -1)));
        assert_eq!(parse_exact("-1"), None);
        assert_eq!(parse_exact("."), None);
        assert_eq!(parse_exact("1e"), None);
    }

    #[test]
    fn moves_the_point_in_the_text() {
        assert_eq!(parse_shifted("99.9", 2), Some(0.999));
        assert_eq!(parse_shifted("99.9", 0), Some(99.9));
        assert_eq!(parse_shifted("2", 2), Some(0.02));
        assert_eq!(parse_shifted("1e2", 2), Some(1.0));
        assert_eq!(parse_shifted(".5", 0), Some(0.5));
        assert_eq!(parse_shifted("x", 0), None);
        assert_eq!(parse_shifted("inf", 0), None);
        assert_eq!(parse_shifted("NaN", 0), None);
        assert_eq!(parse_shifted("", 0), None);
        assert_eq!(parse_shifted("1e999", 0), None);
        assert_eq!(parse_shifted("1e-2147483648", 2), None);
    }
}
