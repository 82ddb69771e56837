//! Gregg's mValue of a histogram, as BenchmarkDotNet computes it: a score of how many modes.
use crate::adaptive_histogram::adaptive_histogram;
use crate::{check_finite, outliers::tukey_outliers, sorted, variance, StatsError};
use serde::{Deserialize, Serialize};

/// Gregg's mValue as BenchmarkDotNet computes it (Perfolizer's `MValueCalculator`): the
/// total variation of a histogram's bar heights divided by the tallest bar. One mode
/// scores 2 (up, then down), two equal modes 4, three 6.
///
/// The histogram is Perfolizer's adaptive one (`adaptive_histogram.rs`) over the samples
/// inside Tukey's fences (a lone outlier is not a mode), at 0.75 × Scott's width
/// 3.5·σ·n^(−1/3), then at twice that, and so on until the width exceeds the range; the
/// largest mValue over those widths is kept. BenchmarkDotNet's words: above 4.2
/// multimodal, above 3.2 bimodal, above 2.8 perhaps several modes.
///
/// Limits, measured in bench/results/modality.md: the score is about 2 + 2 × (the second
/// peak's height / the first's), so a minor mode holding well under half the runs stays
/// under 3.2; and on skewed unimodal samples the finest widths' noisy bars push it over
/// 3.2 (most gamma samples of 1000). `multimodality` decides by other detectors and
/// reports this score beside them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Modality {
    pub mvalue: f64,
    /// Base bin width at which the largest mValue was found.
    pub bin_width: f64,
}

impl Modality {
    pub const SEVERAL: f64 = 2.8;
    pub const BIMODAL: f64 = 3.2;
    pub const MULTIMODAL: f64 = 4.2;

    /// BenchmarkDotNet's words for the score.
    pub fn label(&self) -> &'static str {
        match self.mvalue {
            m if m > Self::MULTIMODAL => "multimodal",
            m if m > Self::BIMODAL => "bimodal",
            m if m > Self::SEVERAL => "perhaps several modes",
            _ => "one mode",
        }
    }
}

/// mValue of a sample; needs at least 1 value.
pub fn mvalue(xs: &[f64]) -> Result<Modality, StatsError> {
    check_finite(xs, 1)?;
    let fences = tukey_outliers(xs)?;
    let inside: Vec<f64> = sorted(xs)
        .into_iter()
        .filter(|&x| x >= fences.lower_fence && x <= fences.upper_fence)
        .collect();
    let n = inside.len() as f64;
    let sd = if inside.len() > 1 {
        variance(&inside).sqrt()
    } else {
        0.0
    };
    let range = inside[inside.len() - 1] - inside[0];
    let mut width = 0.75 * 3.5 * sd / n.cbrt();
    if width.abs() < 1e-9 {
        width = 1.0;
    }
    let mut best = Modality {
        mvalue: 0.0,
        bin_width: width,
    };
    loop {
        // The placement settles on every sample tried; should it not, the widths so far
        // have spoken.
        let Some(bins) = adaptive_histogram(&inside, width) else {
            return Ok(best);
        };
        let tallest = bins.iter().map(|b| b.count).max().unwrap_or(0) as f64;
        // Heights with a zero bar on each side: up from zero, through the bins, down.
        let heights = std::iter::once(0)
            .chain(bins.iter().map(|b| b.count))
            .chain(std::iter::once(0));
        let variation: usize = heights
            .collect::<Vec<_>>()
            .windows(2)
            .map(|w| w[0].abs_diff(w[1]))
            .sum();
        let m = variation as f64 / tallest;
        if m > best.mvalue {
            best = Modality {
                mvalue: m,
                bin_width: width,
            };
        }
        if width > range {
            return Ok(best);
        }
        width *= 2.0;
    }
}

/// mValue over fixed-width bins: Scott's width 3.5·σ·n^(−1/3) over the samples inside
/// Tukey's fences, doubled until two bins remain, the largest score kept. Not
/// BenchmarkDotNet's (that is `mvalue`, on the adaptive histogram): it is what plumb's
/// `multimodal` check used before `multimodality`, kept so that bench/modality.sh can show
/// what it missed (it flagged none of the mixtures there). Two or three equal spikes score
/// as one mode here. Needs at least 4 samples.
pub fn mvalue_fixed_bins(xs: &[f64]) -> Result<Modality, StatsError> {
    check_finite(xs, 4)?;
    let fences = tukey_outliers(xs)?;
    let inside: Vec<f64> = sorted(xs)
        .into_iter()
        .filter(|&x| x >= fences.lower_fence && x <= fences.upper_fence)
        .collect();
    let (lo, hi) = (inside[0], inside[inside.len() - 1]);
    let n = inside.len() as f64;
    let scott = 3.5 * variance(&inside).sqrt() / n.cbrt();
    if scott.is_nan() || scott <= 0.0 || hi == lo {
        return Ok(Modality {
            mvalue: 2.0,
            bin_width: 0.0,
        });
    }
    let mut best = Modality {
        mvalue: 0.0,
        bin_width: scott,
    };
    let mut width = scott;
    loop {
        let bins = ((hi - lo) / width).floor() as usize + 1;
        let mut counts = vec![0u32; bins + 2]; // a zero bar on each side
        for &x in &inside {
            let i = (((x - lo) / width) as usize).min(bins - 1);
            counts[i + 1] += 1;
        }
        let tallest = *counts.iter().max().expect("non-empty") as f64;
        let variation: u32 = counts.windows(2).map(|w| w[0].abs_diff(w[1])).sum();
        let m = f64::from(variation) / tallest;
        if m > best.mvalue {
            best = Modality {
                mvalue: m,
                bin_width: width,
            };
        }
        if bins <= 2 {
            return Ok(best);
        }
        width *= 2.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dip::tests::normalish;

    /// Perfolizer's own test cases (`MultimodalTests.cs`), to its 4 decimals.
    #[test]
    fn reproduces_perfolizers_test_values() {
        let case5 = [
            173.0, 147.0, 153.0, 141.0, 139.0, 117.0, 126.0, 145.0, 133.0, 181.0, 166.0, 139.0,
            138.0, 146.0, 145.0, 142.0, 121.0, 108.0, 128.0, 122.0, 149.0, 118.0, 113.0, 117.0,
            129.0, 148.0, 124.0, 141.0, 143.0, 109.0, 144.0, 106.0, 98.0, 116.0, 129.0, 136.0,
            131.0, 179.0, 115.0, 142.0, 152.0, 148.0, 133.0, 138.0, 114.0, 142.0, 151.0, 151.0,
            144.0, 160.0, 151.0, 134.0, 133.0, 135.0, 109.0, 126.0, 123.0, 140.0, 141.0, 136.0,
            122.0, 134.0, 148.0, 141.0, 133.0, 132.0, 166.0, 134.0, 112.0, 158.0, 135.0, 95.0,
            141.0, 113.0, 105.0, 137.0, 150.0, 152.0, 151.0, 114.0, 142.0, 132.0, 112.0, 159.0,
            119.0, 141.0, 129.0, 122.0, 102.0, 135.0, 137.0, 147.0, 131.0, 107.0, 135.0, 133.0,
            120.0, 166.0, 132.0, 122.0, 144.0, 127.0,
        ];
        let case6 = [
            1173.0, 147.0, 153.0, 141.0, 139.0, 117.0, 126.0, 145.0, 133.0, 181.0, 166.0, 139.0,
            138.0, 148.0, 124.0, 141.0, 143.0, 109.0, 144.0, 106.0, 98.0, 116.0, 129.0, 136.0,
            131.0, 179.0, 115.0, 142.0, 152.0, 197.0, 148.0, 133.0, 138.0, 114.0, 196.0, 142.0,
            151.0, 151.0, 144.0, 160.0, 151.0, 134.0, 133.0, 135.0, 109.0, 126.0, 123.0, 140.0,
            141.0, 136.0, 219.0, 122.0, 134.0, 148.0, 226.0, 199.0, 221.0, 141.0, 132.0, 133.0,
            166.0, 134.0, 112.0, 158.0, 135.0, 95.0, 141.0, 113.0, 105.0, 189.0, 150.0, 137.0,
            152.0, 151.0, 114.0, 142.0, 132.0, 112.0, 132.0, 122.0, 144.0, 127.0,
        ];
        let mut case3 = vec![1.0; 9];
        case3.extend([2.0; 9]);
        case3.extend([3.0; 9]);
        let mut case2 = vec![1.0; 5];
        case2.extend([2.0; 5]);
        let case4 = [
            1.0, 2.0, 3.0, 3.0, 3.0, 4.0, 5.0, 10.0, 11.0, 11.0, 11.0, 12.0, 40.0, 41.0, 41.0,
            41.0, 42.0,
        ];
        let cases: [(&[f64], f64); 6] = [
            (&[1.0; 6], 2.0),
            (&case2, 4.0),
            (&case3, 6.0),
            (&case4, 2.8333),
            (&case5, 2.4516),
            (&case6, 2.2143),
        ];
        for (i, (values, want)) in cases.into_iter().enumerate() {
            let got = mvalue(values).unwrap().mvalue;
            assert!((got - want).abs() < 5e-5, "case {}: {got} vs {want}", i + 1);
        }
    }

    /// The adaptive histogram's score is noisier: on this generator's normal samples of
    /// 200 it reaches the bimodal threshold for some seeds (seed 5: 3.41). Recorded so
    /// that a change is seen; one reason the check does not decide by it.
    #[test]
    fn the_adaptive_score_can_alarm_on_a_unimodal_sample() {
        let m = mvalue(&normalish(200, 10.0, 1.0, 5)).unwrap();
        assert!(m.mvalue > Modality::BIMODAL, "{m:?}");
    }

    #[test]
    fn unimodal_is_below_threshold_and_bimodal_above() {
        for seed in 1..20 {
            let uni = mvalue_fixed_bins(&normalish(200, 10.0, 1.0, seed)).unwrap();
            assert!(uni.mvalue < Modality::BIMODAL, "seed {seed}: {uni:?}");
            let mut bi = normalish(100, 10.0, 0.3, seed);
            bi.extend(normalish(100, 12.0, 0.3, seed + 100));
            let bi = mvalue_fixed_bins(&bi).unwrap();
            assert!(bi.mvalue > Modality::BIMODAL, "seed {seed}: {bi:?}");
        }
    }

    #[test]
    fn constant_sample_is_unimodal() {
        assert_eq!(mvalue_fixed_bins(&[4.0; 10]).unwrap().mvalue, 2.0);
        assert_eq!(mvalue(&[4.0; 10]).unwrap().mvalue, 2.0);
    }
}
