//! What the manifests need checked before they are written: the objects' name is a DNS
//! label, and the agents' `plumb load` arguments are the user's with the share and the
//! coordinator added (options the manifests set are refused in the user's), each request
//! header's value taken from the Secret rather than written into the manifests.
use super::{Cluster, COORDINATOR_WAIT};
use std::fmt;

/// Why the manifests cannot be made as asked.
#[derive(Debug, Clone, PartialEq)]
pub enum K8sRefused {
    /// A name Kubernetes will not take.
    Name(String),
    /// An option the manifests set, given among the load options.
    Reserved(&'static str),
    /// The token, given among the load options: it would be written into the manifests.
    Secret(&'static str),
}

impl fmt::Display for K8sRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            K8sRefused::Name(name) => write!(
                f,
                "--name {name:?} is not usable in a Kubernetes name: lower-case letters, digits and '-', starting and ending with a letter or digit, at most 51 characters"
            ),
            K8sRefused::Reserved(option) => write!(
                f,
                "{option} is set by the manifests (each pod's index, the coordinator's Service): leave it out of the load options"
            ),
            K8sRefused::Secret(option) => write!(
                f,
                "{option} would write the token into the manifests: leave it out, the agents read it from the Secret (PLUMB_TOKEN)"
            ),
        }
    }
}

impl std::error::Error for K8sRefused {}

/// Whether `s` names a Kubernetes object: a DNS label (`dotted`: false) or subdomain,
/// lower-case letters, digits, '-' (and '.'), starting and ending with a letter or digit,
/// at most `most` characters.
pub(crate) fn dns_name(s: &str, most: usize, dotted: bool) -> bool {
    let edge = |c: Option<char>| c.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    let inner =
        |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || (dotted && c == '.');
    !s.is_empty()
        && s.len() <= most
        && edge(s.chars().next())
        && edge(s.chars().last())
        && s.chars().all(inner)
}

/// The options that carry the token, which the pods read from the Secret instead.
const SECRETS: [&str; 2] = ["--token", "--token-file"];

/// The options each pod's index and the coordinator's Service set.
const RESERVED: [&str; 5] = [
    "--agents",
    "--agent-index",
    "--coordinator",
    "--coordinator-wait",
    "--start-at",
];

/// The agents' command: their `plumb load` arguments, and the request headers whose
/// values each pod reads from the Secret (key `header-K`, environment `PLUMB_HEADER_K`,
/// K from 1), by name in order.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentCommand {
    pub args: Vec<String>,
    pub headers: Vec<String>,
}

/// The environment variable the K-th header's value is read into (Kubernetes puts its
/// value where an argument says `$(NAME)`).
pub fn header_variable(k: usize) -> String {
    format!("PLUMB_HEADER_{k}")
}

/// `load` with each request header's value (`-H`, `--header`, `--header=`, `-HName: v`)
/// replaced by `$(PLUMB_HEADER_K)`: a header carries credentials (Authorization, a
/// cookie, an API key), and a manifest is read by whoever can read the namespace and is
/// kept in repositories. The names, in order.
fn headers_from_secret(load: &[String]) -> (Vec<String>, Vec<String>) {
    let mut names = Vec::new();
    let args = plumb_model::redact::with_headers(load.iter().cloned(), |value| {
        match value.split_once(':') {
            Some((name, _)) => {
                names.push(name.trim().to_string());
                format!("{}: $({})", name.trim(), header_variable(names.len()))
            }
            None => value.to_string(),
        }
    });
    (args, names)
}

impl Cluster {
    /// The agents' `plumb load` arguments: `load` (the user's, its headers' values from
    /// the Secret), then the share and the coordinator; the name checked (object names
    /// are DNS labels: lower-case letters, digits and '-', at most 63 with the longest
    /// suffix added here).
    pub fn agent_args(&self, load: &[String]) -> Result<AgentCommand, K8sRefused> {
        let name = &self.name;
        if !dns_name(name, 63 - "-coordinator".len(), false) {
            return Err(K8sRefused::Name(name.clone()));
        }
        let given =
            |set: &str| (load.iter()).any(|x| x == set || x.starts_with(&format!("{set}=")));
        if let Some(set) = RESERVED.into_iter().find(|set| given(set)) {
            return Err(K8sRefused::Reserved(set));
        }
        if let Some(set) = SECRETS.into_iter().find(|set| given(set)) {
            return Err(K8sRefused::Secret(set));
        }
        let (load, headers) = headers_from_secret(load);
        let mut args: Vec<String> = vec!["load".into()];
        args.extend(load);
        args.extend([
            "--agents".to_string(),
            self.agents.to_string(),
            "--coordinator".into(),
            format!("{}-coordinator:{}", self.name, self.port),
            "--coordinator-wait".into(),
            COORDINATOR_WAIT.into(),
        ]);
        Ok(AgentCommand { args, headers })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cluster(name: &str) -> Cluster {
        Cluster {
            name: name.into(),
            ..super::super::tests::cluster()
        }
    }

    fn load(args: &[&str]) -> Vec<String> {
        args.iter().map(|a| a.to_string()).collect()
    }

    #[test]
    fn the_agents_arguments_are_the_users_then_the_share_and_the_coordinator() {
        let args = cluster("plumb")
            .agent_args(&load(&["http://api.load.svc/", "--rate", "2000"]))
            .unwrap()
            .args;
        assert_eq!(
            args[..4],
            ["load", "http://api.load.svc/", "--rate", "2000"]
        );
        assert_eq!(
            args[4..],
            [
                "--agents",
                "4",
                "--coordinator",
                "plumb-coordinator:7207",
                "--coordinator-wait",
                COORDINATOR_WAIT
            ]
        );
    }

    #[test]
    fn options_the_manifests_set_and_names_kubernetes_refuses_are_refused() {
        let c = cluster("plumb");
        for set in RESERVED {
            let e = c.agent_args(&load(&["http://x/", &format!("{set}=1")]));
            assert_eq!(e, Err(K8sRefused::Reserved(set)));
        }
        for (given, set) in [
            ("--token", "--token"),
            ("--token=T0K", "--token"),
            ("--token-file", "--token-file"),
        ] {
            let e = c.agent_args(&load(&["http://x/", given, "T0K"]));
            assert_eq!(e, Err(K8sRefused::Secret(set)));
        }
        let ok = load(&["http://x/", "--rate", "5"]);
        for bad in ["Plumb", "-x", "x-", "", &"a".repeat(52)] {
            assert_eq!(
                cluster(bad).agent_args(&ok),
                Err(K8sRefused::Name(bad.to_string()))
            );
        }
        assert!(cluster("plumb-1").agent_args(&ok).is_ok());
        assert!(cluster(&"a".repeat(51)).agent_args(&ok).is_ok());
    }

    #[test]
    fn each_headers_value_is_read_from_the_secret() {
        let given = load(&[
            "http://x/",
            "-H",
            "Authorization: Bearer S",
            "--header=Cookie: c=S",
            "-HX-Api-Key: S",
            "--header",
            "Accept: text/plain",
        ]);
        let cmd = cluster("plumb").agent_args(&given).unwrap();
        assert_eq!(
            cmd.args[1..8],
            [
                "http://x/",
                "-H",
                "Authorization: $(PLUMB_HEADER_1)",
                "--header=Cookie: $(PLUMB_HEADER_2)",
                "-HX-Api-Key: $(PLUMB_HEADER_3)",
                "--header",
                "Accept: $(PLUMB_HEADER_4)",
            ]
        );
        assert_eq!(
            cmd.headers,
            ["Authorization", "Cookie", "X-Api-Key", "Accept"]
        );
        assert!(!cmd
            .args
            .iter()
            .any(|a| a.contains('S') && a.contains("Bearer")));
    }
}
