//! The line on stderr while a load test runs: elapsed time, the rate achieved over the
//! last half second, errors, and p50/p99 of everything measured so far, drawn only when
//! stderr is a terminal (before a `--start-at`, a countdown to it). The drain after the
//! measured window is announced either way once it lasts long enough to notice, with its
//! bound. A coordinated test's agent hands every tick on to its uplink too.

use crate::agents::uplink::UplinkFeed;
use crate::http::{LiveCounts, LiveFeed, LiveTick, LIVE_EVERY};
use plumb_model::format;
use std::io::{IsTerminal, Write};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

/// A drain shorter than this goes unmentioned.
const ANNOUNCE_DRAIN_AFTER: Duration = Duration::from_millis(250);

pub struct Live {
    tx: Option<Sender<LiveTick>>,
    draw: bool,
    /// A coordinated test's agent: the counts go to the coordinator too.
    uplink: bool,
    handle: Option<JoinHandle<()>>,
}

struct View {
    draw: bool,
    uplink: Option<UplinkFeed>,
    warmup: Duration,
    drain: Duration,
    started: Instant,
    /// Everything measured so far.
    total: LiveCounts,
    window_ok: u64,
    window_from: Instant,
    draining: Vec<usize>,
    drain_since: Option<Instant>,
    announced: bool,
}

impl Live {
    /// `start_at`: when the schedule starts, if later than now (`--start-at`).
    pub fn start(
        threads: usize,
        warmup: Duration,
        drain: Duration,
        start_at: Option<SystemTime>,
        uplink: Option<UplinkFeed>,
    ) -> Live {
        let (tx, rx) = channel();
        let until_start = start_at
            .and_then(|at| at.duration_since(SystemTime::now()).ok())
            .unwrap_or_default();
        let now = Instant::now() + until_start;
        let draw = std::io::stderr().is_terminal();
        let counted = uplink.is_some();
        let view = View {
            draw,
            uplink,
            warmup,
            drain,
            started: now,
            total: LiveCounts::new(),
            window_ok: 0,
            window_from: now,
            draining: vec![0; threads],
            drain_since: None,
            announced: false,
        };
        let handle = std::thread::Builder::new()
            .name("plumb-live".into())
            .spawn(move || view.run(rx))
            .ok();
        Live {
            tx: Some(tx),
            draw,
            uplink: counted,
            handle,
        }
    }

    /// The feed for the generator (counts only when a line is drawn or a coordinator
    /// follows them); the line ends when every copy of it is dropped.
    pub fn feed(&mut self) -> Option<LiveFeed> {
        let counts = self.draw || self.uplink;
        self.tx.take().map(|tx| LiveFeed { tx, counts })
    }

    pub fn finish(mut self) {
        self.tx = None;
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

impl View {
    fn run(mut self, rx: Receiver<LiveTick>) {
        let mut next_draw = Instant::now() + LIVE_EVERY;
        // Each wake-up of this thread can take the CPU from a generator thread about to
        // send. Without a line to draw it wakes only as often as the drain's announcement
        // needs: 8 agents sharing one core (bench/agents.sh) sent with a send lateness p99
        // of 24.5 µs instead of 38.5 µs (median of 24 agents), and the gaps between their
        // requests at the server went from 1.17 to 0.94 times as uneven as one generator's.
        let look = if self.draw {
            Duration::from_millis(50)
        } else {
            ANNOUNCE_DRAIN_AFTER
        };
        loop {
            match rx.recv_timeout(look) {
                Ok(t) => self.add(t),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            let now = Instant::now();
            self.maybe_announce(now);
            if self.draw && now >= next_draw {
                self.line(now);
                next_draw = now + LIVE_EVERY;
            }
        }
        if self.draw {
            eprint!("\r\x1b[2K");
            let _ = std::io::stderr().flush();
        }
    }

    fn add(&mut self, t: LiveTick) {
        if let Some(u) = &self.uplink {
            u.tick(&t);
        }
        if let Some(c) = &t.counts {
            self.total.add(c);
            self.window_ok += c.ok;
        }
        if let Some(n) = t.draining {
            if let Some(slot) = self.draining.get_mut(t.thread) {
                *slot = n;
            }
            let total: usize = self.draining.iter().sum();
            self.drain_since = match (total, self.drain_since) {
                (0, _) => None,
                (_, Some(s)) => Some(s),
                (_, None) => Some(Instant::now()),
            };
        }
    }

    fn maybe_announce(&mut self, now: Instant) {
        let Some(since) = self.drain_since else {
            return;
        };
        if self.announced || now - since < ANNOUNCE_DRAIN_AFTER {
            return;
        }
        self.announced = true;
        let n: usize = self.draining.iter().sum();
        let clear = if self.draw { "\r\x1b[2K" } else { "" };
        eprintln!(
            "{clear}plumb: the measured window is over; waiting up to {} (--drain) for {n} answer{} still in flight",
            // A setting: as the user writes it (`2s`).
            plumb_model::quantity::Duration::from(self.drain),
            if n == 1 { "" } else { "s" }
        );
    }

    fn line(&mut self, now: Instant) {
        if now < self.started {
            eprint!(
                "\r\x1b[2K  starts in {} (--start-at)",
                format::time(self.started - now)
            );
            let _ = std::io::stderr().flush();
            return;
        }
        let elapsed = now - self.started;
        let rate = self.window_ok as f64 / (now - self.window_from).as_secs_f64().max(1e-3);
        self.window_ok = 0;
        self.window_from = now;
        let phase = if elapsed < self.warmup {
            "warm-up "
        } else {
            ""
        };
        let q = |p: f64| {
            if self.total.latency.is_empty() {
                "-".to_string()
            } else {
                format::time(plumb_model::quantity::Duration::from_micros(
                    plumb_model::value_at_percentile(&self.total.latency, p),
                ))
            }
        };
        eprint!(
            "\r\x1b[2K  {phase}{:>9}  {:>9.0} req/s  {} errors  p50 {}  p99 {}",
            format::time(elapsed),
            rate,
            self.total.errors,
            q(50.0),
            q(99.0)
        );
        let _ = std::io::stderr().flush();
    }
}
