//! In-process benchmarks of two revisions: `cargo bench --bench NAME [-- ARGS]`, or any
//! command that writes a plumb result to the file `--export-json FILE` names (a plumb-bench
//! harness does), run through the `Spawner` seam. Each round runs each side's harness
//! once, in random order; a benchmark's mean time per operation in that run is the round's
//! value for its side and ln(B / A) the round's statistic — a harness run already holds
//! many samples, so the run is the replicate — judged sequentially per benchmark at α
//! over their number. Every sample of every run is pooled per side in the result.
use crate::{Measure, RevsError, Side};
use plumb_command::{OutputPolicy, Spawner};
use plumb_model::{
    Benchmark, BenchmarkLooks, Ending, Environment, Exit, Metric, ResultDocument, Revisions,
    SequentialRounds, Settings, Settle, SettleWith,
};
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Whether `command` is a cargo bench run (its harness writes plumb results).
pub fn is_harness(command: &[String]) -> bool {
    command.len() >= 2 && command[0] == "cargo" && command[1] == "bench"
}

/// The harness's arguments with the result file and quiet output added (after cargo's
/// `--`, which is added when missing).
fn argv_for(command: &[String], json: &std::path::Path) -> Vec<String> {
    let mut argv = command.to_vec();
    if is_harness(command) && !argv.iter().any(|a| a == "--") {
        argv.push("--".into());
    }
    argv.extend([
        "--export-json".to_string(),
        json.display().to_string(),
        "--quiet".to_string(),
    ]);
    argv
}

/// Where a side's harness runs and how: the program, the spawner, the stop flag.
pub struct HarnessRun<'a> {
    pub command: &'a [String],
    pub spawner: &'a mut dyn Spawner,
    pub stop: &'a AtomicBool,
}

impl HarnessRun<'_> {
    /// One run of a side's harness; `None` when a stop signal came during it.
    fn once(&mut self, side: &Side, role: &str) -> Result<Option<ResultDocument>, RevsError> {
        let json = side.checkout.entry.join("harness.json");
        let _ = std::fs::remove_file(&json);
        let argv = argv_for(self.command, &json);
        let failed = |why: String| RevsError::Harness {
            role: role.to_string(),
            label: side.rev.label(),
            why,
        };
        let mut launch = self
            .spawner
            .prepare(&argv, Some(&side.checkout.dir), &OutputPolicy::Discard)
            .map_err(|e| failed(format!("cannot run {:?}: {e}", argv[0])))?;
        let record = launch.run_once().map_err(|e| failed(e.to_string()))?;
        // A terminal's Ctrl-C reaches the harness too, possibly before plumb's flag is up.
        let killed_by_sigint = record.exit
            == Exit::Signal {
                signal: libc::SIGINT,
            };
        if self.stop.load(Ordering::Relaxed) || killed_by_sigint {
            return Ok(None);
        }
        if let Some(how) = record.failure() {
            return Err(failed(format!(
                "it {how}; the end of its stderr:\n{}",
                crate::last_lines(&launch.stderr_tail(64 * 1024), 20)
            )));
        }
        let text = std::fs::read_to_string(&json).map_err(|e| {
            failed(format!(
                "it wrote no result to {} ({e}): does it take --export-json FILE (a plumb-bench harness does)?",
                json.display()
            ))
        })?;
        ResultDocument::from_json(&text)
            .map(Some)
            .map_err(|e| failed(format!("its result {}: {e}", json.display())))
    }
}

/// Time per operation over a run's samples.
fn per_op_mean(b: &Benchmark) -> Option<f64> {
    let values = b.samples.values(&Metric::WallTime)?;
    let ops: u64 = b.samples.iterations().iter().sum();
    (ops > 0).then(|| values.iter().map(|&v| v as f64).sum::<f64>() / ops as f64)
}

/// Per benchmark name (those both sides have): its settling, the rounds' means per side,
/// and the samples pooled per side.
struct Tracked {
    settling: Box<dyn Settle>,
    means: [Vec<f64>; 2],
    pooled: [Option<Benchmark>; 2],
}

/// Measures the two sides' harnesses on the machine `environment` describes; the document
/// (not yet analysed), `None` when stopped before the first round.
pub fn measure_harness(
    sides: &[Side; 2],
    m: &Measure,
    environment: Environment,
    settle_with: SettleWith,
    run: &mut HarnessRun,
) -> Result<Option<ResultDocument>, RevsError> {
    let mut trial = Vec::new();
    for (role, side) in ["A", "B"].iter().zip(sides) {
        match run.once(side, role)? {
            Some(doc) => trial.push(doc),
            None => return Ok(None),
        }
    }
    let names: Vec<String> = trial[0]
        .benchmarks
        .iter()
        .map(|b| b.name.clone())
        .filter(|n| trial[1].benchmarks.iter().any(|b| &b.name == n))
        .collect();
    if names.is_empty() {
        return Err(RevsError::NothingInCommon);
    }
    let alpha = m.confidence.alpha() / names.len() as f64;
    let mut tracked: BTreeMap<String, Tracked> = names
        .iter()
        .map(|n| {
            let t = Tracked {
                settling: settle_with(alpha, 1),
                means: [Vec::new(), Vec::new()],
                pooled: [None, None],
            };
            (n.clone(), t)
        })
        .collect();
    let ended = rounds(sides, m, run, &mut tracked)?;
    let template = trial.swap_remove(0);
    Ok(Some(document(
        sides,
        m,
        (template, environment),
        tracked,
        ended,
    )))
}

/// Rounds until every benchmark settles, the cap, the deadline or a stop.
fn rounds(
    sides: &[Side; 2],
    m: &Measure,
    run: &mut HarnessRun,
    tracked: &mut BTreeMap<String, Tracked>,
) -> Result<Ending, RevsError> {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(m.seed);
    let deadline = m.max_time.map(|t| Instant::now() + t.to_std());
    let max_rounds = tracked
        .values()
        .next()
        .map_or(0, |t| t.settling.max_rounds());
    for _ in 0..max_rounds {
        let order = if rng.gen_bool(0.5) { [0, 1] } else { [1, 0] };
        let mut docs: [Option<ResultDocument>; 2] = [None, None];
        for i in order {
            match run.once(&sides[i], ["A", "B"][i])? {
                Some(doc) => docs[i] = Some(doc),
                None => return Ok(Ending::Stopped),
            }
        }
        for (name, t) in tracked.iter_mut() {
            for (i, doc) in docs.iter().enumerate() {
                let doc = doc.as_ref().expect("both sides ran");
                take(name, t, i, doc)?;
            }
            if !t.settling.settled() {
                t.settling.after(&t.means[0], &t.means[1]);
            }
        }
        if tracked.values().all(|t| t.settling.settled()) {
            return Ok(Ending::Settled);
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Ok(Ending::MaxTime);
        }
    }
    Ok(Ending::MaxRounds)
}

/// Benchmark `name` of side `i`'s run `doc`: its mean per operation kept for the verdict,
/// its samples pooled.
fn take(name: &str, t: &mut Tracked, i: usize, doc: &ResultDocument) -> Result<(), RevsError> {
    let benchmark = |why: &str| RevsError::HarnessBenchmark {
        name: name.to_string(),
        why: why.to_string(),
    };
    let Some(b) = doc.benchmarks.iter().find(|b| b.name == name) else {
        return Err(benchmark("vanished from a harness run"));
    };
    let Some(mean) = per_op_mean(b).filter(|m| m.is_finite() && *m > 0.0) else {
        return Err(benchmark(
            "has no wall time per operation in a harness run: it cannot be compared",
        ));
    };
    t.means[i].push(mean);
    match &mut t.pooled[i] {
        Some(p) => {
            p.samples
                .append(&b.samples)
                .map_err(|e| benchmark(&e.to_string()))?;
            // Each run's launches stay launches of the pooled benchmark, so its
            // replicates are every run's launch means.
            let counts = b.function().map(|f| f.launch_sample_counts.clone());
            if let (Some(f), Some(counts)) = (p.function_mut(), counts) {
                f.launch_sample_counts.extend(counts);
            }
        }
        slot => *slot = Some(b.clone()),
    }
    Ok(())
}

/// The result: each benchmark's pooled samples per side (`NAME · A-label`, baseline, and
/// `NAME · B-label` in the group NAME), the revisions record with each one's looks.
fn document(
    sides: &[Side; 2],
    m: &Measure,
    (template, environment): (ResultDocument, Environment),
    tracked: BTreeMap<String, Tracked>,
    ended: Ending,
) -> ResultDocument {
    let settings = Settings {
        confidence: m.confidence,
        sesoi: m.sesoi,
        question: Default::default(),
        producer: template.settings.producer.clone(),
    };
    let mut doc = ResultDocument::new(
        env!("CARGO_PKG_VERSION"),
        plumb_model::Invocation::current(),
        environment,
        settings,
    );
    doc.clock = template.clock;
    let mut design = None;
    let mut benchmarks = Vec::new();
    for (name, t) in tracked {
        for (i, pooled) in t.pooled.into_iter().enumerate() {
            if let Some(mut b) = pooled {
                b.name = format!("{name} · {}", sides[i].rev.label());
                b.group = Some(name.clone());
                b.baseline = i == 0;
                b.stats.clear();
                b.diagnostics.clear();
                doc.benchmarks.push(b);
            }
        }
        design.get_or_insert_with(|| t.settling.record());
        benchmarks.push(BenchmarkLooks {
            name,
            looks: t.settling.looks().to_vec(),
        });
    }
    let mut design = design.expect("at least one benchmark");
    design.max_time = m.max_time;
    if ended == Ending::Stopped {
        doc.status = plumb_model::RunStatus::Interrupted { signal: None };
    }
    doc.revisions = Some(Revisions {
        base: sides[0].revision(),
        new: sides[1].revision(),
        build: m.build.clone(),
        rounds: SequentialRounds {
            design,
            looks: Vec::new(),
            benchmarks,
            ended,
        },
    });
    doc
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod argv_tests {
    use super::*;

    #[test]
    fn cargo_bench_gets_its_double_dash_and_the_result_file() {
        let cmd: Vec<String> = ["cargo", "bench", "--bench", "parse"]
            .map(String::from)
            .to_vec();
        assert!(is_harness(&cmd));
        let argv = argv_for(&cmd, std::path::Path::new("/t/h.json"));
        assert_eq!(argv[4..], ["--", "--export-json", "/t/h.json", "--quiet"]);
        let with: Vec<String> = ["cargo", "bench", "--", "fast"].map(String::from).to_vec();
        assert_eq!(
            argv_for(&with, std::path::Path::new("f"))[3..],
            ["fast", "--export-json", "f", "--quiet"]
        );
        assert!(!is_harness(&["./bench".to_string()]));
    }
}
