//! Turns what the harness measured into the shared result model, and writes it out.

use crate::args::Args;
use crate::bencher::{Context, Measured};
use crate::error::BenchError;
use crate::ran::{BenchOutcome, Ran};
use crate::registry::{Entry, GroupOptions};
use crate::sampler::Sampled;
use plumb_analysis::{analyse_document, AnalysisConfig};
use plumb_model::quantity::Duration;
use plumb_model::{
    Benchmark, BenchmarkKind, ClockInfo, Correction, FunctionInfo, InProcessSettings, Invocation,
    Metric, MetricInfo, ProducerSettings, ResultDocument, Samples, Settings,
};
use plumb_report::targets::ExportTarget;
use plumb_report::Format;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// What this run's settings were, for the result document.
pub(crate) fn settings(args: &Args, clock: &ClockInfo, ctx: &Context) -> InProcessSettings {
    InProcessSettings {
        clock: clock.name.clone(),
        warmup: args.warmup,
        warmup_cap: args.warmup_cap,
        warmup_window: args.warmup_window,
        sample_count: args.sample_count,
        measure_time: args.measure_time,
        // Launches sample to a fixed budget: no precision target was pursued.
        target_error: args.target_error.filter(|_| args.launches <= 1),
        max_measure_time: args.max_measure_time,
        min_sample: ctx.sampling.min_sample.into(),
        subtract_overhead: args.subtract_overhead,
        delta: args.delta,
        pin: args.pin,
        allocations_counted: ctx.count_allocations,
        launches: args.launches,
    }
}

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
            question: args.question,
            producer: ProducerSettings::InProcess(settings(args, &clock, ctx)),
        },
    );
    doc.clock = Some(clock);
    doc
}

/// The result-model form of one benchmark's measurement.
pub(crate) fn benchmark(args: &Args, e: &Entry<'_>, r: Ran) -> Benchmark {
    let mut b = Benchmark::new(&e.full_name, BenchmarkKind::Function);
    b.group = e.compare_set.clone();
    b.baseline = e.baseline;
    b.parameters = e.parameters.clone();
    b.working_set = r.working_set;
    b.design = r.design;
    b.series = series(e);
    let mut info = FunctionInfo {
        result: r.result,
        ..FunctionInfo::default()
    };
    match r.outcome {
        BenchOutcome::Measured(m) => measured(args, &mut b, &mut info, *m),
        BenchOutcome::Failed(msg) => info.failure = Some(msg),
    }
    b.set_function(info);
    b
}

/// The sweep a parameterised benchmark is a point of: its name without the
/// `/param=value` its parameters added.
fn series(e: &Entry<'_>) -> Option<String> {
    let suffix: String = e
        .parameters
        .iter()
        .map(|(k, v)| format!("/{k}={v}"))
        .collect();
    (!e.parameters.is_empty())
        .then(|| e.full_name.strip_suffix(&suffix).map(str::to_string))
        .flatten()
}

/// The samples of a measured benchmark as metric columns, with their warm-up, the
/// empty-body calibration and any correction.
fn measured(args: &Args, b: &mut Benchmark, info: &mut FunctionInfo, m: Measured) {
    let s = &m.sampled;
    let ops = s.batch * m.ops_per_iter;
    b.metrics
        .insert(Metric::WallTime, MetricInfo::measured(&Metric::WallTime));
    let counted = m.allocations_counted;
    for metric in [Metric::Allocations, Metric::AllocatedBytes]
        .iter()
        .filter(|_| counted)
    {
        b.metrics
            .insert(metric.clone(), MetricInfo::measured(metric));
    }
    for c in &m.counters {
        b.metrics.insert(c.metric.clone(), c.info);
    }
    // The probe's values: allocations and bytes when counted, then the counters.
    let mut names = Vec::new();
    if counted {
        names.extend([Metric::Allocations, Metric::AllocatedBytes]);
    }
    names.extend(m.counters.iter().map(|c| c.metric.clone()));
    let mut values = Vec::with_capacity(1 + names.len());
    for (time, extra) in s.samples.iter().zip(&s.extra) {
        values.clear();
        values.push((Metric::WallTime, whole_ns(*time)));
        values.extend(names.iter().cloned().zip(extra.iter().copied()));
        b.samples.push(ops, &values);
    }
    // Warm-up keeps wall time only: its probe values were not kept.
    let mut warmup = Samples::default();
    for &(n, time) in &s.warmup {
        warmup.push(n * m.ops_per_iter, &[(Metric::WallTime, whole_ns(time))]);
    }
    b.warmup = warmup;
    info.ops_per_iter = m.ops_per_iter;
    info.warmup = m.warmup && args.warmup;
    info.steady_state = s.steady;
    info.warmup_time = s.warmup_elapsed.into();
    if let Some(p) = s.precision {
        info.target_error = args.target_error;
        info.batch_means_error = Some(p.relative_error).filter(|e| e.is_finite());
        info.precision_stop = Some(p.stop);
    }
    calibration(args, b, info, s);
}

/// The empty body's per-op cost (reported, and subtracted with --subtract-overhead) and
/// delta timing's fixed cost per sample.
fn calibration(args: &Args, b: &mut Benchmark, info: &mut FunctionInfo, s: &Sampled) {
    info.empty_body_samples = s.empty_per_iter.clone();
    if !s.empty_per_iter.is_empty() {
        let n = s.empty_per_iter.len() as u64;
        info.empty_body = Some(
            s.empty_per_iter
                .iter()
                .copied()
                .sum::<Duration>()
                .div_u64(n),
        );
        if args.subtract_overhead {
            // Per sample: the empty body's per-iteration cost times the batch, ns.
            let per_sample: Vec<f64> = s
                .empty_per_iter
                .iter()
                .map(|x| x.as_nanos_f64() * s.batch as f64)
                .collect();
            b.corrections.extend(Correction::estimated(
                Metric::WallTime,
                &per_sample,
                "empty-body loop overhead at the same batch size",
            ));
            info.overhead_subtracted = !b.corrections.is_empty();
        }
    }
    if let Some(c) = Correction::estimated(
        Metric::WallTime,
        &s.fixed_costs_ns(),
        "fixed cost per sample by delta timing, 2·t(N) − t(2N)",
    ) {
        b.corrections = vec![c];
    }
}

/// Analyses the document and runs the harness's own checks.
pub(crate) fn finish(
    doc: &mut ResultDocument,
    args: &Args,
    options: &BTreeMap<String, GroupOptions>,
) {
    let cfg = AnalysisConfig {
        question: args.question,
        ..AnalysisConfig::new(args.confidence, args.sesoi)
    };
    analyse_document(doc, &cfg);
    plumb_analysis::harness_checks(doc, options);
}

/// A time as a sample column holds it: whole nanoseconds (the metric's unit).
fn whole_ns(time: Duration) -> u64 {
    ((time.as_picos() + 500) / 1000) as u64
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

/// Where this run's outputs go, as the CLI's are: `--export-*` and `--report` as given
/// (`-` for standard output), and without `--export-json` the default JSON file in
/// `target/plumb/` (its directory made when written).
pub(crate) fn targets(args: &Args) -> Vec<ExportTarget> {
    let mut targets = Vec::new();
    match &args.export_json {
        Some(p) => targets.push(ExportTarget::new("--export-json", p.clone(), Format::Json)),
        None => targets.extend(default_json_path().map(|p| ExportTarget {
            create_dirs: true,
            ..ExportTarget::new("the default result file", p, Format::Json)
        })),
    }
    let given = [
        ("--export-markdown", &args.export_markdown, Format::Markdown),
        ("--export-csv", &args.export_csv, Format::Csv),
        #[cfg(feature = "html")]
        ("--report", &args.report, Format::Html),
    ];
    for (option, path, format) in given {
        targets.extend(path.clone().map(|p| ExportTarget::new(option, p, format)));
    }
    targets
}

/// Writes every target (a failing one rescues the whole result), saying where each went.
pub(crate) fn export(targets: &[ExportTarget], doc: &ResultDocument) -> Result<(), BenchError> {
    plumb_report::targets::write_all(targets, doc)?;
    for t in targets.iter().filter(|t| !t.is_stdout()) {
        eprintln!("wrote {}", t.path.display());
    }
    Ok(())
}
