//! Probes: what a producer reads around a measured region — a clock, a counter — each
//! yielding named metrics (criterion's `Measurement`, generalised to several values).
//!
//! The contract that keeps the region clean: `start` is the last thing before the
//! region and `stop` the first thing after it, and neither allocates. When probes are
//! combined, the inner one is read closest to the region (`Nested(outer, inner)`: outer
//! start, inner start, region, inner stop, outer stop), so a clock goes inside and
//! counters whose reads cost something go outside it.

use plumb_model::{Metric, MetricInfo};

pub mod stop;
mod wall;
pub use wall::WallClock;

/// A metric a probe yields, with what it is.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbeMetric {
    pub metric: Metric,
    pub info: MetricInfo,
}

/// Reads one or more metrics around a measured region.
pub trait Probe {
    /// What `start` remembers for `stop`.
    type Mark: Copy;
    /// How many values `stop` writes (a constant, so `stop` needs no allocation to know).
    const LEN: usize;
    /// The metrics `stop` writes, in order.
    fn metrics(&self) -> Vec<ProbeMetric>;
    /// Just before the region.
    fn start(&self) -> Self::Mark;
    /// Just after it: the region's value of each metric, in the order of `metrics`, into
    /// `out` (which has at least that many elements).
    fn stop(&self, mark: Self::Mark, out: &mut [u64]);
}

/// A probe lent to a combination (`Nested(&counters, allocations)`).
impl<P: Probe> Probe for &P {
    type Mark = P::Mark;
    const LEN: usize = P::LEN;
    fn metrics(&self) -> Vec<ProbeMetric> {
        (**self).metrics()
    }
    #[inline(always)]
    fn start(&self) -> Self::Mark {
        (**self).start()
    }
    #[inline(always)]
    fn stop(&self, mark: Self::Mark, out: &mut [u64]) {
        (**self).stop(mark, out)
    }
}

/// No metrics at all.
#[derive(Debug, Clone, Copy, Default)]
pub struct Nothing;

impl Probe for Nothing {
    type Mark = ();
    const LEN: usize = 0;
    fn metrics(&self) -> Vec<ProbeMetric> {
        Vec::new()
    }
    fn start(&self) {}
    fn stop(&self, _: (), _: &mut [u64]) {}
}

/// Two probes, `inner` read closest to the region; its metrics come first in `out`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Nested<O, I>(pub O, pub I);

impl<O: Probe, I: Probe> Probe for Nested<O, I> {
    type Mark = (O::Mark, I::Mark);
    const LEN: usize = O::LEN + I::LEN;

    fn metrics(&self) -> Vec<ProbeMetric> {
        let mut m = self.1.metrics();
        m.extend(self.0.metrics());
        m
    }

    #[inline(always)]
    fn start(&self) -> Self::Mark {
        let outer = self.0.start();
        (outer, self.1.start())
    }

    #[inline(always)]
    fn stop(&self, (outer, inner): Self::Mark, out: &mut [u64]) {
        self.1.stop(inner, &mut out[..I::LEN]);
        self.0.stop(outer, &mut out[I::LEN..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// Counts its reads: start and stop order, and what it writes.
    struct Counter<'a> {
        name: &'static str,
        log: &'a Cell<u32>,
        order: &'a std::cell::RefCell<Vec<String>>,
    }

    impl Probe for Counter<'_> {
        type Mark = u32;
        const LEN: usize = 1;
        fn metrics(&self) -> Vec<ProbeMetric> {
            vec![ProbeMetric {
                metric: Metric::Named(self.name.into()),
                info: MetricInfo::measured(&Metric::Allocations),
            }]
        }
        fn start(&self) -> u32 {
            self.order.borrow_mut().push(format!("{} start", self.name));
            self.log.get()
        }
        fn stop(&self, mark: u32, out: &mut [u64]) {
            self.order.borrow_mut().push(format!("{} stop", self.name));
            self.log.set(self.log.get() + 7);
            out[0] = u64::from(self.log.get() - mark);
        }
    }

    #[test]
    fn the_inner_probe_is_read_closest_to_the_region_and_written_first() {
        let (a, b) = (Cell::new(0), Cell::new(100));
        let order = std::cell::RefCell::new(Vec::new());
        let p = Nested(
            Counter {
                name: "outer",
                log: &a,
                order: &order,
            },
            Counter {
                name: "inner",
                log: &b,
                order: &order,
            },
        );
        let names: Vec<String> = p
            .metrics()
            .into_iter()
            .map(|m| m.metric.to_string())
            .collect();
        assert_eq!(names, ["inner", "outer"]);
        let mark = p.start();
        order.borrow_mut().push("region".into());
        let mut out = [0; 2];
        p.stop(mark, &mut out);
        assert_eq!(
            *order.borrow(),
            [
                "outer start",
                "inner start",
                "region",
                "inner stop",
                "outer stop"
            ]
        );
        assert_eq!(out, [7, 7]);
        Nothing.start();
        Nothing.stop((), &mut []);
    }
}
