//! What a load test records: each request's outcome into latency histograms, seconds, the report.
use super::setup::SetupTimes;
use crate::LatencyHistogram;
use crate::LoadError;
use hdrhistogram::serialization::{Deserializer, Serializer, V2DeflateSerializer};
use hdrhistogram::Histogram;
use plumb_model::quantity::{self, ByteSize};
use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

/// How one request ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    Ok,
    /// An HTTP status of 400 or more: counted as an error, never as a latency.
    Status(u16),
    Timeout,
    Failed(Failure),
}

/// Why a request failed (other than a status or a timeout): the kind names it in the
/// report, the detail is kept as the kind's example (the first one seen).
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub kind: &'static str,
    pub detail: String,
}

/// One second of the test (by due time): what was answered and failed, the latency
/// percentiles of its successful requests, and its whole histogram (V2 deflate), so
/// seconds of several threads or agents combine and blocks of seconds can be compared.
#[derive(Debug, Clone, PartialEq)]
pub struct SecondRow {
    pub second: u64,
    pub ok: u64,
    pub errors: u64,
    pub p50: quantity::Duration,
    pub p99: quantity::Duration,
    pub max: quantity::Duration,
    pub hdr: Vec<u8>,
}

impl SecondRow {
    pub fn histogram(&self) -> Result<Histogram<u64>, LoadError> {
        Deserializer::new()
            .deserialize(&mut self.hdr.as_slice())
            .map_err(|e| LoadError::Histogram {
                what: "a second's histogram does not read back",
                cause: format!("{e:?}"),
            })
    }
}

pub use plumb_model::SlotWaits;

pub struct LoadReport {
    /// From the due time (open loop) or the send time (closed loop).
    pub latency: LatencyHistogram,
    /// From the actual send.
    pub service: LatencyHistogram,
    /// Open loop: when the generator took the request up − its due time: the generator's
    /// own lateness, apart from waits for a free connection (`slot_waits`).
    pub lateness: Option<LatencyHistogram>,
    pub ok: u64,
    pub errors: BTreeMap<String, u64>,
    /// One message per error kind, the first seen.
    pub examples: BTreeMap<String, String>,
    /// Requests due in the measured period (after warm-up).
    pub due: u64,
    pub slot_waits: SlotWaits,
    /// Requests sent again, once, after the server closed an idle kept-alive connection
    /// under them (before any byte of the answer): their latency includes the retry.
    pub retried: u64,
    /// In flight when the test was stopped (Ctrl-C): neither answered nor failed.
    pub abandoned: u64,
    /// Response body bytes received.
    pub body: ByteSize,
    /// The measured window's length (warm-up excluded).
    pub measured: quantity::Duration,
    pub timeline: Vec<SecondRow>,
    pub interrupted: bool,
    pub connections: usize,
    pub threads: usize,
    /// The wall-clock time measurement began (set by `run`).
    pub measured_from: Option<std::time::SystemTime>,
    /// The share of the measured window the generator's loop was working rather than
    /// waiting (the busiest thread's): near 1, it could not have gone faster.
    pub busy: f64,
    /// Each connection's connect and TLS handshake.
    pub setup: SetupTimes,
    /// https: what the handshake before the test agreed (set by `run`).
    pub tls: Option<super::tls::Handshake>,
    /// A request mix: each target's own report, in the order of the targets (empty for
    /// a single target). Their sum is the whole.
    pub targets: Vec<LoadReport>,
}

impl LoadReport {
    /// The run's histograms as `.hgrm` files in `dir` (`latency.hgrm`, `service.hgrm`,
    /// and `lateness.hgrm` when the schedule was open), for HdrHistogram's plotters.
    pub fn write_hgrm(&self, dir: &std::path::Path) -> Result<(), LoadError> {
        let mut files = vec![("latency", &self.latency), ("service", &self.service)];
        if let Some(l) = &self.lateness {
            files.push(("lateness", l));
        }
        crate::histogram::write_hgrm_files(dir, &files)
    }

    pub fn achieved_rate(&self) -> f64 {
        self.ok as f64 / self.measured.as_secs_f64().max(1e-9)
    }

    pub fn error_count(&self) -> u64 {
        self.errors.values().sum()
    }

    /// Little's law, L = λ·W, from the achieved rate and the mean latency.
    pub fn mean_in_flight(&self) -> f64 {
        self.achieved_rate() * self.latency.mean_us() / 1e6
    }

    /// Several threads' reports of one test as one: counts add, histograms add
    /// losslessly, seconds add by index.
    pub fn merge(mut parts: Vec<LoadReport>) -> Result<LoadReport, LoadError> {
        let mut out = parts.pop().ok_or(crate::CombineError::Nothing)?;
        for p in parts {
            out.latency.merge(&p.latency);
            out.service.merge(&p.service);
            if let (Some(a), Some(b)) = (out.lateness.as_mut(), p.lateness.as_ref()) {
                a.merge(b);
            }
            out.ok += p.ok;
            for (k, v) in p.errors {
                *out.errors.entry(k).or_insert(0) += v;
            }
            for (k, v) in p.examples {
                out.examples.entry(k).or_insert(v);
            }
            out.due += p.due;
            out.slot_waits.add(&p.slot_waits);
            out.retried += p.retried;
            out.abandoned += p.abandoned;
            out.body.0 += p.body.0;
            out.measured = out.measured.max(p.measured);
            out.interrupted |= p.interrupted;
            out.connections += p.connections;
            out.threads += p.threads;
            out.busy = out.busy.max(p.busy);
            out.setup.merge(&p.setup);
            out.targets = merge_targets(std::mem::take(&mut out.targets), p.targets)?;
            out.timeline = merge_seconds(std::mem::take(&mut out.timeline), p.timeline)?;
        }
        Ok(out)
    }
}

/// Two threads' per-target reports, target by target.
fn merge_targets(a: Vec<LoadReport>, b: Vec<LoadReport>) -> Result<Vec<LoadReport>, LoadError> {
    if a.is_empty() {
        return Ok(b);
    }
    a.into_iter()
        .zip(b)
        .map(|(x, y)| LoadReport::merge(vec![x, y]))
        .collect()
}

fn merge_seconds(a: Vec<SecondRow>, b: Vec<SecondRow>) -> Result<Vec<SecondRow>, LoadError> {
    let mut by: BTreeMap<u64, (u64, u64, Histogram<u64>)> = BTreeMap::new();
    for r in a.iter().chain(&b) {
        let h = r.histogram()?;
        match by.get_mut(&r.second) {
            Some(e) => {
                e.0 += r.ok;
                e.1 += r.errors;
                e.2.add(&h).map_err(|e| LoadError::Histogram {
                    what: "seconds do not combine",
                    cause: format!("{e:?}"),
                })?;
            }
            None => {
                by.insert(r.second, (r.ok, r.errors, h));
            }
        }
    }
    Ok(by
        .into_iter()
        .map(|(second, (ok, errors, h))| row(second, ok, errors, &h))
        .collect())
}

/// One second's histogram (3 significant digits, like the whole-run ones); only the
/// seconds that can still receive answers are held open.
struct Second {
    index: u64,
    ok: u64,
    errors: u64,
    h: Histogram<u64>,
}

/// Counts since the live line was last drawn; latencies at 2 significant digits, enough
/// for a progress line and a tenth of the whole-run histograms' size.
#[derive(Clone)]
pub struct LiveCounts {
    pub ok: u64,
    pub errors: u64,
    pub latency: Histogram<u64>,
}

impl LiveCounts {
    pub fn new() -> Self {
        LiveCounts {
            ok: 0,
            errors: 0,
            latency: Histogram::new_with_bounds(1, crate::histogram::HIGHEST_US, 2)
                .expect("static bounds"),
        }
    }
}

impl LiveCounts {
    /// Adds `other`'s counts to these (counts saturate; both histograms have the same
    /// fixed bounds, so adding them cannot fail).
    pub fn add(&mut self, other: &LiveCounts) {
        self.ok = self.ok.saturating_add(other.ok);
        self.errors = self.errors.saturating_add(other.errors);
        let _ = self.latency.add(&other.latency);
    }
}

impl Default for LiveCounts {
    fn default() -> Self {
        Self::new()
    }
}

pub(crate) struct Recorder {
    measure_from: Instant,
    latency: LatencyHistogram,
    service: LatencyHistogram,
    lateness: LatencyHistogram,
    ok: u64,
    errors: BTreeMap<String, u64>,
    statuses: BTreeMap<u16, u64>,
    examples: BTreeMap<String, String>,
    due: u64,
    slot_waits: SlotWaits,
    retried: u64,
    abandoned: u64,
    body: ByteSize,
    /// Seconds still receiving completions; older ones are folded into `timeline`, so
    /// memory stays flat however long the test runs.
    open_seconds: VecDeque<Second>,
    keep_open: u64,
    timeline: Vec<SecondRow>,
    live: Option<LiveCounts>,
    /// Connections' setup times (recorded by the engine as each connection opens).
    pub setup: SetupTimes,
}

fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, crate::histogram::HIGHEST_US, 3).expect("static bounds")
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
            statuses: BTreeMap::new(),
            examples: BTreeMap::new(),
            due: 0,
            slot_waits: SlotWaits::default(),
            retried: 0,
            abandoned: 0,
            body: ByteSize(0),
            open_seconds: VecDeque::new(),
            keep_open: timeout.as_secs() + 2,
            timeline: Vec::new(),
            live: None,
            setup: SetupTimes::default(),
        }
    }

    /// Also count what the live line shows (see `take_live`).
    pub fn with_live(mut self) -> Self {
        self.live = Some(LiveCounts::new());
        self
    }

    /// The counts since the last call, and a fresh start for the next (one small
    /// allocation twice a second, never per request).
    pub fn take_live(&mut self) -> Option<LiveCounts> {
        let live = self.live.as_mut()?;
        Some(std::mem::take(live))
    }

    fn measured(&self, due: Instant) -> bool {
        due >= self.measure_from
    }

    /// The generator took the request up at `at` (its own lateness is `at − due`).
    pub fn dispatched(&mut self, due: Instant, at: Instant) {
        if self.measured(due) {
            self.due += 1;
            self.lateness
                .record_us(at.saturating_duration_since(due).as_secs_f64() * 1e6);
        }
    }

    /// The request waited `waited` for a free connection (the in-flight bound was full).
    pub fn waited_for_slot(&mut self, due: Instant, waited: Duration) {
        if self.measured(due) {
            let waited = quantity::Duration::from(waited);
            self.slot_waits.count += 1;
            self.slot_waits.total += waited;
            self.slot_waits.max = self.slot_waits.max.max(waited);
        }
    }

    pub fn retried(&mut self, due: Instant) {
        if self.measured(due) {
            self.retried += 1;
        }
    }

    /// Failures without an answer to time: not sent, unfinished.
    pub fn failed_unsent(&mut self, due: Instant, kind: &'static str, detail: &str) {
        if self.measured(due) {
            self.count_error(kind, 1, || detail.to_string());
            if let Some(l) = self.live.as_mut() {
                l.errors += 1;
            }
        }
    }

    /// `n` requests due in the measured period that were never sent (all of one kind).
    pub fn failed_unsent_many(&mut self, n: u64, kind: &'static str, detail: &str) {
        if n == 0 {
            return;
        }
        self.due += n;
        self.count_error(kind, n, || detail.to_string());
    }

    /// In flight when the test was stopped.
    pub fn abandoned(&mut self, due: Instant) {
        if self.measured(due) {
            self.abandoned += 1;
        }
    }

    /// `n` more errors of `kind`; the first of a kind keeps its example.
    fn count_error(&mut self, kind: &str, n: u64, detail: impl FnOnce() -> String) {
        match self.errors.get_mut(kind) {
            Some(count) => *count += n,
            None => {
                self.errors.insert(kind.to_string(), n);
                self.examples.insert(kind.to_string(), detail());
            }
        }
    }

    pub fn body(&mut self, due: Instant, bytes: u64) {
        if self.measured(due) {
            self.body.0 += bytes;
        }
    }

    pub fn done(&mut self, due: Instant, sent: Instant, done: Instant, outcome: Answer) {
        if !self.measured(due) {
            return;
        }
        let second = due.duration_since(self.measure_from).as_secs();
        let latency_us = done.saturating_duration_since(due).as_secs_f64() * 1e6;
        let slot = self.second(second);
        if outcome == Answer::Ok {
            slot.ok += 1;
            let _ = slot.h.record(latency_us.round().max(1.0) as u64);
            self.ok += 1;
            self.latency.record_us(latency_us);
            self.service
                .record_us(done.saturating_duration_since(sent).as_secs_f64() * 1e6);
            if let Some(l) = self.live.as_mut() {
                l.ok += 1;
                let _ = l.latency.record(latency_us.round().max(1.0) as u64);
            }
        } else {
            slot.errors += 1;
            if let Some(l) = self.live.as_mut() {
                l.errors += 1;
            }
            match outcome {
                Answer::Status(s) => *self.statuses.entry(s).or_insert(0) += 1,
                Answer::Timeout => self.count_error("timeout", 1, || {
                    format!(
                        "no complete answer {} after it was sent",
                        plumb_model::format::time(done.saturating_duration_since(sent))
                    )
                }),
                Answer::Failed(f) => self.count_error(f.kind, 1, || f.detail),
                Answer::Ok => unreachable!(),
            }
        }
        self.fold_old(second);
    }

    fn second(&mut self, index: u64) -> &mut Second {
        let pos = match self.open_seconds.iter().rposition(|s| s.index == index) {
            Some(p) => p,
            None => {
                let at = self
                    .open_seconds
                    .iter()
                    .position(|o| o.index > index)
                    .unwrap_or(self.open_seconds.len());
                self.open_seconds.insert(
                    at,
                    Second {
                        index,
                        ok: 0,
                        errors: 0,
                        h: new_histogram(),
                    },
                );
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
            self.timeline.push(row(s.index, s.ok, s.errors, &s.h));
        }
    }

    pub fn finish(
        mut self,
        measured: quantity::Duration,
        interrupted: bool,
        connections: usize,
        open_loop: bool,
    ) -> LoadReport {
        while let Some(s) = self.open_seconds.pop_front() {
            self.timeline.push(row(s.index, s.ok, s.errors, &s.h));
        }
        for (status, n) in &self.statuses {
            let kind = format!("status {status}");
            self.examples
                .insert(kind.clone(), format!("the server answered {status}"));
            self.errors.insert(kind, *n);
        }
        LoadReport {
            latency: self.latency,
            service: self.service,
            lateness: open_loop.then_some(self.lateness),
            ok: self.ok,
            errors: self.errors,
            examples: self.examples,
            due: self.due,
            slot_waits: self.slot_waits,
            retried: self.retried,
            abandoned: self.abandoned,
            body: self.body,
            measured,
            timeline: self.timeline,
            interrupted,
            connections,
            threads: 1,
            measured_from: None,
            busy: 0.0,
            setup: self.setup,
            tls: None,
            targets: Vec::new(),
        }
    }
}

fn row(second: u64, ok: u64, errors: u64, h: &Histogram<u64>) -> SecondRow {
    let q = |p: f64| {
        quantity::Duration::from_micros(if h.is_empty() {
            0
        } else {
            plumb_model::value_at_percentile(h, p)
        })
    };
    let mut hdr = Vec::new();
    V2DeflateSerializer::new()
        .serialize(h, &mut hdr)
        .expect("serialising into memory");
    SecondRow {
        second,
        ok,
        errors,
        p50: q(50.0),
        p99: q(99.0),
        max: quantity::Duration::from_micros(if h.is_empty() { 0 } else { h.max() }),
        hdr,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warm_up_is_excluded_errors_apart_and_the_timeline_folds() {
        let t0 = Instant::now();
        let from = t0 + Duration::from_secs(1);
        let mut r = Recorder::new(from, Duration::from_secs(1));
        // A warm-up request: not counted anywhere.
        r.dispatched(t0, t0);
        r.done(t0, t0, t0 + Duration::from_millis(5), Answer::Ok);
        // Ten seconds of one good and one failed request each.
        for s in 0..10u64 {
            let due = from + Duration::from_secs(s);
            r.dispatched(due, due + Duration::from_micros(100));
            r.done(due, due, due + Duration::from_millis(2), Answer::Ok);
            r.dispatched(due, due);
            r.done(
                due,
                due,
                due + Duration::from_millis(9),
                Answer::Status(503),
            );
            assert!(r.open_seconds.len() <= 4, "seconds fold as they close");
        }
        let rep = r.finish(quantity::Duration::from_secs(10), false, 1, true);
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
