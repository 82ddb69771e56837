//! A duet of real processes (`duet.rs` through `ProcessSpawner`): both sides run at once
//! and each is timed to its own exit; a side that cannot start is said and the other is
//! not left running. Loose bounds only: a test never judges a speed difference.
use plumb_command::{two_cpus, OutputPolicy, ProcessSpawner, SpawnError, Spawner};

/// Two sleeps of 200 and 50 ms take about 200 ms together, not 250, each timed on its
/// own; plumb's thread keeps every CPU it had.
#[test]
fn a_pair_runs_both_sides_at_once_and_times_each() {
    let Some(cpus) = two_cpus() else {
        plumb_testkit::skip("fewer than two CPUs allowed");
        return;
    };
    let mut spawner = ProcessSpawner;
    let mut launch = |argv: &[&str]| {
        let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
        spawner
            .prepare(&argv, None, &OutputPolicy::Discard)
            .unwrap()
    };
    let (mut a, mut b) = (launch(&["sleep", "0.2"]), launch(&["sleep", "0.05"]));
    let began = std::time::Instant::now();
    let [ra, rb] = a.run_beside(b.as_mut(), cpus).unwrap();
    let both = began.elapsed();
    assert!(both < std::time::Duration::from_millis(245), "{both:?}");
    assert!(ra.wall.as_nanos() >= 200_000_000, "{ra:?}");
    assert!(
        rb.wall.as_nanos() >= 50_000_000 && rb.wall < ra.wall,
        "{rb:?}"
    );
    assert_eq!((ra.failure(), rb.failure()), (None, None));
    assert_eq!(two_cpus(), Some(cpus), "plumb's own CPUs are restored");
    let mut missing = launch(&["no-such-program-here"]);
    let e = a.run_beside(missing.as_mut(), cpus).unwrap_err();
    assert!(matches!(e, SpawnError::NotFound(_)), "{e}");
}
