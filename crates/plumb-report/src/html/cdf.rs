//! The CDF of a benchmark's values with min, median, mean and p99 marked: the talk's
//! "take the minimum?" slide, where one look says which question a figure answers
//! (best case, typical, bounded worst case).

use super::frame::{self, Area, Axis, HEIGHT, WIDTH};
use super::sample_points::quantile_points;
use super::scale::Scale;
use super::svg::Svg;

/// Points drawn at most; the extremes are always among them.
const POINTS: usize = 800;

/// The marked figures, in the values' unit.
pub struct Marks {
    pub min: f64,
    pub median: f64,
    pub mean: f64,
    pub p99: f64,
}

/// `sorted` ascending and finite; `format` writes a value with its unit.
pub fn cdf_chart(
    name: &str,
    sorted: &[f64],
    marks: &Marks,
    format: &dyn Fn(f64) -> String,
) -> String {
    let a = Area::standard();
    let (lo, hi) = (sorted[0], sorted[sorted.len() - 1]);
    let x = frame::value_scale(lo, hi, a.left, a.right);
    let y = Scale::Linear {
        lo: 0.0,
        hi: 1.0,
        from: a.bottom,
        to: a.top,
    };
    let known = |v: f64| {
        if v.is_finite() {
            format(v)
        } else {
            "unknown".to_string()
        }
    };
    let desc = format!(
        "Cumulative distribution of {} values: min {}, median {}, mean {}, p99 {}, max {}.",
        sorted.len(),
        known(marks.min),
        known(marks.median),
        known(marks.mean),
        known(marks.p99),
        format(hi)
    );
    let mut svg = Svg::new(WIDTH, HEIGHT, &format!("CDF of {name}"), &desc);
    let percent = |v: f64| format!("{:.0} %", 100.0 * v);
    frame::draw(
        &mut svg,
        a,
        &Axis {
            label: "time per operation (each sample)",
            scale: x,
            format,
        },
        &Axis {
            label: "fraction of samples ≤ time",
            scale: y,
            format: &percent,
        },
    );
    // A step function: flat to each next value, then up.
    let mut steps = Vec::new();
    let mut last_f = 0.0;
    for (v, f) in quantile_points(sorted, POINTS) {
        let px = x.at(v);
        steps.push((px, y.at(last_f)));
        steps.push((px, y.at(f)));
        last_f = f;
    }
    svg.polyline(&steps, "s0");
    draw_marks(&mut svg, &x, a, marks, format);
    svg.finish()
}

/// Min, median, mean and p99 as dashed lines with their values, placed so close ones do
/// not print over each other and the last does not run past the plot.
fn draw_marks(svg: &mut Svg, x: &Scale, a: Area, marks: &Marks, format: &dyn Fn(f64) -> String) {
    let labels = [
        ("min", marks.min),
        ("median", marks.median),
        ("mean", marks.mean),
        ("p99", marks.p99),
    ];
    let mut placer = frame::LabelPlacer::new(a);
    // A figure that is not a number (a result's statistics could not be computed) is
    // left unmarked rather than drawn at a NaN pixel.
    for (label, v) in labels.iter().filter(|(_, v)| v.is_finite()) {
        let px = x.at(*v);
        svg.line(px, a.top, px, a.bottom, "mark");
        let text = format!("{label} {}", format(*v));
        placer.place(svg, px, a.top + 10.0, "marklabel", &text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cdf_rises_to_one_and_marks_its_figures() {
        let sorted: Vec<f64> = (1..=100).map(f64::from).collect();
        let marks = Marks {
            min: 1.0,
            median: 50.5,
            mean: 50.5,
            p99: 99.01,
        };
        let svg = cdf_chart("x", &sorted, &marks, &|v| format!("{v:.1} ns"));
        assert!(svg.contains("<title>CDF of x</title>"));
        assert!(svg.contains("min 1.0 ns") && svg.contains("p99 99.0 ns"));
        assert!(svg.contains("median 50.5 ns") && svg.contains("mean 50.5 ns"));
        assert!(svg.contains("max 100.0 ns"));
        let unknown = Marks {
            mean: f64::NAN,
            ..marks
        };
        let svg2 = cdf_chart("x", &sorted, &unknown, &|v| format!("{v:.1} ns"));
        assert!(
            !svg2.contains("NaN") && !svg2.contains(">mean "),
            "a NaN mark is left out"
        );
        // The step line ends at the top of the plot area (F = 1).
        let a = Area::standard();
        let points = svg
            .split("points=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        let last = points.split(' ').next_back().unwrap();
        assert!(last.ends_with(&format!(",{:.1}", a.top)), "{last}");
    }
}
