//! The coordinator of N agents: takes their joins (refusing a stranger, a mismatch, an
//! index taken twice, a join after the start), waits until all N have measured their
//! clocks, gives one start, follows their live counts, and collects their results. An
//! agent that goes silent or away after the start is lost: the outcome says so, and
//! which. It never tells an agent what to load: agents bring their own terms.
use super::auth::Token;
use super::clock::Offset;
use super::messages::FromCoordinator;
pub use super::serve::Live as AgentLive;
use super::serve::{self, Event, Writer};
use super::terms::Terms;
use plumb_model::quantity::Timestamp;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Connections not yet joined, at most, at once, and from one address: more are closed
/// on arrival.
const MAX_UNJOINED: usize = 64;
const MAX_UNJOINED_PER_ADDRESS: usize = 8;
const LOOK_EVERY: Duration = Duration::from_millis(50);

fn time(d: Duration) -> String {
    plumb_model::format::time(plumb_model::quantity::Duration::from(d))
}

pub struct Options {
    /// Agents awaited.
    pub count: u32,
    /// The start is given this far ahead of the moment the last agent is ready.
    pub lead: Duration,
    /// After the start, an agent unheard for this long is lost.
    pub silence: Duration,
    /// All agents must have joined within this, if set.
    pub join_within: Option<Duration>,
    /// An agent whose clock offset is uncertain by more than this is refused.
    pub max_uncertainty: Duration,
}

/// What happened, for the terminal.
pub enum Notice<'a> {
    Refused {
        peer: SocketAddr,
        /// The name the peer's terms gave, once it has proven the token.
        name: Option<&'a str>,
        reason: &'a str,
    },
    Joined {
        part: &'a Part,
        joined: usize,
        count: u32,
    },
    Left {
        part: &'a Part,
        reason: &'a str,
    },
    Clock {
        part: &'a Part,
        offset: Offset,
    },
    Start {
        at: Timestamp,
    },
    Live {
        part: &'a Part,
        live: &'a serve::Live,
    },
    Received {
        part: &'a Part,
    },
    Failed {
        part: &'a Part,
        message: &'a str,
    },
    Lost {
        part: &'a Part,
        reason: &'a str,
    },
    /// Nothing happened for a moment (the terminal may redraw).
    Tick,
}

/// One agent of the test and what came of it.
pub struct Part {
    pub peer: SocketAddr,
    /// What it joined with: its index and name among them.
    pub terms: Terms,
    pub offset: Option<Offset>,
    /// Its result document (JSON), once received.
    pub result: Option<Vec<u8>>,
    /// Why it has no result: its own failure, or lost (silent, gone).
    pub failed: Option<String>,
    pub lost: Option<String>,
    conn: u64,
    writer: Writer,
    last_heard: Instant,
    receiving: bool,
}

impl Part {
    pub fn index(&self) -> u32 {
        self.terms.index
    }

    pub fn name(&self) -> &str {
        &self.terms.name
    }

    fn done(&self) -> bool {
        self.result.is_some() || self.failed.is_some() || self.lost.is_some()
    }
}

pub struct Outcome {
    /// The start on the coordinator's clock.
    pub start_at: Timestamp,
    /// Every agent that was given the start, by index.
    pub parts: Vec<Part>,
    pub interrupted: bool,
}

#[derive(Debug)]
pub enum CoordinateError {
    /// Not all agents joined in time (or before Ctrl-C); those that did, by name.
    NotAllJoined {
        joined: Vec<String>,
        count: u32,
        stopped: bool,
    },
}

impl std::fmt::Display for CoordinateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let CoordinateError::NotAllJoined {
            joined,
            count,
            stopped,
        } = self;
        let why = if *stopped {
            "stopped"
        } else {
            "gave up waiting"
        };
        write!(
            f,
            "{why} with {} of {count} agents ready ({}): no load was sent",
            joined.len(),
            if joined.is_empty() {
                "none".to_string()
            } else {
                joined.join(", ")
            }
        )
    }
}

impl std::error::Error for CoordinateError {}

struct State<'n> {
    opts: &'n Options,
    parts: Vec<Part>,
    start: Option<(Instant, Timestamp)>,
    notify: &'n mut dyn FnMut(Notice),
}

/// Runs the coordination on `listener` until every agent given the start has a result,
/// failed, or is lost (or `stop`).
pub fn coordinate(
    listener: TcpListener,
    token: Token,
    opts: &Options,
    stop: &AtomicBool,
    notify: &mut dyn FnMut(Notice),
) -> Result<Outcome, CoordinateError> {
    let (tx, rx) = channel();
    let done = Arc::new(AtomicBool::new(false));
    let acceptor = accept_all(listener, Arc::new(token), tx, done.clone());
    let mut state = State {
        opts,
        parts: Vec::new(),
        start: None,
        notify,
    };
    let result = state.run(&rx, stop);
    done.store(true, Ordering::Relaxed);
    let _ = acceptor.join();
    result
}

/// Accepts connections until `done`, each served on its own thread.
fn accept_all(
    listener: TcpListener,
    token: Arc<Token>,
    tx: Sender<Event>,
    done: Arc<AtomicBool>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let unjoined: Arc<Mutex<HashMap<IpAddr, usize>>> = Arc::default();
        let _ = listener.set_nonblocking(true);
        let mut conn = 0u64;
        let mut said_accept_error = false;
        while !done.load(Ordering::Relaxed) {
            let (stream, peer) = match listener.accept() {
                Ok(s) => s,
                Err(e) => {
                    // WouldBlock: nobody waiting. Anything else (out of descriptors) is
                    // said once, and accepting goes on.
                    if e.kind() != std::io::ErrorKind::WouldBlock && !said_accept_error {
                        said_accept_error = true;
                        let peer = SocketAddr::from(([0, 0, 0, 0], 0));
                        let reason = format!("cannot accept connections: {e}");
                        let _ = tx.send(Event::Refused { peer, reason });
                    }
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
            };
            let _ = stream.set_nonblocking(false);
            if let Some(reason) = admit(&unjoined, peer.ip()) {
                let _ = tx.send(Event::Refused { peer, reason });
                continue;
            }
            conn += 1;
            let counted = Unjoined(unjoined.clone(), peer.ip());
            let (token, tx2) = (token.clone(), tx.clone());
            let spawned = std::thread::Builder::new()
                .name("plumb-agent".into())
                .spawn(move || serve::serve(stream, peer, conn, token, tx2, move || drop(counted)));
            if let Err(e) = spawned {
                let reason = format!("no thread for its connection: {e}");
                let _ = tx.send(Event::Refused { peer, reason });
            }
        }
    })
}

/// Whether one more connection from `ip` may wait to join; counts it if so. Connections
/// waiting to join are bounded in all and per address, so strangers cannot crowd out
/// the agents (each waits 5 s at most).
fn admit(unjoined: &Mutex<HashMap<IpAddr, usize>>, ip: IpAddr) -> Option<String> {
    let mut map = unjoined.lock().ok()?;
    let all: usize = map.values().sum();
    let here = map.get(&ip).copied().unwrap_or(0);
    if all >= MAX_UNJOINED {
        return Some(format!(
            "more than {MAX_UNJOINED} connections waiting to join: closed"
        ));
    }
    if here >= MAX_UNJOINED_PER_ADDRESS {
        return Some(format!(
            "more than {MAX_UNJOINED_PER_ADDRESS} connections from one address waiting to join: closed"
        ));
    }
    *map.entry(ip).or_default() += 1;
    None
}

/// Counts a connection as waiting to join until dropped.
struct Unjoined(Arc<Mutex<HashMap<IpAddr, usize>>>, IpAddr);

impl Drop for Unjoined {
    fn drop(&mut self) {
        if let Ok(mut map) = self.0.lock() {
            if let Some(n) = map.get_mut(&self.1) {
                *n -= 1;
                if *n == 0 {
                    map.remove(&self.1);
                }
            }
        }
    }
}

impl State<'_> {
    fn run(&mut self, rx: &Receiver<Event>, stop: &AtomicBool) -> Result<Outcome, CoordinateError> {
        let began = Instant::now();
        loop {
            match rx.recv_timeout(LOOK_EVERY) {
                Ok(e) => {
                    self.event(e);
                    // Everything already waiting, before silence is judged: a burst of
                    // events must not make agents that did report look silent.
                    while let Ok(e) = rx.try_recv() {
                        self.event(e);
                    }
                }
                Err(RecvTimeoutError::Timeout) => (self.notify)(Notice::Tick),
                // Cannot happen while this holds a sender's clone through the acceptor;
                // were it to, waiting keeps the loop from spinning.
                Err(RecvTimeoutError::Disconnected) => std::thread::sleep(LOOK_EVERY),
            }
            let stopped = stop.load(Ordering::Relaxed);
            match self.start {
                None => {
                    let late = self.opts.join_within.is_some_and(|w| began.elapsed() > w);
                    if stopped || late {
                        return Err(self.give_up(stopped));
                    }
                    self.maybe_start();
                }
                Some((at, start_at)) => {
                    self.police_silence(at);
                    if stopped {
                        self.lose_rest("the coordinator was stopped by a signal");
                    }
                    if self.parts.iter().all(Part::done) {
                        let mut parts = std::mem::take(&mut self.parts);
                        parts.sort_by_key(|p| p.index());
                        return Ok(Outcome {
                            start_at,
                            parts,
                            interrupted: stopped,
                        });
                    }
                }
            }
        }
    }

    fn part(&mut self, conn: u64) -> Option<usize> {
        self.parts.iter().position(|p| p.conn == conn)
    }

    fn event(&mut self, e: Event) {
        match e {
            Event::Refused { peer, reason } => (self.notify)(Notice::Refused {
                peer,
                name: None,
                reason: &reason,
            }),
            Event::Join {
                conn,
                peer,
                terms,
                writer,
            } => self.join(conn, peer, terms, writer),
            Event::Clock { conn, offset } => self.clock(conn, offset),
            Event::Live { conn, live } => {
                if let Some(i) = self.part(conn) {
                    // When it arrived, not when this loop came to it.
                    let p = &mut self.parts[i];
                    p.last_heard = p.last_heard.max(live.arrived);
                    (self.notify)(Notice::Live {
                        part: &self.parts[i],
                        live: &live,
                    });
                }
            }
            Event::Receiving { conn } => {
                if let Some(i) = self.part(conn) {
                    self.parts[i].receiving = true;
                }
            }
            Event::Result { conn, document } => {
                if let Some(i) = self.part(conn) {
                    let p = &mut self.parts[i];
                    p.result = Some(document);
                    serve::send(&p.writer, &FromCoordinator::Received);
                    (self.notify)(Notice::Received {
                        part: &self.parts[i],
                    });
                }
            }
            Event::Failed { conn, message } => {
                if let Some(i) = self.part(conn) {
                    self.parts[i].failed = Some(message.clone());
                    (self.notify)(Notice::Failed {
                        part: &self.parts[i],
                        message: &message,
                    });
                }
            }
            Event::Gone { conn, reason } => self.gone(conn, &reason),
        }
    }

    fn join(&mut self, conn: u64, peer: SocketAddr, terms: Terms, writer: Writer) {
        let refusal = self.refusal(&terms);
        if let Some(reason) = refusal {
            serve::refuse(&writer, &reason);
            (self.notify)(Notice::Refused {
                peer,
                name: Some(&terms.name),
                reason: &reason,
            });
            return;
        }
        self.parts.push(Part {
            peer,
            terms,
            offset: None,
            result: None,
            failed: None,
            lost: None,
            conn,
            writer,
            last_heard: Instant::now(),
            receiving: false,
        });
        let joined = self.parts.len();
        let count = self.opts.count;
        let p = self.parts.last().expect("just pushed");
        serve::send(
            &p.writer,
            &FromCoordinator::Welcome {
                joined: joined as u32,
                count,
            },
        );
        (self.notify)(Notice::Joined {
            part: p,
            joined,
            count,
        });
    }

    /// Why an agent with these terms may not join, if it may not.
    fn refusal(&self, terms: &Terms) -> Option<String> {
        if self.start.is_some() {
            return Some("it joined after the start: a late agent would send its share late; start the test again".into());
        }
        if terms.count != self.opts.count {
            return Some(format!(
                "--agents {} where the coordinator waits for {}",
                terms.count, self.opts.count
            ));
        }
        if terms.index >= terms.count {
            return Some(format!(
                "index {} is not below --agents {}",
                terms.index, terms.count
            ));
        }
        if let Some(p) = self.parts.iter().find(|p| p.index() == terms.index) {
            return Some(format!(
                "index {} is already {}'s ({}): two agents would send the same arrivals",
                terms.index,
                p.name(),
                p.peer
            ));
        }
        // Against the agents joined now: one that left with a mistaken option does not
        // keep refusing its corrected restart.
        let d = self
            .parts
            .first()
            .and_then(|r| terms.differs_from(&r.terms))?;
        Some(format!(
            "{} {} where the others have {}",
            d.option, d.this, d.others
        ))
    }

    fn clock(&mut self, conn: u64, offset: Offset) {
        // One report an agent, before the start (its connection's thread refuses a second).
        let Some(i) = self.part(conn).filter(|_| self.start.is_none()) else {
            return;
        };
        let uncertainty = offset.uncertainty().to_std();
        if uncertainty > self.opts.max_uncertainty {
            let reason = format!(
                "its clock offset is uncertain by {} (half the best round trip of its clock rounds), more than the {} --max-skew allows",
                time(uncertainty),
                time(self.opts.max_uncertainty)
            );
            let p = self.parts.remove(i);
            serve::refuse(&p.writer, &reason);
            (self.notify)(Notice::Left {
                part: &p,
                reason: &reason,
            });
            return;
        }
        self.parts[i].offset = Some(offset);
        (self.notify)(Notice::Clock {
            part: &self.parts[i],
            offset,
        });
    }

    /// All N ready: one start for all, `lead` from now.
    fn maybe_start(&mut self) {
        let ready = self.parts.iter().filter(|p| p.offset.is_some()).count();
        if ready < self.opts.count as usize {
            return;
        }
        let at_time = Timestamp::now().plus(self.opts.lead.into());
        let at = Instant::now() + self.opts.lead;
        let mut unsent = Vec::new();
        for (i, p) in self.parts.iter_mut().enumerate() {
            if !serve::send(&p.writer, &FromCoordinator::Start { at: at_time }) {
                unsent.push(i);
            }
            p.last_heard = at;
        }
        self.start = Some((at, at_time));
        (self.notify)(Notice::Start { at: at_time });
        for i in unsent {
            self.lose(i, "the start could not be sent to it");
        }
    }

    fn gone(&mut self, conn: u64, reason: &str) {
        let Some(i) = self.part(conn) else { return };
        if self.start.is_none() {
            let p = self.parts.remove(i);
            (self.notify)(Notice::Left { part: &p, reason });
        } else if !self.parts[i].done() {
            let reason = format!("its connection ended before its result ({reason})");
            self.lose(i, &reason);
        }
    }

    fn police_silence(&mut self, at: Instant) {
        let now = Instant::now();
        for i in 0..self.parts.len() {
            let p = &self.parts[i];
            let since = now.saturating_duration_since(p.last_heard.max(at));
            if !p.done() && !p.receiving && now > at && since > self.opts.silence {
                let reason = format!(
                    "silent for {} after the start (killed, stopped, or cut off)",
                    time(since)
                );
                self.lose(i, &reason);
            }
        }
    }

    fn lose(&mut self, i: usize, reason: &str) {
        let p = &mut self.parts[i];
        p.lost = Some(reason.to_string());
        if let Ok(w) = p.writer.lock() {
            let _ = w.shutdown(std::net::Shutdown::Both);
        }
        (self.notify)(Notice::Lost {
            part: &self.parts[i],
            reason,
        });
    }

    fn lose_rest(&mut self, reason: &str) {
        for i in 0..self.parts.len() {
            if !self.parts[i].done() {
                self.lose(i, reason);
            }
        }
    }

    fn give_up(&mut self, stopped: bool) -> CoordinateError {
        let reason = if stopped {
            "the coordinator was stopped before the start"
        } else {
            "not every agent joined in time"
        };
        for p in &self.parts {
            serve::refuse(&p.writer, reason);
        }
        CoordinateError::NotAllJoined {
            joined: self.parts.iter().map(|p| p.name().to_string()).collect(),
            count: self.opts.count,
            stopped,
        }
    }
}
