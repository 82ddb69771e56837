//! A sweep: time per operation against the working set on log axes, this machine's
//! caches drawn where they fall and each detected cliff named where it happens — the
//! picture of the cache hierarchy that a table of sizes makes you imagine.

use super::frame::{self, Area, Axis, HEIGHT, WIDTH};
use super::scale::Scale;
use super::svg::Svg;
use plumb_model::format;
use plumb_model::sweep::{cache_marks, Sweep};
use plumb_model::{DiagnosticCode, Metric, ResultDocument, Unit};

/// One working set of the sweep: its bytes, mean time per operation with its interval,
/// and the benchmark's name.
struct Point<'a> {
    bytes: u64,
    mean: f64,
    ci: Option<(f64, f64)>,
    name: &'a str,
}

fn points<'a>(doc: &'a ResultDocument, s: &Sweep) -> Vec<Point<'a>> {
    s.points
        .iter()
        .filter_map(|&i| {
            let b = &doc.benchmarks[i];
            let st = b.stats(&Metric::WallTime)?;
            Some(Point {
                bytes: b.working_set?.0,
                mean: st.summary.mean,
                ci: st.mean_ci.map(|c| (c.lo, c.hi)),
                name: b.name.as_str(),
            })
        })
        .filter(|p| p.bytes > 0 && p.mean.is_finite() && p.mean > 0.0)
        .collect()
}

/// The working-set axis over `lo..hi` bytes, padded, ticked at powers of two.
fn working_set(lo: f64, hi: f64, a: Area) -> Axis<'static> {
    Axis {
        label: "working set",
        scale: Scale::Bytes {
            lo: lo / 1.3,
            hi: hi * 1.3,
            from: a.left,
            to: a.right,
        },
        format: &bytes,
    }
}

fn bytes(v: f64) -> String {
    format::value(Unit::Bytes, v)
}

fn time(ns: f64) -> String {
    plumb_model::format::time_ns(ns)
}

/// The sweep's chart; None when fewer than two of its points have a time.
pub fn sweep_chart(doc: &ResultDocument, s: &Sweep) -> Option<String> {
    let points = points(doc, s);
    if points.len() < 2 {
        return None;
    }
    let a = Area::standard();
    let (x_lo, x_hi) = (
        points[0].bytes as f64,
        points[points.len() - 1].bytes as f64,
    );
    let ws = working_set(x_lo, x_hi, a);
    let x = ws.scale;
    let (t_lo, t_hi) = points.iter().fold((f64::INFINITY, 0.0f64), |(l, h), p| {
        (l.min(p.mean), h.max(p.mean))
    });
    let y = if t_hi / t_lo > 4.0 {
        Scale::Log {
            lo: t_lo / 1.3,
            hi: t_hi * 1.3,
            from: a.bottom,
            to: a.top,
        }
    } else {
        frame::value_scale(t_lo, t_hi, a.bottom, a.top)
    };
    let marks = cache_marks(&doc.environment);
    let cliffs = cliffs(doc, s);
    let caches: Vec<String> = marks
        .iter()
        .map(|m| format!("{} {}", m.name, bytes(m.size.0 as f64)))
        .collect();
    let desc = format!(
        "{} working sets from {} to {}: time per operation from {} to {}. Caches: {}. {}",
        points.len(),
        bytes(x_lo),
        bytes(x_hi),
        time(t_lo),
        time(t_hi),
        if caches.is_empty() {
            "not known".to_string()
        } else {
            caches.join(", ")
        },
        cliffs
            .iter()
            .map(|(_, m)| m.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let mut svg = Svg::new(WIDTH, HEIGHT, &format!("Sweep {}", s.series), &desc);
    frame::draw(
        &mut svg,
        a,
        &ws,
        &Axis {
            label: "time per operation",
            scale: y,
            format: &time,
        },
    );
    let mut labels = frame::LabelPlacer::new(a);
    for (m, label) in marks.iter().zip(&caches) {
        let px = x.at(m.size.0 as f64);
        if px > a.left && px < a.right {
            svg.line(px, a.top, px, a.bottom, "mark");
            labels.place(&mut svg, px, a.top + 10.0, "marklabel", label);
        }
    }
    draw_points(&mut svg, &x, &y, &points, &cliffs, &mut labels);
    Some(svg.finish())
}

/// The line through the points, each with its interval and value, and the cliffs circled.
fn draw_points(
    svg: &mut Svg,
    x: &Scale,
    y: &Scale,
    points: &[Point],
    cliffs: &[(u64, String)],
    labels: &mut frame::LabelPlacer,
) {
    let line: Vec<(f64, f64)> = points
        .iter()
        .map(|p| (x.at(p.bytes as f64), y.at(p.mean)))
        .collect();
    svg.polyline(&line, "s0");
    for p in points {
        let px = x.at(p.bytes as f64);
        if let Some((lo, hi)) = p.ci {
            svg.line(px, y.at_within(lo), px, y.at_within(hi), "s0");
        }
        let tip = format!("{}: {} at {}", p.name, time(p.mean), bytes(p.bytes as f64));
        svg.circle(px, y.at(p.mean), 3.5, "p0", Some(&tip));
    }
    for (ws, message) in cliffs {
        if let Some(p) = points.iter().find(|p| p.bytes == *ws) {
            let (px, py) = (x.at(p.bytes as f64), y.at(p.mean));
            svg.circle(px, py, 7.0, "cliff", Some(message));
            labels.place(svg, px + 6.0, py + 4.0, "marklabel", "cliff");
        }
    }
}

/// Misses per operation drawn when any point of the sweep has them (counted or
/// simulated), as in the sweep table.
const MISSES: [(&str, Metric); 4] = [
    ("D1 misses/op", Metric::D1Misses),
    ("LL misses/op", Metric::LlMisses),
    ("L1d load misses/op", Metric::L1dLoadMisses),
    ("LLC load misses/op", Metric::LlcLoadMisses),
];

/// The sweep's misses per operation against the working set, one line per kind; None
/// when nothing was counted or simulated.
pub fn sweep_misses_chart(doc: &ResultDocument, s: &Sweep) -> Option<String> {
    let series: Vec<(&str, Vec<(f64, f64)>)> = MISSES
        .iter()
        .map(|(label, m)| {
            let points = s
                .points
                .iter()
                .filter_map(|&i| {
                    let b = &doc.benchmarks[i];
                    let (v, _) = b.counted_mean(m)?;
                    Some((b.working_set?.0 as f64, v))
                })
                .filter(|(ws, v)| *ws > 0.0 && v.is_finite() && *v > 0.0)
                .collect::<Vec<_>>();
            (*label, points)
        })
        .filter(|(_, p)| p.len() >= 2)
        .collect();
    if series.is_empty() {
        return None;
    }
    let a = Area::standard();
    let all = series.iter().flat_map(|(_, p)| p.iter());
    let (x_lo, x_hi, v_lo, v_hi) = all.fold(
        (f64::INFINITY, 0.0f64, f64::INFINITY, 0.0f64),
        |(xl, xh, vl, vh), (x, v)| (xl.min(*x), xh.max(*x), vl.min(*v), vh.max(*v)),
    );
    let ws = working_set(x_lo, x_hi, a);
    let x = ws.scale;
    let y = Scale::Log {
        lo: v_lo / 1.5,
        hi: v_hi * 1.5,
        from: a.bottom,
        to: a.top,
    };
    let names: Vec<&str> = series.iter().map(|(l, _)| *l).collect();
    let desc = format!(
        "{} against the working set, {} points.",
        names.join(", "),
        series[0].1.len()
    );
    let mut svg = Svg::new(
        WIDTH,
        HEIGHT,
        &format!("Misses in sweep {}", s.series),
        &desc,
    );
    let count = |v: f64| format::value(Unit::Count, v);
    frame::draw(
        &mut svg,
        a,
        &ws,
        &Axis {
            label: "misses per operation",
            scale: y,
            format: &count,
        },
    );
    for (k, (label, points)) in series.iter().enumerate() {
        let class = format!("s{}", k % 3);
        let line: Vec<(f64, f64)> = points.iter().map(|(ws, v)| (x.at(*ws), y.at(*v))).collect();
        svg.polyline(&line, &class);
        for (ws, v) in points {
            let tip = format!("{label}: {} at {}", count(*v), bytes(*ws));
            svg.circle(x.at(*ws), y.at(*v), 3.0, &format!("p{}", k % 2), Some(&tip));
        }
        frame::legend(&mut svg, a.left + 10.0, a.top, k, &class, label, false);
    }
    Some(svg.finish())
}

/// The cliffs the analysis found in this sweep: the working set where each lands, and
/// its message.
fn cliffs(doc: &ResultDocument, s: &Sweep) -> Vec<(u64, String)> {
    s.points
        .iter()
        .flat_map(|&i| {
            let b = &doc.benchmarks[i];
            b.diagnostics
                .iter()
                .filter(|d| d.code() == DiagnosticCode::CacheCliff)
                .filter_map(move |d| Some((b.working_set?.0, crate::finding::message(&d.finding))))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::sweep::sweeps;
    use plumb_model::{CacheLevel, Diagnostic, Severity};

    #[test]
    fn caches_are_drawn_where_they_fall_and_cliffs_are_named() {
        let mut doc = crate::fixture::document();
        doc.environment.caches = [
            (1, "Data", 32u64 << 10),
            (2, "Unified", 1 << 20),
            (3, "Unified", 32 << 20),
        ]
        .into_iter()
        .map(|(level, kind, size)| {
            CacheLevel::of_size(level, kind, plumb_model::quantity::ByteSize(size))
        })
        .collect();
        doc.benchmarks = vec![
            crate::fixture::sweep_point(16 << 10, 1.0),
            crate::fixture::sweep_point(256 << 10, 2.0),
            crate::fixture::sweep_point(64 << 20, 100.0),
        ];
        doc.benchmarks[2].diagnostics.push(Diagnostic::recorded(
            DiagnosticCode::CacheCliff,
            Severity::Warning,
            "time per operation ×50 from 256 KiB to 64 MiB: passes L2 and L3",
        ));
        let s = &sweeps(&doc.benchmarks)[0];
        let svg = sweep_chart(&doc, s).unwrap();
        assert!(svg.contains("<title>Sweep ./cache rand {size}</title>"));
        // All three caches lie inside 16 KiB .. 64 MiB: each drawn and labelled.
        for label in ["L1d 32.0 KiB", "L2 1.0 MiB", "L3 32.0 MiB"] {
            assert!(svg.contains(label), "{label}: {svg}");
        }
        assert!(svg.contains(
            "<title>time per operation ×50 from 256 KiB to 64 MiB: passes L2 and L3</title>"
        ));
        assert_eq!(svg.matches("class=\"cliff\"").count(), 1);
        assert!(sweep_misses_chart(&doc, s).is_none(), "nothing counted");
        // Simulated LL misses on two points: a misses chart with their values.
        let mut with = doc.clone();
        for (i, misses) in [(1, 0.5), (2, 3.0)] {
            let mut sim = plumb_model::SimulatedCounts::new("cachegrind", None);
            sim.metrics.insert(
                Metric::LlMisses,
                plumb_model::MetricInfo::known(&Metric::LlMisses, plumb_model::Source::Simulated),
            );
            let mut st = with.benchmarks[i].stats[&Metric::WallTime].clone();
            st.summary.mean = misses;
            sim.stats.insert(Metric::LlMisses, st);
            with.benchmarks[i].simulated = Some(sim);
        }
        let misses = sweep_misses_chart(&with, &sweeps(&with.benchmarks)[0]).unwrap();
        assert!(
            misses.contains("<title>LL misses/op: 3.00 at 64.0 MiB</title>"),
            "{misses}"
        );
        // Two points only with a time: still a chart; one: none.
        doc.benchmarks.truncate(1);
        doc.benchmarks
            .push(crate::fixture::sweep_point(64 << 10, 1.5));
        assert!(sweep_chart(&doc, &sweeps(&doc.benchmarks)[0]).is_some());
    }
}
