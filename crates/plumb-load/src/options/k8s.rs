//! The options of `plumb load deploy k8s`: the cluster's side of the manifests that run a
//! coordinated load test (agents as an Indexed Job, the coordinator as a Job behind a
//! headless Service), and the agents' load options.
use crate::agents::k8s::Cluster;
use clap::Args;
use std::fmt;

#[derive(Debug, Args)]
pub struct K8sOptions {
    /// How many agents (pods of the Indexed Job), each sending 1/N of the schedule.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub agents: u32,
    /// The container image with plumb on its PATH.
    #[arg(long, value_name = "IMAGE", value_parser = image)]
    pub image: String,
    /// The prefix of the objects' names: NAME-agents, NAME-coordinator.
    #[arg(long, default_value = "plumb", value_name = "NAME")]
    pub name: String,
    /// The namespace of every object (else kubectl's current one).
    #[arg(long, value_name = "NAMESPACE", value_parser = |s: &str| dns_name(s, 63, false))]
    pub namespace: Option<String>,
    /// CPU of each agent, requested and limited alike (Kubernetes quantity: 1, 500m).
    #[arg(long, default_value = "1", value_name = "CPU", value_parser = cpu)]
    pub cpu: String,
    /// Memory of each agent, requested and limited alike (Kubernetes quantity: 512Mi).
    #[arg(long, default_value = "512Mi", value_name = "MEMORY", value_parser = memory)]
    pub memory: String,
    /// The coordinator's port.
    #[arg(long, default_value_t = 7207, value_name = "PORT", value_parser = clap::value_parser!(u16).range(1..))]
    pub port: u16,
    /// The Secret holding the shared token under the key `token`.
    #[arg(long, default_value = "plumb-token", value_name = "SECRET", value_parser = |s: &str| dns_name(s, 253, true))]
    pub token_secret: String,
    /// A PersistentVolumeClaim for the coordinator's results (else an emptyDir: the
    /// report is in its log, the JSON goes with the pod).
    #[arg(long, value_name = "CLAIM", value_parser = |s: &str| dns_name(s, 253, true))]
    pub results_claim: Option<String>,
    /// The agents' `plumb load` options, after `--`: the target, --rate, --duration, …
    /// (checked here; --agents, --agent-index and --coordinator are set by the manifests).
    #[arg(last = true, required = true, value_name = "LOAD OPTIONS")]
    pub load: Vec<String>,
}

impl K8sOptions {
    /// The cluster's side of the options.
    pub fn cluster(&self) -> Cluster {
        Cluster {
            agents: self.agents,
            image: self.image.clone(),
            name: self.name.clone(),
            namespace: self.namespace.clone(),
            cpu: self.cpu.clone(),
            memory: self.memory.clone(),
            port: self.port,
            token_secret: self.token_secret.clone(),
            results_claim: self.results_claim.clone(),
        }
    }
}

/// A value Kubernetes would refuse in the manifests, said before they are written.
#[derive(Debug)]
pub struct NotForKubernetes(String);

impl fmt::Display for NotForKubernetes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotForKubernetes {}

/// `s` when `ok`, else refused saying `why`.
fn accepted(s: &str, ok: bool, why: impl FnOnce() -> String) -> Result<String, NotForKubernetes> {
    if ok {
        Ok(s.to_string())
    } else {
        Err(NotForKubernetes(why()))
    }
}

/// An image reference: not empty, no white space or control characters.
fn image(s: &str) -> Result<String, NotForKubernetes> {
    let ok = !s.is_empty() && !s.chars().any(|c| c.is_whitespace() || c.is_control());
    accepted(s, ok, || {
        format!("{s:?} is not an image reference (no spaces, not empty)")
    })
}

/// A namespace (a DNS label, `dotted` false) or a Secret's or claim's name (a subdomain).
fn dns_name(s: &str, most: usize, dotted: bool) -> Result<String, NotForKubernetes> {
    let ok = crate::agents::k8s::dns_name(s, most, dotted);
    accepted(s, ok, || {
        format!(
        "{s:?} is not a Kubernetes name: lower-case letters, digits and '-'{}, starting and ending with a letter or digit, at most {most} characters",
        if dotted { " or '.'" } else { "" }
    )
    })
}

/// A decimal number, optionally with a fraction.
fn decimal(s: &str) -> bool {
    let (whole, fraction) = s.split_once('.').unwrap_or((s, "0"));
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    digits(whole) && digits(fraction)
}

/// A CPU quantity: cores (`1`, `0.5`) or millicores (`500m`).
fn cpu(s: &str) -> Result<String, NotForKubernetes> {
    let ok = decimal(s.strip_suffix('m').unwrap_or(s));
    accepted(s, ok, || {
        format!("{s:?} is not a CPU quantity (1, 0.5, 500m)")
    })
}

/// A memory quantity: bytes, or with a suffix (`512Mi`, `1Gi`, `500M`).
fn memory(s: &str) -> Result<String, NotForKubernetes> {
    const SUFFIXES: [&str; 12] = [
        "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "k", "M", "G", "T", "P", "E",
    ];
    let number = SUFFIXES.iter().find_map(|x| s.strip_suffix(x)).unwrap_or(s);
    accepted(s, decimal(number), || {
        format!("{s:?} is not a memory quantity (512Mi, 1Gi, 500M)")
    })
}

/// What to say of load options that would run but not as meant in a pod: a loopback
/// target is the pod's own, and a `--targets` file is read in the pod, which has only
/// what its image holds.
pub fn in_a_pod(load: &[String]) -> Vec<String> {
    let mut said = Vec::new();
    let loopback = |url: &str| {
        let host = url.split_once("://").map_or(url, |(_, r)| r);
        ["127.", "localhost", "[::1]", "0.0.0.0"]
            .iter()
            .any(|l| host.starts_with(l))
    };
    for (i, arg) in load.iter().enumerate() {
        if arg.contains("://") && loopback(arg) {
            said.push(format!("{arg} is each pod's own loopback, not your machine's: give the service's address as the pods see it"));
        }
        let file = match arg.strip_prefix("--targets=") {
            Some(f) => Some(f),
            None if arg == "--targets" => load.get(i + 1).map(String::as_str),
            None => None,
        };
        if let Some(f) = file {
            said.push(format!(
                "--targets {f} is read in each pod: its image must hold that file"
            ));
        }
    }
    said
}
