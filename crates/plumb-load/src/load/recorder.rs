use crate::LatencyHistogram;
use hdrhistogram::serialization::interval_log::{IntervalLogWriterBuilder, Tag};
use hdrhistogram::serialization::V2DeflateSerializer;
use hdrhistogram::Histogram;
use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::time::SystemTime;
use std::time::{Duration, Instant};

/// How one request ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Ok,
    /// An HTTP status of 400 or more: counted as an error, never as a latency.
    Status(u16),
    Timeout,
    Connect(String),
    /// A reset, a broken or non-HTTP response.
    Protocol(String),
}

impl Outcome {
    fn error_key(&self) -> Option<String> {
        match self {
            Outcome::Ok => None,
            Outcome::Status(s) => Some(format!("status {s}")),
            Outcome::Timeout => Some("timeout".into()),
            Outcome::Connect(e) => Some(format!("connect: {e}")),
            Outcome::Protocol(e) => Some(format!("protocol: {e}")),
        }
    }
}

/// One second of the test (by due time): what was due, answered and failed, and the
/// latency percentiles of its successful requests.
#[derive(Debug, Clone, PartialEq)]
pub struct SecondRow {
    pub second: u64,
    pub ok: u64,
    pub errors: u64,
    pub p50_us: f64,
    pub p99_us: f64,
    pub max_us: f64,
}

pub struct LoadReport {
    /// From the due time (open loop) or the send time (closed loop).
    pub latency: LatencyHistogram,
    /// From the actual send.
    pub service: LatencyHistogram,
    /// Open loop: dispatch − due, the generator's own lateness.
    pub lateness: Option<LatencyHistogram>,
    pub ok: u64,
    pub errors: BTreeMap<String, u64>,
    /// Requests due in the measured period (after warm-up).
    pub due: u64,
    pub measured_s: f64,
    pub timeline: Vec<SecondRow>,
    pub interrupted: bool,
    pub connections: usize,
}

impl LoadReport {
    pub fn achieved_rate(&self) -> f64 {
        self.ok as f64 / self.measured_s.max(1e-9)
    }

    pub fn error_count(&self) -> u64 {
        self.errors.values().sum()
    }

    /// Little's law, L = λ·W, from the achieved rate and the mean latency.
    pub fn mean_in_flight(&self) -> f64 {
        self.achieved_rate() * self.latency.mean_us() / 1e6
    }
}

/// One second's histogram (3 significant digits, like the whole-run ones) for the
/// timeline and the interval log; only the last `keep_open` seconds are held.
struct Second {
    index: u64,
    ok: u64,
    errors: u64,
    h: Histogram<u64>,
}

pub(crate) struct Recorder {
    measure_from: Instant,
    latency: LatencyHistogram,
    service: LatencyHistogram,
    lateness: LatencyHistogram,
    ok: u64,
    errors: BTreeMap<String, u64>,
    due: u64,
    /// Seconds still receiving completions; older ones are folded into `timeline`, so
    /// memory stays flat however long the test runs.
    open_seconds: VecDeque<Second>,
    keep_open: u64,
    timeline: Vec<SecondRow>,
    /// Interval log: finished seconds are appended as they fold, so it is complete up to
    /// the last closed second even if the run dies.
    hlog: Option<(std::fs::File, SystemTime)>,
    hlog_started: bool,
}

impl Recorder {
    /// `measure_from` ends the warm-up; `timeout` bounds how late a completion can come.
    pub fn new(measure_from: Instant, timeout: Duration) -> Self {
        Recorder {
            measure_from,
            latency: LatencyHistogram::new(),
            service: LatencyHistogram::new(),
            lateness: LatencyHistogram::new(),
            ok: 0,
            errors: BTreeMap::new(),
            due: 0,
            open_seconds: VecDeque::new(),
            keep_open: timeout.as_secs() + 2,
            timeline: Vec::new(),
            hlog: None,
            hlog_started: false,
        }
    }

    /// Also write each finished second to an HdrHistogram interval log (`.hlog`), with
    /// timestamps relative to `base_time`, the wall-clock start of measurement.
    pub fn with_hlog(mut self, file: Option<std::fs::File>, base_time: SystemTime) -> Self {
        self.hlog = file.map(|f| (f, base_time));
        self
    }

    fn log_second(&mut self, s: &Second) {
        let Some((file, base)) = self.hlog.as_mut() else {
            return;
        };
        let mut buf = Vec::new();
        let mut ser = V2DeflateSerializer::new();
        {
            let builder = {
                let mut b = IntervalLogWriterBuilder::new();
                if !self.hlog_started {
                    b.add_comment(
                        "plumb load: latency from due time, microseconds, one interval per second",
                    );
                    b.with_base_time(*base);
                    b.with_start_time(*base);
                }
                b
            };
            let Ok(mut w) = builder.begin_log_with(&mut buf, &mut ser) else {
                return;
            };
            let _ = w.write_histogram(
                &s.h,
                Duration::from_secs(s.index),
                Duration::from_secs(1),
                Tag::new("latency"),
            );
        }
        // Only the first interval keeps the log's header lines; later ones are appended
        // as bare interval lines.
        let text = String::from_utf8_lossy(&buf);
        let body: String = if self.hlog_started {
            text.lines()
                .filter(|l| !l.starts_with('#') && !l.starts_with('"'))
                .map(|l| format!("{l}\n"))
                .collect()
        } else {
            text.into_owned()
        };
        self.hlog_started = true;
        let _ = file.write_all(body.as_bytes());
    }

    fn measured(&self, due: Instant) -> bool {
        due >= self.measure_from
    }

    pub fn dispatched(&mut self, due: Instant, at: Instant) {
        if self.measured(due) {
            self.due += 1;
            self.lateness
                .record_us(at.saturating_duration_since(due).as_secs_f64() * 1e6);
        }
    }

    /// A request due before the end that the in-flight bound kept from being sent.
    pub fn not_sent(&mut self, due: Instant) {
        if self.measured(due) {
            self.due += 1;
            *self
                .errors
                .entry("not sent: in-flight bound reached before the end".into())
                .or_insert(0) += 1;
        }
    }

    /// Requests dispatched but never finished (still outstanding after the drain).
    pub fn unfinished(&mut self, n: u64) {
        if n > 0 {
            *self
                .errors
                .entry("unfinished when the test ended".into())
                .or_insert(0) += n;
        }
    }

    pub fn outstanding(&self) -> u64 {
        self.due
            .saturating_sub(self.ok + self.errors.values().sum::<u64>())
    }

    pub fn done(&mut self, due: Instant, sent: Option<Instant>, done: Instant, outcome: Outcome) {
        if !self.measured(due) {
            return;
        }
        let second = due.duration_since(self.measure_from).as_secs();
        let latency_us = done.saturating_duration_since(due).as_secs_f64() * 1e6;
        let slot = self.second(second);
        match outcome.error_key() {
            None => {
                slot.ok += 1;
                let _ = slot.h.record(latency_us.round().max(1.0) as u64);
                self.ok += 1;
                self.latency.record_us(latency_us);
                if let Some(sent) = sent {
                    self.service
                        .record_us(done.saturating_duration_since(sent).as_secs_f64() * 1e6);
                }
            }
            Some(key) => {
                slot.errors += 1;
                *self.errors.entry(key).or_insert(0) += 1;
            }
        }
        self.fold_old(second);
    }

    fn second(&mut self, index: u64) -> &mut Second {
        let pos = self.open_seconds.iter().position(|s| s.index == index);
        let pos = match pos {
            Some(p) => p,
            None => {
                let s = Second {
                    index,
                    ok: 0,
                    errors: 0,
                    h: Histogram::new_with_bounds(1, 3_600_000_000, 3).expect("static bounds"),
                };
                let at = self
                    .open_seconds
                    .iter()
                    .position(|o| o.index > index)
                    .unwrap_or(self.open_seconds.len());
                self.open_seconds.insert(at, s);
                at
            }
        };
        &mut self.open_seconds[pos]
    }

    fn fold_old(&mut self, now_second: u64) {
        while self
            .open_seconds
            .front()
            .is_some_and(|s| s.index + self.keep_open < now_second)
        {
            let s = self.open_seconds.pop_front().expect("checked");
            self.log_second(&s);
            self.timeline.push(row(&s));
        }
    }

    pub fn finish(
        mut self,
        measured_s: f64,
        interrupted: bool,
        connections: usize,
        open_loop: bool,
    ) -> LoadReport {
        while let Some(s) = self.open_seconds.pop_front() {
            self.log_second(&s);
            self.timeline.push(row(&s));
        }
        LoadReport {
            latency: self.latency,
            service: self.service,
            lateness: open_loop.then_some(self.lateness),
            ok: self.ok,
            errors: self.errors,
            due: self.due,
            measured_s,
            timeline: self.timeline,
            interrupted,
            connections,
        }
    }
}

fn row(s: &Second) -> SecondRow {
    let q = |p: f64| {
        if s.h.is_empty() {
            0.0
        } else {
            plumb_model::value_at_percentile(&s.h, p) as f64
        }
    };
    SecondRow {
        second: s.index,
        ok: s.ok,
        errors: s.errors,
        p50_us: q(50.0),
        p99_us: q(99.0),
        max_us: if s.h.is_empty() {
            0.0
        } else {
            s.h.max() as f64
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finished_seconds_go_to_an_interval_log_that_reads_back() {
        use hdrhistogram::serialization::interval_log::{IntervalLogIterator, LogEntry};
        use hdrhistogram::serialization::Deserializer;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.hlog");
        let t0 = Instant::now();
        let mut r = Recorder::new(t0, Duration::from_secs(1)).with_hlog(
            Some(std::fs::File::create(&path).unwrap()),
            SystemTime::now(),
        );
        for s in 0..3u64 {
            for k in 0..=s {
                let due = t0 + Duration::from_secs(s) + Duration::from_millis(k);
                r.done(due, Some(due), due + Duration::from_millis(3), Outcome::Ok);
            }
        }
        r.finish(3.0, false, 1, true);
        let text = std::fs::read(&path).unwrap();
        let mut counts = Vec::new();
        for entry in IntervalLogIterator::new(&text) {
            if let Ok(LogEntry::Interval(i)) = entry {
                let bytes = base64::Engine::decode(
                    &base64::engine::general_purpose::STANDARD,
                    i.encoded_histogram(),
                )
                .unwrap();
                let h: Histogram<u64> = Deserializer::new()
                    .deserialize(&mut bytes.as_slice())
                    .unwrap();
                counts.push(h.len());
            }
        }
        assert_eq!(counts, [1, 2, 3]);
    }

    #[test]
    fn warm_up_is_excluded_errors_apart_and_the_timeline_folds() {
        let t0 = Instant::now();
        let from = t0 + Duration::from_secs(1);
        let mut r = Recorder::new(from, Duration::from_secs(1));
        // A warm-up request: not counted anywhere.
        r.dispatched(t0, t0);
        r.done(t0, Some(t0), t0 + Duration::from_millis(5), Outcome::Ok);
        // Ten seconds of one good and one failed request each.
        for s in 0..10u64 {
            let due = from + Duration::from_secs(s);
            r.dispatched(due, due + Duration::from_micros(100));
            r.done(due, Some(due), due + Duration::from_millis(2), Outcome::Ok);
            r.dispatched(due, due);
            r.done(
                due,
                Some(due),
                due + Duration::from_millis(9),
                Outcome::Status(503),
            );
            assert!(r.open_seconds.len() <= 4, "seconds fold as they close");
        }
        let rep = r.finish(10.0, false, 1, true);
        assert_eq!((rep.ok, rep.due, rep.error_count()), (10, 20, 10));
        assert_eq!(rep.errors["status 503"], 10);
        assert_eq!(
            rep.latency.count(),
            10,
            "errors never enter the latency histogram"
        );
        assert_eq!(rep.timeline.len(), 10);
        assert!(rep.timeline.iter().all(|s| s.ok == 1 && s.errors == 1));
        assert!((rep.lateness.as_ref().unwrap().percentile_us(99.0) - 100.0).abs() <= 1.0);
        assert!((rep.achieved_rate() - 1.0).abs() < 1e-9);
    }
}
