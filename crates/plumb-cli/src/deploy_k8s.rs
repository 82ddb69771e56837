//! `plumb load deploy k8s`: the agents' load options checked here, as `plumb load` would
//! read them, so a typo fails now and not in the cluster; the manifests (plumb-load's
//! `agents::k8s`) written or printed.
use crate::args::K8sArgs;
use crate::exit::{CliError, Outcome};
use plumb_load::agents::k8s::{documents, manifests, AgentCommand};

pub fn run(a: K8sArgs) -> Result<Outcome, CliError> {
    let load = agent_args(&a)?;
    let cluster = a.cluster.cluster();
    let text = documents(&manifests(&cluster, &load));
    let out = a.output.as_deref().unwrap_or(std::path::Path::new("-"));
    plumb_report::targets::write_text(out, &text)?;
    eprintln!("plumb: {}", cluster.secret_to_make(&load));
    Ok(Outcome::Done)
}

/// The agents' `plumb load` arguments (plumb-load's), read here as `plumb load` reads
/// them: a typo fails now and not in the cluster.
fn agent_args(a: &K8sArgs) -> Result<AgentCommand, CliError> {
    let command = a.cluster.cluster().agent_args(&a.cluster.load)?;
    let args = &command.args;
    plumb_load::options::in_a_pod(&a.cluster.load)
        .into_iter()
        .for_each(|w| eprintln!("plumb: warning: {w}"));
    // As `plumb` parses them: a value may start with '-' (`--rate -5` is out of range,
    // not an unexpected argument).
    let parsed = crate::args::try_parse_from(
        std::iter::once("plumb".to_string()).chain(args.iter().cloned()),
    )
    .map_err(|e| {
        CliError::msg(format!(
            "the load options do not read as plumb load's: {}",
            e.to_string().trim_end()
        ))
    })?;
    let crate::args::Command::Load(load) = parsed.command else {
        return Err(CliError::msg(
            "the load options do not read as plumb load's".into(),
        ));
    };
    if load.deploy.is_some() {
        return Err(CliError::msg("the load options name another deploy".into()));
    }
    for url in &load.test.urls {
        let shown = plumb_model::redact::without_password(url);
        plumb_load::http::Target::parse(url).map_err(|e| CliError::msg(format!("{shown}: {e}")))?;
    }
    if load.test.rate.is_none() {
        return Err(CliError::msg(
            "agents share one open-loop schedule: give --rate (the whole test's)".into(),
        ));
    }
    Ok(command)
}
