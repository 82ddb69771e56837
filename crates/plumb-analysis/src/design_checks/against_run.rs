//! A declared design checked against the run that carried it: what the run did (its
//! warm-up, launches, rate, loop, duration, samples, target) read from the result, and
//! each declared trait it contradicts said as `design-mismatch`; the percentile asked
//! checked against the samples actually taken; a load generator aimed at this machine's
//! loopback named as on the target.
use super::run_shape::too_few;
use plumb_model::finding::{DesignMismatch, GeneratorOnTarget};
use plumb_model::format;
use plumb_model::{
    Arrival, Benchmark, Design, Diagnostic, GeneratorPlace, ProducerSettings, Settings, Severity,
    Workload,
};

/// What a run did, as far as its result says; None where it does not say.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunFacts {
    /// Samples the statistics rest on (runs, in-process samples, load requests).
    pub samples: Option<f64>,
    pub warmed_up: Option<bool>,
    pub launches: Option<u32>,
    /// The open loop's rate, per second; None for a closed loop or no load.
    pub rate: Option<f64>,
    pub open_loop: Option<bool>,
    pub duration: Option<plumb_model::quantity::Duration>,
    /// A load test's target, where it is this machine (loopback).
    pub loopback_target: Option<String>,
}

impl RunFacts {
    /// The facts of benchmark `b` of a result with `settings`.
    pub fn of(b: &Benchmark, settings: &Settings) -> RunFacts {
        let mut facts = RunFacts {
            samples: (!b.samples.is_empty()).then(|| b.samples.len() as f64),
            ..RunFacts::default()
        };
        match &b.workload {
            Workload::Function(Some(info)) => {
                facts.warmed_up = Some(info.warmup);
                facts.launches = Some(info.launch_sample_counts.len().max(1) as u32);
            }
            Workload::Load(Some(load)) => {
                facts.samples = Some(load.latency.count as f64);
                facts.duration = Some(load.duration);
                facts.open_loop = Some(load.mode == "open");
                facts.rate = load.target_rate;
            }
            _ => {}
        }
        match &settings.producer {
            ProducerSettings::Commands(c) => facts.warmed_up = Some(c.warmup > 0),
            ProducerSettings::Load(l) => {
                facts.warmed_up = Some(!l.warmup.is_zero());
                facts.loopback_target = is_loopback(&l.url).then(|| l.url.clone());
            }
            _ => {}
        }
        facts
    }
}

/// `http://127.x.y.z…`, `http://localhost…` or `http://[::1]…`.
fn is_loopback(url: &str) -> bool {
    let host = url.split("://").nth(1).unwrap_or(url);
    host.starts_with("127.") || host.starts_with("localhost") || host.starts_with("[::1]")
}

/// The findings of `d` against the run `facts` describe.
pub fn against_run(d: &Design, facts: &RunFacts) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut mismatch = |field: &str, declared: String, measured: String| {
        let f = DesignMismatch {
            field: field.into(),
            declared,
            measured,
        };
        out.push(Diagnostic::new(Severity::Warning, f));
    };
    if let (Some(w), Some(warmed)) = (d.warmup, facts.warmed_up) {
        if w.is_zero() == warmed {
            let run = if warmed { "a warm-up" } else { "none" };
            mismatch("warmup", format::time(w), run.into());
        }
    }
    if let (Some(declared), Some(run)) = (d.launches, facts.launches) {
        if declared != run {
            mismatch("launches", declared.to_string(), run.to_string());
        }
    }
    match (d.arrival, facts.open_loop, facts.rate) {
        (Some(Arrival::Open { rate }), Some(true), Some(run))
            if (run / rate.per_second() - 1.0).abs() > 0.01 =>
        {
            mismatch("rate", format::rate(rate.per_second()), format::rate(run))
        }
        (Some(Arrival::Open { .. }), Some(false), _) => {
            mismatch("arrival", "an open loop".into(), "a closed loop".into())
        }
        (Some(Arrival::Closed), Some(true), _) => {
            mismatch("arrival", "a closed loop".into(), "an open loop".into())
        }
        _ => {}
    }
    if let (Some(declared), Some(run)) = (d.duration, facts.duration) {
        if (run.as_secs_f64() / declared.as_secs_f64() - 1.0).abs() > 0.1 {
            mismatch("duration", format::time(declared), format::time(run));
        }
    }
    if let Some(target) = &facts.loopback_target {
        match d.generator {
            Some(GeneratorPlace::OtherMachine) => mismatch(
                "generator",
                "another machine".into(),
                format!("this machine's loopback ({target})"),
            ),
            Some(GeneratorPlace::SameMachine) => {}
            None => out.push(Diagnostic::new(
                Severity::Warning,
                GeneratorOnTarget {
                    target: Some(target.clone()),
                },
            )),
        }
    }
    if let (Some(p), Some(n)) = (d.question.and_then(|q| q.percentile()), facts.samples) {
        if let Some(f) = too_few(p, n) {
            out.push(Diagnostic::new(Severity::Warning, f));
        }
    }
    out
}
