//! What `plumb coordinate` says while it runs: each join, refusal, clock and loss as a
//! line on stderr, and on a terminal the merged live line (every agent's counts added:
//! the rate over the last half second, errors, p50/p99 so far, agents reporting).
use crate::agents::clock::ClockOffset;
use crate::agents::coordinator::Notice;
use crate::http::LiveCounts;
use plumb_model::format;
use plumb_model::quantity::{Duration, Timestamp};
use std::collections::BTreeSet;
use std::io::{IsTerminal, Write};
use std::time::{Duration as StdDuration, Instant};

pub struct View {
    draw: bool,
    count: u32,
    start: Option<Instant>,
    /// Every agent's counts so far, added up.
    total: LiveCounts,
    window_ok: u64,
    window_from: Instant,
    next_draw: Instant,
    reporting: BTreeSet<u32>,
    lost: usize,
    refusals: u32,
    refusals_from: Instant,
    unsaid: u64,
}

impl View {
    pub fn new(count: u32) -> View {
        View {
            draw: std::io::stderr().is_terminal(),
            count,
            start: None,
            total: LiveCounts::new(),
            window_ok: 0,
            window_from: Instant::now(),
            next_draw: Instant::now(),
            reporting: BTreeSet::new(),
            lost: 0,
            refusals: 0,
            refusals_from: Instant::now(),
            unsaid: 0,
        }
    }

    pub fn notice(&mut self, n: Notice) {
        match n {
            Notice::Refused { peer, name, reason } => match name {
                Some(name) => self.refused(&format!("refused {name} ({peer}): {reason}")),
                None => self.refused(&format!("refused {peer}: {reason}")),
            },
            Notice::Joined {
                part,
                joined,
                count,
            } => self.say(&format!(
                "{} joined from {} ({joined} of {count})",
                part.name(),
                part.peer
            )),
            Notice::Left { part, reason } => {
                self.say(&format!("{} left before the start: {reason}", part.name()))
            }
            Notice::Clock { part, offset } => {
                self.say(&format!(
                    "{}'s clock is {} this one's (± {})",
                    part.name(),
                    offset.offset.way_of(),
                    format::time(offset.uncertainty())
                ));
                if let Some(w) = beyond_warmup(part, offset.offset) {
                    self.say(&w);
                }
            }
            Notice::Start { at } => self.started(at),
            Notice::Live { part, live } => {
                self.reporting.insert(part.index());
                self.add(live);
            }
            Notice::Received { part } => self.say(&format!("{}'s result received", part.name())),
            Notice::Failed { part, message } => {
                self.say(&format!("{} failed: {message}", part.name()))
            }
            Notice::Lost { part, reason } => {
                self.lost += 1;
                self.say(&format!("{} lost: {reason}", part.name()))
            }
            Notice::Tick => {}
        }
        self.maybe_draw();
    }

    fn started(&mut self, at: Timestamp) {
        let lead = at.since(Timestamp::now());
        self.start = Some(Instant::now() + lead.to_std());
        self.window_from = Instant::now() + lead.to_std();
        self.say(&format!(
            "all {} agents ready: the test starts at {at} (in {})",
            self.count,
            format::time(lead)
        ));
    }

    fn add(&mut self, live: &crate::agents::coordinator::AgentLive) {
        self.total.add(&live.counts);
        self.window_ok = self.window_ok.saturating_add(live.counts.ok);
    }

    /// A line of its own; control characters in it (an agent's name, a reason it sent)
    /// are written escaped, so no peer can move the cursor or forge a line.
    /// Refusals of strangers come as fast as they connect: a few a second are said, the
    /// rest counted (and the count said with the next line).
    fn refused(&mut self, line: &str) {
        let now = Instant::now();
        if now.duration_since(self.refusals_from) >= StdDuration::from_secs(1) {
            self.refusals_from = now;
            self.refusals = 0;
        }
        if self.refusals >= 5 {
            self.unsaid += 1;
            return;
        }
        self.refusals += 1;
        self.say(line);
    }

    fn say(&mut self, line: &str) {
        let clear = if self.draw { "\r\x1b[2K" } else { "" };
        if self.unsaid > 0 {
            eprintln!("{clear}plumb: ({} more refusals not shown)", self.unsaid);
            self.unsaid = 0;
        }
        let shown: String = line
            .chars()
            .flat_map(|c| -> Box<dyn Iterator<Item = char>> {
                if c.is_control() {
                    Box::new(c.escape_default())
                } else {
                    Box::new(std::iter::once(c))
                }
            })
            .collect();
        eprintln!("{clear}plumb: {shown}");
    }

    fn maybe_draw(&mut self) {
        let now = Instant::now();
        if !self.draw || now < self.next_draw {
            return;
        }
        self.next_draw = now + crate::http::LIVE_EVERY;
        let Some(start) = self.start else { return };
        if now < start {
            eprint!(
                "\r\x1b[2K  starts in {}",
                format::time(Duration::from(start - now))
            );
            let _ = std::io::stderr().flush();
            return;
        }
        let rate = self.window_ok as f64 / (now - self.window_from).as_secs_f64().max(1e-3);
        self.window_ok = 0;
        self.window_from = now;
        let q = |p: f64| {
            if self.total.latency.is_empty() {
                "-".to_string()
            } else {
                format::time(Duration::from_micros(plumb_model::value_at_percentile(
                    &self.total.latency,
                    p,
                )))
            }
        };
        eprint!(
            "\r\x1b[2K  {:>9}  {:>9.0} req/s  {} errors  p50 {}  p99 {}  {}/{} agents reporting{}",
            format::time(Duration::from(now - start)),
            rate,
            self.total.errors,
            q(50.0),
            q(99.0),
            self.reporting.len(),
            self.count,
            if self.lost > 0 {
                format!(", {} lost", self.lost)
            } else {
                String::new()
            }
        );
        let _ = std::io::stderr().flush();
    }

    pub fn finish(&self) {
        if self.draw {
            eprint!("\r\x1b[2K");
            let _ = std::io::stderr().flush();
        }
    }
}

/// An agent whose clock is further from this one's than the warm-up: its share still
/// starts on time (the start is moved onto its clock), but its own timestamps (an
/// `--hlog`, its logs) are that far off, and without the coordinator the agents would not
/// have started within the warm-up of each other.
fn beyond_warmup(part: &crate::agents::coordinator::Part, offset: ClockOffset) -> Option<String> {
    let warmup: Duration = part.terms.agreed.get("--warmup")?.parse().ok()?;
    (offset.magnitude() > warmup).then(|| {
        format!(
            "{}'s clock is {} off, more than the warm-up ({warmup}): its start is moved onto its clock, but its own timestamps (its --hlog, its logs) are that far off; is its clock synchronised (chrony, ntpd)?",
            part.name(),
            format::time(offset.magnitude())
        )
    })
}
