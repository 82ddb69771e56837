//! JSON has no NaN: a statistic that could not be computed is written as `null` and read
//! back as NaN (serde_json would write `null` but refuse to read it into an `f64`).

use serde::{Deserialize, Deserializer, Serializer};

pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    if x.is_finite() {
        s.serialize_f64(*x)
    } else {
        s.serialize_none()
    }
}

pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
}
