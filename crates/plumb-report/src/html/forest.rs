//! The verdicts as a forest plot: each comparison's ratio with its interval against the
//! band of the smallest effect of interest, so "slower", "equivalent" and "inconclusive"
//! read as where a bar lies relative to the band.

use super::frame::{self, Area, Axis, WIDTH};
use super::scale::Scale;
use super::svg::Svg;
use plumb_model::{Comparison, Verdict};

const ROW: f64 = 26.0;

fn class(v: Verdict) -> &'static str {
    match v {
        Verdict::Faster => "v-faster",
        Verdict::Slower => "v-slower",
        Verdict::Equivalent => "v-equivalent",
        Verdict::Inconclusive => "v-inconclusive",
    }
}

/// The longest row label drawn whole, in characters: longer ones keep their end (where
/// names differ: `…rand 64K 4194304`), the whole name in the point's hover text.
const LABEL_CHARS: usize = 48;

/// A row's label: the name and verdict, cut at its start to `LABEL_CHARS`.
fn label(c: &Comparison) -> String {
    let text = format!("{} ({})", c.candidate, c.verdict);
    let n = text.chars().count();
    if n <= LABEL_CHARS {
        return text;
    }
    let tail: String = text.chars().skip(n - (LABEL_CHARS - 1)).collect();
    format!("…{tail}")
}

/// One comparison at height `y`: its name and verdict, its interval, its ratio.
fn row(svg: &mut Svg, x: &Scale, left: f64, y: f64, c: &Comparison) {
    let k = class(c.verdict);
    svg.text(left - 8.0, y + 4.0, "end", "", &label(c));
    if let Some(ci) = c.ratio_ci {
        svg.line(x.at_within(ci.lo), y, x.at_within(ci.hi), y, k);
        svg.line(x.at(ci.lo), y - 5.0, x.at(ci.lo), y + 5.0, k);
        svg.line(x.at(ci.hi), y - 5.0, x.at(ci.hi), y + 5.0, k);
    }
    let tip = match c.ratio_ci {
        Some(ci) => format!(
            "{}: ×{:.4} [{:.4}, {:.4}]: {}",
            c.candidate, c.ratio, ci.lo, ci.hi, c.verdict
        ),
        None => format!(
            "{}: ×{:.4}, no interval: {}",
            c.candidate, c.ratio, c.verdict
        ),
    };
    svg.circle(x.at(c.ratio), y, 4.0, k, Some(&tip));
}

/// `sesoi` as a fraction (0.02 for ±2 %).
pub fn forest_chart(comparisons: &[Comparison], sesoi: f64) -> String {
    let height = 56.0 + ROW * comparisons.len() as f64;
    // Room on the left for the longest label.
    let widest = comparisons
        .iter()
        .map(|c| frame::label_width(&label(c)))
        .fold(0.0, f64::max);
    let a = Area {
        left: (widest + 16.0).max(120.0),
        right: WIDTH - 20.0,
        top: 10.0,
        bottom: height - 36.0,
    };
    let ends = comparisons.iter().flat_map(|c| {
        let ci = c.ratio_ci.map_or((c.ratio, c.ratio), |i| (i.lo, i.hi));
        [c.ratio, ci.0, ci.1]
    });
    let (lo, hi) = ends
        .chain([1.0 - 2.0 * sesoi, 1.0 + 2.0 * sesoi])
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(l, h), v| (l.min(v), h.max(v)));
    let pad = (hi - lo) * 0.05;
    let x = if hi / lo > 4.0 {
        Scale::Log {
            lo: lo / 1.1,
            hi: hi * 1.1,
            from: a.left,
            to: a.right,
        }
    } else {
        Scale::Linear {
            lo: lo - pad,
            hi: hi + pad,
            from: a.left,
            to: a.right,
        }
    };
    let desc: Vec<String> = comparisons
        .iter()
        .map(|c| {
            format!(
                "{} against {}: ×{:.3}, {}",
                c.candidate, c.baseline, c.ratio, c.verdict
            )
        })
        .collect();
    let mut svg = Svg::new(WIDTH, height, "Ratios to the baseline", &desc.join("; "));
    let (b0, b1) = (x.at(1.0 - sesoi), x.at(1.0 + sesoi));
    svg.rect(
        b0,
        a.top,
        b1 - b0,
        a.bottom - a.top,
        "band",
        Some(&format!("±{:.1} % (SESOI)", 100.0 * sesoi)),
    );
    svg.line(x.at(1.0), a.top, x.at(1.0), a.bottom, "mark");
    let times = |t: f64| format!("×{t}");
    frame::draw_x(
        &mut svg,
        a,
        &Axis {
            label: "ratio to the baseline (shaded: the smallest effect of interest)",
            scale: x,
            format: &times,
        },
    );
    for (i, c) in comparisons.iter().enumerate() {
        row(&mut svg, &x, a.left, a.top + ROW * (i as f64 + 0.6), c);
    }
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::quantity::{Confidence, Fraction};
    use plumb_model::Interval;

    #[test]
    fn each_verdict_is_drawn_against_the_band() {
        let slow = Comparison {
            verdict: Verdict::Slower,
            ratio: 1.2,
            ratio_ci: Some(Interval { lo: 1.15, hi: 1.25 }),
            ..Comparison::unjudged("a", "b", Confidence::DEFAULT, Fraction::DEFAULT_SESOI)
        };
        let mut same = slow.clone();
        same.candidate = "c".into();
        same.ratio = 1.0;
        same.ratio_ci = None;
        same.verdict = Verdict::Inconclusive;
        let svg = forest_chart(&[slow, same], 0.02);
        assert!(svg.contains("<title>±2.0 % (SESOI)</title>"));
        assert!(svg.contains("<title>b: ×1.2000 [1.1500, 1.2500]: slower</title>"));
        assert!(svg.contains("<title>c: ×1.0000, no interval: inconclusive</title>"));
        assert_eq!(
            svg.matches("class=\"v-slower\"").count(),
            4,
            "whisker, two caps, point"
        );
        assert!(svg.contains(">b (slower)<") && svg.contains(">c (inconclusive)<"));
        // A long name keeps its end, where names differ; the point's hover has it whole.
        let mut long = Comparison::unjudged("a", "b", Confidence::DEFAULT, Fraction::DEFAULT_SESOI);
        long.candidate = format!("/tmp/{}/cache rand 64K 4194304", "x".repeat(40));
        let cut = label(&long);
        assert!(
            cut.starts_with('…') && cut.ends_with("rand 64K 4194304 (inconclusive)"),
            "{cut}"
        );
        assert_eq!(cut.chars().count(), LABEL_CHARS);
    }
}
