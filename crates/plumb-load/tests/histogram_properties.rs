//! Latency histograms (proptest): merging the histograms of a run's parts equals one
//! histogram fed every value — what `plumb merge` and agents rely on — and a histogram
//! survives its stored form (plumb-model's base64 V2-deflate encoding) unchanged.
use plumb_load::LatencyHistogram;
use proptest::prelude::*;

/// Latencies in µs across the histogram's range (below 1 µs, and beyond an hour to be
/// clamped, included), and where they are split between agents.
fn latencies() -> impl Strategy<Value = (Vec<f64>, Vec<usize>)> {
    let value = prop_oneof![0.0f64..2.0, 1.0f64..1e4, 1e4f64..1e9, 3.5e9f64..4e9];
    (
        prop::collection::vec(value, 1..400),
        prop::collection::vec(0usize..400, 0..5),
    )
}

fn fed(values: &[f64]) -> LatencyHistogram {
    let mut h = LatencyHistogram::new();
    for &v in values {
        h.record_us(v);
    }
    h
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn merged_parts_equal_one_histogram_of_everything((values, cuts) in latencies()) {
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (values.len() + 1)).collect();
        cuts.push(0);
        cuts.push(values.len());
        cuts.sort_unstable();
        let mut merged = LatencyHistogram::new();
        for w in cuts.windows(2) {
            merged.merge(&fed(&values[w[0]..w[1]]));
        }
        let whole = fed(&values);
        prop_assert_eq!(merged.count(), whole.count());
        prop_assert_eq!(merged.clamped(), whole.clamped());
        prop_assert!(merged.inner() == whole.inner());
        for p in [0.0, 50.0, 90.0, 99.0, 99.9, 100.0] {
            prop_assert_eq!(merged.percentile_us(p), whole.percentile_us(p));
        }
    }

    #[test]
    fn a_histogram_survives_its_stored_form((values, _) in latencies()) {
        let h = fed(&values);
        let stored = plumb_model::encode_histogram(h.inner());
        let back = plumb_model::decode_histogram(&stored).unwrap();
        prop_assert!(&back == h.inner());
        prop_assert_eq!(back.len(), h.count());
    }
}
