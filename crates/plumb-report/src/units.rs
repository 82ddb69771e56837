/// A time unit for display; a table uses one unit for all its time columns so that
/// numbers line up and compare at a glance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

    /// `ns` in this unit with enough decimals for 4 significant digits (at most 4).
    pub fn format(self, ns: f64) -> String {
        if !ns.is_finite() {
            return "-".to_string();
        }
        let v = ns / self.ns_per_unit();
        let mag = if v == 0.0 {
            0
        } else {
            v.abs().log10().floor() as i32
        };
        let decimals = (3 - mag).clamp(0, 4) as usize;
        format!("{v:.decimals$} {}", self.suffix())
    }
}

/// Microseconds (a latency histogram's unit) in their own best unit.
pub fn format_us(us: f64) -> String {
    format_duration_ns(us * 1e3)
}

/// A duration in its own best unit, e.g. `10.62 ms`.
pub fn format_duration_ns(ns: f64) -> String {
    TimeUnit::for_value(ns).format(ns)
}

/// A value of a metric in its unit, for display: a time, a size (B, KiB, MiB, GiB), or a
/// count with an SI prefix when large.
pub fn format_value(unit: plumb_model::Unit, v: f64) -> String {
    use plumb_model::Unit;
    if !v.is_finite() {
        return "-".to_string();
    }
    match unit {
        Unit::Nanoseconds => format_duration_ns(v),
        Unit::Bytes => {
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
        Unit::Count => {
            let (div, suffix) = [(1e9, "G"), (1e6, "M"), (1e3, "k")]
                .into_iter()
                .find(|&(d, _)| v.abs() >= d)
                .unwrap_or((1.0, ""));
            if v != 0.0 && v.abs() < 1.0 {
                // Three significant digits: 0.517 mispredictions, 0.000312 page faults.
                let decimals = (2 - v.abs().log10().floor() as i32).clamp(0, 9) as usize;
                format!("{v:.decimals$}")
            } else if div == 1.0 {
                format!("{v:.2}")
            } else {
                format!("{:.3}{suffix}", v / div)
            }
        }
    }
}

/// The unit of `metric` in `b` (nanoseconds when undeclared).
pub fn unit_of(b: &plumb_model::Benchmark, metric: &plumb_model::Metric) -> plumb_model::Unit {
    b.metrics
        .get(metric)
        .map_or(plumb_model::Unit::Nanoseconds, |i| i.unit)
}

/// "2026-11-23 19:25 UTC" from Unix seconds (the civil-from-days algorithm; a date crate
/// for one line is not worth its weight).
pub fn format_date_utc(unix_s: f64) -> String {
    if !unix_s.is_finite() || unix_s <= 0.0 {
        return "at an unknown time".into();
    }
    let secs = unix_s as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// References: `date -u -d @SECONDS '+%F %H:%M'`.
    #[test]
    fn dates() {
        assert_eq!(format_date_utc(0.5), "1970-01-01 00:00 UTC");
        assert_eq!(format_date_utc(1795461909.65), "2026-11-23 19:25 UTC");
        assert_eq!(format_date_utc(951782400.0), "2000-02-29 00:00 UTC");
        assert_eq!(format_date_utc(f64::NAN), "at an unknown time");
    }

    #[test]
    fn formats() {
        assert_eq!(format_duration_ns(10_620_000.0), "10.62 ms");
        assert_eq!(format_duration_ns(999.0), "999.0 ns");
        assert_eq!(format_duration_ns(1_500.0), "1.500 µs");
        assert_eq!(format_duration_ns(2.5e9), "2.500 s");
        assert_eq!(TimeUnit::Ms.format(41_000.0), "0.0410 ms");
        assert_eq!(TimeUnit::Ms.format(f64::NAN), "-");
    }
}
