//! `plumb simulate`: one server, first come first served, in virtual time. A closed-loop
//! client (send, wait, repeat: the default of most load tools) and an open-loop client
//! (send on a fixed schedule, measure from the intended send time) face the same service
//! with the same stalls. Virtual time makes the result exact and instant: what differs
//! between the two columns is the client model and nothing else.

use crate::histogram::LatencyHistogram;
use plumb_model::quantity::Duration;
use plumb_model::{SimulateSettings, SimulatedClient, SimulatedStall, Simulation};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// When the service stalls.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stall {
    /// Every `every`-th request takes `length` in all (instead of the base time), like
    /// the blog's 200 ms pause every 500th request.
    EveryRequests { every: u64, length: Duration },
    /// The server stops for `length` at every multiple of `period` of (virtual) time;
    /// work in progress resumes after the pause.
    EveryPeriod { period: Duration, length: Duration },
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Arrivals {
    /// One request every 1/rate.
    Constant,
    /// Exponential gaps with mean 1/rate, from a seed.
    Poisson { seed: u64 },
}

impl From<&SimulateSettings> for SimConfig {
    fn from(s: &SimulateSettings) -> Self {
        SimConfig {
            rate: s.rate.per_second(),
            duration: s.duration,
            service: s.service,
            stall: s.stall.map(|st| match st {
                SimulatedStall::Requests { requests, length } => Stall::EveryRequests {
                    every: requests,
                    length,
                },
                SimulatedStall::Period { period, length } => Stall::EveryPeriod { period, length },
            }),
            arrivals: match s.poisson_seed {
                Some(seed) => Arrivals::Poisson { seed },
                None => Arrivals::Constant,
            },
            closed_paced: s.closed_paced,
        }
    }
}

/// Runs the simulation `settings` describe and returns it in the result model.
pub fn simulation(settings: &SimulateSettings) -> Simulation {
    let r = simulate(&SimConfig::from(settings));
    let client = |c: &ClientReport| SimulatedClient {
        requests: c.requests,
        achieved_rate: c.achieved_rate(),
        mean_in_flight: c.mean_in_flight(),
        latency: crate::model::distribution(&c.latency),
        send_lateness: c.send_lateness.as_ref().map(crate::model::distribution),
    };
    Simulation {
        settings: settings.clone(),
        utilisation: r.utilisation,
        closed: client(&r.closed),
        open: client(&r.open),
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SimConfig {
    /// Target rate, requests per second.
    pub rate: f64,
    pub duration: Duration,
    /// Service time of a request that does not stall.
    pub service: Duration,
    pub stall: Option<Stall>,
    pub arrivals: Arrivals,
    /// The closed-loop client never sends before its next slot of the schedule (it waits
    /// when ahead, like a paced load tool); it is still late when the server is, and
    /// still measures from its actual send.
    pub closed_paced: bool,
}

/// What one client model recorded.
pub struct ClientReport {
    pub requests: u64,
    /// From the intended send time (open loop) or the actual send time (closed loop, which
    /// has no schedule): what the user waited.
    pub latency: LatencyHistogram,
    /// From the actual send time: what the server took.
    pub service: LatencyHistogram,
    /// Open loop only: how late each request was sent against its schedule.
    pub send_lateness: Option<LatencyHistogram>,
    /// Virtual time from the first send to the last response.
    pub elapsed: Duration,
}

impl ClientReport {
    pub fn achieved_rate(&self) -> f64 {
        self.requests as f64 / self.elapsed.as_secs_f64()
    }

    /// Little's law, L = λ·W: mean requests in the system from the achieved rate and the
    /// mean latency.
    pub fn mean_in_flight(&self) -> f64 {
        self.achieved_rate() * self.latency.mean_us() / 1e6
    }
}

pub struct SimReport {
    pub closed: ClientReport,
    pub open: ClientReport,
    /// Offered load: rate × mean service time. At 1 or more the open-loop queue grows
    /// without bound.
    pub utilisation: f64,
}

/// The single server: when a request that starts being served at `start` finishes.
/// Virtual time is microseconds (the histograms' unit) as f64 throughout.
struct Server {
    service: Duration,
    stall: Option<Stall>,
    served: u64,
}

impl Server {
    fn finish(&mut self, start: f64) -> f64 {
        self.served += 1;
        let service_us = self.service.as_micros_f64();
        match self.stall {
            None => start + service_us,
            Some(Stall::EveryRequests { every, length }) => {
                if self.served.is_multiple_of(every) {
                    start + length.as_micros_f64()
                } else {
                    start + service_us
                }
            }
            Some(Stall::EveryPeriod { period, length }) => {
                let (period_us, length_us) = (period.as_micros_f64(), length.as_micros_f64());
                // Serve in pieces around the pauses [k·period, k·period + length), k ≥ 1.
                let mut t = start;
                let mut remaining = service_us;
                loop {
                    let k = (t / period_us).floor();
                    let pause_start = k * period_us;
                    if k >= 1.0 && t < pause_start + length_us {
                        t = pause_start + length_us; // inside a pause: wait it out
                    }
                    let next_pause = ((t / period_us).floor() + 1.0) * period_us;
                    if t + remaining <= next_pause {
                        return t + remaining;
                    }
                    remaining -= next_pause - t;
                    t = next_pause + length_us;
                }
            }
        }
    }

    /// Mean service time per request, stalls included, in virtual µs.
    fn mean_service(&self) -> f64 {
        let service_us = self.service.as_micros_f64();
        match self.stall {
            None => service_us,
            Some(Stall::EveryRequests { every, length }) => {
                (service_us * (every - 1) as f64 + length.as_micros_f64()) / every as f64
            }
            Some(Stall::EveryPeriod { period, length }) => {
                let (p, l) = (period.as_micros_f64(), length.as_micros_f64());
                service_us * p / (p - l).max(f64::MIN_POSITIVE)
            }
        }
    }
}

pub fn simulate(cfg: &SimConfig) -> SimReport {
    let n = (cfg.rate * cfg.duration.as_secs_f64()).round().max(1.0) as u64;
    let interval = 1e6 / cfg.rate;
    let new_server = || Server {
        service: cfg.service,
        stall: cfg.stall,
        served: 0,
    };

    // Closed loop: the next request goes out when the previous answer comes back. Its
    // clock starts at the actual send, so a stall delays only the request it hits.
    let mut server = new_server();
    let (mut latency, mut service) = (LatencyHistogram::new(), LatencyHistogram::new());
    let (mut t, mut last_done) = (0.0, 0.0);
    for i in 0..n {
        if cfg.closed_paced {
            t = f64::max(t, i as f64 * interval);
        }
        let done = server.finish(t);
        latency.record_us(done - t);
        service.record_us(done - t);
        t = done;
        last_done = done;
    }
    let closed = ClientReport {
        requests: n,
        latency,
        service,
        send_lateness: None,
        elapsed: Duration::from_nanos_f64(last_done * 1e3),
    };

    // Open loop: request i is due at its scheduled time whatever happened before; the
    // user's wait starts then. One request in service at a time, first come first served.
    let mut server = new_server();
    let (mut latency, mut service, mut lateness) = (
        LatencyHistogram::new(),
        LatencyHistogram::new(),
        LatencyHistogram::new(),
    );
    let mut rng = match cfg.arrivals {
        Arrivals::Poisson { seed } => Some(Pcg64::seed_from_u64(seed)),
        Arrivals::Constant => None,
    };
    let (mut due, mut free_at, mut last_done) = (0.0f64, 0.0f64, 0.0f64);
    for i in 0..n {
        if i > 0 {
            due += match rng.as_mut() {
                Some(r) => -interval * (1.0 - r.gen::<f64>()).ln(),
                None => interval,
            };
        }
        let start = due.max(free_at);
        let done = server.finish(start);
        latency.record_us(done - due);
        service.record_us(done - start);
        lateness.record_us(start - due);
        free_at = done;
        last_done = done;
    }
    let open = ClientReport {
        requests: n,
        latency,
        service,
        send_lateness: Some(lateness),
        elapsed: Duration::from_nanos_f64(last_done * 1e3),
    };
    SimReport {
        utilisation: cfg.rate * new_server().mean_service() / 1e6,
        closed,
        open,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blog() -> SimConfig {
        SimConfig {
            rate: 450.0,
            duration: Duration::from_secs_f64(30.0),
            service: Duration::from_nanos_f64(1000.0 * 1e3),
            stall: Some(Stall::EveryRequests {
                every: 500,
                length: Duration::from_nanos_f64(200_000.0 * 1e3),
            }),
            arrivals: Arrivals::Constant,
            closed_paced: false,
        }
    }

    fn close(actual_us: f64, expected_us: f64) -> bool {
        // HdrHistogram at 3 significant digits: within 0.1 %, plus rounding to 1 µs.
        (actual_us - expected_us).abs() <= expected_us * 0.001 + 1.0
    }

    /// The blog's example: closed-loop p99 ≈ 1 ms, open-loop p99 ≈ 195 ms.
    #[test]
    fn reproduces_the_blog() {
        let r = simulate(&blog());
        assert_eq!((r.closed.requests, r.open.requests), (13_500, 13_500));
        assert!(close(r.closed.latency.percentile_us(99.0), 1000.0));
        let p99 = r.open.latency.percentile_us(99.0);
        assert!((190_000.0..200_000.0).contains(&p99), "open p99 {p99}");
        // (499 × 1 ms + 200 ms) / 500 = 1.398 ms of work per request, × 450/s.
        assert!((r.utilisation - 0.6291).abs() < 1e-9, "{}", r.utilisation);
    }

    /// Expectations from the queueing arithmetic, computed here independently of the
    /// simulator: after a stall of length L hits a request, the j-th request after it
    /// waits L − j·(a − s) (a = 1/rate, s = service) until that falls to s.
    #[test]
    fn open_loop_latencies_follow_the_backlog_arithmetic() {
        for (rate, s, every, l) in [
            (450.0, 1000.0, 500u64, 200_000.0),
            (200.0, 2000.0, 100, 50_000.0),
            (1000.0, 500.0, 1000, 30_000.0),
        ] {
            let cfg = SimConfig {
                rate,
                duration: Duration::from_secs_f64(20.0),
                service: Duration::from_nanos_f64(s * 1e3),
                stall: Some(Stall::EveryRequests {
                    every,
                    length: Duration::from_nanos_f64(l * 1e3),
                }),
                arrivals: Arrivals::Constant,
                closed_paced: false,
            };
            let a = 1e6 / rate;
            let n = (rate * cfg.duration.as_secs_f64()) as u64;
            let mut expected: Vec<f64> = Vec::new();
            let mut i = 0u64;
            let mut backlog_left = 0u64;
            let mut j = 0f64;
            while i < n {
                i += 1;
                if i.is_multiple_of(every) {
                    expected.push(l);
                    j = 0.0;
                    backlog_left = u64::MAX;
                } else if backlog_left > 0 {
                    j += 1.0;
                    let w = l - j * (a - s);
                    if w > s {
                        expected.push(w);
                    } else {
                        expected.push(s);
                        backlog_left = 0;
                    }
                } else {
                    expected.push(s);
                }
            }
            expected.sort_by(f64::total_cmp);
            let r = simulate(&cfg);
            for (p, num, den) in [
                (50.0, 50, 100),
                (90.0, 90, 100),
                (99.0, 99, 100),
                (99.9, 999, 1000),
            ] {
                // Nearest-rank percentile of the exact values, the rank in integers.
                let rank = (n * num).div_ceil(den).max(1) as usize - 1;
                let want = expected[rank];
                let got = r.open.latency.percentile_us(p);
                assert!(
                    close(got, want),
                    "rate {rate} s {s} L {l}: p{p} {got} vs {want}"
                );
            }
            assert!(close(r.closed.latency.percentile_us(99.0), s) || every <= 100);
        }
    }

    #[test]
    fn without_stalls_both_clients_see_the_service_time() {
        let r = simulate(&SimConfig {
            stall: None,
            ..blog()
        });
        for p in [50.0, 99.0, 99.99] {
            assert!(close(r.open.latency.percentile_us(p), 1000.0));
            assert!(close(r.closed.latency.percentile_us(p), 1000.0));
        }
        assert_eq!(
            r.open.send_lateness.as_ref().unwrap().max_us(),
            1.0,
            "never late (1 µs floor)"
        );
    }

    #[test]
    fn over_capacity_open_loop_latency_grows_and_closed_loop_hides_it() {
        // 2 ms of service at 600/s is 120 % load: the open-loop queue grows 0.33 ms per
        // request, so after 6000 requests the last waits ~2 s.
        let r = simulate(&SimConfig {
            rate: 600.0,
            duration: Duration::from_secs_f64(10.0),
            service: Duration::from_nanos_f64(2000.0 * 1e3),
            stall: None,
            arrivals: Arrivals::Constant,
            closed_paced: false,
        });
        assert!(r.utilisation > 1.0);
        let expected_max = 2000.0 + 5999.0 * (2000.0 - 1e6 / 600.0);
        assert!(
            close(r.open.latency.max_us(), expected_max),
            "{}",
            r.open.latency.max_us()
        );
        assert!(close(r.closed.latency.max_us(), 2000.0));
        assert!(
            (r.open.achieved_rate() - 500.0).abs() < 1.0,
            "the server's 500/s, not 600"
        );
    }

    #[test]
    fn periodic_stalls_delay_work_in_progress() {
        // A 100 ms pause every second, 1 ms service, 100 req/s (one every 10 ms).
        let r = simulate(&SimConfig {
            rate: 100.0,
            duration: Duration::from_secs_f64(10.0),
            service: Duration::from_nanos_f64(1000.0 * 1e3),
            stall: Some(Stall::EveryPeriod {
                period: Duration::from_nanos_f64(1e6 * 1e3),
                length: Duration::from_nanos_f64(100_000.0 * 1e3),
            }),
            arrivals: Arrivals::Constant,
            closed_paced: false,
        });
        // The request due exactly at a pause start waits the whole pause.
        assert!(
            close(r.open.latency.max_us(), 101_000.0),
            "{}",
            r.open.latency.max_us()
        );
        // The closed loop sends its 1000 requests back to back in about a second of
        // virtual time: at most one meets a pause, and its p99 is the service time.
        assert!(close(r.closed.latency.percentile_us(99.0), 1000.0));
    }

    #[test]
    fn poisson_arrivals_are_seeded() {
        let cfg = SimConfig {
            arrivals: Arrivals::Poisson { seed: 3 },
            closed_paced: false,
            ..blog()
        };
        let (a, b) = (simulate(&cfg), simulate(&cfg));
        assert_eq!(
            a.open.latency.percentile_us(99.0),
            b.open.latency.percentile_us(99.0)
        );
        assert!(a.open.latency.percentile_us(99.0) > 100_000.0);
    }

    /// Paced, the closed loop runs at the offered rate instead of as fast as the server
    /// answers (the blog's 450/s rather than ~715/s), and still hides the stalls: its
    /// clock starts at the actual send, after the stall has passed.
    #[test]
    fn a_paced_closed_loop_runs_at_the_rate_and_still_hides_the_stalls() {
        let free = simulate(&blog());
        let cfg = SimConfig {
            closed_paced: true,
            ..blog()
        };
        let paced = simulate(&cfg);
        // Back to back: 13 500 requests of 1.398 ms on average, 18.9 s: ~715/s.
        assert!(
            (free.closed.achieved_rate() - 715.3).abs() < 1.0,
            "{}",
            free.closed.achieved_rate()
        );
        // Paced: caught up long before its last slot, 13 499 / 450 s; that last request
        // is the 27th stall (13 500 is a multiple of 500), answered 200 ms later.
        let expect = 13_500.0 / (13_499.0 / 450.0 + 0.2);
        assert!(
            (paced.closed.achieved_rate() - expect).abs() < 0.5,
            "{}",
            paced.closed.achieved_rate()
        );
        assert!(close(paced.closed.latency.percentile_us(99.0), 1000.0));
        assert!(paced.open.latency.percentile_us(99.0) > 150_000.0);
    }
}
