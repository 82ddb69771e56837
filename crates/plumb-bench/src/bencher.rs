//! The `Bencher` each benchmark closure gets: its `iter` methods, and probes read around samples.
use crate::alloc::AllocationProbe;
use crate::clock::{Clock, Timer};
use crate::measure::{time_calls, time_inputs, untimed_region_calls, untimed_region_inputs};
use crate::sampler::{sample, Sampled, SamplingConfig, TimedRun, EXTRA};
use plumb_counters::CounterProbe;
use plumb_model::quantity::ByteSize;
use plumb_model::Design;
use plumb_probe::{Nested, Nothing, Probe, ProbeMetric};
use std::fmt::Debug;

const MAX_BATCHED_INPUTS: u64 = 100_000;
const SETUP_PROBES: u32 = 5;

/// What the harness sets up once per run and every benchmark shares.
pub(crate) struct Context {
    pub clock: Clock,
    pub sampling: SamplingConfig,
    pub count_allocations: bool,
    /// Event counters read around each measured sample (`--counters`), when any open.
    pub counters: Option<CounterProbe>,
    /// Quick mode (`cargo test`): run each routine once to see that it works.
    pub test_mode: bool,
    /// Under a simulator or a profiler: run the routine in the untimed region, and
    /// measure nothing.
    pub untimed: Option<Untimed>,
}

/// How a child under a simulator or a profiler runs the routine, in the untimed twin of
/// the measured loop (`measure::untimed_region_*`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Untimed {
    /// `--simulate-child N`: N calls, once.
    Calls(u64),
    /// `--profile-child TIME`: rounds of calls until the region has run this long (a
    /// round grows until it lasts 10 ms, so entering the region is rare).
    For(std::time::Duration),
}

impl Untimed {
    /// Runs `round(n)` (which returns how long its region took, in ns) as asked; returns
    /// the region's total time. A profile's rounds stop at 10 times the time asked of
    /// the wall clock, when setup outside the region is slow.
    fn run(self, max_round: u64, mut round: impl FnMut(u64) -> u64) -> u64 {
        match self {
            Untimed::Calls(n) => round(n),
            Untimed::For(time) => {
                let (want, started) = (time.as_nanos() as u64, std::time::Instant::now());
                let (mut total, mut n) = (0, 1);
                while total < want && started.elapsed() < time * 10 {
                    let took = round(n);
                    total += took;
                    if took < 10_000_000 {
                        n = (n * 2).min(max_round);
                    }
                }
                total
            }
        }
    }
}

/// One benchmark's measurement, as the harness receives it.
pub(crate) struct Measured {
    /// The samples; their probe values are allocations and bytes when counting.
    pub sampled: Sampled,
    pub ops_per_iter: u64,
    /// Whether the probe counted allocations (its values are in `sampled.extra`).
    pub allocations_counted: bool,
    /// The counters read around each sample, after the allocations in `sampled.extra`.
    pub counters: Vec<ProbeMetric>,
    /// Whether warm-up ran before the samples.
    pub warmup: bool,
}

/// Samples with the probe this run reads — allocations, counters, both or neither —
/// chosen once per benchmark and monomorphised, so the measuring loop has no branch on
/// it. Counters are the outer probe: the allocation counters' reads sit inside them.
macro_rules! with_probe {
    ($ctx:expr, |$t:ident, $p:ident| $body:expr) => {{
        macro_rules! arms {
            ($timer:ident) => {
                match ($ctx.count_allocations, $ctx.counters.as_ref()) {
                    (true, Some(c)) => {
                        let $p = &Nested(c, AllocationProbe);
                        let $t = $timer;
                        $body
                    }
                    (false, Some(c)) => {
                        let $p = &Nested(c, Nothing);
                        let $t = $timer;
                        $body
                    }
                    (true, None) => {
                        let $p = &AllocationProbe;
                        let $t = $timer;
                        $body
                    }
                    (false, None) => {
                        let $p = &Nothing;
                        let $t = $timer;
                        $body
                    }
                }
            };
        }
        match &$ctx.clock {
            Clock::Monotonic(timer) => arms!(timer),
            #[cfg(target_arch = "x86_64")]
            Clock::Tsc(timer) => arms!(timer),
        }
    }};
}

/// `region` (which returns clock ticks) between the probe's reads; the probe's values go
/// into the reading's `extra`, in order.
#[inline(always)]
fn read_around<T: Timer, P: Probe>(t: &T, p: &P, region: impl FnOnce() -> u64) -> TimedRun {
    let mark = p.start();
    let ticks = region();
    let mut extra = [0; EXTRA];
    p.stop(mark, &mut extra[..P::LEN]);
    TimedRun {
        ns: t.ticks_to_ns(ticks),
        extra,
    }
}

/// Handed to each benchmark closure: call one of the `iter` methods once.
pub struct Bencher<'c> {
    ctx: &'c Context,
    ops_per_iter: u64,
    pub(crate) working_set: Option<ByteSize>,
    pub(crate) design: Option<Box<Design>>,
    pub(crate) result: Option<String>,
    pub(crate) measured: Option<Measured>,
    /// Under a simulator or a profiler: how long the untimed region took.
    pub(crate) region_time: Option<std::time::Duration>,
    warmup: bool,
}

impl<'c> Bencher<'c> {
    pub(crate) fn new(ctx: &'c Context) -> Self {
        Bencher {
            ctx,
            ops_per_iter: 1,
            working_set: None,
            design: None,
            result: None,
            measured: None,
            region_time: None,
            warmup: true,
        }
    }

    /// Turns warm-up off for this benchmark, to measure cold behaviour on purpose.
    pub fn no_warmup(&mut self) -> &mut Self {
        self.warmup = false;
        self
    }

    fn sampling(&self) -> SamplingConfig {
        let mut cfg = self.ctx.sampling.clone();
        if !self.warmup {
            cfg.warmup = crate::sampler::Warmup::None;
        }
        cfg
    }

    /// The routine performs `n` operations per call; times are reported per operation.
    pub fn ops_per_iter(&mut self, n: u64) -> &mut Self {
        assert!(n >= 1, "ops_per_iter must be at least 1, got 0");
        self.ops_per_iter = n;
        self
    }

    /// Declares how many bytes the routine touches, so the report can say which cache
    /// level (or DRAM) the working set lands in.
    pub fn working_set_bytes(&mut self, bytes: u64) -> &mut Self {
        self.working_set = Some(ByteSize(bytes));
        self
    }

    /// Declares the workload this benchmark models — keys, mix, records, sizes, threads,
    /// durability, state, the question asked, and production's traits — so the result
    /// records it and the design layer's red flags (data that fits in cache, sequential
    /// keys, one thread, no fsync…) are checked beside the run's findings. Untimed: it is
    /// read once, outside the measuring loop.
    ///
    /// ```
    /// use plumb_bench::design::{Design, KeyDistribution};
    /// let d = Design {
    ///     keys: Some(KeyDistribution::Zipfian { theta: 0.99, scrambled: true }),
    ///     records: Some(10_000_000),
    ///     threads: Some(2),
    ///     ..Design::default()
    /// };
    /// # let _ = d;
    /// ```
    pub fn design(&mut self, design: Design) -> &mut Self {
        self.design = (!design.is_empty()).then(|| Box::new(design));
        self
    }

    /// Times `f`. Its result is always consumed (`black_box`), so it cannot be deleted.
    pub fn iter<O, F: FnMut() -> O>(&mut self, mut f: F) {
        if self.ctx.test_mode {
            std::hint::black_box(f());
            return;
        }
        if let Some(untimed) = self.ctx.untimed {
            let round = |n| elapsed_ns(|| untimed_region_calls(&mut f, n));
            self.region_time = Some(std::time::Duration::from_nanos(
                untimed.run(u64::MAX / 2, round),
            ));
            return;
        }
        let cfg = &self.sampling();
        let sampled = with_probe!(self.ctx, |t, p| sample_calls(t, p, cfg, &mut f));
        self.measured = Some(self.measured_by(sampled));
    }

    /// Like `iter`, and keeps the `Debug` form of one result (computed once, untimed) so
    /// a group declared `same_result` can check that its variants agree.
    pub fn iter_checked<O: Debug, F: FnMut() -> O>(&mut self, mut f: F) {
        self.result = Some(format!("{:?}", f()));
        self.iter(f)
    }

    /// Times `routine` on inputs made by `setup`, one per call; `setup` and dropping the
    /// outputs are not timed. Inputs for a whole sample are made before it starts.
    pub fn iter_batched<I, O, S: FnMut() -> I, R: FnMut(I) -> O>(
        &mut self,
        mut setup: S,
        mut routine: R,
    ) {
        if self.ctx.test_mode {
            std::hint::black_box(routine(setup()));
            return;
        }
        if let Some(untimed) = self.ctx.untimed {
            let round = |n| {
                let mut inputs: Vec<I> = (0..n).map(|_| setup()).collect();
                let mut outputs: Vec<O> = Vec::with_capacity(inputs.len());
                elapsed_ns(|| untimed_region_inputs(&mut routine, &mut inputs, &mut outputs))
            };
            self.region_time = Some(std::time::Duration::from_nanos(
                untimed.run(MAX_BATCHED_INPUTS, round),
            ));
            return;
        }
        // Inputs for a whole sample are held in memory, and making them takes time that
        // the clock does not see but the user waits for: bound the batch by both.
        let base = self.sampling();
        let probe = std::time::Instant::now();
        for _ in 0..SETUP_PROBES {
            drop(std::hint::black_box(setup()));
        }
        let setup_ns = probe.elapsed().as_nanos() as f64 / SETUP_PROBES as f64;
        let setup_budget = base.measure.as_nanos() as f64 / base.sample_count as f64;
        let by_setup = (setup_budget / setup_ns.max(1.0)).max(1.0) as u64;
        let cfg = &SamplingConfig {
            max_batch: base.max_batch.min(MAX_BATCHED_INPUTS).min(by_setup),
            ..base
        };
        let (s, r) = (&mut setup, &mut routine);
        let sampled = with_probe!(self.ctx, |t, p| sample_inputs(t, p, cfg, s, r));
        self.measured = Some(self.measured_by(sampled));
    }

    fn measured_by(&self, sampled: Sampled) -> Measured {
        Measured {
            sampled,
            ops_per_iter: self.ops_per_iter,
            allocations_counted: self.ctx.count_allocations,
            counters: self
                .ctx
                .counters
                .as_ref()
                .map_or_else(Vec::new, |c| c.metrics()),
            warmup: self.warmup,
        }
    }
}

/// How long `region` took, read around it (under a simulator, outside the counted
/// region).
fn elapsed_ns(region: impl FnOnce()) -> u64 {
    let started = std::time::Instant::now();
    region();
    started.elapsed().as_nanos() as u64
}

fn sample_calls<T: Timer, P: Probe, O, F: FnMut() -> O>(
    t: &T,
    p: &P,
    cfg: &SamplingConfig,
    f: &mut F,
) -> Sampled {
    sample(
        cfg,
        &mut |n| read_around(t, p, || time_calls(t, f, n)),
        // The empty body returns a value, so it goes through `black_box` like a routine
        // that returns something: the comparison is with a body that does nothing but be
        // kept, not with a loop the compiler may delete outright.
        &mut |n| t.ticks_to_ns(time_calls(t, &mut || 0usize, n)),
    )
}

/// Inputs for a sample are made before the probe starts, and outputs dropped after it
/// stops: neither setup nor destructors are in the timed region or the counts.
fn sample_inputs<T: Timer, P: Probe, I, O, S: FnMut() -> I, R: FnMut(I) -> O>(
    t: &T,
    p: &P,
    cfg: &SamplingConfig,
    setup: &mut S,
    routine: &mut R,
) -> Sampled {
    let mut run = |n: u64| {
        let mut inputs: Vec<I> = (0..n).map(|_| setup()).collect();
        let mut outputs: Vec<O> = Vec::with_capacity(inputs.len());
        let reading = read_around(t, p, || time_inputs(t, routine, &mut inputs, &mut outputs));
        drop(outputs);
        reading
    };
    let mut empty = |n: u64| {
        let mut inputs: Vec<()> = vec![(); n as usize];
        let mut outputs: Vec<()> = Vec::with_capacity(inputs.len());
        t.ticks_to_ns(time_inputs(t, &mut |x: ()| x, &mut inputs, &mut outputs))
    };
    sample(cfg, &mut run, &mut empty)
}
