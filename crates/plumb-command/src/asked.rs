//! `plumb run`'s request made a plan: each command's name, prepare and cleanup given
//! once for all or once each, the parameters expanded, names made unique, the shell
//! found, the baseline named; every refusal before anything runs.
use crate::{expand, CommandSpec, Parameter, PlanError, RunPlan};

/// More benchmarks than anyone reads in a table, and than one process should hold ready
/// (each keeps its command and a file for its stderr).
pub const MAX_BENCHMARKS: usize = 10_000;

/// What was asked of `plumb run`, before the parameters are expanded.
pub struct Asked {
    pub commands: Vec<String>,
    /// The first commands' names (the rest are named by their text).
    pub names: Vec<String>,
    /// None, one for every command, or one each.
    pub prepare: Vec<String>,
    /// None, one for every command, or one each.
    pub cleanup: Vec<String>,
    pub operations: Option<String>,
    pub working_set: Option<String>,
    pub parameters: Vec<Parameter>,
    /// How the commands are run (shell, warm-up, runs, order, output, failures): the plan
    /// this fills with its commands.
    pub shape: RunPlan,
    /// The benchmark the others are compared with: a name, a command, or its place (1…).
    pub baseline: Option<String>,
}

/// The plan, and the index of the baseline among its commands.
pub fn plan_of(asked: Asked) -> Result<(RunPlan, usize), PlanError> {
    let n = asked.commands.len();
    if asked.names.len() > n {
        return Err(PlanError::ExtraNames {
            names: asked.names.len(),
            commands: n,
        });
    }
    let prepares = per_command(&asked.prepare, n, "--prepare")?;
    let cleanups = per_command(&asked.cleanup, n, "--cleanup")?;
    let specs: Vec<CommandSpec> = (asked.commands.iter().enumerate())
        .map(|(i, c)| CommandSpec {
            name: asked.names.get(i).cloned().unwrap_or_else(|| c.clone()),
            command: c.clone(),
            parameters: Default::default(),
            prepare: prepares[i].clone(),
            cleanup: cleanups[i].clone(),
            operations: asked.operations.clone(),
            working_set: asked.working_set.clone(),
            series: None,
            dir: None,
        })
        .collect();
    let mut commands = expand(&specs, &asked.parameters).map_err(PlanError::Parameters)?;
    if commands.len() > MAX_BENCHMARKS {
        return Err(PlanError::TooManyBenchmarks(commands.len()));
    }
    make_names_unique(&mut commands);
    let baseline = baseline_index(&commands, asked.baseline.as_deref())?;
    let plan = RunPlan {
        commands,
        ..asked.shape
    };
    plan.validate()?;
    if let Some(shell) = plan.shell.as_deref().filter(|s| !on_path(s)) {
        return Err(PlanError::NoShell(shell.to_string()));
    }
    Ok((plan, baseline))
}

/// Gives `values` to each of `n` commands: none, one for all, or one each.
fn per_command(
    values: &[String],
    n: usize,
    option: &'static str,
) -> Result<Vec<Option<String>>, PlanError> {
    match values.len() {
        0 => Ok(vec![None; n]),
        1 => Ok(vec![Some(values[0].clone()); n]),
        k if k == n => Ok(values.iter().cloned().map(Some).collect()),
        k => Err(PlanError::PerCommand {
            option,
            given: k,
            commands: n,
        }),
    }
}

/// Second and later uses of a name get " (2)", " (3)"…, in one pass (a scan of many
/// values must not take quadratic time before anything runs).
fn make_names_unique(commands: &mut [CommandSpec]) {
    let mut seen = std::collections::HashSet::new();
    for c in commands.iter_mut() {
        let base = c.name.clone();
        let mut k = 2;
        while !seen.insert(c.name.clone()) {
            c.name = format!("{base} ({k})");
            k += 1;
        }
    }
}

fn baseline_index(commands: &[CommandSpec], wanted: Option<&str>) -> Result<usize, PlanError> {
    let Some(w) = wanted else { return Ok(0) };
    if let Some(i) = commands.iter().position(|c| c.name == w || c.command == w) {
        return Ok(i);
    }
    match w.parse::<usize>() {
        Ok(k) if (1..=commands.len()).contains(&k) => Ok(k - 1),
        _ => Err(PlanError::NoBaseline {
            wanted: w.to_string(),
            names: commands.iter().map(|c| c.name.clone()).collect(),
        }),
    }
}

/// Whether `program` names an executable file: a path with a slash, or a name on PATH.
fn on_path(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let runnable = |p: &std::path::Path| {
        p.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        return runnable(std::path::Path::new(program));
    }
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| runnable(&dir.join(program))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(commands: &[&str]) -> Asked {
        Asked {
            commands: commands.iter().map(|c| c.to_string()).collect(),
            names: Vec::new(),
            prepare: Vec::new(),
            cleanup: Vec::new(),
            operations: None,
            working_set: None,
            parameters: Vec::new(),
            shape: RunPlan::of(&[], crate::RunCount::Fixed(3)),
            baseline: None,
        }
    }

    #[test]
    fn names_are_made_unique_and_the_baseline_is_found_by_name_command_or_place() {
        let mut a = asked(&["true", "true", "false"]);
        a.baseline = Some("3".into());
        let (plan, baseline) = plan_of(a).unwrap();
        let names: Vec<&str> = plan.commands.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["true", "true (2)", "false"]);
        assert_eq!(baseline, 2);
        let mut a = asked(&["true", "false"]);
        a.baseline = Some("nope".into());
        let e = plan_of(a).err().unwrap().to_string();
        assert!(e.contains(r#"--baseline "nope" names no benchmark"#), "{e}");
    }

    #[test]
    fn prepare_is_given_once_for_all_or_once_each() {
        let mut a = asked(&["true", "false"]);
        a.prepare = vec!["p".into()];
        let (plan, _) = plan_of(a).unwrap();
        assert!(plan
            .commands
            .iter()
            .all(|c| c.prepare.as_deref() == Some("p")));
        let mut a = asked(&["true", "false", "true"]);
        a.cleanup = vec!["a".into(), "b".into()];
        let e = plan_of(a).err().unwrap().to_string();
        assert!(
            e.contains("--cleanup was given 2 times for 3 commands"),
            "{e}"
        );
    }

    #[test]
    fn a_shell_that_is_not_installed_is_refused() {
        let mut a = asked(&["true"]);
        a.shape.shell = Some("no-such-shell-here".into());
        let e = plan_of(a).err().unwrap().to_string();
        assert!(
            e.starts_with("--shell=no-such-shell-here: no such program"),
            "{e}"
        );
    }
}
