//! `plumb design check FILE.toml`: the workload file read and checked (plumb-env), then
//! the design layer's red flags against this machine's caches and memory (plumb-analysis)
//! for the shared design and each benchmark's own, printed. Nothing is measured.
use crate::args::{DesignArgs, DesignCommand};
use crate::exit::{self, CliError, Outcome};
use plumb_report::render_design_check;

pub fn run(a: DesignArgs) -> Result<Outcome, CliError> {
    let DesignCommand::Check { file, dir, json } = a.command;
    let workload = plumb_env::read_workload(&file, dir.as_deref())?;
    let checked = plumb_analysis::check_workload(&workload, &plumb_env::collect());
    if json {
        let value: Vec<_> = (checked.iter())
            .map(|(name, d, found)| serde_json::json!({"name": name, "design": d, "diagnostics": found}))
            .collect();
        let text = serde_json::to_string_pretty(&value).expect("designs serialise");
        exit::print_stdout(&format!("{text}\n"))?;
    } else {
        let text: Vec<String> = (checked.iter())
            .map(|(name, d, found)| render_design_check(name, d, found))
            .collect();
        exit::print_stdout(&text.join("\n"))?;
    }
    // A red flag fails the design's gate (exit 1), as a regression fails compare's.
    let flagged = (checked.iter().flat_map(|(_, _, f)| f))
        .any(|d| d.severity >= plumb_model::Severity::Warning);
    Ok(if flagged {
        Outcome::GateFailed
    } else {
        Outcome::Done
    })
}
