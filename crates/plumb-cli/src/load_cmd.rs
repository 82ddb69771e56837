//! The `plumb load` subcommand: options to a load plan, each target run in turn, report, exit code.
use crate::args::LoadArgs;
use crate::exit::{CliError, Outcome};
use crate::export;
use plumb_analysis::{load_checks, load_comparison, LoadGates};
use plumb_load::http::{probe, LoadConfig, LoadReport, Pacing, PROBE_ABOVE};
use plumb_load::plan::{agent_share, read_mix, Sent};
use plumb_load::session::run_in_turn;
use plumb_load::{load_benchmarks, load_document, percentile_distribution, LoadContext};
use plumb_model::quantity::Timestamp;
use plumb_model::{
    format, Diagnostic, DiagnosticCode, Invocation, LoadComparison, LoadMode, LoadSettings,
    ProducerSettings, ResultDocument, Severity,
};
use plumb_report::{render_load, render_load_comparison, Format};
use std::io::IsTerminal;
use std::path::Path;

pub fn run(mut a: LoadArgs) -> Result<Outcome, CliError> {
    if let Some(crate::args::LoadCommand::Deploy(d)) = a.deploy.take() {
        let crate::args::Engine::K8s(k) = d.engine;
        return crate::deploy_k8s::run(k);
    }
    let targets: Vec<(LoadConfig, LoadSettings)> = match &a.targets {
        Some(file) => vec![plan_mix(&a, file)?],
        None => a
            .urls
            .iter()
            .map(|url| plan(&a, url))
            .collect::<Result<_, _>>()?,
    };
    refuse_with_runs(&a)?;
    let workload = workload_of(&a, &targets)?;
    let out = outputs(&a)?;
    announce_start(a.start_at)?;
    let history = crate::store::Saver::open(&a.save)?;
    let session = crate::session::stop_on_signals()?;
    let mut agent = crate::load_coordinated::join(&a, &targets[0].1, &session.stop)?;
    let capacity_note = capacity_check(&targets[0].0, a.allow_late)?;
    let environment = plumb_env::collect();
    let mut targets = targets;
    let (mut reports, broke) = run_as_agent(&mut targets, a.repeat, &session, &mut agent)?;
    let interrupted = reports.iter().flatten().any(|r| r.interrupted);
    let context = LoadContext {
        confidence: a.confidence,
        sesoi: a.sesoi,
        environment,
        invocation: Invocation::current(),
    };
    let gates = LoadGates {
        max_error_rate: a.max_error_rate,
        allow_late: a.allow_late,
        max_lateness: a.max_lateness,
    };
    if let Some(side) = &agent {
        side.shift(&mut reports);
        side.record(&mut targets[0].1);
    }
    let mut benchmarks = benchmarks_of(&a, &mut targets, &reports, gates)?;
    benchmarks[0].diagnostics.extend(capacity_note);
    let mut doc = load_document(benchmarks, targets[0].1.clone(), context);
    with_designs(workload.as_ref(), &mut doc);
    if interrupted {
        doc.status = plumb_model::RunStatus::Interrupted {
            signal: Some(session.signal_name()),
        };
    } else if let Some(message) = &broke {
        doc.status = plumb_model::RunStatus::Failed {
            message: message.clone(),
        };
    }
    export::write_all(&out, &doc)?;
    if let Some(side) = agent {
        side.finish(&doc, &mut crate::exit::say);
    }
    history.keep(&doc)?;
    let comparison = compare_targets(&doc, &a);
    let text = report_text(&doc, comparison.as_ref(), a.timeline);
    // One run of one target: refuse_with_runs refused --hgrm-dir otherwise.
    if let (Some(dir), Some(report)) = (&a.hgrm_dir, reports.first().and_then(|r| r.first())) {
        write_hgrm(dir, report)?;
    }
    export::print_report(&out, &format!("{}\n", text.trim_end()))?;
    let slower = comparison.as_ref().is_some_and(LoadComparison::any_slower);
    Ok(exit_code(
        &doc,
        interrupted,
        broke.is_some(),
        slower,
        &session,
    ))
}

/// The exports, checked before the test so that a bad path cannot cost it; the
/// `--hgrm-dir` made.
fn outputs(a: &LoadArgs) -> Result<Vec<plumb_report::targets::ExportTarget>, CliError> {
    let out = export::targets(&[
        ("--export-json", &a.export_json, Format::Json),
        ("--report", &a.report, Format::Html),
    ]);
    // The interval log is written at the end too: checked with the exports before the
    // test, so a bad path cannot cost the test (issue 24, defect 2). Its format is its own;
    // only the path is checked here.
    let mut checked = out.clone();
    checked.extend(export::targets(&[("--hlog", &a.hlog, Format::Json)]));
    export::check(&checked)?;
    if let Some(dir) = &a.hgrm_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::msg(format!("cannot create {}: {e}", dir.display())))?;
    }
    Ok(out)
}

/// The runs; one agent of a coordinated test first waits for the start it is given, its
/// live counts go to the coordinator, and a test that cannot run is said to it.
fn run_as_agent(
    targets: &mut [(LoadConfig, LoadSettings)],
    repeat: u32,
    session: &crate::session::Session,
    agent: &mut Option<crate::load_coordinated::AgentSide>,
) -> Result<(Vec<Vec<LoadReport>>, Option<String>), CliError> {
    if let Some(side) = agent {
        let start = side.await_start(&session.stop, &mut crate::exit::say);
        let start =
            start.map_err(|e| CliError::msg(format!("{e}; nothing was sent to the target")))?;
        targets[0].0.start_at = Some(start);
    }
    let uplink = agent.as_ref().and_then(|s| s.feed());
    let configs: Vec<&LoadConfig> = targets.iter().map(|(c, _)| c).collect();
    let announce = std::io::stderr().is_terminal();
    let ran = run_in_turn(
        &configs,
        repeat,
        (&session.stop, uplink),
        announce,
        &mut crate::exit::say,
    )
    .map_err(CliError::from);
    if let Err(e) = &ran {
        if let Some(side) = agent.take() {
            side.fail(&e.message(), &mut crate::exit::say);
        }
    }
    ran
}

/// Each target's benchmark from its runs, with its findings; a target's settings get
/// what its TLS handshake agreed.
fn benchmarks_of(
    a: &LoadArgs,
    targets: &mut [(LoadConfig, LoadSettings)],
    reports: &[Vec<LoadReport>],
    gates: LoadGates,
) -> Result<Vec<plumb_model::Benchmark>, CliError> {
    let mut benchmarks = Vec::new();
    for ((_, settings), runs) in targets.iter_mut().zip(reports) {
        if runs.is_empty() {
            continue;
        }
        if let Some(agreed) = runs.iter().find_map(|r| r.tls.as_ref()) {
            settings.tls = Some(Box::new(a.tls.settings(agreed, a.new_connection)));
            if a.http2 && agreed.alpn.as_deref() != Some("h2") {
                eprintln!(
                    "plumb: --http2 asked, but the server offered only {} by ALPN: measured over HTTP/1.1",
                    agreed.alpn.as_deref().unwrap_or("no protocol")
                );
            }
        }
        let mut these = load_benchmarks(settings, runs)?;
        attach_gates(&mut these, gates);
        these[0]
            .diagnostics
            .extend(load_checks::settings_checks(settings));
        benchmarks.extend(these);
    }
    Ok(benchmarks)
}

/// The gates' findings on a test's benchmarks: all of them on the first (the whole, or
/// the one target); on a mix's targets only which of their requests failed, as warnings.
pub(crate) fn attach_gates(benchmarks: &mut [plumb_model::Benchmark], gates: LoadGates) {
    for (k, b) in benchmarks.iter_mut().enumerate() {
        let Some(load) = b.load() else { continue };
        let checks = load_checks(load, gates);
        if k == 0 {
            b.diagnostics.extend(checks);
        } else {
            b.diagnostics.extend(target_findings(checks));
        }
    }
}

/// A mix's target: which of its requests failed, said as warnings (the whole's own
/// findings, over every target, decide the exit code); the generator's and the
/// connections' findings are the whole's, not repeated per target.
fn target_findings(checks: Vec<Diagnostic>) -> Vec<Diagnostic> {
    checks
        .into_iter()
        .filter(|d| {
            matches!(
                d.code(),
                DiagnosticCode::NothingSucceeded | DiagnosticCode::LoadErrors
            )
        })
        .map(|mut d| {
            d.severity = d.severity.min(Severity::Warning);
            d
        })
        .collect()
}

/// The terminal report: why the series stopped early if it did, each target's result,
/// and the second target against the first.
fn report_text(
    doc: &ResultDocument,
    comparison: Option<&LoadComparison>,
    timeline: bool,
) -> String {
    let mut text = String::new();
    match &doc.status {
        plumb_model::RunStatus::Interrupted { signal } => text.push_str(&format!(
            "Interrupted by {}: the figures below are from the requests measured before it.\n\n",
            signal.as_deref().unwrap_or("a signal")
        )),
        plumb_model::RunStatus::Failed { message } => text.push_str(&format!(
            "{message}: the figures below are from the runs before it.\n\n"
        )),
        plumb_model::RunStatus::Complete => {}
    }
    text.push_str(&plumb_report::render_connection(&doc.settings.producer));
    let mix = matches!(&doc.settings.producer, ProducerSettings::Load(s) if s.mix.is_some());
    if mix {
        text.push_str(&render_load(&doc.benchmarks[0], timeline));
        text.push_str(&plumb_report::render_mix_targets(&doc.benchmarks[1..]));
    } else {
        for b in &doc.benchmarks {
            text.push_str(&render_load(b, timeline));
            text.push('\n');
        }
    }
    if let Some(c) = comparison {
        text.push_str(&render_load_comparison(c));
    }
    text
}

/// What writes one run's histograms or pins one run to the wall clock has no meaning for
/// several runs.
fn refuse_with_runs(a: &LoadArgs) -> Result<(), CliError> {
    if a.repeat == 1 && a.urls.len() <= 1 {
        return Ok(());
    }
    if a.urls.len() == 2 && a.urls[0] == a.urls[1] {
        return Err(CliError::msg(format!(
            "the two targets are the same URL ({}): to see how much one server varies, use --repeat N on one target",
            a.urls[0]
        )));
    }
    let why = if a.repeat > 1 {
        "--repeat"
    } else {
        "two targets"
    };
    for (set, option) in [
        (a.hlog.is_some(), "--hlog"),
        (a.hgrm_dir.is_some(), "--hgrm-dir"),
        (a.start_at.is_some(), "--start-at"),
        (a.link.coordinator.is_some(), "--coordinator"),
    ] {
        if set {
            return Err(CliError::msg(format!(
                "{option} describes one run; with {why} there are several (the result keeps each run's histogram)"
            )));
        }
    }
    Ok(())
}

/// `--start-at` further ahead than this is refused: agents are started together minutes
/// ahead, not days, and a start in the year 5138 is a typo that would wait for ever.
const FURTHEST_START: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// A start more than a second away is said, with its time and how long until it (a
/// terminal also gets a countdown on the live line); one beyond `FURTHEST_START` is
/// refused. A start in the past is the generator's refusal (`StartInPast`).
fn announce_start(start_at: Option<Timestamp>) -> Result<(), CliError> {
    let Some(at) = start_at else {
        return Ok(());
    };
    let wait = at.since(Timestamp::now());
    if wait.to_std() > FURTHEST_START {
        return Err(CliError::msg(format!(
            "--start-at {at} is {} from now, more than the 24 h a start may be ahead; agents are given a moment minutes away (e.g. $(( $(date +%s) + 60 )))",
            format::time(wait)
        )));
    }
    if wait.to_std() > std::time::Duration::from_secs(1) {
        eprintln!(
            "plumb: the test starts at {at} (--start-at), in {}; Ctrl-C stops the wait",
            format::time(wait)
        );
    }
    Ok(())
}

/// The workload file's designs recorded and checked: a load test's document is not
/// analysed as a whole (its checks run per target above), so its design findings are
/// attached here.
fn with_designs(workload: Option<&plumb_model::WorkloadFile>, doc: &mut ResultDocument) {
    crate::design_cmd::record_designs(workload, doc);
    plumb_analysis::attach_design_findings(doc);
}

/// The `--workload` file, its benchmark tables named by the targets' URLs.
fn workload_of(
    a: &LoadArgs,
    targets: &[(LoadConfig, LoadSettings)],
) -> Result<Option<plumb_model::WorkloadFile>, CliError> {
    let names: Vec<&str> = targets.iter().map(|(_, s)| s.url.as_str()).collect();
    crate::design_cmd::workload_for_run(a.workload.as_deref(), &names)
}

/// A second target compared with the first, percentile by percentile.
fn compare_targets(doc: &ResultDocument, a: &LoadArgs) -> Option<LoadComparison> {
    let [base, new] = doc.benchmarks.as_slice() else {
        return None;
    };
    let benchmark = format!("{} → {}", base.name, new.name);
    Some(load_comparison(
        benchmark,
        base.load()?,
        new.load()?,
        a.confidence,
        a.sesoi,
    ))
}

/// A rate above what the threads can send is said before the test starts, with the
/// threads it would take; the test then runs as asked (its lateness will show). A rate
/// beyond what the whole machine could send is refused unless `allow_late`.
fn capacity_check(cfg: &LoadConfig, allow_late: bool) -> Result<Option<Diagnostic>, CliError> {
    let Pacing::Open { rate, .. } = cfg.mode else {
        return Ok(None);
    };
    if rate / (cfg.threads as f64) < PROBE_ABOVE {
        return Ok(None);
    }
    let Some(c) = probe(cfg)? else {
        return Ok(None);
    };
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cpu_per_request = plumb_model::quantity::Duration::from(c.cpu_per_request);
    let note = plumb_analysis::capacity(rate, cfg.threads, cpu_per_request, cpus);
    if let Some(d) = &note {
        let message = plumb_report::finding::message(&d.finding);
        if let plumb_model::Finding::RateAboveCapacity(f) = &d.finding {
            if plumb_analysis::beyond_machine(f) && !allow_late {
                return Err(CliError::msg(format!(
                    "{message}. That is more than {} times what this machine could send with all its CPUs: the test would measure only the generator falling behind. Lower --rate, spread the rate over agents (docs/scale-out.md), or give --allow-late to run it anyway",
                    plumb_analysis::BEYOND_MACHINE
                )));
            }
        }
        eprintln!("plumb: {message}. Running as asked; the send lateness will show it.");
    }
    Ok(note)
}

/// Interrupted: the signal's code. Nothing succeeded, or a run could not start: trouble
/// (2), like a failing benchmark. A failed gate (errors, a late generator) or a second
/// target slower than the first: 1.
fn exit_code(
    doc: &ResultDocument,
    interrupted: bool,
    broke: bool,
    slower: bool,
    session: &crate::session::Session,
) -> Outcome {
    let diagnostics = || doc.benchmarks.iter().flat_map(|b| &b.diagnostics);
    let failed = |code: DiagnosticCode| {
        diagnostics().any(|d| d.code() == code && d.severity == Severity::Error)
    };
    if interrupted {
        session.stopped()
    } else if broke || failed(DiagnosticCode::NothingSucceeded) {
        Outcome::Failed
    } else if slower || diagnostics().any(|d| d.severity == Severity::Error) {
        Outcome::GateFailed
    } else {
        Outcome::Done
    }
}

/// `--targets FILE`: the mix's configuration and record; the TLS options apply to its
/// https targets.
fn plan_mix(a: &LoadArgs, file: &Path) -> Result<(LoadConfig, LoadSettings), CliError> {
    let (mix, record) = read_mix(file, &headers_of(a)?, a.seed)?;
    let https = mix
        .iter()
        .find(|t| t.url.to_ascii_lowercase().starts_with("https://"))
        .map_or("", |t| t.url.as_str());
    check_plan(a, https)?;
    let mut settings = settings_of(a, &mix[0].url)?;
    settings.method = mix[0].method.clone();
    settings.mix = Some(Box::new(record));
    let mut sent = sent_of(a)?;
    sent.mix = mix;
    Ok((LoadConfig::planned(&settings, sent), settings))
}

fn headers_of(a: &LoadArgs) -> Result<Vec<(String, String)>, CliError> {
    let mut headers = Vec::new();
    for h in &a.headers {
        let (k, v) = h
            .split_once(':')
            .ok_or_else(|| CliError::msg(format!("header {h:?} is not 'Name: value'")))?;
        headers.push((k.trim().to_string(), v.trim().to_string()));
    }
    Ok(headers)
}

/// The generator's configuration and the settings the result records, from the options.
fn plan(a: &LoadArgs, url: &str) -> Result<(LoadConfig, LoadSettings), CliError> {
    check_plan(a, url)?;
    let settings = settings_of(a, url)?;
    Ok((LoadConfig::planned(&settings, sent_of(a)?), settings))
}

/// Durations above 0; TLS options that `url` (empty: a mix, whose targets are checked as
/// it is read) will not use are said.
fn check_plan(a: &LoadArgs, url: &str) -> Result<(), CliError> {
    if a.duration.is_zero() {
        return Err(CliError::msg("--duration must be above 0".into()));
    }
    if a.timeout.is_zero() {
        return Err(CliError::msg("--timeout must be above 0".into()));
    }
    if url.is_empty() {
        a.tls.warn_unused("every target of the mix");
    } else if !plumb_load::http::Target::parse(url)?.tls {
        a.tls.warn_unused(url);
    }
    Ok(())
}

/// What the test sends beyond what its result records.
fn sent_of(a: &LoadArgs) -> Result<Sent, CliError> {
    Ok(Sent {
        headers: headers_of(a)?,
        body: a.body.clone().into_bytes(),
        tls: a.tls.options(a.new_connection, a.http2),
        mix: Vec::new(),
        hlog: a.hlog.clone(),
        seed: a.seed,
        pipeline: a.pipeline as usize,
        streams: a.streams as usize,
    })
}

/// What the result records of the options (TLS filled once the handshake has agreed).
fn settings_of(a: &LoadArgs, url: &str) -> Result<LoadSettings, CliError> {
    let agents = agent_share(a.agents, a.agent_index, |k| std::env::var(k).ok())?;
    let mode = match (a.rate, a.closed) {
        (Some(rate), None) => LoadMode::Open {
            rate,
            max_in_flight: a.max_in_flight,
            poisson_seed: a.poisson.then_some(a.seed),
        },
        (None, Some(connections)) => LoadMode::Closed { connections },
        _ => unreachable!("clap requires exactly one of --rate and --closed"),
    };
    Ok(LoadSettings {
        url: url.to_string(),
        method: a.method.clone(),
        mode,
        duration: a.duration,
        warmup: a.warmup,
        timeout: a.timeout,
        start_at: a.start_at,
        // One of several agents sharing a schedule is named by its index unless named.
        agent: a
            .agent
            .clone()
            .or_else(|| agents.map(|s| format!("agent-{}", s.index))),
        spin: a.spin,
        threads: a.threads,
        pipeline: if a.http2 { a.streams } else { a.pipeline },
        drain: Some(a.drain),
        max_body: Some(a.max_body),
        max_error_rate: Some(a.max_error_rate),
        allow_late: a.allow_late,
        max_lateness: Some(a.max_lateness),
        repeat: a.repeat,
        second_url: a.urls.get(1).cloned(),
        new_connection: a.new_connection,
        // Filled once the handshake before the test has said what was agreed.
        tls: None,
        http2: a.http2,
        agents,
        mix: None,
        coordinated: None,
    })
}

fn write_hgrm(dir: &Path, report: &LoadReport) -> Result<(), CliError> {
    let mut files = vec![("latency", &report.latency), ("service", &report.service)];
    if let Some(l) = &report.lateness {
        files.push(("lateness", l));
    }
    for (name, h) in files {
        let path = dir.join(format!("{name}.hgrm"));
        std::fs::write(&path, percentile_distribution(h))
            .map_err(|e| CliError::msg(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}
