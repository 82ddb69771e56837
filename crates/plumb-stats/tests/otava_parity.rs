//! Parity with Apache Otava 0.8.0 (issue 25): every case of the fixture that
//! bench/otava_reference.py wrote by running Otava on series generated there — the same
//! change point indices, and p-values within a relative 1e-6 (Otava's come from scipy's
//! CDFLIB, ours from statrs).

use plumb_stats::{otava_change_points, OtavaParams};

#[test]
fn every_case_matches_otava() {
    let text = include_str!("fixtures/otava-0.8.0.json");
    let doc: serde_json::Value = serde_json::from_str(text).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    let mut mismatches = Vec::new();
    for c in cases {
        let x: Vec<f64> = c["series"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let p = &c["params"];
        let params = OtavaParams {
            window: p["window_len"].as_u64().unwrap() as usize,
            max_p: p["max_pvalue"].as_f64().unwrap(),
            min_magnitude: p["min_magnitude"].as_f64().unwrap(),
        };
        let got = otava_change_points(&x, params);
        let want = c["change_points"].as_array().unwrap();
        let idx = |v: &serde_json::Value| v["index"].as_u64().unwrap() as usize;
        let same_indices =
            got.len() == want.len() && got.iter().zip(want).all(|(g, w)| g.index == idx(w));
        let same_p = same_indices
            && got.iter().zip(want).all(|(g, w)| {
                let wp = w["pvalue"].as_f64().unwrap();
                (g.p - wp).abs() <= 1e-6 * wp.abs().max(1e-300)
            });
        if !same_p {
            mismatches.push(format!(
                "{} seed {} {:?}: got {:?}, Otava {:?}",
                c["kind"],
                c["seed"],
                params,
                got.iter().map(|g| (g.index, g.p)).collect::<Vec<_>>(),
                want.iter()
                    .map(|w| (idx(w), w["pvalue"].as_f64().unwrap()))
                    .collect::<Vec<_>>()
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} cases differ:\n{}",
        mismatches.len(),
        cases.len(),
        mismatches.join("\n")
    );
}
