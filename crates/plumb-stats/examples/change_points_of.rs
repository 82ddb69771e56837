//! Change points of many series, for `bench/history.sh` to compare with Otava on the same
//! data: reads a JSON array of series (`{"values": [...], "errors": [...] | null}`) on
//! standard input and prints, per series, the indices of its change points as a JSON array
//! of arrays, and the analysis time on standard error.
//!
//! Modes: `plumb` (each point weighed by its error), `plumb-plain` (errors ignored),
//! `plumb-across` (α held across all the series, Benjamini–Hochberg), `otava` (the parity
//! port). Run: `cargo run --release -p plumb-stats --example change_points_of MODE < in.json`.
use plumb_stats::{change_points, change_points_across, otava_change_points};
use plumb_stats::{ChangeParams, OtavaParams, Series};
use std::io::Read;
use std::time::Instant;

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "plumb".into());
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let input: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    let floats = |v: &serde_json::Value| -> Option<Vec<f64>> {
        v.as_array()
            .map(|a| a.iter().map(|x| x.as_f64().unwrap()).collect())
    };
    let data: Vec<(Vec<f64>, Option<Vec<f64>>)> = input
        .iter()
        .map(|s| (floats(&s["values"]).unwrap(), floats(&s["errors"])))
        .collect();
    let weighted = mode != "plumb-plain";
    let series: Vec<Series> = data
        .iter()
        .map(|(v, e)| Series {
            values: v,
            errors: e.as_deref().filter(|_| weighted),
        })
        .collect();
    let mut params = ChangeParams::default();
    if let Ok(alpha) = std::env::var("ALPHA") {
        params.alpha = alpha.parse().unwrap();
    }
    let start = Instant::now();
    let found: Vec<Vec<usize>> = match mode.as_str() {
        "otava" => series
            .iter()
            .map(|s| {
                otava_change_points(s.values, OtavaParams::default())
                    .iter()
                    .map(|c| c.index)
                    .collect()
            })
            .collect(),
        "plumb-across" => change_points_across(&series, params)
            .unwrap()
            .iter()
            .map(|cs| cs.iter().map(|c| c.index).collect())
            .collect(),
        "plumb" | "plumb-plain" => series
            .iter()
            .map(|s| {
                change_points(*s, params)
                    .unwrap()
                    .0
                    .iter()
                    .map(|c| c.index)
                    .collect()
            })
            .collect(),
        other => panic!("unknown mode {other}"),
    };
    eprintln!("{mode}: {} series in {:?}", series.len(), start.elapsed());
    println!("{}", serde_json::to_string(&found).unwrap());
}
