use crate::alloc;
use crate::clock::{Clock, Timer};
use crate::measure::{time_calls, time_inputs};
use crate::sampler::{sample, Sampled, SamplingConfig};
use std::cell::Cell;
use std::fmt::Debug;

const MAX_BATCHED_INPUTS: u64 = 100_000;
const SETUP_PROBES: u32 = 5;

/// What the harness sets up once per run and every benchmark shares.
pub(crate) struct Context {
    pub clock: Clock,
    pub sampling: SamplingConfig,
    pub count_allocations: bool,
    /// Quick mode (`cargo test`): run each routine once to see that it works.
    pub test_mode: bool,
}

/// One benchmark's measurement, as the harness receives it.
pub(crate) struct Measured {
    pub sampled: Sampled,
    pub ops_per_iter: u64,
    /// Allocations and bytes during the measured samples, when counting.
    pub allocations: Option<(u64, u64)>,
    /// Whether warm-up ran before the samples.
    pub warmup: bool,
}

/// Handed to each benchmark closure: call one of the `iter` methods once.
pub struct Bencher<'c> {
    ctx: &'c Context,
    ops_per_iter: u64,
    pub(crate) working_set_bytes: Option<u64>,
    pub(crate) result: Option<String>,
    pub(crate) measured: Option<Measured>,
    warmup: bool,
}

impl<'c> Bencher<'c> {
    pub(crate) fn new(ctx: &'c Context) -> Self {
        Bencher {
            ctx,
            ops_per_iter: 1,
            working_set_bytes: None,
            result: None,
            measured: None,
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
        self.working_set_bytes = Some(bytes);
        self
    }

    /// Times `f`. Its result is always consumed (`black_box`), so it cannot be deleted.
    pub fn iter<O, F: FnMut() -> O>(&mut self, mut f: F) {
        if self.ctx.test_mode {
            std::hint::black_box(f());
            return;
        }
        let count = self.ctx.count_allocations;
        let mut mark = (0, 0);
        let mut allocations = None;
        let mut between = |starting: bool| {
            if !count {
                return;
            }
            // Counts add up over the spans of measured samples.
            let now = alloc::counts();
            if starting {
                mark = now;
            } else {
                let (a, b) = allocations.unwrap_or((0, 0));
                allocations = Some((a + now.0 - mark.0, b + now.1 - mark.1));
            }
        };
        let cfg = &self.sampling();
        let sampled = match &self.ctx.clock {
            Clock::Monotonic(t) => sample_calls(t, cfg, &mut f, &mut between),
            #[cfg(target_arch = "x86_64")]
            Clock::Tsc(t) => sample_calls(t, cfg, &mut f, &mut between),
        };
        self.measured = Some(Measured {
            sampled,
            ops_per_iter: self.ops_per_iter,
            allocations,
            warmup: self.warmup,
        });
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
        let count = self.ctx.count_allocations;
        let measuring = Cell::new(false);
        let totals = Cell::new((0u64, 0u64));
        let mut between = |starting: bool| measuring.set(starting);
        // Inputs for a whole sample are held in memory: bound the batch.
        // Inputs for a whole sample are held in memory, and making them takes time that
        // the clock does not see but the user waits for: bound the batch by both.
        let base = self.sampling();
        let probe = std::time::Instant::now();
        for _ in 0..SETUP_PROBES {
            drop(std::hint::black_box(setup()));
        }
        let setup_ns = probe.elapsed().as_nanos() as f64 / SETUP_PROBES as f64;
        let setup_budget = base.measure_ns / base.sample_count as f64;
        let by_setup = (setup_budget / setup_ns.max(1.0)).max(1.0) as u64;
        let cfg = &SamplingConfig {
            max_batch: base.max_batch.min(MAX_BATCHED_INPUTS).min(by_setup),
            ..base
        };
        let sampled = match &self.ctx.clock {
            Clock::Monotonic(t) => sample_inputs(
                t,
                cfg,
                &mut setup,
                &mut routine,
                count,
                &measuring,
                &totals,
                &mut between,
            ),
            #[cfg(target_arch = "x86_64")]
            Clock::Tsc(t) => sample_inputs(
                t,
                cfg,
                &mut setup,
                &mut routine,
                count,
                &measuring,
                &totals,
                &mut between,
            ),
        };
        self.measured = Some(Measured {
            sampled,
            ops_per_iter: self.ops_per_iter,
            allocations: count.then(|| totals.get()),
            warmup: self.warmup,
        });
    }
}

fn sample_calls<T: Timer, O, F: FnMut() -> O>(
    t: &T,
    cfg: &SamplingConfig,
    f: &mut F,
    between: &mut dyn FnMut(bool),
) -> Sampled {
    sample(
        cfg,
        &mut |n| t.ticks_to_ns(time_calls(t, f, n)),
        // The empty body returns a value, so it goes through `black_box` like a routine
        // that returns something: the comparison is with a body that does nothing but be
        // kept, not with a loop the compiler may delete outright.
        &mut |n| t.ticks_to_ns(time_calls(t, &mut || 0usize, n)),
        between,
    )
}

#[allow(clippy::too_many_arguments)]
fn sample_inputs<T: Timer, I, O, S: FnMut() -> I, R: FnMut(I) -> O>(
    t: &T,
    cfg: &SamplingConfig,
    setup: &mut S,
    routine: &mut R,
    count: bool,
    measuring: &Cell<bool>,
    totals: &Cell<(u64, u64)>,
    between: &mut dyn FnMut(bool),
) -> Sampled {
    let mut run = |n: u64| {
        let mut inputs: Vec<I> = (0..n).map(|_| setup()).collect();
        let mut outputs: Vec<O> = Vec::with_capacity(inputs.len());
        let before = if count { alloc::counts() } else { (0, 0) };
        let ticks = time_inputs(t, routine, &mut inputs, &mut outputs);
        if count && measuring.get() {
            let after = alloc::counts();
            let (a, b) = totals.get();
            totals.set((a + after.0 - before.0, b + after.1 - before.1));
        }
        drop(outputs);
        t.ticks_to_ns(ticks)
    };
    let mut empty = |n: u64| {
        let mut inputs: Vec<()> = vec![(); n as usize];
        let mut outputs: Vec<()> = Vec::with_capacity(inputs.len());
        t.ticks_to_ns(time_inputs(t, &mut |x: ()| x, &mut inputs, &mut outputs))
    };
    sample(cfg, &mut run, &mut empty, between)
}
