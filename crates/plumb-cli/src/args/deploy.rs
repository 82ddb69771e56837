//! The options of `plumb load deploy k8s`: the manifests that run a coordinated load
//! test on a Kubernetes cluster (agents as an Indexed Job, the coordinator as a Job
//! behind a headless Service).
use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub enum LoadCommand {
    /// Write what runs this load test from many machines on an existing engine.
    Deploy(DeployArgs),
}

#[derive(Debug, Args)]
pub struct DeployArgs {
    #[command(subcommand)]
    pub engine: Engine,
}

#[derive(Debug, Subcommand)]
pub enum Engine {
    /// Kubernetes manifests: the agents as an Indexed Job (completionMode Indexed,
    /// parallelism = completions = N, each pod's index its share), the coordinator as a
    /// Job behind a headless Service; CPU requests equal to limits (Guaranteed QoS).
    #[command(
        after_help = "Example:\n  kubectl create secret generic plumb-token --from-literal=token=\"$(head -c 32 /dev/urandom | base64)\"\n  plumb load deploy k8s --agents 8 --image registry.example/plumb:0.30 -o plumb.yaml -- http://api.default.svc/ --rate 2000 --duration 60s --warmup 5s\n  kubectl apply -f plumb.yaml && kubectl logs -f job/plumb-coordinator"
    )]
    K8s(K8sArgs),
}

#[derive(Debug, Args)]
pub struct K8sArgs {
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
    /// Write the manifests here (else to stdout).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The agents' `plumb load` options, after `--`: the target, --rate, --duration, …
    /// (checked here; --agents, --agent-index and --coordinator are set by the manifests).
    #[arg(last = true, required = true, value_name = "LOAD OPTIONS")]
    pub load: Vec<String>,
}
