//! `--pair OLD=NEW` as typed, against two documents' benchmark names (which may hold `=`
//! themselves). Input: the base's names (tab-separated) on the first line, the new
//! side's on the second, then one pair a line. Never a panic; a refusal says what is
//! missing; every comparison made is of a benchmark on each side.
#![no_main]
use libfuzzer_sys::fuzz_target;
use plumb_analysis::{compare_documents, parse_pair, Judging, Side};
use plumb_model::quantity::{Confidence, Fraction};
use plumb_model::{
    Benchmark, BenchmarkKind, Environment, Invocation, Metric, ProducerSettings, ResultDocument,
    Settings,
};

fn document(names: &str) -> ResultDocument {
    let settings = Settings {
        confidence: Confidence::DEFAULT,
        sesoi: Fraction::DEFAULT_SESOI,
        question: Default::default(),
        producer: ProducerSettings::None,
    };
    let invocation = Invocation {
        argv: vec![],
        cwd: None,
    };
    let mut doc = ResultDocument::new("0", invocation, Environment::default(), settings);
    for name in names.split('\t').filter(|n| !n.is_empty()) {
        doc.benchmarks
            .push(Benchmark::new(name, BenchmarkKind::Command));
    }
    doc
}

fuzz_target!(|text: &str| {
    let mut lines = text.split('\n');
    let (Some(base), Some(new)) = (lines.next(), lines.next()) else {
        return;
    };
    let (base, new) = (document(base), document(new));
    let mut pairs = Vec::new();
    for line in lines {
        match parse_pair(line) {
            Ok((old, new)) => {
                assert_eq!(format!("{old}={new}"), line);
                pairs.push((old, new));
            }
            Err(e) => assert!(e.to_string().contains("is not OLD=NEW")),
        }
    }
    let how = Judging {
        metric: &Metric::WallTime,
        level: Confidence::DEFAULT,
        sesoi: Fraction::DEFAULT_SESOI,
        question: Default::default(),
        question_given: false,
        pairs: &pairs,
    };
    let sides = (
        Side {
            doc: &base,
            path: "base",
        },
        Side {
            doc: &new,
            path: "new",
        },
    );
    match compare_documents(sides.0, sides.1, &how) {
        Ok(cmp) => {
            let most = pairs.len() + base.benchmarks.len();
            assert!(cmp.comparisons.len() <= most, "{pairs:?}");
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
