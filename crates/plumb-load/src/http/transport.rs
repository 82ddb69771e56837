//! The bytes under a connection: a plain non-blocking TCP socket, or TLS over one
//! (rustls, driven by hand as its `tlsclient-mio` example does). Both read and write
//! plaintext with a socket's non-blocking meaning — `WouldBlock` when nothing more can
//! move until the next event — so the connection above is the same code for both; the
//! plain path costs one match per read or write.
use mio::net::TcpStream;
use rustls::ClientConnection;
use std::io::{self, ErrorKind, Read, Write};

pub enum Transport {
    Plain(TcpStream),
    Tls(Box<TlsStream>),
}

pub struct TlsStream {
    tcp: TcpStream,
    tls: ClientConnection,
    /// The server closed the TCP stream (a read returned 0).
    eof: bool,
}

impl Transport {
    pub fn tls(tcp: TcpStream, tls: ClientConnection) -> Transport {
        Transport::Tls(Box::new(TlsStream {
            tcp,
            tls,
            eof: false,
        }))
    }

    /// The socket, for the poll's registry and the connect's checks.
    pub fn socket(&mut self) -> &mut TcpStream {
        match self {
            Transport::Plain(s) => s,
            Transport::Tls(t) => &mut t.tcp,
        }
    }

    pub fn is_tls(&self) -> bool {
        matches!(self, Transport::Tls(_))
    }

    /// Writes plaintext: to the socket, or into TLS records and as many of them to the
    /// socket as it takes now (the rest on the next writable event, by `flush`).
    pub fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Transport::Plain(s) => s.write(buf),
            Transport::Tls(t) => {
                let n = t.tls.writer().write(buf)?;
                t.send_records()?;
                if n == 0 && !buf.is_empty() {
                    // rustls's buffer is full until the socket takes some of it.
                    return Err(ErrorKind::WouldBlock.into());
                }
                Ok(n)
            }
        }
    }

    /// Sends TLS records already made (nothing to do on a plain socket).
    pub fn flush(&mut self) -> io::Result<()> {
        match self {
            Transport::Plain(_) => Ok(()),
            Transport::Tls(t) => t.send_records(),
        }
    }

    /// Reads plaintext: `Ok(0)` at the end of the stream, `WouldBlock` when the socket
    /// is drained.
    pub fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Transport::Plain(s) => s.read(buf),
            Transport::Tls(t) => t.read(buf),
        }
    }

    /// Advances the TLS handshake with what the socket has; true once it is finished
    /// (always true for plain TCP).
    pub fn handshake(&mut self) -> io::Result<bool> {
        let Transport::Tls(t) = self else {
            return Ok(true);
        };
        t.send_records()?;
        while t.tls.is_handshaking() {
            match t.tls.read_tls(&mut t.tcp) {
                Ok(0) => {
                    return Err(io::Error::new(
                        ErrorKind::ConnectionAborted,
                        "the server closed the connection during the TLS handshake",
                    ))
                }
                Ok(_) => {
                    let processed = t.tls.process_new_packets();
                    if let Err(e) = processed {
                        // An alert for the server, where rustls made one, before failing.
                        let _ = t.send_records();
                        return Err(io::Error::other(e));
                    }
                    // The client's last handshake record (TLS 1.3's Finished) waits for
                    // the first request, to go out in the same write.
                    if t.tls.is_handshaking() {
                        t.send_records()?;
                    }
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(false),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(true)
    }

    /// Whether HTTP/2 may be spoken: over TLS only where ALPN agreed `h2`; over plain TCP
    /// always (prior knowledge: the caller asked for it).
    pub fn speaks_h2(&self) -> bool {
        match self {
            Transport::Plain(_) => true,
            Transport::Tls(t) => t.tls.alpn_protocol() == Some(b"h2"),
        }
    }

    /// After the handshake: whether it resumed an earlier session.
    pub fn resumed(&self) -> bool {
        match self {
            Transport::Plain(_) => false,
            Transport::Tls(t) => t.tls.handshake_kind() == Some(rustls::HandshakeKind::Resumed),
        }
    }
}

impl TlsStream {
    fn send_records(&mut self) -> io::Result<()> {
        while self.tls.wants_write() {
            match self.tls.write_tls(&mut self.tcp) {
                Ok(_) => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(()),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.tls.reader().read(buf) {
                Ok(n) => return Ok(n),
                // The TCP stream ended without TLS's close_notify: an end all the same
                // (the HTTP reader decides whether an answer was cut).
                Err(e) if e.kind() == ErrorKind::UnexpectedEof => return Ok(0),
                Err(e) if e.kind() == ErrorKind::WouldBlock && self.eof => return Ok(0),
                Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
            match self.tls.read_tls(&mut self.tcp) {
                Ok(0) => self.eof = true,
                Ok(_) => {}
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
            let processed = self.tls.process_new_packets();
            let _ = self.send_records();
            processed.map_err(io::Error::other)?;
        }
    }
}
