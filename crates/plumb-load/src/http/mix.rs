//! Which target of a request mix each arrival asks for: drawn from the weights by a
//! seeded PCG, one draw per arrival in schedule order (those never sent too), so the same
//! seed and thread count give the same sequence of targets on every run. Written here
//! rather than with `rand::distributions::WeightedIndex` only to keep the draw to one
//! multiply and a search of a few cumulative weights, with no float rounding of the
//! shares.
use rand::{RngCore, SeedableRng};
use rand_pcg::Pcg64;

/// Salt so that a mix drawn with --seed N is not the Poisson stream of the same seed.
const MIX_SALT: u64 = 0x6d69_7864_7261_7773;

pub struct Mix {
    /// Running sums of the weights: target i is drawn for values in
    /// [cumulative[i-1], cumulative[i]).
    cumulative: Vec<u64>,
    rng: Pcg64,
}

impl Mix {
    /// The mix of `weights` (each above 0) for generator thread `thread`.
    pub fn new(weights: &[u64], seed: u64, thread: usize) -> Mix {
        let mut total = 0u64;
        let cumulative = weights
            .iter()
            .map(|w| {
                total += w;
                total
            })
            .collect();
        Mix {
            cumulative,
            rng: Pcg64::seed_from_u64((seed ^ MIX_SALT).wrapping_add(thread as u64)),
        }
    }

    /// The next arrival's target.
    pub fn draw(&mut self) -> usize {
        let total = *self.cumulative.last().expect("a mix has a target");
        // Lemire's multiply: a uniform value below `total` from 64 random bits (the bias,
        // total / 2⁶⁴, is far below anything a test could see).
        let x = ((self.rng.next_u64() as u128 * total as u128) >> 64) as u64;
        self.cumulative.partition_point(|&c| c <= x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_follow_the_weights_and_a_seed_repeats_its_sequence() {
        let weights = [70, 20, 10];
        let mut m = Mix::new(&weights, 7, 0);
        let n = 100_000;
        let mut counts = [0u64; 3];
        let seq: Vec<usize> = (0..n).map(|_| m.draw()).collect();
        for &t in &seq {
            counts[t] += 1;
        }
        // Binomial: the standard deviation of a 10 % share in 10⁵ draws is ~95; 5σ.
        for (c, w) in counts.iter().zip(weights) {
            let expected = n as f64 * w as f64 / 100.0;
            assert!(
                (*c as f64 - expected).abs() < 5.0 * (expected * 0.9).sqrt(),
                "{counts:?}"
            );
        }
        let mut again = Mix::new(&weights, 7, 0);
        assert!(
            seq.iter().all(|&t| t == again.draw()),
            "same seed, same sequence"
        );
        let mut other = Mix::new(&weights, 8, 0);
        assert!(
            seq.iter().any(|&t| t != other.draw()),
            "another seed, another sequence"
        );
        let mut one = Mix::new(&[3], 1, 0);
        assert!((0..100).all(|_| one.draw() == 0));
    }
}
