//! Per-instruction samples of one function, read from `perf annotate`, which pairs each
//! instruction with the source lines it came from where the binary has debug info.

use crate::perf_tool::PerfTool;
use crate::ProfileError;
use plumb_model::{AnnotatedLine, Annotation};
use std::path::Path;
use std::process::Stdio;

/// Annotates `function` (as the table names it) from the samples in `data`.
pub fn annotate(perf: &PerfTool, data: &Path, function: &str) -> Result<Annotation, ProfileError> {
    let out = perf
        .command()
        .args(["annotate", "--stdio", "-n", "-i"])
        .arg(data)
        .arg(function)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .map_err(|e| ProfileError::Script(format!("perf annotate: {e}")))?;
    let annotation = parse(function, &String::from_utf8_lossy(&out.stdout));
    if annotation.lines.is_empty() {
        return Err(ProfileError::Input(format!(
            "no samples to annotate in {function}: give a name as the table prints it (a function with self samples, in a binary with symbols)"
        )));
    }
    Ok(annotation)
}

/// Reads `perf annotate --stdio -n`: `  193 :   1244:   add $0x1,%rdx` is an
/// instruction with 193 samples; `      : 24   x = x * …` is source line 24.
pub fn parse(function: &str, text: &str) -> Annotation {
    let mut lines = Vec::new();
    for raw in text.lines() {
        let Some((count, rest)) = raw.split_once(':') else {
            continue;
        };
        let count = count.trim();
        let rest = rest.trim_end();
        if count.is_empty() {
            if let Some(source) = source_line(rest) {
                lines.push(source);
            }
        } else if let Ok(samples) = count.parse::<u64>() {
            let Some((address, text)) = rest.trim_start().split_once(':') else {
                continue;
            };
            lines.push(AnnotatedLine::Instruction {
                address: address.trim().to_string(),
                text: text.trim().to_string(),
                samples,
            });
        }
    }
    let samples = lines
        .iter()
        .map(|l| match l {
            AnnotatedLine::Instruction { samples, .. } => *samples,
            AnnotatedLine::Source { .. } => 0,
        })
        .sum();
    if !lines
        .iter()
        .any(|l| matches!(l, AnnotatedLine::Instruction { .. }))
    {
        lines.clear();
    }
    Annotation {
        function: function.to_string(),
        samples,
        lines,
    }
}

/// `" 24   x = x * …"` → line 24; disassembler headers and blank lines are not source.
fn source_line(rest: &str) -> Option<AnnotatedLine> {
    let trimmed = rest.trim_start();
    let (number, text) = match trimmed.split_once(char::is_whitespace) {
        Some((n, t)) if n.bytes().all(|b| b.is_ascii_digit()) => (n.parse().ok(), t.trim()),
        _ => (None, trimmed),
    };
    let text = text.trim_end_matches('\\').trim_end();
    if text.is_empty()
        || text.starts_with("Disassembly of section")
        || (text.ends_with(">:") && text.starts_with('0'))
        || text.ends_with("():")
    {
        return None;
    }
    Some(AnnotatedLine::Source {
        line: number,
        text: text.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Copied from `perf annotate --stdio -n heavy` of examples/shares.c (perf 6.1).
    const PERF_ANNOTATE: &str = " Samples |\tSource code & Disassembly of shares for cpu-clock (785 samples, percent: local period)
------------------------------------------------------------------------------------------------------
         :
         : 3    Disassembly of section .text:
         :
         : 5    0000000000001220 <heavy>:
         : 6    heavy():
         : 23   for (uint64_t i = 0; i < n; i++)                              \\
         : 24   x = x * 6364136223846793005ULL + 1442695040888963407ULL;  \\
         : 28   CHAIN(heavy)
       0 :   1220:   mov    %rsi,%rax
       0 :   1240:   imul   %rsi,%rax
     193 :   1244:   add    $0x1,%rdx
     150 :   1248:   add    %rcx,%rax
     442 :   124b:   cmp    %rdx,%rdi
       0 :   1250:   ret
";

    #[test]
    fn instructions_carry_their_samples_and_source_lines_their_numbers() {
        let a = parse("heavy", PERF_ANNOTATE);
        assert_eq!(a.samples, 785);
        assert_eq!(
            a.lines[0],
            AnnotatedLine::Source {
                line: Some(23),
                text: "for (uint64_t i = 0; i < n; i++)".into()
            }
        );
        assert_eq!(a.lines.len(), 3 + 6);
        assert_eq!(
            a.lines[5],
            AnnotatedLine::Instruction {
                address: "1244".into(),
                text: "add    $0x1,%rdx".into(),
                samples: 193
            }
        );
    }

    #[test]
    fn nothing_annotated_is_empty() {
        assert!(parse("f", "").lines.is_empty());
        assert!(parse("f", "         : 24   x = 1;\n").lines.is_empty());
    }
}
