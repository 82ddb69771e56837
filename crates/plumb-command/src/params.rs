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
            });
        }
    }
    Ok(out)
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
        }
    }

    fn range(name: &str, lo: f64, hi: f64, step: f64) -> Parameter {
        Parameter {
            name: name.into(),
            values: ParameterValues::Range { lo, hi, step },
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
