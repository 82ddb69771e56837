//! Command parameters (`-P` scans, `-L` lists), expanded over their product into commands to run.
use crate::plan::parse_working_set;
use crate::CommandSpec;
use std::collections::BTreeMap;
use std::fmt;

/// The values one parameter takes.
#[derive(Debug, Clone, PartialEq)]
pub enum ParameterValues {
    /// `lo, lo + step, …` up to and including `hi` (within rounding).
    Range {
        lo: f64,
        hi: f64,
        step: f64,
    },
    List(Vec<String>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Parameter {
    pub name: String,
    pub values: ParameterValues,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ParamError {
    EmptyRange { name: String, lo: f64, hi: f64 },
    BadStep { name: String, step: f64 },
    EmptyList(String),
    TooManyValues { name: String, count: f64 },
    Unused(String),
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::EmptyRange { name, lo, hi } => write!(
                f,
                "parameter '{name}': the range {lo}..{hi} is empty (the start is above the end)"
            ),
            ParamError::BadStep { name, step } => {
                write!(f, "parameter '{name}': the step must be positive, got {step}")
            }
            ParamError::EmptyList(name) => write!(f, "parameter '{name}': the list is empty"),
            ParamError::TooManyValues { name, count } => write!(
                f,
                "parameter '{name}': {count} values is more than the 100000 allowed; use a larger step"
            ),
            ParamError::Unused(name) => write!(
                f,
                "parameter '{name}' is not used: no command contains {{{name}}}"
            ),
        }
    }
}

impl std::error::Error for ParamError {}

impl Parameter {
    fn value_list(&self) -> Result<Vec<String>, ParamError> {
        match &self.values {
            ParameterValues::List(v) if v.is_empty() => {
                Err(ParamError::EmptyList(self.name.clone()))
            }
            ParameterValues::List(v) => Ok(v.clone()),
            ParameterValues::Range { step, .. }
                if step.is_nan() || *step <= 0.0 || !step.is_finite() =>
            {
                Err(ParamError::BadStep {
                    name: self.name.clone(),
                    step: *step,
                })
            }
            ParameterValues::Range { lo, hi, .. } if lo > hi => Err(ParamError::EmptyRange {
                name: self.name.clone(),
                lo: *lo,
                hi: *hi,
            }),
            ParameterValues::Range { lo, hi, step } => {
                let count = ((hi - lo) / step + 1e-9).floor() + 1.0;
                if count > 100_000.0 {
                    return Err(ParamError::TooManyValues {
                        name: self.name.clone(),
                        count,
                    });
                }
                let integral = lo.fract() == 0.0 && step.fract() == 0.0;
                Ok((0..count as u64)
                    .map(|i| {
                        let v = lo + i as f64 * step;
                        if integral {
                            format!("{}", v as i64)
                        } else {
                            // Print as many decimals as the step has, so 0.1 steps read 0.3,
                            // not 0.30000000000000004.
                            let decimals = format!("{step}").split('.').nth(1).map_or(0, str::len);
                            format!("{v:.decimals$}")
                        }
                    })
                    .collect())
            }
        }
    }
}

fn substitute(text: &str, values: &BTreeMap<String, String>) -> String {
    values.iter().fold(text.to_string(), |acc, (k, v)| {
        acc.replace(&format!("{{{k}}}"), v)
    })
}

/// Expands commands over the cartesian product of the parameters' values, substituting
/// `{name}` in the command, its prepare and its cleanup. Order: for each command, every
/// combination, the first parameter varying slowest.
pub fn expand(
    commands: &[CommandSpec],
    params: &[Parameter],
) -> Result<Vec<CommandSpec>, ParamError> {
    let mut combos: Vec<BTreeMap<String, String>> = vec![BTreeMap::new()];
    for p in params {
        if !commands.iter().any(|c| {
            let needle = format!("{{{}}}", p.name);
            c.command.contains(&needle)
                || c.prepare.as_deref().is_some_and(|s| s.contains(&needle))
                || c.cleanup.as_deref().is_some_and(|s| s.contains(&needle))
        }) {
            return Err(ParamError::Unused(p.name.clone()));
        }
        let values = p.value_list()?;
        combos = combos
            .into_iter()
            .flat_map(|c| {
                values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.insert(p.name.clone(), v.clone());
                    c
                })
            })
            .collect();
    }
    let mut out = Vec::new();
    for c in commands {
        let working_set = working_set_of(c, params);
        for combo in &combos {
            let command = substitute(&c.command, combo);
            let name = if c.name == c.command {
                command.clone()
            } else {
                substitute(&c.name, combo)
            };
            out.push(CommandSpec {
                name,
                command,
                parameters: combo.clone(),
                prepare: c.prepare.as_deref().map(|s| substitute(s, combo)),
                cleanup: c.cleanup.as_deref().map(|s| substitute(s, combo)),
                operations: c.operations.as_deref().map(|s| substitute(s, combo)),
                working_set: working_set.as_deref().map(|s| substitute(s, combo)),
                series: series_of(c, working_set.as_deref(), combo),
                dir: c.dir.clone(),
            });
        }
    }
    Ok(out)
}

/// A command's working set as written: `--working-set`, or else its parameter named
/// `size` or `bytes` when every value of it is a size (a sweep such as
/// `-L size 16K,64K './cache rand {size}'`).
fn working_set_of(c: &CommandSpec, params: &[Parameter]) -> Option<String> {
    c.working_set.clone().or_else(|| {
        params
            .iter()
            .filter(|p| p.name == "size" || p.name == "bytes")
            .filter(|p| c.command.contains(&format!("{{{}}}", p.name)))
            .find(|p| {
                p.value_list()
                    .is_ok_and(|v| v.iter().all(|v| parse_working_set(v).is_some()))
            })
            .map(|p| format!("{{{}}}", p.name))
    })
}

/// The command as written with every parameter substituted but those its working set
/// names: the points of one sweep share it. None without a swept parameter.
fn series_of(
    c: &CommandSpec,
    working_set: Option<&str>,
    combo: &BTreeMap<String, String>,
) -> Option<String> {
    let working_set = working_set?;
    let swept = |k: &String| working_set.contains(&format!("{{{k}}}"));
    let fixed: BTreeMap<String, String> = combo
        .iter()
        .filter(|(k, _)| !swept(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    combo.keys().any(swept).then(|| substitute(&c.name, &fixed))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(cmd: &str) -> CommandSpec {
        CommandSpec {
            name: cmd.into(),
            command: cmd.into(),
            parameters: Default::default(),
            prepare: Some("prep {n}".into()),
            cleanup: None,
            operations: Some("{n}".into()),
            working_set: None,
            series: None,
            dir: None,
        }
    }

    fn range(name: &str, lo: f64, hi: f64, step: f64) -> Parameter {
        Parameter {
            name: name.into(),
            values: ParameterValues::Range { lo, hi, step },
        }
    }

    fn list(name: &str, values: &[&str]) -> Parameter {
        Parameter {
            name: name.into(),
            values: ParameterValues::List(values.iter().map(|v| v.to_string()).collect()),
        }
    }

    /// `-L size 16K,64K -L mode rand,seq './cache {mode} {size}'`: the size parameter is
    /// the working set by itself, and each mode is a sweep of its own.
    #[test]
    fn a_size_parameter_is_the_working_set_and_the_rest_make_the_series() {
        let params = [
            list("size", &["16K", "64K"]),
            list("mode", &["rand", "seq"]),
        ];
        let out = expand(&[CommandSpec::new("./cache {mode} {size}")], &params).unwrap();
        assert_eq!(out[0].command, "./cache rand 16K");
        assert_eq!(out[0].working_set.as_deref(), Some("16K"));
        assert_eq!(out[0].series.as_deref(), Some("./cache rand {size}"));
        assert_eq!(out[1].series.as_deref(), Some("./cache seq {size}"));
        assert_eq!(
            out[2].series, out[0].series,
            "64K rand is on 16K rand's sweep"
        );
        assert_eq!(
            crate::RunPlan::working_set(&out[2]).unwrap(),
            Some(64 << 10)
        );
        // Sizes that are not sizes are no working set; an explicit one is.
        let words = [list("size", &["small", "large"])];
        let out = expand(&[CommandSpec::new("./app {size}")], &words).unwrap();
        assert_eq!(
            (out[0].working_set.as_ref(), out[0].series.as_ref()),
            (None, None)
        );
        let mut explicit = CommandSpec::new("./app {n}");
        explicit.working_set = Some("{n}MiB".into());
        let out = expand(&[explicit], &[list("n", &["1", "8"])]).unwrap();
        assert_eq!(crate::RunPlan::working_set(&out[1]).unwrap(), Some(8 << 20));
        assert_eq!(out[1].series.as_deref(), Some("./app {n}"));
    }

    #[test]
    fn working_sets_read_lscpu_style_units() {
        for (text, bytes) in [
            ("16K", 16 << 10),
            ("64M", 64 << 20),
            ("1G", 1 << 30),
            ("4096", 4096),
            ("32KiB", 32 << 10),
            ("1kB", 1000),
        ] {
            assert_eq!(parse_working_set(text), Some(bytes), "{text}");
        }
        for bad in ["", "K", "1.5K", "-1K", "lots", "99999999999999999999G"] {
            assert_eq!(parse_working_set(bad), None, "{bad}");
        }
    }

    #[test]
    fn integer_range_and_list_make_a_product() {
        let params = [
            range("n", 1.0, 3.0, 1.0),
            Parameter {
                name: "mode".into(),
                values: ParameterValues::List(vec!["a".into(), "b".into()]),
            },
        ];
        let out = expand(&[spec("run {n} {mode}")], &params).unwrap();
        let names: Vec<_> = out.iter().map(|c| c.command.as_str()).collect();
        assert_eq!(
            names,
            ["run 1 a", "run 1 b", "run 2 a", "run 2 b", "run 3 a", "run 3 b"]
        );
        assert_eq!(out[2].prepare.as_deref(), Some("prep 2"));
        assert_eq!(out[2].parameters["mode"], "a");
    }

    #[test]
    fn decimal_steps_print_cleanly() {
        let out = expand(&[spec("sleep {n}")], &[range("n", 0.1, 0.3, 0.1)]).unwrap();
        let names: Vec<_> = out.iter().map(|c| c.command.as_str()).collect();
        assert_eq!(names, ["sleep 0.1", "sleep 0.2", "sleep 0.3"]);
    }

    #[test]
    fn bad_parameters_are_refused() {
        assert!(matches!(
            expand(&[spec("x {n}")], &[range("n", 5.0, 1.0, 1.0)]),
            Err(ParamError::EmptyRange { .. })
        ));
        assert!(matches!(
            expand(&[spec("x {n}")], &[range("n", 1.0, 5.0, 0.0)]),
            Err(ParamError::BadStep { .. })
        ));
        assert!(matches!(
            expand(&[spec("x")], &[range("k", 1.0, 5.0, 1.0)]),
            Err(ParamError::Unused(_))
        ));
        let empty = Parameter {
            name: "n".into(),
            values: ParameterValues::List(vec![]),
        };
        assert_eq!(
            expand(&[spec("x {n}")], &[empty]),
            Err(ParamError::EmptyList("n".into()))
        );
    }
}
