//! `plumb simulate` end to end: the blog's example, other parameters' arithmetic, bad ones refused.
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
    // The header says which client ran at which rate: the open loop at 450/s, the closed
    // loop back to back at (13 500 requests of 1.398 ms on average) ~715/s.
    assert!(
        run.stdout.contains("Open loop: 450 req/s")
            && run
                .stdout
                .contains("Closed loop: back to back, as fast as the server answers: 715.3/s"),
        "{}",
        run.stdout
    );
    let hgrm = std::fs::read_to_string(env.path("h/open.hgrm")).unwrap();
    assert!(hgrm.contains("Total count    =        13500"), "{hgrm}");
    // Paced, it runs at the offered rate (447/s: the last request is a 200 ms stall) and
    // its p99 still hides the stalls.
    let paced = env.plumb(&["simulate", "--closed-paced"]);
    paced.assert_code(0);
    assert!(
        paced
            .stdout
            .contains("Closed loop: paced to 450 req/s (it waits when ahead), achieved 447.1/s"),
        "{}",
        paced.stdout
    );
    assert_eq!(
        &row(&paced.stdout, "p99 ")[1..3],
        ["1.000", "ms"],
        "{}",
        paced.stdout
    );
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
