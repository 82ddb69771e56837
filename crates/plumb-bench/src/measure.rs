//! The timed regions. Everything here is on the hot path: two clock reads around a loop
//! of calls whose results go through `black_box`. No allocation, no logging, no branch
//! other than the loop's own. Review every change here for what it adds inside.

use crate::clock::Timer;
use std::hint::black_box;

/// Times `iters` calls of `f`, in ticks. Each result is passed to `black_box`, so the
/// compiler must assume it is used and cannot delete the work that produced it.
///
/// A zero-sized result (`()`) carries no work to protect, and `black_box` on it would only
/// add a compiler barrier per iteration (about a cycle, which is most of what an empty
/// body costs); the size test is a constant of the monomorphised function, not a branch.
/// A body that returns nothing and is deleted anyway is what the dead-code check is for.
#[inline(never)]
pub fn time_calls<T: Timer, O, F: FnMut() -> O>(timer: &T, f: &mut F, iters: u64) -> u64 {
    let start = timer.start();
    calls(f, iters);
    timer.end().wrapping_sub(start)
}

/// The loop the timed and the simulated regions both run.
#[inline(always)]
fn calls<O, F: FnMut() -> O>(f: &mut F, iters: u64) {
    if std::mem::size_of::<O>() == 0 {
        for _ in 0..iters {
            f();
        }
    } else {
        for _ in 0..iters {
            black_box(f());
        }
    }
}

/// Times `routine` over prepared inputs, in ticks. Outputs are kept (in space reserved
/// beforehand) and dropped after the clock stops, so their destructors are not timed.
#[inline(never)]
pub fn time_inputs<T: Timer, I, O, F: FnMut(I) -> O>(
    timer: &T,
    routine: &mut F,
    inputs: &mut Vec<I>,
    outputs: &mut Vec<O>,
) -> u64 {
    debug_assert!(outputs.capacity() >= inputs.len());
    let start = timer.start();
    calls_on(routine, inputs, outputs);
    timer.end().wrapping_sub(start)
}

/// The loop over prepared inputs the timed and the simulated regions both run.
#[inline(always)]
fn calls_on<I, O, F: FnMut(I) -> O>(routine: &mut F, inputs: &mut Vec<I>, outputs: &mut Vec<O>) {
    for input in inputs.drain(..) {
        outputs.push(black_box(routine(black_box(input))));
    }
}

/// `iters` calls of `f`, the loop of [`time_calls`] without the clock: the region a
/// simulation counts (valgrind's callgrind collects only inside functions named
/// `untimed_region_*`, and what they call) and a profile keeps (`plumb profile --bench`
/// keeps the stacks through these frames, cut there). No clock is read in it, so the
/// counts are the routine's alone; the fixed cost of entering it cancels when two runs of
/// `n` and `2n` calls are subtracted. Not generic over anything a profiler would print:
/// its demangled name is the same for every routine.
#[inline(never)]
pub fn untimed_region_calls<O, F: FnMut() -> O>(f: &mut F, iters: u64) {
    calls(f, iters);
}

/// `routine` over prepared inputs, as [`time_inputs`] without the clock: the untimed
/// region of `iter_batched`. The inputs were made before it and the outputs are dropped
/// after it.
#[inline(never)]
pub fn untimed_region_inputs<I, O, F: FnMut(I) -> O>(
    routine: &mut F,
    inputs: &mut Vec<I>,
    outputs: &mut Vec<O>,
) {
    calls_on(routine, inputs, outputs);
}
