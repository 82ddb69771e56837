//! `plumb load deploy k8s`: the manifests of a coordinated load test on Kubernetes. The
//! agents are one Indexed Job (each pod's `JOB_COMPLETION_INDEX` is its share; a failed
//! pod is not retried, since a retry would join late and be refused); the coordinator is
//! a Job the agents reach through a headless Service by name. The agents' load options
//! are checked here, as `plumb load` would read them, so a typo fails now and not in
//! the cluster; the token stays in a Secret the user makes.
use crate::args::K8sArgs;
use crate::exit::{self, CliError, Outcome};
use crate::yaml::{documents, map, s, strings, Yaml};
use clap::Parser;

/// How long agents keep trying to reach the coordinator (its pod may start later).
const COORDINATOR_WAIT: &str = "10m";

pub fn run(a: K8sArgs) -> Result<Outcome, CliError> {
    check_name(&a.name)?;
    let load = agent_args(&a)?;
    let text = documents(&manifests(&a, &load));
    match &a.output {
        Some(path) => std::fs::write(path, &text)
            .map_err(|e| CliError::msg(format!("cannot write {}: {e}", path.display())))?,
        None => exit::print_stdout(&text)?,
    }
    eprintln!(
        "plumb: {} agents and their coordinator; the shared token goes in the Secret {:?} first:\n  kubectl create secret generic {} --from-literal=token=\"$(head -c 32 /dev/urandom | base64)\"",
        a.agents, a.token_secret, a.token_secret
    );
    Ok(Outcome::Done)
}

/// Object names are DNS labels: lower-case letters, digits and '-', at most 63 with the
/// longest suffix added here.
fn check_name(name: &str) -> Result<(), CliError> {
    let ok = !name.is_empty()
        && name.len() + "-coordinator".len() <= 63
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-');
    if ok {
        Ok(())
    } else {
        Err(CliError::msg(format!(
            "--name {name:?} is not usable in a Kubernetes name: lower-case letters, digits and '-', starting and ending with a letter or digit, at most 51 characters"
        )))
    }
}

/// The agents' `plumb load` arguments: the user's, then the share and the coordinator.
fn agent_args(a: &K8sArgs) -> Result<Vec<String>, CliError> {
    for set in [
        "--agents",
        "--agent-index",
        "--coordinator",
        "--coordinator-wait",
        "--start-at",
    ] {
        if a.load
            .iter()
            .any(|x| x == set || x.starts_with(&format!("{set}=")))
        {
            return Err(CliError::msg(format!(
                "{set} is set by the manifests (each pod's index, the coordinator's Service): leave it out of the load options"
            )));
        }
    }
    let mut args: Vec<String> = vec!["load".into()];
    args.extend(a.load.iter().cloned());
    args.extend([
        "--agents".to_string(),
        a.agents.to_string(),
        "--coordinator".into(),
        format!("{}-coordinator:{}", a.name, a.port),
        "--coordinator-wait".into(),
        COORDINATOR_WAIT.into(),
    ]);
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

fn labels(a: &K8sArgs, component: &str) -> Yaml {
    map(vec![
        ("app.kubernetes.io/name", s("plumb")),
        ("app.kubernetes.io/instance", s(&a.name)),
        ("app.kubernetes.io/component", s(component)),
    ])
}

fn metadata(a: &K8sArgs, name: String, component: &str) -> Yaml {
    let mut m = vec![("name", s(name))];
    if let Some(ns) = &a.namespace {
        m.push(("namespace", s(ns)));
    }
    m.push(("labels", labels(a, component)));
    map(m)
}

fn token_env(a: &K8sArgs) -> Yaml {
    Yaml::List(vec![map(vec![
        ("name", s("PLUMB_TOKEN")),
        (
            "valueFrom",
            map(vec![(
                "secretKeyRef",
                map(vec![("name", s(&a.token_secret)), ("key", s("token"))]),
            )]),
        ),
    ])])
}

/// Requests equal to limits: Guaranteed QoS, so the agent's CPU is not taken back
/// mid-test (a throttled agent falls behind its schedule).
fn resources(cpu: &str, memory: &str) -> Yaml {
    let r = || map(vec![("cpu", s(cpu)), ("memory", s(memory))]);
    map(vec![("requests", r()), ("limits", r())])
}

fn manifests(a: &K8sArgs, load: &[String]) -> Vec<Yaml> {
    vec![service(a), coordinator(a), agents(a, load)]
}

/// Headless, and publishing the coordinator's address before it is ready: agents try
/// again until it listens, and no readiness probe knocks on it (a probe's connection
/// would be refused as a stranger, in its log every period).
fn service(a: &K8sArgs) -> Yaml {
    map(vec![
        ("apiVersion", s("v1")),
        ("kind", s("Service")),
        (
            "metadata",
            metadata(a, format!("{}-coordinator", a.name), "coordinator"),
        ),
        (
            "spec",
            map(vec![
                ("clusterIP", s("None")),
                ("publishNotReadyAddresses", Yaml::Bool(true)),
                ("selector", labels(a, "coordinator")),
                (
                    "ports",
                    Yaml::List(vec![map(vec![
                        ("name", s("agents")),
                        ("port", Yaml::Int(a.port.into())),
                        ("targetPort", Yaml::Int(a.port.into())),
                        ("protocol", s("TCP")),
                    ])]),
                ),
            ]),
        ),
    ])
}

fn coordinator(a: &K8sArgs) -> Yaml {
    let volume = match &a.results_claim {
        Some(claim) => map(vec![
            ("name", s("results")),
            ("persistentVolumeClaim", map(vec![("claimName", s(claim))])),
        ]),
        None => map(vec![("name", s("results")), ("emptyDir", map(vec![]))]),
    };
    let args = strings(&[
        "coordinate".to_string(),
        "--agents".into(),
        a.agents.to_string(),
        "--listen".into(),
        format!("0.0.0.0:{}", a.port),
        "-o".into(),
        format!("/results/{}.json", a.name),
        "--join-within".into(),
        COORDINATOR_WAIT.into(),
    ]);
    let container = map(vec![
        ("name", s("coordinator")),
        ("image", s(&a.image)),
        ("command", strings(&["plumb"])),
        ("args", args),
        ("env", token_env(a)),
        (
            "ports",
            Yaml::List(vec![map(vec![
                ("name", s("agents")),
                ("containerPort", Yaml::Int(a.port.into())),
            ])]),
        ),
        ("resources", resources("500m", "512Mi")),
        (
            "volumeMounts",
            Yaml::List(vec![map(vec![
                ("name", s("results")),
                ("mountPath", s("/results")),
            ])]),
        ),
    ]);
    job(
        a,
        format!("{}-coordinator", a.name),
        "coordinator",
        vec![("backoffLimit", Yaml::Int(0))],
        vec![
            ("containers", Yaml::List(vec![container])),
            ("volumes", Yaml::List(vec![volume])),
        ],
    )
}

fn agents(a: &K8sArgs, load: &[String]) -> Yaml {
    let container = map(vec![
        ("name", s("agent")),
        ("image", s(&a.image)),
        ("command", strings(&["plumb"])),
        ("args", strings(load)),
        ("env", token_env(a)),
        ("resources", resources(&a.cpu, &a.memory)),
    ]);
    let n = Yaml::Int(a.agents.into());
    let spec = vec![
        ("completionMode", s("Indexed")),
        ("completions", n.clone()),
        ("parallelism", n),
        // A failed agent is not retried: its retry would join after the start.
        ("backoffLimitPerIndex", Yaml::Int(0)),
    ];
    let pod = vec![
        ("affinity", spread_agents(a)),
        ("containers", Yaml::List(vec![container])),
    ];
    job(a, format!("{}-agents", a.name), "agent", spec, pod)
}

/// A Job named `name` whose pods (labelled `component`, never restarted in place) have
/// `pod` as their spec after the restart policy.
fn job(
    a: &K8sArgs,
    name: String,
    component: &str,
    mut spec: Vec<(&str, Yaml)>,
    pod: Vec<(&str, Yaml)>,
) -> Yaml {
    let mut pod_spec = vec![("restartPolicy", s("Never"))];
    pod_spec.extend(pod);
    spec.push((
        "template",
        map(vec![
            ("metadata", map(vec![("labels", labels(a, component))])),
            ("spec", map(pod_spec)),
        ]),
    ));
    map(vec![
        ("apiVersion", s("batch/v1")),
        ("kind", s("Job")),
        ("metadata", metadata(a, name, component)),
        ("spec", map(spec)),
    ])
}

/// Agents spread over nodes where they can be: two on one node share its network and CPU.
fn spread_agents(a: &K8sArgs) -> Yaml {
    let term = map(vec![
        (
            "labelSelector",
            map(vec![("matchLabels", labels(a, "agent"))]),
        ),
        ("topologyKey", s("kubernetes.io/hostname")),
    ]);
    let preferred = Yaml::List(vec![map(vec![
        ("weight", Yaml::Int(100)),
        ("podAffinityTerm", term),
    ])]);
    map(vec![(
        "podAntiAffinity",
        map(vec![(
            "preferredDuringSchedulingIgnoredDuringExecution",
            preferred,
        )]),
    )])
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
        assert!(
            check_name("Plumb").is_err()
                && check_name("-x").is_err()
                && check_name("plumb-1").is_ok()
        );
    }

    #[test]
    fn the_service_selects_the_coordinator_and_the_agents_dial_it() {
        let a = args(&["http://api.load.svc/", "--rate", "2000"]);
        let docs = manifests(&a, &agent_args(&a).unwrap());
        let text = documents(&docs);
        assert_eq!(text.matches("\n---\n").count() + 1, 3);
        // Cross-references the schema cannot check: the Service's selector is the
        // coordinator pod's labels, and its name and port are what the agents dial.
        let get = |y: &Yaml, path: &[&str]| -> Yaml {
            path.iter().fold(y.clone(), |y, k| match y {
                Yaml::Map(m) => m
                    .into_iter()
                    .find(|(n, _)| n == k)
                    .map(|(_, v)| v)
                    .expect(k),
                other => panic!("{k} in {other:?}"),
            })
        };
        assert_eq!(
            get(&docs[0], &["spec", "selector"]),
            get(&docs[1], &["spec", "template", "metadata", "labels"])
        );
        assert_eq!(get(&docs[0], &["metadata", "name"]), s("plumb-coordinator"));
        assert_eq!(get(&docs[2], &["spec", "completions"]), Yaml::Int(4));
        assert_eq!(get(&docs[2], &["spec", "parallelism"]), Yaml::Int(4));
        let r = get(&docs[2], &["spec", "template", "spec", "containers"]);
        let Yaml::List(c) = r else { panic!() };
        assert_eq!(
            get(&c[0], &["resources", "requests"]),
            get(&c[0], &["resources", "limits"])
        );
        assert!(text.contains("\"plumb-coordinator:7207\""));
    }
}
