//! Command parameters (`-P` scans, `-L` lists), expanded over their product into commands to run.
use crate::plan::parse_working_set;
use crate::CommandSpec;
use plumb_model::quantity::ByteSize;
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
    EmptyRange {
        name: String,
        lo: f64,
        hi: f64,
    },
    BadStep {
        name: String,
        step: f64,
    },
    EmptyList(String),
    TooManyValues {
        name: String,
        count: f64,
    },
    /// The product of all parameters' values.
    TooManyCombinations {
        count: f64,
    },
    /// The text of every command once expanded, estimated before building any.
    TooMuchText {
        bytes: ByteSize,
    },
    /// A scan bound as typed that is no finite number.
    NotFinite {
        name: String,
        text: String,
    },
    /// Two values of a scan print the same: the step is below the precision of doubles
    /// near them.
    StepTooFine {
        name: String,
        value: String,
        step: f64,
    },
    Unused(String),
    /// Two parameters of one name: the second would silently replace the first.
    Repeated(String),
}

/// Values one parameter, or all parameters together, may take: more is a typo's
/// `-D 0.00001`, and each command costs open files and memory before anything runs.
pub const MAX_VALUES: usize = 100_000;

/// Text the expanded commands may hold together: a command with its `{n}` written a
/// thousand times, expanded 100000 times, takes gigabytes before anything runs (cargo
/// fuzz's memory limit found that a count alone does not bound it).
pub const MAX_TEXT: ByteSize = ByteSize(256 << 20);

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::EmptyRange { name, lo, hi } => write!(
                f,
                "parameter '{name}': the range {lo}..{hi} is empty (the start is above the end)"
            ),
            ParamError::BadStep { name, step } => write!(
                f,
                "parameter '{name}': the step must be positive and finite, got {step}"
            ),
            ParamError::EmptyList(name) => write!(f, "parameter '{name}': the list is empty"),
            ParamError::TooManyValues { name, count } => write!(
                f,
                "parameter '{name}': {count} values is more than the {MAX_VALUES} allowed; use a larger step or a narrower range"
            ),
            ParamError::TooManyCombinations { count } => write!(
                f,
                "{count} commands to run (each command at every combination of the parameters' values), more than the {MAX_VALUES} allowed; scan fewer values"
            ),
            ParamError::TooMuchText { bytes } => write!(
                f,
                "the commands would hold about {bytes} of text once expanded, more than the {MAX_TEXT} allowed; scan fewer values or shorten the commands"
            ),
            ParamError::NotFinite { name, text } => write!(
                f,
                "parameter '{name}': {text:?} is not a finite number, so it cannot bound a scan"
            ),
            ParamError::StepTooFine { name, value, step } => write!(
                f,
                "parameter '{name}': a step of {step} is below the precision of numbers near {value} (two values would both be {value}); use a larger step"
            ),
            ParamError::Repeated(name) => write!(
                f,
                "parameter '{name}' is given twice; give each parameter one name"
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
    /// `-P NAME LO HI` with `-D STEP`, the bounds as typed. NaN and infinity parse as
    /// numbers but bound no scan: refused by name here, not found later as an empty scan.
    pub fn scan(name: &str, lo: &str, hi: &str, step: f64) -> Result<Parameter, ParamError> {
        let bound = |text: &str| {
            text.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| ParamError::NotFinite {
                    name: name.to_string(),
                    text: text.to_string(),
                })
        };
        Ok(Parameter {
            name: name.to_string(),
            values: ParameterValues::Range {
                lo: bound(lo)?,
                hi: bound(hi)?,
                step,
            },
        })
    }

    /// `-L NAME a,b,c`: the comma-separated values, empty ones dropped (a trailing comma
    /// adds none).
    pub fn list(name: &str, values: &str) -> Parameter {
        Parameter {
            name: name.to_string(),
            values: ParameterValues::List(
                values
                    .split(',')
                    .filter(|v| !v.is_empty())
                    .map(str::to_string)
                    .collect(),
            ),
        }
    }

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
            ParameterValues::Range { lo, hi, step } => self.scan_values(*lo, *hi, *step),
        }
    }
}

impl Parameter {
    /// A scan's values as text, with as many decimals as the start or the step has, so
    /// 0.1 steps read 0.3, not 0.30000000000000004, and a start of 0.5 stays 0.5.
    fn scan_values(&self, lo: f64, hi: f64, step: f64) -> Result<Vec<String>, ParamError> {
        let count = ((hi - lo) / step + 1e-9).floor() + 1.0;
        if count > MAX_VALUES as f64 {
            return Err(ParamError::TooManyValues {
                name: self.name.clone(),
                count,
            });
        }
        let decimals_of = |x: f64| format!("{x}").split('.').nth(1).map_or(0, str::len);
        let decimals = decimals_of(lo).max(decimals_of(step));
        let values: Vec<String> = (0..count as u64)
            .map(|i| {
                let text = format!("{:.decimals$}", lo + i as f64 * step);
                // -0.9 + 3 × 0.3 is -1.1e-16, and -0 is -0: both print as zero.
                match text.strip_prefix('-') {
                    Some(zero) if zero.bytes().all(|b| b == b'0' || b == b'.') => zero.into(),
                    _ => text,
                }
            })
            .collect();
        if let Some(w) = values.windows(2).find(|w| w[0] == w[1]) {
            return Err(ParamError::StepTooFine {
                name: self.name.clone(),
                value: w[0].clone(),
                step,
            });
        }
        Ok(values)
    }
}

/// How a command names a parameter: `{name}`.
fn placeholder(name: &str) -> String {
    format!("{{{name}}}")
}

fn substitute(text: &str, values: &BTreeMap<String, String>) -> String {
    values.iter().fold(text.to_string(), |acc, (k, v)| {
        acc.replace(&placeholder(k), v)
    })
}

/// Expands commands over the cartesian product of the parameters' values, substituting
/// `{name}` in the command, its prepare and its cleanup. Order: for each command, every
/// combination, the first parameter varying slowest.
pub fn expand(
    commands: &[CommandSpec],
    params: &[Parameter],
) -> Result<Vec<CommandSpec>, ParamError> {
    let mut lists = Vec::with_capacity(params.len());
    for (i, p) in params.iter().enumerate() {
        if params[..i].iter().any(|q| q.name == p.name) {
            return Err(ParamError::Repeated(p.name.clone()));
        }
        if !commands.iter().any(|c| {
            let needle = placeholder(&p.name);
            c.command.contains(&needle)
                || c.prepare.as_deref().is_some_and(|s| s.contains(&needle))
                || c.cleanup.as_deref().is_some_and(|s| s.contains(&needle))
        }) {
            return Err(ParamError::Unused(p.name.clone()));
        }
        lists.push((p, p.value_list()?));
    }
    let count: f64 = lists.iter().map(|(_, v)| v.len() as f64).product();
    if count * commands.len() as f64 > MAX_VALUES as f64 {
        return Err(ParamError::TooManyCombinations {
            count: count * commands.len() as f64,
        });
    }
    let bytes = count * commands.iter().map(|c| text_of_one(c, &lists)).sum::<f64>();
    if bytes > MAX_TEXT.0 as f64 {
        // Rounded up to a step that prints short (ByteSize prints exactly).
        let step = if bytes >= (1u64 << 30) as f64 {
            128 << 20
        } else {
            1 << 20
        };
        return Err(ParamError::TooMuchText {
            bytes: ByteSize((bytes / step as f64).ceil() as u64 * step),
        });
    }
    let mut combos: Vec<BTreeMap<String, String>> = vec![BTreeMap::new()];
    for (p, values) in lists {
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

/// The most text one combination of `c` can hold once its placeholders take the longest
/// values: its name (twice, with its series), command, prepare, cleanup, operations and
/// working set.
fn text_of_one(c: &CommandSpec, lists: &[(&Parameter, Vec<String>)]) -> f64 {
    let fields = [
        Some(&c.name),
        Some(&c.name),
        Some(&c.command),
        c.prepare.as_ref(),
        c.cleanup.as_ref(),
        c.operations.as_ref(),
        c.working_set.as_ref(),
    ];
    fields
        .into_iter()
        .flatten()
        .map(|text| {
            let grown: usize = lists
                .iter()
                .map(|(p, values)| {
                    let longest = values.iter().map(String::len).max().unwrap_or(0);
                    text.matches(&placeholder(&p.name)).count() * longest
                })
                .sum();
            (text.len() + grown) as f64
        })
        .sum()
}

/// A command's working set as written: `--working-set`, or else its parameter named
/// `size` or `bytes` when every value of it is a size (a sweep such as
/// `-L size 16K,64K './cache rand {size}'`).
fn working_set_of(c: &CommandSpec, params: &[Parameter]) -> Option<String> {
    c.working_set.clone().or_else(|| {
        params
            .iter()
            .filter(|p| p.name == "size" || p.name == "bytes")
            .filter(|p| c.command.contains(&placeholder(&p.name)))
            .find(|p| {
                p.value_list()
                    .is_ok_and(|v| v.iter().all(|v| parse_working_set(v).is_some()))
            })
            .map(|p| placeholder(&p.name))
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
    let swept = |k: &String| working_set.contains(&placeholder(k));
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

    /// The decimals of the start count too (a start of 0.5 with a step of 1 printed
    /// "0", "2", "2" before), integers print exactly however large, and -0 prints 0.
    #[test]
    fn scans_print_each_value_as_typed() {
        let values = |lo: &str, hi: &str, step: f64| {
            let p = Parameter::scan("n", lo, hi, step).unwrap();
            let out = expand(&[spec("x {n}")], &[p]).unwrap();
            out.into_iter().map(|c| c.command).collect::<Vec<_>>()
        };
        assert_eq!(values("0.5", "2.5", 1.0), ["x 0.5", "x 1.5", "x 2.5"]);
        assert_eq!(values("1e20", "1e20", 1.0), ["x 100000000000000000000"]);
        assert_eq!(values("-0", "1", 1.0), ["x 0", "x 1"]);
        assert_eq!(
            values("-0.9", "0.3", 0.3),
            ["x -0.9", "x -0.6", "x -0.3", "x 0.0", "x 0.3"]
        );
        assert_eq!(values("-1", "-0.8", 0.1), ["x -1.0", "x -0.9", "x -0.8"]);
    }

    #[test]
    fn typed_scans_and_lists_are_read_or_refused_by_name() {
        assert_eq!(
            Parameter::scan("n", "NaN", "1", 1.0),
            Err(ParamError::NotFinite {
                name: "n".into(),
                text: "NaN".into()
            })
        );
        assert!(Parameter::scan("n", "1", "inf", 1.0).is_err());
        assert!(Parameter::scan("n", "1", " 2", 1.0).is_err());
        assert_eq!(
            Parameter::list("m", "a,,b,").values,
            ParameterValues::List(vec!["a".into(), "b".into()])
        );
    }

    /// Two scans of 1000 values each make a million commands: refused before a single
    /// one is built (it used to build them all, and run out of memory at larger scans).
    #[test]
    fn too_many_combinations_are_refused_before_building_them() {
        let params = [range("a", 1.0, 1000.0, 1.0), range("b", 1.0, 1000.0, 1.0)];
        assert_eq!(
            expand(&[spec("x {a} {b}")], &params),
            Err(ParamError::TooManyCombinations { count: 1e6 })
        );
        let params = [range("a", 1.0, 1000.0, 1.0), range("b", 1.0, 100.0, 1.0)];
        assert_eq!(
            expand(&[spec("x {a} {b}")], &params).unwrap().len(),
            100_000
        );
    }

    /// A thousand `{n}` in one command, over 100000 values, would be about 1.2 GB of text.
    #[test]
    fn too_much_text_is_refused_before_building_it() {
        let command = "{n} ".repeat(1000);
        let p = range("n", 1.0, 100_000.0, 1.0);
        let refused = expand(&[spec(&command)], &[p]).unwrap_err();
        assert!(
            matches!(refused, ParamError::TooMuchText { bytes } if bytes.0 > 1_000_000_000),
            "{refused}"
        );
        assert!(
            refused
                .to_string()
                .contains("about 2.875GiB of text once expanded, more than the 256MiB allowed"),
            "{refused}"
        );
    }

    /// Near 1e15 doubles are 0.125 apart: a step of 0.01 there repeats values.
    #[test]
    fn a_step_below_the_precision_of_its_values_is_refused() {
        let p = Parameter::scan("n", "1000000000000000.25", "1000000000000000.5", 0.01).unwrap();
        assert!(matches!(
            expand(&[spec("x {n}")], &[p]),
            Err(ParamError::StepTooFine { .. })
        ));
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
        assert_eq!(
            expand(
                &[spec("x {n}")],
                &[range("n", 1.0, 2.0, 1.0), list("n", &["a"])]
            ),
            Err(ParamError::Repeated("n".into()))
        );
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
