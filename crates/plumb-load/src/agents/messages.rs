//! The messages of the agents' protocol, as JSON frames (`wire`): what the coordinator
//! says to an agent and what an agent says to it. Unknown fields and types are refused,
//! so two versions that do not understand each other say so instead of guessing.
use super::clock::ClockOffset;
use super::terms::Terms;
use super::wire::{self, WireError};
use plumb_model::quantity::{Duration, Timestamp};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::{Read, Write};

/// The protocol's version, in the coordinator's hello; an agent of another refuses.
pub const PROTOCOL: u32 = 1;

/// A latency value (µs) and how many answers took it.
pub type LiveLatency = (u64, u64);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum FromCoordinator {
    /// The first frame of a connection: the coordinator's nonce (hex).
    Hello { protocol: u32, nonce: String },
    /// The coordinator's proof of the token, once the agent's has been checked.
    Proof { proof: String },
    /// The agent's terms are accepted; `joined` agents of `count` so far.
    Welcome { joined: u32, count: u32 },
    /// A clock round's answer: the agent's t1 back, the coordinator's receive and send.
    Pong {
        t1: Timestamp,
        t2: Timestamp,
        t3: Timestamp,
    },
    /// Start the schedule at this moment of the coordinator's clock.
    Start { at: Timestamp },
    /// The agent's result has arrived.
    Received,
    /// The coordinator will not go on with this agent, and why.
    Refused { reason: String },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum FromAgent {
    /// The agent's nonce and its proof of the token over both nonces (hex).
    Proof { nonce: String, proof: String },
    /// What the agent will run; compared with every other agent's.
    Join { terms: Terms },
    /// A clock round: the agent's send time.
    Ping { t1: Timestamp },
    /// The offset the rounds found; the agent is ready to be given the start.
    Clock {
        offset: ClockOffset,
        round_trip: Duration,
    },
    /// Counts since the last: answers, errors, their latencies (each recorded value of
    /// a histogram of 2 significant digits, in µs, with its count: plain numbers the
    /// coordinator records into a histogram of its own bounds, never a serialised
    /// histogram whose header it would have to trust), requests in flight, and, once the
    /// measured window is over, how many answers the agent still waits for.
    Live {
        ok: u64,
        errors: u64,
        latency: Vec<LiveLatency>,
        in_flight: u64,
        draining: Option<u64>,
    },
    /// The agent's result document follows, as the next frame (up to `wire::RESULT`).
    Result,
    /// The agent's test could not run or stopped, and why.
    Failed { message: String },
}

#[derive(Debug)]
pub enum MessageError {
    Wire(WireError),
    /// A frame that is not a message of this protocol.
    Malformed(String),
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MessageError::Wire(e) => write!(f, "{e}"),
            MessageError::Malformed(e) => write!(f, "a message not of plumb's protocol ({e})"),
        }
    }
}

impl std::error::Error for MessageError {}

impl From<WireError> for MessageError {
    fn from(e: WireError) -> Self {
        MessageError::Wire(e)
    }
}

/// Writes one message as a frame.
pub fn send(w: &mut impl Write, message: &impl Serialize) -> Result<(), MessageError> {
    let bytes = serde_json::to_vec(message).map_err(|e| MessageError::Malformed(e.to_string()))?;
    wire::write_frame(w, &bytes)?;
    Ok(())
}

/// Reads one message of at most `limit` bytes.
pub fn receive<T: DeserializeOwned>(r: &mut impl Read, limit: usize) -> Result<T, MessageError> {
    let bytes = wire::read_frame(r, limit)?;
    serde_json::from_slice(&bytes).map_err(|e| MessageError::Malformed(e.to_string()))
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Exactly `N` bytes from hex, or None.
pub fn unhex<const N: usize>(s: &str) -> Option<[u8; N]> {
    if s.len() != 2 * N || !s.is_ascii() {
        return None;
    }
    let mut out = [0u8; N];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_and_strangers_are_refused() {
        let mut buf = Vec::new();
        let at = Timestamp::from_unix_nanos(1_790_000_000_123_456_789);
        send(&mut buf, &FromCoordinator::Start { at }).unwrap();
        send(&mut buf, &FromAgent::Ping { t1: at }).unwrap();
        let mut r = buf.as_slice();
        let start: FromCoordinator = receive(&mut r, wire::CONTROL).unwrap();
        // The start crosses exact to the nanosecond.
        assert_eq!(start, FromCoordinator::Start { at });
        let ping: FromAgent = receive(&mut r, wire::CONTROL).unwrap();
        assert_eq!(ping, FromAgent::Ping { t1: at });
        for bad in [
            &br#"{"type":"start","at":1,"target":"http://elsewhere/"}"#[..],
            br#"{"type":"redirect","url":"http://elsewhere/"}"#,
            b"not json",
        ] {
            let mut frame = Vec::new();
            wire::write_frame(&mut frame, bad).unwrap();
            let got = receive::<FromCoordinator>(&mut frame.as_slice(), wire::CONTROL);
            assert!(matches!(got, Err(MessageError::Malformed(_))), "{got:?}");
        }
    }

    #[test]
    fn nonces_go_as_hex_of_their_exact_length() {
        let n = [0xab; 32];
        assert_eq!(unhex::<32>(&hex(&n)), Some(n));
        assert_eq!(unhex::<32>("ab"), None);
        assert_eq!(unhex::<2>("zz00"), None);
        assert_eq!(unhex::<2>("é0"), None);
    }
}
