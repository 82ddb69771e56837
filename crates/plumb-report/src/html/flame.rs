//! A profile's flame graph drawn for the page. inferno's SVG (what `plumb profile`
//! writes as flamegraph.svg) carries a document-wide stylesheet, fixed element ids and
//! an onload script, so two of them, or one beside these charts, restyle and break each
//! other inline; this one is drawn from the same folded stacks with the page's classes,
//! each frame's counts on hover, and no script.

use super::frame::WIDTH;
use super::svg::Svg;
use plumb_model::FoldedStack;
use std::collections::BTreeMap;

const ROW: f64 = 17.0;
/// Frames narrower than this many pixels are left out (their samples still count).
const MIN_PX: f64 = 0.5;
const CHAR_PX: f64 = 6.6;

/// A node of the call tree: samples of the stacks through it, its callees by name.
#[derive(Default)]
struct Node {
    samples: u64,
    children: BTreeMap<String, Node>,
}

fn tree(stacks: &[FoldedStack]) -> Node {
    let mut root = Node::default();
    for s in stacks {
        root.samples += s.samples;
        let mut node = &mut root;
        for frame in s.stack.split(';').filter(|f| !f.is_empty()) {
            node = node.children.entry(frame.to_string()).or_default();
            node.samples += s.samples;
        }
    }
    root
}

fn depth(n: &Node) -> usize {
    n.children.values().map(|c| 1 + depth(c)).max().unwrap_or(0)
}

/// One of five warm hues by the function's name, so a function keeps its colour.
fn hue(name: &str) -> usize {
    name.bytes()
        .fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(b as usize))
        % 5
}

/// None when there are no samples.
pub fn flame_chart(name: &str, stacks: &[FoldedStack]) -> Option<String> {
    let root = tree(stacks);
    if root.samples == 0 {
        return None;
    }
    let levels = depth(&root).max(1);
    let height = ROW * (levels as f64 + 1.0) + 8.0;
    let desc = format!(
        "Flame graph of {} samples, {} levels deep; callers below, callees above, each box as wide as its share.",
        root.samples, levels
    );
    let mut svg = Svg::new(WIDTH, height, &format!("Flame graph of {name}"), &desc);
    let scale = (WIDTH - 8.0) / root.samples as f64;
    let bottom = height - 4.0 - ROW;
    let tip = format!("all ({} samples)", root.samples);
    svg.rect(4.0, bottom, WIDTH - 8.0, ROW - 1.0, "fl0", Some(&tip));
    svg.text(8.0, bottom + 12.0, "start", "flt", "all");
    draw(&mut svg, &root, 4.0, bottom - ROW, scale, root.samples);
    Some(svg.finish())
}

fn draw(svg: &mut Svg, node: &Node, x: f64, y: f64, scale: f64, total: u64) {
    let mut at = x;
    for (name, child) in &node.children {
        let w = child.samples as f64 * scale;
        if w >= MIN_PX {
            let tip = format!(
                "{name} ({} samples, {:.2} %)",
                child.samples,
                100.0 * child.samples as f64 / total as f64
            );
            svg.rect(
                at,
                y,
                w - 0.5,
                ROW - 1.0,
                &format!("fl{}", hue(name)),
                Some(&tip),
            );
            let fits = ((w - 6.0) / CHAR_PX).floor() as usize;
            if fits >= 3 {
                let label: String = if name.chars().count() <= fits {
                    name.clone()
                } else {
                    name.chars().take(fits - 2).chain("..".chars()).collect()
                };
                svg.text(at + 3.0, y + 12.0, "start", "flt", &label);
            }
            draw(svg, child, at, y - ROW, scale, total);
        }
        at += w;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_as_wide_as_their_samples_and_carry_their_counts() {
        let svg = flame_chart(
            "p",
            &crate::fixture::folded("p;main;heavy 7\np;main;light 3\n"),
        )
        .unwrap();
        assert!(svg.contains("<title>heavy (7 samples, 70.00 %)</title>"));
        assert!(svg.contains("<title>light (3 samples, 30.00 %)</title>"));
        assert!(svg.contains("<title>main (10 samples, 100.00 %)</title>"));
        // heavy is 7/10 of the drawable width (1032 px), less the half-pixel gap.
        assert!(svg.contains("width=\"721.9\""), "{svg}");
        assert!(!svg.contains("<script") && !svg.contains("id="));
        assert!(flame_chart("p", &[]).is_none());
    }
}
