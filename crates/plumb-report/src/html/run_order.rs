//! Values in the order they were measured, warm-up apart: drift, a cold start, a slow
//! spell of the machine — what a distribution hides, one look shows here.

use super::frame::{self, Area, Axis, HEIGHT, WIDTH};
use super::sample_points::strided;
use super::scale::Scale;
use super::svg::Svg;

/// Points drawn at most per series; each series' extremes are always among them.
const POINTS: usize = 1500;

/// `warmup` then `measured`, both in run order; `verdict` is what the drift and
/// cold-start checks said (shown under the title and in the text alternative).
pub fn run_order_chart(
    name: &str,
    warmup: &[f64],
    measured: &[f64],
    verdict: &str,
    format: &dyn Fn(f64) -> String,
) -> String {
    let a = Area::standard();
    let all = warmup.iter().chain(measured);
    let (lo, hi) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
        (l.min(*v), h.max(*v))
    });
    let n = (warmup.len() + measured.len()).max(2);
    let x = Scale::Linear {
        lo: 0.0,
        hi: (n - 1) as f64,
        from: a.left,
        to: a.right,
    };
    let y = frame::value_scale(lo, hi, a.bottom, a.top);
    let desc = format!(
        "{} warm-up and {} measured samples in run order. {verdict}",
        warmup.len(),
        measured.len()
    );
    let mut svg = Svg::new(WIDTH, HEIGHT, &format!("Run order of {name}"), &desc);
    let count = |v: f64| format!("{v:.0}");
    frame::draw(
        &mut svg,
        a,
        &Axis {
            label: "sample, in run order",
            scale: x,
            format: &count,
        },
        &Axis {
            label: "time per operation",
            scale: y,
            format,
        },
    );
    if !warmup.is_empty() {
        let edge = x.at(warmup.len() as f64 - 0.5);
        svg.line(edge, a.top, edge, a.bottom, "mark");
        // Left of the edge when it fits inside the plot, else right of it: a short
        // warm-up put the label over the axis's tick labels.
        if edge - 3.0 - frame::label_width("warm-up") >= a.left {
            svg.text(edge - 3.0, a.top + 10.0, "end", "marklabel", "warm-up");
        } else {
            svg.text(edge + 3.0, a.top + 10.0, "start", "marklabel", "warm-up");
        }
    }
    for (i, v) in strided(warmup, POINTS) {
        let tip = format!("warm-up {}: {}", i + 1, format(v));
        svg.circle(x.at(i as f64), y.at(v), 2.0, "warm", Some(&tip));
    }
    for (i, v) in strided(measured, POINTS) {
        let tip = format!("sample {}: {}", i + 1, format(v));
        svg.circle(
            x.at((warmup.len() + i) as f64),
            y.at(v),
            2.0,
            "p0",
            Some(&tip),
        );
    }
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warm_up_is_drawn_apart_and_every_point_has_its_value() {
        let svg = run_order_chart("x", &[9.0, 5.0], &[1.0, 2.0, 3.0], "no drift", &|v| {
            format!("{v} ns")
        });
        assert_eq!(svg.matches("class=\"warm\"").count(), 2);
        assert_eq!(svg.matches("class=\"p0\"").count(), 3);
        assert!(svg.contains("<title>warm-up 1: 9 ns</title>"));
        assert!(svg.contains("<title>sample 3: 3 ns</title>"));
        assert!(svg.contains("2 warm-up and 3 measured samples in run order. no drift"));
    }
}
