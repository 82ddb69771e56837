//! The null distribution of the smallest p-value a change-point search can find: for
//! series of n independent normal values, the smallest two-sided pooled t-test p over every
//! split leaving at least 3 points a side (or, with `newest`, only the splits that leave
//! the newest 3 to 10 points on the right), simulated and printed as the tables in
//! `src/change_points/search_null.rs` (quantiles of that smallest p at the listed levels).
//! Run: `cargo run --release -p plumb-stats --example search_null_table [newest] > table.rs`.
use rand::SeedableRng;
use rand_distr::{Distribution, StandardNormal};
use rand_pcg::Pcg64;
use statrs::distribution::{ContinuousCDF, StudentsT};

const SIZES: [usize; 20] = [
    6, 7, 8, 10, 12, 15, 20, 25, 30, 40, 50, 70, 100, 150, 200, 300, 500, 700, 1000, 2000,
];
const LEVELS: [f64; 11] = [
    0.5, 0.3, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005,
];
const REPS: usize = 200_000;
const MIN_SEGMENT: usize = 3;
/// The newest points a recent change may have (the `newest` search).
const NEWEST: usize = 10;

/// The largest |t| over every admissible split of `x` (prefix sums: O(n)).
fn max_abs_t(x: &[f64], newest: bool, s1: &mut Vec<f64>, s2: &mut Vec<f64>) -> f64 {
    let n = x.len();
    s1.clear();
    s2.clear();
    let (mut a, mut b) = (0.0, 0.0);
    s1.push(0.0);
    s2.push(0.0);
    for v in x {
        a += v;
        b += v * v;
        s1.push(a);
        s2.push(b);
    }
    let mut best: f64 = 0.0;
    let first = if newest {
        n.saturating_sub(NEWEST).max(MIN_SEGMENT)
    } else {
        MIN_SEGMENT
    };
    for k in first..=n - MIN_SEGMENT {
        let (n1, n2) = (k as f64, (n - k) as f64);
        let (m1, m2) = (s1[k] / n1, (s1[n] - s1[k]) / n2);
        let ss = (s2[k] - n1 * m1 * m1) + (s2[n] - s2[k] - n2 * m2 * m2);
        let var = ss / (n as f64 - 2.0);
        let t = (m1 - m2) / (var * (1.0 / n1 + 1.0 / n2)).sqrt();
        best = best.max(t.abs());
    }
    best
}

fn main() {
    let newest = std::env::args().nth(1).as_deref() == Some("newest");
    let mut rng = Pcg64::seed_from_u64(if newest { 20261128 } else { 20261127 });
    let name = if newest { "NEWEST_ROWS" } else { "ROWS" };
    if !newest {
        println!(
            "pub(super) const LEVELS: [f64; {}] = {LEVELS:?};",
            LEVELS.len()
        );
    }
    println!("/// (n, the smallest p's quantiles at LEVELS), {REPS} series a row");
    println!(
        "pub(super) const {name}: [(usize, [f64; {}]); {}] = [",
        LEVELS.len(),
        SIZES.len()
    );
    let (mut s1, mut s2) = (Vec::new(), Vec::new());
    for n in SIZES {
        let t = StudentsT::new(0.0, 1.0, n as f64 - 2.0).unwrap();
        let mut x = vec![0.0; n];
        let mut min_p: Vec<f64> = (0..REPS)
            .map(|_| {
                for v in x.iter_mut() {
                    *v = StandardNormal.sample(&mut rng);
                }
                2.0 * t.cdf(-max_abs_t(&x, newest, &mut s1, &mut s2))
            })
            .collect();
        min_p.sort_by(f64::total_cmp);
        let q: Vec<String> = LEVELS
            .iter()
            .map(|l| format!("{:.4e}", min_p[(l * REPS as f64) as usize]))
            .collect();
        println!("    ({n}, [{}]),", q.join(", "));
    }
    println!("];");
}
