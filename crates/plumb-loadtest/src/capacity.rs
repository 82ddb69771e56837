//! Before a test: a rate above what the generator's threads can send is said with the
//! threads it would take (the test then runs as asked; its lateness will show), and a
//! rate beyond what the whole machine could send is refused unless late sends are allowed.
use crate::LoadTestError;
use plumb_load::http::{probe, LoadConfig, Pacing, PROBE_ABOVE};
use plumb_model::{Diagnostic, Finding};

/// The capacity note to keep on the result, if the rate is above what the threads can
/// send; said through `say`.
pub fn capacity_check(
    cfg: &LoadConfig,
    allow_late: bool,
    say: &mut dyn FnMut(String),
) -> Result<Option<Diagnostic>, LoadTestError> {
    let Pacing::Open { rate, .. } = cfg.mode else {
        return Ok(None);
    };
    if rate / (cfg.threads as f64) < PROBE_ABOVE {
        return Ok(None);
    }
    let Some(c) = probe(cfg)? else {
        return Ok(None);
    };
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cpu_per_request = plumb_model::quantity::Duration::from(c.cpu_per_request);
    let note = plumb_analysis::capacity(rate, cfg.threads, cpu_per_request, cpus);
    if let Some(d) = &note {
        if let Finding::RateAboveCapacity(f) = &d.finding {
            if plumb_analysis::beyond_machine(f) && !allow_late {
                return Err(LoadTestError::BeyondMachine(Box::new(d.finding.clone())));
            }
        }
        say(format!(
            "{}. Running as asked; the send lateness will show it.",
            plumb_report::finding::message(&d.finding)
        ));
    }
    Ok(note)
}
