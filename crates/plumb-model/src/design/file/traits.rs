//! The workload file's compound traits — keys with their skew, the mix, size
//! distributions, the arrival — and the checks of a whole design's values (a mix summing
//! to 100 %, θ inside YCSB's generator's range, sizes in order).
use super::{Reader, KEYS, MIX_KEYS};
use crate::design::{Arrival, Design, DesignError, KeyDistribution, Mix, SizeDistribution};
use crate::quantity::{ByteSize, Rate};
use toml::Value;

impl Reader<'_> {
    pub(super) fn keys(&self, t: &super::Traits) -> Result<Option<KeyDistribution>, DesignError> {
        let Some(v) = &t.keys else {
            for (key, given) in [
                ("theta", &t.theta),
                ("hot_data", &t.hot_data),
                ("hot_operations", &t.hot_operations),
            ] {
                if given.is_some() {
                    return Err(self.err(key, "is given without `keys`", "keys = \"zipfian\""));
                }
            }
            return Ok(None);
        };
        let kind = self.text("keys", v, "\"zipfian\"")?;
        let theta = match &t.theta {
            Some(Value::Float(f)) => Some(*f),
            Some(Value::Integer(i)) => Some(*i as f64),
            Some(other) => {
                return Err(self.err("theta", format!("= {other} is not a number"), "0.99"))
            }
            None => None,
        };
        let skewed = matches!(kind, "zipfian" | "scrambled-zipfian" | "latest");
        if theta.is_some() && !skewed {
            return Err(self.err(
                "theta",
                format!("applies to zipfian and latest keys, not {kind}"),
                "keys = \"zipfian\"",
            ));
        }
        if (t.hot_data.is_some() || t.hot_operations.is_some()) && kind != "hotspot" {
            return Err(self.err(
                "hot_data",
                format!("applies to hotspot keys, not {kind}"),
                "keys = \"hotspot\"",
            ));
        }
        let theta = theta.unwrap_or(0.99);
        Ok(Some(match kind {
            "sequential" => KeyDistribution::Sequential,
            "uniform" => KeyDistribution::Uniform,
            "zipfian" => KeyDistribution::Zipfian {
                theta,
                scrambled: false,
            },
            "scrambled-zipfian" => KeyDistribution::Zipfian {
                theta,
                scrambled: true,
            },
            "latest" => KeyDistribution::Latest { theta },
            "hotspot" => KeyDistribution::Hotspot {
                data: self
                    .opt("hot_data", &t.hot_data, |v| self.share("hot_data", v))?
                    .unwrap_or(0.2),
                operations: self
                    .opt("hot_operations", &t.hot_operations, |v| {
                        self.share("hot_operations", v)
                    })?
                    .unwrap_or(0.8),
            },
            other => {
                return Err(self.err(
                    "keys",
                    format!("= {other:?} is not one of {KEYS}"),
                    "\"zipfian\"",
                ))
            }
        }))
    }

    pub(super) fn mix(&self, v: &Value) -> Result<Mix, DesignError> {
        let Value::Table(table) = v else {
            return Err(self.err(
                "mix",
                format!("= {v} is not a table of shares"),
                "{ read = \"95%\", update = \"5%\" }",
            ));
        };
        let mut mix = Mix::default();
        for (op, share) in table {
            let key = format!("mix.{op}");
            let slot = match op.as_str() {
                "read" => &mut mix.read,
                "update" => &mut mix.update,
                "insert" => &mut mix.insert,
                "scan" => &mut mix.scan,
                "read_modify_write" => &mut mix.read_modify_write,
                _ => {
                    return Err(self.err(
                        &key,
                        format!("is not an operation (the operations: {MIX_KEYS})"),
                        "read = \"95%\"",
                    ))
                }
            };
            *slot = self.share(&key, share)?;
        }
        Ok(mix)
    }

    /// `"100B"`, or `{ uniform = ["16B", "4KiB"] }` / `{ zipfian = [min, max] }`.
    pub(super) fn size(&self, key: &str, v: &Value) -> Result<SizeDistribution, DesignError> {
        const EXAMPLE: &str = "\"100B\" or { uniform = [\"16B\", \"4KiB\"] }";
        let table = match v {
            Value::Table(t) if t.len() == 1 => t,
            Value::Table(_) => {
                return Err(self.err(key, "takes one distribution, uniform or zipfian", EXAMPLE))
            }
            _ => {
                return Ok(SizeDistribution::Fixed {
                    size: self.quantity(key, v)?,
                })
            }
        };
        let (kind, range) = table.iter().next().expect("one entry");
        if kind == "histogram" {
            return self.histogram(&format!("{key}.histogram"), range);
        }
        let bounds: Vec<ByteSize> = match range {
            Value::Array(a) if a.len() == 2 => a
                .iter()
                .map(|b| self.quantity(&format!("{key}.{kind}"), b))
                .collect::<Result<_, _>>()?,
            _ => return Err(self.err(&format!("{key}.{kind}"), "takes [min, max]", EXAMPLE)),
        };
        let (min, max) = (bounds[0], bounds[1]);
        if min > max {
            return Err(self.err(
                &format!("{key}.{kind}"),
                format!("has its minimum {min} above its maximum {max}"),
                EXAMPLE,
            ));
        }
        match kind.as_str() {
            "uniform" => Ok(SizeDistribution::Uniform { min, max }),
            "zipfian" => Ok(SizeDistribution::Zipfian { min, max }),
            _ => Err(self.err(
                &format!("{key}.{kind}"),
                "is not a distribution (uniform, zipfian)",
                EXAMPLE,
            )),
        }
    }

    /// `{ block = "1KiB", counts = [5, 3, 1] }`: YCSB's histogram of sizes in blocks.
    fn histogram(&self, key: &str, v: &Value) -> Result<SizeDistribution, DesignError> {
        const EXAMPLE: &str = "{ histogram = { block = \"1KiB\", counts = [5, 3, 1] } }";
        let (Value::Table(t), true) = (v, v.get("block").is_some() && v.get("counts").is_some())
        else {
            return Err(self.err(key, "takes a block size and counts", EXAMPLE));
        };
        if let Some(other) = t.keys().find(|k| *k != "block" && *k != "counts") {
            return Err(self.err(&format!("{key}.{other}"), "is not block or counts", EXAMPLE));
        }
        let block: ByteSize = self.quantity(&format!("{key}.block"), &t["block"])?;
        let counts: Vec<u64> = match &t["counts"] {
            Value::Array(a) => a
                .iter()
                .map(|c| match c {
                    Value::Integer(n) if *n >= 0 => Ok(*n as u64),
                    _ => Err(self.err(
                        &format!("{key}.counts"),
                        format!("holds {c}, not a count"),
                        EXAMPLE,
                    )),
                })
                .collect::<Result<_, _>>()?,
            other => {
                return Err(self.err(
                    &format!("{key}.counts"),
                    format!("= {other} is not a list of counts"),
                    EXAMPLE,
                ))
            }
        };
        if block.0 == 0 || counts.iter().sum::<u64>() == 0 {
            return Err(self.err(key, "needs a block above 0 and a count above 0", EXAMPLE));
        }
        Ok(SizeDistribution::Histogram { block, counts })
    }

    /// `rate = "20k/s"` is an open loop at that rate; `arrival = "closed"` (the default
    /// of every closed-loop harness) takes no rate.
    pub(super) fn arrival(&self, t: &super::Traits) -> Result<Option<Arrival>, DesignError> {
        let rate: Option<Rate> = self.opt("rate", &t.rate, |v| self.quantity("rate", v))?;
        let kind = match &t.arrival {
            Some(v) => Some(self.text("arrival", v, "\"open\" or \"closed\"")?),
            None => None,
        };
        match (kind, rate) {
            (None, None) => Ok(None),
            (None | Some("open"), Some(rate)) => Ok(Some(Arrival::Open { rate })),
            (Some("open"), None) => {
                Err(self.err("arrival", "= \"open\" needs a `rate`", "rate = \"20k/s\""))
            }
            (Some("closed"), None) => Ok(Some(Arrival::Closed)),
            (Some("closed"), Some(_)) => Err(self.err(
                "rate",
                "is given for a closed loop (each thread waits for its last operation)",
                "arrival = \"open\"",
            )),
            (Some(other), _) => Err(self.err(
                "arrival",
                format!("= {other:?} is not one of open, closed"),
                "\"open\"",
            )),
        }
    }
}

/// The values a design may not have, whichever way it was built: a mix not summing to
/// 100 %, θ outside (0, 1) (YCSB's generator's range: Gray et al.'s method divides by
/// 1 − θ), a hot set of no data or all of it.
pub(crate) fn validate(d: &Design, scope: &str) -> Result<(), DesignError> {
    let err = |key: &str, problem: String, example: &str| {
        Err(DesignError::value(
            format!("{scope}{key}"),
            problem,
            example,
        ))
    };
    if let Some(mix) = d.mix {
        let total = mix.total();
        if (total - 1.0).abs() > 1e-9 {
            return err(
                "mix",
                format!("sums to {} %, not 100 %", (total * 1e8).round() / 1e6),
                "{ read = \"95%\", update = \"5%\" }",
            );
        }
    }
    match d.keys {
        Some(KeyDistribution::Zipfian { theta, .. } | KeyDistribution::Latest { theta })
            if !(theta > 0.0 && theta < 1.0) =>
        {
            return err(
                "theta",
                format!("= {theta} is outside (0, 1), the range of YCSB's Zipfian generator"),
                "0.99",
            );
        }
        Some(KeyDistribution::Hotspot { data, .. }) if data <= 0.0 || data >= 1.0 => {
            return err(
                "hot_data",
                format!(
                    "= {} must be a share strictly between 0 and 100 %",
                    crate::format::percent(data)
                ),
                "\"20%\"",
            );
        }
        _ => {}
    }
    if let Some(p) = &d.production {
        validate(p, &format!("{scope}production."))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
