//! The question a verdict answers ("Best case, typical, bounded worst case. Pick one."):
//! which statistic of each side's samples a comparison judges — the minimum, the median,
//! the mean or a high percentile. Text: `best`, `typical`, `mean`, `worst` (p99) or
//! `worst=p99.9`; `min`, `median` and `pNN` are accepted as the same questions.
use crate::quantity::QuantityError;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Question {
    /// The minimum: what the code can do when nothing interferes.
    Best,
    /// The median: what a run typically takes.
    Typical,
    /// The mean: what runs cost in total (today's default).
    #[default]
    Mean,
    /// A high percentile (in percent, 50 < p < 100): a bounded worst case.
    Worst(f64),
}

impl Question {
    pub fn is_mean(&self) -> bool {
        *self == Question::Mean
    }

    /// The percentile the question asks about, where it asks about one (typical is 50).
    pub fn percentile(self) -> Option<f64> {
        match self {
            Question::Typical => Some(50.0),
            Question::Worst(p) => Some(p),
            Question::Best | Question::Mean => None,
        }
    }

    /// The statistic's name as the output says it: "minimum", "median", "mean", "p99".
    pub fn statistic(self) -> String {
        match self {
            Question::Best => "minimum".into(),
            Question::Typical => "median".into(),
            Question::Mean => "mean".into(),
            Question::Worst(p) => format!("p{p}"),
        }
    }

    /// The statistic of `values`: their minimum, median, mean or percentile (linear
    /// interpolation between order statistics); None when there are none.
    pub fn of(self, values: &[f64]) -> Option<f64> {
        if values.is_empty() {
            return None;
        }
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        Some(match self {
            Question::Best => sorted[0],
            Question::Mean => sorted.iter().sum::<f64>() / sorted.len() as f64,
            Question::Typical => plumb_stats::percentile_of_sorted(&sorted, 50.0),
            Question::Worst(p) => plumb_stats::percentile_of_sorted(&sorted, p),
        })
    }

    /// What the question is, in words: "typical case (the median)", "mean".
    pub fn describe(self) -> String {
        match self {
            Question::Best => "best case (the minimum)".into(),
            Question::Typical => "typical case (the median)".into(),
            Question::Mean => "mean".into(),
            Question::Worst(_) => format!("bounded worst case ({})", self.statistic()),
        }
    }
}

impl FromStr for Question {
    type Err = QuantityError;

    fn from_str(s: &str) -> Result<Self, QuantityError> {
        const EXAMPLE: &str = "best, typical, mean, worst, worst=p99.9";
        let t = s.trim().to_ascii_lowercase();
        let percentile = |p: &str| -> Result<Question, QuantityError> {
            let v: f64 = p
                .parse()
                .map_err(|_| QuantityError::new(s, "is not a percentile", "p99, p99.9"))?;
            if v == 50.0 {
                Ok(Question::Typical)
            } else if v > 50.0 && v < 100.0 {
                Ok(Question::Worst(v))
            } else {
                Err(QuantityError::new(
                    s,
                    "must be a percentile above 50 and below 100 (the minimum is `best`)",
                    "p99, p99.9",
                ))
            }
        };
        match t.as_str() {
            "best" | "min" | "minimum" => Ok(Question::Best),
            "typical" | "median" => Ok(Question::Typical),
            "mean" | "average" => Ok(Question::Mean),
            "worst" => Ok(Question::Worst(99.0)),
            _ => {
                let p = t.strip_prefix("worst=").unwrap_or(&t);
                match p.strip_prefix('p') {
                    Some(p) => percentile(p),
                    None => Err(QuantityError::new(s, "is not a question", EXAMPLE)),
                }
            }
        }
    }
}

impl fmt::Display for Question {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Question::Best => f.write_str("best"),
            Question::Typical => f.write_str("typical"),
            Question::Mean => f.write_str("mean"),
            Question::Worst(p) => write!(f, "worst=p{p}"),
        }
    }
}

impl Serialize for Question {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Question {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_question_and_its_synonyms() {
        let q = |s: &str| s.parse::<Question>().unwrap();
        assert_eq!(q("best"), Question::Best);
        assert_eq!(q("min"), Question::Best);
        assert_eq!(q("typical"), Question::Typical);
        assert_eq!(q("p50"), Question::Typical);
        assert_eq!(q("Mean"), Question::Mean);
        assert_eq!(q("worst"), Question::Worst(99.0));
        assert_eq!(q("worst=p99.9"), Question::Worst(99.9));
        assert_eq!(q("p95"), Question::Worst(95.0));
    }

    #[test]
    fn refuses_what_is_no_question() {
        for bad in ["fast", "p100", "p10", "worst=99", "pxx", ""] {
            let e = bad.parse::<Question>().unwrap_err().to_string();
            assert!(e.contains("best") || e.contains("p99"), "{bad}: {e}");
        }
    }

    #[test]
    fn round_trips_as_text() {
        for q in [
            Question::Best,
            Question::Typical,
            Question::Mean,
            Question::Worst(99.9),
        ] {
            let json = serde_json::to_string(&q).unwrap();
            assert_eq!(serde_json::from_str::<Question>(&json).unwrap(), q);
            assert_eq!(q.to_string().parse::<Question>().unwrap(), q);
        }
        assert_eq!(Question::Worst(99.9).statistic(), "p99.9");
        let xs = [5.0, 1.0, 3.0, 2.0, 4.0];
        let of = |q: Question| q.of(&xs).unwrap();
        assert_eq!(of(Question::Best), 1.0);
        assert_eq!(of(Question::Typical), 3.0);
        assert_eq!(of(Question::Mean), 3.0);
        // p90 of 1..5 by linear interpolation: rank 0.9 × 4 = 3.6 → 4.6.
        assert!((of(Question::Worst(90.0)) - 4.6).abs() < 1e-12);
        assert_eq!(Question::Mean.of(&[]), None);
        assert_eq!(Question::Typical.describe(), "typical case (the median)");
        assert_eq!(Question::Worst(99.0).describe(), "bounded worst case (p99)");
    }
}
