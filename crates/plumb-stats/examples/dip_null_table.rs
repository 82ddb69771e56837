//! Simulates the dip of uniform samples (the dip test's null: the least favourable
//! unimodal distribution) and prints the quantiles of √n·dip as the Rust table in
//! `src/dip_null.rs`. Run: `cargo run --release -p plumb-stats --example dip_null_table`.
use plumb_stats::dip;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

const SIZES: [usize; 12] = [10, 15, 20, 30, 50, 100, 200, 500, 1000, 2000, 5000, 10000];
const PROBS: [f64; 17] = [
    0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.998, 0.999,
];

fn main() {
    let mut rng = Pcg64::seed_from_u64(20261123);
    println!(
        "pub(crate) const PROBS: [f64; {}] = {PROBS:?};",
        PROBS.len()
    );
    println!("/// (n, quantiles of √n·dip at PROBS)");
    println!(
        "pub(crate) const ROWS: [(usize, [f64; {}]); {}] = [",
        PROBS.len(),
        SIZES.len()
    );
    for n in SIZES {
        let reps = if n <= 2000 { 100_000 } else { 40_000 };
        let mut scaled: Vec<f64> = (0..reps)
            .map(|_| {
                let xs: Vec<f64> = (0..n).map(|_| rng.gen::<f64>()).collect();
                (n as f64).sqrt() * dip(&xs).expect("finite").dip
            })
            .collect();
        scaled.sort_by(f64::total_cmp);
        let q: Vec<String> = PROBS
            .iter()
            .map(|p| format!("{:.5}", scaled[((p * reps as f64) as usize).min(reps - 1)]))
            .collect();
        println!("    ({n}, [{}]), // {reps} samples", q.join(", "));
    }
    println!("];");
}
