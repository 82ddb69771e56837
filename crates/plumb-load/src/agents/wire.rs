//! The frames agents and their coordinator exchange: a 4-byte big-endian length, then
//! that many bytes (JSON, or a result document). Every read is bounded by the caller's
//! limit for that moment (small before a peer has proven the token), so a hostile peer
//! cannot make either side hold more than the limit, and a frame cut short is an error,
//! never a hang past the stream's own timeout.
use std::fmt;
use std::io::{self, Read, Write};

/// Frames before a peer has authenticated (hello, proof) are at most this long.
pub const BEFORE_AUTH: usize = 4 * 1024;
/// A control message after authentication (join, clock pings, start, live counts).
pub const CONTROL: usize = 1024 * 1024;
/// An agent's whole result document at the end.
pub const RESULT: usize = 64 * 1024 * 1024;

#[derive(Debug)]
pub enum WireError {
    /// The peer announced a frame longer than allowed at this point.
    TooLong { length: usize, limit: usize },
    /// The peer closed the connection between two frames.
    Closed,
    /// The stream ended, or failed, inside a frame or before one.
    Io(io::Error),
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::TooLong { length, limit } => {
                let size = |n: usize| {
                    plumb_model::format::bytes(plumb_model::quantity::ByteSize(n as u64))
                };
                write!(
                    f,
                    "a message of {} where at most {} is allowed: the peer is refused",
                    size(*length),
                    size(*limit)
                )
            }
            WireError::Closed => f.write_str("the peer closed the connection"),
            WireError::Io(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                f.write_str("the peer closed the connection inside a message")
            }
            WireError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for WireError {}

/// Writes one frame.
pub fn write_frame(w: &mut impl Write, payload: &[u8]) -> Result<(), WireError> {
    let len = u32::try_from(payload.len()).map_err(|_| WireError::TooLong {
        length: payload.len(),
        limit: u32::MAX as usize,
    })?;
    w.write_all(&len.to_be_bytes()).map_err(WireError::Io)?;
    w.write_all(payload).map_err(WireError::Io)?;
    w.flush().map_err(WireError::Io)
}

/// Reads one frame of at most `limit` bytes; the length is checked before any byte of
/// the payload is read or any memory is taken for it.
pub fn read_frame(r: &mut impl Read, limit: usize) -> Result<Vec<u8>, WireError> {
    let mut len = [0u8; 4];
    let mut got = 0;
    while got < len.len() {
        match r.read(&mut len[got..]) {
            Ok(0) if got == 0 => return Err(WireError::Closed),
            Ok(0) => return Err(WireError::Io(io::ErrorKind::UnexpectedEof.into())),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(WireError::Io(e)),
        }
    }
    let length = u32::from_be_bytes(len) as usize;
    if length > limit {
        return Err(WireError::TooLong { length, limit });
    }
    let mut payload = vec![0u8; length];
    r.read_exact(&mut payload).map_err(WireError::Io)?;
    Ok(payload)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_bounds_hold_before_anything_is_read() {
        let mut buf = Vec::new();
        write_frame(&mut buf, b"{\"hello\":1}").unwrap();
        write_frame(&mut buf, b"").unwrap();
        let mut r = buf.as_slice();
        assert_eq!(read_frame(&mut r, BEFORE_AUTH).unwrap(), b"{\"hello\":1}");
        assert_eq!(read_frame(&mut r, BEFORE_AUTH).unwrap(), b"");
        // A peer announcing 4 GiB: refused on the length alone, nothing allocated.
        let huge = [0xff, 0xff, 0xff, 0xff, b'x'];
        match read_frame(&mut huge.as_slice(), CONTROL) {
            Err(WireError::TooLong { length, limit }) => {
                assert_eq!((length, limit), (u32::MAX as usize, CONTROL))
            }
            other => panic!("{other:?}"),
        }
        // Cut inside the payload, or inside the length: an error, said as such.
        let mut cut = Vec::new();
        write_frame(&mut cut, b"0123456789").unwrap();
        let e = read_frame(&mut &cut[..8], CONTROL).unwrap_err();
        assert!(e.to_string().contains("inside a message"), "{e}");
        assert!(read_frame(&mut &cut[..2], CONTROL).is_err());
        // Nothing at all: closed between frames, said apart from a frame cut short.
        let e = read_frame(&mut &b""[..], CONTROL).unwrap_err();
        assert!(matches!(e, WireError::Closed), "{e}");
    }
}
