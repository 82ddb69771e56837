//! `plumb load deploy k8s`: the agents' load options checked here, as `plumb load` would
//! read them, so a typo fails now and not in the cluster; the manifests (plumb-load's
//! `agents::k8s`) written or printed.
use crate::args::K8sArgs;
use crate::exit::{CliError, Outcome};
use clap::Parser;
use plumb_load::agents::k8s::{documents, manifests, Cluster};

pub fn run(a: K8sArgs) -> Result<Outcome, CliError> {
    let load = agent_args(&a)?;
    let text = documents(&manifests(&cluster(&a), &load));
    let out = a.output.as_deref().unwrap_or(std::path::Path::new("-"));
    plumb_report::targets::write_text(out, &text)?;
    eprintln!(
        "plumb: {} agents and their coordinator; the shared token goes in the Secret {:?} first:\n  kubectl create secret generic {} --from-literal=token=\"$(head -c 32 /dev/urandom | base64)\"",
        a.agents, a.token_secret, a.token_secret
    );
    Ok(Outcome::Done)
}

/// The cluster's side of the options.
fn cluster(a: &K8sArgs) -> Cluster {
    Cluster {
        agents: a.agents,
        image: a.image.clone(),
        name: a.name.clone(),
        namespace: a.namespace.clone(),
        cpu: a.cpu.clone(),
        memory: a.memory.clone(),
        port: a.port,
        token_secret: a.token_secret.clone(),
        results_claim: a.results_claim.clone(),
    }
}

/// The agents' `plumb load` arguments (plumb-load's), read here as `plumb load` reads
/// them: a typo fails now and not in the cluster.
fn agent_args(a: &K8sArgs) -> Result<Vec<String>, CliError> {
    let args = cluster(a).agent_args(&a.load)?;
    let parsed = crate::args::Cli::try_parse_from(
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
    for url in &load.urls {
        plumb_load::http::Target::parse(url).map_err(|e| CliError::msg(format!("{url}: {e}")))?;
    }
    if load.rate.is_none() {
        return Err(CliError::msg(
            "agents share one open-loop schedule: give --rate (the whole test's)".into(),
        ));
    }
    Ok(args)
}
