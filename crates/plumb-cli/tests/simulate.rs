mod common;

use common::Env;

fn row<'a>(out: &'a str, label: &str) -> Vec<&'a str> {
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with(label))
        .unwrap_or_else(|| panic!("no {label} row in\n{out}"));
    line.split_whitespace().collect()
}

/// The blog's example by default: closed p99 ≈ 1 ms, open p99 ≈ 195 ms.
#[test]
fn default_is_the_blog_example() {
    let env = Env::new();
    let run = env.plumb(&["simulate", "--hgrm-dir", "h"]);
    run.assert_code(0);
    let p99 = row(&run.stdout, "p99 ");
    assert_eq!(&p99[1..3], ["1.000", "ms"], "{}", run.stdout);
    let open: f64 = p99[3].parse().unwrap();
    assert!(
        (190.0..200.0).contains(&open) && p99[4] == "ms",
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("13500 requests"));
    let hgrm = std::fs::read_to_string(env.path("h/open.hgrm")).unwrap();
    assert!(hgrm.contains("Total count    =        13500"), "{hgrm}");
}

#[test]
fn other_parameters_follow_the_arithmetic() {
    // No stalls, light load: both columns are the service time.
    let env = Env::new();
    let run = env.plumb(&[
        "simulate",
        "--rate",
        "100",
        "--duration",
        "5s",
        "--service",
        "2ms",
        "--stall",
        "0",
    ]);
    run.assert_code(0);
    let p99 = row(&run.stdout, "p99 ");
    assert_eq!(&p99[1..5], ["2.000", "ms", "2.000", "ms"], "{}", run.stdout);
    // Over capacity: the warning says the queue grows.
    let run = env.plumb(&[
        "simulate",
        "--rate",
        "2000",
        "--duration",
        "2s",
        "--service",
        "1ms",
        "--stall",
        "0",
    ]);
    run.assert_code(0);
    assert!(run.stdout.contains("queue grows"), "{}", run.stdout);
}

#[test]
fn bad_parameters_are_refused() {
    let env = Env::new();
    for (args, needle) in [
        (
            vec!["simulate", "--rate", "0"],
            "must be above 0 and at most 1e9",
        ),
        (
            vec!["simulate", "--duration", "0s"],
            "--duration must be above 0",
        ),
        (vec!["simulate", "--stall-every", "0"], "must be at least 1"),
        (
            vec!["simulate", "--stall", "2s", "--stall-period", "1s"],
            "longer than --stall",
        ),
        (
            vec!["simulate", "--stall-every", "5", "--stall-period", "1s"],
            "cannot be used with",
        ),
    ] {
        let run = env.plumb(&args);
        run.assert_code(2);
        assert!(run.stderr.contains(needle), "{args:?}: {}", run.stderr);
    }
}

/// 10,000 requests, one in a thousand stalled: p99.9 is the 9,990th latency, 1 ms. A
/// floating-point rank (99.9 / 100 = 0.9990000000000001) took the 9,991st, a stall.
#[test]
fn percentiles_take_the_integer_rank() {
    let env = Env::new();
    let run = env.plumb(&[
        "simulate",
        "--rate",
        "500",
        "--duration",
        "20s",
        "--service",
        "1ms",
        "--stall",
        "100ms",
        "--stall-every",
        "1000",
    ]);
    run.assert_code(0);
    let p999 = row(&run.stdout, "p99.9 ");
    assert_eq!(&p999[1..3], ["1.000", "ms"], "{}", run.stdout);
}
