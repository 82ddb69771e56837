//! A load test's run: the target reached, generator threads run and joined (its
//! configuration is `config.rs`'s).
use super::config::{LoadConfig, Pacing};
use super::engine::{self, LiveFeed, Plan, Work};
use super::recorder::LoadReport;
use super::schedule::Schedule;
use crate::LoadError;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

/// Runs the test. `stop` (Ctrl-C) ends it early; what was measured is kept. `live`
/// receives each thread's counts twice a second. Fails only before the first request:
/// a bad URL or request, DNS, or a target that refuses the first connection.
pub fn run(
    cfg: &LoadConfig,
    stop: Arc<AtomicBool>,
    live: Option<LiveFeed>,
) -> Result<LoadReport, LoadError> {
    let reached = super::reach::reach(cfg)?;
    let wait = match cfg.start_at {
        Some(at) => at
            .duration_since(SystemTime::now())
            .map_err(|_| LoadError::StartInPast)?,
        None => Duration::from_millis(20),
    };
    let start = Instant::now() + wait;
    let base_time = SystemTime::now() + wait + cfg.warmup;
    let threads = cfg.threads.max(1);
    let mut firsts = vec![Some(reached.first)];
    firsts.resize_with(threads, || None);
    let plans: Vec<Plan> = firsts
        .into_iter()
        .enumerate()
        .map(|(i, first)| Plan {
            thread: i,
            work: work(&cfg.mode, threads, i, cfg.agents),
            start,
            measure_from: start + cfg.warmup,
            end: start + cfg.warmup + cfg.duration,
            timeout: cfg.timeout,
            drain: cfg.drain.min(cfg.timeout),
            spin: cfg.spin,
            max_connections: max_connections(&cfg.mode, threads, i, cfg.pipeline),
            max_h2_connections: max_connections(&cfg.mode, threads, i, cfg.streams),
            pipeline: cfg.pipeline.max(1),
            streams: cfg.streams.max(1),
            targets: Arc::clone(&reached.targets),
            hosts: Arc::clone(&reached.hosts),
            seed: cfg.seed,
            max_body: cfg.max_body,
            first,
            live: live.clone(),
            new_connection: cfg.new_connection,
            http2: cfg.http2,
        })
        .collect();
    drop(live);
    let reports: Vec<Result<LoadReport, LoadError>> = std::thread::scope(|s| {
        let handles: Vec<_> = plans
            .into_iter()
            .map(|p| {
                let stop = &stop;
                std::thread::Builder::new()
                    .name(format!("plumb-load-{}", p.thread))
                    .spawn_scoped(s, move || engine::run(p, stop))
                    .map_err(|e| LoadError::System {
                        what: "cannot start a generator thread",
                        cause: e.to_string(),
                    })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.and_then(|h| h.join().unwrap_or(Err(LoadError::GeneratorPanicked))))
            .collect()
    });
    let mut report = LoadReport::merge(reports.into_iter().collect::<Result<_, _>>()?)?;
    report.measured_from = Some(base_time);
    report.tls = reached.tls;
    if let Some(path) = &cfg.hlog {
        super::hlog::write(path, &report.timeline, base_time)?;
    }
    Ok(report)
}

/// Thread `i`'s work: its share of the schedule (agent I of N, thread i of T: arrivals
/// I + N·i, stride N·T), or its clients of a closed loop.
fn work(mode: &Pacing, threads: usize, i: usize, agents: Option<plumb_model::AgentShare>) -> Work {
    let (n, agent) = agents.map_or((1, 0), |a| (a.count as usize, a.index as usize));
    match *mode {
        Pacing::Open {
            rate, poisson_seed, ..
        } => Work::Open(Schedule::new(
            rate,
            n * threads,
            agent + n * i,
            poisson_seed,
        )),
        Pacing::Closed { connections } => Work::Closed(share(connections, threads, i)),
    }
}

/// Thread `i`'s share of `n` when `threads` split it as evenly as whole numbers allow.
fn share(n: usize, threads: usize, i: usize) -> usize {
    n / threads + usize::from(i < n % threads)
}

/// Thread `i`'s bound on connections to a host: the in-flight bound (open loop) or the
/// clients (closed loop), divided by the requests one connection carries at once.
fn max_connections(mode: &Pacing, threads: usize, i: usize, per_connection: usize) -> usize {
    let in_flight = match *mode {
        Pacing::Open { max_in_flight, .. } => max_in_flight,
        Pacing::Closed { connections } => connections,
    };
    let n = share(in_flight, threads, i).div_ceil(per_connection.max(1));
    match mode {
        Pacing::Open { .. } => n.max(1),
        Pacing::Closed { .. } => n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_add_up_to_the_whole() {
        for (n, t) in [(10, 3), (1, 2), (1000, 7), (5, 5)] {
            assert_eq!((0..t).map(|i| share(n, t, i)).sum::<usize>(), n);
        }
    }
}
