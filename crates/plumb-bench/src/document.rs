//! Turns what the harness measured into the shared result model, and writes it out.

use crate::args::Args;
use crate::bencher::Context;
use crate::harness::{Outcome, Ran};
use crate::registry::{Entry, GroupOptions};
use plumb_analysis::{analyse_document, AnalysisConfig};
use plumb_model::{
    Benchmark, BenchmarkKind, ClockInfo, Correction, FunctionInfo, Invocation, ResultDocument,
    Sample, Settings,
};
use plumb_report::Format;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A document for this run, with no benchmarks yet.
pub(crate) fn new_document(
    args: &Args,
    clock: ClockInfo,
    ctx: &Context,
    environment: plumb_model::Environment,
) -> ResultDocument {
    let mut doc = ResultDocument::new(
        env!("CARGO_PKG_VERSION"),
        Invocation::current(),
        environment,
        Settings {
            confidence: args.confidence,
            sesoi: args.sesoi,
            options: serde_json::json!({
                "harness": "plumb-bench",
                "clock": clock.name,
                "warmup": if args.warmup { "steady-state" } else { "none" },
                "warmup_cap_s": args.warmup_cap.as_secs_f64(),
                "sample_count": args.sample_count,
                "measure_time_s": args.measure_time.as_secs_f64(),
                "target_error": args.target_error,
                "max_measure_time_s": args.max_measure_time.as_secs_f64(),
                "min_sample_ns": ctx.sampling.min_sample_ns,
                "subtract_overhead": args.subtract_overhead,
                "delta": args.delta,
                "pin": args.pin,
                "allocations_counted": ctx.count_allocations,
                "launches": args.launches,
            }),
        },
    );
    doc.clock = Some(clock);
    doc
}

/// The result-model form of one benchmark's measurement.
pub(crate) fn benchmark(args: &Args, e: &Entry<'_>, r: Ran) -> Benchmark {
    {
        let mut b = Benchmark::new(&e.full_name, BenchmarkKind::Function);
        b.group = e.compare_set.clone();
        b.baseline = e.baseline;
        b.parameters = e.parameters.clone();
        let mut info = FunctionInfo {
            ops_per_iter: 1,
            working_set_bytes: r.working_set_bytes,
            result: r.result,
            ..FunctionInfo::default()
        };
        match r.outcome {
            Outcome::Measured(m) => {
                let s = &m.sampled;
                let ops = s.batch * m.ops_per_iter;
                b.samples = s.samples_ns.iter().map(|&ns| sample(ns, ops)).collect();
                b.warmup = s
                    .warmup_ns
                    .iter()
                    .map(|&(n, ns)| sample(ns, n * m.ops_per_iter))
                    .collect();
                info.ops_per_iter = m.ops_per_iter;
                info.warmup = m.warmup && args.warmup;
                info.steady_state = s.steady;
                info.warmup_ns = s.warmup_elapsed.as_nanos() as u64;
                if let Some(p) = s.precision {
                    info.target_error = args.target_error.map(|t| t.get());
                    info.batch_means_error = Some(p.relative_error).filter(|e| e.is_finite());
                    info.precision_stop = Some(p.stop);
                }
                let opi = m.ops_per_iter as f64;
                let empty_per_op: Vec<f64> =
                    s.empty_per_iter_ns.iter().map(|ns| ns / opi).collect();
                info.empty_body_samples_ns = empty_per_op.clone();
                if !s.empty_per_iter_ns.is_empty() {
                    let n = s.empty_per_iter_ns.len() as f64;
                    let mean = s.empty_per_iter_ns.iter().sum::<f64>() / n;
                    info.empty_body_ns = Some(mean / opi);
                    if args.subtract_overhead {
                        // Per sample: the empty body's per-iteration cost times the batch.
                        let per_sample: Vec<f64> = s
                            .empty_per_iter_ns
                            .iter()
                            .map(|x| x * s.batch as f64)
                            .collect();
                        b.correction = Correction::estimated(
                            &per_sample,
                            "empty-body loop overhead at the same batch size",
                        );
                        info.overhead_subtracted = b.correction.is_some();
                    }
                }
                if let Some(c) = Correction::estimated(
                    &s.fixed_ns,
                    "fixed cost per sample by delta timing, 2·t(N) − t(2N)",
                ) {
                    b.correction = Some(c);
                }
                if let Some((allocs, bytes)) = m.allocations {
                    // Delta mode runs N and then 2N iterations per sample (batch is 2N):
                    // 1.5 × batch iterations happened while the counters were read.
                    let per_sample = if args.delta { ops + ops / 2 } else { ops };
                    let total_ops = (s.samples_ns.len() as u64 * per_sample).max(1) as f64;
                    info.allocs_per_op = Some(allocs as f64 / total_ops);
                    info.bytes_per_op = Some(bytes as f64 / total_ops);
                }
            }
            Outcome::Failed(msg) => info.failure = Some(msg),
        }
        b.function = Some(info);
        b
    }
}

/// Analyses the document and runs the harness's own checks.
pub(crate) fn finish(
    doc: &mut ResultDocument,
    args: &Args,
    options: &BTreeMap<String, GroupOptions>,
) {
    analyse_document(
        doc,
        &AnalysisConfig {
            level: args.confidence,
            sesoi: args.sesoi,
            drop_upper_outliers: false,
        },
    );
    crate::checks::apply(doc, options);
}

fn sample(ns: f64, iterations: u64) -> Sample {
    Sample {
        iterations,
        ..Sample::wall(ns.round().max(0.0) as u64)
    }
}

/// Where the JSON result goes when no `--export-json` is given: `target/plumb/<bench>.json`
/// next to the bench binary's `target/<profile>/deps/`.
fn default_json_path() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let stem = exe.file_stem()?.to_string_lossy().to_string();
    let stem = match stem.rsplit_once('-') {
        Some((name, hash)) if hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit()) => {
            name.to_string()
        }
        _ => stem,
    };
    let target = exe
        .ancestors()
        .find(|p| p.file_name().is_some_and(|n| n == "target"))?;
    Some(target.join("plumb").join(format!("{stem}.json")))
}

pub(crate) fn export(args: &Args, doc: &ResultDocument) -> Result<(), String> {
    let mut targets: Vec<(PathBuf, Format)> = Vec::new();
    match &args.export_json {
        Some(p) => targets.push((p.clone(), Format::Json)),
        None => {
            if let Some(p) = default_json_path() {
                targets.push((p, Format::Json));
            }
        }
    }
    if let Some(p) = &args.export_markdown {
        targets.push((p.clone(), Format::Markdown));
    }
    if let Some(p) = &args.export_csv {
        targets.push((p.clone(), Format::Csv));
    }
    for (path, format) in targets {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        std::fs::write(&path, format.render(doc))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}
