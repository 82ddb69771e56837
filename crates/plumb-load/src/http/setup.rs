//! Connection setup timed apart from the requests: each TCP connect and TLS handshake of
//! the test (warm-up included: with keep-alive most connections open then), recorded
//! once per connection, never per request.
use crate::model::distribution;
use crate::LatencyHistogram;
use plumb_model::ConnectionSetup;
use std::time::Duration;

#[derive(Clone, Default)]
pub struct SetupTimes {
    pub connect: LatencyHistogram,
    pub handshake: LatencyHistogram,
    /// Handshakes that resumed a session.
    pub resumed: u64,
    /// The test spoke TLS (a handshake distribution is then reported even if empty).
    pub tls: bool,
    /// Connections that spoke HTTP/2.
    pub http2: u64,
}

impl SetupTimes {
    pub fn new(tls: bool) -> Self {
        SetupTimes {
            tls,
            ..SetupTimes::default()
        }
    }

    pub fn connected(&mut self, took: Duration) {
        self.connect.record_us(took.as_secs_f64() * 1e6);
    }

    pub fn handshaken(&mut self, took: Duration, resumed: bool) {
        self.handshake.record_us(took.as_secs_f64() * 1e6);
        self.resumed += u64::from(resumed);
    }

    /// Another thread's setups, as if timed by one.
    pub fn merge(&mut self, other: &SetupTimes) {
        self.connect.merge(&other.connect);
        self.handshake.merge(&other.handshake);
        self.resumed += other.resumed;
        self.tls |= other.tls;
        self.http2 += other.http2;
    }

    /// The result's record; `None` when no connection was timed.
    pub fn record(&self) -> Option<ConnectionSetup> {
        if self.connect.count() == 0 && self.handshake.count() == 0 {
            return None;
        }
        Some(ConnectionSetup {
            connect: distribution(&self.connect),
            handshake: self.tls.then(|| distribution(&self.handshake)),
            resumed: self.resumed,
            http2: self.http2,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_setups_add_and_plain_http_has_no_handshake() {
        let mut a = SetupTimes::new(true);
        a.connected(Duration::from_micros(80));
        a.handshaken(Duration::from_micros(900), false);
        let mut b = SetupTimes::new(true);
        b.connected(Duration::from_micros(120));
        b.handshaken(Duration::from_micros(300), true);
        a.merge(&b);
        let r = a.record().unwrap();
        assert_eq!(r.connect.count, 2);
        let h = r.handshake.unwrap();
        assert_eq!((h.count, r.resumed), (2, 1));
        assert_eq!(h.max.as_nanos(), 900_000);

        let mut plain = SetupTimes::new(false);
        assert!(plain.record().is_none(), "nothing timed, nothing said");
        plain.connected(Duration::from_micros(50));
        assert!(plain.record().unwrap().handshake.is_none());
    }
}
