//! How much of a Zipfian distribution's mass its most popular items carry: the
//! generalised harmonic number H(n, θ) = Σ_{i=1..n} i^(−θ) for any n (exact up to
//! 10,000 terms, Euler–Maclaurin beyond), and the smallest hot set taking a given share.
//! What the design layer's hot-set check asks of a declared Zipfian key distribution.

/// Terms summed exactly before the Euler–Maclaurin tail takes over; at this size the
/// tail's first neglected term (of order θ(θ+1)(θ+2) m^(−θ−3) / 720) is below 1e-15.
const EXACT_TERMS: u64 = 10_000;

/// H(n, θ) = Σ_{i=1..n} i^(−θ), for θ > 0. Exact summation (ascending, as YCSB) up to
/// 10,000 terms; beyond, the sum of the first 10,000 plus the Euler–Maclaurin tail
/// ∫ + (f(n) − f(m))/2 + (f′(n) − f′(m))/12, so 10^10 items cost what 10^4 do.
pub fn harmonic(n: u64, theta: f64) -> f64 {
    let exact = n.min(EXACT_TERMS);
    let head: f64 = (1..=exact).map(|i| (i as f64).powf(-theta)).sum();
    if n <= EXACT_TERMS {
        return head;
    }
    let (m, n) = (EXACT_TERMS as f64, n as f64);
    let f = |x: f64| x.powf(-theta);
    let df = |x: f64| -theta * x.powf(-theta - 1.0);
    let integral = if (theta - 1.0).abs() < 1e-12 {
        (n / m).ln()
    } else {
        (n.powf(1.0 - theta) - m.powf(1.0 - theta)) / (1.0 - theta)
    };
    head + integral + (f(n) - f(m)) / 2.0 + (df(n) - df(m)) / 12.0
}

/// The smallest number of most-popular items k (1 ≤ k ≤ n) whose probabilities under
/// Zipf(n, θ) add up to at least `share` (in (0, 1]): H(k, θ) / H(n, θ) ≥ share.
pub fn zipf_hot_items(n: u64, theta: f64, share: f64) -> u64 {
    if n == 0 {
        return 0;
    }
    let total = harmonic(n, theta);
    let (mut lo, mut hi) = (1u64, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if harmonic(mid, theta) / total >= share {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ζ(n, 0.99) as CockroachDB's `zipfgenerator_test.go` asserts them (tolerance 1e-9
    /// there), each an ascending exact sum — so the Euler–Maclaurin tail is checked
    /// against exact sums it did not compute.
    #[test]
    fn agrees_with_cockroachdbs_zeta_values() {
        let published = [
            (20, 3.64309060779367),
            (200, 6.02031118558),
            (1_000, 7.72895321728),
            (2_000, 8.47398788329),
            (10_000, 10.2243614596),
            (100_000, 12.7783380626),
            (1_000_000, 15.391849746),
            (10_000_000, 18.066242575),
            (100_000_000, 20.80293049),
        ];
        for (n, zeta) in published {
            let h = harmonic(n, 0.99);
            assert!((h - zeta).abs() < 1e-8, "n={n}: {h} against {zeta}");
        }
        // YCSB's one constant, ζ(10^10, 0.99).
        assert!((harmonic(10_000_000_000, 0.99) - 26.46902820178302).abs() < 1e-8);
    }

    #[test]
    fn theta_one_is_the_harmonic_number() {
        // H(10^6) = ln(10^6) + γ + 1/(2·10^6) − 1/(12·10^12), to 1e-12.
        let gamma = 0.577_215_664_901_532_9;
        let expect = (1e6f64).ln() + gamma + 0.5e-6 - 1.0 / 12e12;
        assert!((harmonic(1_000_000, 1.0) - expect).abs() < 1e-10);
    }

    #[test]
    fn hot_items_by_hand() {
        // θ = 1, n = 4: probabilities ∝ 1, 1/2, 1/3, 1/4 (sum 25/12): the first item
        // carries 12/25 = 48 %, two 18/25 = 72 %, three 22/25 = 88 %, four 100 %.
        assert_eq!(zipf_hot_items(4, 1.0, 0.48), 1);
        assert_eq!(zipf_hot_items(4, 1.0, 0.5), 2);
        assert_eq!(zipf_hot_items(4, 1.0, 0.9), 4);
        assert_eq!(zipf_hot_items(4, 1.0, 0.88), 3);
        assert_eq!(zipf_hot_items(0, 0.99, 0.9), 0);
    }

    #[test]
    fn ycsbs_hot_set_grows_with_the_table() {
        // At θ = 0.99 the 90 % hot set is most of a small table and a large share of a
        // big one: H(k)/H(n) ≥ 0.9 checked directly at k and not at k − 1.
        for n in [1_000u64, 1_000_000, 100_000_000] {
            let k = zipf_hot_items(n, 0.99, 0.9);
            let total = harmonic(n, 0.99);
            assert!(harmonic(k, 0.99) / total >= 0.9);
            assert!(harmonic(k - 1, 0.99) / total < 0.9);
        }
        assert!(zipf_hot_items(100_000_000, 0.99, 0.9) > 10_000_000);
    }
}
