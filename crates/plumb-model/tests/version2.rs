//! Version-2 documents written by plumb before typed measured values (kept in
//! `fixtures/`) are read into version 3 with every figure in its new unit: each check
//! reads the raw version-2 JSON beside the migrated document and compares the two.

use plumb_model::quantity::{ByteSize, Duration};
use plumb_model::{ComparisonDocument, LoadComparison, ResultDocument, FORMAT_VERSION};
use serde_json::Value;

fn fixture(name: &str) -> (ResultDocument, Value) {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let doc = ResultDocument::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(doc.migrated_from, Some(2), "{name}");
    (doc, serde_json::from_str(&text).unwrap())
}

/// Microseconds of version 2 as a duration, exact to the nanosecond.
fn us(v: &Value) -> Duration {
    Duration::from_nanos_f64(v.as_f64().unwrap() * 1e3)
}

#[test]
fn a_command_run_keeps_its_start_samples_and_machine() {
    let (doc, raw) = fixture("run-v2.json");
    let started = raw["started_unix_s"].as_f64().unwrap();
    assert!((doc.started.as_unix_secs_f64() - started).abs() < 1e-6);
    assert_eq!(
        doc.environment.memory,
        raw["environment"]["memory_bytes"].as_u64().map(ByteSize)
    );
    let raw_caches = raw["environment"]["caches"].as_array().unwrap();
    assert_eq!(doc.environment.caches.len(), raw_caches.len());
    for (c, r) in doc.environment.caches.iter().zip(raw_caches) {
        assert_eq!(c.size.0, r["size_bytes"].as_u64().unwrap());
        assert_eq!(c.line_size.map(|l| l.0), r["line_bytes"].as_u64());
    }
    let b = &doc.benchmarks[0];
    assert_eq!(b.samples.len(), 12);
    assert!(b.correction(&plumb_model::Metric::WallTime).is_some());
    // Written back as the current version and read back unchanged.
    let text = doc.to_json();
    assert!(text.contains(&format!("\"format_version\": {FORMAT_VERSION}")));
    assert!(!text.contains("_unix_s") && !text.contains("size_bytes"));
    let back = ResultDocument::from_json(&text).unwrap();
    assert_eq!(back.migrated_from, None);
    assert_eq!(back.benchmarks, doc.benchmarks);
    assert_eq!(back.environment, doc.environment);
}

#[test]
fn counters_and_their_simulated_caches_are_kept() {
    let (doc, raw) = fixture("run-counters-v2.json");
    for (b, r) in doc
        .benchmarks
        .iter()
        .zip(raw["benchmarks"].as_array().unwrap())
    {
        match (&b.simulated, r.get("simulated")) {
            (Some(s), Some(rs)) => {
                let caches = s.caches.expect("caches");
                assert_eq!(
                    caches.d1.size.0,
                    rs["caches"]["d1"]["size_bytes"].as_u64().unwrap()
                );
                assert_eq!(
                    caches.ll.line_size.0,
                    rs["caches"]["ll"]["line_bytes"].as_u64().unwrap()
                );
            }
            (None, None) => {}
            other => panic!("simulated counts lost or invented: {other:?}"),
        }
    }
}

#[test]
fn an_in_process_run_keeps_its_clock_and_empty_body_per_call() {
    let (doc, raw) = fixture("inprocess-v2.json");
    let clock = doc.clock.as_ref().unwrap();
    let raw_clock = &raw["clock"];
    assert_eq!(
        clock.read_cost,
        Duration::from_nanos_f64(raw_clock["read_cost_ns"].as_f64().unwrap())
    );
    let ghz = raw_clock["ticks_per_ns"].as_f64().unwrap();
    assert!((clock.tsc_frequency.unwrap().hertz() - ghz * 1e9).abs() < 1.0);
    for (b, r) in doc
        .benchmarks
        .iter()
        .zip(raw["benchmarks"].as_array().unwrap())
    {
        let (f, rf) = (b.function().unwrap(), &r["function"]);
        let ops = rf["ops_per_iter"].as_f64().unwrap();
        // Per operation in version 2, per call (ops_per_iter operations) now.
        if let Some(per_op) = rf["empty_body_ns"].as_f64() {
            let per_call = f.empty_body.unwrap().as_nanos_f64();
            assert!(
                (per_call - per_op * ops).abs() <= 1e-3,
                "{per_call} vs {per_op}×{ops}"
            );
        }
        let samples = rf["empty_body_samples_ns"].as_array().map_or(0, Vec::len);
        assert_eq!(f.empty_body_samples.len(), samples, "{}", b.name);
    }
}

#[test]
fn a_load_result_keeps_every_latency_in_nanoseconds() {
    let (doc, raw) = fixture("load-v2.json");
    let (l, rl) = (
        doc.benchmarks[0].load().unwrap(),
        &raw["benchmarks"][0]["load"],
    );
    for (label, v) in rl["latency"]["percentiles_us"].as_object().unwrap() {
        assert_eq!(l.latency.percentiles[label], us(v), "{label}");
    }
    assert_eq!(l.latency.max, us(&rl["latency"]["max_us"]));
    assert_eq!(l.service.mean, us(&rl["service"]["mean_us"]));
    assert_eq!(
        l.send_lateness.as_ref().unwrap().percentiles["p99"],
        us(&rl["send_lateness"]["percentiles_us"]["p99"])
    );
    assert_eq!(
        l.duration,
        Duration::from_secs_f64(rl["duration_s"].as_f64().unwrap())
    );
    assert_eq!(l.body.0, rl["body_bytes"].as_u64().unwrap());
    let w = l.window.unwrap();
    let raw_start = rl["window"]["start_unix_s"].as_f64().unwrap();
    assert!((w.start.as_unix_secs_f64() - raw_start).abs() < 1e-6);
    for (row, r) in l.timeline.iter().zip(rl["timeline"].as_array().unwrap()) {
        assert_eq!(row.p50, Some(us(&r["p50_us"])));
        assert_eq!(row.max, us(&r["max_us"]));
    }
    // The whole histogram is untouched: it still holds microseconds.
    assert_eq!(
        l.latency.hdr_base64,
        rl["latency"]["hdr_base64"].as_str().unwrap()
    );
}

#[test]
fn repeated_and_merged_load_results_keep_their_runs_and_seconds() {
    let (doc, raw) = fixture("load-repeat-v2.json");
    let l = doc.benchmarks[0].load().unwrap();
    let runs = raw["benchmarks"][0]["load"]["runs"].as_array().unwrap();
    assert_eq!(l.runs.len(), runs.len());
    for (run, r) in l.runs.iter().zip(runs) {
        assert_eq!(
            run.latency.percentiles["p50"],
            us(&r["latency"]["percentiles_us"]["p50"])
        );
        assert!(run.window.is_some());
    }
    let (doc, raw) = fixture("merged-v2.json");
    let l = doc.benchmarks[0].load().unwrap();
    let rows = raw["benchmarks"][0]["load"]["timeline"].as_array().unwrap();
    for (row, r) in l.timeline.iter().zip(rows) {
        // A merged second's percentiles are null where they could not be combined.
        assert_eq!(
            row.p99,
            r["p99_us"]
                .as_f64()
                .map(|v| Duration::from_nanos_f64(v * 1e3))
        );
    }
}

#[test]
fn a_load_comparison_of_version_2_reads() {
    let path = format!(
        "{}/tests/fixtures/compare-load-v2.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let raw: Value = serde_json::from_str(&text).unwrap();
    let c = ComparisonDocument::from_json(&text).unwrap();
    let LoadComparison::Compared { percentiles, .. } = &c.load[0] else {
        panic!("{:?}", c.load[0]);
    };
    let rp = &raw["load"][0]["percentiles"][0];
    assert_eq!(percentiles[0].base, us(&rp["base_us"]));
    assert_eq!(percentiles[0].new, us(&rp["new_us"]));
}
