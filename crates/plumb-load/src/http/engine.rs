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
use super::conn::{connect_failure, Completion, Conn, Ending, InFlight, Phase};
use super::recorder::{Answer, Failure, LiveCounts, LoadReport, Recorder};
use super::schedule::Schedule;
use super::setup::SetupTimes;
use super::timer::Alarm;
use super::transport::Transport;
use crate::LoadError;
use mio::{Events, Interest, Poll, Token};
use std::collections::VecDeque;
use std::net::SocketAddr;
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
    pub max_connections: usize,
    pub pipeline: usize,
    pub request: Arc<[u8]>,
    pub idempotent: bool,
    pub head: bool,
    pub max_body: u64,
    pub addr: SocketAddr,
    /// The connection opened before the test, and how long its connect took.
    pub first: Option<(std::net::TcpStream, Duration)>,
    pub live: Option<LiveFeed>,
    /// https: each connection's TLS session is made from this.
    pub tls: Option<TlsPlan>,
    /// One connection per request: a connection is closed after its answer, never
    /// reused, and as many may be opening at once as the in-flight bound allows.
    pub new_connection: bool,
}

/// What every TLS connection of a test shares: the configuration (roots, ALPN, the
/// session cache) and the name the server's certificate must carry (and SNI sends).
#[derive(Clone)]
pub struct TlsPlan {
    pub config: Arc<rustls::ClientConfig>,
    pub name: rustls::pki_types::ServerName<'static>,
}

struct Waiting {
    due: Instant,
    since: Instant,
    retried: bool,
    /// Every connection allowed was open and busy when it began to wait (rather than
    /// one being opened): the in-flight bound was full.
    bound_full: bool,
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
    open: usize,
    opened: usize,
    connecting: usize,
    /// How long before a due time the loop stops sleeping: the configured `spin` at
    /// most, less when the timer has been waking punctually (see `learn_wake`).
    spin: Duration,
    /// A decaying maximum of the timer's recent wake-up lateness.
    wake_late: Duration,
    /// Time in the measured window spent waiting with nothing to do.
    idle: Duration,
    /// Connections with room for another request (checked when taken: may be stale).
    ready: Vec<usize>,
    /// Requests due while every connection was busy, oldest first.
    waiting: VecDeque<Waiting>,
    rec: Recorder,
    done: Vec<Completion>,
    in_flight: usize,
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
        let mut rec = Recorder::new(plan.measure_from, plan.timeout);
        if plan.live.as_ref().is_some_and(|f| f.counts) {
            rec = rec.with_live();
        }
        rec.setup = SetupTimes::new(plan.tls.is_some());
        Ok(Engine {
            clock,
            poll,
            timer,
            armed: None,
            conns: Vec::new(),
            free: Vec::new(),
            open: 0,
            opened: 0,
            connecting: 0,
            spin: plan.spin,
            wake_late: plan.spin / 2,
            idle: Duration::ZERO,
            ready: Vec::new(),
            waiting: VecDeque::new(),
            rec,
            done: Vec::new(),
            in_flight: 0,
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
                self.take_up(now, now);
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
            let Work::Open(s) = &mut self.plan.work else {
                return (end, took);
            };
            let due = start + s.peek();
            if due > now || due >= end || self.waiting.len() >= MAX_WAITING {
                return (due, took);
            }
            s.take();
            took = true;
            self.rec.dispatched(due, now);
            self.take_up(due, now);
        }
        let next = match &self.plan.work {
            Work::Open(s) => start + s.peek(),
            Work::Closed(_) => end,
        };
        (next, took)
    }

    /// Counts the arrivals due before `until` that were never taken up (the generator
    /// fell behind by more than the waiting bound or the end came first): each is a
    /// request the schedule asked for and the target never saw.
    fn never_taken(&mut self, until: Instant) {
        let (start, measure_from) = (self.plan.start, self.plan.measure_from);
        let Work::Open(s) = &mut self.plan.work else {
            return;
        };
        let until = until.min(self.plan.end).saturating_duration_since(start);
        let from = measure_from.saturating_duration_since(start);
        let skipped = s.skip_before(until, from);
        self.rec.failed_unsent_many(
            skipped,
            "not sent: the generator fell behind",
            "due before the end, never taken up: the generator could not keep up with the schedule (its send lateness shows how far behind it was)",
        );
    }

    /// One request: on a free connection, a new one, or in the queue for one.
    fn take_up(&mut self, due: Instant, now: Instant) {
        if let Some(i) = self.free_connection() {
            self.send(i, due, false);
        } else if self.open < self.plan.max_connections && self.connecting < self.max_connecting() {
            match self.connect() {
                Ok(i) => self.send(i, due, false),
                Err(f) => {
                    let now = self.clock.now();
                    self.rec.done(due, now, now, Answer::Failed(f));
                }
            }
        } else {
            self.waiting.push_back(Waiting {
                due,
                since: now,
                retried: false,
                bound_full: self.open >= self.plan.max_connections,
            });
        }
    }

    fn free_connection(&mut self) -> Option<usize> {
        while let Some(i) = self.ready.pop() {
            if let Some(c) = self.conns[i].as_mut() {
                if c.listed {
                    c.listed = false;
                    return Some(i);
                }
            }
        }
        None
    }

    fn send(&mut self, i: usize, due: Instant, retried: bool) {
        let sent = self.clock.now();
        let r = InFlight {
            due,
            sent,
            deadline: sent + self.plan.timeout,
            retried,
        };
        if !retried && matches!(self.plan.work, Work::Closed(_)) {
            self.rec.dispatched(due, sent);
        }
        let c = self.conns[i].as_mut().expect("a live connection");
        self.in_flight += 1;
        match c.push(r, &self.plan.request) {
            Ok(()) => self.offer(i),
            Err(f) => self.close(i, Ending::Failed(f)),
        }
    }

    /// The connection opened before the test (connected in `took`): open for requests,
    /// or its handshake begun over TLS.
    fn adopt(&mut self, s: std::net::TcpStream, took: Duration) -> Result<(), LoadError> {
        s.set_nonblocking(true)
            .map_err(system("cannot use the connection"))?;
        let _ = s.set_nodelay(true);
        let cannot = |f: Failure| LoadError::System {
            what: "cannot use the connection",
            cause: f.detail,
        };
        let s = mio::net::TcpStream::from_std(s);
        self.rec.setup.connected(took);
        let phase = match self.plan.tls {
            Some(_) => Phase::Handshaking,
            None => Phase::Open,
        };
        let i = self.insert(s, phase).map_err(cannot)?;
        if phase == Phase::Handshaking {
            self.connecting += 1;
            self.advance_handshake(i).map_err(cannot)?;
        } else {
            self.offer(i);
        }
        Ok(())
    }

    fn connect(&mut self) -> Result<usize, Failure> {
        let s = mio::net::TcpStream::connect(self.plan.addr).map_err(|e| connect_failure(&e))?;
        let i = self.insert(s, Phase::Connecting)?;
        self.connecting += 1;
        Ok(i)
    }

    /// The transport for a new socket: plain, or a new TLS session over it.
    fn transport(&self, s: mio::net::TcpStream) -> Result<Transport, Failure> {
        let Some(tls) = &self.plan.tls else {
            return Ok(Transport::Plain(s));
        };
        let session = rustls::ClientConnection::new(Arc::clone(&tls.config), tls.name.clone())
            .map_err(|e| Failure {
                kind: "TLS handshake failed",
                detail: e.to_string(),
            })?;
        Ok(Transport::tls(s, session))
    }

    fn insert(&mut self, mut s: mio::net::TcpStream, phase: Phase) -> Result<usize, Failure> {
        let i = self.free.pop().unwrap_or(self.conns.len());
        self.poll
            .registry()
            .register(&mut s, Token(i), Interest::READABLE | Interest::WRITABLE)
            .map_err(|e| connect_failure(&e))?;
        let transport = match self.transport(s) {
            Ok(t) => t,
            Err(f) => {
                self.free.push(i);
                return Err(f);
            }
        };
        let c = Conn::new(
            transport,
            phase,
            self.plan.max_body,
            self.plan.head,
            self.plan.pipeline,
        );
        if i == self.conns.len() {
            self.conns.push(Some(c));
        } else {
            self.conns[i] = Some(c);
        }
        self.open += 1;
        self.opened += 1;
        Ok(i)
    }

    /// Sleeps (on the timer) or polls until `next`, a due time or the end.
    fn wait(&mut self, next: Instant, now: Instant, events: &mut Events) {
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
                Phase::Open if ev.is_writable() => c.flush(&self.plan.request).map(|()| true),
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

    /// After a writable event while connecting: false while the connect is under way.
    /// Once connected (and over TLS, once the handshake is done: `advance_handshake`)
    /// the queued request is written, the connection offered for more, and waiting
    /// requests may open further connections.
    fn finish_connect(&mut self, i: usize) -> Result<bool, Failure> {
        let c = self.conns[i].as_mut().expect("a live connection");
        if !c.connected()? {
            return Ok(false);
        }
        self.rec.setup.connected(c.connected_at - c.began);
        if c.phase == Phase::Handshaking {
            return self.advance_handshake(i);
        }
        self.opened_now(i)
    }

    /// The TLS handshake moved on with an event; once done the connection is open.
    fn advance_handshake(&mut self, i: usize) -> Result<bool, Failure> {
        let c = self.conns[i].as_mut().expect("a live connection");
        if !c.handshake()? {
            return Ok(false);
        }
        let took = self.clock.now().saturating_duration_since(c.connected_at);
        self.rec.setup.handshaken(took, c.transport.resumed());
        self.opened_now(i)
    }

    /// A connection just became open: its queued request goes out.
    fn opened_now(&mut self, i: usize) -> Result<bool, Failure> {
        self.connecting -= 1;
        let c = self.conns[i].as_mut().expect("a live connection");
        c.flush(&self.plan.request)?;
        self.offer(i);
        if !self.waiting.is_empty() {
            self.grow(self.clock.now());
        }
        Ok(true)
    }

    /// Connections being opened at once: a few with keep-alive (a burst waits for
    /// them), the in-flight bound with a new connection per request (every request
    /// opens one).
    fn max_connecting(&self) -> usize {
        if self.plan.new_connection {
            self.plan.max_connections
        } else {
            MAX_CONNECTING
        }
    }

    /// Puts connection `i` on the free list if it is open, has room and is not there
    /// yet (with a new connection per request: only if it never carried one).
    fn offer(&mut self, i: usize) {
        let Some(c) = self.conns[i].as_mut() else {
            return;
        };
        let unused = !self.plan.new_connection || (c.served == 0 && c.inflight.is_empty());
        if c.phase == Phase::Open && c.inflight.len() < self.plan.pipeline && !c.listed && unused {
            c.listed = true;
            self.ready.push(i);
        }
    }

    fn read(&mut self, i: usize, to_the_end: bool) {
        let mut done = std::mem::take(&mut self.done);
        let c = self.conns[i].as_mut().expect("a live connection");
        let result = c.read(to_the_end, &mut done);
        let mut close = None;
        for (r, resp, at) in done.drain(..) {
            self.in_flight -= 1;
            let outcome = if resp.status >= 400 {
                Answer::Status(resp.status)
            } else {
                Answer::Ok
            };
            self.rec.body(r.due, resp.body.0);
            self.rec.done(r.due, r.sent, at, outcome);
            if resp.close {
                close = Some(Ending::Closed);
            }
        }
        self.done = done;
        match (result, close) {
            (Err(f), _) => self.close(i, Ending::Failed(f)),
            (Ok(Some(end)), _) | (Ok(None), Some(end)) => self.close(i, end),
            (Ok(None), None) => self.room(i),
        }
    }

    /// The connection has room again: the oldest waiting request, the next closed-loop
    /// request, or onto the free list.
    fn room(&mut self, i: usize) {
        let c = self.conns[i].as_ref().expect("a live connection");
        if self.plan.new_connection && c.served > 0 {
            // Its one request answered: closed, and the next request opens its own.
            if c.inflight.is_empty() {
                self.close(i, Ending::Closed);
            }
            return;
        }
        let now = self.clock.now();
        if c.inflight.len() >= self.plan.pipeline {
            return;
        }
        if let Some(w) = self.waiting.pop_front() {
            self.start_waiting(i, w, now);
        } else if matches!(self.plan.work, Work::Closed(_)) {
            if now < self.plan.end {
                self.send(i, now, false);
            }
        } else {
            self.offer(i);
        }
    }

    /// Ends a connection. Its requests fail, except those a closed keep-alive
    /// connection never began to answer: sent again once, like browsers and hyper do
    /// (an idempotent request only).
    fn close(&mut self, i: usize, why: Ending) {
        let Some(mut c) = self.conns[i].take() else {
            return;
        };
        if c.phase != Phase::Open {
            self.connecting -= 1;
        }
        let _ = self.poll.registry().deregister(c.transport.socket());
        self.free.push(i);
        self.open -= 1;
        let now = self.clock.now();
        let clean = c.between_answers();
        let mut first = true;
        while let Some(r) = c.inflight.pop_front() {
            self.in_flight -= 1;
            let retry = why == Ending::Closed
                && clean
                && c.served > 0
                && self.plan.idempotent
                && !r.retried;
            if retry {
                self.rec.retried(r.due);
                self.waiting.push_front(Waiting {
                    due: r.due,
                    since: now,
                    retried: true,
                    bound_full: false,
                });
                continue;
            }
            let f = match (&why, first) {
                (Ending::Failed(f), true) => f.clone(),
                (Ending::Closed, true) if c.served == 0 => Failure {
                    kind: "connection closed before a response",
                    detail: "the server accepted the connection and closed it without answering"
                        .into(),
                },
                (Ending::Closed, true) => Failure {
                    kind: "connection closed before a response",
                    detail: format!("closed after {} answers on it", c.served),
                },
                _ => Failure {
                    kind: "connection closed before a response",
                    detail: "pipelined behind a request whose connection failed".into(),
                },
            };
            first = false;
            self.rec.done(r.due, r.sent, now, Answer::Failed(f));
        }
        self.grow(now);
    }

    /// New connections, within the bounds, for waiting requests, or to replace a closed
    /// one in the closed loop.
    fn grow(&mut self, now: Instant) {
        let closed = matches!(self.plan.work, Work::Closed(_));
        while self.open < self.plan.max_connections && self.connecting < self.max_connecting() {
            let w = self.waiting.pop_front();
            if w.is_none() && !(closed && now < self.plan.end) {
                return;
            }
            match self.connect() {
                Ok(i) => match w {
                    Some(w) => self.start_waiting(i, w, now),
                    None => self.send(i, now, false),
                },
                Err(f) => {
                    // Fail one request, not the test: the next close or due time tries again.
                    if let Some(w) = w {
                        self.rec.done(w.due, now, now, Answer::Failed(f));
                    }
                    return;
                }
            }
            if closed {
                return;
            }
        }
    }

    fn start_waiting(&mut self, i: usize, w: Waiting, now: Instant) {
        if w.bound_full {
            self.rec.waited_for_slot(w.due, now - w.since);
        }
        self.send(i, w.due, w.retried);
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

    /// Requests past their deadline fail as timeouts (and take their connection with
    /// them: a late answer would arrive for the wrong request); waiting requests past
    /// theirs fail without being sent.
    fn expire(&mut self, now: Instant) {
        for i in 0..self.conns.len() {
            let late = self.conns[i]
                .as_ref()
                .and_then(|c| c.inflight.front())
                .is_some_and(|r| r.deadline <= now);
            if late {
                let c = self.conns[i].as_mut().expect("checked");
                let r = c.inflight.pop_front().expect("checked");
                self.in_flight -= 1;
                let answer =
                    if c.phase == Phase::Handshaking {
                        Answer::Failed(Failure {
                            kind: "TLS handshake timeout",
                            detail: format!(
                            "the TLS handshake had not finished {} after the connection was made",
                            plumb_model::format::time(now.saturating_duration_since(c.connected_at))
                        ),
                        })
                    } else {
                        Answer::Timeout
                    };
                self.rec.done(r.due, r.sent, now, answer);
                self.close(
                    i,
                    Ending::Failed(Failure {
                        kind: "connection closed before a response",
                        detail: "pipelined behind a request that timed out".into(),
                    }),
                );
            }
        }
        while self
            .waiting
            .front()
            .is_some_and(|w| w.since + self.plan.timeout <= now)
        {
            let w = self.waiting.pop_front().expect("checked");
            self.rec.failed_unsent(
                w.due,
                "timeout waiting for a free connection",
                "every connection stayed busy (the in-flight bound) for the whole timeout",
            );
        }
    }

    /// The measured window is over: requests still waiting for a connection were never
    /// sent; answers in flight are awaited at most `drain`.
    fn drain(&mut self, events: &mut Events, stop: &AtomicBool) -> bool {
        self.never_taken(self.plan.end);
        while let Some(w) = self.waiting.pop_front() {
            self.rec.failed_unsent(
                w.due,
                "not sent: every connection busy until the end",
                "the in-flight bound was full from this request's due time to the end of the test",
            );
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
                    .failed_unsent(r.due, "unfinished when the drain ended", &detail);
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
                self.rec.abandoned(r.due);
            }
        }
        for w in self.waiting.drain(..) {
            self.rec.abandoned(w.due);
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

#[cfg(test)]
mod tests;
