//! Flame-graph SVGs drawn by inferno: one profile's, and the differential one of two.

use inferno::differential;
use inferno::flamegraph::{self, Options};
use plumb_model::FoldedStack;
use std::fmt;

/// Why no flame graph was drawn.
#[derive(Debug)]
pub enum FlameError {
    /// The profile has no stacks.
    NoStacks,
    /// inferno could not take the two profiles' difference.
    Differential(std::io::Error),
    /// inferno could not draw.
    Drawing(std::io::Error),
}

impl fmt::Display for FlameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FlameError::NoStacks => f.write_str("no stacks to draw a flame graph of"),
            FlameError::Differential(e) => write!(f, "differential stacks: {e}"),
            FlameError::Drawing(e) => write!(f, "drawing the flame graph: {e}"),
        }
    }
}

impl std::error::Error for FlameError {}

/// One profile's flame graph.
pub fn svg(stacks: &[FoldedStack], title: &str, subtitle: &str) -> Result<String, FlameError> {
    draw(&mut titled(title, subtitle), &FoldedStack::text(stacks))
}

fn titled<'a>(title: &str, subtitle: &str) -> Options<'a> {
    let mut options = Options::default();
    options.title = title.to_string();
    options.subtitle = Some(subtitle.to_string());
    options.count_name = "samples".to_string();
    options
}

/// The differential flame graph: drawn with AFTER's stacks, each frame coloured by how
/// its samples moved from BEFORE (red grew, blue shrank). Counts are normalised to the
/// same total first, so the colours show shares, not the two runs' lengths.
pub fn differential_svg(
    before: &[FoldedStack],
    after: &[FoldedStack],
    title: &str,
    subtitle: &str,
) -> Result<String, FlameError> {
    let mut diff = Vec::new();
    let options = differential::Options {
        normalize: true,
        ..Default::default()
    };
    differential::from_readers(
        options,
        FoldedStack::text(before).as_bytes(),
        FoldedStack::text(after).as_bytes(),
        &mut diff,
    )
    .map_err(FlameError::Differential)?;
    draw(
        &mut titled(title, subtitle),
        &String::from_utf8_lossy(&diff),
    )
}

fn draw(options: &mut Options<'_>, folded_text: &str) -> Result<String, FlameError> {
    let mut svg = Vec::new();
    if folded_text.trim().is_empty() {
        return Err(FlameError::NoStacks);
    }
    flamegraph::from_lines(options, folded_text.lines(), &mut svg).map_err(FlameError::Drawing)?;
    Ok(String::from_utf8_lossy(&svg).into_owned())
}

/// The files `plumb profile` writes of a profile, by name: the result (profile.json), its
/// table (profile.md), the folded stacks, the flame graph when there are samples, and the
/// page of plumb report (`PROFILE_PAGE`).
pub fn profile_files(
    doc: &plumb_model::ResultDocument,
    top: usize,
) -> Result<Vec<(&'static str, String)>, FlameError> {
    let profile = &doc.profiles[0];
    let settings = doc.settings.producer.profile();
    let md = crate::profile_markdown_with_details(profile, settings, top);
    let mut files = vec![
        ("profile.json", doc.to_json()),
        ("profile.md", md),
        ("stacks.folded", FoldedStack::text(&profile.stacks)),
    ];
    if profile.samples > 0 {
        let subtitle = settings.map_or(String::new(), |s| {
            format!("{} samples, {}", profile.samples, s.describe())
        });
        files.push((
            "flamegraph.svg",
            svg(&profile.stacks, &profile.name, &subtitle)?,
        ));
    }
    files.push((PROFILE_PAGE, crate::render_html(&[("", doc)])));
    Ok(files)
}

/// The page of plumb report among a profile's files.
pub const PROFILE_PAGE: &str = "report.html";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_frame_is_drawn() {
        let s = svg(
            &crate::fixture::folded("p;main;heavy 7\np;main;light 3\n"),
            "t",
            "sub",
        )
        .unwrap();
        assert!(s.starts_with("<?xml"));
        for frame in ["heavy", "light", "main"] {
            assert!(s.contains(&format!(">{frame}<")), "{frame} missing");
        }
        assert!(svg(&[], "t", "s").is_err());
    }

    #[test]
    fn the_differential_graph_draws_the_after_stacks() {
        let s = differential_svg(
            &crate::fixture::folded("p;main;heavy 70\np;main;light 30\n"),
            &crate::fixture::folded("p;main;heavy 35\np;main;light 30\n"),
            "t",
            "s",
        )
        .unwrap();
        assert!(s.contains(">heavy<") && s.contains(">light<"));
    }
}
