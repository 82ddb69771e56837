//! What one generator thread records: the whole test, and for a request mix each target
//! apart (its own latency, service time, lateness, errors), every event recorded in both
//! so the whole is exactly the targets added. A single target records once.
use super::recorder::{Answer, LiveCounts, LoadReport, Recorder};
use plumb_model::quantity;
use std::time::{Duration, Instant};

pub(crate) struct Recorders {
    pub whole: Recorder,
    /// One per target of a mix; empty for a single target.
    targets: Vec<Recorder>,
}

impl Recorders {
    pub fn new(measure_from: Instant, timeout: Duration, targets: usize) -> Self {
        let each = if targets > 1 { targets } else { 0 };
        Recorders {
            whole: Recorder::new(measure_from, timeout),
            targets: (0..each)
                .map(|_| Recorder::new(measure_from, timeout))
                .collect(),
        }
    }

    /// Each of the whole's and target `t`'s recorders.
    fn both(&mut self, t: usize, mut f: impl FnMut(&mut Recorder)) {
        f(&mut self.whole);
        if let Some(r) = self.targets.get_mut(t) {
            f(r);
        }
    }

    pub fn dispatched(&mut self, t: usize, due: Instant, at: Instant) {
        self.both(t, |r| r.dispatched(due, at));
    }

    pub fn waited_for_slot(&mut self, t: usize, due: Instant, waited: Duration) {
        self.both(t, |r| r.waited_for_slot(due, waited));
    }

    pub fn retried(&mut self, t: usize, due: Instant) {
        self.both(t, |r| r.retried(due));
    }

    pub fn failed_unsent(&mut self, t: usize, due: Instant, kind: &'static str, detail: &str) {
        self.both(t, |r| r.failed_unsent(due, kind, detail));
    }

    pub fn failed_unsent_many(&mut self, t: usize, n: u64, kind: &'static str, detail: &str) {
        self.both(t, |r| r.failed_unsent_many(n, kind, detail));
    }

    pub fn abandoned(&mut self, t: usize, due: Instant) {
        self.both(t, |r| r.abandoned(due));
    }

    pub fn body(&mut self, t: usize, due: Instant, bytes: u64) {
        self.both(t, |r| r.body(due, bytes));
    }

    pub fn done(&mut self, t: usize, due: Instant, sent: Instant, at: Instant, outcome: Answer) {
        if let Some(r) = self.targets.get_mut(t) {
            r.done(due, sent, at, outcome.clone());
        }
        self.whole.done(due, sent, at, outcome);
    }

    pub fn take_live(&mut self) -> Option<LiveCounts> {
        self.whole.take_live()
    }

    /// The whole's report, with each target's (their connections are the whole's).
    pub fn finish(
        self,
        measured: quantity::Duration,
        interrupted: bool,
        connections: usize,
        open_loop: bool,
    ) -> LoadReport {
        let mut report = self
            .whole
            .finish(measured, interrupted, connections, open_loop);
        report.targets = self
            .targets
            .into_iter()
            .map(|r| r.finish(measured, interrupted, 0, open_loop))
            .collect();
        report
    }
}
