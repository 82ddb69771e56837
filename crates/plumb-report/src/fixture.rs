//! A small, fixed document for the renderers' tests.

use plumb_analysis::{analyse_document, AnalysisConfig};
use plumb_model::{
    Benchmark, BenchmarkKind, Environment, Invocation, ResultDocument, Sample, Settings,
};

fn bench(name: &str, base_ns: u64, baseline: bool) -> Benchmark {
    // A fixed jitter pattern so every figure is reproducible.
    let jitter = [0i64, 30, -20, 10, -40, 25, -5, 15, -15, 0];
    let mut b = Benchmark::new(name, BenchmarkKind::Command);
    b.command = Some(name.into());
    b.parameters = [("n".to_string(), name.len().to_string())].into();
    b.baseline = baseline;
    b.samples = (0..20)
        .map(|i| {
            let mut s = Sample::wall((base_ns as i64 + jitter[i % 10] * 1000) as u64);
            s.user_ns = Some(500_000);
            s.sys_ns = Some(100_000);
            s.max_rss_kib = Some(2048);
            s.exit_code = Some(0);
            s
        })
        .collect();
    b
}

pub fn document() -> ResultDocument {
    let mut doc = ResultDocument::new(
        "0.0.0-test",
        Invocation {
            argv: vec!["plumb".into()],
            cwd: None,
        },
        Environment::default(),
        Settings {
            confidence: plumb_model::quantity::Confidence::DEFAULT,
            sesoi: plumb_model::quantity::Fraction::DEFAULT_SESOI,
            options: serde_json::Value::Null,
        },
    );
    doc.benchmarks.push(bench("fast | one", 10_000_000, true));
    doc.benchmarks.push(bench("slow", 20_000_000, false));
    analyse_document(
        &mut doc,
        &AnalysisConfig {
            level: plumb_model::quantity::Confidence::DEFAULT,
            sesoi: plumb_model::quantity::Fraction::DEFAULT_SESOI,
            drop_upper_outliers: false,
        },
    );
    doc
}
