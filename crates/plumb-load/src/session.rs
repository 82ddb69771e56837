//! A load test's runs: each target in turn, A B B A A B … so that a drift of the machine
//! falls on both alike, each run with its live line (`live.rs`). A run that cannot start
//! (the target went away) ends the series: the runs before it are kept, and the message
//! says why it stopped.
use crate::agents::uplink::UplinkFeed;
use crate::http::{run, LoadConfig, LoadReport};
use crate::live::Live;
use crate::LoadError;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Each target's runs, in turn, `repeat` times each; and, when a later run could not
/// start, why the series stopped there. Runs are announced through `say` when there are
/// several and `announce` asks.
pub fn run_in_turn(
    targets: &[&LoadConfig],
    repeat: u32,
    (stop, uplink): (&Arc<AtomicBool>, Option<UplinkFeed>),
    announce: bool,
    say: &mut dyn FnMut(String),
) -> Result<(Vec<Vec<LoadReport>>, Option<String>), LoadError> {
    let n = targets.len();
    let order: Vec<usize> = (0..repeat as usize)
        .flat_map(|i| (0..n).map(move |k| if i % 2 == 1 { n - 1 - k } else { k }))
        .collect();
    let mut reports: Vec<Vec<LoadReport>> = targets.iter().map(|_| Vec::new()).collect();
    let announce = announce && order.len() > 1;
    for (k, &t) in order.iter().enumerate() {
        let cfg = targets[t];
        if announce {
            say(format!("run {} of {}: {}", k + 1, order.len(), cfg.url));
        }
        let mut live = Live::start(
            cfg.threads,
            cfg.warmup,
            cfg.drain.min(cfg.timeout),
            cfg.start_at,
            uplink.clone(),
        );
        let report = run(cfg, stop.clone(), live.feed());
        live.finish();
        match report {
            Ok(r) => {
                let stopped = r.interrupted;
                reports[t].push(r);
                if stopped {
                    break;
                }
            }
            Err(e) if reports.iter().any(|r| !r.is_empty()) => {
                let message = format!("run {} of {} ({}) failed: {e}", k + 1, order.len(), cfg.url);
                say(message.clone());
                return Ok((reports, Some(message)));
            }
            Err(e) => return Err(e),
        }
    }
    Ok((reports, None))
}
