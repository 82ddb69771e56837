use crate::args::LoadArgs;
use crate::exit::{self, CliError};
use crate::export::{self, Target};
use plumb_load::load::{run as run_load, LoadConfig, Mode};
use plumb_load::{model, percentile_distribution};
use plumb_model::{Benchmark, BenchmarkKind, ResultDocument, RunStatus, Settings};
use plumb_report::{render_load, Format};
use std::time::Duration;

pub fn run(a: LoadArgs) -> Result<i32, CliError> {
    if a.duration.is_zero() {
        return Err(CliError("--duration must be above 0".into()));
    }
    if a.timeout.is_zero() {
        return Err(CliError("--timeout must be above 0".into()));
    }
    let method: hyper::Method = a
        .method
        .parse()
        .map_err(|_| CliError(format!("{:?} is not an HTTP method", a.method)))?;
    let mut headers = Vec::new();
    for h in &a.headers {
        let (k, v) = h
            .split_once(':')
            .ok_or_else(|| CliError(format!("header {h:?} is not 'Name: value'")))?;
        headers.push((k.trim().to_string(), v.trim().to_string()));
    }
    let mode = match (a.rate, a.closed) {
        (Some(rate), None) => Mode::Open {
            rate: rate.per_second(),
            poisson_seed: a.poisson.then_some(a.seed),
            max_in_flight: a.max_in_flight as usize,
        },
        (None, Some(n)) => Mode::Closed {
            connections: n as usize,
        },
        _ => unreachable!("clap requires exactly one of --rate and --closed"),
    };
    let targets: Vec<Target> = a
        .export_json
        .iter()
        .map(|p| Target {
            path: p.clone(),
            format: Format::Json,
        })
        .collect();
    export::check(&targets)?;
    if let Some(dir) = &a.hgrm_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError(format!("cannot create {}: {e}", dir.display())))?;
    }
    let cfg = LoadConfig {
        url: a.url.clone(),
        method,
        headers,
        body: bytes::Bytes::from(a.body.clone()),
        duration: a.duration.to_std(),
        warmup: a.warmup.to_std(),
        timeout: a.timeout.to_std(),
        mode: mode.clone(),
        start_at: a
            .start_at
            .map(|t| std::time::UNIX_EPOCH + Duration::from_secs_f64(t)),
        hlog: a.hlog.clone(),
        spin: a.spin.to_std(),
    };
    let stop = crate::session::stop_on_ctrl_c()?;
    let environment = plumb_env::collect();
    let report = run_load(&cfg, stop).map_err(CliError)?;

    let (mode_name, target_rate, concurrency) = match mode {
        Mode::Open {
            rate,
            max_in_flight,
            ..
        } => ("open", Some(rate), max_in_flight),
        Mode::Closed { connections } => ("closed", None, connections),
    };
    let mut doc = ResultDocument::new(
        env!("CARGO_PKG_VERSION"),
        plumb_model::Invocation::current(),
        environment,
        Settings {
            confidence: plumb_model::quantity::Confidence::DEFAULT,
            sesoi: plumb_model::quantity::Fraction::DEFAULT_SESOI,
            options: serde_json::json!({
                "url": a.url, "mode": mode_name, "rate": a.rate.map(|r| r.per_second()), "connections": a.closed,
                "duration_s": a.duration.as_secs_f64(), "warmup_s": a.warmup.as_secs_f64(), "timeout_s": a.timeout.as_secs_f64(),
                "max_in_flight": a.max_in_flight, "poisson": a.poisson, "seed": a.seed,
                "start_at": a.start_at, "agent": a.agent, "spin_us": a.spin.as_micros_f64(),
            }),
        },
    );
    let mut b = Benchmark::new(format!("{} {}", a.method, a.url), BenchmarkKind::Load);
    if let Some(agent) = &a.agent {
        b.parameters.insert("agent".into(), agent.clone());
    }
    b.load = Some(model::load_info(
        &report,
        mode_name,
        target_rate,
        concurrency,
    ));
    doc.benchmarks.push(b);
    if report.interrupted {
        doc.status = RunStatus::Interrupted;
    }
    export::write_all(&targets, &doc)?;
    let mut text = String::new();
    if report.interrupted {
        text.push_str(
            "Interrupted: the figures below are from the requests measured before Ctrl-C.\n\n",
        );
    }
    text.push_str(&render_load(&doc.benchmarks[0], a.timeline));
    exit::print_stdout(&text);
    if let Some(dir) = &a.hgrm_dir {
        let mut files = vec![("latency", &report.latency), ("service", &report.service)];
        if let Some(l) = &report.lateness {
            files.push(("lateness", l));
        }
        for (name, h) in files {
            let path = dir.join(format!("{name}.hgrm"));
            std::fs::write(&path, percentile_distribution(h))
                .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
        }
    }
    Ok(if report.interrupted {
        exit::INTERRUPTED
    } else {
        exit::OK
    })
}
