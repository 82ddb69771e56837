//! A series' history as a picture: every result at its commit with its interval, each
//! change point drawn where the new level starts, named with its commits, its change and
//! its status — what a table of 500 rows cannot show at a glance.

use super::frame::{self, Area, Axis, LabelPlacer, HEIGHT, WIDTH};
use super::sample_points::strided;
use super::scale::Scale;
use super::svg::Svg;
use plumb_model::{format, Unit};

/// One series of a history, as the page draws it.
#[derive(Debug, Clone)]
pub struct TrendSeries {
    pub name: String,
    /// The machine it was measured on (its fingerprint).
    pub machine: String,
    pub unit: Unit,
    pub points: Vec<TrendPoint>,
    pub changes: Vec<TrendChange>,
}

/// One result of the series: where (its commit or run), when, and its mean with interval.
#[derive(Debug, Clone)]
pub struct TrendPoint {
    pub at: String,
    pub date: String,
    pub mean: f64,
    pub interval: Option<(f64, f64)>,
}

/// A change point: the index of the new level's first point, and its words.
#[derive(Debug, Clone)]
pub struct TrendChange {
    pub index: usize,
    /// `c24..c25`.
    pub commits: String,
    /// after / before − 1.
    pub relative: f64,
    pub status: String,
}

/// Points drawn at most; every change's neighbours and the extremes are among them.
const POINTS: usize = 1500;

/// The chart of `s`; None without points.
pub fn trend_chart(s: &TrendSeries) -> Option<String> {
    if s.points.is_empty() {
        return None;
    }
    let a = Area::standard();
    let (lo, hi) = s
        .points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
            let (pl, ph) = p.interval.unwrap_or((p.mean, p.mean));
            (l.min(pl.min(p.mean)), h.max(ph.max(p.mean)))
        });
    let n = s.points.len().max(2);
    let x = Scale::Linear {
        lo: -0.5,
        hi: n as f64 - 0.5,
        from: a.left,
        to: a.right,
    };
    let y = frame::value_scale(lo, hi, a.bottom, a.top);
    let desc = format!(
        "{} results of {} in commit order, each with its interval; {} change point(s).",
        s.points.len(),
        s.name,
        s.changes.len()
    );
    let mut svg = Svg::new(WIDTH, HEIGHT, &format!("History of {}", s.name), &desc);
    let unit = s.unit;
    let value = move |v: f64| format::value(unit, v);
    let count = |v: f64| {
        if v.fract() == 0.0 && v >= 0.0 {
            format!("{}", v as u64 + 1)
        } else {
            String::new()
        }
    };
    frame::draw(
        &mut svg,
        a,
        &Axis {
            label: "result, in commit order",
            scale: x,
            format: &count,
        },
        &Axis {
            label: "mean per operation",
            scale: y,
            format: &value,
        },
    );
    let mut labels = LabelPlacer::new(a);
    for c in &s.changes {
        let edge = x.at(c.index as f64 - 0.5);
        svg.line(edge, a.top, edge, a.bottom, "mark");
        let text = format!(
            "{} {} {}",
            c.commits,
            format::signed_percent(c.relative),
            c.status
        );
        labels.place(&mut svg, edge, a.top + 10.0, "marklabel", &text);
    }
    let means: Vec<f64> = s.points.iter().map(|p| p.mean).collect();
    for (i, _) in strided(&means, POINTS) {
        let p = &s.points[i];
        let px = x.at(i as f64);
        if let Some((l, h)) = p.interval {
            svg.line(px, y.at(l), px, y.at(h), "errbar");
        }
        let interval = p.interval.map_or(String::new(), |(l, h)| {
            format!(" [{}, {}]", value(l), value(h))
        });
        let tip = format!("{} ({}): {}{interval}", p.at, p.date, value(p.mean));
        svg.circle(px, y.at(p.mean), 2.5, "p0", Some(&tip));
    }
    Some(svg.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series() -> TrendSeries {
        let points = (0..30)
            .map(|i| TrendPoint {
                at: format!("c{:02}", i + 1),
                date: "2026-11-27".into(),
                mean: if i < 24 { 1e6 } else { 1.1e6 },
                interval: Some((0.99e6, 1.01e6)),
            })
            .collect();
        TrendSeries {
            name: "parse · wall-time".into(),
            machine: "Test CPU".into(),
            unit: Unit::Nanoseconds,
            points,
            changes: vec![TrendChange {
                index: 24,
                commits: "c24..c25".into(),
                relative: 0.1,
                status: "candidate".into(),
            }],
        }
    }

    #[test]
    fn every_result_is_drawn_with_its_interval_and_each_change_is_named() {
        let svg = trend_chart(&series()).unwrap();
        assert_eq!(svg.matches("class=\"p0\"").count(), 30);
        assert_eq!(svg.matches("class=\"errbar\"").count(), 30);
        assert!(
            svg.contains("<title>c25 (2026-11-27): 1.100 ms [990.0 µs, 1.010 ms]</title>"),
            "{svg}"
        );
        assert!(svg.contains(">c24..c25 +10.0% candidate<"), "{svg}");
        assert!(svg.contains("30 results of parse · wall-time in commit order"));
    }
}
