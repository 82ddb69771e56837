//! HTTP/2 frames (RFC 9113 §4, §6): the 9-byte header read and written, and the few
//! frames a client writes besides its requests (its SETTINGS and their ACK, a PING's
//! ACK, WINDOW_UPDATE, RST_STREAM), appended to an output buffer without allocating.

pub const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
pub const HEADER_LEN: usize = 9;

pub const DATA: u8 = 0x0;
pub const HEADERS: u8 = 0x1;
pub const PRIORITY: u8 = 0x2;
pub const RST_STREAM: u8 = 0x3;
pub const SETTINGS: u8 = 0x4;
pub const PUSH_PROMISE: u8 = 0x5;
pub const PING: u8 = 0x6;
pub const GOAWAY: u8 = 0x7;
pub const WINDOW_UPDATE: u8 = 0x8;
pub const CONTINUATION: u8 = 0x9;

pub const END_STREAM: u8 = 0x1;
pub const ACK: u8 = 0x1;
pub const END_HEADERS: u8 = 0x4;
pub const PADDED: u8 = 0x8;
pub const PRIORITY_FLAG: u8 = 0x20;

pub const SETTINGS_ENABLE_PUSH: u16 = 0x2;
pub const SETTINGS_MAX_CONCURRENT_STREAMS: u16 = 0x3;
pub const SETTINGS_INITIAL_WINDOW_SIZE: u16 = 0x4;
pub const SETTINGS_MAX_FRAME_SIZE: u16 = 0x5;

/// The largest flow-control window (2³¹ − 1).
pub const MAX_WINDOW: u32 = (1 << 31) - 1;
/// Every window's size until SETTINGS or WINDOW_UPDATE say otherwise.
pub const DEFAULT_WINDOW: u32 = 65_535;
/// The largest frame payload until the peer's SETTINGS allow more (and the largest this
/// client accepts: it never asks for more).
pub const DEFAULT_MAX_FRAME: usize = 16_384;

pub const CANCEL: u32 = 0x8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameHeader {
    pub len: usize,
    pub kind: u8,
    pub flags: u8,
    pub stream: u32,
}

impl FrameHeader {
    /// The header at the start of `buf`, if its 9 bytes are there.
    pub fn parse(buf: &[u8]) -> Option<FrameHeader> {
        let b = buf.get(..HEADER_LEN)?;
        Some(FrameHeader {
            len: (b[0] as usize) << 16 | (b[1] as usize) << 8 | b[2] as usize,
            kind: b[3],
            flags: b[4],
            stream: u32::from_be_bytes([b[5], b[6], b[7], b[8]]) & MAX_WINDOW,
        })
    }

    pub fn write(&self, out: &mut Vec<u8>) {
        let len = self.len as u32;
        out.extend_from_slice(&[(len >> 16) as u8, (len >> 8) as u8, len as u8]);
        out.push(self.kind);
        out.push(self.flags);
        out.extend_from_slice(&(self.stream & MAX_WINDOW).to_be_bytes());
    }
}

/// A frame of `kind` with `payload`.
pub fn frame(out: &mut Vec<u8>, kind: u8, flags: u8, stream: u32, payload: &[u8]) {
    FrameHeader {
        len: payload.len(),
        kind,
        flags,
        stream,
    }
    .write(out);
    out.extend_from_slice(payload);
}

/// The client's start: the preface, SETTINGS (no server push; every stream's window
/// as large as allowed, so that answers are never held back by this client), and the
/// connection's window raised to match.
pub fn client_start(out: &mut Vec<u8>) {
    out.extend_from_slice(PREFACE);
    let mut settings = [0u8; 12];
    settings[..6].copy_from_slice(&setting(SETTINGS_ENABLE_PUSH, 0));
    settings[6..].copy_from_slice(&setting(SETTINGS_INITIAL_WINDOW_SIZE, MAX_WINDOW));
    frame(out, SETTINGS, 0, 0, &settings);
    window_update(out, 0, MAX_WINDOW - DEFAULT_WINDOW);
}

fn setting(id: u16, value: u32) -> [u8; 6] {
    let mut s = [0u8; 6];
    s[..2].copy_from_slice(&id.to_be_bytes());
    s[2..].copy_from_slice(&value.to_be_bytes());
    s
}

pub fn window_update(out: &mut Vec<u8>, stream: u32, increment: u32) {
    frame(
        out,
        WINDOW_UPDATE,
        0,
        stream,
        &(increment & MAX_WINDOW).to_be_bytes(),
    );
}

pub fn rst_stream(out: &mut Vec<u8>, stream: u32, code: u32) {
    frame(out, RST_STREAM, 0, stream, &code.to_be_bytes());
}

/// The settings in a SETTINGS payload: (identifier, value) pairs; `None` if its length
/// is not a multiple of 6.
pub fn settings(payload: &[u8]) -> Option<impl Iterator<Item = (u16, u32)> + '_> {
    payload.len().is_multiple_of(6).then(|| {
        payload.chunks_exact(6).map(|c| {
            (
                u16::from_be_bytes([c[0], c[1]]),
                u32::from_be_bytes([c[2], c[3], c[4], c[5]]),
            )
        })
    })
}

/// A 4-byte big-endian number at the start of `b` (0 where it is shorter), the top bit
/// cleared.
pub fn u31(b: &[u8]) -> u32 {
    match b {
        [a, b, c, d, ..] => u32::from_be_bytes([*a, *b, *c, *d]) & MAX_WINDOW,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_round_trip_and_the_start_is_rfc_9113s() {
        let h = FrameHeader {
            len: 0x01_02_03,
            kind: HEADERS,
            flags: END_HEADERS | END_STREAM,
            stream: 0x7fff_fffd,
        };
        let mut out = Vec::new();
        h.write(&mut out);
        assert_eq!(out, [1, 2, 3, 1, 5, 0x7f, 0xff, 0xff, 0xfd]);
        assert_eq!(FrameHeader::parse(&out), Some(h));
        assert_eq!(FrameHeader::parse(&out[..8]), None);
        // The reserved bit is ignored on reading (§4.1).
        out[5] |= 0x80;
        assert_eq!(FrameHeader::parse(&out).unwrap().stream, 0x7fff_fffd);

        let mut start = Vec::new();
        client_start(&mut start);
        assert!(start.starts_with(PREFACE));
        let s = FrameHeader::parse(&start[24..]).unwrap();
        assert_eq!((s.kind, s.len, s.stream), (SETTINGS, 12, 0));
        let pairs: Vec<(u16, u32)> = settings(&start[33..45]).unwrap().collect();
        assert_eq!(pairs, [(2, 0), (4, MAX_WINDOW)]);
        let w = FrameHeader::parse(&start[45..]).unwrap();
        assert_eq!((w.kind, w.len), (WINDOW_UPDATE, 4));
        assert_eq!(u31(&start[54..]), MAX_WINDOW - DEFAULT_WINDOW);
        assert_eq!(start.len(), 58);
        assert!(settings(&[0; 7]).is_none());
    }
}
