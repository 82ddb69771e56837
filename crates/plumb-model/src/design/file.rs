//! The workload file (`--workload FILE.toml`, `plumb design check FILE.toml`): a design's
//! traits in the quantity grammar plumb's options use, optionally a YCSB preset to start
//! from, a `[production]` table, and `[benchmarks."name"]` tables for traits of one
//! benchmark. Every key is checked: an unknown one is named with the valid ones, a value
//! in the wrong form or impossible (θ ≤ 0, a mix not summing to 100 %, a size without a
//! unit) is refused with its key and an example.
//!
//! ```toml
//! preset = "ycsb-a"            # start from YCSB core workload A
//! keys = "zipfian"             # sequential | uniform | zipfian | scrambled-zipfian | latest | hotspot
//! theta = 0.99
//! mix = { read = "95%", update = "5%" }
//! records = 10_000_000
//! value_size = { uniform = ["100B", "4KiB"] }
//! threads = 16
//! durability = "group-commit"  # none | fsync-per-op | group-commit
//! [production]
//! threads = 64
//! ```
use super::WorkloadFile;
use super::{ycsb_core, Design, DesignError, Durability, GeneratorPlace, StateBetweenRuns};
use crate::quantity::Duration;
use crate::Question;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::str::FromStr;
use toml::Value;

/// The traits as written: each a TOML value, read by the grammar of its kind below so a
/// wrong form is said with the key (a size without a unit, a rate as a table).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Traits {
    preset: Option<Value>,
    keys: Option<Value>,
    theta: Option<Value>,
    hot_data: Option<Value>,
    hot_operations: Option<Value>,
    mix: Option<Value>,
    records: Option<Value>,
    key_size: Option<Value>,
    value_size: Option<Value>,
    working_set: Option<Value>,
    threads: Option<Value>,
    arrival: Option<Value>,
    rate: Option<Value>,
    latency: Option<Value>,
    durability: Option<Value>,
    state: Option<Value>,
    warmup: Option<Value>,
    duration: Option<Value>,
    launches: Option<Value>,
    generator: Option<Value>,
    question: Option<Value>,
    production: Option<Box<Traits>>,
    benchmarks: Option<BTreeMap<String, Traits>>,
}

/// Reads a workload file's text.
pub fn parse_workload_file(text: &str) -> Result<WorkloadFile, DesignError> {
    let traits: Traits = toml::from_str(text).map_err(|e| DesignError::Syntax(e.to_string()))?;
    let design = read_design(&traits, "")?;
    validate(&design, "")?;
    let mut benchmarks = BTreeMap::new();
    for (name, own) in traits.benchmarks.iter().flatten() {
        let scope = format!("benchmarks.{name:?}.");
        if own.benchmarks.is_some() {
            return Err(nested(&scope, "benchmarks"));
        }
        let own_design = read_design(own, &scope)?;
        validate(&design.overlaid(&own_design), &scope)?;
        benchmarks.insert(name.clone(), own_design);
    }
    Ok(WorkloadFile { design, benchmarks })
}

fn nested(scope: &str, what: &str) -> DesignError {
    DesignError::value(
        format!("{scope}{what}"),
        "cannot be nested here",
        format!("a top-level [{what}] table"),
    )
}

/// One table of traits (the top level, `[production]` or a benchmark's) as a design.
fn read_design(t: &Traits, scope: &str) -> Result<Design, DesignError> {
    let r = Reader { scope };
    let preset = match &t.preset {
        Some(v) => Some(r.preset(v)?),
        None => None,
    };
    let production = match &t.production {
        Some(p) if p.production.is_some() || p.benchmarks.is_some() => {
            return Err(nested(&format!("{scope}production."), "production"))
        }
        Some(p) => Some(Box::new(read_design(p, &format!("{scope}production."))?)),
        None => None,
    };
    let own = Design {
        preset: None,
        keys: r.keys(t)?,
        mix: r.opt("mix", &t.mix, |v| r.mix(v))?,
        records: r.opt("records", &t.records, |v| r.count("records", v))?,
        key_size: r.opt("key_size", &t.key_size, |v| r.size("key_size", v))?,
        value_size: r.opt("value_size", &t.value_size, |v| r.size("value_size", v))?,
        working_set: r.opt("working_set", &t.working_set, |v| {
            r.quantity("working_set", v)
        })?,
        threads: r.opt("threads", &t.threads, |v| r.count("threads", v))?,
        arrival: r.arrival(t)?,
        latency: r.opt("latency", &t.latency, |v| {
            r.quantity::<Duration>("latency", v)
        })?,
        durability: r.opt("durability", &t.durability, |v| {
            r.word("durability", v, DURABILITY)
        })?,
        state: r.opt("state", &t.state, |v| r.word("state", v, STATES))?,
        warmup: r.opt("warmup", &t.warmup, |v| r.quantity("warmup", v))?,
        duration: r.opt("duration", &t.duration, |v| r.quantity("duration", v))?,
        launches: r.opt("launches", &t.launches, |v| r.count("launches", v))?,
        generator: r.opt("generator", &t.generator, |v| {
            r.word("generator", v, GENERATORS)
        })?,
        question: r.opt("question", &t.question, |v| {
            r.quantity::<Question>("question", v)
        })?,
        production,
    };
    Ok(match preset {
        Some(base) => base.overlaid(&own),
        None => own,
    })
}

const DURABILITY: &[(&str, Durability)] = &[
    ("none", Durability::None),
    ("fsync-per-op", Durability::FsyncPerOp),
    ("group-commit", Durability::GroupCommit),
];
const STATES: &[(&str, StateBetweenRuns)] = &[
    ("fresh", StateBetweenRuns::Fresh),
    ("reused", StateBetweenRuns::Reused),
    ("aged", StateBetweenRuns::Aged),
];
const GENERATORS: &[(&str, GeneratorPlace)] = &[
    ("same-machine", GeneratorPlace::SameMachine),
    ("other-machine", GeneratorPlace::OtherMachine),
];
const KEYS: &str = "sequential, uniform, zipfian, scrambled-zipfian, latest, hotspot";
const MIX_KEYS: &str = "read, update, insert, scan, read_modify_write";

/// Reads values of one table, naming keys with the table's scope (`production.threads`).
struct Reader<'a> {
    scope: &'a str,
}

impl Reader<'_> {
    fn err(&self, key: &str, problem: impl Into<String>, example: &str) -> DesignError {
        DesignError::value(format!("{}{key}", self.scope), problem, example)
    }

    fn opt<T>(
        &self,
        _key: &str,
        v: &Option<Value>,
        read: impl FnOnce(&Value) -> Result<T, DesignError>,
    ) -> Result<Option<T>, DesignError> {
        v.as_ref().map(read).transpose()
    }

    fn text<'v>(&self, key: &str, v: &'v Value, example: &str) -> Result<&'v str, DesignError> {
        match v {
            Value::String(s) => Ok(s),
            Value::Integer(_) | Value::Float(_) => {
                Err(self.err(key, format!("= {v} needs a unit, as a string"), example))
            }
            _ => Err(self.err(key, format!("= {v} is not a quoted value"), example)),
        }
    }

    /// A quantity in plumb's grammar (`"10s"`, `"1GiB"`, `"20k/s"`, `"p99"`).
    fn quantity<T: FromStr<Err = crate::quantity::QuantityError>>(
        &self,
        key: &str,
        v: &Value,
    ) -> Result<T, DesignError> {
        let example = example_for(key);
        let s = self.text(key, v, example)?;
        s.parse().map_err(|e: crate::quantity::QuantityError| {
            self.err(key, format!("= {s:?}: {e}"), example)
        })
    }

    fn word<T: Copy>(&self, key: &str, v: &Value, words: &[(&str, T)]) -> Result<T, DesignError> {
        let valid: Vec<&str> = words.iter().map(|(w, _)| *w).collect();
        let s = self.text(key, v, valid[0])?;
        (words.iter().find(|(w, _)| *w == s).map(|(_, t)| *t)).ok_or_else(|| {
            self.err(
                key,
                format!("= {s:?} is not one of {}", valid.join(", ")),
                valid[0],
            )
        })
    }

    /// A whole number of at least 1; `1e8` is accepted when it is whole.
    fn count<T: TryFrom<u64>>(&self, key: &str, v: &Value) -> Result<T, DesignError> {
        let n = match v {
            Value::Integer(i) if *i >= 1 => Some(*i as u64),
            Value::Float(f) if *f >= 1.0 && f.fract() == 0.0 && *f <= u64::MAX as f64 => {
                Some(*f as u64)
            }
            _ => None,
        };
        n.and_then(|n| T::try_from(n).ok()).ok_or_else(|| {
            self.err(
                key,
                format!("= {v} is not a whole number of at least 1"),
                "1_000_000",
            )
        })
    }

    /// A share: `"95%"` or a fraction `0.95`, within [0, 1].
    fn share(&self, key: &str, v: &Value) -> Result<f64, DesignError> {
        let f = match v {
            Value::String(s) => s
                .trim()
                .strip_suffix('%')
                .and_then(|p| p.trim().parse::<f64>().ok())
                .map(|p| p / 100.0),
            Value::Float(f) => Some(*f),
            Value::Integer(0) => Some(0.0),
            Value::Integer(1) => Some(1.0),
            _ => None,
        };
        f.filter(|f| (0.0..=1.0).contains(f)).ok_or_else(|| {
            self.err(
                key,
                format!("= {v} is not a share between 0 and 100 %"),
                "\"95%\" or 0.95",
            )
        })
    }

    fn preset(&self, v: &Value) -> Result<Design, DesignError> {
        let s = self.text("preset", v, "\"ycsb-a\"")?;
        let letter = s
            .strip_prefix("ycsb-")
            .filter(|l| l.len() == 1)
            .and_then(|l| l.chars().next());
        letter.and_then(ycsb_core).ok_or_else(|| {
            self.err(
                "preset",
                format!("= {s:?} is not a preset (ycsb-a … ycsb-f)"),
                "\"ycsb-a\"",
            )
        })
    }
}

fn example_for(key: &str) -> &'static str {
    match key {
        "working_set" | "key_size" | "value_size" => "\"1GiB\", \"100B\"",
        "rate" => "\"20k/s\"",
        "question" => "\"typical\", \"worst=p99\"",
        _ => "\"10s\", \"500ms\"",
    }
}

mod traits;
use traits::validate;
