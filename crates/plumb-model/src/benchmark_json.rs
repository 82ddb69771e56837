//! A benchmark as JSON: its kind and, beside it, the part of that kind (`command`,
//! `function` or `load`), as every format version has written it. Reading refuses a part
//! of another kind, which the in-memory `Workload` cannot hold.
use crate::quantity::ByteSize;
use crate::{
    Benchmark, BenchmarkKind, Correction, Design, Diagnostic, FunctionInfo, LoadInfo, Metric,
    MetricInfo, MetricStats, ReportedSummary, Samples, SimulatedCounts, Workload,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Serialize, Deserialize)]
pub(crate) struct RawBenchmark {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    group: Option<String>,
    kind: BenchmarkKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    command: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    parameters: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    working_set: Option<ByteSize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    design: Option<Box<Design>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    series: Option<String>,
    #[serde(default)]
    baseline: bool,
    #[serde(default)]
    metrics: BTreeMap<Metric, MetricInfo>,
    #[serde(default)]
    warmup: Samples,
    #[serde(default)]
    samples: Samples,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    corrections: Vec<Correction>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    excluded: Vec<usize>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    stats: BTreeMap<Metric, MetricStats>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    reported: BTreeMap<Metric, ReportedSummary>,
    #[serde(default)]
    diagnostics: Vec<Diagnostic>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    function: Option<Box<FunctionInfo>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    load: Option<Box<LoadInfo>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    simulated: Option<SimulatedCounts>,
}

impl TryFrom<RawBenchmark> for Benchmark {
    type Error = crate::Invalid;

    fn try_from(r: RawBenchmark) -> Result<Benchmark, crate::Invalid> {
        let other = |part: &'static str| {
            Err(crate::Invalid::KindPart {
                benchmark: r.name.clone(),
                kind: kind_name(r.kind),
                part,
            })
        };
        let workload = match r.kind {
            BenchmarkKind::Command if r.function.is_some() => return other("function"),
            BenchmarkKind::Command if r.load.is_some() => return other("load"),
            BenchmarkKind::Function if r.command.is_some() => return other("command"),
            BenchmarkKind::Function if r.load.is_some() => return other("load"),
            BenchmarkKind::Load if r.command.is_some() => return other("command"),
            BenchmarkKind::Load if r.function.is_some() => return other("function"),
            BenchmarkKind::Command => Workload::Command { command: r.command },
            BenchmarkKind::Function => Workload::Function(r.function),
            BenchmarkKind::Load => Workload::Load(r.load),
        };
        Ok(Benchmark {
            name: r.name,
            group: r.group,
            workload,
            parameters: r.parameters,
            working_set: r.working_set,
            design: r.design,
            series: r.series,
            baseline: r.baseline,
            metrics: r.metrics,
            warmup: r.warmup,
            samples: r.samples,
            corrections: r.corrections,
            excluded: r.excluded,
            stats: r.stats,
            reported: r.reported,
            diagnostics: r.diagnostics,
            simulated: r.simulated,
        })
    }
}

fn kind_name(k: BenchmarkKind) -> &'static str {
    match k {
        BenchmarkKind::Command => "command",
        BenchmarkKind::Function => "function",
        BenchmarkKind::Load => "load",
    }
}

impl From<Benchmark> for RawBenchmark {
    fn from(b: Benchmark) -> RawBenchmark {
        let kind = b.workload.kind();
        let (mut command, mut function, mut load) = (None, None, None);
        match b.workload {
            Workload::Command { command: c } => command = c,
            Workload::Function(f) => function = f,
            Workload::Load(l) => load = l,
        }
        RawBenchmark {
            name: b.name,
            group: b.group,
            kind,
            command,
            parameters: b.parameters,
            working_set: b.working_set,
            design: b.design,
            series: b.series,
            baseline: b.baseline,
            metrics: b.metrics,
            warmup: b.warmup,
            samples: b.samples,
            corrections: b.corrections,
            excluded: b.excluded,
            stats: b.stats,
            reported: b.reported,
            diagnostics: b.diagnostics,
            function,
            load,
            simulated: b.simulated,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_of_another_kind_is_refused() {
        let mut b = Benchmark::of_wall_times("f", BenchmarkKind::Command, [1, 2]);
        b.set_command("true");
        let mut json = serde_json::to_value(&b).unwrap();
        assert_eq!(json["kind"], "command");
        assert_eq!(json["command"], "true");
        json["function"] = serde_json::to_value(FunctionInfo::default()).unwrap();
        let e = serde_json::from_value::<Benchmark>(json).unwrap_err();
        assert!(
            e.to_string()
                .contains("benchmark \"f\" is a command benchmark with a function part"),
            "{e}"
        );
        let back: Benchmark = serde_json::from_value(serde_json::to_value(&b).unwrap()).unwrap();
        assert_eq!(back, b);
    }
}
