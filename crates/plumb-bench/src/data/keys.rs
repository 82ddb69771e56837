//! The key orders of issue 27 beside the Zipfian: sequential, uniform, and YCSB's "latest"
//! (`SkewedLatestGenerator`: the newest key the most popular, then the one before it, in
//! Zipfian proportions), each a seeded draw over a fixed key count.
use super::{DataError, Zipfian, YCSB_THETA};
use rand::Rng;

/// Keys 0, 1, 2, … wrapping at `items`: the "Lazy" design's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sequential {
    items: u64,
    next: u64,
}

impl Sequential {
    pub fn new(items: u64) -> Result<Sequential, DataError> {
        if items == 0 {
            return Err(DataError::NoItems);
        }
        Ok(Sequential { items, next: 0 })
    }

    pub fn next_key(&mut self) -> u64 {
        let k = self.next;
        self.next = (self.next + 1) % self.items;
        k
    }
}

/// Every key of `items` equally likely.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Uniform {
    items: u64,
}

impl Uniform {
    pub fn new(items: u64) -> Result<Uniform, DataError> {
        if items == 0 {
            return Err(DataError::NoItems);
        }
        Ok(Uniform { items })
    }

    pub fn sample(&self, rng: &mut impl Rng) -> u64 {
        rng.gen_range(0..self.items)
    }
}

/// YCSB's "latest" over keys 0..=`newest`: `newest − z`, z Zipfian over `newest` items, so
/// the newest key is the mode and (as in YCSB) key 0 is never drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Latest {
    newest: u64,
    offsets: Zipfian,
}

impl Latest {
    pub fn new(newest: u64) -> Result<Latest, DataError> {
        Ok(Latest {
            newest,
            offsets: Zipfian::new(newest, YCSB_THETA)?,
        })
    }

    /// The key a uniform draw `u` in [0, 1) stands for.
    pub fn value_at(&self, u: f64) -> u64 {
        self.newest - self.offsets.value_at(u)
    }

    pub fn sample(&self, rng: &mut impl Rng) -> u64 {
        self.value_at(rng.gen::<f64>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn sequential_counts_up_and_wraps() {
        let mut s = Sequential::new(3).unwrap();
        let keys: Vec<u64> = (0..7).map(|_| s.next_key()).collect();
        assert_eq!(keys, [0, 1, 2, 0, 1, 2, 0]);
        assert_eq!(Sequential::new(0), Err(DataError::NoItems));
    }

    /// Seeded: uniform keys fill 10 buckets within 5 standard errors of a tenth each.
    #[test]
    fn uniform_keys_are_even() {
        let u = Uniform::new(1000).unwrap();
        let mut rng = rand_pcg::Pcg64::seed_from_u64(1);
        let mut buckets = [0u32; 10];
        let n = 100_000;
        for _ in 0..n {
            buckets[(u.sample(&mut rng) / 100) as usize] += 1;
        }
        let se = (0.1 * 0.9 / n as f64).sqrt();
        assert!(
            buckets
                .iter()
                .all(|&b| (b as f64 / n as f64 - 0.1).abs() < 5.0 * se),
            "{buckets:?}"
        );
    }

    /// The newest key is the most drawn, the one before it next, key 0 never.
    #[test]
    fn latest_favours_the_newest_keys() {
        let l = Latest::new(999).unwrap();
        let mut rng = rand_pcg::Pcg64::seed_from_u64(2);
        let mut counts = vec![0u32; 1000];
        for _ in 0..100_000 {
            counts[l.sample(&mut rng) as usize] += 1;
        }
        assert_eq!(counts[0], 0);
        let mode = (0..1000).max_by_key(|&k| counts[k]).unwrap();
        assert_eq!(mode, 999);
        assert!(counts[999] > counts[998] && counts[998] > counts[500]);
    }
}
