use crate::args::MergeArgs;
use crate::compare_cmd::load;
use crate::exit::{self, CliError};
use crate::export::{self, Target};
use plumb_load::merge_load;
use plumb_model::{Benchmark, BenchmarkKind, LoadInfo, ResultDocument};
use plumb_report::{render_load, Format};

pub fn run(a: MergeArgs) -> Result<i32, CliError> {
    let targets = [Target {
        path: a.output.clone(),
        format: Format::Json,
    }];
    export::check(&targets)?;
    let docs: Vec<ResultDocument> = a.inputs.iter().map(|p| load(p)).collect::<Result<_, _>>()?;
    let mut names: Vec<String> = Vec::new();
    for (doc, path) in docs.iter().zip(&a.inputs) {
        if doc.benchmarks.iter().any(|b| b.load.is_none()) {
            return Err(CliError(format!(
                "{}: merge combines load results (plumb load); this file has other benchmarks",
                path.display()
            )));
        }
        for b in &doc.benchmarks {
            if !names.contains(&b.name) {
                names.push(b.name.clone());
            }
        }
    }
    let mut merged = docs[0].clone();
    merged.benchmarks.clear();
    merged.settings.options = serde_json::json!({
        "merged_from": a.inputs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "agents": docs.iter().map(|d| d.settings.options.clone()).collect::<Vec<_>>(),
    });
    merged.invocation.argv = std::env::args_os()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    for name in names {
        let parts: Vec<&LoadInfo> = docs
            .iter()
            .filter_map(|d| d.benchmark(&name))
            .filter_map(|b| b.load.as_ref())
            .collect();
        let info = merge_load(&parts).map_err(|e| CliError(format!("{name}: {e}")))?;
        let mut b = Benchmark::new(name, BenchmarkKind::Load);
        b.parameters
            .insert("agents".into(), parts.len().to_string());
        b.load = Some(info);
        merged.benchmarks.push(b);
    }
    export::write_all(&targets, &merged)?;
    let mut text = format!(
        "Merged {} results into {}\n\n",
        docs.len(),
        a.output.display()
    );
    for b in &merged.benchmarks {
        text.push_str(&render_load(b, false));
    }
    exit::print_stdout(&text);
    Ok(exit::OK)
}
