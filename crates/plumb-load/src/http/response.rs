//! An HTTP/1.1 response reader that keeps a connection in step: the head parsed by
//! `httparse` (hyper's parser), the body framed by Content-Length, chunked encoding or the
//! connection's close, and skipped, not kept: a load generator needs the status, the
//! framing and the size, never the bytes. Compressed bodies (gzip) are framed the same
//! way and not decompressed. A body above `max_body` ends the connection as an error.
//!
//! Written here rather than taken from hyper's client because the generator's event loop
//! owns its sockets (see `engine`): hyper's client needs a task and a channel per request.

use plumb_model::quantity::ByteSize;

/// Responses whose head exceeds this are refused (nginx's largest default is 32 KiB).
pub const MAX_HEAD: usize = 64 * 1024;
const MAX_HEADERS: usize = 100;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Response {
    pub status: u16,
    /// The server will close the connection after it (`Connection: close`, HTTP/1.0).
    pub close: bool,
    /// The body's length.
    pub body: ByteSize,
}

pub use super::recorder::Failure;

fn error(kind: &'static str, detail: impl Into<String>) -> Failure {
    Failure {
        kind,
        detail: detail.into(),
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum State {
    Head,
    Body { left: u64 },
    ChunkSize,
    ChunkData { left: u64 },
    ChunkEnd,
    Trailers,
    UntilClose,
}

/// One response at a time. `advance` consumes what it can from the bytes read so far.
pub struct ResponseReader {
    state: State,
    max_body: u64,
    head_request: bool,
    status: u16,
    close: bool,
    body: u64,
}

/// What `advance` did: bytes it consumed, and the response if one ended.
#[derive(Debug, PartialEq)]
pub struct Step {
    pub consumed: usize,
    pub done: Option<Response>,
}

impl ResponseReader {
    /// `head_request`: answers to HEAD have no body whatever their headers say.
    pub fn new(max_body: u64, head_request: bool) -> Self {
        ResponseReader {
            state: State::Head,
            max_body,
            head_request,
            status: 0,
            close: false,
            body: 0,
        }
    }

    /// Whether the next response answers a HEAD request (set between responses: on a
    /// connection carrying a mix, request by request).
    pub fn answering_head(&mut self, head_request: bool) {
        self.head_request = head_request;
    }

    /// True between responses: nothing of the next one has been read.
    pub fn idle(&self) -> bool {
        self.state == State::Head
    }

    /// Reads from `buf` until a response ends or more bytes are needed.
    pub fn advance(&mut self, buf: &[u8]) -> Result<Step, Failure> {
        let mut at = 0;
        loop {
            let rest = &buf[at..];
            let used = match self.state {
                State::Head => self.head(rest)?,
                State::Body { left } => {
                    let n = (rest.len() as u64).min(left);
                    self.state = State::Body { left: left - n };
                    self.body += n;
                    n as usize
                }
                State::UntilClose => {
                    self.body += rest.len() as u64;
                    self.check_size()?;
                    rest.len()
                }
                State::ChunkSize => self.chunk_size(rest)?,
                State::ChunkData { left } => {
                    let n = (rest.len() as u64).min(left);
                    self.state = match left - n {
                        0 => State::ChunkEnd,
                        l => State::ChunkData { left: l },
                    };
                    self.body += n;
                    n as usize
                }
                State::ChunkEnd => match rest {
                    [b'\r', b'\n', ..] => {
                        self.state = State::ChunkSize;
                        2
                    }
                    [] | [b'\r'] => 0,
                    _ => return Err(error("bad chunked body", "no CRLF after a chunk")),
                },
                State::Trailers => self.trailers(rest)?,
            };
            at += used;
            if let Some(r) = self.finished() {
                return Ok(Step {
                    consumed: at,
                    done: Some(r),
                });
            }
            if used == 0 || at == buf.len() {
                return Ok(Step {
                    consumed: at,
                    done: None,
                });
            }
        }
    }

    /// The connection closed: ends a response framed by the close, fails any other.
    pub fn eof(&mut self) -> Result<Option<Response>, Failure> {
        match self.state {
            State::UntilClose => {
                self.state = State::Body { left: 0 };
                Ok(self.finished())
            }
            State::Head => Ok(None),
            _ => Err(error(
                "connection closed mid-response",
                format!("closed after {} body bytes", self.body),
            )),
        }
    }

    fn finished(&mut self) -> Option<Response> {
        if self.state != (State::Body { left: 0 }) {
            return None;
        }
        self.state = State::Head;
        Some(Response {
            status: self.status,
            close: self.close,
            body: ByteSize(std::mem::take(&mut self.body)),
        })
    }

    fn check_size(&self) -> Result<(), Failure> {
        if self.body > self.max_body {
            return Err(error(
                "response larger than --max-body",
                format!("more than {} body bytes", self.max_body),
            ));
        }
        Ok(())
    }

    fn head(&mut self, buf: &[u8]) -> Result<usize, Failure> {
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut r = httparse::Response::new(&mut headers);
        let n = match r.parse(buf) {
            Ok(httparse::Status::Complete(n)) => n,
            Ok(httparse::Status::Partial) if buf.len() >= MAX_HEAD => {
                return Err(error(
                    "response head too large",
                    format!(
                        "no end of headers in {}",
                        plumb_model::format::bytes(ByteSize(MAX_HEAD as u64))
                    ),
                ))
            }
            Ok(httparse::Status::Partial) => return Ok(0),
            Err(e) => return Err(not_http(e, buf)),
        };
        let status = r.code.unwrap_or(0);
        if (100..200).contains(&status) {
            if status == 101 {
                return Err(error("protocol switch", "the server answered 101"));
            }
            return Ok(n); // an interim response: the real one follows
        }
        self.status = status;
        self.close = r.version == Some(0);
        let mut length = None;
        let mut chunked = false;
        for h in r.headers.iter() {
            let value = std::str::from_utf8(h.value).unwrap_or("").trim();
            if h.name.eq_ignore_ascii_case("content-length") {
                let n: u64 = value
                    .parse()
                    .map_err(|_| error("bad Content-Length", format!("{value:?}")))?;
                if length.is_some_and(|l| l != n) {
                    return Err(error("bad Content-Length", "two different lengths"));
                }
                length = Some(n);
            } else if h.name.eq_ignore_ascii_case("transfer-encoding") {
                chunked = value.to_ascii_lowercase().ends_with("chunked");
            } else if h.name.eq_ignore_ascii_case("connection") {
                let v = value.to_ascii_lowercase();
                if v.contains("close") {
                    self.close = true;
                } else if v.contains("keep-alive") {
                    self.close = false;
                }
            }
        }
        self.body = 0;
        self.state = if self.head_request || status == 204 || status == 304 {
            State::Body { left: 0 }
        } else if chunked {
            State::ChunkSize
        } else if let Some(n) = length {
            if n > self.max_body {
                return Err(error(
                    "response larger than --max-body",
                    format!(
                        "Content-Length {n} > {} (--max-body)",
                        ByteSize(self.max_body)
                    ),
                ));
            }
            State::Body { left: n }
        } else {
            self.close = true;
            State::UntilClose
        };
        Ok(n)
    }

    fn chunk_size(&mut self, buf: &[u8]) -> Result<usize, Failure> {
        match httparse::parse_chunk_size(buf) {
            Ok(httparse::Status::Complete((n, 0))) => {
                self.state = State::Trailers;
                Ok(n)
            }
            Ok(httparse::Status::Complete((n, size))) => {
                self.body += size;
                self.check_size()?;
                self.body -= size;
                self.state = State::ChunkData { left: size };
                Ok(n)
            }
            Ok(httparse::Status::Partial) if buf.len() > 1024 => {
                Err(error("bad chunked body", "a chunk-size line over 1 KiB"))
            }
            Ok(httparse::Status::Partial) => Ok(0),
            Err(_) => Err(error("bad chunked body", "an invalid chunk size")),
        }
    }

    /// Trailer lines after the last chunk, up to the empty line that ends the response.
    fn trailers(&mut self, buf: &[u8]) -> Result<usize, Failure> {
        let mut at = 0;
        while let Some(end) = buf[at..].windows(2).position(|w| w == b"\r\n") {
            at += end + 2;
            if end == 0 {
                self.state = State::Body { left: 0 };
                return Ok(at);
            }
        }
        if buf.len() >= MAX_HEAD {
            return Err(error("bad chunked body", "trailers over 64 KiB"));
        }
        Ok(at)
    }
}

fn not_http(e: httparse::Error, buf: &[u8]) -> Failure {
    let shown: String = String::from_utf8_lossy(&buf[..buf.len().min(40)])
        .chars()
        .map(|c| if c.is_control() { '·' } else { c })
        .collect();
    error("not an HTTP response", format!("{e}; it began {shown:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `wire` in pieces of `piece` bytes (as reads would deliver it), keeping the
    /// unconsumed tail like the connection's buffer; returns the responses.
    fn read_all(wire: &[u8], piece: usize, max_body: u64) -> Result<Vec<Response>, Failure> {
        let mut r = ResponseReader::new(max_body, false);
        let (mut buf, mut out) = (Vec::new(), Vec::new());
        for part in wire.chunks(piece) {
            buf.extend_from_slice(part);
            loop {
                let step = r.advance(&buf)?;
                buf.drain(..step.consumed);
                match step.done {
                    Some(resp) => out.push(resp),
                    None => break,
                }
            }
        }
        if let Some(resp) = r.eof()? {
            out.push(resp);
        }
        Ok(out)
    }

    const CHUNKED: &[u8] = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\
        5;ext=1\r\nhello\r\n10\r\n0123456789abcdef\r\n0\r\nX-Trailer: t\r\n\r\n";

    #[test]
    fn every_framing_reads_the_same_whatever_the_read_sizes() {
        let mut wire = Vec::new();
        wire.extend_from_slice(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        wire.extend_from_slice(CHUNKED);
        wire.extend_from_slice(
            b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n",
        );
        wire.extend_from_slice(b"HTTP/1.1 204 No Content\r\n\r\n");
        wire.extend_from_slice(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 4\r\nConnection: close\r\n\r\n\x1f\x8b\x08\x00");
        wire.extend_from_slice(b"HTTP/1.0 200 OK\r\n\r\nuntil the close");
        let expect = vec![
            Response {
                status: 200,
                close: false,
                body: ByteSize(2),
            },
            Response {
                status: 200,
                close: false,
                body: ByteSize(21),
            },
            Response {
                status: 404,
                close: false,
                body: ByteSize(0),
            },
            Response {
                status: 204,
                close: false,
                body: ByteSize(0),
            },
            Response {
                status: 200,
                close: true,
                body: ByteSize(4),
            },
            Response {
                status: 200,
                close: true,
                body: ByteSize(15),
            },
        ];
        for piece in [1, 2, 3, 7, 64, wire.len()] {
            assert_eq!(
                read_all(&wire, piece, 1 << 20).unwrap(),
                expect,
                "pieces of {piece}"
            );
        }
    }

    #[test]
    fn oversized_bodies_are_refused_by_length_and_by_chunks() {
        let e = read_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2000\r\n\r\n", 64, 1000).unwrap_err();
        assert_eq!(e.kind, "response larger than --max-body");
        assert!(e.detail.contains("2000 > 1000"), "{e:?}");
        let e = read_all(CHUNKED, 5, 20).unwrap_err();
        assert_eq!(e.kind, "response larger than --max-body");
        let e = read_all(b"HTTP/1.0 200 OK\r\n\r\n0123456789", 3, 5).unwrap_err();
        assert_eq!(e.kind, "response larger than --max-body");
    }

    #[test]
    fn broken_responses_name_what_broke() {
        let e = read_all(b"SSH-2.0-OpenSSH_9.2\r\n\r\n", 64, 100).unwrap_err();
        assert_eq!(e.kind, "not an HTTP response");
        assert!(e.detail.contains("SSH-2.0"), "{e:?}");
        let e = read_all(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", 64, 100).unwrap_err();
        assert_eq!(e.kind, "connection closed mid-response");
        let e = read_all(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            64,
            100,
        )
        .unwrap_err();
        assert_eq!(e.kind, "bad chunked body");
        let e = read_all(b"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n", 64, 100).unwrap_err();
        assert_eq!(e.kind, "bad Content-Length");
        let long = [b"HTTP/1.1 200 OK\r\nX: ".as_slice(), &[b'a'; MAX_HEAD]].concat();
        assert_eq!(
            read_all(&long, 4096, 100).unwrap_err().kind,
            "response head too large"
        );
        assert!(
            read_all(b"", 1, 100).unwrap().is_empty(),
            "no bytes: no response"
        );
    }

    #[test]
    fn head_requests_have_no_body() {
        let mut r = ResponseReader::new(100, true);
        let wire = b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n";
        let step = r.advance(wire).unwrap();
        assert_eq!(step.consumed, wire.len());
        assert_eq!(step.done.unwrap().body, ByteSize(0));
        assert!(r.idle());
    }
}
