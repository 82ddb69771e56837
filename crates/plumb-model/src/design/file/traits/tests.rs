//! The workload file's grammar: every trait read, and each kind of bad input refused
//! with its key and an example.
use crate::design::*;
use crate::quantity::{ByteSize, Duration};
use crate::Question;

fn refused(text: &str) -> String {
    parse_workload_file(text).unwrap_err().to_string()
}

#[test]
fn reads_every_trait() {
    let f = parse_workload_file(
        r#"
keys = "scrambled-zipfian"
theta = 0.9
mix = { read = "95%", update = 0.05 }
records = 1e8
key_size = "24B"
value_size = { uniform = ["100B", "4KiB"] }
threads = 16
rate = "20k/s"
latency = "2ms"
durability = "group-commit"
state = "aged"
warmup = "10s"
duration = "1min"
launches = 5
generator = "other-machine"
question = "worst=p99.9"
[production]
threads = 64
working_set = "1TiB"
durability = "fsync-per-op"
"#,
    )
    .unwrap();
    let d = f.design;
    assert_eq!(
        d.keys,
        Some(KeyDistribution::Zipfian {
            theta: 0.9,
            scrambled: true
        })
    );
    assert_eq!(d.mix.unwrap().read, 0.95);
    assert_eq!(d.records, Some(100_000_000));
    assert_eq!(
        d.value_size,
        Some(SizeDistribution::Uniform {
            min: ByteSize(100),
            max: ByteSize(4096)
        })
    );
    assert_eq!(d.threads, Some(16));
    assert_eq!(
        d.arrival
            .map(|a| matches!(a, Arrival::Open { rate } if rate.per_second() == 20_000.0)),
        Some(true)
    );
    assert_eq!(d.durability, Some(Durability::GroupCommit));
    assert_eq!(d.state, Some(StateBetweenRuns::Aged));
    assert_eq!(d.duration, Some(Duration::from_secs_f64(60.0)));
    assert_eq!(d.launches, Some(5));
    assert_eq!(d.generator, Some(GeneratorPlace::OtherMachine));
    assert_eq!(d.question, Some(Question::Worst(99.9)));
    let p = d.production.unwrap();
    assert_eq!(
        (p.threads, p.working_set),
        (Some(64), Some(ByteSize(1 << 40)))
    );
}

#[test]
fn a_histogram_of_sizes() {
    let f = parse_workload_file(
        "value_size = { histogram = { block = \"1KiB\", counts = [5, 3, 1] } }\n",
    )
    .unwrap();
    assert_eq!(
        f.design.value_size,
        Some(SizeDistribution::Histogram {
            block: ByteSize(1024),
            counts: vec![5, 3, 1]
        })
    );
    for (text, words) in [
        (
            "value_size = { histogram = { block = \"1KiB\" } }\n",
            "takes a block size and counts",
        ),
        (
            "value_size = { histogram = { block = 1024, counts = [1] } }\n",
            "needs a unit",
        ),
        (
            "value_size = { histogram = { block = \"1KiB\", counts = [-1] } }\n",
            "not a count",
        ),
        (
            "value_size = { histogram = { block = \"1KiB\", counts = [0] } }\n",
            "a count above 0",
        ),
    ] {
        let e = refused(text);
        assert!(
            e.contains("value_size.histogram") && e.contains(words),
            "{text:?}: {e}"
        );
    }
}

#[test]
fn a_preset_is_overlaid_by_what_the_file_says() {
    let f = parse_workload_file("preset = \"ycsb-b\"\nrecords = 100_000_000\n").unwrap();
    assert_eq!(f.design.preset.as_deref(), Some("ycsb-b"));
    assert_eq!(f.design.records, Some(100_000_000));
    assert_eq!(f.design.mix.unwrap().read, 0.95);
    assert!(refused("preset = \"ycsb-z\"").contains("ycsb-a … ycsb-f"));
}

#[test]
fn a_benchmarks_own_traits_go_over_the_shared_ones() {
    let f =
        parse_workload_file("threads = 1\nrecords = 10\n[benchmarks.\"lock map\"]\nthreads = 8\n")
            .unwrap();
    assert_eq!(f.for_benchmark("lock map").threads, Some(8));
    assert_eq!(f.for_benchmark("lock map").records, Some(10));
    assert_eq!(f.for_benchmark("other").threads, Some(1));
    assert_eq!(f.unmatched(&["other"]), vec!["lock map"]);
    assert!(f.unmatched(&["lock map"]).is_empty());
}

#[test]
fn an_unknown_key_is_named_with_the_valid_ones() {
    let e = refused("thread = 4\n");
    assert!(
        e.contains("thread") && e.contains("threads") && e.contains("working_set"),
        "{e}"
    );
    let e = refused("[production]\nkeyz = \"uniform\"\n");
    assert!(e.contains("keyz") && e.contains("keys"), "{e}");
    let e = refused("mix = { reads = \"100%\" }\n");
    assert!(
        e.contains("mix.reads") && e.contains("read_modify_write"),
        "{e}"
    );
}

#[test]
fn impossible_values_are_refused_with_the_reason() {
    for (text, words) in [
        ("keys = \"zipfian\"\ntheta = 0\n", "outside (0, 1)"),
        ("keys = \"zipfian\"\ntheta = -0.5\n", "outside (0, 1)"),
        ("keys = \"latest\"\ntheta = 1.0\n", "outside (0, 1)"),
        (
            "mix = { read = \"90%\", update = \"5%\" }\n",
            "sums to 95 %",
        ),
        ("mix = { read = \"150%\" }\n", "between 0 and 100 %"),
        ("records = 0\n", "at least 1"),
        ("threads = 2.5\n", "whole number"),
        (
            "value_size = { uniform = [\"4KiB\", \"16B\"] }\n",
            "above its maximum",
        ),
        ("keys = \"uniform\"\ntheta = 0.5\n", "zipfian and latest"),
        ("theta = 0.5\n", "without `keys`"),
        ("arrival = \"open\"\n", "needs a `rate`"),
        ("arrival = \"closed\"\nrate = \"1k/s\"\n", "closed loop"),
        (
            "durability = \"sometimes\"\n",
            "none, fsync-per-op, group-commit",
        ),
        ("[production]\n[production.production]\n", "nested"),
        (
            "preset = \"ycsb-a\"\nmix = { read = \"60%\" }\n",
            "sums to 60 %",
        ),
    ] {
        let e = refused(text);
        assert!(e.contains(words), "{text:?}: {e}");
    }
}

#[test]
fn units_missing_or_wrong_are_said() {
    let e = refused("value_size = 100\n");
    assert!(
        e.contains("value_size") && e.contains("needs a unit"),
        "{e}"
    );
    let e = refused("warmup = \"10\"\n");
    assert!(e.contains("warmup") && e.contains("unit"), "{e}");
    let e = refused("working_set = \"1 parsec\"\n");
    assert!(e.contains("working_set") && e.contains("1GiB"), "{e}");
    let e = refused("rate = \"fast\"\n");
    assert!(e.contains("rate") && e.contains("20k/s"), "{e}");
}

#[test]
fn a_benchmarks_traits_are_checked_with_the_shared_ones() {
    let e = refused("mix = { read = \"100%\" }\n[benchmarks.x]\nmix = { read = \"50%\" }\n");
    assert!(
        e.contains("benchmarks.\"x\".mix") && e.contains("sums to 50 %"),
        "{e}"
    );
}
