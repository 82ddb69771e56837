//! A load result's percentile spectrum, as HdrHistogram's plotter draws it: value
//! against percentile on an axis where each nine (p90, p99, p99.9 …) is one step, so
//! the tail that coordinated omission hides takes as much room as the median.

use super::frame::{self, Area, Axis, HEIGHT, WIDTH};
use super::scale::Scale;
use super::svg::Svg;
use hdrhistogram::Histogram;
use plumb_model::value_at_percentile;

/// Points per series.
const POINTS: usize = 240;

/// `series`: a label and a histogram of microseconds each (latency, service time, the
/// generator's lateness), in the order of the palette.
pub fn spectrum_chart(name: &str, series: &[(&str, &Histogram<u64>)]) -> String {
    let a = Area::standard();
    let n = series
        .iter()
        .map(|(_, h)| h.len())
        .max()
        .unwrap_or(0)
        .max(10);
    // Up to the percentile one request in n lies beyond, at most six nines.
    let nines = (n as f64).log10().clamp(1.0, 6.0);
    let x = Scale::Nines {
        nines,
        from: a.left,
        to: a.right,
    };
    let curves: Vec<Vec<(f64, f64)>> = series.iter().map(|(_, h)| curve(h, nines)).collect();
    let values = curves.iter().flatten().map(|(_, v)| *v);
    let (lo, hi) = values.fold((f64::INFINITY, 0.0f64), |(l, h), v| (l.min(v), h.max(v)));
    let y = frame::value_scale(lo, hi, a.bottom, a.top);
    let fmt_p = |p: f64| {
        if p == 0.0 {
            "p0".to_string()
        } else {
            format!("p{p}")
        }
    };
    let fmt_v = frame::micros_text;
    let desc: Vec<String> = series
        .iter()
        .map(|(label, h)| {
            format!(
                "{label}: p50 {}, p99 {}, max {}",
                fmt_v(value_at_percentile(h, 50.0) as f64),
                fmt_v(value_at_percentile(h, 99.0) as f64),
                fmt_v(h.max() as f64)
            )
        })
        .collect();
    let mut svg = Svg::new(
        WIDTH,
        HEIGHT,
        &format!("Percentile spectrum of {name}"),
        &format!("{}.", desc.join("; ")),
    );
    frame::draw(
        &mut svg,
        a,
        &Axis {
            label: "percentile (each nine one step: 1 / (1 − p))",
            scale: x,
            format: &fmt_p,
        },
        &Axis {
            label: "time",
            scale: y,
            format: &fmt_v,
        },
    );
    for (i, (curve, (label, _))) in curves.iter().zip(series).enumerate() {
        let points: Vec<(f64, f64)> = curve.iter().map(|(p, v)| (x.at(*p), y.at(*v))).collect();
        svg.polyline(&points, &format!("s{i}"));
        frame::legend(
            &mut svg,
            a.left + 10.0,
            a.top,
            i,
            &format!("s{i}"),
            label,
            false,
        );
    }
    svg.finish()
}

/// (percentile, µs) at `POINTS` + 1 steps evenly spaced on the nines axis.
fn curve(h: &Histogram<u64>, nines: f64) -> Vec<(f64, f64)> {
    (0..=POINTS)
        .map(|i| {
            let t = nines * i as f64 / POINTS as f64;
            let p = 100.0 * (1.0 - 10f64.powf(-t));
            (p, value_at_percentile(h, p).max(1) as f64)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spectrum_reaches_the_tail_of_each_series() {
        let mut lat = Histogram::<u64>::new_with_bounds(1, 3_600_000_000, 3).unwrap();
        let mut svc = lat.clone();
        for i in 1..=10_000u64 {
            lat.record(100 + i % 100).unwrap();
            svc.record(90).unwrap();
        }
        lat.record(50_000).unwrap();
        let svg = spectrum_chart("GET /", &[("latency", &lat), ("service time", &svc)]);
        assert!(svg.contains("<title>Percentile spectrum of GET /</title>"));
        assert!(svg.contains("latency: p50 150.0 µs"), "{svg}");
        assert!(
            svg.contains("max 50.02 ms") || svg.contains("max 50.0"),
            "{svg}"
        );
        // Both curves, each with a legend line.
        assert_eq!(svg.matches("<polyline class=\"s0\"").count(), 1);
        assert_eq!(svg.matches("<polyline class=\"s1\"").count(), 1);
        // Four nines of 10 001 values: ticks up to p99.99.
        assert!(svg.contains(">p99.99<"), "{svg}");
    }
}
