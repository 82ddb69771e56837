//! An agent's side of a coordinated test: reach the coordinator (trying again until a
//! deadline, as a pod may start before the coordinator's), prove the token both ways,
//! join with its terms, measure the clock offset, wait for the start; then, while the
//! test runs, send the live counts from a thread of its own (never from the generator's
//! loop) and at the end the result document.
use super::auth::{self, Token, NONCE_LEN};
use super::clock::{self, Offset, Round};
use super::messages::{self, hex, unhex, FromAgent, FromCoordinator, MessageError, PROTOCOL};
use super::terms::Terms;
use super::wire;
use super::AgentError;
use plumb_model::quantity::Timestamp;
use std::io::ErrorKind;
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

/// Clock rounds before the start; the one with the least round trip is kept.
pub const CLOCK_ROUNDS: usize = 8;
/// A message the coordinator owes (its hello, proof, answer to a join or a ping) comes
/// within this, or the coordinator is taken as gone.
const ANSWER_WITHIN: Duration = Duration::from_secs(10);
/// Between tries to reach a coordinator that is not listening yet.
const RETRY_EVERY: Duration = Duration::from_millis(250);
/// A start further ahead than this is refused: a coordinator gives it seconds ahead.
const FURTHEST_START: Duration = Duration::from_secs(3600);
/// How often a wait for the start looks at the stop flag (Ctrl-C).
const LOOK_EVERY: Duration = Duration::from_millis(100);

/// A joined agent's connection to its coordinator.
#[derive(Debug)]
pub struct Link {
    stream: TcpStream,
    /// The coordinator's address as given.
    pub coordinator: String,
    /// Agents joined so far (this one included) and how many are awaited.
    pub joined: (u32, u32),
}

/// The start the coordinator gave, on this agent's clock and on the coordinator's.
#[derive(Debug, Clone, Copy)]
pub struct Start {
    pub local: SystemTime,
    pub coordinator: Timestamp,
    pub offset: Offset,
}

impl Link {
    /// Reaches the coordinator at `addr` (trying for up to `wait`), authenticates both
    /// ways and joins with `terms`. Nothing has been sent to any target yet: every
    /// failure here leaves the test unstarted.
    pub fn join(
        addr: &str,
        token: &Token,
        terms: &Terms,
        wait: Duration,
        stop: &AtomicBool,
    ) -> Result<Link, AgentError> {
        let (mut stream, hello) = reach(addr, wait, stop)?;
        let FromCoordinator::Hello { protocol, nonce } = hello else {
            return Err(unexpected(hello, "its hello"));
        };
        if protocol != PROTOCOL {
            return Err(AgentError::Protocol(format!(
                "the coordinator speaks protocol {protocol}, this agent {PROTOCOL}: run the same plumb version on both"
            )));
        }
        let nc: [u8; NONCE_LEN] = unhex(&nonce)
            .ok_or_else(|| AgentError::Protocol("its hello's nonce is malformed".into()))?;
        let na = auth::nonce()?;
        let proof = hex(&token.agent_proof(&nc, &na));
        messages::send(
            &mut stream,
            &FromAgent::Proof {
                nonce: hex(&na),
                proof,
            },
        )?;
        match messages::receive(&mut stream, wire::BEFORE_AUTH)? {
            FromCoordinator::Proof { proof } => {
                let bytes = unhex::<32>(&proof).ok_or(auth::AuthError::Refused)?;
                token.check_coordinator(&nc, &na, &bytes)?;
            }
            other => return Err(refusal_or(other, "its proof of the token")),
        }
        messages::send(
            &mut stream,
            &FromAgent::Join {
                terms: terms.clone(),
            },
        )?;
        let joined = match messages::receive(&mut stream, wire::CONTROL)? {
            FromCoordinator::Welcome { joined, count } => (joined, count),
            other => return Err(refusal_or(other, "an answer to this agent's join")),
        };
        Ok(Link {
            stream,
            coordinator: addr.to_string(),
            joined,
        })
    }

    /// The clock offset by `CLOCK_ROUNDS` rounds, told to the coordinator: the agent is
    /// then ready for the start.
    pub fn measure_clock(&mut self) -> Result<Offset, AgentError> {
        let mut rounds = Vec::with_capacity(CLOCK_ROUNDS);
        for _ in 0..CLOCK_ROUNDS {
            let t1 = Timestamp::now();
            messages::send(&mut self.stream, &FromAgent::Ping { t1 })?;
            let answer: FromCoordinator = messages::receive(&mut self.stream, wire::CONTROL)?;
            let t4 = Timestamp::now();
            match answer {
                FromCoordinator::Pong { t1: back, t2, t3 } if back == t1 => {
                    rounds.push(Round { t1, t2, t3, t4 })
                }
                other => return Err(refusal_or(other, "an answer to a clock round")),
            }
        }
        let offset = clock::best(&rounds).ok_or_else(|| {
            AgentError::Protocol(
                "the coordinator's clock answers were impossible (sent before received)".into(),
            )
        })?;
        messages::send(
            &mut self.stream,
            &FromAgent::Clock {
                offset: offset.offset,
                round_trip: offset.round_trip,
            },
        )?;
        Ok(offset)
    }

    /// Waits for the start (until `stop`), and turns it into this agent's clock.
    pub fn await_start(&mut self, offset: Offset, stop: &AtomicBool) -> Result<Start, AgentError> {
        wait_readable(&self.stream, stop)?;
        self.stream
            .set_read_timeout(Some(ANSWER_WITHIN))
            .map_err(AgentError::io(&self.coordinator))?;
        match messages::receive(&mut self.stream, wire::CONTROL)? {
            FromCoordinator::Start { at } => {
                let local = offset.offset.to_agent_system(at);
                let ahead = local.duration_since(SystemTime::now()).unwrap_or_default();
                if ahead > FURTHEST_START {
                    return Err(AgentError::Protocol(format!(
                        "the coordinator's start is {} away: more than the hour a start may be ahead",
                        plumb_model::format::time(plumb_model::quantity::Duration::from(ahead))
                    )));
                }
                Ok(Start {
                    local,
                    coordinator: at,
                    offset,
                })
            }
            other => Err(refusal_or(other, "the start")),
        }
    }

    /// The connection, for the uplink.
    pub fn into_stream(self) -> TcpStream {
        self.stream
    }
}

/// Connects and reads the coordinator's hello, trying again until `wait` has passed: a
/// coordinator not listening yet, or one that closes the connection before its hello
/// (crowded by other connections waiting to join), is tried again every `RETRY_EVERY`.
fn reach(
    addr: &str,
    wait: Duration,
    stop: &AtomicBool,
) -> Result<(TcpStream, FromCoordinator), AgentError> {
    let deadline = Instant::now() + wait;
    loop {
        // What to say if time runs out now: the last reason this try failed.
        let out_of_time = match attempt(addr, deadline) {
            Ok(reached) => return Ok(reached),
            Err(Tried::Failed(e)) => return Err(e),
            Err(Tried::NotListening(cause)) => AgentError::Unreachable {
                addr: addr.to_string(),
                waited: wait,
                cause,
            },
            Err(Tried::ClosedBeforeHello) => wire::WireError::Closed.into(),
        };
        if Instant::now() + RETRY_EVERY >= deadline {
            return Err(out_of_time);
        }
        if stop.load(Ordering::Relaxed) {
            return Err(AgentError::Stopped);
        }
        std::thread::sleep(RETRY_EVERY);
    }
}

/// How one try to reach the coordinator ended, when it did not.
enum Tried {
    /// No connection (nobody listening, no address yet): worth another try.
    NotListening(String),
    /// Connected, then closed before the hello: worth another try.
    ClosedBeforeHello,
    /// Anything else: final.
    Failed(AgentError),
}

fn attempt(addr: &str, deadline: Instant) -> Result<(TcpStream, FromCoordinator), Tried> {
    // Never waiting past the deadline, nor less than a loopback round trip needs.
    let within = (deadline.saturating_duration_since(Instant::now()))
        .clamp(Duration::from_millis(100), ANSWER_WITHIN);
    let mut stream = resolve(addr)
        .and_then(|a| TcpStream::connect_timeout(&a, within))
        .map_err(|e| Tried::NotListening(e.to_string()))?;
    stream.set_nodelay(true).ok();
    for timeout in [
        stream.set_read_timeout(Some(within)),
        stream.set_write_timeout(Some(within)),
    ] {
        timeout.map_err(|e| Tried::Failed(AgentError::io(addr)(e)))?;
    }
    let addr = addr.to_string();
    match messages::receive(&mut stream, wire::BEFORE_AUTH) {
        Ok(hello) => Ok((stream, hello)),
        Err(MessageError::Wire(wire::WireError::Closed)) => Err(Tried::ClosedBeforeHello),
        Err(MessageError::Wire(wire::WireError::Io(e)))
            if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
        {
            Err(Tried::Failed(AgentError::Silent {
                addr,
                waited: within,
            }))
        }
        Err(MessageError::Wire(wire::WireError::TooLong { .. }) | MessageError::Malformed(_)) => {
            Err(Tried::Failed(AgentError::NotCoordinator { addr }))
        }
        Err(e) => Err(Tried::Failed(e.into())),
    }
}

fn resolve(addr: &str) -> std::io::Result<SocketAddr> {
    addr.to_socket_addrs()?
        .next()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "the name has no address"))
}

/// Blocks until a byte can be read, looking at `stop` every `LOOK_EVERY`. (A read
/// timeout on the frame itself could cut a frame in two.)
fn wait_readable(stream: &TcpStream, stop: &AtomicBool) -> Result<(), AgentError> {
    stream
        .set_read_timeout(Some(LOOK_EVERY))
        .map_err(|e| AgentError::from(wire::WireError::Io(e)))?;
    let mut one = [0u8; 1];
    loop {
        match stream.peek(&mut one) {
            Ok(0) => return Err(wire::WireError::Closed.into()),
            Ok(_) => return Ok(()),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                if stop.load(Ordering::Relaxed) {
                    return Err(AgentError::Stopped);
                }
            }
            Err(e) => return Err(wire::WireError::Io(e).into()),
        }
    }
}

/// A refusal said as the coordinator's reason; anything else as out of place.
fn refusal_or(m: FromCoordinator, expected: &str) -> AgentError {
    match m {
        FromCoordinator::Refused { reason } => AgentError::Refused(reason),
        other => unexpected(other, expected),
    }
}

fn unexpected(m: FromCoordinator, expected: &str) -> AgentError {
    AgentError::Protocol(format!(
        "the coordinator sent {m:?} where {expected} was due"
    ))
}
