//! In-process benchmarks in `plumb revs`: `-- cargo bench --bench NAME [-- ARGS]`, or with
//! `--harness` any command that writes a plumb result to the file `--export-json FILE`
//! names (a plumb-bench harness does). Each round runs each side's harness once, in random
//! order; a benchmark's mean time per operation in that run is the round's value for its
//! side and ln(B / A) the round's statistic — a harness run already holds many samples, so
//! the run is the replicate — judged sequentially per benchmark at α over their number.
//! Every sample of every run is pooled per side in the result.
use crate::exit::CliError;
use crate::revs_run::{Measure, Side};
use crate::session::Session;
use plumb_analysis::{analyse_document, AnalysisConfig, Settling};
use plumb_model::{Benchmark, BenchmarkLooks, Ending, Metric, ResultDocument, Revisions, Settings};
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::process::{Command, Stdio};
use std::sync::atomic::Ordering;
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

/// One run of a side's harness; `None` when a stop signal came during it.
fn run_harness(
    side: &Side,
    role: &str,
    command: &[String],
    session: &Session,
) -> Result<Option<ResultDocument>, CliError> {
    let json = side.checkout.entry.join("harness.json");
    let _ = std::fs::remove_file(&json);
    let argv = argv_for(command, &json);
    let out = Command::new(&argv[0])
        .args(&argv[1..])
        .current_dir(&side.checkout.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .output()
        .map_err(|e| {
            CliError(format!(
                "cannot run {:?} in {role}'s worktree: {e}",
                argv[0]
            ))
        })?;
    // A terminal's Ctrl-C reaches the harness too, possibly before plumb's flag is up.
    let killed_by_sigint =
        std::os::unix::process::ExitStatusExt::signal(&out.status) == Some(libc::SIGINT);
    if session.stop.load(Ordering::Relaxed) || killed_by_sigint {
        return Ok(None);
    }
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(CliError(format!(
            "the harness failed in {role}'s worktree ({}): {}; the end of its stderr:\n{}",
            side.rev.label(),
            out.status,
            plumb_revs::last_lines(&err, 20)
        )));
    }
    let text = std::fs::read_to_string(&json).map_err(|e| {
        CliError(format!(
            "the harness in {role}'s worktree wrote no result to {} ({e}): does it take --export-json FILE (a plumb-bench harness does)?",
            json.display()
        ))
    })?;
    Ok(Some(ResultDocument::from_json(&text).map_err(|e| {
        CliError(format!("{role}'s harness result {}: {e}", json.display()))
    })?))
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
    settling: Settling,
    means: [Vec<f64>; 2],
    pooled: [Option<Benchmark>; 2],
}

/// Measures the two sides' harnesses; `None` when stopped before the first round.
pub fn measure_harness(
    sides: &[Side; 2],
    m: &Measure,
    command: &[String],
    session: &Session,
) -> Result<Option<ResultDocument>, CliError> {
    eprintln!("plumb: in-process benchmarks: each round runs both sides' harness once, and judges each benchmark's mean per operation");
    let mut trial = Vec::new();
    for (role, side) in ["A", "B"].iter().zip(sides) {
        match run_harness(side, role, command, session)? {
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
        return Err(CliError(
            "the two harnesses have no benchmark in common: nothing to compare".into(),
        ));
    }
    let alpha = m.confidence.alpha() / names.len() as f64;
    let mut tracked: BTreeMap<String, Tracked> = names
        .iter()
        .map(|n| {
            let t = Tracked {
                settling: Settling::new(m.looks, alpha, m.sesoi.get(), 1),
                means: [Vec::new(), Vec::new()],
                pooled: [None, None],
            };
            (n.clone(), t)
        })
        .collect();
    let ended = rounds(sides, m, command, session, &mut tracked)?;
    Ok(Some(document(
        sides,
        m,
        trial.swap_remove(0),
        tracked,
        ended,
    )))
}

/// Rounds until every benchmark settles, the cap, the deadline or a stop.
fn rounds(
    sides: &[Side; 2],
    m: &Measure,
    command: &[String],
    session: &Session,
    tracked: &mut BTreeMap<String, Tracked>,
) -> Result<Ending, CliError> {
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
            match run_harness(&sides[i], ["A", "B"][i], command, session)? {
                Some(doc) => docs[i] = Some(doc),
                None => return Ok(Ending::Stopped),
            }
        }
        for (name, t) in tracked.iter_mut() {
            for (i, doc) in docs.iter().enumerate() {
                let doc = doc.as_ref().expect("both sides ran");
                let Some(b) = doc.benchmarks.iter().find(|b| &b.name == name) else {
                    return Err(CliError(format!(
                        "benchmark {name:?} vanished from a harness run"
                    )));
                };
                let Some(mean) = per_op_mean(b).filter(|m| m.is_finite() && *m > 0.0) else {
                    return Err(CliError(format!(
                        "benchmark {name:?} has no wall time per operation in a harness run: it cannot be compared"
                    )));
                };
                t.means[i].push(mean);
                match &mut t.pooled[i] {
                    Some(p) => {
                        p.samples.append(&b.samples).map_err(CliError)?;
                        // Each run's launches stay launches of the pooled benchmark, so its
                        // replicates are every run's launch means.
                        let counts = b.function().map(|f| f.launch_sample_counts.clone());
                        if let (Some(f), Some(counts)) = (p.function_mut(), counts) {
                            f.launch_sample_counts.extend(counts);
                        }
                    }
                    slot => *slot = Some(b.clone()),
                }
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

/// The result: each benchmark's pooled samples per side (`NAME · A-label`, baseline, and
/// `NAME · B-label` in the group NAME), the revisions record with each one's looks.
fn document(
    sides: &[Side; 2],
    m: &Measure,
    template: ResultDocument,
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
        plumb_env::collect(),
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
            looks: t.settling.looks,
        });
    }
    let mut design = design.expect("at least one benchmark");
    design.max_time = m.max_time;
    if ended == Ending::Stopped {
        doc.status = plumb_model::RunStatus::Interrupted { signal: None };
    }
    doc.revisions = Some(Revisions {
        base: crate::revs_run::revision(&sides[0]),
        new: crate::revs_run::revision(&sides[1]),
        build: m.build.clone(),
        design,
        looks: Vec::new(),
        benchmarks,
        ended,
    });
    analyse_document(&mut doc, &AnalysisConfig::new(m.confidence, m.sesoi));
    doc
}

#[cfg(test)]
mod tests {
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
