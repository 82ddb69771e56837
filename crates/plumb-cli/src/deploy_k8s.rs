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

#[cfg(test)]
mod tests {
    use super::*;

    fn args(load: &[&str]) -> K8sArgs {
        K8sArgs {
            agents: 4,
            image: "plumb:test".into(),
            name: "plumb".into(),
            namespace: Some("load".into()),
            cpu: "2".into(),
            memory: "1Gi".into(),
            port: 7207,
            token_secret: "plumb-token".into(),
            results_claim: None,
            output: None,
            load: load.iter().map(|x| x.to_string()).collect(),
        }
    }

    #[test]
    fn the_agents_options_are_checked_and_completed() {
        let a = args(&[
            "http://api.load.svc/",
            "--rate",
            "2000",
            "--duration",
            "60s",
        ]);
        let load = agent_args(&a).unwrap();
        assert_eq!(
            load[load.len() - 6..],
            [
                "--agents",
                "4",
                "--coordinator",
                "plumb-coordinator:7207",
                "--coordinator-wait",
                "10m"
            ]
        );
        let err = |l: &[&str]| agent_args(&args(l)).unwrap_err().message();
        assert!(err(&["http://x/", "--rate", "1", "--agents", "2"])
            .contains("--agents is set by the manifests"));
        assert!(
            err(&["http://x/", "--rate", "fast"]).contains("do not read as plumb load's"),
            "{}",
            err(&["http://x/", "--rate", "fast"])
        );
        assert!(err(&["ftp://x/", "--rate", "5"]).contains("ftp://x/"));
        assert!(err(&["http://x/", "--closed", "5"]).contains("give --rate"));
        let named = |name: &str| {
            let mut k = args(&["http://x/", "--rate", "5"]);
            k.name = name.into();
            agent_args(&k)
        };
        assert!(named("Plumb").is_err() && named("-x").is_err() && named("plumb-1").is_ok());
    }
}
