//! The coordinator's side of one agent's connection, on a thread of its own: the hello
//! and both proofs of the token, the join handed to the coordinator to decide, clock
//! rounds answered here (so their timing does not wait on anything else), and then what
//! the agent reports, checked and handed on with the moment it arrived. Every read is
//! bounded in size (`wire`); the exchanges before the join share one deadline; after
//! the join, messages are bounded in number (one clock report, one ending, a rate for
//! the rest) and a result must keep arriving.
use super::auth::{self, Token, NONCE_LEN};
use super::clock::Offset;
use super::messages::{self, hex, unhex, FromAgent, FromCoordinator, LiveLatency};
use super::terms::Terms;
use super::wire;
use crate::http::LiveCounts;
use plumb_model::quantity::Timestamp;
use std::io::Read;
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A peer must prove the token and join within this, all told (a peer trickling bytes
/// cannot hold a connection longer).
const JOIN_WITHIN: Duration = Duration::from_secs(5);
/// Clock rounds one agent may ask for.
const MAX_PINGS: u32 = 64;
/// Messages after the join other than clock rounds: a burst of this many, then this
/// many a second (an agent sends two a second).
const BURST: f64 = 20.0;
const PER_SECOND: f64 = 4.0;
/// A result's bytes must keep coming: no read of it may wait longer than this.
const RESULT_STALL: Duration = Duration::from_secs(30);
/// Writes to an agent wait at most this: one agent that stops reading cannot hold up
/// the others' start.
const WRITE_WITHIN: Duration = Duration::from_secs(5);

/// Writes to an agent come from this thread (pongs) and the coordinator's (the rest).
pub type Writer = Arc<Mutex<TcpStream>>;

/// One interval of an agent's live counts, as it arrived.
pub struct Live {
    pub counts: LiveCounts,
    pub in_flight: u64,
    pub draining: Option<u64>,
    pub arrived: Instant,
}

/// What a connection tells the coordinator; `conn` numbers connections.
pub enum Event {
    Refused {
        peer: SocketAddr,
        reason: String,
    },
    Join {
        conn: u64,
        peer: SocketAddr,
        terms: Terms,
        writer: Writer,
    },
    Clock {
        conn: u64,
        offset: Offset,
    },
    Live {
        conn: u64,
        live: Live,
    },
    /// A result is on its way (it may take a while to arrive: the agent is not silent).
    Receiving {
        conn: u64,
    },
    Result {
        conn: u64,
        document: Vec<u8>,
    },
    Failed {
        conn: u64,
        message: String,
    },
    Gone {
        conn: u64,
        reason: String,
    },
}

/// Sends `m`; false when it could not be written (the agent gone or not reading).
pub fn send(writer: &Writer, m: &FromCoordinator) -> bool {
    match writer.lock() {
        Ok(mut w) => messages::send(&mut *w, m).is_ok(),
        Err(_) => false,
    }
}

/// Refuses the peer: says why, and closes the connection.
pub fn refuse(writer: &Writer, reason: &str) {
    send(
        writer,
        &FromCoordinator::Refused {
            reason: reason.to_string(),
        },
    );
    if let Ok(w) = writer.lock() {
        let _ = w.shutdown(Shutdown::Both);
    }
}

/// Reads through `stream` until `until`: each read waits only for the time left, so the
/// whole exchange, not each read, is bounded.
struct Deadline<'a> {
    stream: &'a TcpStream,
    until: Instant,
}

impl Read for Deadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        (&mut &*self.stream).read(buf)
    }
}

/// `joined` is called once the peer has joined (until then it counts as a connection
/// waiting to join).
pub fn serve(
    stream: TcpStream,
    peer: SocketAddr,
    conn: u64,
    token: Arc<Token>,
    tx: Sender<Event>,
    joined: impl FnOnce(),
) {
    let until = Instant::now() + JOIN_WITHIN;
    let refused = |reason: String| Event::Refused { peer, reason };
    let (mut reader, writer, terms) = match handshake(stream, &token, until) {
        Ok(h) => h,
        Err(reason) => {
            let _ = tx.send(refused(reason.to_string()));
            return;
        }
    };
    let _ = reader.set_read_timeout(None);
    joined();
    let join = Event::Join {
        conn,
        peer,
        terms,
        writer: writer.clone(),
    };
    if tx.send(join).is_ok() {
        let reason = follow(&mut reader, &writer, conn, &tx);
        let _ = tx.send(Event::Gone { conn, reason });
    }
}

/// Why a peer was refused before it joined, for the coordinator's log (nothing the peer
/// sent is quoted: a stranger's bytes do not reach the terminal).
enum Unproven {
    /// No proof arrived in time, or the connection closed.
    NoProof(&'static str),
    /// Something other than a proof, or a frame malformed.
    NotAProof,
    /// A frame longer than allowed before the proof (the sizes said; nothing quoted).
    Oversized(String),
    WrongToken,
    /// The token proven, but no join in time, or something else in its place.
    NoJoin,
    /// The coordinator's own side failed (a socket option, no random bytes).
    Here(String),
}

impl std::fmt::Display for Unproven {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unproven::NoProof(why) => write!(f, "no proof of the token ({why})"),
            Unproven::NotAProof => f.write_str("sent something other than a proof of the token"),
            Unproven::Oversized(e) => write!(f, "no proof of the token: {e}"),
            Unproven::WrongToken => f.write_str("does not hold the token"),
            Unproven::NoJoin => f.write_str("proved the token but did not join"),
            Unproven::Here(e) => write!(f, "its connection could not be set up: {e}"),
        }
    }
}

fn no_proof(e: &messages::MessageError) -> Unproven {
    match e {
        messages::MessageError::Wire(wire::WireError::Io(io))
            if io.kind() == std::io::ErrorKind::TimedOut
                || io.kind() == std::io::ErrorKind::WouldBlock =>
        {
            Unproven::NoProof("none within 5 s")
        }
        messages::MessageError::Wire(wire::WireError::Closed | wire::WireError::Io(_)) => {
            Unproven::NoProof("the connection closed")
        }
        messages::MessageError::Wire(too_long @ wire::WireError::TooLong { .. }) => {
            Unproven::Oversized(too_long.to_string())
        }
        _ => Unproven::NotAProof,
    }
}

/// The hello, both proofs and the join, all before `until`.
fn handshake(
    stream: TcpStream,
    token: &Token,
    until: Instant,
) -> Result<(TcpStream, Writer, Terms), Unproven> {
    let here = |e: &dyn std::fmt::Display| Unproven::Here(e.to_string());
    stream.set_nodelay(true).ok();
    stream
        .set_write_timeout(Some(WRITE_WITHIN))
        .map_err(|e| here(&e))?;
    let reader = stream.try_clone().map_err(|e| here(&e))?;
    let writer: Writer = Arc::new(Mutex::new(stream));
    let nc = auth::nonce().map_err(|e| here(&e))?;
    let hello = FromCoordinator::Hello {
        protocol: messages::PROTOCOL,
        nonce: hex(&nc),
    };
    send(&writer, &hello);
    let mut timed = Deadline {
        stream: &reader,
        until,
    };
    let answer =
        messages::receive::<FromAgent>(&mut timed, wire::BEFORE_AUTH).map_err(|e| no_proof(&e))?;
    let FromAgent::Proof { nonce, proof } = answer else {
        refuse(&writer, "a proof of the token was due");
        return Err(Unproven::NotAProof);
    };
    let checked = match (unhex::<NONCE_LEN>(&nonce), unhex::<32>(&proof)) {
        (Some(na), Some(p)) => token.check_agent(&nc, &na, &p).map(|()| na).ok(),
        _ => None,
    };
    let Some(na) = checked else {
        refuse(&writer, "the token does not match");
        return Err(Unproven::WrongToken);
    };
    let proof = hex(&token.coordinator_proof(&nc, &na));
    send(&writer, &FromCoordinator::Proof { proof });
    match messages::receive::<FromAgent>(&mut timed, wire::CONTROL) {
        Ok(FromAgent::Join { terms }) => Ok((reader, writer, terms)),
        Ok(_) | Err(_) => {
            refuse(&writer, "the join was due");
            Err(Unproven::NoJoin)
        }
    }
}

/// What one agent has sent after its join, for the bounds on it.
struct Sent {
    pings: u32,
    clock: bool,
    ended: bool,
    budget: Budget,
}

/// After the join: answers pings, hands on the rest, until the connection ends (the
/// reason returned) or the agent sends more than it may.
fn follow(reader: &mut TcpStream, writer: &Writer, conn: u64, tx: &Sender<Event>) -> String {
    let mut sent = Sent {
        pings: 0,
        clock: false,
        ended: false,
        budget: Budget::new(),
    };
    loop {
        let m = match messages::receive::<FromAgent>(reader, wire::CONTROL) {
            Ok(m) => m,
            Err(e) => return e.to_string(),
        };
        let arrived = Instant::now();
        let t2 = Timestamp::now();
        if let FromAgent::Ping { t1 } = m {
            sent.pings += 1;
            if sent.pings > MAX_PINGS {
                refuse(writer, "too many clock rounds");
                return format!("asked for more than {MAX_PINGS} clock rounds: dropped");
            }
            let t3 = Timestamp::now();
            send(writer, &FromCoordinator::Pong { t1, t2, t3 });
            continue;
        }
        let event = match checked(m, &mut sent, conn, arrived) {
            Ok(e) => e,
            Err(why) => {
                let why = why.to_string();
                refuse(writer, &why);
                return format!("{why}: dropped");
            }
        };
        if let Event::Receiving { .. } = event {
            let _ = tx.send(event);
            let _ = reader.set_read_timeout(Some(RESULT_STALL));
            let document = match wire::read_frame(reader, wire::RESULT) {
                Ok(d) => d,
                Err(e) => return format!("its result did not arrive: {e}"),
            };
            let _ = reader.set_read_timeout(None);
            if tx.send(Event::Result { conn, document }).is_err() {
                return "the coordinator has finished".into();
            }
            continue;
        }
        if tx.send(event).is_err() {
            return "the coordinator has finished".into();
        }
    }
}

/// What an agent did that ends its connection.
enum Misbehaved {
    TooFast,
    AfterEnd,
    SecondClock,
    OutOfPlace,
}

impl std::fmt::Display for Misbehaved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Misbehaved::TooFast => write!(f, "sent more than {PER_SECOND} messages a second"),
            Misbehaved::AfterEnd => f.write_str("sent more after its result"),
            Misbehaved::SecondClock => f.write_str("sent a second clock report"),
            Misbehaved::OutOfPlace => f.write_str("sent a message out of place"),
        }
    }
}

/// A message after the join as an event, or why it is refused: beyond the rate, a second
/// clock report or ending, something out of place.
fn checked(
    m: FromAgent,
    sent: &mut Sent,
    conn: u64,
    arrived: Instant,
) -> Result<Event, Misbehaved> {
    if !sent.budget.take() {
        return Err(Misbehaved::TooFast);
    }
    if sent.ended {
        return Err(Misbehaved::AfterEnd);
    }
    match m {
        FromAgent::Clock { offset, round_trip } if !sent.clock => {
            sent.clock = true;
            Ok(Event::Clock {
                conn,
                offset: Offset { offset, round_trip },
            })
        }
        FromAgent::Live {
            ok,
            errors,
            latency,
            in_flight,
            draining,
        } => Ok(Event::Live {
            conn,
            live: Live {
                counts: counts(ok, errors, &latency),
                in_flight,
                draining,
                arrived,
            },
        }),
        FromAgent::Result => {
            sent.ended = true;
            Ok(Event::Receiving { conn })
        }
        FromAgent::Failed { message } => {
            sent.ended = true;
            Ok(Event::Failed { conn, message })
        }
        FromAgent::Clock { .. } => Err(Misbehaved::SecondClock),
        _ => Err(Misbehaved::OutOfPlace),
    }
}

/// An interval's counts rebuilt from the values and counts sent: into a histogram of
/// fixed bounds, so nothing the agent says can make it larger.
fn counts(ok: u64, errors: u64, latency: &[LiveLatency]) -> LiveCounts {
    let mut c = LiveCounts::new();
    c.ok = ok;
    c.errors = errors;
    for &(value, count) in latency {
        c.latency
            .saturating_record_n(value, count.min(u32::MAX as u64));
    }
    c
}

/// A token bucket: `BURST` messages, refilled at `PER_SECOND`.
struct Budget {
    tokens: f64,
    at: Instant,
}

impl Budget {
    fn new() -> Budget {
        Budget {
            tokens: BURST,
            at: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + (now - self.at).as_secs_f64() * PER_SECOND).min(BURST);
        self.at = now;
        if self.tokens < 1.0 {
            return false;
        }
        self.tokens -= 1.0;
        true
    }
}
