//! The `plumb load` subcommand: options to a load plan (plumb-load's `plan/`), the test
//! run by plumb-loadtest, its report printed and its end mapped to an exit code.
use crate::args::LoadArgs;
use crate::exit::{CliError, Outcome};
use crate::export;
use plumb_load::http::LoadConfig;
use plumb_load::plan::{agent_share, parse_headers, plan_mix, plan_urls, Sent};
use plumb_loadtest::{capacity_check, check_start, LoadTest};
use plumb_model::{Invocation, LoadMode, LoadSettings};
use plumb_report::Format;
use std::io::IsTerminal;

pub fn run(mut a: LoadArgs) -> Result<Outcome, CliError> {
    if let Some(crate::args::LoadCommand::Deploy(d)) = a.deploy.take() {
        let crate::args::Engine::K8s(k) = d.engine;
        return crate::deploy_k8s::run(k);
    }
    let (settings, sent) = (settings_of(&a)?, sent_of(&a)?);
    let targets: Vec<(LoadConfig, LoadSettings)> = match &a.targets {
        Some(file) => vec![plan_mix(settings, sent, file)?],
        None => plan_urls(&settings, &sent, &a.urls)?,
    };
    for (config, settings) in targets.iter().filter(|(c, _)| !c.uses_tls()) {
        let mix = !config.mix.is_empty();
        a.tls.warn_unused(if mix {
            "every target of the mix"
        } else {
            &settings.url
        });
    }
    refuse_with_runs(&a)?;
    let names: Vec<&str> = targets.iter().map(|(_, s)| s.url.as_str()).collect();
    let workload = plumb_env::workload_for_run(a.workload.as_deref(), &names)?;
    let out = outputs(&a)?;
    check_start(a.start_at, &mut crate::exit::say)?;
    let history = crate::store::saver(&a.save)?;
    let session = crate::session::stop_on_signals()?;
    let agent = crate::load_coordinated::join(&a, &targets[0], &session.stop)?;
    let capacity_note = capacity_check(&targets[0].0, a.allow_late, &mut crate::exit::say)?;
    let test = LoadTest {
        targets,
        repeat: a.repeat,
        confidence: a.confidence,
        sesoi: a.sesoi,
        workload,
        capacity_note,
        invocation: Invocation::current(),
        announce: std::io::stderr().is_terminal(),
    };
    let signal = || session.signal_name();
    let tested = plumb_loadtest::run(test, (&session.stop, &signal), agent, &mut crate::exit::say)?;
    export::write_all(&out, &tested.doc)?;
    if let Some(side) = tested.agent {
        side.finish(&tested.doc, &mut crate::exit::say);
    }
    crate::store::keep(history, &tested.doc)?;
    let text = plumb_report::render_load_test(&tested.doc, tested.comparison.as_ref(), a.timeline);
    // One run of one target: refuse_with_runs refused --hgrm-dir otherwise.
    if let (Some(dir), Some(report)) = (&a.hgrm_dir, &tested.first_run) {
        report.write_hgrm(dir)?;
    }
    export::print_report(&out, &text)?;
    Ok(session.outcome_of(tested.ended))
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
        plumb_report::targets::OutputDir::prepare("--hgrm-dir", dir)?;
    }
    Ok(out)
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

/// What the test sends beyond what its result records.
fn sent_of(a: &LoadArgs) -> Result<Sent, CliError> {
    Ok(Sent {
        headers: parse_headers(&a.headers)?,
        body: a.body.clone().into_bytes(),
        tls: a.tls.options(a.new_connection, a.http2),
        mix: Vec::new(),
        hlog: a.hlog.clone(),
        seed: a.seed,
        pipeline: a.pipeline as usize,
        streams: a.streams as usize,
    })
}

/// What the result records of the options (the URL each target's; TLS filled once the
/// handshake has agreed).
fn settings_of(a: &LoadArgs) -> Result<LoadSettings, CliError> {
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
        url: String::new(),
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
