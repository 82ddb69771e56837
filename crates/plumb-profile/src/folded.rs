//! Folded stacks: collapsed from perf script by inferno, cut to a region, read and written
//! as the `.folded` text FlameGraph's tools share.

use crate::{ascii_shield, ProfileError};
use inferno::collapse::perf::{Folder, Options};
use inferno::collapse::Collapse;
use plumb_model::FoldedStack;

/// Folds perf script's text into stacks (root first), most samples first, of the samples
/// of `event` (as recorded, `-e`; its modifiers after `:` are not in perf script's event
/// word). With `regions`, each stack that passes through a frame of one of those names is
/// cut there: the region becomes its root, and what called it is dropped.
///
/// The event is given to inferno rather than left for it to find in the first sample:
/// inferno 0.12 asserts it found one there, and a script whose first block is not a
/// sample (cargo fuzz made one) would panic instead of folding the rest. Non-ASCII names
/// reach inferno escaped (see `ascii_shield`), another of its panics.
pub fn collapse(
    script: &str,
    event: &str,
    regions: &[String],
) -> Result<Vec<FoldedStack>, ProfileError> {
    let (script, escaped) = ascii_shield::escape(script);
    let mut options = Options::default();
    let event = event.split(':').next().unwrap_or(event);
    options.event_filter = Some(ascii_shield::escape_like(event, escaped));
    options.include_addrs = true;
    options.nthreads = 1;
    options.skip_after = regions
        .iter()
        .map(|r| ascii_shield::escape_like(r, escaped))
        .collect();
    let mut out = Vec::new();
    Folder::from(options)
        .collapse(script.as_bytes(), &mut out)
        .map_err(|e| ProfileError::Script(format!("folding the stacks: {e}")))?;
    let text = String::from_utf8_lossy(&out);
    let mut stacks = parse(&text).map_err(|e| ProfileError::Script(e.to_string()))?;
    if escaped {
        for s in &mut stacks {
            s.stack = ascii_shield::restore(&s.stack);
        }
    }
    sort(&mut stacks);
    Ok(stacks)
}

/// Keeps the stacks rooted at one of `regions` (see `collapse`); the samples of the
/// others are counted and dropped.
pub fn split_region(stacks: Vec<FoldedStack>, regions: &[String]) -> (Vec<FoldedStack>, u64) {
    let (kept, outside): (Vec<_>, Vec<_>) = stacks.into_iter().partition(|s| {
        s.frames()
            .next()
            .is_some_and(|f| regions.iter().any(|r| r == f))
    });
    (kept, outside.iter().map(|s| s.samples).sum())
}

pub fn total(stacks: &[FoldedStack]) -> u64 {
    stacks.iter().map(|s| s.samples).sum()
}

/// Reads `.folded` text; a line without a count is an error naming the line.
pub fn parse(text: &str) -> Result<Vec<FoldedStack>, crate::Unreadable> {
    let mut stacks = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        let parsed = line
            .rsplit_once(' ')
            .and_then(|(stack, n)| Some((stack, n.parse::<u64>().ok()?)));
        match parsed {
            Some((stack, samples)) if !stack.is_empty() => stacks.push(FoldedStack {
                stack: stack.to_string(),
                samples,
            }),
            _ => {
                return Err(crate::Unreadable::FoldedLine {
                    line: i + 1,
                    text: line.to_string(),
                })
            }
        }
    }
    Ok(stacks)
}

pub fn sort(stacks: &mut [FoldedStack]) {
    stacks.sort_by(|a, b| {
        b.samples
            .cmp(&a.samples)
            .then_with(|| a.stack.cmp(&b.stack))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script() -> String {
        let mut s = String::new();
        for (leaf, n) in [("heavy", 7), ("medium", 2), ("light", 1)] {
            for t in 0..n {
                s.push_str(&format!(
                    "prog 1 1 0.{t}: cpu-clock: \n\t1 {leaf} (/p)\n\t2 main (/p)\n\t3 _start (/p)\n\n"
                ));
            }
        }
        s.push_str("prog 1 1 0.9: cpu-clock: \n\t1 setup (/p)\n\t2 main (/p)\n\n");
        s
    }

    #[test]
    fn inferno_folds_root_first_most_samples_first() {
        let stacks = collapse(&script(), "cpu-clock", &[]).unwrap();
        let text = FoldedStack::text(&stacks);
        assert_eq!(
            text,
            "prog;_start;main;heavy 7\nprog;_start;main;medium 2\nprog;_start;main;light 1\nprog;main;setup 1\n"
        );
        assert_eq!(parse(&text).unwrap(), stacks);
        assert_eq!(total(&stacks), 11);
    }

    /// A script whose first block is not a sample (cargo fuzz found one that made inferno
    /// assert) folds the samples after it; another event's samples are left out.
    #[test]
    fn a_first_block_that_is_no_sample_is_passed_over() {
        let s = format!(
            "ps  51art_call_main+0x7a (/usr/lib/libc.so.6)\n\n{}",
            script()
        );
        assert_eq!(total(&collapse(&s, "cpu-clock", &[]).unwrap()), 11);
        assert_eq!(total(&collapse(&s, "cpu-clock:u", &[]).unwrap()), 11);
        assert!(collapse(&s, "cycles", &[]).unwrap().is_empty());
    }

    /// cargo fuzz found inferno slicing a symbol inside a character 17 bytes from its end;
    /// such names fold, and come back as perf wrote them, regions too.
    #[test]
    fn non_ascii_names_fold_as_written() {
        let s = script()
            .replace("heavy", "fooן0123456789abcdef")
            .replace("main", "régión%");
        let region = ["régión%".to_string()];
        let stacks = collapse(&s, "cpu-clock", &region).unwrap();
        assert_eq!(
            FoldedStack::text(&stacks),
            "régión%;fooן0123456789abcdef 7\nrégión%;medium 2\nrégión%;light 1\nrégión%;setup 1\n"
        );
        // An ASCII region in a script that is not ASCII is escaped like the script.
        let s = s.replace("régión%", "region%");
        let stacks = collapse(&s, "cpu-clock", &["region%".to_string()]).unwrap();
        assert!(FoldedStack::text(&stacks).starts_with("region%;fooן0123456789abcdef 7\n"));
    }

    #[test]
    fn a_region_keeps_only_what_it_called() {
        let mut s = script();
        s = s.replace("\t2 main (/p)\n\t3 _start", "\t2 region (/p)\n\t3 _start");
        let region = ["region".to_string()];
        let stacks = collapse(&s, "cpu-clock", &region).unwrap();
        let (kept, outside) = split_region(stacks, &region);
        assert_eq!(outside, 1);
        assert_eq!(
            FoldedStack::text(&kept),
            "region;heavy 7\nregion;medium 2\nregion;light 1\n"
        );
    }

    #[test]
    fn malformed_folded_text_names_the_line() {
        assert_eq!(
            parse("a;b 3\n\na;c x\n").unwrap_err().to_string(),
            "line 3: not `frames count`: \"a;c x\""
        );
        assert!(parse(" 4").is_err());
    }
}
