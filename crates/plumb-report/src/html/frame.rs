//! The frame every chart shares: plot area, gridlines, ticks and axis labels.

use super::scale::Scale;
use super::svg::Svg;

/// Latency charts work in microseconds, the histograms' unit: a latency as a value on
/// their axes (a missing one, a percentile not kept, is NaN and drawn nowhere).
pub fn micros(d: Option<plumb_model::quantity::Duration>) -> f64 {
    d.map_or(f64::NAN, plumb_model::quantity::Duration::as_micros_f64)
}

/// A latency axis value (µs) as text, by the one formatter; zero as `0`, not `0.000 ns`
/// on an axis of milliseconds.
pub fn micros_text(us: f64) -> String {
    if us == 0.0 {
        return "0".into();
    }
    plumb_model::format::time_ns(us * 1e3)
}

/// A chart's width: the page's column (70rem less its padding) at one pixel per unit, so
/// its text is drawn at its own size (at 640 a chart filled half a 1100 px column).
pub const WIDTH: f64 = 1040.0;
pub const HEIGHT: f64 = 280.0;

/// The plot area inside the chart, pixels.
#[derive(Debug, Clone, Copy)]
pub struct Area {
    pub left: f64,
    pub right: f64,
    pub top: f64,
    pub bottom: f64,
}

impl Area {
    /// The standard area: room for tick labels (ten characters) and the axis title
    /// beside them on the left, and an axis label below.
    pub fn standard() -> Area {
        Area {
            left: 92.0,
            right: WIDTH - 20.0,
            top: 14.0,
            bottom: HEIGHT - 42.0,
        }
    }
}

/// How an axis is labelled: its title, the scale, and how a tick value reads.
pub struct Axis<'a> {
    pub label: &'a str,
    pub scale: Scale,
    pub format: &'a dyn Fn(f64) -> String,
}

/// Gridlines and labels for both axes, then the axis lines.
pub fn draw(svg: &mut Svg, area: Area, x: &Axis, y: &Axis) {
    for t in y.scale.ticks(5) {
        let py = y.scale.at(t);
        if py < area.top - 0.5 || py > area.bottom + 0.5 {
            continue;
        }
        svg.line(area.left, py, area.right, py, "grid");
        svg.text(area.left - 6.0, py + 4.0, "end", "tick", &(y.format)(t));
    }
    svg.line(area.left, area.top, area.left, area.bottom, "axis");
    // Clear of tick labels up to ten characters (about 62 px at 11 px) ending 6 px left
    // of the axis: the title was drawn over them.
    svg.text_up(12.0, (area.top + area.bottom) / 2.0, y.label);
    draw_x(svg, area, x);
}

/// The horizontal axis alone: ticks with their labels, the line, and its title (none
/// when empty). Charts without a value axis (distribution, forest) draw only this.
pub fn draw_x(svg: &mut Svg, area: Area, x: &Axis) {
    for t in x.scale.ticks(6) {
        let px = x.scale.at(t);
        if px < area.left - 0.5 || px > area.right + 0.5 {
            continue;
        }
        svg.line(px, area.bottom, px, area.bottom + 4.0, "axis");
        // Centred under its tick, unless that runs past the chart's right margin (a
        // last tick at the plot's edge was cut off): then it ends at the tick.
        let text = (x.format)(t);
        if px + label_width(&text) / 2.0 > area.right + 16.0 {
            svg.text(px + 2.0, area.bottom + 16.0, "end", "tick", &text);
        } else {
            svg.text(px, area.bottom + 16.0, "middle", "tick", &text);
        }
    }
    svg.line(area.left, area.bottom, area.right, area.bottom, "axis");
    if !x.label.is_empty() {
        svg.text(
            (area.left + area.right) / 2.0,
            area.bottom + 34.0,
            "middle",
            "label",
            x.label,
        );
    }
}

/// Entry `k` (0 at the top) of a legend whose left edge is `x`: a short line of the
/// series' class (or a dot, for a series drawn as points), then its label.
pub fn legend(svg: &mut Svg, x: f64, top: f64, k: usize, class: &str, label: &str, dot: bool) {
    let y = top + 8.0 + 14.0 * k as f64;
    if dot {
        svg.circle(x + 10.0, y - 4.0, 4.0, class, None);
    } else {
        svg.line(x, y - 4.0, x + 20.0, y - 4.0, class);
    }
    svg.text(x + 24.0, y, "start", "legend", label);
}

/// A value axis over `lo..hi` (the values' own range, padded 3 %), logarithmic when
/// the values span more than two decades so that both ends stay readable.
pub fn value_scale(lo: f64, hi: f64, from: f64, to: f64) -> Scale {
    if lo > 0.0 && hi / lo > 100.0 {
        return Scale::Log {
            lo: lo / 1.1,
            hi: hi * 1.1,
            from,
            to,
        };
    }
    let pad = ((hi - lo) * 0.03).max(hi.abs() * 1e-6).max(1e-12);
    Scale::Linear {
        lo: (lo - pad).max(if lo >= 0.0 { 0.0 } else { f64::NEG_INFINITY }),
        hi: hi + pad,
        from,
        to,
    }
}

/// Places short labels in a plot so that they neither print over each other nor run
/// past its right edge: each at the point it is for, else on the next free row below;
/// anchored at its end where it would pass the edge.
pub struct LabelPlacer {
    area: Area,
    placed: Vec<(f64, f64, f64, f64)>,
}

/// A label's width in pixels at the charts' 11 px font (about 6.2 px a character).
pub fn label_width(text: &str) -> f64 {
    text.chars().count() as f64 * 6.2
}

impl LabelPlacer {
    pub fn new(area: Area) -> LabelPlacer {
        LabelPlacer {
            area,
            placed: Vec::new(),
        }
    }

    /// Draws `text` near (x, y), its baseline at y or on a free row below.
    pub fn place(&mut self, svg: &mut super::svg::Svg, x: f64, y: f64, class: &str, text: &str) {
        let w = label_width(text);
        let (left, anchor_x, anchor) = if x + 3.0 + w <= self.area.right {
            (x + 3.0, x + 3.0, "start")
        } else {
            (x - 3.0 - w, x - 3.0, "end")
        };
        let mut top = y - 10.0;
        // The width is an estimate: a browser's font can be wider, so labels side by side
        // keep a gap (a full test run once drew "mean 5.475 ms" over "median 5.540 ms").
        const GAP: f64 = 8.0;
        for _ in 0..12 {
            let free = self.placed.iter().all(|&(l, t, r, b)| {
                left + w + GAP <= l || left >= r + GAP || top + 12.0 <= t || top >= b
            });
            if free || top + 24.0 > self.area.bottom {
                break;
            }
            top += 12.0;
        }
        self.placed.push((left, top, left + w, top + 12.0));
        svg.text(anchor_x, top + 10.0, anchor, class, text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tick at the plot's right edge with a long label ends at its tick instead of
    /// running past the chart (cut off in a browser: "4.600 ms" at 1040 − 20 px).
    #[test]
    fn a_last_tick_label_stays_inside_the_chart() {
        let a = Area::standard();
        let x = Axis {
            label: "",
            scale: Scale::Linear {
                lo: 0.0,
                hi: 5.0,
                from: a.left,
                to: a.right,
            },
            format: &|v: f64| format!("{v:.3} ms"),
        };
        let mut svg = super::super::svg::Svg::new(WIDTH, HEIGHT, "t", "d");
        draw_x(&mut svg, a, &x);
        let out = svg.finish();
        assert!(out.contains("text-anchor=\"end\">5.000 ms<"), "{out}");
        assert!(out.contains("text-anchor=\"middle\">2.000 ms<"), "{out}");
    }
}
