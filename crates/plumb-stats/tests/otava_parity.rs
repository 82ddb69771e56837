//! Parity with Apache Otava 0.8.0 (issue 25): Otava's own tests (its toy sequences, the
//! tigerbeetle series with all ten parameter sets, its report's figures), and every case of
//! the fixture that bench/otava_reference.py wrote by running Otava on series generated
//! there — the same change point indices, and p-values within a relative 1e-6 (Otava's come
//! from scipy's CDFLIB, ours from statrs).

use plumb_stats::{otava_change_points, otava_divisive, OtavaParams};

fn own_tests() -> serde_json::Value {
    serde_json::from_str(include_str!("fixtures/otava-own-tests.json")).unwrap()
}

fn floats(v: &serde_json::Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

fn params_of(p: &serde_json::Value) -> OtavaParams {
    OtavaParams {
        window: p["window_len"].as_u64().unwrap() as usize,
        max_p: p["max_pvalue"].as_f64().unwrap(),
        min_magnitude: p["min_magnitude"].as_f64().unwrap(),
    }
}

/// Otava's tests/tigerbeetle_test.py (all ten parameter sets), analysis_test.py and
/// series_test.py: the indices they assert.
#[test]
fn otava_s_own_tests_pass() {
    let doc = own_tests();
    let mut failures = Vec::new();
    for c in doc["cases"].as_array().unwrap() {
        let x = floats(&doc["series"][c["series"].as_str().unwrap()]);
        let params = params_of(&c["params"]);
        let got: Vec<u64> = otava_change_points(&x, params)
            .iter()
            .map(|c| c.index as u64)
            .collect();
        let ok = match c.get("indices") {
            Some(want) => serde_json::json!(got) == *want,
            // test_div_by_zero asserts two points, the first at 3.
            None => {
                got.len() as u64 == c["count"].as_u64().unwrap()
                    && got[0] == c["first_index"].as_u64().unwrap()
            }
        };
        if !ok {
            failures.push(format!("{} {:?}: got {got:?}", c["test"], params));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// tests/change_point_divisive_test.py::test_ttest: the detector alone on the toy sequence.
#[test]
fn otava_s_detector_test_passes() {
    let doc = own_tests();
    let d = &doc["detector"];
    let x = floats(&doc["series"][d["series"].as_str().unwrap()]);
    let got = otava_divisive(&x, d["max_pvalue"].as_f64().unwrap());
    assert_eq!(serde_json::json!(got), d["indices"]);
}

/// tests/report_test.py::test_json_report: means, population deviations and magnitudes to
/// the six decimals Otava prints.
#[test]
fn otava_s_report_figures_match() {
    let doc = own_tests();
    for want in doc["report"]["changes"].as_array().unwrap() {
        let x = floats(&doc["series"][want["series"].as_str().unwrap()]);
        let cps = otava_change_points(&x, OtavaParams::default());
        assert_eq!(cps.len(), 1);
        let c = cps[0];
        assert_eq!(c.index as u64, want["index"].as_u64().unwrap());
        let six = |v: f64| format!("{v:.6}");
        for (got, key) in [
            (c.mean_before, "mean_before"),
            (c.mean_after, "mean_after"),
            (c.std_before, "stddev_before"),
            (c.std_after, "stddev_after"),
            (c.magnitude(), "magnitude"),
        ] {
            assert_eq!(six(got), six(want[key].as_f64().unwrap()), "{key}");
        }
        assert_eq!(six(c.p), "0.000000");
    }
}

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
        let params = params_of(&c["params"]);
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
