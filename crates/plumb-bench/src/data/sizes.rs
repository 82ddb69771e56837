//! Value (or key) sizes: fixed, uniform between two sizes, or Zipfian between them (the
//! shortest the most common), as YCSB's `fieldlengthdistribution` offers; seeded draws.
use super::{DataError, Zipfian, YCSB_THETA};
use rand::Rng;

/// Sizes in bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
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

    pub fn sample(&self, rng: &mut impl Rng) -> u64 {
        match *self {
            SizeDist::Fixed(n) => n,
            SizeDist::Uniform { lo, hi } => rng.gen_range(lo..=hi),
            SizeDist::Zipfian { lo, zipf } => lo + zipf.sample(rng),
        }
    }

    /// Whether every draw is the same size (the "fixed-size values" red flag).
    pub fn is_fixed(&self) -> bool {
        match *self {
            SizeDist::Fixed(_) => true,
            SizeDist::Uniform { lo, hi } => lo == hi,
            SizeDist::Zipfian { zipf, .. } => zipf.items() == 1,
        }
    }
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
}
