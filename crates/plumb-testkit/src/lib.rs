//! What plumb's tests share: one way to say "this test cannot run here", which fails
//! under `CI=true` and is counted everywhere else; and a seeded noise for generated data.
//!
//! A test that returns early when its tool is missing (valgrind, perf, a C compiler,
//! chromium, counters that open) passes without testing anything, and a green run hides
//! it. So CI, which installs every tool (`.ci/run`), fails such a test instead; on a
//! developer's machine it prints why and appends the reason to the file named by
//! `PLUMB_SKIP_LOG`, which `scripts/test.sh` counts and prints at the end.

use std::io::Write;

/// Whether the tests run under CI, where nothing may be skipped.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// Says that the calling test cannot run here and why. Under `CI=true` this panics (the
/// test fails, naming what is missing); elsewhere it prints the reason and records it,
/// and the caller returns.
#[track_caller]
pub fn skip(reason: &str) {
    let at = std::panic::Location::caller();
    if under_ci() {
        panic!("cannot run here: {reason} (CI=true: a test that cannot run fails)");
    }
    eprintln!("skipped: {reason}");
    if let Some(path) = std::env::var_os("PLUMB_SKIP_LOG") {
        let line = format!("{}:{}: {reason}\n", at.file(), at.line());
        // Appends are atomic for lines this short, so parallel tests do not interleave.
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(line.as_bytes()));
        if let Err(e) = written {
            eprintln!("plumb-testkit: cannot record the skip in {path:?}: {e}");
        }
    }
}

/// A deterministic noise in [-1, 1) for the pair (a, b): splitmix64's finaliser, so
/// nearby pairs give independent-looking values (generated results and histories).
pub fn noise(a: u64, b: u64) -> f64 {
    let mut z = a
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(b.wrapping_mul(0xD1B5_4A32_D192_ED03))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skip_is_recorded_outside_ci_and_fails_under_it() {
        let dir = std::env::temp_dir().join(format!("plumb-testkit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("skips");
        let ci = under_ci();
        // The only test of this crate touching the environment.
        std::env::set_var("PLUMB_SKIP_LOG", &log);
        std::env::remove_var("CI");
        skip("no frobnicator");
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(
            text.contains("lib.rs:") && text.ends_with(": no frobnicator\n"),
            "{text}"
        );
        std::env::set_var("CI", "true");
        let failed = std::panic::catch_unwind(|| skip("no frobnicator")).unwrap_err();
        let message = failed.downcast_ref::<String>().unwrap();
        assert!(
            message.contains("cannot run here: no frobnicator"),
            "{message}"
        );
        if !ci {
            std::env::remove_var("CI");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
