//! A repeated load test's runs side by side (`plumb load --repeat N`): each run's p50
//! and p99, so the run-to-run variation that comparisons judge by is seen, not assumed.

use super::frame::{self, Area, Axis, HEIGHT, WIDTH};
use super::scale::Scale;
use super::svg::Svg;
use crate::load_view::highest_over_lowest;
use plumb_model::LoadInfo;

/// None for fewer than two runs.
pub fn runs_chart(name: &str, l: &LoadInfo) -> Option<String> {
    if l.runs.len() < 2 {
        return None;
    }
    let a = Area::standard();
    let micros = |label| -> Vec<f64> {
        l.run_percentiles(label)
            .iter()
            .map(|&p| frame::micros(p))
            .collect()
    };
    let (p50s, p99s) = (micros("p50"), micros("p99"));
    let finite = p50s
        .iter()
        .chain(&p99s)
        .filter(|v| v.is_finite() && **v > 0.0);
    let (lo, hi) = finite.fold((f64::INFINITY, 0.0f64), |(l, h), v| (l.min(*v), h.max(*v)));
    if !lo.is_finite() {
        return None;
    }
    let x = Scale::Linear {
        lo: 0.5,
        hi: l.runs.len() as f64 + 0.5,
        from: a.left,
        to: a.right,
    };
    let y = frame::value_scale(lo, hi, a.bottom, a.top);
    let desc = format!(
        "{} runs: p50 from run to run within ×{:.2}, p99 within ×{:.2}.",
        l.runs.len(),
        highest_over_lowest(&p50s),
        highest_over_lowest(&p99s)
    );
    let mut svg = Svg::new(WIDTH, HEIGHT, &format!("Runs of {name}"), &desc);
    // Runs are whole numbers: a tick between two runs gets no label (it read "2 2 2").
    let run = |v: f64| {
        if (v - v.round()).abs() < 1e-9 {
            format!("{v:.0}")
        } else {
            String::new()
        }
    };
    let us = frame::micros_text;
    frame::draw(
        &mut svg,
        a,
        &Axis {
            label: "run, in the order they ran",
            scale: x,
            format: &run,
        },
        &Axis {
            label: "latency",
            scale: y,
            format: &us,
        },
    );
    for (i, (p50, p99)) in p50s.iter().zip(&p99s).enumerate() {
        let px = x.at(i as f64 + 1.0);
        for (v, class, label) in [(p50, "p0", "p50"), (p99, "p1", "p99")] {
            if v.is_finite() && *v > 0.0 {
                let tip = format!("run {}: {label} {}", i + 1, us(*v));
                svg.circle(px, y.at(*v), 4.0, class, Some(&tip));
            }
        }
    }
    for (k, (class, label)) in [("p0", "p50"), ("p1", "p99")].into_iter().enumerate() {
        frame::legend(&mut svg, a.right - 66.0, a.top, k, class, label, true);
    }
    Some(svg.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::repeated_load;

    #[test]
    fn each_run_shows_its_p50_and_p99() {
        let l = repeated_load(&[(100.0, 300.0), (110.0, 600.0), (105.0, 400.0)]);
        let svg = runs_chart("GET /", &l).unwrap();
        assert!(svg.contains("3 runs: p50 from run to run within ×1.10, p99 within ×2.00."));
        assert!(svg.contains("<title>run 2: p99 600.0 µs</title>"));
        assert_eq!(
            svg.matches("class=\"p0\"").count(),
            4,
            "three runs and the legend"
        );
        assert!(runs_chart("GET /", &repeated_load(&[(1.0, 2.0)])).is_none());
    }
}
