use crate::args::LoadArgs;
use crate::exit::{self, CliError};
use crate::export;
use crate::load_live::Live;
use plumb_analysis::{load_checks, LoadGates};
use plumb_load::load::{probe, run as run_load, LoadConfig, LoadReport, Mode, PROBE_ABOVE};
use plumb_load::{load_document, percentile_distribution, LoadContext};
use plumb_model::{Diagnostic, DiagnosticCode, Invocation, LoadMode, LoadSettings, Severity};
use plumb_report::{render_load, Format};
use std::path::Path;

pub fn run(a: LoadArgs) -> Result<i32, CliError> {
    let (cfg, settings) = plan(&a)?;
    let targets = export::targets(&[("--export-json", &a.export_json, Format::Json)]);
    export::check(&targets)?;
    if let Some(dir) = &a.hgrm_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError(format!("cannot create {}: {e}", dir.display())))?;
    }
    let session = crate::session::stop_on_signals()?;
    let capacity_note = capacity_check(&cfg)?;
    let environment = plumb_env::collect();
    let mut live = Live::start(cfg.threads, cfg.warmup, cfg.drain.min(cfg.timeout));
    let report = run_load(&cfg, session.stop.clone(), live.feed());
    live.finish();
    let report = report.map_err(CliError)?;
    let context = LoadContext {
        confidence: a.confidence,
        sesoi: a.sesoi,
        environment,
        invocation: Invocation::current(),
    };
    let mut doc = load_document(&report, settings, context);
    if report.interrupted {
        doc.status = plumb_model::RunStatus::Interrupted {
            signal: Some(session.signal_name()),
        };
    }
    let gates = LoadGates {
        max_error_rate: a.max_error_rate,
        allow_late: a.allow_late,
    };
    let b = &mut doc.benchmarks[0];
    let checks = load_checks(b.load.as_ref().expect("a load result"), gates);
    b.diagnostics.extend(checks);
    b.diagnostics.extend(capacity_note);
    export::write_all(&targets, &doc)?;
    let mut text = String::new();
    if report.interrupted {
        text.push_str(&format!(
            "Interrupted by {}: the figures below are from the requests measured before it.\n\n",
            session.signal_name()
        ));
    }
    text.push_str(&render_load(&doc.benchmarks[0], a.timeline));
    export::print_report(&targets, &text);
    if let Some(dir) = &a.hgrm_dir {
        write_hgrm(dir, &report)?;
    }
    Ok(exit_code(&doc.benchmarks[0].diagnostics, &report, &session))
}

/// A rate above what the threads can send is said before the test starts, with the
/// threads it would take; the test then runs as asked (its lateness will show).
fn capacity_check(cfg: &LoadConfig) -> Result<Option<Diagnostic>, CliError> {
    let Mode::Open { rate, .. } = cfg.mode else {
        return Ok(None);
    };
    if rate / (cfg.threads as f64) < PROBE_ABOVE {
        return Ok(None);
    }
    let Some(c) = probe(cfg).map_err(CliError)? else {
        return Ok(None);
    };
    let need = c.threads_for(rate);
    if need <= cfg.threads {
        return Ok(None);
    }
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let message = format!(
        "--rate {rate} is more than {} generator thread{} can send on schedule here: a probe measured {:.1} µs of CPU per request (at most {:.0} req/s per thread, planned at 80 %); it would take --threads {need}{}",
        cfg.threads,
        if cfg.threads == 1 { "" } else { "s" },
        c.cpu_per_request.as_secs_f64() * 1e6,
        c.per_thread(),
        if need > cpus {
            format!(" and this machine lets it use {cpus} CPU{}: add agents (plumb merge)", if cpus == 1 { "" } else { "s" })
        } else {
            String::new()
        }
    );
    eprintln!("plumb: {message}. Running as asked; the send lateness will show it.");
    Ok(Some(
        Diagnostic::new(DiagnosticCode::GeneratorBehind, Severity::Info, message)
            .evidence("cpu_per_request_us", c.cpu_per_request.as_secs_f64() * 1e6)
            .evidence("threads_needed", need),
    ))
}

/// Interrupted: the signal's code. Nothing succeeded: trouble (2), like a failing
/// benchmark. A failed gate (errors, a late generator): 1.
fn exit_code(
    diagnostics: &[Diagnostic],
    report: &LoadReport,
    session: &crate::session::Session,
) -> i32 {
    let failed = |code: DiagnosticCode| {
        diagnostics
            .iter()
            .any(|d| d.code == code && d.severity == Severity::Error)
    };
    if report.interrupted {
        session.exit_code()
    } else if failed(DiagnosticCode::NothingSucceeded) {
        exit::ERROR
    } else if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        exit::REGRESSION
    } else {
        exit::OK
    }
}

/// The generator's configuration and the settings the result records, from the options.
fn plan(a: &LoadArgs) -> Result<(LoadConfig, LoadSettings), CliError> {
    if a.duration.is_zero() {
        return Err(CliError("--duration must be above 0".into()));
    }
    if a.timeout.is_zero() {
        return Err(CliError("--timeout must be above 0".into()));
    }
    plumb_load::load::Target::parse(&a.url).map_err(|e| CliError(e.to_string()))?;
    let mut headers = Vec::new();
    for h in &a.headers {
        let (k, v) = h
            .split_once(':')
            .ok_or_else(|| CliError(format!("header {h:?} is not 'Name: value'")))?;
        headers.push((k.trim().to_string(), v.trim().to_string()));
    }
    let mode = match (a.rate, a.closed) {
        (Some(rate), None) => LoadMode::Open {
            rate,
            max_in_flight: a.max_in_flight,
            poisson_seed: a.poisson.then_some(a.seed),
        },
        (None, Some(connections)) => LoadMode::Closed { connections },
        _ => unreachable!("clap requires exactly one of --rate and --closed"),
    };
    let cfg = LoadConfig {
        url: a.url.clone(),
        method: a.method.clone(),
        headers,
        body: a.body.clone().into_bytes(),
        duration: a.duration.to_std(),
        warmup: a.warmup.to_std(),
        timeout: a.timeout.to_std(),
        mode: Mode::from(&mode),
        start_at: a
            .start_at
            .map(|t| std::time::UNIX_EPOCH + std::time::Duration::from_secs_f64(t)),
        hlog: a.hlog.clone(),
        spin: a.spin.to_std(),
        drain: a.drain.to_std(),
        threads: a.threads as usize,
        pipeline: a.pipeline as usize,
        max_body: a.max_body.0,
    };
    let settings = LoadSettings {
        url: a.url.clone(),
        method: a.method.clone(),
        mode,
        duration: a.duration,
        warmup: a.warmup,
        timeout: a.timeout,
        start_at: a.start_at,
        agent: a.agent.clone(),
        spin: a.spin,
        threads: a.threads,
        pipeline: a.pipeline,
        drain: Some(a.drain),
        max_body: Some(a.max_body.0),
        max_error_rate: Some(a.max_error_rate),
        allow_late: a.allow_late,
    };
    Ok((cfg, settings))
}

fn write_hgrm(dir: &Path, report: &LoadReport) -> Result<(), CliError> {
    let mut files = vec![("latency", &report.latency), ("service", &report.service)];
    if let Some(l) = &report.lateness {
        files.push(("lateness", l));
    }
    for (name, h) in files {
        let path = dir.join(format!("{name}.hgrm"));
        std::fs::write(&path, percentile_distribution(h))
            .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}
