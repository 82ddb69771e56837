//! The options of `plumb load deploy k8s`: the cluster's side of the manifests that run a
//! coordinated load test (agents as an Indexed Job, the coordinator as a Job behind a
//! headless Service), and the agents' load options.
use crate::agents::k8s::Cluster;
use clap::Args;

#[derive(Debug, Args)]
pub struct K8sOptions {
    /// How many agents (pods of the Indexed Job), each sending 1/N of the schedule.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub agents: u32,
    /// The container image with plumb on its PATH.
    #[arg(long, value_name = "IMAGE")]
    pub image: String,
    /// The prefix of the objects' names: NAME-agents, NAME-coordinator.
    #[arg(long, default_value = "plumb", value_name = "NAME")]
    pub name: String,
    /// The namespace of every object (else kubectl's current one).
    #[arg(long, value_name = "NAMESPACE")]
    pub namespace: Option<String>,
    /// CPU of each agent, requested and limited alike (Kubernetes quantity: 1, 500m).
    #[arg(long, default_value = "1", value_name = "CPU")]
    pub cpu: String,
    /// Memory of each agent, requested and limited alike (Kubernetes quantity: 512Mi).
    #[arg(long, default_value = "512Mi", value_name = "MEMORY")]
    pub memory: String,
    /// The coordinator's port.
    #[arg(long, default_value_t = 7207, value_name = "PORT")]
    pub port: u16,
    /// The Secret holding the shared token under the key `token`.
    #[arg(long, default_value = "plumb-token", value_name = "SECRET")]
    pub token_secret: String,
    /// A PersistentVolumeClaim for the coordinator's results (else an emptyDir: the
    /// report is in its log, the JSON goes with the pod).
    #[arg(long, value_name = "CLAIM")]
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
