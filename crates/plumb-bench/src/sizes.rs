//! Working-set sizes for sweeps that straddle this machine's cache levels, from L1d out to DRAM.
/// Working-set sizes in bytes that straddle this machine's cache levels: half of L1d
/// (fits L1), twice L1d (in L2 when L2 is larger), half of the last-level cache (in it,
/// beyond L2 when L3 exists), and four times the last level (DRAM). From the environment
/// record; falls back to 32 KiB / 1 MiB / 32 MiB caches where the kernel says nothing.
pub fn sizes_across_caches() -> Vec<u64> {
    let env = plumb_env::collect();
    let size = |level: u8| {
        env.caches
            .iter()
            .find(|c| c.level == level && c.kind != "Instruction")
            .map(|c| c.size.0)
    };
    let l1 = size(1).unwrap_or(32 << 10);
    let l2 = size(2).unwrap_or(1 << 20);
    let last = size(3).unwrap_or(l2.max(32 << 20));
    let mut v = vec![l1 / 2, 2 * l1, last / 2, 4 * last];
    if l2 >= 4 * l1 {
        v.insert(2, l2 / 2 + l2 / 4);
    }
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes_increase_and_end_beyond_the_last_cache() {
        let v = super::sizes_across_caches();
        assert!(v.windows(2).all(|w| w[0] < w[1]), "{v:?}");
        assert!(v.len() >= 4);
    }
}
