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

pub fn data128() -> [u64; 128] {
    std::array::from_fn(|i| i as u64 * 3 + 1)
}
