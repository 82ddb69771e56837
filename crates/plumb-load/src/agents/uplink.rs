//! The agent's live counts to its coordinator, from a thread of its own: the generator's
//! threads already send their counts every `LIVE_EVERY` to the live line; that thread
//! hands each to this one, which adds them up and sends one message per `LIVE_EVERY`
//! (empty ones too: they say the agent is alive), and at the end the result document.
//! A coordinator that has gone away stops the sending, never the test.
use super::messages::{self, FromAgent, FromCoordinator};
use super::wire;
use super::AgentError;
use crate::http::{LiveCounts, LiveTick, LIVE_EVERY};
use std::net::TcpStream;
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Ticks waiting to be added up, at most (the threads send two a second each).
const TICKS_QUEUED: usize = 4096;
/// A write to the coordinator waits at most this.
const WRITE_WITHIN: Duration = Duration::from_secs(10);
/// How long the coordinator may take to acknowledge a result.
const RESULT_ANSWER_WITHIN: Duration = Duration::from_secs(60);

enum Up {
    Tick(LiveTick),
    End(Ending),
}

/// How an agent's test ended, for its coordinator.
pub enum Ending {
    /// The result document, as JSON.
    Document(Vec<u8>),
    /// No result, and why.
    Failed { message: String },
}

pub struct Uplink {
    tx: SyncSender<Up>,
    handle: JoinHandle<Result<(), AgentError>>,
}

/// Where the live line hands each thread's tick on.
#[derive(Clone)]
pub struct UplinkFeed(SyncSender<Up>);

impl UplinkFeed {
    pub fn tick(&self, t: &LiveTick) {
        // A full queue (the coordinator not reading) drops the tick: it only feeds the
        // live line, and the generator's side must never wait on the network.
        let _ = self.0.try_send(Up::Tick(t.clone()));
    }
}

impl Uplink {
    pub fn start(stream: TcpStream, threads: usize) -> Uplink {
        // A coordinator that stops reading must not hold the agent for ever.
        let _ = stream.set_write_timeout(Some(WRITE_WITHIN));
        let (tx, rx) = sync_channel(TICKS_QUEUED);
        let handle = std::thread::Builder::new()
            .name("plumb-uplink".into())
            .spawn(move || run(stream, rx, threads))
            .expect("a thread for the uplink");
        Uplink { tx, handle }
    }

    pub fn feed(&self) -> UplinkFeed {
        UplinkFeed(self.tx.clone())
    }

    /// Sends the result (or why there is none) and waits for the coordinator to have it.
    pub fn finish(self, result: Ending) -> Result<(), AgentError> {
        let _ = self.tx.send(Up::End(result));
        self.handle
            .join()
            .unwrap_or_else(|_| Err(AgentError::Protocol("the uplink thread panicked".into())))
    }
}

struct Window {
    counts: LiveCounts,
    in_flight: Vec<u64>,
    draining: Vec<Option<u64>>,
}

fn run(mut stream: TcpStream, rx: Receiver<Up>, threads: usize) -> Result<(), AgentError> {
    let mut w = Window {
        counts: LiveCounts::new(),
        in_flight: vec![0; threads],
        draining: vec![None; threads],
    };
    let mut next = Instant::now() + LIVE_EVERY;
    loop {
        let wait = next.saturating_duration_since(Instant::now());
        match rx.recv_timeout(wait) {
            Ok(Up::Tick(t)) => w.add(t),
            Ok(Up::End(result)) => {
                send_live(&mut stream, &mut w)?;
                return send_result(&mut stream, result);
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                let message = "the agent stopped without a result".to_string();
                return send_result(&mut stream, Ending::Failed { message });
            }
        }
        if Instant::now() >= next {
            send_live(&mut stream, &mut w)?;
            next += LIVE_EVERY;
        }
    }
}

impl Window {
    fn add(&mut self, t: LiveTick) {
        if let Some(c) = &t.counts {
            self.counts.add(c);
        }
        if let Some(slot) = self.in_flight.get_mut(t.thread) {
            *slot = t.in_flight as u64;
        }
        if let (Some(slot), Some(n)) = (self.draining.get_mut(t.thread), t.draining) {
            *slot = Some(n as u64);
        }
    }
}

fn send_live(stream: &mut TcpStream, w: &mut Window) -> Result<(), AgentError> {
    let counts = std::mem::take(&mut w.counts);
    let draining = w
        .draining
        .iter()
        .any(Option::is_some)
        .then(|| w.draining.iter().flatten().sum());
    let latency = counts
        .latency
        .iter_recorded()
        .map(|v| (v.value_iterated_to(), v.count_at_value()))
        .collect();
    let live = FromAgent::Live {
        ok: counts.ok,
        errors: counts.errors,
        latency,
        in_flight: w.in_flight.iter().sum(),
        draining,
    };
    messages::send(stream, &live)?;
    Ok(())
}

fn send_result(stream: &mut TcpStream, result: Ending) -> Result<(), AgentError> {
    match result {
        Ending::Document(doc) => {
            messages::send(stream, &FromAgent::Result)?;
            wire::write_frame(stream, &doc).map_err(messages::MessageError::from)?;
        }
        Ending::Failed { message } => {
            messages::send(stream, &FromAgent::Failed { message })?;
            return Ok(());
        }
    }
    stream.set_read_timeout(Some(RESULT_ANSWER_WITHIN)).ok();
    loop {
        match messages::receive::<FromCoordinator>(stream, wire::CONTROL)? {
            FromCoordinator::Received => return Ok(()),
            FromCoordinator::Refused { reason } => return Err(AgentError::Refused(reason)),
            // Anything else in flight before the answer (none is expected) is passed over.
            _ => {}
        }
    }
}
