//! The coordinator's side of one agent's connection, on a thread of its own: the hello
//! and both proofs of the token, the join handed to the coordinator to decide, clock
//! rounds answered here (so their timing does not wait on anything else), and then what
//! the agent reports, handed on. Every read is bounded in size (`wire`), the exchanges
//! before the join in time, and the messages after it in number.
use super::auth::{self, Token, NONCE_LEN};
use super::clock::Offset;
use super::messages::{self, hex, unhex, FromAgent, FromCoordinator};
use super::terms::Terms;
use super::wire;
use plumb_model::quantity::Timestamp;
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A peer must prove the token and join within this (a silent connection holds nothing
/// for long).
const JOIN_WITHIN: Duration = Duration::from_secs(5);
/// Clock rounds one agent may ask for.
const MAX_PINGS: u32 = 64;
/// Messages after the join other than clock rounds: a burst of this many, then this
/// many a second (an agent sends two a second).
const BURST: f64 = 20.0;
const PER_SECOND: f64 = 4.0;

/// Writes to an agent come from this thread (pongs) and the coordinator's (the rest).
pub type Writer = Arc<Mutex<TcpStream>>;

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
        live: FromAgent,
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

pub fn send(writer: &Writer, m: &FromCoordinator) {
    if let Ok(mut w) = writer.lock() {
        let _ = messages::send(&mut *w, m);
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
    let refused = |reason: String| Event::Refused { peer, reason };
    match authenticate(stream, &token) {
        Err(reason) => {
            let _ = tx.send(refused(reason.to_string()));
        }
        Ok((mut reader, writer)) => {
            let join = messages::receive::<FromAgent>(&mut reader, wire::CONTROL);
            let terms = match join {
                Ok(FromAgent::Join { terms }) => terms,
                Ok(other) => {
                    refuse(&writer, "the join was due");
                    let _ = tx.send(refused(format!("sent {other:?} where its join was due")));
                    return;
                }
                Err(e) => {
                    let _ = tx.send(refused(format!("no join: {e}")));
                    return;
                }
            };
            let _ = reader.set_read_timeout(None);
            joined();
            let joined = Event::Join {
                conn,
                peer,
                terms,
                writer: writer.clone(),
            };
            if tx.send(joined).is_ok() {
                let reason = follow(&mut reader, &writer, conn, &tx);
                let _ = tx.send(Event::Gone { conn, reason });
            }
        }
    }
}

/// Why a peer was refused before it joined, for the coordinator's log.
enum Unproven {
    /// No proof arrived (a timeout, a closed connection, a frame too long or malformed).
    NoProof(messages::MessageError),
    /// Something else arrived where the proof was due.
    NotAProof,
    WrongToken,
    /// The coordinator's own side failed (a socket option, no random bytes).
    Here(String),
}

impl std::fmt::Display for Unproven {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unproven::NoProof(e) => write!(f, "no proof of the token: {e}"),
            Unproven::NotAProof => f.write_str("sent no proof of the token"),
            Unproven::WrongToken => f.write_str("does not hold the token"),
            Unproven::Here(e) => write!(f, "its connection could not be set up: {e}"),
        }
    }
}

/// The hello and both proofs.
fn authenticate(stream: TcpStream, token: &Token) -> Result<(TcpStream, Writer), Unproven> {
    let here = |e: &dyn std::fmt::Display| Unproven::Here(e.to_string());
    stream.set_nodelay(true).ok();
    stream
        .set_read_timeout(Some(JOIN_WITHIN))
        .map_err(|e| here(&e))?;
    stream
        .set_write_timeout(Some(JOIN_WITHIN))
        .map_err(|e| here(&e))?;
    let mut reader = stream.try_clone().map_err(|e| here(&e))?;
    let writer: Writer = Arc::new(Mutex::new(stream));
    let nc = auth::nonce().map_err(|e| here(&e))?;
    let hello = FromCoordinator::Hello {
        protocol: messages::PROTOCOL,
        nonce: hex(&nc),
    };
    send(&writer, &hello);
    let answer = messages::receive::<FromAgent>(&mut reader, wire::BEFORE_AUTH)
        .map_err(Unproven::NoProof)?;
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
    send(
        &writer,
        &FromCoordinator::Proof {
            proof: hex(&token.coordinator_proof(&nc, &na)),
        },
    );
    Ok((reader, writer))
}

/// After the join: answers pings, hands on the rest, until the connection ends (the
/// reason returned) or the agent sends more than it may.
fn follow(reader: &mut TcpStream, writer: &Writer, conn: u64, tx: &Sender<Event>) -> String {
    let mut pings = 0u32;
    let mut budget = Budget::new();
    loop {
        let m = match messages::receive::<FromAgent>(reader, wire::CONTROL) {
            Ok(m) => m,
            Err(e) => return e.to_string(),
        };
        let t2 = Timestamp::now();
        // Clock rounds have a bound of their own (they come in a burst at the join);
        // every other message counts against the rate.
        let ping = matches!(m, FromAgent::Ping { .. });
        if !ping && !budget.take() {
            refuse(writer, "too many messages");
            return format!("sent more than {PER_SECOND} messages a second: dropped");
        }
        let event = match m {
            FromAgent::Ping { t1 } => {
                pings += 1;
                if pings > MAX_PINGS {
                    refuse(writer, "too many clock rounds");
                    return format!("asked for more than {MAX_PINGS} clock rounds: dropped");
                }
                let t3 = Timestamp::now();
                send(writer, &FromCoordinator::Pong { t1, t2, t3 });
                continue;
            }
            FromAgent::Clock { offset, round_trip } => Event::Clock {
                conn,
                offset: Offset { offset, round_trip },
            },
            live @ FromAgent::Live { .. } => Event::Live { conn, live },
            FromAgent::Result => {
                let _ = tx.send(Event::Receiving { conn });
                match wire::read_frame(reader, wire::RESULT) {
                    Ok(document) => Event::Result { conn, document },
                    Err(e) => return format!("its result did not arrive: {e}"),
                }
            }
            FromAgent::Failed { message } => Event::Failed { conn, message },
            other => {
                refuse(writer, "a message out of place");
                return format!("sent {other:?} after its join: dropped");
            }
        };
        if tx.send(event).is_err() {
            return "the coordinator has finished".into();
        }
    }
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
