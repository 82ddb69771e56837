//! Each chart of a page as an SVG file of its own (`plumb report --svg-dir`): the same
//! drawing, carrying the page's stylesheet (its colour variables apply to the SVG root,
//! light and dark alike), named after its title.

use super::STYLE;

/// Every chart of `page` (the top-level `<svg>` elements), as (file name, file text).
/// Names are the charts' titles made safe for a file system, numbered when repeated.
pub fn standalone_charts(page: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut rest = page;
    while let Some(start) = rest.find("<svg ") {
        let Some(len) = rest[start..].find("</svg>") else {
            break;
        };
        let svg = &rest[start..start + len + "</svg>".len()];
        rest = &rest[start + len..];
        let title = svg
            .split_once("<title>")
            .and_then(|(_, t)| t.split_once("</title>"))
            .map_or("chart", |(t, _)| t);
        let base = slug(title);
        let count = seen.entry(base.clone()).or_insert(0);
        *count += 1;
        let name = if *count == 1 {
            base
        } else {
            format!("{base}-{count}")
        };
        let body = svg.replacen(
            "role=\"img\">",
            &format!("role=\"img\"><style>{STYLE}</style>"),
            1,
        );
        out.push((
            format!("{name}.svg"),
            format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{body}\n"),
        ));
    }
    out
}

/// Lower-case letters, digits and single dashes, at most 80 characters.
fn slug(title: &str) -> String {
    let mut s = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    let s = s.trim_end_matches('-');
    s.chars()
        .take(80)
        .collect::<String>()
        .trim_end_matches('-')
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_chart_becomes_a_named_file_with_its_styles() {
        let page = "<p>x</p><svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\"><title>CDF of sleep 0.01 &amp; co</title></svg><svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\"><title>CDF of sleep 0.01 &amp; co</title></svg>";
        let files = standalone_charts(page);
        assert_eq!(files.len(), 2);
        assert_eq!(files[0].0, "cdf-of-sleep-0-01-amp-co.svg");
        assert_eq!(files[1].0, "cdf-of-sleep-0-01-amp-co-2.svg");
        assert!(files[0].1.starts_with("<?xml"));
        assert!(files[0].1.contains("role=\"img\"><style>:root{"));
        assert_eq!(slug("Sweep ./cache rand {size}"), "sweep-cache-rand-size");
    }
}
