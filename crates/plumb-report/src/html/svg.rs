//! A small SVG writer: the few elements the report's charts use, each styled by a CSS
//! class (so the page's light and dark schemes and its print sheet apply), and hover
//! values as native `<title>` children (no script needed to read a point).

use std::fmt::Write;

/// Text safe inside SVG and HTML elements and attributes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

pub struct Svg {
    out: String,
}

/// Pixels to one decimal: enough on screen, and a tenth of the digits of `{}`.
fn px(v: f64) -> String {
    format!("{:.1}", v)
}

impl Svg {
    /// A chart of `width` × `height` pixels whose `title` and `desc` are its text
    /// alternative (read by screen readers, shown by browsers on hover).
    pub fn new(width: f64, height: f64, title: &str, desc: &str) -> Svg {
        let mut out = String::new();
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\"><title>{}</title><desc>{}</desc>",
            escape(title),
            escape(desc),
            w = px(width),
            h = px(height),
        );
        Svg { out }
    }

    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, class: &str) {
        let _ = write!(
            self.out,
            "<line class=\"{class}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
            px(x1),
            px(y1),
            px(x2),
            px(y2)
        );
    }

    pub fn polyline(&mut self, points: &[(f64, f64)], class: &str) {
        if points.is_empty() {
            return;
        }
        let _ = write!(self.out, "<polyline class=\"{class}\" points=\"");
        for (i, (x, y)) in points.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            let _ = write!(self.out, "{sep}{},{}", px(*x), px(*y));
        }
        self.out.push_str("\"/>");
    }

    /// A point; `tip` is shown on hover.
    pub fn circle(&mut self, x: f64, y: f64, r: f64, class: &str, tip: Option<&str>) {
        let _ = write!(
            self.out,
            "<circle class=\"{class}\" cx=\"{}\" cy=\"{}\" r=\"{}\"",
            px(x),
            px(y),
            px(r)
        );
        match tip {
            Some(t) => {
                let _ = write!(self.out, "><title>{}</title></circle>", escape(t));
            }
            None => self.out.push_str("/>"),
        }
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, class: &str, tip: Option<&str>) {
        let _ = write!(
            self.out,
            "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
            px(x),
            px(y),
            px(w.max(0.0)),
            px(h.max(0.0))
        );
        match tip {
            Some(t) => {
                let _ = write!(self.out, "><title>{}</title></rect>", escape(t));
            }
            None => self.out.push_str("/>"),
        }
    }

    /// Text at (x, y); `anchor` is `start`, `middle` or `end`. Empty text draws nothing.
    pub fn text(&mut self, x: f64, y: f64, anchor: &str, class: &str, s: &str) {
        if s.is_empty() {
            return;
        }
        let _ = write!(
            self.out,
            "<text class=\"{class}\" x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\">{}</text>",
            px(x),
            px(y),
            escape(s)
        );
    }

    /// Text turned to run upwards (a y-axis label).
    pub fn text_up(&mut self, x: f64, y: f64, s: &str) {
        let _ = write!(
            self.out,
            "<text x=\"{x}\" y=\"{y}\" text-anchor=\"middle\" transform=\"rotate(-90 {x} {y})\">{}</text>",
            escape(s),
            x = px(x),
            y = px(y)
        );
    }

    /// The chart for the page (styled by its stylesheet).
    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>");
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_are_escaped_and_titled() {
        let mut s = Svg::new(100.0, 50.0, "a <b> & c", "d");
        s.circle(1.0, 2.0, 3.0, "p0", Some("x < 2"));
        s.polyline(&[(0.0, 0.0), (1.25, 2.5)], "s0");
        let out = s.finish();
        assert!(
            out.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 100.0 50.0\"")
        );
        assert!(out.contains("<title>a &lt;b&gt; &amp; c</title><desc>d</desc>"));
        assert!(out.contains(
            "<circle class=\"p0\" cx=\"1.0\" cy=\"2.0\" r=\"3.0\"><title>x &lt; 2</title></circle>"
        ));
        assert!(out.contains("points=\"0.0,0.0 1.2,2.5\""));
        assert!(out.ends_with("</svg>"));
    }
}
