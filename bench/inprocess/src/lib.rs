//! The bodies every harness measures, defined once.
use std::hint::black_box;

pub fn add_one(x: u64) -> u64 {
    black_box(x) + 1
}

pub fn sum128(xs: &[u64; 128]) -> u64 {
    black_box(xs).iter().sum()
}

/// About 10 µs on a ~3 GHz core: 10 000 xorshift steps, each three dependent shifts and
/// xors that neither the CPU can overlap nor the compiler can put in closed form.
pub fn spin_10us() -> u64 {
    let mut x = black_box(0x9E37_79B9_7F4A_7C15u64);
    for _ in 0..10_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    x
}

/// A 200 µs sleep: time spent waiting for the kernel's timer (which wakes late here,
/// 50–100 µs and now and then milliseconds), not computing.
pub fn nap() {
    std::thread::sleep(std::time::Duration::from_micros(200));
}

pub fn data128() -> [u64; 128] {
    std::array::from_fn(|i| i as u64 * 3 + 1)
}

/// A walk over 64 MiB of memory: a single random cycle through 16 Mi slots (Sattolo's
/// shuffle from a fixed seed), so every load depends on the one before and lands
/// anywhere — past every cache, the cost is the memory's latency (and the TLB's).
pub struct Walk {
    next: Vec<u32>,
    at: u32,
}

/// Steps of the walk per call: a few hundred dependent loads, tens of µs.
pub const WALK_STEPS: usize = 256;

impl Walk {
    pub fn new() -> Walk {
        let n = 16 * 1024 * 1024;
        let mut next: Vec<u32> = (0..n as u32).collect();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for i in (1..n).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let j = (x % i as u64) as usize;
            next.swap(i, j);
        }
        Walk { next, at: 0 }
    }

    pub fn steps(&mut self) -> u32 {
        let mut at = self.at;
        for _ in 0..WALK_STEPS {
            at = self.next[at as usize];
        }
        self.at = at;
        black_box(at)
    }
}

impl Default for Walk {
    fn default() -> Self {
        Self::new()
    }
}

/// A body whose cost is one of two: each call draws (xorshift) a short spin of ~1 µs or
/// a long one of ~5 µs, half and half: a bimodal distribution of per-call times.
pub struct Bimodal {
    state: u64,
}

impl Bimodal {
    pub fn new() -> Bimodal {
        Bimodal {
            state: 0x9E37_79B9_7F4A_7C15,
        }
    }

    pub fn call(&mut self) -> u64 {
        let mut s = self.state;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        self.state = s;
        let steps = if s & 1 == 0 { 1_000 } else { 5_000 };
        let mut x = black_box(s);
        for _ in 0..steps {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
        }
        x
    }
}

impl Default for Bimodal {
    fn default() -> Self {
        Self::new()
    }
}
