//! Sweeps across the cache hierarchy: `plumb run -L size … './cache rand {size}'` takes
//! the size parameter as the working set, prints time per operation against it with this
//! machine's caches marked, and words every cliff and step it finds truly (the cliff
//! logic itself is tested on fixed figures in plumb-analysis' checks/cliffs.rs; which
//! cliffs a real run finds, by bench/sweep-cliffs.sh). Needs a C compiler (.ci/run
//! installs one); skips, saying so, without one.

mod common;
use common::browser::open_in_chromium;
use common::{read_doc, Env};
use plumb_model::{Finding, ResultDocument};

/// The cache-cliff diagnostics, by the benchmark they sit on: (name, caches passed).
fn cliffs(doc: &ResultDocument) -> Vec<(String, Vec<String>, String)> {
    doc.benchmarks
        .iter()
        .flat_map(|b| {
            b.diagnostics.iter().filter_map(|d| match &d.finding {
                Finding::CacheCliff(c) => {
                    let passed = c.passed().map(|m| m.name.clone()).collect();
                    let words = plumb_report::finding::message(&d.finding);
                    Some((b.name.clone(), passed, words))
                }
                _ => None,
            })
        })
        .collect()
}

/// Dependent random loads at 16 KiB (in L1d), 64 KiB and 512 KiB (in L2 on every x86
/// machine here) and 64 MiB (beyond the last level).
#[test]
fn a_random_access_sweep_names_the_caches_it_passes() {
    let env = Env::new();
    let Some(cache) = env.compiled_example("cache") else {
        return;
    };
    let json = env.path("sweep.json");
    let page = env.path("page");
    std::fs::create_dir_all(&page).unwrap();
    let accesses = "4194304";
    let sweep = || {
        env.plumb(&[
            "run",
            "-L",
            "size",
            "16K,64K,512K,64M",
            "--operations",
            accesses,
            "--runs",
            "8",
            "--warmup",
            "1",
            "--export-json",
            json.to_str().unwrap(),
            "--report",
            page.join("report.html").to_str().unwrap(),
            &format!("{} rand {{size}} {accesses}", cache.display()),
        ])
    };
    let run = sweep();
    run.assert_code(0);
    let doc = read_doc(&json);
    // Which cliffs a run finds is the machine's (a neighbour's burst, two CPU hogs, can
    // hide a step): bench/sweep-cliffs.sh measures that, with its figures. Here: the
    // sweep's shape, its report, and that whatever it found is worded truly.
    let marks = plumb_model::sweep::cache_marks(&doc.environment);
    if marks.len() < 2 {
        plumb_testkit::skip(&format!("the machine record has no caches ({marks:?})"));
        return;
    }
    let series = doc.benchmarks[0].series.as_deref().unwrap();
    assert!(series.ends_with("rand {size} 4194304"), "{series}");
    assert_eq!(doc.benchmarks[1].working_set.map(|w| w.0), Some(64 << 10));
    assert!(run.stdout.contains("Sweep "), "{}", run.stdout);
    assert!(run.stdout.contains("── L1d "), "{}", run.stdout);

    // --report draws the sweep against the caches; opened as a reader would.
    let html = std::fs::read_to_string(page.join("report.html")).unwrap();
    assert!(html.contains("<title>Sweep "), "no sweep chart");
    assert!(html.contains("L1d "), "no cache drawn");
    if let Some(seen) = open_in_chromium(&page) {
        assert!(
            seen.charts.iter().any(|(t, _)| t.starts_with("Sweep ")),
            "{:?}",
            seen.charts
        );
        seen.assert_clean();
    }

    let found = cliffs(&doc);
    // A cache cliff is only where a cache lies between its two sizes (issue 24, defect
    // 18: on a 1 MiB-L2 machine the step 64K → 512K passes none and was called one); a
    // step between caches is a size step, which names a TLB's reach only when one lies
    // between.
    for (_, passed, message) in &found {
        assert!(
            !passed.is_empty(),
            "a cache cliff that passes no cache: {message}"
        );
    }
    let reaches = plumb_model::sweep::tlb_reaches(&doc.environment);
    for b in &doc.benchmarks {
        for d in &b.diagnostics {
            let Finding::SizeStep(step) = &d.finding else {
                continue;
            };
            let message = plumb_report::finding::message(&d.finding);
            assert!(
                marks.iter().all(|m| m.size < step.from || m.size > step.to),
                "{message}"
            );
            let tlb_between = reaches
                .iter()
                .any(|r| step.from <= r.size && r.size <= step.to);
            assert_eq!(message.contains("likely edge"), tlb_between, "{message}");
        }
    }
}
