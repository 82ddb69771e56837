//! Reading format-3 documents, whose findings were recorded with their words: every
//! figure still reads, and each finding keeps its code, severity, message and advice.
use plumb_model::{Diagnostic, DiagnosticCode, Finding, ResultDocument, Severity};

fn read(name: &str) -> (ResultDocument, serde_json::Value) {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let doc = ResultDocument::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    (doc, serde_json::from_str(&text).unwrap())
}

fn recorded(d: &Diagnostic) -> (&str, &str) {
    match &d.finding {
        Finding::Recorded(r) => (r.message.as_str(), r.advice.as_str()),
        other => panic!("not recorded: {other:?}"),
    }
}

#[test]
fn findings_of_version_3_keep_their_recorded_words() {
    let (doc, raw) = read("run-v3.json");
    assert_eq!(doc.migrated_from, Some(3));
    let raw_machine = raw["diagnostics"].as_array().unwrap();
    assert_eq!(doc.diagnostics.len(), raw_machine.len());
    for (d, r) in doc.diagnostics.iter().zip(raw_machine) {
        assert_eq!(d.code().as_str(), r["code"]);
        let (message, advice) = recorded(d);
        assert_eq!(message, r["message"]);
        assert_eq!(advice, r["advice"].as_str().unwrap_or(""));
    }
    let outliers = doc.benchmarks[1]
        .diagnostics
        .iter()
        .find(|d| d.is(&DiagnosticCode::Outliers))
        .expect("the outliers finding");
    assert!(recorded(outliers).0.contains("outlier(s)"));
    assert!(matches!(
        outliers.severity,
        Severity::Info | Severity::Warning
    ));
    // Written again, each finding is as it was read.
    let again = ResultDocument::from_json(&doc.to_json()).unwrap();
    assert_eq!(again.diagnostics, doc.diagnostics);
    assert_eq!(again.benchmarks, doc.benchmarks);
}
