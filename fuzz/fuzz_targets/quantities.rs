//! The grammars of quantities on the command line and in files — durations, byte sizes,
//! confidence levels, fractions, rates: a value read is written and read back to itself
//! as text; its JSON form reads back to it (a duration to the nanosecond: past 2⁵³ ns an
//! f64 cannot hold its sub-ns part) and is stable; a refusal says what it was given.
#![no_main]
use libfuzzer_sys::fuzz_target;
use plumb_model::quantity::{ByteSize, Confidence, Duration, Fraction, Rate};
use std::fmt::{Debug, Display};
use std::str::FromStr;

fn round_trips<T>(text: &str, stored_as: fn(&T, &T) -> bool)
where
    T: FromStr + Display + PartialEq + Debug + serde::Serialize + serde::de::DeserializeOwned,
    T::Err: Display,
{
    match text.parse::<T>() {
        Ok(v) => {
            let shown = v.to_string();
            let again: T = shown
                .parse()
                .unwrap_or_else(|e| panic!("{shown:?}, written for {text:?}, is refused: {e}"));
            assert_eq!(again, v, "{text:?} → {shown:?}");
            let json = serde_json::to_string(&v).expect("a quantity serialises");
            let back: T = serde_json::from_str(&json)
                .unwrap_or_else(|e| panic!("{json} (from {text:?}) is refused: {e}"));
            assert!(stored_as(&back, &v), "{text:?} → {json} → {back:?}");
            let stable = serde_json::to_string(&back).expect("a quantity serialises");
            assert_eq!(stable, json, "{text:?}: its JSON form is not stable");
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

fn equal<T: PartialEq>(a: &T, b: &T) -> bool {
    a == b
}

fn same_nanosecond(a: &Duration, b: &Duration) -> bool {
    a.as_picos().abs_diff(b.as_picos()) <= 500
}

fuzz_target!(|text: &str| {
    round_trips::<Duration>(text, same_nanosecond);
    round_trips::<ByteSize>(text, equal);
    round_trips::<Confidence>(text, equal);
    round_trips::<Fraction>(text, equal);
    round_trips::<Rate>(text, equal);
});
