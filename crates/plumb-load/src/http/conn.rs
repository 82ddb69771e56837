//! One kept-alive connection of the event loop: its transport (TCP, or TLS over it), the
//! requests it carries in order (one at a time, or several with pipelining), the bytes of
//! them not yet written, and the answers read so far. No task, no channel, no allocation
//! per request: a request is a copy of the same bytes, an answer is framed and skipped.

use super::h2::H2;
use super::planned::PlannedTarget;
use super::recorder::Failure;
use super::response::{Response, ResponseReader};
use super::transport::Transport;
use std::collections::VecDeque;
use std::io::ErrorKind;
use std::time::Instant;

/// Read buffers start here and grow (to twice `MAX_HEAD`) only for a large response head.
const FIRST_BUFFER: usize = 16 * 1024;

#[derive(Debug, Clone, Copy)]
pub struct InFlight {
    pub due: Instant,
    pub sent: Instant,
    pub deadline: Instant,
    pub retried: bool,
    /// Which of the test's targets it asks for (a HEAD request's answer has no body).
    pub target: usize,
    /// HTTP/2: its stream (0 until its frames are made), the status its headers gave,
    /// and the body bytes read so far.
    pub stream: u32,
    pub status: u16,
    pub received: u64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Phase {
    Connecting,
    /// TCP is up; the TLS handshake is under way.
    Handshaking,
    Open,
}

/// Why a connection ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Ending {
    /// The server closed it (EOF), or said it would (`Connection: close`).
    Closed,
    /// A failure, by kind, with its detail.
    Failed(Failure),
}

pub struct Conn {
    pub transport: Transport,
    pub phase: Phase,
    /// Its host: the pool it belongs to.
    pub host: usize,
    /// When the connect began, and when TCP was established: the setup's times.
    pub began: Instant,
    pub connected_at: Instant,
    pub inflight: VecDeque<InFlight>,
    /// Requests queued here whose bytes are not all written yet.
    unwritten: usize,
    /// Bytes of the first of them already written.
    written: usize,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    reader: ResponseReader,
    /// Answers read on this connection: above 0 it is a reused keep-alive connection.
    pub served: u64,
    /// HTTP/2's state, when the connection speaks it.
    pub h2: Option<Box<H2>>,
    /// In the loop's list of connections with room for another request.
    pub listed: bool,
    /// In the loop's list of HTTP/2 connections with streams to write.
    pub to_flush: bool,
}

/// An answer read (or, on HTTP/2, a stream that failed alone): the request it ends, the
/// answer, and when its last byte was read.
pub type Completion = (InFlight, Result<Response, Failure>, Instant);

impl Conn {
    pub fn new(
        transport: Transport,
        phase: Phase,
        host: usize,
        max_body: u64,
        pipeline: usize,
    ) -> Conn {
        let now = Instant::now();
        Conn {
            transport,
            phase,
            host,
            began: now,
            connected_at: now,
            inflight: VecDeque::with_capacity(pipeline),
            unwritten: 0,
            written: 0,
            buf: vec![0; FIRST_BUFFER],
            start: 0,
            end: 0,
            reader: ResponseReader::new(max_body, false),
            served: 0,
            h2: None,
            listed: false,
            to_flush: false,
        }
    }

    /// Queues a request; it is written now if the connection is open.
    /// Queues a request; on HTTP/1.1 it is written now if the connection is open. On
    /// HTTP/2 it waits for the engine's next flush of the connection, so the streams of
    /// one pass go out together: one write and one TLS record for many requests, as an
    /// HTTP/2 client does (a write and a record each cost the server more than the frames
    /// in them). Returns whether the connection now waits for that flush.
    pub fn push(&mut self, r: InFlight, targets: &[PlannedTarget]) -> Result<bool, Failure> {
        self.inflight.push_back(r);
        self.unwritten += 1;
        if self.phase != Phase::Open {
            return Ok(false);
        }
        if self.h2.is_some() {
            return Ok(true);
        }
        self.flush(targets)?;
        Ok(false)
    }

    /// Writes what it can of the queued requests (and TLS records made earlier: the
    /// handshake's last one goes out with the first request, in one write); the rest
    /// waits for a writable event.
    pub fn flush(&mut self, targets: &[PlannedTarget]) -> Result<(), Failure> {
        if self.h2.is_some() {
            self.flush_h2(targets)?;
        } else {
            self.flush_h1(targets)?;
        }
        self.transport
            .flush()
            .map_err(|e| io_failure("cannot send", &e, self.transport.is_tls()))
    }

    fn flush_h1(&mut self, targets: &[PlannedTarget]) -> Result<(), Failure> {
        while self.unwritten > 0 {
            // The unwritten requests are the last ones queued.
            let next = self.inflight[self.inflight.len() - self.unwritten].target;
            let request = &targets[next].request;
            match self.transport.write(&request[self.written..]) {
                Ok(n) => {
                    self.written += n;
                    if self.written == request.len() {
                        self.written = 0;
                        self.unwritten -= 1;
                    }
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(()),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(io_failure("cannot send", &e, self.transport.is_tls())),
            }
        }
        Ok(())
    }

    /// HTTP/2: the queued requests as frames (those whose body waits for the server's
    /// window stay queued), then as much of the frames as the socket takes.
    fn flush_h2(&mut self, targets: &[PlannedTarget]) -> Result<(), Failure> {
        let h2 = self.h2.as_mut().expect("an HTTP/2 connection");
        // No new stream once the server is going away (RFC 9113 §6.8): those queued
        // stay unsent and are sent again elsewhere when the connection closes.
        while self.unwritten > 0 && h2.closing().is_none() {
            let idx = self.inflight.len() - self.unwritten;
            let r = &mut self.inflight[idx];
            if !h2.request(r, &targets[r.target])? {
                break;
            }
            self.unwritten -= 1;
        }
        while h2.out_written < h2.out.len() {
            match self.transport.write(&h2.out[h2.out_written..]) {
                Ok(n) => h2.out_written += n,
                Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(()),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(io_failure("cannot send", &e, self.transport.is_tls())),
            }
        }
        h2.out.clear();
        h2.out_written = 0;
        Ok(())
    }

    /// From now on the connection speaks HTTP/2: its preface and settings go first.
    pub fn start_h2(&mut self, max_body: u64) {
        self.h2 = Some(Box::new(H2::new(max_body)));
    }

    /// Room for another request: below the pipeline (HTTP/1.1) or the streams allowed
    /// (HTTP/2, which also has none once the server said it is going away).
    pub fn has_room(&self, pipeline: usize, streams: usize) -> bool {
        match &self.h2 {
            Some(h2) => h2.room(self.inflight.len(), streams),
            None => self.inflight.len() < pipeline,
        }
    }

    /// HTTP/2 after a GOAWAY (or with its stream ids spent): every stream the server
    /// will still answer is answered, so the connection can close (those never sent or
    /// never processed are then sent again elsewhere).
    pub fn done_after_goaway(&self) -> bool {
        let Some(last) = self.h2.as_ref().and_then(|h2| h2.closing()) else {
            return false;
        };
        !self
            .inflight
            .iter()
            .any(|r| r.stream != 0 && r.stream <= last)
    }

    /// The oldest request, given up (a timeout): on HTTP/2 its stream is cancelled and
    /// the connection goes on; on HTTP/1.1 the caller closes the connection.
    pub fn give_up_oldest(&mut self, targets: &[PlannedTarget]) -> Option<InFlight> {
        let r = self.inflight.pop_front()?;
        if self.unwritten > self.inflight.len() {
            self.unwritten -= 1;
        } else if let Some(h2) = self.h2.as_mut() {
            h2.cancel(r.stream);
            let _ = self.flush(targets);
        }
        Some(r)
    }

    /// After a writable event while connecting: true once connected (then open, or
    /// handshaking over TLS).
    pub fn connected(&mut self) -> Result<bool, Failure> {
        let socket = self.transport.socket();
        match socket.take_error() {
            Ok(Some(e)) | Err(e) => return Err(connect_failure(&e)),
            Ok(None) => {}
        }
        match socket.peer_addr() {
            Ok(_) => {
                let _ = socket.set_nodelay(true);
                self.connected_at = Instant::now();
                self.phase = if self.transport.is_tls() {
                    Phase::Handshaking
                } else {
                    Phase::Open
                };
                Ok(true)
            }
            Err(e) if e.kind() == ErrorKind::NotConnected => Ok(false),
            Err(e) => Err(connect_failure(&e)),
        }
    }

    /// Advances the TLS handshake; true once it is finished (the connection is then open).
    pub fn handshake(&mut self) -> Result<bool, Failure> {
        let done = self
            .transport
            .handshake()
            .map_err(|e| handshake_failure(&e))?;
        if done {
            self.phase = Phase::Open;
        }
        Ok(done)
    }

    /// Reads what has arrived and appends the answers it ends to `out`. `Ok(None)` while
    /// the connection stays open. On plain TCP a read shorter than the buffer drained the
    /// socket, so (the poll being edge-triggered) there is no need to read again until
    /// the next event, unless `to_the_end` (the peer signalled a close: read to its EOF).
    /// Over TLS a short read says only that rustls's plaintext ran out: read on until
    /// the socket would block.
    pub fn read(
        &mut self,
        to_the_end: bool,
        targets: &[PlannedTarget],
        out: &mut Vec<Completion>,
    ) -> Result<Option<Ending>, Failure> {
        let ending = self.read_socket(to_the_end, targets, out)?;
        if ending.is_none() && self.h2.is_some() {
            // Settings' and pings' acknowledgements, window updates, and requests a
            // window update (or the server's settings) let go.
            self.flush(targets)?;
            if self.done_after_goaway() {
                return Ok(Some(Ending::Closed));
            }
        }
        Ok(ending)
    }

    fn read_socket(
        &mut self,
        to_the_end: bool,
        targets: &[PlannedTarget],
        out: &mut Vec<Completion>,
    ) -> Result<Option<Ending>, Failure> {
        loop {
            if self.end == self.buf.len() {
                self.make_room();
            }
            let space = self.buf.len() - self.end;
            match self.transport.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    let done = Instant::now();
                    if self.h2.is_none() {
                        if let Some(resp) = self.reader.eof()? {
                            self.complete(resp, done, out)?;
                        }
                    }
                    return Ok(Some(Ending::Closed));
                }
                Ok(n) => {
                    self.end += n;
                    let done = Instant::now();
                    self.parse(done, targets, out)?;
                    if n < space && !to_the_end && !self.transport.is_tls() {
                        return Ok(None);
                    }
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(None),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(io_failure("connection reset", &e, self.transport.is_tls())),
            }
        }
    }

    /// True when no byte of the next answer has been read (a close now lost nothing).
    /// On HTTP/2 streams are apart: those still in flight when it closes after a GOAWAY
    /// were never processed (RFC 9113 §6.8).
    pub fn between_answers(&self) -> bool {
        self.h2.is_some() || (self.reader.idle() && self.start == self.end)
    }

    fn make_room(&mut self) {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        } else {
            let grown = (self.buf.len() * 2).min(2 * super::response::MAX_HEAD);
            self.buf.resize(grown.max(self.buf.len() + 1), 0);
        }
    }

    fn parse(
        &mut self,
        done: Instant,
        targets: &[PlannedTarget],
        out: &mut Vec<Completion>,
    ) -> Result<(), Failure> {
        if let Some(h2) = self.h2.as_mut() {
            let before = out.len();
            let used = h2.frames(
                &self.buf[self.start..self.end],
                &mut self.inflight,
                done,
                out,
            )?;
            self.start += used;
            self.served += out[before..].iter().filter(|c| c.1.is_ok()).count() as u64;
            if self.start == self.end {
                self.start = 0;
                self.end = 0;
            }
            return Ok(());
        }
        while self.start < self.end {
            if self.reader.idle() {
                let head = self
                    .inflight
                    .front()
                    .is_some_and(|r| targets[r.target].head);
                self.reader.answering_head(head);
            }
            let step = self.reader.advance(&self.buf[self.start..self.end])?;
            self.start += step.consumed;
            match step.done {
                Some(resp) => self.complete(resp, done, out)?,
                None => break,
            }
        }
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
        }
        Ok(())
    }

    fn complete(
        &mut self,
        resp: Response,
        done: Instant,
        out: &mut Vec<Completion>,
    ) -> Result<(), Failure> {
        if self.unwritten > 0 && self.unwritten >= self.inflight.len() {
            // The front request is not all written yet: the server answered before it
            // read the request (a 413, a 401), and the connection is out of step.
            return Err(Failure {
                kind: "an answer to no request",
                detail: format!(
                    "status {} arrived before the request was all sent",
                    resp.status
                ),
            });
        }
        let Some(r) = self.inflight.pop_front() else {
            return Err(Failure {
                kind: "an answer to no request",
                detail: format!("status {} arrived with nothing in flight", resp.status),
            });
        };
        self.served += 1;
        out.push((r, Ok(resp), done));
        Ok(())
    }
}

pub fn connect_failure(e: &std::io::Error) -> Failure {
    let kind = match e.kind() {
        ErrorKind::ConnectionRefused => "cannot connect: refused",
        ErrorKind::TimedOut => "cannot connect: timed out",
        _ => "cannot connect",
    };
    Failure {
        kind,
        detail: e.to_string(),
    }
}

/// A TLS handshake that failed on a connection of the test (the one before the load
/// passed: the server changed, or a resumption was refused).
fn handshake_failure(e: &std::io::Error) -> Failure {
    let kind = match tls_error(e) {
        Some(rustls::Error::InvalidCertificate(_)) => "TLS certificate refused",
        Some(_) => "TLS handshake failed",
        None => "connection closed during the TLS handshake",
    };
    Failure {
        kind,
        detail: e.to_string(),
    }
}

/// rustls's own error inside an I/O error, where it is one.
fn tls_error(e: &std::io::Error) -> Option<&rustls::Error> {
    e.get_ref()?.downcast_ref::<rustls::Error>()
}

/// Said of a plain connection dropped before any answer: what a TLS port does to a
/// request in clear text.
pub(crate) const MAYBE_TLS: &str = "a port that speaks TLS drops requests in clear text: https://?";

/// An I/O error on a connection, classified; on a plain one, a reset or a close before
/// any answer is what a TLS port does to a request in clear text, and is said so.
fn io_failure(kind: &'static str, e: &std::io::Error, tls: bool) -> Failure {
    if tls_error(e).is_some() {
        return Failure {
            kind: "TLS error",
            detail: e.to_string(),
        };
    }
    let kind = match e.kind() {
        ErrorKind::ConnectionReset => "connection reset",
        ErrorKind::BrokenPipe => "connection closed before a response",
        _ => kind,
    };
    let dropped = matches!(e.kind(), ErrorKind::ConnectionReset | ErrorKind::BrokenPipe);
    let detail = match dropped && !tls {
        true => format!("{e} ({MAYBE_TLS})"),
        false => e.to_string(),
    };
    Failure { kind, detail }
}
