//! `plumb load --coordinator ADDR`: this agent's part of a coordinated test. It joins
//! before anything is sent (an unreachable or refusing coordinator ends the command with
//! nothing sent), measures its clock against the coordinator's, starts when told, hands
//! the live counts to the uplink, and sends its result at the end (after saving it
//! locally: a coordinator gone mid-test costs nothing measured).
use crate::args::LoadArgs;
use crate::exit::CliError;
use plumb_load::agents::agent::{Link, Start};
use plumb_load::agents::terms::Terms;
use plumb_load::agents::uplink::{Ending, Uplink, UplinkFeed};
use plumb_load::http::LoadReport;
use plumb_model::{format, AgentClock, LoadSettings, ResultDocument};
use std::sync::atomic::AtomicBool;
use std::time::SystemTime;

pub struct AgentSide {
    coordinator: String,
    link: Option<Link>,
    start: Option<Start>,
    uplink: Option<Uplink>,
    threads: usize,
}

/// Joins the coordinator named by `--coordinator`, if any.
pub fn join(
    a: &LoadArgs,
    settings: &LoadSettings,
    stop: &AtomicBool,
) -> Result<Option<AgentSide>, CliError> {
    let Some(addr) = &a.link.coordinator else {
        return Ok(None);
    };
    let token = crate::agents_token::token(&a.link.token)?;
    let name = settings.agent.clone().unwrap_or_default();
    let mut terms = Terms::of(settings, &name)
        .ok_or_else(|| CliError::msg("--coordinator needs --agents N".into()))?;
    // What the result's settings do not keep but every agent must still send alike.
    let digest = plumb_load::agents::terms::digest;
    let headers = a.headers.join("\n");
    for (option, value) in [
        ("-H/--header", digest(&[headers.as_bytes()])),
        ("--body", digest(&[a.body.as_bytes()])),
        ("--insecure", a.tls.insecure.to_string()),
    ] {
        terms.agreed.insert(option.into(), value);
    }
    let link = Link::join(addr, &token, &terms, a.link.coordinator_wait.to_std(), stop)
        .map_err(|e| CliError::msg(format!("{e}; nothing was sent to the target")))?;
    let (joined, count) = link.joined;
    eprintln!("plumb: {name} joined the coordinator at {addr} ({joined} of {count} agents)");
    Ok(Some(AgentSide {
        coordinator: addr.clone(),
        link: Some(link),
        start: None,
        uplink: None,
        threads: a.threads as usize,
    }))
}

impl AgentSide {
    /// Measures the clock, waits for the start, and gives it on this machine's clock.
    pub fn await_start(&mut self, stop: &AtomicBool) -> Result<SystemTime, CliError> {
        let mut link = self.link.take().expect("joined, not yet started");
        let said = |e| CliError::msg(format!("{e}; nothing was sent to the target"));
        let offset = link.measure_clock().map_err(said)?;
        eprintln!(
            "plumb: this clock is {} the coordinator's (± {}); waiting for the start",
            crate::coordinate_live::signed(offset.offset),
            format::time(offset.uncertainty())
        );
        let start = link.await_start(offset, stop).map_err(said)?;
        self.start = Some(start);
        self.uplink = Some(Uplink::start(link.into_stream(), self.threads));
        Ok(start.local)
    }

    pub fn feed(&self) -> Option<UplinkFeed> {
        self.uplink.as_ref().map(Uplink::feed)
    }

    /// The result's settings: the start and the clock, on the coordinator's clock.
    pub fn record(&self, settings: &mut LoadSettings) {
        let Some(start) = self.start else { return };
        settings.start_at = Some(start.coordinator);
        settings.coordinated = Some(Box::new(AgentClock {
            coordinator: self.coordinator.clone(),
            start_on_own_clock: start.offset.offset.to_agent(start.coordinator),
            round_trip: start.offset.round_trip,
        }));
    }

    /// Each run's measured window moved onto the coordinator's clock, so the agents'
    /// windows line up when merged whatever their own clocks say.
    pub fn shift(&self, reports: &mut [Vec<LoadReport>]) {
        let Some(start) = self.start else { return };
        for r in reports.iter_mut().flatten() {
            r.measured_from = r.measured_from.map(|t| {
                start
                    .offset
                    .offset
                    .to_coordinator(t.into())
                    .to_system_time()
            });
        }
    }

    /// Sends the result to the coordinator and waits for it to be received.
    pub fn finish(self, doc: &ResultDocument) {
        match serde_json::to_vec(doc) {
            Ok(bytes) => self.end(Ending::Document(bytes)),
            Err(e) => self.end(Ending::Failed {
                message: format!("its result did not serialise: {e}"),
            }),
        }
    }

    /// The test failed on this agent: the coordinator is told why.
    pub fn fail(self, message: &str) {
        self.end(Ending::Failed {
            message: message.to_string(),
        })
    }

    fn end(self, result: Ending) {
        let Some(uplink) = self.uplink else { return };
        if let Err(e) = uplink.finish(result) {
            eprintln!(
                "plumb: the coordinator at {} did not receive this agent's result: {e} (the result is still this command's own output)",
                self.coordinator
            );
        }
    }
}
