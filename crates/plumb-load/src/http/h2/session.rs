//! One HTTP/2 connection's state (RFC 9113), without I/O: requests become HEADERS (and
//! DATA) frames in an output buffer, frames read become answers. Streams are the
//! connection's requests in flight (`Conn::inflight`, each with its stream id), answered
//! in any order. Flow control: this client advertises the largest windows and returns
//! the connection's window as it reads, so answers are never held back by it; request
//! bodies wait for the server's window. Written here because it is the measuring path:
//! the `h2` crate needs tokio's I/O and a task per connection, which the generator's own
//! event loop does not have (HPACK: `hpack.rs`, for the reason it gives).
use super::frame::{self, FrameHeader, HEADER_LEN};
use crate::http::conn::{Completion, InFlight};
use crate::http::planned::PlannedTarget;
use crate::http::recorder::Failure;
use crate::http::response::Response;
use plumb_model::quantity::ByteSize;
use std::collections::VecDeque;
use std::time::Instant;

/// Until the server's SETTINGS say otherwise (RFC 9113 §6.5.2 recommends no fewer).
const DEFAULT_MAX_STREAMS: usize = 100;
/// The connection window is returned once this much of it is used.
const WINDOW_RETURN: u64 = 1 << 30;
/// The last stream id a client may open (2³¹ − 1, odd).
const LAST_STREAM: u32 = (1 << 31) - 1;

pub struct H2 {
    decoder: super::hpack::Decoder,
    /// Frames to write, and how much of them is written.
    pub out: Vec<u8>,
    pub out_written: usize,
    next_stream: u32,
    peer_max_streams: usize,
    peer_initial_window: i64,
    peer_max_frame: usize,
    /// The server's SETTINGS have been read (until then a body waits: its window and
    /// largest frame are not known).
    settled: bool,
    /// The connection's send window: how many body bytes the server will take.
    send_window: i64,
    /// Body bytes read since the connection's window was last returned.
    received: u64,
    /// A header block across HEADERS and CONTINUATION frames: its stream, whether its
    /// HEADERS ended the stream, and whether it is still open.
    block: Vec<u8>,
    block_stream: u32,
    block_ends_stream: bool,
    in_block: bool,
    /// GOAWAY's last stream id: no new streams; those above it were never processed.
    pub goaway: Option<u32>,
    max_body: u64,
}

impl H2 {
    /// A connection that has written nothing yet: its preface and settings go first.
    pub fn new(max_body: u64) -> H2 {
        let mut out = Vec::with_capacity(4096);
        frame::client_start(&mut out);
        H2 {
            decoder: super::hpack::Decoder::new(),
            out,
            out_written: 0,
            next_stream: 1,
            peer_max_streams: DEFAULT_MAX_STREAMS,
            peer_initial_window: frame::DEFAULT_WINDOW as i64,
            peer_max_frame: frame::DEFAULT_MAX_FRAME,
            settled: false,
            send_window: frame::DEFAULT_WINDOW as i64,
            received: 0,
            block: Vec::new(),
            block_stream: 0,
            block_ends_stream: false,
            in_block: false,
            goaway: None,
            max_body,
        }
    }

    /// Room for another stream: below `streams` (`--streams`) and the server's bound,
    /// and neither going away nor out of stream ids.
    pub fn room(&self, in_flight: usize, streams: usize) -> bool {
        self.closing().is_none() && in_flight < streams.min(self.peer_max_streams)
    }

    /// No new streams: the server's GOAWAY (its last stream id), or every stream id of
    /// the connection used (all of ours may still be answered).
    pub fn closing(&self) -> Option<u32> {
        self.goaway
            .or((self.next_stream > LAST_STREAM).then_some(LAST_STREAM))
    }

    /// A request the server never processed: never sent, or above the GOAWAY's last
    /// stream id (RFC 9113 §6.8: safe to send again).
    pub fn unprocessed(&self, r: &InFlight) -> bool {
        r.stream == 0 || self.goaway.is_some_and(|last| r.stream > last)
    }

    /// The request `r` as frames, its stream id set; false when its body must wait for
    /// the server's window (a WINDOW_UPDATE will let it go).
    pub fn request(&mut self, r: &mut InFlight, t: &PlannedTarget) -> Result<bool, Failure> {
        let body = t.body.len();
        if body > 0 {
            if !self.settled {
                return Ok(false);
            }
            if body as i64 > self.peer_initial_window {
                return Err(Failure {
                    kind: "request body above the server's HTTP/2 window",
                    detail: format!(
                        "a body of {} against a stream window of {}: a body is sent at once, never as the server's stream window updates",
                        plumb_model::format::bytes(ByteSize(body as u64)),
                        plumb_model::format::bytes(ByteSize(self.peer_initial_window.max(0) as u64))
                    ),
                });
            }
            if (body as i64) > self.send_window {
                return Ok(false);
            }
            self.send_window -= body as i64;
        }
        r.stream = self.next_stream;
        self.next_stream += 2;
        let end_stream = if body == 0 { frame::END_STREAM } else { 0 };
        let mut chunks = t.h2_headers.chunks(self.peer_max_frame).peekable();
        let mut kind = frame::HEADERS;
        if chunks.peek().is_none() {
            frame::frame(
                &mut self.out,
                kind,
                frame::END_HEADERS | end_stream,
                r.stream,
                &[],
            );
        }
        while let Some(chunk) = chunks.next() {
            let last = chunks.peek().is_none();
            let mut flags = if last { frame::END_HEADERS } else { 0 };
            if kind == frame::HEADERS {
                flags |= end_stream;
            }
            frame::frame(&mut self.out, kind, flags, r.stream, chunk);
            kind = frame::CONTINUATION;
        }
        let mut parts = t.body.chunks(self.peer_max_frame).peekable();
        while let Some(part) = parts.next() {
            let flags = if parts.peek().is_none() {
                frame::END_STREAM
            } else {
                0
            };
            frame::frame(&mut self.out, frame::DATA, flags, r.stream, part);
        }
        Ok(true)
    }

    /// Cancels stream `id` (a request that timed out): the server is told to drop it.
    pub fn cancel(&mut self, id: u32) {
        frame::rst_stream(&mut self.out, id, frame::CANCEL);
    }

    /// Handles every whole frame at the start of `buf`; returns the bytes consumed. The
    /// answers they end are moved from `inflight` to `out`.
    pub fn frames(
        &mut self,
        buf: &[u8],
        inflight: &mut VecDeque<InFlight>,
        done: Instant,
        out: &mut Vec<Completion>,
    ) -> Result<usize, Failure> {
        // A server's first frame is its SETTINGS (RFC 9113 §3.4). An HTTP/1 server
        // answers the preface with a status line instead, whose first bytes ("HTT") would
        // read as a 4.7 MB frame's length.
        // Only until the server's SETTINGS: not on every read of the test after them.
        if !self.settled {
            let first = FrameHeader::parse(buf);
            if first.is_some_and(|h| h.kind != frame::SETTINGS && h.len > frame::DEFAULT_MAX_FRAME)
            {
                return Err(not_http2(buf));
            }
        }
        let mut at = 0;
        while let Some(h) = FrameHeader::parse(&buf[at..]) {
            if h.len > frame::DEFAULT_MAX_FRAME {
                return Err(protocol(format!(
                    "a {}-byte frame, above the {} this client allows",
                    h.len,
                    frame::DEFAULT_MAX_FRAME
                )));
            }
            let end = at + HEADER_LEN + h.len;
            if end > buf.len() {
                break;
            }
            self.frame(h, &buf[at + HEADER_LEN..end], inflight, done, out)?;
            at = end;
        }
        Ok(at)
    }

    fn frame(
        &mut self,
        h: FrameHeader,
        payload: &[u8],
        inflight: &mut VecDeque<InFlight>,
        done: Instant,
        out: &mut Vec<Completion>,
    ) -> Result<(), Failure> {
        if self.in_block && h.kind != frame::CONTINUATION {
            return Err(protocol(
                "a header block interrupted by another frame".into(),
            ));
        }
        match h.kind {
            frame::DATA => self.data(h, payload, inflight, done, out),
            frame::HEADERS => {
                let fragment = headers_fragment(h, payload)?;
                self.block.clear();
                self.block.extend_from_slice(fragment);
                self.block_stream = h.stream;
                self.block_ends_stream = h.flags & frame::END_STREAM != 0;
                self.in_block = h.flags & frame::END_HEADERS == 0;
                if !self.in_block {
                    self.header_block(inflight, done, out)?;
                }
                Ok(())
            }
            frame::CONTINUATION if self.in_block && h.stream == self.block_stream => {
                self.block.extend_from_slice(payload);
                self.in_block = h.flags & frame::END_HEADERS == 0;
                if !self.in_block {
                    self.header_block(inflight, done, out)?;
                }
                Ok(())
            }
            frame::CONTINUATION => Err(protocol("a CONTINUATION without its HEADERS".into())),
            frame::RST_STREAM => {
                if let Some(r) = take(inflight, h.stream) {
                    let failure = Failure {
                        kind: "stream reset by the server",
                        detail: format!("RST_STREAM {}", error_name(frame::u31(payload))),
                    };
                    out.push((r, Err(failure), done));
                }
                Ok(())
            }
            frame::SETTINGS => self.settings(h, payload),
            frame::PING if h.flags & frame::ACK == 0 => {
                frame::frame(&mut self.out, frame::PING, frame::ACK, 0, payload);
                Ok(())
            }
            frame::GOAWAY => {
                self.goaway = Some(frame::u31(payload));
                Ok(())
            }
            frame::WINDOW_UPDATE if h.stream == 0 => {
                self.send_window += frame::u31(payload) as i64;
                Ok(())
            }
            frame::PUSH_PROMISE => Err(protocol("a PUSH_PROMISE, though push was disabled".into())),
            // PRIORITY (deprecated, §5.3.2), a PING's ACK, a stream's WINDOW_UPDATE (bodies
            // fit the initial window), and frame types this client does not know (§5.5).
            frame::PRIORITY => Ok(()),
            _ => Ok(()),
        }
    }

    fn data(
        &mut self,
        h: FrameHeader,
        payload: &[u8],
        inflight: &mut VecDeque<InFlight>,
        done: Instant,
        out: &mut Vec<Completion>,
    ) -> Result<(), Failure> {
        // Flow control counts the whole payload, padding included (§6.9.1).
        self.received += payload.len() as u64;
        if self.received >= WINDOW_RETURN {
            frame::window_update(&mut self.out, 0, self.received as u32);
            self.received = 0;
        }
        let body = unpadded(h, payload)?.len() as u64;
        let Some(pos) = position(inflight, h.stream) else {
            return Ok(()); // A stream cancelled here: its remaining DATA is dropped.
        };
        inflight[pos].received += body;
        if inflight[pos].received > self.max_body {
            let r = inflight.remove(pos).expect("found");
            self.cancel(r.stream);
            let failure = Failure {
                kind: "response body too large",
                detail: format!(
                    "more than --max-body ({})",
                    plumb_model::format::bytes(ByteSize(self.max_body))
                ),
            };
            out.push((r, Err(failure), done));
        } else if h.flags & frame::END_STREAM != 0 {
            let r = inflight.remove(pos).expect("found");
            out.push((r, Ok(answer(&r)), done));
        }
        Ok(())
    }

    /// A whole header block: decoded (always, to keep the decoder's table in step), its
    /// status noted on the stream; an answer when it ended the stream.
    fn header_block(
        &mut self,
        inflight: &mut VecDeque<InFlight>,
        done: Instant,
        out: &mut Vec<Completion>,
    ) -> Result<(), Failure> {
        let mut status = None;
        self.decoder
            .decode(&self.block, |name, value| {
                if name == b":status" {
                    status = std::str::from_utf8(value)
                        .ok()
                        .and_then(|s| s.parse::<u16>().ok());
                }
            })
            .map_err(|e| protocol(format!("a header block HPACK cannot decode: {e}")))?;
        let id = self.block_stream;
        let Some(pos) = position(inflight, id) else {
            return Ok(());
        };
        if let Some(s) = status {
            if s >= 200 {
                inflight[pos].status = s;
            }
        }
        // A stream ends on its headers (no body), or on trailers after its DATA.
        if self.block_ends_stream && inflight[pos].status >= 200 {
            let r = inflight.remove(pos).expect("found");
            out.push((r, Ok(answer(&r)), done));
        }
        Ok(())
    }

    fn settings(&mut self, h: FrameHeader, payload: &[u8]) -> Result<(), Failure> {
        if h.flags & frame::ACK != 0 {
            return Ok(());
        }
        let pairs = frame::settings(payload).ok_or_else(|| {
            protocol("a SETTINGS frame whose length is not a multiple of 6".into())
        })?;
        for (id, value) in pairs {
            match id {
                frame::SETTINGS_MAX_CONCURRENT_STREAMS => self.peer_max_streams = value as usize,
                frame::SETTINGS_INITIAL_WINDOW_SIZE => self.peer_initial_window = value as i64,
                frame::SETTINGS_MAX_FRAME_SIZE => {
                    self.peer_max_frame = (value as usize).clamp(frame::DEFAULT_MAX_FRAME, 1 << 24)
                }
                _ => {}
            }
        }
        frame::frame(&mut self.out, frame::SETTINGS, frame::ACK, 0, &[]);
        self.settled = true;
        Ok(())
    }
}

fn answer(r: &InFlight) -> Response {
    Response {
        status: r.status,
        close: false,
        body: ByteSize(r.received),
    }
}

/// Where stream `id`'s request is among those in flight (a linear search: a connection
/// carries `--streams` of them, 100 by default).
fn position(inflight: &VecDeque<InFlight>, id: u32) -> Option<usize> {
    inflight
        .iter()
        .position(|r| r.stream == id && r.stream != 0)
}

/// The in-flight request of stream `id`, taken out.
fn take(inflight: &mut VecDeque<InFlight>, id: u32) -> Option<InFlight> {
    let pos = position(inflight, id)?;
    inflight.remove(pos)
}

/// A HEADERS payload without its padding and priority fields.
fn headers_fragment(h: FrameHeader, payload: &[u8]) -> Result<&[u8], Failure> {
    let p = unpadded(h, payload)?;
    if h.flags & frame::PRIORITY_FLAG != 0 {
        return p
            .get(5..)
            .ok_or_else(|| protocol("a HEADERS frame too short for its priority".into()));
    }
    Ok(p)
}

/// A DATA or HEADERS payload without its padding.
fn unpadded(h: FrameHeader, payload: &[u8]) -> Result<&[u8], Failure> {
    if h.flags & frame::PADDED == 0 {
        return Ok(payload);
    }
    let pad = *payload
        .first()
        .ok_or_else(|| protocol("a padded frame without its pad length".into()))?
        as usize;
    payload
        .get(1..payload.len().saturating_sub(pad))
        .filter(|_| pad < payload.len())
        .ok_or_else(|| protocol("padding longer than the frame".into()))
}

/// The server's first bytes were not HTTP/2's: what it spoke instead, where that shows.
fn not_http2(buf: &[u8]) -> Failure {
    let spoke = match buf.starts_with(b"HTTP/") {
        true => "the server answered in HTTP/1",
        false => "the server's first bytes are not HTTP/2's SETTINGS",
    };
    Failure {
        kind: "not HTTP/2",
        detail: format!("{spoke}: it does not speak HTTP/2 without TLS (h2c); drop --http2, or use https:// where ALPN can agree on h2"),
    }
}

fn protocol(detail: String) -> Failure {
    Failure {
        kind: "HTTP/2 protocol error",
        detail,
    }
}

/// RFC 9113 §7's error codes by name.
fn error_name(code: u32) -> String {
    const NAMES: [&str; 14] = [
        "NO_ERROR",
        "PROTOCOL_ERROR",
        "INTERNAL_ERROR",
        "FLOW_CONTROL_ERROR",
        "SETTINGS_TIMEOUT",
        "STREAM_CLOSED",
        "FRAME_SIZE_ERROR",
        "REFUSED_STREAM",
        "CANCEL",
        "COMPRESSION_ERROR",
        "CONNECT_ERROR",
        "ENHANCE_YOUR_CALM",
        "INADEQUATE_SECURITY",
        "HTTP_1_1_REQUIRED",
    ];
    NAMES
        .get(code as usize)
        .map_or_else(|| format!("error {code:#x}"), |n| n.to_string())
}

#[cfg(test)]
mod tests;
