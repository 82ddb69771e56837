//! The engine without a server and without real time: a clock that moves a fixed step
//! at each read, and no connection allowed (`max_connections` 0), so every request due
//! is taken up (its lateness stamped) and waits; timeouts and the drain then decide what
//! becomes of it.
use super::*;
use crate::http::clock::SteppingSource;

const MS: Duration = Duration::from_millis(1);

/// One thread at `rate`/s from `start` for `length`, answers awaited `timeout`, no
/// connection allowed, and a spin longer than the test (the loop never sleeps in the
/// poll: a poll with no timeout returns at once, and the stepping clock moves on).
fn plan(start: Instant, length: Duration, rate: f64, timeout: Duration) -> Plan {
    Plan {
        thread: 0,
        work: Work::Open(Schedule::new(rate, 1, 0, None)),
        start,
        measure_from: start,
        end: start + length,
        timeout,
        drain: Duration::ZERO,
        spin: Duration::from_secs(3600),
        max_connections: 0,
        max_h2_connections: 0,
        pipeline: 1,
        streams: 1,
        targets: Arc::from(vec![PlannedTarget {
            request: Arc::from(&b"GET / HTTP/1.1\r\n\r\n"[..]),
            h2_headers: Arc::from(&b""[..]),
            body: Arc::from(&b""[..]),
            idempotent: true,
            head: false,
            host: 0,
            weight: 1,
        }]),
        hosts: Arc::from(vec![Host {
            addr: "127.0.0.1:9".parse().unwrap(),
            tls: None,
            h2: false,
        }]),
        seed: 1,
        max_body: 1 << 20,
        first: None,
        live: None,
        new_connection: false,
        http2: false,
    }
}

fn engine(p: Plan, step: Duration) -> Engine<SteppingSource> {
    let start = p.start;
    Engine::new(p, SteppingSource::new(start, step)).unwrap()
}

#[test]
fn every_request_due_is_taken_up_with_its_lateness() {
    let t0 = Instant::now();
    let mut e = engine(
        plan(t0, Duration::from_secs(1), 1000.0, Duration::from_secs(5)),
        Duration::ZERO,
    );
    e.clock.advance(MS * 10 + MS / 2);
    let now = e.clock.now();
    let (next, took) = e.take_up_due(now);
    // Due at 0, 1, …, 10 ms; the next at 11 ms.
    assert!(took);
    assert_eq!(next, t0 + MS * 11);
    let dues: Vec<Duration> = e.pools[0].waiting.iter().map(|w| w.due - t0).collect();
    assert_eq!(dues, (0..=10).map(|k| MS * k).collect::<Vec<_>>());
    assert!(e.pools[0]
        .waiting
        .iter()
        .all(|w| w.bound_full && w.since == now));
    // Nothing more is due until 11 ms.
    assert_eq!(e.take_up_due(now), (t0 + MS * 11, false));
    let r = e.report(false);
    assert_eq!(r.due, 11);
    let late = r.lateness.expect("an open loop stamps lateness");
    assert_eq!(late.count(), 11);
    // From 10.5 ms (due 0) down to 0.5 ms (due 10), in µs.
    assert!(
        (late.max_us() - 10_500.0).abs() <= 10.5,
        "{}",
        late.max_us()
    );
    assert_eq!(late.inner().min(), 500);
}

#[test]
fn waiting_past_the_timeout_fails_unsent_and_the_rest_fails_at_the_drain() {
    let t0 = Instant::now();
    let timeout = MS * 100;
    let mut e = engine(
        plan(t0, Duration::from_secs(1), 1000.0, timeout),
        Duration::ZERO,
    );
    e.clock.advance(MS * 4);
    let now = e.clock.now();
    e.take_up_due(now);
    // Just before their timeout nothing expires; at it, all five (due 0–4 ms) do.
    e.expire(now + timeout - Duration::from_nanos(1));
    assert_eq!(e.pools[0].waiting.len(), 5);
    e.expire(now + timeout);
    assert!(e.pools[0].waiting.is_empty());
    // Three more, still waiting when the window ends.
    e.clock.advance(MS * 3);
    let later = e.clock.now();
    e.take_up_due(later);
    assert_eq!(e.pools[0].waiting.len(), 3);
    let stop = AtomicBool::new(false);
    let mut events = Events::with_capacity(8);
    assert!(!e.drain(&mut events, &stop), "not interrupted");
    let r = e.report(false);
    assert_eq!(r.errors["timeout waiting for a free connection"], 5);
    assert_eq!(r.errors["not sent: every connection busy until the end"], 3);
    assert_eq!(r.ok, 0);
}

/// The whole loop from start to end: each request taken up within a few clock reads of
/// its due time, and none answered.
#[test]
fn a_whole_run_takes_every_request_up_on_schedule() {
    let t0 = Instant::now();
    let start = t0 + MS;
    let step = Duration::from_micros(7);
    let mut e = engine(plan(start, MS * 50, 1000.0, Duration::from_secs(5)), step);
    let interrupted = e.main_loop(&AtomicBool::new(false));
    assert!(!interrupted);
    let r = e.report(false);
    assert_eq!(r.due, 50, "due at 0, 1, …, 49 ms of the window");
    assert_eq!(
        r.errors["not sent: every connection busy until the end"],
        50
    );
    let late = r.lateness.expect("lateness");
    assert_eq!(late.count(), 50);
    // Taken up on the first pass after the due time: a few reads of 7 µs late at most.
    assert!(late.max_us() <= 50.0, "{}", late.max_us());
}

#[test]
fn a_stop_abandons_what_waits() {
    let t0 = Instant::now();
    let mut e = engine(
        plan(t0, Duration::from_secs(1), 1000.0, Duration::from_secs(5)),
        Duration::ZERO,
    );
    e.clock.advance(MS * 2);
    let now = e.clock.now();
    e.take_up_due(now);
    let stop = AtomicBool::new(true);
    assert!(e.main_loop(&stop), "interrupted");
    let r = e.report(true);
    assert_eq!(r.abandoned, 3);
    assert!(r.interrupted);
}

#[test]
fn the_spin_learns_how_late_the_timer_wakes() {
    let t0 = Instant::now();
    let mut p = plan(t0, Duration::from_secs(1), 1000.0, Duration::from_secs(5));
    p.spin = Duration::from_micros(100);
    let mut e = engine(p, Duration::ZERO);
    assert_eq!(
        (e.spin, e.wake_late),
        (Duration::from_micros(100), Duration::from_micros(50))
    );
    // Punctual wake-ups: the recent worst decays, and the spin with it, to twice it plus
    // a 10 µs margin.
    for _ in 0..5000 {
        e.learn_wake(Duration::from_micros(5));
    }
    assert!(e.spin < Duration::from_micros(25), "{:?}", e.spin);
    assert!(e.spin >= Duration::from_micros(20));
    // One late wake-up raises it at once, never beyond --spin.
    e.learn_wake(Duration::from_micros(30));
    assert_eq!(e.spin, Duration::from_micros(70));
    e.learn_wake(Duration::from_millis(1));
    assert_eq!(e.spin, Duration::from_micros(100));
}

/// A rate no target answers (10⁹/s, nothing ever sent): one pass takes up at most
/// `MAX_TAKEN_PER_PASS`, waiting never grows past `MAX_WAITING`, and every arrival of the
/// window that was never taken up is counted as not sent, none lost.
#[test]
fn a_rate_far_beyond_the_target_is_bounded_in_memory_and_counted_in_full() {
    let t0 = Instant::now();
    let length = MS * 200;
    let mut e = engine(
        plan(t0, length, 1e9, Duration::from_secs(5)),
        Duration::ZERO,
    );
    e.clock.advance(MS * 100);
    let now = e.clock.now();
    let (next, took) = e.take_up_due(now);
    assert!(took && next <= now, "still behind: {next:?}");
    assert_eq!(e.pools[0].waiting.len(), MAX_TAKEN_PER_PASS);
    for _ in 0..200 {
        e.take_up_due(now);
    }
    assert_eq!(e.pools[0].waiting.len(), MAX_WAITING, "bounded");
    e.clock.advance(length);
    let stop = AtomicBool::new(false);
    let mut events = Events::with_capacity(8);
    assert!(!e.drain(&mut events, &stop));
    let r = e.report(false);
    // 200 ms at 10⁹/s: 2·10⁸ due, every one accounted for.
    assert_eq!(r.due, 200_000_000);
    let never = r.errors["not sent: the generator fell behind"];
    assert_eq!(never + MAX_WAITING as u64, r.due);
    assert_eq!(r.error_count(), r.due);
}

/// Stopped while far behind: what was due by the stop and never taken up is counted, not
/// what the schedule would have asked for after it.
#[test]
fn a_stop_while_behind_counts_what_was_due_by_then() {
    let t0 = Instant::now();
    let mut e = engine(
        plan(t0, Duration::from_secs(1), 1e6, Duration::from_secs(5)),
        Duration::ZERO,
    );
    e.clock.advance(MS * 10);
    let now = e.clock.now();
    e.take_up_due(now);
    e.abandon();
    let r = e.report(true);
    // Due before the stop at 10 ms: 0, 1, …, 9 999 µs, 10 000 arrivals; 1024 taken up
    // (abandoned), the rest never.
    assert_eq!(r.abandoned, MAX_TAKEN_PER_PASS as u64);
    assert_eq!(
        r.errors["not sent: the generator fell behind"],
        10_000 - 1024
    );
}
