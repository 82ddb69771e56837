//! An agent's side of a coordinated test, for `plumb load --coordinator ADDR`: joined
//! before anything is sent (an unreachable or refusing coordinator ends the command with
//! nothing sent), its clock measured against the coordinator's, started when told, its
//! live counts handed to the uplink, and its result sent at the end (after the caller
//! saved it locally: a coordinator gone mid-test costs nothing measured). What it says
//! goes through the caller's `say`.
use crate::agents::agent::{Link, Start};
use crate::agents::auth::Token;
use crate::agents::terms::Terms;
use crate::agents::uplink::{Ending, Uplink, UplinkFeed};
use crate::agents::AgentError;
use crate::http::LoadReport;
use plumb_model::{format, AgentClock, LoadSettings, ResultDocument};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, SystemTime};

/// An agent joined to its coordinator, until it ends.
pub struct AgentSide {
    coordinator: String,
    link: Option<Link>,
    start: Option<Start>,
    uplink: Option<Uplink>,
    threads: usize,
}

impl AgentSide {
    /// Joins the coordinator at `addr` on `terms` (waiting for it at most `wait`); the
    /// test then runs on `threads` generator threads.
    pub fn join(
        addr: &str,
        (token, terms): (&Token, &Terms),
        (wait, threads): (Duration, usize),
        stop: &AtomicBool,
        say: &mut dyn FnMut(String),
    ) -> Result<AgentSide, AgentError> {
        let link = Link::join(addr, token, terms, wait, stop)?;
        let (joined, count) = link.joined;
        say(format!(
            "{} joined the coordinator at {addr} ({joined} of {count} agents)",
            terms.name
        ));
        Ok(AgentSide {
            coordinator: addr.to_string(),
            link: Some(link),
            start: None,
            uplink: None,
            threads,
        })
    }

    /// Measures the clock, waits for the start, and gives it on this machine's clock.
    pub fn await_start(
        &mut self,
        stop: &AtomicBool,
        say: &mut dyn FnMut(String),
    ) -> Result<SystemTime, AgentError> {
        let mut link = self.link.take().expect("joined, not yet started");
        let offset = link.measure_clock()?;
        say(format!(
            "this clock is {} the coordinator's (± {}); waiting for the start",
            offset.offset.way_of(),
            format::time(offset.uncertainty())
        ));
        let start = link.await_start(offset, stop)?;
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

    /// Sends the result to the coordinator and waits for it to be received; whether it
    /// was.
    pub fn finish(self, doc: &ResultDocument, say: &mut dyn FnMut(String)) -> bool {
        match serde_json::to_vec(doc) {
            Ok(bytes) => self.end(Ending::Document(bytes), say),
            Err(e) => self.end(
                Ending::Failed {
                    message: format!("its result did not serialise: {e}"),
                },
                say,
            ),
        }
    }

    /// The test failed on this agent: the coordinator is told why.
    pub fn fail(self, message: &str, say: &mut dyn FnMut(String)) {
        self.end(
            Ending::Failed {
                message: message.to_string(),
            },
            say,
        );
    }

    /// Whether the coordinator received the ending; when not, said.
    fn end(self, result: Ending, say: &mut dyn FnMut(String)) -> bool {
        let Some(uplink) = self.uplink else {
            return true;
        };
        match uplink.finish(result) {
            Ok(()) => true,
            Err(e) => {
                say(format!(
                    "the coordinator at {} did not receive this agent's result: {e} (the result is still this command's own output)",
                    self.coordinator
                ));
                false
            }
        }
    }
}
