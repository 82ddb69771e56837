//! One benchmark's distribution: a box (quartiles, median, whiskers at the extremes of
//! the Tukey fences) over its samples as jittered points, so the shape — two modes, a
//! tail, a handful of outliers — shows that a mean and an error bar hide.

use super::frame::{self, Area, Axis, WIDTH};
use super::sample_points::strided;
use super::svg::Svg;
use plumb_model::Summary;

const HEIGHT: f64 = 120.0;
const POINTS: usize = 1500;

/// Deterministic jitter in [−1, 1] for point `i` (a hash, so a page is reproducible).
fn jitter(i: usize) -> f64 {
    let h = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 11;
    (h as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
}

/// `values` in run order; `s` their summary.
pub fn distribution_chart(
    name: &str,
    values: &[f64],
    s: &Summary,
    format: &dyn Fn(f64) -> String,
) -> String {
    let a = Area {
        left: 92.0,
        right: WIDTH - 20.0,
        top: 10.0,
        bottom: HEIGHT - 34.0,
    };
    let x = frame::value_scale(s.min, s.max, a.left, a.right);
    let iqr = s.q3 - s.q1;
    let (fence_lo, fence_hi) = (s.q1 - 1.5 * iqr, s.q3 + 1.5 * iqr);
    let inside = values
        .iter()
        .copied()
        .filter(|v| *v >= fence_lo && *v <= fence_hi);
    let (w_lo, w_hi) = inside.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
        (l.min(v), h.max(v))
    });
    let desc = format!(
        "{} samples: quartiles {} / {} / {}, whiskers {} to {}, extremes {} and {}.",
        values.len(),
        format(s.q1),
        format(s.median),
        format(s.q3),
        format(w_lo),
        format(w_hi),
        format(s.min),
        format(s.max)
    );
    let mut svg = Svg::new(WIDTH, HEIGHT, &format!("Distribution of {name}"), &desc);
    let mid = (a.top + a.bottom) / 2.0;
    let half = (a.bottom - a.top) / 2.0;
    for (i, v) in strided(values, POINTS) {
        let tip = format!("sample {}: {}", i + 1, format(v));
        svg.circle(x.at(v), mid + 0.8 * half * jitter(i), 1.8, "p0", Some(&tip));
    }
    let (q1, q3) = (x.at(s.q1), x.at(s.q3));
    svg.rect(
        q1,
        mid - half * 0.55,
        q3 - q1,
        half * 1.1,
        "box",
        Some(&desc),
    );
    svg.line(
        x.at(s.median),
        mid - half * 0.55,
        x.at(s.median),
        mid + half * 0.55,
        "median",
    );
    svg.line(x.at(w_lo), mid, q1, mid, "axis");
    svg.line(q3, mid, x.at(w_hi), mid, "axis");
    frame::draw_x(
        &mut svg,
        a,
        &Axis {
            label: "",
            scale: x,
            format,
        },
    );
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jitter_is_spread_and_reproducible() {
        let j: Vec<f64> = (0..1000).map(jitter).collect();
        assert!(j.iter().all(|v| (-1.0..=1.0).contains(v)));
        let mean = j.iter().sum::<f64>() / 1000.0;
        assert!(mean.abs() < 0.1, "{mean}");
        assert_eq!(jitter(7), jitter(7));
    }
}
