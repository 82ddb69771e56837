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
    #[command(flatten)]
    pub cluster: plumb_load::options::K8sOptions,
    /// Write the manifests here (else to stdout).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}
