//! The engine's connections from first to last: opened (or adopted) in a host's pool,
//! connected, TLS handshaken, offered for requests, read, closed (their requests retried
//! or failed), replaced, and timed out.
use super::{Engine, Pool, Waiting, MAX_CONNECTING};
use crate::http::clock::TimeSource;
use crate::http::conn::{connect_failure, Conn, Ending, Phase, MAYBE_TLS};
use crate::http::recorder::{Answer, Failure};
use crate::http::transport::Transport;
use crate::LoadError;
use mio::{Interest, Token};
use std::sync::Arc;
use std::time::{Duration, Instant};

impl<C: TimeSource> Engine<C> {
    /// The connection to host 0 opened before the test (connected in `took`): open for
    /// requests, or its handshake begun over TLS.
    pub(super) fn adopt(
        &mut self,
        s: std::net::TcpStream,
        took: Duration,
    ) -> Result<(), LoadError> {
        s.set_nonblocking(true)
            .map_err(super::system("cannot use the connection"))?;
        let _ = s.set_nodelay(true);
        let cannot = |f: Failure| LoadError::System {
            what: "cannot use the connection",
            cause: f.detail,
        };
        let s = mio::net::TcpStream::from_std(s);
        self.rec.whole.setup.connected(took);
        let phase = match self.plan.hosts[0].tls {
            Some(_) => Phase::Handshaking,
            None => Phase::Open,
        };
        let i = self.insert(s, phase, 0).map_err(cannot)?;
        self.pools[0].connecting += 1;
        if phase == Phase::Handshaking {
            self.advance_handshake(i).map_err(cannot)?;
        } else {
            self.opened_now(i).map_err(cannot)?;
        }
        Ok(())
    }

    pub(super) fn connect(&mut self, h: usize) -> Result<usize, Failure> {
        let s = mio::net::TcpStream::connect(self.plan.hosts[h].addr)
            .map_err(|e| connect_failure(&e))?;
        let i = self.insert(s, Phase::Connecting, h)?;
        self.pools[h].connecting += 1;
        Ok(i)
    }

    /// The transport for a new socket to host `h`: plain, or a new TLS session over it.
    fn transport(&self, s: mio::net::TcpStream, h: usize) -> Result<Transport, Failure> {
        let Some(tls) = &self.plan.hosts[h].tls else {
            return Ok(Transport::Plain(s));
        };
        let session = rustls::ClientConnection::new(Arc::clone(&tls.config), tls.name.clone())
            .map_err(|e| Failure {
                kind: "TLS handshake failed",
                detail: e.to_string(),
            })?;
        Ok(Transport::tls(s, session))
    }

    fn insert(
        &mut self,
        mut s: mio::net::TcpStream,
        phase: Phase,
        h: usize,
    ) -> Result<usize, Failure> {
        let i = self.free.pop().unwrap_or(self.conns.len());
        self.poll
            .registry()
            .register(&mut s, Token(i), Interest::READABLE | Interest::WRITABLE)
            .map_err(|e| connect_failure(&e))?;
        let transport = match self.transport(s, h) {
            Ok(t) => t,
            Err(f) => {
                self.free.push(i);
                return Err(f);
            }
        };
        let c = Conn::new(transport, phase, h, self.plan.max_body, self.plan.pipeline);
        if i == self.conns.len() {
            self.conns.push(Some(c));
        } else {
            self.conns[i] = Some(c);
        }
        self.pools[h].open += 1;
        self.opened += 1;
        Ok(i)
    }

    /// After a writable event while connecting: false while the connect is under way.
    /// Once connected (and over TLS, once the handshake is done: `advance_handshake`)
    /// the queued request is written, the connection offered for more, and waiting
    /// requests may open further connections.
    pub(super) fn finish_connect(&mut self, i: usize) -> Result<bool, Failure> {
        let c = self.conns[i].as_mut().expect("a live connection");
        if !c.connected()? {
            return Ok(false);
        }
        self.rec.whole.setup.connected(c.connected_at - c.began);
        if c.phase == Phase::Handshaking {
            return self.advance_handshake(i);
        }
        self.opened_now(i)
    }

    /// The TLS handshake moved on with an event; once done the connection is open.
    pub(super) fn advance_handshake(&mut self, i: usize) -> Result<bool, Failure> {
        let c = self.conns[i].as_mut().expect("a live connection");
        if !c.handshake()? {
            return Ok(false);
        }
        let took = self.clock.now().saturating_duration_since(c.connected_at);
        self.rec.whole.setup.handshaken(took, c.transport.resumed());
        self.opened_now(i)
    }

    /// A connection just became open: HTTP/2 begun where it is to be spoken (ALPN `h2`
    /// over TLS, prior knowledge over plain TCP), and its queued request goes out.
    fn opened_now(&mut self, i: usize) -> Result<bool, Failure> {
        let c = self.conns[i].as_mut().expect("a live connection");
        if self.plan.http2 && c.transport.speaks_h2() {
            c.start_h2(self.plan.max_body);
            self.rec.whole.setup.http2 += 1;
        }
        let h = c.host;
        self.pools[h].connecting -= 1;
        c.flush(&self.plan.targets)?;
        // Waiting requests fill it (HTTP/2: as many as its streams allow) before any
        // further connection is opened for them.
        self.fill(i);
        if self.conns[i].is_some() {
            self.offer(i);
        }
        if !self.pools[h].waiting.is_empty() {
            self.grow(h, self.clock.now());
        }
        Ok(true)
    }

    /// Connection `i` takes waiting requests while it has room; false if it closed.
    fn fill(&mut self, i: usize) -> bool {
        let now = self.clock.now();
        loop {
            let Some(c) = self.conns[i].as_ref() else {
                return false;
            };
            if c.phase != Phase::Open || !c.has_room(self.plan.pipeline, self.plan.streams) {
                return true;
            }
            let Some(w) = self.pools[c.host].waiting.pop_front() else {
                return true;
            };
            self.start_waiting(i, w, now);
        }
    }

    /// Connections being opened at once to host `h`: a few with keep-alive (a burst
    /// waits for them), the in-flight bound with a new connection per request (every
    /// request opens one).
    pub(super) fn max_connecting(&self, h: usize) -> usize {
        if self.plan.new_connection {
            self.pools[h].limit
        } else {
            MAX_CONNECTING
        }
    }

    /// Puts connection `i` on its host's free list if it is open, has room and is not
    /// there yet (with a new connection per request: only if it never carried one).
    pub(super) fn offer(&mut self, i: usize) {
        let Some(c) = self.conns[i].as_mut() else {
            return;
        };
        let unused = !self.plan.new_connection || (c.served == 0 && c.inflight.is_empty());
        if c.phase == Phase::Open
            && c.has_room(self.plan.pipeline, self.plan.streams)
            && !c.listed
            && unused
        {
            c.listed = true;
            self.pools[c.host].ready.push(i);
        }
    }

    pub(super) fn read(&mut self, i: usize, to_the_end: bool) {
        let mut done = std::mem::take(&mut self.done);
        let c = self.conns[i].as_mut().expect("a live connection");
        let result = c.read(to_the_end, &self.plan.targets, &mut done);
        let mut close = None;
        let answered = done.len();
        for (r, answer, at) in done.drain(..) {
            self.in_flight -= 1;
            let resp = match answer {
                Ok(resp) => resp,
                Err(f) => {
                    self.rec
                        .done(r.target, r.due, r.sent, at, Answer::Failed(f));
                    continue;
                }
            };
            let outcome = if resp.status >= 400 {
                Answer::Status(resp.status)
            } else {
                Answer::Ok
            };
            self.rec.body(r.target, r.due, resp.body.0);
            self.rec.done(r.target, r.due, r.sent, at, outcome);
            if resp.close {
                close = Some(Ending::Closed);
            }
        }
        self.done = done;
        match (result, close) {
            (Err(f), _) => self.close(i, Ending::Failed(f)),
            (Ok(Some(end)), _) | (Ok(None), Some(end)) => self.close(i, end),
            (Ok(None), None) => self.room(i, answered),
        }
    }

    /// `answered` requests of the connection were answered: it has room again for the
    /// oldest requests waiting for its host, as many closed-loop requests, or goes onto
    /// the free list.
    fn room(&mut self, i: usize, answered: usize) {
        let c = self.conns[i].as_ref().expect("a live connection");
        if self.plan.new_connection && c.served > 0 {
            // Its one request answered: closed, and the next request opens its own.
            if c.inflight.is_empty() {
                self.close(i, Ending::Closed);
            }
            return;
        }
        if !self.fill(i) {
            return;
        }
        let now = self.clock.now();
        if matches!(self.plan.work, super::Work::Closed(_)) {
            for _ in 0..answered {
                let room = self.conns[i]
                    .as_ref()
                    .is_some_and(|c| c.has_room(self.plan.pipeline, self.plan.streams));
                if !room || now >= self.plan.end {
                    break;
                }
                let t = self.draw();
                self.send(i, t, now, false);
            }
        } else {
            self.offer(i);
        }
    }

    /// Ends a connection. Its requests fail, except those a closed keep-alive
    /// connection never began to answer: sent again once, like browsers and hyper do
    /// (an idempotent request only).
    pub(super) fn close(&mut self, i: usize, why: Ending) {
        let Some(mut c) = self.conns[i].take() else {
            return;
        };
        let h = c.host;
        if c.phase != Phase::Open {
            self.pools[h].connecting -= 1;
        }
        let _ = self.poll.registry().deregister(c.transport.socket());
        self.free.push(i);
        self.pools[h].open -= 1;
        let now = self.clock.now();
        let clean = c.between_answers();
        let mut first = true;
        while let Some(r) = c.inflight.pop_front() {
            self.in_flight -= 1;
            // HTTP/2: a stream never sent, or one the server's GOAWAY said it never
            // processed, is safe to send again whatever closed the connection; one with
            // nothing of its answer read, as on HTTP/1.1, if the server closed it.
            let unprocessed = c.h2.as_ref().is_some_and(|h2| h2.unprocessed(&r));
            let untouched = clean && r.status == 0 && r.received == 0;
            let retry = (unprocessed || (why == Ending::Closed && untouched && c.served > 0))
                && self.plan.targets[r.target].idempotent
                && !r.retried;
            if retry {
                self.rec.retried(r.target, r.due);
                self.pools[h].waiting.push_front(Waiting {
                    due: r.due,
                    since: now,
                    retried: true,
                    bound_full: false,
                    target: r.target,
                });
                continue;
            }
            let f = closed_failure(&why, first, c.served, c.transport.is_tls());
            first = false;
            self.rec
                .done(r.target, r.due, r.sent, now, Answer::Failed(f));
        }
        self.grow(h, now);
    }

    /// New connections to host `h`, within the bounds, for waiting requests, or to
    /// replace a closed one in the closed loop.
    pub(super) fn grow(&mut self, h: usize, now: Instant) {
        let closed = matches!(self.plan.work, super::Work::Closed(_));
        while self.pools[h].open < self.pools[h].limit
            && self.pools[h].connecting < self.max_connecting(h)
        {
            let w = self.pools[h].waiting.pop_front();
            if w.is_none() && !(closed && now < self.plan.end) {
                return;
            }
            match self.connect(h) {
                Ok(i) => match w {
                    Some(w) => self.start_waiting(i, w, now),
                    None => {
                        let t = self.draw();
                        self.send(i, t, now, false)
                    }
                },
                Err(f) => {
                    // Fail one request, not the test: the next close or due time tries again.
                    if let Some(w) = w {
                        self.rec.done(w.target, w.due, now, now, Answer::Failed(f));
                    }
                    return;
                }
            }
            if closed {
                return;
            }
        }
    }

    fn start_waiting(&mut self, i: usize, w: Waiting, now: Instant) {
        if w.bound_full {
            self.rec.waited_for_slot(w.target, w.due, now - w.since);
        }
        self.send(i, w.target, w.due, w.retried);
    }

    /// Requests past their deadline fail as timeouts (and take their connection with
    /// them: a late answer would arrive for the wrong request; one still handshaking
    /// fails as a handshake timeout); waiting requests past theirs fail without being
    /// sent.
    pub(super) fn expire(&mut self, now: Instant) {
        for i in 0..self.conns.len() {
            let late = self.conns[i]
                .as_ref()
                .and_then(|c| c.inflight.front())
                .is_some_and(|r| r.deadline <= now);
            if late {
                let c = self.conns[i].as_mut().expect("checked");
                if c.h2.is_some() && c.phase == Phase::Open {
                    // One stream timed out; the connection's others go on.
                    let r = c.give_up_oldest(&self.plan.targets).expect("checked");
                    let done = c.done_after_goaway();
                    self.in_flight -= 1;
                    self.rec.done(r.target, r.due, r.sent, now, Answer::Timeout);
                    if done {
                        self.close(i, Ending::Closed);
                    } else {
                        self.offer(i);
                    }
                    continue;
                }
                let r = c.inflight.pop_front().expect("checked");
                self.in_flight -= 1;
                let answer = if c.phase == Phase::Handshaking {
                    Answer::Failed(handshake_timeout(
                        now.saturating_duration_since(c.connected_at),
                    ))
                } else {
                    Answer::Timeout
                };
                self.rec.done(r.target, r.due, r.sent, now, answer);
                self.close(
                    i,
                    Ending::Failed(Failure {
                        kind: "connection closed before a response",
                        detail: "pipelined behind a request that timed out".into(),
                    }),
                );
            }
        }
        let timeout = self.plan.timeout;
        for pool in &mut self.pools {
            expire_waiting(pool, now, timeout, &mut self.rec);
        }
    }
}

/// Waiting requests past their timeout fail without being sent.
fn expire_waiting(
    pool: &mut Pool,
    now: Instant,
    timeout: Duration,
    rec: &mut crate::http::recorders::Recorders,
) {
    while pool
        .waiting
        .front()
        .is_some_and(|w| w.since + timeout <= now)
    {
        let w = pool.waiting.pop_front().expect("checked");
        rec.failed_unsent(
            w.target,
            w.due,
            "timeout waiting for a free connection",
            "every connection stayed busy (the in-flight bound) for the whole timeout",
        );
    }
}

fn handshake_timeout(after: Duration) -> Failure {
    Failure {
        kind: "TLS handshake timeout",
        detail: format!(
            "the TLS handshake had not finished {} after the connection was made",
            plumb_model::format::time(after)
        ),
    }
}

/// Why a request on a connection that ended failed: the first carries the ending's
/// cause; those pipelined behind it say so. A plain connection closed before any answer
/// is what a TLS port does to a request in clear text: said so.
fn closed_failure(why: &Ending, first: bool, served: u64, tls: bool) -> Failure {
    match (why, first) {
        (Ending::Failed(f), true) => f.clone(),
        (Ending::Closed, true) if served == 0 => {
            let closed = "the server accepted the connection and closed it without answering";
            Failure {
                kind: "connection closed before a response",
                detail: match tls {
                    true => closed.into(),
                    false => format!("{closed} ({MAYBE_TLS})"),
                },
            }
        }
        (Ending::Closed, true) => Failure {
            kind: "connection closed before a response",
            detail: format!("closed after {served} answers on it"),
        },
        _ => Failure {
            kind: "connection closed before a response",
            detail: "pipelined behind a request whose connection failed".into(),
        },
    }
}
