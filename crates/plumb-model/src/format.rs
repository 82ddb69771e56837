//! The one place where measured values become text: the unit each value is shown in and
//! its significant figures are chosen here, for every table, finding, page and message,
//! so a figure reads the same wherever it appears.
//!
//! Rules: four significant figures (`10.62 ms`, `999.0 ns`, `1.500 µs`); a time in the
//! largest unit in which it is at least 1; sizes in binary units; counts with an SI
//! prefix from a thousand; whatever is not a number (NaN, ±∞) is `-`.

use crate::quantity::{ByteSize, Duration, Timestamp};
use crate::{Benchmark, Metric, Unit};

/// A time unit for display; a table column uses one unit for all its cells so that
/// numbers line up and compare at a glance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TimeUnit {
    Ns,
    Us,
    Ms,
    S,
}

impl TimeUnit {
    /// The largest unit in which `ns` is at least 1.
    pub fn for_value(ns: f64) -> TimeUnit {
        let ns = ns.abs();
        if ns >= 1e9 {
            TimeUnit::S
        } else if ns >= 1e6 {
            TimeUnit::Ms
        } else if ns >= 1e3 {
            TimeUnit::Us
        } else {
            TimeUnit::Ns
        }
    }

    pub fn ns_per_unit(self) -> f64 {
        match self {
            TimeUnit::Ns => 1.0,
            TimeUnit::Us => 1e3,
            TimeUnit::Ms => 1e6,
            TimeUnit::S => 1e9,
        }
    }

    pub fn suffix(self) -> &'static str {
        match self {
            TimeUnit::Ns => "ns",
            TimeUnit::Us => "µs",
            TimeUnit::Ms => "ms",
            TimeUnit::S => "s",
        }
    }

    /// `ns` in this unit with enough decimals for 4 significant digits (at most 4;
    /// below a thousandth of the unit, in scientific notation).
    pub fn format(self, ns: f64) -> String {
        if !ns.is_finite() {
            return "-".to_string();
        }
        let v = ns / self.ns_per_unit();
        if v != 0.0 && v.abs() < 1e-3 {
            return format!("{v:.2e} {}", self.suffix());
        }
        format!("{} {}", sig_figs(v, 4), self.suffix())
    }
}

/// How a table column of times is written: one unit for every cell, so figures line up
/// and compare at a glance, or each cell in its own unit when the column spans more than
/// three orders of magnitude (one unit would then give some cells five or more integer
/// digits, or drop others to 0.0000…).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnUnit {
    Shared(TimeUnit),
    PerCell,
}

impl ColumnUnit {
    /// The unit of a column of `values` (ns), shared by every cell: the smallest cell's
    /// own unit, or a larger one where the largest cell would need more than four integer
    /// digits in it; unless the non-zero cells span more than ×1000 (then each cell its
    /// own). A column of zeros takes `if_zeros`.
    pub fn of(values: &[f64], if_zeros: TimeUnit) -> ColumnUnit {
        let nonzero = values
            .iter()
            .map(|v| v.abs())
            .filter(|v| *v > 0.0 && v.is_finite());
        let (lo, hi) = nonzero.fold((f64::INFINITY, 0.0f64), |(l, h), v| (l.min(v), h.max(v)));
        if !lo.is_finite() {
            return ColumnUnit::Shared(if_zeros);
        }
        if hi / lo > 1000.0 {
            return ColumnUnit::PerCell;
        }
        let unit = [TimeUnit::Ns, TimeUnit::Us, TimeUnit::Ms, TimeUnit::S]
            .into_iter()
            .filter(|&u| u >= TimeUnit::for_value(lo))
            .find(|u| hi / u.ns_per_unit() < 9999.5)
            .unwrap_or(TimeUnit::S);
        ColumnUnit::Shared(unit)
    }

    /// One cell of the column.
    pub fn format(self, ns: f64) -> String {
        match self {
            ColumnUnit::Shared(unit) => unit.format(ns),
            ColumnUnit::PerCell => time_ns(ns),
        }
    }
}

/// `v` with four significant figures and at most four decimals (`10.62`, `999.0`,
/// `0.0410`, `12345`).
fn sig_figs(v: f64, figures: i32) -> String {
    if v == 0.0 {
        return "0".to_string();
    }
    // Rounded to its significant figures first, so 99.99999 counts as 100 (three
    // integer digits), not 99 (two).
    let v: f64 = format!("{:.*e}", (figures - 1) as usize, v)
        .parse()
        .unwrap_or(v);
    let mag = if v == 0.0 {
        0
    } else {
        v.abs().log10().floor() as i32
    };
    // Past a dozen digits the figures would be mostly zeros nobody measured (1e308 would
    // print 309 digits): the exponent says it.
    if mag >= 12 {
        return format!("{:.*e}", (figures - 1) as usize, v);
    }
    let decimals = (figures - 1 - mag).clamp(0, 4) as usize;
    format!("{v:.decimals$}")
}

/// A duration (plumb's, or the standard library's) in its own best unit, e.g. `10.62 ms`.
pub fn time(d: impl Into<Duration>) -> String {
    time_ns(d.into().as_nanos_f64())
}

/// A tick of an axis in whole seconds (`3 s`): the seconds of a measured window.
pub fn whole_seconds(s: f64) -> String {
    format!("{s:.0} s")
}

/// A duration that may be missing (a percentile not kept, a second after a merge): `-`.
pub fn time_or_dash(d: Option<Duration>) -> String {
    d.map_or_else(|| "-".to_string(), time)
}

/// Events per second with four significant figures: `100.0/s`, `130000/s`.
pub fn rate(per_second: f64) -> String {
    format!("{}/s", number(per_second))
}

/// A time in nanoseconds (a statistic: a mean, a difference, a per-operation figure
/// below a picosecond) in its own best unit; zero is `0 s` (no unit is its own).
pub fn time_ns(ns: f64) -> String {
    if ns == 0.0 {
        return "0 s".to_string();
    }
    TimeUnit::for_value(ns).format(ns)
}

/// A size in binary units with one decimal (`1.5 MiB`), or whole bytes below a KiB.
pub fn bytes(b: ByteSize) -> String {
    bytes_f64(b.0 as f64)
}

fn bytes_f64(v: f64) -> String {
    let (div, suffix) = [(1u64 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        .into_iter()
        .find(|&(d, _)| v.abs() >= d as f64)
        .unwrap_or((1, "B"));
    if div == 1 {
        format!("{v:.0} B")
    } else {
        format!("{:.1} {suffix}", v / div as f64)
    }
}

/// A count: three significant digits below one (`0.517` mispredictions), two decimals
/// to a thousand, then an SI prefix (`1.235k`, `2.000G`).
pub fn count(v: f64) -> String {
    if !v.is_finite() {
        return "-".to_string();
    }
    let (div, suffix) = [(1e9, "G"), (1e6, "M"), (1e3, "k")]
        .into_iter()
        .find(|&(d, _)| v.abs() >= d)
        .unwrap_or((1.0, ""));
    if v != 0.0 && v.abs() < 1.0 {
        let decimals = (2 - v.abs().log10().floor() as i32).clamp(0, 9) as usize;
        format!("{v:.decimals$}")
    } else if div == 1.0 {
        format!("{v:.2}")
    } else {
        format!("{:.3}{suffix}", v / div)
    }
}

/// A value of a metric in its unit: a time, a size or a count.
pub fn value(unit: Unit, v: f64) -> String {
    if !v.is_finite() {
        return "-".to_string();
    }
    match unit {
        Unit::Nanoseconds => time_ns(v),
        Unit::Bytes => bytes_f64(v),
        Unit::Count => count(v),
    }
}

/// A fraction as a percentage with one decimal: `0.0152` → `1.5%`.
pub fn percent(fraction: f64) -> String {
    if !fraction.is_finite() {
        return "-".to_string();
    }
    format!("{:.1}%", 100.0 * fraction)
}

/// A share that may be tiny (an error rate, requests that waited): three decimals below
/// 0.1 %, so one failure in 100,000 is not `0.0%`: `0%`, `0.001%`, `1.5%`.
pub fn share(fraction: f64) -> String {
    match fraction {
        0.0 => "0%".into(),
        f if f.abs() < 0.001 => format!("{:.3}%", 100.0 * f),
        f => percent(f),
    }
}

/// A relative change with its sign: `0.0152` → `+1.5%`, `-0.2` → `-20.0%`.
pub fn signed_percent(change: f64) -> String {
    if !change.is_finite() {
        return "-".to_string();
    }
    if change >= 0.0 {
        format!("+{}", percent(change))
    } else {
        percent(change)
    }
}

/// A plain number with four significant figures (a ratio, a statistic): `1.882`,
/// `0.0410`, `12345`.
pub fn number(v: f64) -> String {
    if !v.is_finite() {
        return "-".to_string();
    }
    sig_figs(v, 4)
}

/// A ratio or factor with the digits that tell: three decimals below 10 (`1.840`), then
/// fewer as it grows (`148.7`, `82585`), so a wide interval does not print noise
/// (`[0.000, 82585.487]`); exact zero is `0`.
pub fn factor(x: f64) -> String {
    match x.abs() {
        a if !a.is_finite() => "∞".into(),
        0.0 => "0".into(),
        a if a < 10.0 => format!("{x:.3}"),
        a if a < 100.0 => format!("{x:.2}"),
        a if a < 1000.0 => format!("{x:.1}"),
        a if a < 1e12 => format!("{x:.0}"),
        // A dozen digits and more: the exponent says it (1e308 is not 309 digits).
        _ => format!("{x:.3e}"),
    }
}

/// The unit of `metric` in `b` (nanoseconds when undeclared).
pub fn unit_of(b: &Benchmark, metric: &Metric) -> Unit {
    b.metrics.get(metric).map_or(Unit::Nanoseconds, |i| i.unit)
}

/// `2026-11-23 19:25 UTC`; "at an unknown time" for a time not recorded.
/// `name` with its article: "a hyperfine", "an asv".
pub fn a_or_an(name: &str) -> String {
    let vowel = name.starts_with(|c: char| "aeiouAEIOU".contains(c));
    format!("{} {name}", if vowel { "an" } else { "a" })
}

pub fn date(t: Timestamp) -> String {
    if t.is_unknown() {
        return "at an unknown time".into();
    }
    let (y, m, d, h, min, _) = t.civil_utc();
    format!("{y:04}-{m:02}-{d:02} {h:02}:{min:02} UTC")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// References: `date -u -d @SECONDS '+%F %H:%M'`.
    #[test]
    fn factors_keep_the_digits_that_tell() {
        assert_eq!(factor(1.84), "1.840");
        assert_eq!(factor(0.358), "0.358");
        assert_eq!(factor(0.0), "0");
        assert_eq!(factor(148.687), "148.7");
        assert_eq!(factor(82585.487), "82585");
        assert_eq!(factor(f64::INFINITY), "∞");
    }

    #[test]
    fn shares_keep_a_tiny_rate_visible() {
        assert_eq!(share(0.0), "0%");
        assert_eq!(share(1e-5), "0.001%");
        assert_eq!(share(0.015), "1.5%");
    }

    #[test]
    fn dates() {
        let at = |s: f64| date(Timestamp::from_unix_secs_f64(s));
        assert_eq!(at(0.5), "1970-01-01 00:00 UTC");
        assert_eq!(at(1795461909.65), "2026-11-23 19:25 UTC");
        assert_eq!(at(951782400.0), "2000-02-29 00:00 UTC");
        assert_eq!(date(Timestamp::EPOCH), "at an unknown time");
    }

    #[test]
    fn times() {
        assert_eq!(time_ns(10_620_000.0), "10.62 ms");
        assert_eq!(time_ns(999.0), "999.0 ns");
        assert_eq!(time_ns(1_500.0), "1.500 µs");
        assert_eq!(time_ns(2.5e9), "2.500 s");
        assert_eq!(time_ns(0.25), "0.2500 ns");
        assert_eq!(time_ns(0.0003), "3.00e-4 ns");
        assert_eq!(time(Duration::ZERO), "0 s");
        assert_eq!(time(Duration::from_micros(1003)), "1.003 ms");
        assert_eq!(TimeUnit::Ms.format(41_000.0), "0.0410 ms");
        assert_eq!(TimeUnit::Ms.format(f64::NAN), "-");
    }

    #[test]
    fn a_column_shares_the_unit_in_which_no_cell_needs_five_integer_digits() {
        // 1 ms to 200 ms: milliseconds (201278 µs would need six digits).
        let c = ColumnUnit::of(&[1.2e6, 201.278e6], TimeUnit::Ns);
        assert_eq!(c, ColumnUnit::Shared(TimeUnit::Ms));
        assert_eq!(c.format(201.278e6), "201.3 ms");
        assert_eq!(c.format(1.2e6), "1.200 ms");
        // 1 ms to 2.5 ms: the smallest cell's unit.
        assert_eq!(
            ColumnUnit::of(&[1e6, 2.5e6], TimeUnit::Ns),
            ColumnUnit::Shared(TimeUnit::Ms)
        );
        // 900 µs to 9.9 ms: µs, 9900 µs still has four integer digits.
        assert_eq!(
            ColumnUnit::of(&[9.0e5, 9.9e6], TimeUnit::Ns),
            ColumnUnit::Shared(TimeUnit::Us)
        );
        assert_eq!(
            ColumnUnit::of(&[9.0e5, 10.0e6], TimeUnit::Ns),
            ColumnUnit::Shared(TimeUnit::Ms)
        );
        assert_eq!(
            ColumnUnit::of(&[900.0, 9_000.0], TimeUnit::Ns),
            ColumnUnit::Shared(TimeUnit::Ns)
        );
        // More than three orders of magnitude: each cell its own unit.
        let c = ColumnUnit::of(&[2.0, 5.0e6], TimeUnit::Ns);
        assert_eq!(c, ColumnUnit::PerCell);
        assert_eq!(c.format(2.0), "2.000 ns");
        assert_eq!(c.format(5.0e6), "5.000 ms");
        assert_eq!(
            ColumnUnit::of(&[0.0, 0.0], TimeUnit::Us),
            ColumnUnit::Shared(TimeUnit::Us)
        );
    }

    #[test]
    fn sizes_counts_and_fractions() {
        assert_eq!(bytes(ByteSize(1_572_864)), "1.5 MiB");
        assert_eq!(bytes(ByteSize(1000)), "1000 B");
        assert_eq!(count(0.517), "0.517");
        assert_eq!(count(1234.5), "1.234k");
        assert_eq!(count(12.0), "12.00");
        assert_eq!(percent(0.0152), "1.5%");
        assert_eq!(signed_percent(0.0152), "+1.5%");
        assert_eq!(signed_percent(-0.2), "-20.0%");
        assert_eq!(number(1.8819), "1.882");
        assert_eq!(rate(99.99998807907247), "100.0/s");
        assert_eq!(rate(130000.0), "130000/s");
        assert_eq!(rate(0.0), "0/s");
        assert_eq!(time_or_dash(None), "-");
        assert_eq!(value(Unit::Bytes, f64::NAN), "-");
    }
}
