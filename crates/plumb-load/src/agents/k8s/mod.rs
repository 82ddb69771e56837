//! The manifests of a coordinated load test on Kubernetes (`plumb load deploy k8s`).
//! The agents are one Indexed Job (each pod's `JOB_COMPLETION_INDEX` is its share; a
//! failed pod is not retried, since a retry would join late and be refused); the
//! coordinator is a Job the agents reach through a headless Service by name; the token
//! stays in a Secret the user makes.
mod agent_args;
mod yaml;

#[cfg(feature = "cli")]
pub(crate) use agent_args::dns_name;
pub use agent_args::{header_variable, AgentCommand, K8sRefused};
pub use yaml::{documents, Yaml};
use yaml::{map, s, strings};

/// How long agents keep trying to reach the coordinator, and the coordinator waits for
/// them to join (its pod may start before or after theirs).
pub const COORDINATOR_WAIT: &str = "10m";

/// The cluster's side of a deployment: names, image, sizes, the token's Secret.
#[derive(Debug, Clone)]
pub struct Cluster {
    /// Agents sharing the schedule.
    pub agents: u32,
    pub image: String,
    /// The objects' name (the coordinator's gets `-coordinator`).
    pub name: String,
    pub namespace: Option<String>,
    /// Each agent's CPU and memory, requested and limited alike.
    pub cpu: String,
    pub memory: String,
    /// The coordinator's port.
    pub port: u16,
    /// The Secret holding the shared token under the key `token`.
    pub token_secret: String,
    /// A PersistentVolumeClaim the coordinator writes its result to.
    pub results_claim: Option<String>,
}

fn labels(a: &Cluster, component: &str) -> Yaml {
    map(vec![
        ("app.kubernetes.io/name", s("plumb")),
        ("app.kubernetes.io/instance", s(&a.name)),
        ("app.kubernetes.io/component", s(component)),
    ])
}

fn metadata(a: &Cluster, name: String, component: &str) -> Yaml {
    let mut m = vec![("name", s(name))];
    if let Some(ns) = &a.namespace {
        m.push(("namespace", s(ns)));
    }
    m.push(("labels", labels(a, component)));
    map(m)
}

/// An environment variable read from the Secret's `key`.
fn from_secret(a: &Cluster, name: String, key: String) -> Yaml {
    map(vec![
        ("name", s(name)),
        (
            "valueFrom",
            map(vec![(
                "secretKeyRef",
                map(vec![("name", s(&a.token_secret)), ("key", s(key))]),
            )]),
        ),
    ])
}

/// The token, and the values of the first `headers` request headers (`header-K`), from
/// the Secret.
fn secret_env(a: &Cluster, headers: usize) -> Yaml {
    let mut env = vec![from_secret(a, "PLUMB_TOKEN".into(), "token".into())];
    for k in 1..=headers {
        env.push(from_secret(a, header_variable(k), format!("header-{k}")));
    }
    Yaml::List(env)
}

/// Requests equal to limits: Guaranteed QoS, so the agent's CPU is not taken back
/// mid-test (a throttled agent falls behind its schedule).
fn resources(cpu: &str, memory: &str) -> Yaml {
    let r = || map(vec![("cpu", s(cpu)), ("memory", s(memory))]);
    map(vec![("requests", r()), ("limits", r())])
}

impl Cluster {
    /// What the user is told to make before applying the manifests: the Secret, with
    /// the token and a key for each request header's value (named, never written).
    pub fn secret_to_make(&self, load: &AgentCommand) -> String {
        let headers: String = (load.headers.iter().enumerate())
            .map(|(k, name)| format!(" --from-literal=header-{}='<{name} value>'", k + 1))
            .collect();
        let what = match headers.is_empty() {
            true => "the shared token goes",
            false => "the shared token and the request headers' values go",
        };
        let secret = &self.token_secret;
        format!(
            "{} agents and their coordinator; {what} in the Secret {secret:?} first:\n  kubectl create secret generic {secret} --from-literal=token=\"$(head -c 32 /dev/urandom | base64)\"{headers}",
            self.agents
        )
    }
}

pub fn manifests(a: &Cluster, load: &AgentCommand) -> Vec<Yaml> {
    vec![service(a), coordinator(a), agents(a, load)]
}

/// Headless, and publishing the coordinator's address before it is ready: agents try
/// again until it listens, and no readiness probe knocks on it (a probe's connection
/// would be refused as a stranger, in its log every period).
fn service(a: &Cluster) -> Yaml {
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

fn coordinator(a: &Cluster) -> Yaml {
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
        ("env", secret_env(a, 0)),
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

fn agents(a: &Cluster, load: &AgentCommand) -> Yaml {
    let container = map(vec![
        ("name", s("agent")),
        ("image", s(&a.image)),
        ("command", strings(&["plumb"])),
        ("args", strings(&load.args)),
        ("env", secret_env(a, load.headers.len())),
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
    a: &Cluster,
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
fn spread_agents(a: &Cluster) -> Yaml {
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
pub(super) mod tests {
    use super::*;

    /// The cluster the manifests' tests and the agents' arguments' tests deploy to.
    pub(crate) fn cluster() -> Cluster {
        Cluster {
            agents: 4,
            image: "plumb:test".into(),
            name: "plumb".into(),
            namespace: Some("load".into()),
            cpu: "2".into(),
            memory: "1Gi".into(),
            port: 7207,
            token_secret: "plumb-token".into(),
            results_claim: None,
        }
    }

    #[test]
    fn the_service_selects_the_coordinator_and_the_agents_dial_it() {
        let load = AgentCommand {
            args: [
                "load",
                "http://api.load.svc/",
                "--rate",
                "2000",
                "--coordinator",
                "plumb-coordinator:7207",
            ]
            .map(String::from)
            .to_vec(),
            headers: vec!["Authorization".into()],
        };
        let docs = manifests(&cluster(), &load);
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
        // The header's value from the Secret, beside the token.
        let env = get(&c[0], &["env"]);
        let Yaml::List(env) = env else { panic!() };
        assert_eq!(get(&env[1], &["name"]), s("PLUMB_HEADER_1"));
        assert_eq!(
            get(&env[1], &["valueFrom", "secretKeyRef", "key"]),
            s("header-1")
        );
    }
}
