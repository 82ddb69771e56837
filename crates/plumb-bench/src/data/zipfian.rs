//! YCSB's Zipfian request distribution, ported from its `ZipfianGenerator` and
//! `ScrambledZipfianGenerator` (Gray et al., "Quickly generating billion-record synthetic
//! databases", SIGMOD 1994): item i of n drawn with probability ∝ 1/(i+1)^θ, θ = 0.99 by
//! default — exactly for items 0 and 1, by Gray's closed form beyond. Written here rather
//! than taken from a crate: the point is YCSB's definition, constants and all (notes and
//! quirks in docs/ycsb-notes.md), which general Zipf samplers do not follow.
use super::DataError;
use rand::Rng;

/// YCSB's `ZIPFIAN_CONSTANT`.
pub const YCSB_THETA: f64 = 0.99;

/// ζ(10¹⁰, 0.99), YCSB's `ScrambledZipfianGenerator.ZETAN`.
pub const ZETA_10E10: f64 = 26.46902820178302;

/// YCSB's scrambled generator draws ranks from this many items (its `ITEM_COUNT`).
const SCRAMBLED_ITEMS: u64 = 10_000_000_000;

/// ζ(n, θ) = Σ_{k=1..n} 1/k^θ, summed in ascending k as YCSB sums it.
pub fn zeta(n: u64, theta: f64) -> f64 {
    zeta_from(0, n, theta, 0.0)
}

/// ζ(n, θ) extended from ζ(`start`, θ) = `sum`: adds the terms k = start+1 ..= n.
pub fn zeta_from(start: u64, n: u64, theta: f64, sum: f64) -> f64 {
    (start..n).fold(sum, |s, i| s + 1.0 / ((i + 1) as f64).powf(theta))
}

/// Items 0..items, item 0 the most popular.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Zipfian {
    items: u64,
    alpha: f64,
    zetan: f64,
    eta: f64,
    /// 0.5^θ: item 1's weight relative to item 0's.
    half_pow_theta: f64,
}

impl Zipfian {
    /// Over `items` items with exponent `theta` in (0, 1) (YCSB's method needs θ < 1:
    /// α = 1/(1 − θ)); ζ(items, θ) is summed once, here.
    pub fn new(items: u64, theta: f64) -> Result<Zipfian, DataError> {
        Zipfian::with_zeta(items, theta, zeta(items, theta))
    }

    /// As `new`, with ζ(items, θ) given (YCSB's constant for 10¹⁰ items).
    pub fn with_zeta(items: u64, theta: f64, zetan: f64) -> Result<Zipfian, DataError> {
        if items == 0 {
            return Err(DataError::NoItems);
        }
        if !(theta > 0.0 && theta < 1.0) {
            return Err(DataError::Theta(theta));
        }
        let zeta2 = 1.0 + 0.5f64.powf(theta);
        Ok(Zipfian {
            items,
            alpha: 1.0 / (1.0 - theta),
            zetan,
            eta: (1.0 - (2.0 / items as f64).powf(1.0 - theta)) / (1.0 - zeta2 / zetan),
            half_pow_theta: 0.5f64.powf(theta),
        })
    }

    /// The item a uniform draw `u` in [0, 1) stands for (YCSB's `nextLong`).
    pub fn value_at(&self, u: f64) -> u64 {
        let uz = u * self.zetan;
        if uz < 1.0 {
            return 0;
        }
        if uz < 1.0 + self.half_pow_theta {
            return 1;
        }
        let v = (self.items as f64 * (self.eta * u - self.eta + 1.0).powf(self.alpha)) as u64;
        // Rounding can reach `items` exactly where YCSB would return it; kept in range.
        v.min(self.items - 1)
    }

    /// One draw.
    pub fn sample(&self, rng: &mut impl Rng) -> u64 {
        self.value_at(rng.gen::<f64>())
    }

    pub fn items(&self) -> u64 {
        self.items
    }
}

/// YCSB's `Utils.fnvhash64`: 64-bit FNV-1a over the long's 8 little-endian bytes, then
/// `Math.abs` (which leaves `i64::MIN` negative: `wrapping_abs`).
pub fn fnvhash64(v: i64) -> i64 {
    (fnv1a64(&v.to_le_bytes()) as i64).wrapping_abs()
}

/// 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime 0x100000001b3), the `fnv` crate's.
fn fnv1a64(bytes: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut h = fnv::FnvHasher::default();
    h.write(bytes);
    h.finish()
}

/// YCSB's scrambled Zipfian over `items` keys: a rank drawn from a Zipfian over 10¹⁰ + 1
/// items (YCSB's off-by-one kept) with its constant ζ, hashed onto the keys, so the
/// popular keys are scattered instead of being the smallest.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScrambledZipfian {
    ranks: Zipfian,
    items: u64,
}

impl ScrambledZipfian {
    pub fn new(items: u64) -> Result<ScrambledZipfian, DataError> {
        if items == 0 {
            return Err(DataError::NoItems);
        }
        Ok(ScrambledZipfian {
            ranks: Zipfian::with_zeta(SCRAMBLED_ITEMS + 1, YCSB_THETA, ZETA_10E10)?,
            items,
        })
    }

    /// The key a uniform draw stands for. `rem_euclid` where YCSB's signed `%` would give
    /// a negative key for the one hash `Math.abs` cannot make positive.
    pub fn value_at(&self, u: f64) -> u64 {
        let rank = self.ranks.value_at(u) as i64;
        fnvhash64(rank).rem_euclid(self.items as i64) as u64
    }

    pub fn sample(&self, rng: &mut impl Rng) -> u64 {
        self.value_at(rng.gen::<f64>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// CockroachDB's `pkg/workload/ycsb/zipfgenerator_test.go` (to 1e-9), from scratch and
    /// extended step by step as its incremental test does.
    #[test]
    fn zeta_matches_published_values_from_scratch_and_extended() {
        let table = [
            (20, 3.64309060779367),
            (200, 6.02031118558),
            (1000, 7.72895321728),
            (2000, 8.47398788329),
            (10_000, 10.2243614596),
            (100_000, 12.7783380626),
            (1_000_000, 15.391849746),
        ];
        let (mut n0, mut sum) = (0, 0.0);
        for (n, want) in table {
            assert!((zeta(n, 0.99) - want).abs() < 1e-9, "ζ({n})");
            sum = zeta_from(n0, n, 0.99, sum);
            n0 = n;
            assert!((sum - want).abs() < 1e-9, "ζ({n}) extended");
        }
    }

    /// The FNV spec's published FNV-1a 64 vectors.
    #[test]
    fn fnv1a64_matches_its_published_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
        assert!(fnvhash64(12345) >= 0);
    }

    /// YCSB's three branches, with the draw given: below 1/ζ item 0, below (1 + 0.5^θ)/ζ
    /// item 1, above it Gray's closed form.
    #[test]
    fn the_three_branches_of_a_draw() {
        let z = Zipfian::new(1000, 0.99).unwrap();
        let zn = zeta(1000, 0.99);
        assert_eq!(z.value_at(0.0), 0);
        assert_eq!(z.value_at(0.999 / zn), 0);
        assert_eq!(z.value_at(1.001 / zn), 1);
        let u = (1.0 + 0.5f64.powf(0.99)) * 1.001 / zn;
        let alpha = 1.0 / (1.0 - 0.99);
        let eta = (1.0 - (2.0f64 / 1000.0).powf(0.01)) / (1.0 - (1.0 + 0.5f64.powf(0.99)) / zn);
        assert_eq!(
            z.value_at(u),
            (1000.0 * (eta * u - eta + 1.0).powf(alpha)) as u64
        );
        assert!(z.value_at(0.999_999) < 1000);
        assert!(Zipfian::new(10, 1.0).is_err() && Zipfian::new(10, 0.0).is_err());
    }

    /// Seeded: items 0 and 1 come up with their exact probabilities 1/ζ and 0.5^θ/ζ
    /// (within 4 standard errors of 200,000 draws), and the rest in decreasing shares.
    #[test]
    fn the_first_items_come_up_as_often_as_zeta_says() {
        let z = Zipfian::new(1000, 0.99).unwrap();
        let mut rng = rand_pcg::Pcg64::seed_from_u64(27);
        let n = 200_000;
        let mut counts = vec![0u64; 1000];
        for _ in 0..n {
            counts[z.sample(&mut rng) as usize] += 1;
        }
        let zn = zeta(1000, 0.99);
        for (item, p) in [(0, 1.0 / zn), (1, 0.5f64.powf(0.99) / zn)] {
            let se = (p * (1.0 - p) / n as f64).sqrt();
            let got = counts[item] as f64 / n as f64;
            assert!((got - p).abs() < 4.0 * se, "item {item}: {got} against {p}");
        }
        let tenth: u64 = counts[..100].iter().sum();
        let rest: u64 = counts[900..].iter().sum();
        assert!(
            tenth > 5 * rest,
            "the first tenth of the items dominates the last"
        );
    }

    /// Scrambled: every key in range, and the most frequent is rank 0's hash, as YCSB's.
    #[test]
    fn scrambled_keys_are_in_range_and_rank_zero_is_the_mode() {
        let s = ScrambledZipfian::new(1_000_000).unwrap();
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..100_000 {
            let k = s.sample(&mut rng);
            assert!(k < 1_000_000);
            *counts.entry(k).or_insert(0u32) += 1;
        }
        let mode = counts
            .iter()
            .max_by_key(|(_, c)| **c)
            .map(|(k, _)| *k)
            .unwrap();
        assert_eq!(mode, fnvhash64(0).rem_euclid(1_000_000) as u64);
    }
}
