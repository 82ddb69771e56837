use crate::args::EnvArgs;
use crate::exit::{self, CliError};
use plumb_analysis::environment_diagnostics;
use plumb_model::Environment;
use plumb_report::render_diagnostics;

pub fn run(a: EnvArgs) -> Result<i32, CliError> {
    let env = plumb_env::collect();
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&env).expect("serialisable")
        );
        return Ok(exit::OK);
    }
    print!("{}", render_record(&env));
    let diagnostics = environment_diagnostics(&env);
    if diagnostics.is_empty() {
        println!("\nNo known source of noise found.");
    } else {
        println!("\nWhat makes numbers noisy here:");
        print!("{}", render_diagnostics(&diagnostics, 2));
    }
    Ok(exit::OK)
}

fn render_record(env: &Environment) -> String {
    let opt = |v: &Option<String>| v.clone().unwrap_or_else(|| "unknown".into());
    let list = |v: &[usize]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
        }
    };
    let caches = env
        .caches
        .iter()
        .map(|c| {
            format!(
                "L{} {} {} KiB{}",
                c.level,
                c.kind.to_lowercase(),
                c.size_bytes / 1024,
                c.shared_by
                    .map_or(String::new(), |s| format!(" (shared by {s})"))
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    let rows: Vec<(&str, String)> = vec![
        ("host", opt(&env.hostname)),
        ("os", opt(&env.os)),
        ("kernel", opt(&env.kernel)),
        ("cpu", opt(&env.cpu_model)),
        (
            "cores / threads",
            format!(
                "{} / {}",
                env.cores.map_or("?".into(), |c| c.to_string()),
                env.threads.map_or("?".into(), |c| c.to_string())
            ),
        ),
        (
            "caches",
            if caches.is_empty() {
                "unknown".into()
            } else {
                caches
            },
        ),
        (
            "memory",
            env.memory_bytes.map_or("unknown".into(), |m| {
                format!("{:.1} GiB", m as f64 / (1u64 << 30) as f64)
            }),
        ),
        (
            "numa nodes",
            env.numa_nodes.map_or("unknown".into(), |n| n.to_string()),
        ),
        (
            "governor",
            if env.governors.is_empty() {
                "unknown (no cpufreq)".into()
            } else {
                env.governors.join(", ")
            },
        ),
        (
            "turbo",
            env.turbo
                .map_or("unknown".into(), |t| if t { "on" } else { "off" }.into()),
        ),
        ("aslr", env.aslr.map_or("unknown".into(), |a| a.to_string())),
        (
            "load average",
            env.load_average.map_or("unknown".into(), |l| {
                format!("{:.2} {:.2} {:.2}", l[0], l[1], l[2])
            }),
        ),
        (
            "virtualization",
            env.virtualization
                .clone()
                .unwrap_or_else(|| "none detected".into()),
        ),
        ("affinity", list(&env.affinity)),
        ("isolated cpus", list(&env.isolated_cpus)),
        (
            "smt",
            env.smt_active
                .map_or("unknown".into(), |s| if s { "on" } else { "off" }.into()),
        ),
        ("clock source", opt(&env.clock_source)),
        (
            "perf_event_paranoid",
            env.perf_event_paranoid
                .map_or("unknown".into(), |p| p.to_string()),
        ),
    ];
    rows.iter()
        .map(|(k, v)| format!("{k:>20}  {v}\n"))
        .collect()
}
