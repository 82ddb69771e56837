//! An opt-in counting global allocator. Install it in a bench binary with
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOC: plumb_bench::CountingAllocator = plumb_bench::CountingAllocator::system();
//! ```
//!
//! and every benchmark reports allocations and bytes per operation. It adds two relaxed
//! atomic additions to each allocation, in the timed region too: code that allocates
//! pays slightly more, code that does not pays nothing.

use plumb_model::{Metric, MetricInfo};
use plumb_probe::{Probe, ProbeMetric};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

pub struct CountingAllocator<A = System> {
    inner: A,
}

impl CountingAllocator<System> {
    pub const fn system() -> Self {
        CountingAllocator { inner: System }
    }
}

impl<A> CountingAllocator<A> {
    pub const fn new(inner: A) -> Self {
        CountingAllocator { inner }
    }
}

// SAFETY: forwards every call to the wrapped allocator unchanged; only counts.
unsafe impl<A: GlobalAlloc> GlobalAlloc for CountingAllocator<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        self.inner.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        self.inner.alloc_zeroed(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.inner.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(new_size as u64, Ordering::Relaxed);
        self.inner.realloc(ptr, layout, new_size)
    }
}

/// Allocations and bytes allocated so far by the whole process (when installed).
pub fn counts() -> (u64, u64) {
    (
        ALLOCATIONS.load(Ordering::Relaxed),
        BYTES.load(Ordering::Relaxed),
    )
}

/// Whether the counting allocator is the global allocator: allocate and look.
pub fn installed() -> bool {
    let before = counts().0;
    let b = std::hint::black_box(Box::new(0u64));
    drop(b);
    counts().0 != before
}

/// The counting allocator as a probe: allocations and bytes allocated during the region
/// (two relaxed loads at each end, outside the clock's reads).
#[derive(Debug, Clone, Copy, Default)]
pub struct AllocationProbe;

impl Probe for AllocationProbe {
    type Mark = (u64, u64);
    const LEN: usize = 2;

    fn metrics(&self) -> Vec<ProbeMetric> {
        [Metric::Allocations, Metric::AllocatedBytes]
            .into_iter()
            .map(|metric| ProbeMetric {
                info: MetricInfo::measured(&metric),
                metric,
            })
            .collect()
    }

    #[inline(always)]
    fn start(&self) -> (u64, u64) {
        counts()
    }

    #[inline(always)]
    fn stop(&self, (allocs, bytes): (u64, u64), out: &mut [u64]) {
        let (a, b) = counts();
        out[0] = a.wrapping_sub(allocs);
        out[1] = b.wrapping_sub(bytes);
    }
}
