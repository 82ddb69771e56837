//! Other tools' results, read into the result model so `compare` and `show` take them
//! like plumb's own. Detected by content, not by file name. What a foreign file does not
//! record (the machine, the run order, plumb's checks) is left unknown, never invented.

mod google_benchmark;
mod hyperfine;

use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::{Environment, Invocation, ProducerSettings, ResultDocument, Settings};
use serde_json::Value;

/// Which tool wrote a file plumb imported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForeignTool {
    Hyperfine,
    GoogleBenchmark,
}

impl ForeignTool {
    pub fn name(self) -> &'static str {
        match self {
            ForeignTool::Hyperfine => "hyperfine",
            ForeignTool::GoogleBenchmark => "Google Benchmark",
        }
    }
}

/// Reads another tool's export: `Ok(None)` when it is no format plumb imports, an error
/// when it is one but malformed.
pub fn import(text: &str) -> Result<Option<(ForeignTool, ResultDocument)>, String> {
    let Ok(v) = serde_json::from_str::<Value>(text) else {
        return Ok(None);
    };
    if hyperfine::recognises(&v) {
        return hyperfine::read(&v).map(|d| Some((ForeignTool::Hyperfine, d)));
    }
    if google_benchmark::recognises(&v) {
        return google_benchmark::read(&v).map(|d| Some((ForeignTool::GoogleBenchmark, d)));
    }
    Ok(None)
}

/// An empty document for an import: default levels, the tool named, nothing else known.
fn document(tool: ForeignTool, environment: Environment) -> ResultDocument {
    let mut doc = ResultDocument::new(
        env!("CARGO_PKG_VERSION"),
        Invocation {
            argv: Vec::new(),
            cwd: None,
        },
        environment,
        Settings {
            confidence: Confidence::DEFAULT,
            sesoi: Fraction::DEFAULT_SESOI,
            question: Default::default(),
            producer: ProducerSettings::Imported {
                tool: tool.name().to_string(),
            },
        },
    );
    // Unknown: 0 reads as "at an unknown time" (JSON has no NaN).
    doc.started = plumb_model::quantity::Timestamp::EPOCH;
    doc
}
