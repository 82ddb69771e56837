//! The `plumb load` subcommand: the options planned (plumb-load's `LoadOptions::plan`),
//! the test run by plumb-loadtest, its report printed and its end mapped to an exit code.
use crate::args::LoadArgs;
use crate::exit::{say, CliError, Outcome};
use crate::export;
use plumb_loadtest::{capacity_check, check_start, LoadTest};
use plumb_model::Invocation;
use plumb_report::Format;
use std::io::IsTerminal;

pub fn run(mut a: LoadArgs) -> Result<Outcome, CliError> {
    if let Some(crate::args::LoadCommand::Deploy(d)) = a.deploy.take() {
        let crate::args::Engine::K8s(k) = d.engine;
        return crate::deploy_k8s::run(k);
    }
    let o = &a.test;
    let planned = o.plan(|k| std::env::var(k).ok())?;
    planned.notices.into_iter().for_each(say);
    let targets = planned.targets;
    let names: Vec<&str> = targets.iter().map(|(_, s)| s.url.as_str()).collect();
    let workload = plumb_env::workload_for_run(a.workload.as_deref(), &names)?;
    let out = outputs(&a)?;
    check_start(o.start_at, &mut say)?;
    let history = crate::store::saver(&a.save)?;
    let session = crate::session::stop_on_signals()?;
    let env = (o.threads, std::env::var("PLUMB_TOKEN").ok());
    let agent = o.link.join(&targets[0], env, &session.stop, &mut say)?;
    let capacity_note = capacity_check(&targets[0].0, o.allow_late, &mut say)?;
    let test = LoadTest {
        targets,
        repeat: o.repeat,
        confidence: o.confidence,
        sesoi: o.sesoi,
        workload,
        capacity_note,
        invocation: Invocation::current(),
        announce: std::io::stderr().is_terminal(),
    };
    let signal = || session.signal_name();
    let tested = plumb_loadtest::run(test, (&session.stop, &signal), agent, &mut say)?;
    export::write_all(&out, &tested.doc)?;
    // An agent whose coordinator did not receive its result did not do its part of
    // the coordinated test, whatever its own run: it fails (its result is its own).
    let delivered = (tested.agent).is_none_or(|side| side.finish(&tested.doc, &mut say));
    crate::store::keep(history, &tested.doc, &out)?;
    let text = plumb_report::render_load_test(&tested.doc, tested.comparison.as_ref(), a.timeline);
    // One run of one target: the plan refused --hgrm-dir otherwise.
    if let (Some(dir), Some(report)) = (&o.hgrm_dir, &tested.first_run) {
        report.write_hgrm(dir)?;
    }
    export::print_report(&out, &text)?;
    Ok(match tested.ended {
        plumb_loadtest::Ended::Stopped => session.stopped(),
        _ if !delivered => Outcome::Failed,
        ended => session.outcome_of(ended),
    })
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
    checked.extend(export::targets(&[("--hlog", &a.test.hlog, Format::Json)]));
    export::check(&checked)?;
    if let Some(dir) = &a.test.hgrm_dir {
        plumb_report::targets::OutputDir::prepare("--hgrm-dir", dir)?;
    }
    Ok(out)
}
