//! How often each mode detector alarms: on unimodal samples (false alarms) and on
//! two-mode mixtures (detections). Prints a Markdown report; `bench/modality.sh` runs it
//! and keeps the output in `bench/results/modality.md`.
//!
//! Run: `cargo run --release -p plumb-stats --example mode_detection_rates [REPS]`.
use plumb_stats::{dip_test, modes, multimodality, mvalue, mvalue_fixed_bins, Modality, DIP_ALPHA};
use rand::{Rng, SeedableRng};
use rand_distr::{Distribution, Gamma, LogNormal, Normal, Pareto, Poisson};
use rand_pcg::Pcg64;
use std::time::Instant;

/// The detectors measured; the last is what the `multimodal` check uses.
type Detector = (&'static str, fn(&[f64]) -> bool);

const DETECTORS: [Detector; 5] = [
    ("mValue, fixed bins > 3.2 (the check before)", |x| {
        mvalue_fixed_bins(x).unwrap().mvalue > Modality::BIMODAL
    }),
    ("mValue, Perfolizer > 3.2", |x| {
        mvalue(x).unwrap().mvalue > Modality::BIMODAL
    }),
    ("dip p < 0.01", |x| dip_test(x).unwrap().p_value < DIP_ALPHA),
    ("density ≥ 2 peaks", |x| modes(x).unwrap().len() >= 2),
    ("plumb: either of the two before", |x| {
        multimodality(x).unwrap().detected
    }),
];

struct Scenario {
    name: String,
    n: usize,
    draw: Box<dyn Fn(&mut Pcg64) -> f64>,
    /// Applied to each drawn sample (e.g. one far outlier added).
    after: fn(&mut Vec<f64>),
}

fn unimodal() -> Vec<Scenario> {
    let mut out = Vec::new();
    for n in [20, 30, 100, 1000] {
        let normal = Normal::new(1.0, 0.05).unwrap();
        let lognormal = LogNormal::new(0.0, 0.5).unwrap();
        let gamma = Gamma::new(2.0, 1.0).unwrap();
        out.push(scenario("normal".to_string(), n, move |r| normal.sample(r)));
        out.push(scenario("lognormal σ=0.5".to_string(), n, move |r| {
            lognormal.sample(r)
        }));
        out.push(scenario("gamma k=2".to_string(), n, move |r| {
            gamma.sample(r)
        }));
    }
    // Shapes the rows above do not cover: a heavy tail, a count (ties on a lattice), and
    // a tight body with a smeared tail (outliers, not a mode).
    for n in [100, 1000] {
        let pareto = Pareto::new(1.0, 3.0).unwrap();
        out.push(scenario("Pareto α=3".to_string(), n, move |r| {
            pareto.sample(r)
        }));
    }
    let poisson = Poisson::new(20.0).unwrap();
    out.push(scenario(
        "Poisson λ=20 (a count)".to_string(),
        1000,
        move |r| poisson.sample(r),
    ));
    let body = Normal::new(1.0, 0.01).unwrap();
    out.push(scenario(
        "94 % normal CV 1 %, 6 % uniform 1.1–3×".to_string(),
        1000,
        move |r| {
            if r.gen_bool(0.06) {
                r.gen_range(1.1..3.0)
            } else {
                body.sample(r)
            }
        },
    ));
    out
}

/// Two modes, each lognormal with coefficient of variation `cv`, the slow one `apart`×
/// the fast one and drawn with probability `minor`.
fn mixtures() -> Vec<Scenario> {
    let mut out = Vec::new();
    for cv in [0.05, 0.10] {
        for minor in [0.3, 0.1] {
            for apart in [2.0, 1.5] {
                let fast = LogNormal::new(0.0, cv).unwrap();
                let slow = LogNormal::new(f64::ln(apart), cv).unwrap();
                let name = format!(
                    "{:.0}/{:.0} mixture, {apart}× apart, CV {:.0} %",
                    100.0 * (1.0 - minor),
                    100.0 * minor,
                    100.0 * cv
                );
                out.push(scenario(name, 100, move |r| {
                    if r.gen_bool(minor) {
                        slow.sample(r)
                    } else {
                        fast.sample(r)
                    }
                }));
            }
        }
    }
    // The minor mode the dip cannot see, beside one run 50× slower that stretches the
    // range (and once squeezed the density's grid).
    let fast = LogNormal::new(0.0, 0.05).unwrap();
    let slow = LogNormal::new(f64::ln(2.0), 0.05).unwrap();
    out.push(Scenario {
        after: |xs| xs[0] = 50.0,
        ..scenario(
            "90/10 mixture, 2× apart, CV 5 %, one run at 50×".to_string(),
            100,
            move |r| {
                if r.gen_bool(0.1) {
                    slow.sample(r)
                } else {
                    fast.sample(r)
                }
            },
        )
    });
    out
}

fn scenario(name: String, n: usize, draw: impl Fn(&mut Pcg64) -> f64 + 'static) -> Scenario {
    Scenario {
        name,
        n,
        draw: Box::new(draw),
        after: |_| {},
    }
}

fn rates(s: &Scenario, reps: usize, rng: &mut Pcg64) -> Vec<f64> {
    let mut hits = [0usize; DETECTORS.len()];
    for _ in 0..reps {
        let mut xs: Vec<f64> = (0..s.n).map(|_| (s.draw)(rng)).collect();
        (s.after)(&mut xs);
        for (h, (_, detect)) in hits.iter_mut().zip(DETECTORS) {
            *h += usize::from(detect(&xs));
        }
    }
    hits.iter().map(|&h| h as f64 / reps as f64).collect()
}

fn table(title: &str, scenarios: &[Scenario], reps: usize, rng: &mut Pcg64) {
    println!("\n### {title}\n");
    let heads: Vec<&str> = DETECTORS.iter().map(|d| d.0).collect();
    println!("| sample | n | {} |", heads.join(" | "));
    println!("|---|---:|{}", "---:|".repeat(DETECTORS.len()));
    for s in scenarios {
        let r = rates(s, reps, rng);
        let cells: Vec<String> = r.iter().map(|x| format!("{:.1} %", 100.0 * x)).collect();
        println!("| {} | {} | {} |", s.name, s.n, cells.join(" | "));
    }
}

fn main() {
    let reps: usize = std::env::args()
        .nth(1)
        .map_or(2000, |a| a.parse().expect("REPS: a whole number"));
    let mut rng = Pcg64::seed_from_u64(20261123);
    println!("Alarm rates of the mode detectors, {reps} samples per row (seed 20261123).");
    println!("A rate of p over {reps} samples has a standard error of √(p(1−p)/{reps}).");
    table(
        "False alarms: unimodal samples (goal ≤ 1 %)",
        &unimodal(),
        reps,
        &mut rng,
    );
    table(
        "Detections: two-mode mixtures at n = 100 (goal ≥ 95 % for 70/30 at 2×)",
        &mixtures(),
        reps,
        &mut rng,
    );
    timings(&mut rng);
}

/// What the check costs: `multimodality` (both detectors and mValue over at most 2,000
/// order statistics) by sample size, and mValue's adaptive histogram on whole samples,
/// the reason it is thinned.
fn timings(rng: &mut Pcg64) {
    let lognormal = LogNormal::new(0.0, 0.5).unwrap();
    let mut draw = |n: usize| -> Vec<f64> { (0..n).map(|_| lognormal.sample(rng)).collect() };
    println!("\n### Cost per call (lognormal σ=0.5 samples, one call each, this machine)\n");
    println!("| n | multimodality | mValue on every value |");
    println!("|---:|---:|---:|");
    for n in [1_000, 10_000, 30_000, 100_000, 1_000_000] {
        let xs = draw(n);
        let t = Instant::now();
        multimodality(&xs).unwrap();
        let both = t.elapsed();
        let whole = if n <= 30_000 {
            let t = Instant::now();
            mvalue(&xs).unwrap();
            format!("{:.3} s", t.elapsed().as_secs_f64())
        } else {
            "not run".to_string()
        };
        println!("| {n} | {:.3} s | {whole} |", both.as_secs_f64());
    }
}
