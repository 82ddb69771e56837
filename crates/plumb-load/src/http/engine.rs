//! One generator thread: an event loop over its own connections (mio, edge-triggered
//! epoll), written here because it is the product: what it does between a due time and
//! the write is the generator's lateness, and what it does between a read and the clock
//! read is latency it adds. Per request it takes the due time up, writes the prepared
//! bytes on a free kept-alive connection, and records the answer when its last byte is
//! read. Every due request of one wake-up is sent in one pass (batched wake-ups).
//!
//! Where the time goes, kept apart: the generator's lateness (due → taken up), the wait
//! for a free connection when the in-flight bound is full (the server not keeping up at
//! this concurrency), and the exchange itself (sent → answered).

use super::clock::{MonotonicSource, TimeSource};
use super::conn::{Completion, Conn, Ending, InFlight, Phase};
use super::mix::Mix;
use super::planned::{Host, PlannedTarget};
use super::recorder::{Answer, LiveCounts, LoadReport};
use super::recorders::Recorders;
use super::schedule::Schedule;
use super::setup::SetupTimes;
use super::timer::Alarm;
use crate::LoadError;
use mio::{Events, Poll, Token};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::{Duration, Instant};

const TIMER: Token = Token(usize::MAX);
/// Waits shorter than this are spent on the CPU when nothing is in flight.
const BUSY_WAIT: Duration = Duration::from_micros(20);
/// How often timeouts are looked for (their precision).
const HOUSEKEEPING: Duration = Duration::from_millis(1);
/// The longest sleep between two looks at the stop flag and the timeouts.
const LONGEST_SLEEP: Duration = Duration::from_millis(10);
/// Connections being opened at once by one thread. A burst of due requests waits for
/// these (or for a connection to come free) instead of opening one connection each: a
/// storm of connects costs the server more than the burst itself.
const MAX_CONNECTING: usize = 4;
/// Requests waiting for a free connection, at most. Beyond it the arrivals stay in the
/// schedule, still due: they are taken up later with their own due times (so their
/// lateness counts), or counted as never sent at the end. Without a bound, a rate far
/// above what the target answers filled memory (3.3 GB at 10⁸/s in one second).
const MAX_WAITING: usize = 1 << 16;
/// Requests taken up in one pass of the loop, at most, so the stop flag, the end of the
/// test and the connections' events are looked at between passes however far behind
/// the generator is.
const MAX_TAKEN_PER_PASS: usize = 1024;

pub enum Work {
    /// Requests due on a schedule.
    Open(Schedule),
    /// This many connections sending back to back.
    Closed(usize),
}

/// What the live line needs from a thread, every `LIVE_EVERY`.
#[derive(Clone)]
pub struct LiveTick {
    pub thread: usize,
    /// Answers since the last tick; only when the feed asked for them.
    pub counts: Option<LiveCounts>,
    pub in_flight: usize,
    /// The measured window is over and the thread waits for these many answers.
    pub draining: Option<usize>,
}

/// Where threads report while they run: always the drain, and the counts of the live
/// line only when `counts` (a terminal draws it): otherwise recording answers for it
/// would be work in the loop for nobody.
#[derive(Clone)]
pub struct LiveFeed {
    pub tx: Sender<LiveTick>,
    pub counts: bool,
}

pub const LIVE_EVERY: Duration = Duration::from_millis(500);

/// Everything one thread needs: shared by all threads but for `work` and `first`.
pub struct Plan {
    pub thread: usize,
    pub work: Work,
    pub start: Instant,
    pub measure_from: Instant,
    pub end: Instant,
    pub timeout: Duration,
    /// After `end`, answers are awaited this long at most.
    pub drain: Duration,
    pub spin: Duration,
    /// The most connections open at once to each host speaking HTTP/1.1 (the in-flight
    /// bound divided by the pipeline), and to each speaking HTTP/2 (divided by the
    /// streams a connection).
    pub max_connections: usize,
    pub max_h2_connections: usize,
    pub pipeline: usize,
    /// HTTP/2: the most streams in flight on one connection.
    pub streams: usize,
    /// What is asked: one target, or a mix drawn by `weights`.
    pub targets: Arc<[PlannedTarget]>,
    /// Where: each target's host (its address and TLS), a pool of connections each.
    pub hosts: Arc<[Host]>,
    /// The mix's seed (its draws; unused for one target).
    pub seed: u64,
    pub max_body: u64,
    /// The connection to host 0 opened before the test, and how long its connect took.
    pub first: Option<(std::net::TcpStream, Duration)>,
    pub live: Option<LiveFeed>,
    /// One connection per request: a connection is closed after its answer, never
    /// reused, and as many may be opening at once as the in-flight bound allows.
    pub new_connection: bool,
    /// HTTP/2: on https where ALPN agrees `h2` (else HTTP/1.1), on http by prior
    /// knowledge.
    pub http2: bool,
}

struct Waiting {
    due: Instant,
    since: Instant,
    retried: bool,
    /// Every connection allowed was open and busy when it began to wait (rather than
    /// one being opened): the in-flight bound was full.
    bound_full: bool,
    target: usize,
}

/// One host's connections: how many may be open, how many are open and opening, those
/// with room for another request, and the requests waiting for one.
struct Pool {
    limit: usize,
    open: usize,
    connecting: usize,
    /// Connections with room for another request (checked when taken: may be stale).
    ready: Vec<usize>,
    /// Requests due while every connection was busy, oldest first.
    waiting: VecDeque<Waiting>,
}

struct Engine<C: TimeSource = MonotonicSource> {
    /// Every time the engine reads: the monotonic clock in a run.
    clock: C,
    plan: Plan,
    poll: Poll,
    timer: Alarm,
    armed: Option<Instant>,
    conns: Vec<Option<Conn>>,
    free: Vec<usize>,
    pools: Vec<Pool>,
    opened: usize,
    /// How long before a due time the loop stops sleeping: the configured `spin` at
    /// most, less when the timer has been waking punctually (see `learn_wake`).
    spin: Duration,
    /// A decaying maximum of the timer's recent wake-up lateness.
    wake_late: Duration,
    /// Time in the measured window spent waiting with nothing to do.
    idle: Duration,
    /// A mix's draw of each arrival's target (`None`: one target).
    mix: Option<Mix>,
    rec: Recorders,
    done: Vec<Completion>,
    in_flight: usize,
    /// HTTP/2 connections with streams queued and not yet written (`flush_queued`).
    to_flush: Vec<usize>,
}

/// Runs one thread's share of the test. `stop` ends it early; what was measured is kept.
pub fn run(plan: Plan, stop: &AtomicBool) -> Result<LoadReport, LoadError> {
    let mut e = Engine::new(plan, MonotonicSource)?;
    if let Some((first, took)) = e.plan.first.take() {
        e.adopt(first, took)?;
    }
    let interrupted = e.main_loop(stop);
    Ok(e.report(interrupted))
}

impl<C: TimeSource> Engine<C> {
    fn new(plan: Plan, clock: C) -> Result<Self, LoadError> {
        let poll = Poll::new().map_err(system("cannot create a poll"))?;
        let timer = Alarm::new(poll.registry(), TIMER)
            .map_err(system("cannot set up the schedule's timer"))?;
        let mut rec = Recorders::new(plan.measure_from, plan.timeout, plan.targets.len());
        if plan.live.as_ref().is_some_and(|f| f.counts) {
            rec.whole = rec.whole.with_live();
        }
        rec.whole.setup = SetupTimes::new(plan.hosts.iter().any(|h| h.tls.is_some()));
        let weights: Vec<u64> = plan.targets.iter().map(|t| t.weight).collect();
        Ok(Engine {
            clock,
            poll,
            timer,
            armed: None,
            conns: Vec::new(),
            free: Vec::new(),
            pools: plan
                .hosts
                .iter()
                .map(|h| Pool {
                    limit: if h.h2 {
                        plan.max_h2_connections
                    } else {
                        plan.max_connections
                    },
                    open: 0,
                    connecting: 0,
                    ready: Vec::new(),
                    waiting: VecDeque::new(),
                })
                .collect(),
            opened: 0,
            spin: plan.spin,
            wake_late: plan.spin / 2,
            idle: Duration::ZERO,
            mix: (weights.len() > 1).then(|| Mix::new(&weights, plan.seed, plan.thread)),
            rec,
            done: Vec::new(),
            in_flight: 0,
            to_flush: Vec::new(),
            plan,
        })
    }

    /// What was measured, once the loop has ended.
    fn report(self, interrupted: bool) -> LoadReport {
        let stopped_at = self.clock.now().min(self.plan.end);
        let measured = stopped_at.saturating_duration_since(self.plan.measure_from);
        let open_loop = matches!(self.plan.work, Work::Open(_));
        let busy = 1.0 - self.idle.as_secs_f64() / measured.as_secs_f64().max(1e-9);
        let mut report = self
            .rec
            .finish(measured.into(), interrupted, self.opened, open_loop);
        report.busy = busy.clamp(0.0, 1.0);
        report
    }

    fn main_loop(&mut self, stop: &AtomicBool) -> bool {
        let mut events = Events::with_capacity(1024);
        let (start, end) = (self.plan.start, self.plan.end);
        let mut housekeeping = start;
        let mut live_at = start + LIVE_EVERY;
        self.sleep_until(start, &mut events, stop);
        if let Work::Closed(n) = self.plan.work {
            let now = self.clock.now();
            for _ in 0..n {
                let t = self.draw();
                self.take_up(t, now, now);
            }
        }
        let mut idle_since: Option<Instant> = None;
        loop {
            if stop.load(Ordering::Relaxed) {
                self.abandon();
                return true;
            }
            let now = self.clock.now();
            if let Some(since) = idle_since.take() {
                if since >= self.plan.measure_from {
                    self.idle += now - since;
                }
            }
            let (next, took) = self.take_up_due(now);
            if now >= end {
                break;
            }
            if now >= housekeeping {
                self.expire(now);
                housekeeping = now + HOUSEKEEPING;
                if now >= live_at {
                    self.send_live(None);
                    live_at = now + LIVE_EVERY;
                }
            }
            self.wait(next.min(end), now, &mut events);
            // Idle: nothing was taken up and no connection needed anything (the
            // housekeeping of this pass, once a millisecond, counts as idle).
            if !self.handle(&events) && !took {
                idle_since = Some(now);
            }
        }
        self.drain(&mut events, stop)
    }

    /// Takes up every request due by `now` (open loop), stamping the generator's
    /// lateness; returns the next due time and whether anything was taken up.
    fn take_up_due(&mut self, now: Instant) -> (Instant, bool) {
        let (start, end) = (self.plan.start, self.plan.end);
        let mut took = false;
        for _ in 0..MAX_TAKEN_PER_PASS {
            let waiting = self.waiting();
            let Work::Open(s) = &mut self.plan.work else {
                return (end, took);
            };
            let due = start + s.peek();
            if due > now || due >= end || waiting >= MAX_WAITING {
                return (due, took);
            }
            s.take();
            took = true;
            let t = self.draw();
            self.rec.dispatched(t, due, now);
            self.take_up(t, due, now);
        }
        let next = match &self.plan.work {
            Work::Open(s) => start + s.peek(),
            Work::Closed(_) => end,
        };
        (next, took)
    }

    /// The next arrival's target: drawn from a mix, else the one target.
    fn draw(&mut self) -> usize {
        match &mut self.mix {
            Some(m) => m.draw(),
            None => 0,
        }
    }

    /// Requests waiting for a connection, over every host.
    fn waiting(&self) -> usize {
        self.pools.iter().map(|p| p.waiting.len()).sum()
    }

    /// Counts the arrivals due before `until` that were never taken up (the generator
    /// fell behind by more than the waiting bound or the end came first): each is a
    /// request the schedule asked for and the target never saw. A mix draws each one's
    /// target, as if it had been taken up.
    fn never_taken(&mut self, until: Instant) {
        let (start, measure_from) = (self.plan.start, self.plan.measure_from);
        let Work::Open(s) = &mut self.plan.work else {
            return;
        };
        let until = until.min(self.plan.end).saturating_duration_since(start);
        let from = measure_from.saturating_duration_since(start);
        let skipped = s.skip_before(until, from);
        let mut per_target = vec![0u64; self.plan.targets.len()];
        match &mut self.mix {
            Some(m) => (0..skipped).for_each(|_| per_target[m.draw()] += 1),
            None => per_target[0] = skipped,
        }
        for (t, n) in per_target.into_iter().enumerate() {
            self.rec.failed_unsent_many(
                t,
                n,
                "not sent: the generator fell behind",
                "due before the end, never taken up: the generator could not keep up with the schedule (its send lateness shows how far behind it was)",
            );
        }
    }

    /// One request for target `t`: on a free connection to its host, a new one, or in
    /// the host's queue for one (behind those already waiting: first come, first sent).
    fn take_up(&mut self, t: usize, due: Instant, now: Instant) {
        let h = self.plan.targets[t].host;
        if !self.pools[h].waiting.is_empty() {
            self.queue(h, t, due, now);
            self.grow(h, now);
            return;
        }
        if let Some(i) = self.free_connection(h) {
            self.send(i, t, due, false);
        } else if self.pools[h].open < self.pools[h].limit
            && self.pools[h].connecting < self.max_connecting(h)
        {
            match self.connect(h) {
                Ok(i) => self.send(i, t, due, false),
                Err(f) => {
                    let now = self.clock.now();
                    self.rec.done(t, due, now, now, Answer::Failed(f));
                }
            }
        } else {
            self.queue(h, t, due, now);
        }
    }

    /// Target `t`'s request, due at `due`, waits for a connection to host `h`.
    fn queue(&mut self, h: usize, t: usize, due: Instant, now: Instant) {
        let bound_full = self.pools[h].open >= self.pools[h].limit;
        self.pools[h].waiting.push_back(Waiting {
            due,
            since: now,
            retried: false,
            bound_full,
            target: t,
        });
    }

    /// A listed connection of host `h` that still has room (one listed before the
    /// server's GOAWAY, or filled since, is dropped from the list).
    fn free_connection(&mut self, h: usize) -> Option<usize> {
        let (pipeline, streams) = (self.plan.pipeline, self.plan.streams);
        while let Some(i) = self.pools[h].ready.pop() {
            if let Some(c) = self.conns[i].as_mut() {
                if c.listed {
                    c.listed = false;
                    if c.has_room(pipeline, streams) {
                        return Some(i);
                    }
                }
            }
        }
        None
    }

    fn send(&mut self, i: usize, t: usize, due: Instant, retried: bool) {
        let sent = self.clock.now();
        let r = InFlight {
            due,
            sent,
            deadline: sent + self.plan.timeout,
            retried,
            target: t,
            stream: 0,
            status: 0,
            received: 0,
        };
        if !retried && matches!(self.plan.work, Work::Closed(_)) {
            self.rec.dispatched(t, due, sent);
        }
        let c = self.conns[i].as_mut().expect("a live connection");
        self.in_flight += 1;
        match c.push(r, &self.plan.targets) {
            Ok(deferred) => {
                if deferred && !c.to_flush {
                    c.to_flush = true;
                    self.to_flush.push(i);
                }
                self.offer(i)
            }
            Err(f) => self.close(i, Ending::Failed(f)),
        }
    }

    /// Writes the HTTP/2 streams queued since the last wait, a connection at a time.
    fn flush_queued(&mut self) {
        while let Some(i) = self.to_flush.pop() {
            let Some(c) = self.conns[i].as_mut() else {
                continue;
            };
            c.to_flush = false;
            if let Err(f) = c.flush(&self.plan.targets) {
                self.close(i, Ending::Failed(f));
            }
        }
    }

    /// Sleeps (on the timer) or polls until `next`, a due time or the end.
    fn wait(&mut self, next: Instant, now: Instant, events: &mut Events) {
        self.flush_queued();
        let left = next.saturating_duration_since(now);
        events.clear();
        if left <= BUSY_WAIT && self.in_flight == 0 {
            // Nothing to read: a syscall would only add its own delay.
            while self.clock.now() < next {
                std::hint::spin_loop();
            }
            return;
        }
        let timeout = if left <= self.spin {
            Duration::ZERO
        } else if left <= self.spin + LONGEST_SLEEP {
            // The timer (microseconds) wakes the loop `spin` before the due time; the
            // poll's own timeout (milliseconds) would be late.
            let wake = next - self.spin;
            if self.armed != Some(wake) && self.timer.arm(wake).is_ok() {
                self.armed = Some(wake);
            }
            self.timer.poll_timeout(wake)
        } else {
            LONGEST_SLEEP
        };
        if let Err(e) = self.poll.poll(events, Some(timeout)) {
            if e.kind() != std::io::ErrorKind::Interrupted {
                // A failing poll cannot be waited on: spin until the due time instead.
                while self.clock.now() < next {
                    std::hint::spin_loop();
                }
            }
        }
    }

    fn sleep_until(&mut self, t: Instant, events: &mut Events, stop: &AtomicBool) {
        loop {
            let now = self.clock.now();
            if now >= t || stop.load(Ordering::Relaxed) {
                return;
            }
            self.wait(t, now, events);
            self.handle(events);
        }
    }

    /// Handles the poll's events; false when none concerned a connection (the loop had
    /// nothing to do but wait).
    fn handle(&mut self, events: &Events) -> bool {
        let mut worked = false;
        for ev in events.iter() {
            if ev.token() == TIMER {
                self.timer.acknowledge();
                if let Some(at) = self.armed.take() {
                    self.learn_wake(self.clock.now().saturating_duration_since(at));
                }
                continue;
            }
            worked = true;
            let i = ev.token().0;
            let Some(c) = self.conns.get_mut(i).and_then(Option::as_mut) else {
                continue;
            };
            let writable = ev.is_writable() || ev.is_error() || ev.is_read_closed();
            let open = match c.phase {
                Phase::Connecting if writable => self.finish_connect(i),
                Phase::Connecting => Ok(false),
                Phase::Handshaking => self.advance_handshake(i),
                Phase::Open if ev.is_writable() => c.flush(&self.plan.targets).map(|()| true),
                Phase::Open => Ok(true),
            };
            match open {
                Ok(true) => {}
                Ok(false) => continue,
                Err(f) => {
                    self.close(i, Ending::Failed(f));
                    continue;
                }
            }
            if ev.is_readable() || ev.is_read_closed() || ev.is_error() {
                self.read(i, ev.is_read_closed() || ev.is_error());
            }
        }
        worked
    }

    /// Learns how late the timer wakes the loop, and spins only that long (twice the
    /// recent worst, plus a margin) before each due time, never more than `--spin`: at
    /// low rates the spin is most of the generator's CPU.
    fn learn_wake(&mut self, late: Duration) {
        const DECAY: f64 = 0.999;
        const MARGIN: Duration = Duration::from_micros(10);
        self.wake_late = late.max(self.wake_late.mul_f64(DECAY));
        let want = 2 * self.wake_late + MARGIN;
        self.spin = want.min(self.plan.spin);
    }

    /// The measured window is over: requests still waiting for a connection were never
    /// sent; answers in flight are awaited at most `drain`.
    fn drain(&mut self, events: &mut Events, stop: &AtomicBool) -> bool {
        self.never_taken(self.plan.end);
        for h in 0..self.pools.len() {
            while let Some(w) = self.pools[h].waiting.pop_front() {
                self.rec.failed_unsent(
                    w.target,
                    w.due,
                    "not sent: every connection busy until the end",
                    "the in-flight bound was full from this request's due time to the end of the test",
                );
            }
        }
        let until = self.plan.end + self.plan.drain;
        if self.in_flight > 0 {
            self.send_live(Some(self.in_flight));
        }
        while self.in_flight > 0 {
            if stop.load(Ordering::Relaxed) {
                self.abandon();
                return true;
            }
            let now = self.clock.now();
            if now >= until {
                break;
            }
            self.expire(now);
            self.wait(until.min(now + LONGEST_SLEEP), now, events);
            self.handle(events);
        }
        let detail = format!(
            "no answer within the drain ({} after the end)",
            // A setting: as the user writes it (`2s`).
            plumb_model::quantity::Duration::from(self.plan.drain)
        );
        for c in self.conns.iter_mut().flatten() {
            for r in c.inflight.drain(..) {
                self.rec
                    .failed_unsent(r.target, r.due, "unfinished when the drain ended", &detail);
            }
        }
        self.in_flight = 0;
        self.send_live(Some(0));
        false
    }

    fn abandon(&mut self) {
        let now = self.clock.now();
        self.never_taken(now);
        for c in self.conns.iter_mut().flatten() {
            for r in c.inflight.drain(..) {
                self.rec.abandoned(r.target, r.due);
            }
        }
        for pool in &mut self.pools {
            for w in pool.waiting.drain(..) {
                self.rec.abandoned(w.target, w.due);
            }
        }
        self.in_flight = 0;
    }

    fn send_live(&mut self, draining: Option<usize>) {
        let Some(feed) = &self.plan.live else { return };
        let counts = self.rec.take_live();
        if counts.is_some() || draining.is_some() {
            let _ = feed.tx.send(LiveTick {
                thread: self.plan.thread,
                counts,
                in_flight: self.in_flight,
                draining,
            });
        }
    }
}

/// An error of the operating system while setting the generator up.
fn system(what: &'static str) -> impl Fn(std::io::Error) -> LoadError {
    move |e| LoadError::System {
        what,
        cause: e.to_string(),
    }
}

mod conns;
#[cfg(test)]
mod tests;
