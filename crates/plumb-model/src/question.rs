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

    /// What the question is, in words: "best case (minimum)".
    pub fn describe(self) -> String {
        let what = match self {
            Question::Best => "best case",
            Question::Typical => "typical case",
            Question::Mean => "mean cost",
            Question::Worst(_) => "bounded worst case",
        };
        format!("{what} ({})", self.statistic())
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
        assert_eq!(Question::Typical.describe(), "typical case (median)");
    }
}
