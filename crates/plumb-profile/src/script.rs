//! `perf script`'s text, made ready for inferno: names perf left mangled are demangled
//! (Rust and C++), and the module of every function is noted, since the folded format
//! keeps names only.

use crate::names;
use crate::perf_tool::PerfTool;
use crate::ProfileError;
use std::collections::HashMap;
use std::fmt::Write;
use std::path::Path;
use std::process::Stdio;

/// perf script's samples, ready to fold, and what they say about modules.
#[derive(Debug, Default)]
pub struct Script {
    /// The text with every frame's name demangled.
    pub text: String,
    /// Function name (as inferno will fold it) → module.
    pub modules: HashMap<String, String>,
    /// Per module: frames with a symbol, frames without.
    pub symbolised: HashMap<String, (u64, u64)>,
}

impl Script {
    /// Modules more than half of whose frames have no symbol, most frames first.
    pub fn unsymbolised(&self) -> Vec<String> {
        let mut found: Vec<(&String, u64)> = self
            .symbolised
            .iter()
            .filter(|(m, (named, unknown))| unknown > named && m.as_str() != "[unknown]")
            .map(|(m, (_, unknown))| (m, *unknown))
            .collect();
        found.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        found.into_iter().map(|(m, _)| m.clone()).collect()
    }
}

/// Runs `perf script` on `data`, one line per frame, sample counts (not periods).
pub fn run(perf: &PerfTool, data: &Path) -> Result<Script, ProfileError> {
    let out = perf
        .command()
        .args(["script", "-F", "comm,pid,tid,time,event,ip,sym,dso", "-i"])
        .arg(data)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| ProfileError::Script(e.to_string()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() && text.is_empty() {
        let said = String::from_utf8_lossy(&out.stderr);
        return Err(ProfileError::Script(
            said.lines().next().unwrap_or("no message").to_string(),
        ));
    }
    Ok(prepare(&text))
}

/// Demangles each frame line's symbol and notes its module.
pub fn prepare(text: &str) -> Script {
    let mut script = Script {
        text: String::with_capacity(text.len()),
        ..Script::default()
    };
    for line in text.lines() {
        match frame_parts(line) {
            Some((pc, sym, module)) => {
                let sym = names::demangle(names::strip_offset(sym));
                let known = sym != "[unknown]";
                let entry = script.symbolised.entry(module.to_string()).or_default();
                if known {
                    entry.0 += 1;
                } else {
                    entry.1 += 1;
                }
                let folded = names::folded_name(&sym, pc, module);
                script
                    .modules
                    .entry(folded)
                    .or_insert_with(|| module.to_string());
                let _ = writeln!(script.text, "\t{pc} {sym} ({module})");
            }
            None => {
                script.text.push_str(line);
                script.text.push('\n');
            }
        }
    }
    script
}

/// `\t    1244 heavy+0x24 (/tmp/shares)` → (`1244`, `heavy+0x24`, `/tmp/shares`).
fn frame_parts(line: &str) -> Option<(&str, &str, &str)> {
    if !line.starts_with(char::is_whitespace) {
        return None;
    }
    let (pc, rest) = line.trim_start().split_once(' ')?;
    if pc.is_empty() || !pc.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let rest = rest.trim_end();
    let open = rest.rfind(" (")?;
    let module = rest[open + 2..].strip_suffix(')')?;
    let sym = rest[..open].trim();
    Some((pc, if sym.is_empty() { "[unknown]" } else { sym }, module))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "shares 26521 22395.147732: cpu-clock: \n\
\t            124b heavy+0x2b (/tmp/prof/shares)\n\
\t            10bf main+0x4f (/tmp/prof/shares)\n\
\t           27249 __libc_start_call_main+0x79 (/usr/lib/x86_64-linux-gnu/libc.so.6)\n\
\n\
shares 26521 22395.148740: cpu-clock: \n\
\t            1244 _ZN3foo3barE+0x24 (/tmp/prof/shares)\n\
\t            7f00 [unknown] (/tmp/prof/stripped)\n\
\n";

    #[test]
    fn frames_are_demangled_and_their_modules_noted() {
        let s = prepare(SAMPLE);
        assert!(
            s.text.contains("\t1244 foo::bar (/tmp/prof/shares)\n"),
            "{}",
            s.text
        );
        assert_eq!(s.modules["heavy"], "/tmp/prof/shares");
        assert_eq!(
            s.modules["__libc_start_call_main"],
            "/usr/lib/x86_64-linux-gnu/libc.so.6"
        );
        assert_eq!(s.modules["foo::bar"], "/tmp/prof/shares");
        assert_eq!(s.modules["[stripped <7f00>]"], "/tmp/prof/stripped");
        assert_eq!(s.unsymbolised(), vec!["/tmp/prof/stripped".to_string()]);
        assert!(s
            .text
            .starts_with("shares 26521 22395.147732: cpu-clock: \n"));
    }

    #[test]
    fn lines_that_are_not_frames_pass_through() {
        assert_eq!(frame_parts("shares 1 2.0: cpu-clock: "), None);
        assert_eq!(frame_parts("\tnot-hex foo (bar)"), None);
        assert_eq!(
            frame_parts("\t  7f1e2215d058  (/lib/libc.so)"),
            Some(("7f1e2215d058", "[unknown]", "/lib/libc.so"))
        );
    }
}
