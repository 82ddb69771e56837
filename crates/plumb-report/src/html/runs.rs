//! A repeated load test's runs side by side (`plumb load --repeat N`): each run's p50
//! and p99, so the run-to-run variation that comparisons judge by is seen, not assumed.

use super::frame::{self, Area, Axis, HEIGHT, WIDTH};
use super::scale::Scale;
use super::svg::Svg;
use plumb_model::LoadRun;

/// None for fewer than two runs.
pub fn runs_chart(name: &str, runs: &[LoadRun]) -> Option<String> {
    if runs.len() < 2 {
        return None;
    }
    let a = Area::standard();
    let values: Vec<(f64, f64)> = runs
        .iter()
        .map(|r| {
            (
                r.latency.percentile_us("p50"),
                r.latency.percentile_us("p99"),
            )
        })
        .collect();
    let finite = values
        .iter()
        .flat_map(|(a, b)| [*a, *b])
        .filter(|v| v.is_finite() && *v > 0.0);
    let (lo, hi) = finite.fold((f64::INFINITY, 0.0f64), |(l, h), v| (l.min(v), h.max(v)));
    if !lo.is_finite() {
        return None;
    }
    let x = Scale::Linear {
        lo: 0.5,
        hi: runs.len() as f64 + 0.5,
        from: a.left,
        to: a.right,
    };
    let y = frame::value_scale(lo, hi, a.bottom, a.top);
    let spread = |k: usize| {
        let v: Vec<f64> = values
            .iter()
            .map(|p| if k == 0 { p.0 } else { p.1 })
            .collect();
        let (l, h) = v
            .iter()
            .fold((f64::INFINITY, 0.0f64), |(l, h), x| (l.min(*x), h.max(*x)));
        h / l
    };
    let desc = format!(
        "{} runs: p50 from run to run within ×{:.2}, p99 within ×{:.2}.",
        runs.len(),
        spread(0),
        spread(1)
    );
    let mut svg = Svg::new(WIDTH, HEIGHT, &format!("Runs of {name}"), &desc);
    let run = |v: f64| format!("{v:.0}");
    let us = |v: f64| crate::format_us(v);
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
    for (i, (p50, p99)) in values.iter().enumerate() {
        let px = x.at(i as f64 + 1.0);
        for (v, class, label) in [(p50, "p0", "p50"), (p99, "p1", "p99")] {
            if v.is_finite() && *v > 0.0 {
                let tip = format!("run {}: {label} {}", i + 1, us(*v));
                svg.circle(px, y.at(*v), 4.0, class, Some(&tip));
            }
        }
    }
    for (k, (class, label)) in [("p0", "p50"), ("p1", "p99")].into_iter().enumerate() {
        let ly = a.top + 8.0 + 14.0 * k as f64;
        svg.circle(a.right - 56.0, ly - 4.0, 4.0, class, None);
        svg.text(a.right - 48.0, ly, "start", "legend", label);
    }
    Some(svg.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::LatencyDistribution;

    fn run(p50: f64, p99: f64) -> LoadRun {
        LoadRun {
            window: None,
            achieved_rate: 100.0,
            ok: 100,
            errors: 0,
            latency: LatencyDistribution {
                count: 100,
                percentiles_us: [("p50".to_string(), p50), ("p99".to_string(), p99)]
                    .into_iter()
                    .collect(),
                max_us: p99,
                mean_us: p50,
                hdr_base64: String::new(),
            },
        }
    }

    #[test]
    fn each_run_shows_its_p50_and_p99() {
        let svg = runs_chart(
            "GET /",
            &[run(100.0, 300.0), run(110.0, 600.0), run(105.0, 400.0)],
        )
        .unwrap();
        assert!(svg.contains("3 runs: p50 from run to run within ×1.10, p99 within ×2.00."));
        assert!(svg.contains("<title>run 2: p99 600.0 µs</title>"));
        assert_eq!(
            svg.matches("class=\"p0\"").count(),
            4,
            "three runs and the legend"
        );
        assert!(runs_chart("GET /", &[run(1.0, 2.0)]).is_none());
    }
}
