//! A load test second by second: p50 and p99 of the requests due in each second, and
//! the seconds with errors marked — a stall, a warm-up that was too short, a server
//! that degrades over the run, each has its shape here.

use super::frame::{self, micros as us, micros_text as us_text, Area, Axis, HEIGHT, WIDTH};
use super::scale::Scale;
use super::svg::Svg;
use plumb_model::format;
use plumb_model::TimelineRow;

/// None when fewer than two seconds have percentiles (a merge without per-second
/// histograms has none).
pub fn timeline_chart(name: &str, rows: &[TimelineRow]) -> Option<String> {
    let known: Vec<&TimelineRow> = rows
        .iter()
        .filter(|r| r.p50.is_some() && r.p99.is_some() && r.ok > 0)
        .collect();
    if known.len() < 2 {
        return None;
    }
    let a = Area::standard();
    let last = rows.iter().map(|r| r.second).max().unwrap_or(1).max(1) as f64;
    let x = Scale::Linear {
        lo: 0.0,
        hi: last,
        from: a.left,
        to: a.right,
    };
    let (lo, hi) = known.iter().fold((f64::INFINITY, 0.0f64), |(l, h), r| {
        (l.min(us(r.p50)), h.max(us(r.p99)))
    });
    let y = frame::value_scale(lo.max(1.0), hi.max(1.0), a.bottom, a.top);
    let errors: u64 = rows.iter().map(|r| r.errors).sum();
    let desc = format!(
        "{} seconds: p50 from {} to {}, p99 up to {}; {} errors in {} seconds.",
        rows.len(),
        us_text(lo),
        us_text(known.iter().map(|r| us(r.p50)).fold(0.0, f64::max)),
        us_text(hi),
        errors,
        rows.iter().filter(|r| r.errors > 0).count()
    );
    let mut svg = Svg::new(WIDTH, HEIGHT, &format!("Timeline of {name}"), &desc);
    let second = |v: f64| format::whole_seconds(v);
    frame::draw(
        &mut svg,
        a,
        &Axis {
            label: "second of the measured window (by due time)",
            scale: x,
            format: &second,
        },
        &Axis {
            label: "latency",
            scale: y,
            format: &us_text,
        },
    );
    for (k, (class, pick)) in [("s0", 50), ("s1", 99)].into_iter().enumerate() {
        let line: Vec<(f64, f64)> = known
            .iter()
            .map(|r| {
                let v = us(if pick == 50 { r.p50 } else { r.p99 });
                (x.at(r.second as f64), y.at(v.max(1.0)))
            })
            .collect();
        svg.polyline(&line, class);
        frame::legend(
            &mut svg,
            a.right - 60.0,
            a.top,
            k,
            class,
            &format!("p{pick}"),
            false,
        );
    }
    second_marks(&mut svg, &x, a.bottom - 3.0, rows);
    Some(svg.finish())
}

/// A mark per second at height `y`, red where it had errors, its counts on hover.
fn second_marks(svg: &mut Svg, x: &Scale, y: f64, rows: &[TimelineRow]) {
    for r in rows {
        let tip = format!(
            "second {}: {} ok, {} errors, p50 {}, p99 {}, max {}",
            r.second,
            r.ok,
            r.errors,
            format::time_or_dash(r.p50),
            format::time_or_dash(r.p99),
            format::time(r.max)
        );
        let class = if r.errors > 0 { "bad" } else { "p1" };
        svg.circle(
            x.at(r.second as f64),
            y,
            if r.errors > 0 { 3.5 } else { 1.5 },
            class,
            Some(&tip),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::quantity::Duration;

    fn row(second: u64, p50: f64, p99: f64, errors: u64) -> TimelineRow {
        TimelineRow {
            second,
            ok: 100,
            errors,
            p50: Some(Duration::from_nanos_f64(p50 * 1e3)).filter(|_| p50.is_finite()),
            p99: Some(Duration::from_nanos_f64(p99 * 1e3)).filter(|_| p99.is_finite()),
            max: Duration::from_nanos_f64(p99 * 2e3),
            hdr_base64: None,
        }
    }

    #[test]
    fn seconds_are_drawn_with_their_errors_marked() {
        let rows = [
            row(0, 100.0, 200.0, 0),
            row(1, 110.0, 5000.0, 3),
            row(2, 100.0, 210.0, 0),
        ];
        let svg = timeline_chart("GET /", &rows).unwrap();
        assert!(svg.contains(
            "3 seconds: p50 from 100.0 µs to 110.0 µs, p99 up to 5.000 ms; 3 errors in 1 seconds."
        ));
        assert_eq!(svg.matches("class=\"bad\"").count(), 1);
        assert!(svg.contains(
            "<title>second 1: 100 ok, 3 errors, p50 110.0 µs, p99 5.000 ms, max 10.00 ms</title>"
        ));
        // A merge without per-second percentiles: no chart.
        let merged = [row(0, f64::NAN, f64::NAN, 0), row(1, f64::NAN, f64::NAN, 0)];
        assert!(timeline_chart("GET /", &merged).is_none());
    }
}
