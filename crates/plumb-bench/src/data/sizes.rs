//! Value (or key) sizes: fixed, uniform between two sizes, Zipfian between them (the
//! shortest the most common), or from a histogram, as YCSB's `fieldlengthdistribution`
//! offers; seeded draws.
use super::{DataError, Zipfian, YCSB_THETA};
use rand::Rng;

/// Sizes in bytes.
#[derive(Debug, Clone, PartialEq)]
pub enum SizeDist {
    Fixed(u64),
    /// Each size in `lo..=hi` equally likely.
    Uniform {
        lo: u64,
        hi: u64,
    },
    /// `lo` the most common, then `lo + 1`, … in Zipfian proportions (θ = 0.99), to `hi`.
    Zipfian {
        lo: u64,
        zipf: Zipfian,
    },
    /// YCSB's `HistogramGenerator`: `counts[i]` the weight of bucket i, sizes in multiples
    /// of `block`, drawn exactly as YCSB draws them (see `histogram_draw`).
    Histogram {
        block: u64,
        counts: Vec<u64>,
    },
}

impl SizeDist {
    pub fn uniform(lo: u64, hi: u64) -> Result<SizeDist, DataError> {
        if hi < lo {
            return Err(DataError::Bounds { lo, hi });
        }
        Ok(SizeDist::Uniform { lo, hi })
    }

    pub fn zipfian(lo: u64, hi: u64) -> Result<SizeDist, DataError> {
        if hi < lo {
            return Err(DataError::Bounds { lo, hi });
        }
        Ok(SizeDist::Zipfian {
            lo,
            zipf: Zipfian::new(hi - lo + 1, YCSB_THETA)?,
        })
    }

    /// A histogram of `counts` (at least one, not all zero) in blocks of `block` bytes.
    pub fn histogram(block: u64, counts: Vec<u64>) -> Result<SizeDist, DataError> {
        if block == 0 || counts.iter().sum::<u64>() == 0 {
            return Err(DataError::NoItems);
        }
        Ok(SizeDist::Histogram { block, counts })
    }

    /// YCSB's histogram file (`fieldlengthhistogram`): a first line `BlockSize<TAB>N`, then
    /// `bucket<TAB>count` for buckets 0, 1, 2, … in order.
    pub fn from_ycsb_histogram(text: &str) -> Result<SizeDist, DataError> {
        let bad = |line: usize, why: &str| DataError::Histogram(format!("line {line}: {why}"));
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let (_, first) = lines.next().ok_or_else(|| bad(1, "empty"))?;
        let block = match first.split('\t').collect::<Vec<_>>()[..] {
            ["BlockSize", n] => n
                .trim()
                .parse()
                .map_err(|_| bad(1, "BlockSize is not a whole number"))?,
            _ => return Err(bad(1, "the first line must be BlockSize<TAB>N")),
        };
        let mut counts = Vec::new();
        for (i, line) in lines {
            let (bucket, count) = line
                .split_once('\t')
                .ok_or_else(|| bad(i + 1, "not bucket<TAB>count"))?;
            let bucket: usize = bucket
                .trim()
                .parse()
                .map_err(|_| bad(i + 1, "the bucket is not a whole number"))?;
            if bucket != counts.len() {
                return Err(bad(
                    i + 1,
                    &format!(
                        "bucket {bucket} where {} was due (buckets go 0, 1, 2, … in order)",
                        counts.len()
                    ),
                ));
            }
            counts.push(
                count
                    .trim()
                    .parse()
                    .map_err(|_| bad(i + 1, "the count is not a whole number"))?,
            );
        }
        SizeDist::histogram(block, counts)
    }

    pub fn sample(&self, rng: &mut impl Rng) -> u64 {
        match self {
            SizeDist::Fixed(n) => *n,
            SizeDist::Uniform { lo, hi } => rng.gen_range(*lo..=*hi),
            SizeDist::Zipfian { lo, zipf } => lo + zipf.sample(rng),
            SizeDist::Histogram { block, counts } => {
                let area: u64 = counts.iter().sum();
                histogram_draw(*block, counts, rng.gen_range(0..area))
            }
        }
    }

    /// Whether every draw is the same size (the "fixed-size values" red flag).
    pub fn is_fixed(&self) -> bool {
        match self {
            SizeDist::Fixed(_) => true,
            SizeDist::Uniform { lo, hi } => lo == hi,
            SizeDist::Zipfian { zipf, .. } => zipf.items() == 1,
            SizeDist::Histogram { counts, .. } => counts.len() <= 2,
        }
    }
}

/// YCSB's `HistogramGenerator.nextValue` given its draw `number` in [0, Σcounts):
/// subtract each bucket's count but the last; the first that takes it to ≤ 0 returns
/// (i + 1) × block; past them, (len − 1) × block. As written there, so a port draws what
/// YCSB draws: bucket 0's weight is one more than its count, and the last bucket returns
/// the same size as the one before it.
pub fn histogram_draw(block: u64, counts: &[u64], number: u64) -> u64 {
    let mut left = number as i128;
    for (i, &c) in counts
        .iter()
        .enumerate()
        .take(counts.len().saturating_sub(1))
    {
        left -= i128::from(c);
        if left <= 0 {
            return (i as u64 + 1) * block;
        }
    }
    (counts.len().saturating_sub(1)) as u64 * block
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn sizes_stay_in_their_bounds_and_zipfian_favours_the_shortest() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
        let u = SizeDist::uniform(16, 4096).unwrap();
        let z = SizeDist::zipfian(16, 4096).unwrap();
        let (mut short, mut long) = (0, 0);
        for _ in 0..20_000 {
            assert!((16..=4096).contains(&u.sample(&mut rng)));
            let s = z.sample(&mut rng);
            assert!((16..=4096).contains(&s));
            short += u32::from(s < 100);
            long += u32::from(s > 4000);
        }
        assert!(short > 10 * long.max(1), "{short} short, {long} long");
        assert!(SizeDist::Fixed(100).is_fixed() && SizeDist::uniform(8, 8).unwrap().is_fixed());
        assert!(!u.is_fixed());
        assert!(SizeDist::uniform(9, 8).is_err());
    }

    /// YCSB's draw by hand, block 100, counts [2, 3, 5] (area 10): number 0, 1, 2 → 100
    /// (0 − 2 ≤ 0 … 2 − 2 = 0); 3, 4, 5 → 200 (5 − 2 − 3 = 0); 6 … 9 → (3 − 1) × 100 = 200.
    #[test]
    fn a_histogram_draws_as_ycsb_does() {
        let draws: Vec<u64> = (0..10)
            .map(|n| histogram_draw(100, &[2, 3, 5], n))
            .collect();
        assert_eq!(draws, [100, 100, 100, 200, 200, 200, 200, 200, 200, 200]);
        let h = SizeDist::from_ycsb_histogram("BlockSize\t100\n0\t2\n1\t3\n2\t5\n").unwrap();
        assert_eq!(
            h,
            SizeDist::Histogram {
                block: 100,
                counts: vec![2, 3, 5]
            }
        );
        let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
        let n100 = (0..10_000).filter(|_| h.sample(&mut rng) == 100).count();
        // P(100) = 3/10.
        assert!((2_800..3_200).contains(&n100), "{n100}");
        for (text, why) in [
            ("", "empty"),
            ("Block\t100\n", "BlockSize<TAB>N"),
            ("BlockSize\t100\n1\t3\n", "bucket 1 where 0 was due"),
            ("BlockSize\t100\n0 3\n", "not bucket<TAB>count"),
            ("BlockSize\t100\n0\t0\n", "at least one item"),
        ] {
            let e = SizeDist::from_ycsb_histogram(text).unwrap_err().to_string();
            assert!(e.contains(why), "{text:?}: {e}");
        }
    }
}
