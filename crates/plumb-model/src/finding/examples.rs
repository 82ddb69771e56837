//! One diagnostic of every code (and both bases of those with two), with figures like
//! a real run's: what the model's round-trip tests and the report's words tests read.
use super::*;
use crate::quantity::{ByteSize, Confidence, Duration, Fraction};
use crate::sweep::CacheMark;
use crate::{Amount, Diagnostic, Interval, Metric, PrecisionStop, Severity, Source, Unit, Verdict};

fn ns(v: f64) -> Amount {
    Amount::new(v, Unit::Nanoseconds)
}

fn caches() -> Vec<CacheMark> {
    [("L1d", 32u64 << 10), ("L2", 1 << 20), ("L3", 32 << 20)]
        .into_iter()
        .map(|(name, size)| CacheMark {
            name: name.into(),
            size: ByteSize(size),
        })
        .collect()
}

pub fn all() -> Vec<Diagnostic> {
    let w = |f: Finding| Diagnostic::new(Severity::Warning, f);
    let level = Confidence::DEFAULT;
    let mut out = samples(level);
    out.extend([
        w(BranchBound {
            mispredictions_per_op: 0.517,
            branches_per_op: 4.63,
            miss_rate: 0.1117,
            threshold: 0.05,
            source: Source::Simulated,
        }
        .into()),
        w(MemoryBound {
            cache: "L1d".into(),
            miss_rate: 0.3,
            misses_per_op: 3.0,
            threshold: 0.1,
            ipc: Some(0.5),
        }
        .into()),
        w(CountedTooMuch {
            live_share: 0.3,
            threshold: 0.5,
        }
        .into()),
        w(CacheCliff {
            metric: Metric::WallTime,
            from_benchmark: "rand 1048576".into(),
            from: ByteSize(1 << 20),
            to: ByteSize(8 << 20),
            from_mean: ns(7.0),
            to_mean: ns(107.0),
            ratio: 15.29,
            ratio_ci: Some(Interval { lo: 15.1, hi: 15.5 }),
            caches: caches(),
            misses: vec![MissesAlong {
                counter: Metric::LlMisses,
                from: 0.01,
                to: 0.9,
            }],
        }
        .into()),
        size_step(),
    ]);
    out.extend(time_and_work());
    out.extend(harness(level));
    out.extend(machine());
    out.extend(between_runs());
    out.extend(load());
    out.extend(merged());
    out.extend(design());
    out.extend(design_of_the_run());
    out
}

/// A step between two caches, with the TLB reach that lies between.
/// Time and work moving apart, each with whom to believe.
fn time_and_work() -> Vec<Diagnostic> {
    let w = |f: Finding| Diagnostic::new(Severity::Warning, f);
    vec![
        w(TimeNotWork {
            time_ratio: 1.3,
            work: Metric::Instructions,
            work_ratio: 1.0,
            work_source: Source::HardwareCounter,
            moved: vec![CounterMoved {
                counter: "llc-load-misses".into(),
                ratio: 30.0,
            }],
            believe: Some(Believe::TimeSettled),
        }
        .into()),
        w(WorkNotTime {
            time_ratio: 1.0,
            time_verdict: Verdict::Equivalent,
            work: Metric::Instructions,
            work_ratio: 0.6,
            work_source: Source::Simulated,
            believe: None,
        }
        .into()),
        w(WorkNotTime {
            time_ratio: 1.04,
            time_verdict: Verdict::Inconclusive,
            work: Metric::EstimatedCycles,
            work_ratio: 1.05,
            work_source: Source::Simulated,
            believe: Some(Believe::WorkCpuBound),
        }
        .into()),
        w(TimeNotWork {
            time_ratio: 1.8,
            work: Metric::EstimatedCycles,
            work_ratio: 1.0,
            work_source: Source::Simulated,
            moved: Vec::new(),
            believe: Some(Believe::TimeOffCpu),
        }
        .into()),
    ]
}

fn size_step() -> Diagnostic {
    Diagnostic::new(
        Severity::Info,
        SizeStep {
            metric: Metric::WallTime,
            from_benchmark: "rand 65536".into(),
            from: ByteSize(64 << 10),
            to: ByteSize(256 << 10),
            from_mean: ns(2.4),
            to_mean: ns(3.6),
            ratio: 1.5,
            ratio_ci: Some(Interval { lo: 1.48, hi: 1.52 }),
            caches: caches(),
            tlb_reaches: vec![CacheMark {
                name: "L1 dTLB reach".into(),
                size: ByteSize(256 << 10),
            }],
            misses: Vec::new(),
        },
    )
}

fn samples(level: Confidence) -> Vec<Diagnostic> {
    let w = |f: Finding| Diagnostic::new(Severity::Warning, f);
    vec![
        Diagnostic::new(
            Severity::Error,
            TooFewSamples {
                n: 1,
                wanted: 10,
                level,
                t_multiplier: None,
                t_multiplier_many: None,
            },
        ),
        w(TooFewSamples {
            n: 5,
            wanted: 10,
            level,
            t_multiplier: Some(8.61),
            t_multiplier_many: Some(3.292),
        }
        .into()),
        w(WideCi {
            level,
            relative_error: 0.06,
            error: ns(60.0),
        }
        .into()),
        w(HighCv {
            cv: 0.12,
            std_dev: ns(120.0),
            mad: ns(80.0),
        }
        .into()),
        w(Outliers {
            low: 1,
            high: 9,
            far: 4,
            samples: 200,
            lower_fence: ns(11.4e6),
            upper_fence: ns(12.46e6),
            run_indices: vec![14, 28, 64],
            dropped: None,
        }
        .into()),
        w(Multimodal {
            dip: 0.08,
            dip_p: 0.0001,
            mvalue: 3.4,
            mvalue_values: 100,
            modes: vec![
                ModeShare {
                    location: ns(1e7),
                    share: 0.7,
                },
                ModeShare {
                    location: ns(2e7),
                    share: 0.3,
                },
            ],
        }
        .into()),
    ]
    .into_iter()
    .chain(shapes(level))
    .collect()
}

fn shapes(level: Confidence) -> Vec<Diagnostic> {
    let w = |f: Finding| Diagnostic::new(Severity::Warning, f);
    vec![
        w(Drift {
            tau: 0.45,
            p: 1e-6,
            half_change: 0.08,
        }
        .into()),
        w(ColdStart {
            first: ns(5000.0),
            median: ns(101.0),
            warmup_runs: Some(3),
        }
        .into()),
        Diagnostic::new(
            Severity::Info,
            ColdWarmup {
                warmup_median: ns(300.0),
                upper_fence: ns(110.0),
                warmup_runs: 3,
            },
        ),
        w(FailedRuns {
            failed: 2,
            runs: 10,
        }
        .into()),
        w(Launches {
            launches: 5,
            level,
            f: 40.1,
            p: 1e-9,
            mean: ns(1000.0),
            between_sd: ns(30.0),
            within_sd: ns(5.0),
        }
        .into()),
    ]
}

fn harness(level: Confidence) -> Vec<Diagnostic> {
    let w = |f: Finding| Diagnostic::new(Severity::Warning, f);
    let e = |f: Finding| Diagnostic::new(Severity::Error, f);
    vec![
        e(Failed {
            reason: "panicked: index out of bounds".into(),
        }
        .into()),
        e(NothingMeasured::FewInstructions {
            instructions_per_op: 1.5,
            threshold: 4.0,
            source: Source::HardwareCounter,
        }
        .into()),
        w(NothingMeasured::LikeEmptyBody {
            median_per_op: ns(0.31),
            empty_body_median: ns(0.3),
        }
        .into()),
        w(NothingMeasured::BelowOneCycle {
            median_per_op: ns(1e-6),
            cycle: Duration::from_picos(250),
        }
        .into()),
        e(WrongResult {
            result: "41".into(),
            expected: "42".into(),
            reference: "sum/loop".into(),
        }
        .into()),
        e(ResultUnchecked {}.into()),
        w(CheckTheWork {
            ratio: 0.25,
            baseline: "sum/loop".into(),
        }
        .into()),
        w(Allocates {
            allocations_per_op: 2.0,
            bytes_per_op: 64.0,
        }
        .into()),
        w(NoSteadyState {
            warmup: Duration::from_secs(5),
        }
        .into()),
        Diagnostic::new(Severity::Info, NoWarmup {}),
        w(WorkingSet {
            working_set: ByteSize(64 << 20),
            cache: "L3 cache".into(),
            cache_size: ByteSize(32 << 20),
        }
        .into()),
        w(Noise {
            baseline: "same/a".into(),
            verdict: Verdict::Slower,
            ratio: 1.048,
            ratio_ci: Some(Interval {
                lo: 1.031,
                hi: 1.066,
            }),
            sesoi: Fraction::DEFAULT_SESOI,
        }
        .into()),
        w(ShortSamples {
            median: Duration::from_nanos(400),
            min_sample: Duration::from_micros(10),
        }
        .into()),
        w(Imprecise {
            stop: PrecisionStop::TimeCap,
            spent: Duration::from_millis(900),
            error: 0.05,
            target: Fraction::new(0.02).unwrap(),
            level,
        }
        .into()),
    ]
}

/// Separate runs compared, and a run unlike its recent ones: the drift between runs.
fn between_runs() -> Vec<Diagnostic> {
    let w = |f: Finding| Diagnostic::new(Severity::Warning, f);
    let i = |f: Finding| Diagnostic::new(Severity::Info, f);
    vec![
        i(SeparateRuns::Measured {
            benchmark: "parse".into(),
            noise: 0.021,
            points: 24,
            since: "0123456789".into(),
            interval_within: Some(Interval {
                lo: 1.031,
                hi: 1.049,
            }),
            verdict_within: Verdict::Slower,
            machine: vec!["new: busy-machine".into()],
        }
        .into()),
        i(SeparateRuns::Unmeasured {
            machine: vec![],
            assumed: vec![],
        }
        .into()),
        w(SeparateRuns::Unmeasured {
            machine: vec![],
            assumed: vec![AssumedDrift {
                benchmark: "parse".into(),
                verdict: Verdict::Slower,
                drift: 0.054,
            }],
        }
        .into()),
        w(UnlikeRecentRuns {
            benchmark: "parse".into(),
            shift: 0.081,
            noise: 0.014,
            runs: 7,
            since: "0123456789".into(),
        }
        .into()),
    ]
}

fn machine() -> Vec<Diagnostic> {
    let w = |f: Finding| Diagnostic::new(Severity::Warning, f);
    let i = |f: Finding| Diagnostic::new(Severity::Info, f);
    vec![
        w(CpuGovernor {
            governors: vec!["powersave".into()],
        }
        .into()),
        w(Turbo {}.into()),
        w(BusyMachine {
            load: 3.0,
            threads: 2,
        }
        .into()),
        w(Virtualized {
            virtualization: "kvm".into(),
        }
        .into()),
        w(ClockSource {
            clock_source: "hpet".into(),
        }
        .into()),
        i(Smt {}.into()),
        i(NotPinned {
            affinity: vec![0, 1],
        }
        .into()),
        i(Aslr {
            randomize_va_space: 2,
        }
        .into()),
        w(DifferentMachine {
            field: MachineField::Cpu,
            base: Some("AMD EPYC 9R14".into()),
            new: None,
        }
        .into()),
        w(DifferentFrequencyPolicy {
            base_governors: vec!["performance".into()],
            new_governors: vec!["powersave".into()],
            base_turbo: Some(false),
            new_turbo: None,
        }
        .into()),
        w(DifferentLoad {
            base: 0.1,
            new: 1.9,
            threads: 2,
        }
        .into()),
        w(BestCaseAgrees {
            benchmark: "f".into(),
            mean_ratio: 1.08,
            min_ratio: 1.0,
        }
        .into()),
        i(PairedByElimination {
            base: "old".into(),
            new: "new".into(),
        }
        .into()),
    ]
}

fn load() -> Vec<Diagnostic> {
    let w = |f: Finding| Diagnostic::new(Severity::Warning, f);
    let e = |f: Finding| Diagnostic::new(Severity::Error, f);
    vec![
        e(NothingSucceeded {
            errors: [("connect".to_string(), 12u64)].into(),
        }
        .into()),
        e(LoadErrors {
            errors: 5,
            ended: 1000,
            max_error_rate: 0.0,
        }
        .into()),
        e(GeneratorBehind {
            lateness_p99: Duration::from_millis(12),
            max_lateness: Duration::from_millis(5),
            busy: 0.7,
            allow_late: false,
            agent: None,
        }
        .into()),
        e(GeneratorBehind {
            lateness_p99: Duration::from_millis(48),
            max_lateness: Duration::from_millis(5),
            busy: 0.99,
            allow_late: false,
            agent: Some("agent-2".into()),
        }
        .into()),
        w(LatencyFromGenerator {
            percentile: "p99".into(),
            latency: Duration::from_micros(1_300),
            service: Duration::from_micros(87),
            lateness: Duration::from_micros(1_210),
        }
        .into()),
        Diagnostic::new(
            Severity::Info,
            RateAboveCapacity {
                rate: 200_000.0,
                threads: 1,
                cpu_per_request: Duration::from_micros(8),
                per_thread: 100_000.0,
                threads_needed: 2,
                cpus: 2,
            },
        ),
        w(InFlightBoundFull {
            waited: 40,
            due: 1000,
            max_wait: Duration::from_millis(3),
            in_flight: 100,
        }
        .into()),
        Diagnostic::new(Severity::Info, Retried { retried: 3 }),
        w(TlsNotVerified {
            url: "https://api.example.com/".into(),
        }
        .into()),
    ]
}

/// Findings of load agents' results merged.
fn merged() -> Vec<Diagnostic> {
    let w = |f: Finding| Diagnostic::new(Severity::Warning, f);
    vec![
        w(DisjointWindows::NotChecked {}.into()),
        w(DisjointWindows::Overlap {
            overlap: 0.5,
            min_overlap: 0.9,
            narrowest: "b.json".into(),
            windows: vec![
                AgentWindow {
                    agent: "a.json".into(),
                    from: Duration::ZERO,
                    to: Duration::from_secs(10),
                },
                AgentWindow {
                    agent: "b.json".into(),
                    from: Duration::from_secs(5),
                    to: Duration::from_secs(15),
                },
            ],
            merged: true,
        }
        .into()),
        Diagnostic::new(
            Severity::Info,
            DifferentSchedules::Rates {
                rates: vec![Some(100.0), None],
            },
        ),
        w(DifferentSchedules::Targets {
            targets: vec!["/a".into(), "/b".into()],
        }
        .into()),
        w(DifferentSchedules::AgentsMissing {
            agents: 4,
            missing: vec![2],
        }
        .into()),
    ]
}

fn design() -> Vec<Diagnostic> {
    let w = |f: Finding| Diagnostic::new(Severity::Warning, f);
    vec![
        w(WorkingSetInCache {
            working_set: ByteSize(1_023_000),
            estimated: true,
            cache: "L3 cache".into(),
            cache_size: ByteSize(32 << 20),
            production: Some(ByteSize(1 << 40)),
        }
        .into()),
        w(WorkingSetInMemory {
            working_set: ByteSize(8 << 30),
            estimated: false,
            memory: ByteSize(24 << 30),
            production: ByteSize(1 << 40),
        }
        .into()),
        w(HotSetInCache {
            distribution: "zipfian".into(),
            theta: 0.99,
            records: 10_000_000,
            hot_items: 3_162,
            share: 0.9,
            hot_set: ByteSize(3_234_726),
            cache: "L3 cache".into(),
            cache_size: ByteSize(32 << 20),
        }
        .into()),
        w(SequentialKeys {
            production: Some("zipfian (θ = 0.99)".into()),
        }
        .into()),
        w(SingleThread {
            production: Some(64),
        }
        .into()),
        w(FixedSizeValues {
            size: ByteSize(1000),
        }
        .into()),
        w(NoDurability {
            production: Some("group-commit".into()),
        }
        .into()),
        w(CleanState {}.into()),
    ]
}

fn design_of_the_run() -> Vec<Diagnostic> {
    let w = |f: Finding| Diagnostic::new(Severity::Warning, f);
    vec![
        w(TooShortToSteady {
            written: ByteSize(50 << 20),
            data: ByteSize(1 << 30),
            times: 3.0,
        }
        .into()),
        w(ClosedLoopPercentile { percentile: 99.0 }.into()),
        w(TooFewForPercentile {
            percentile: 99.9,
            samples: 5000.0,
            beyond: 5.0,
            needed: 10.0,
        }
        .into()),
        w(ConcurrencyBelowLittle {
            rate: 20_000.0,
            latency: Duration::from_millis(5),
            needed: 100.0,
            threads: 16,
        }
        .into()),
        w(GeneratorOnTarget {
            target: Some("http://127.0.0.1:8080/".into()),
        }
        .into()),
        Diagnostic::new(Severity::Info, OneLaunch {}),
        w(QuestionMatters {
            mean_swayed: Some(FarOut {
                far_out: 7,
                samples: 5000,
                farthest_times_median: 358.0,
            }),
            asked: "typical case (the median)".into(),
            answers: vec![
                QuestionAnswer {
                    statistic: "median".into(),
                    verdict: Verdict::Faster,
                    ratio: 0.8,
                },
                QuestionAnswer {
                    statistic: "p99".into(),
                    verdict: Verdict::Slower,
                    ratio: 1.5,
                },
            ],
        }
        .into()),
        Diagnostic::new(
            Severity::Info,
            Sensitivity {
                to: vec![
                    Sensitive::BranchPredictor {
                        miss_rate: 0.112,
                        source: Source::Simulated,
                    },
                    Sensitive::Cache {
                        cache: "L1d".into(),
                        miss_rate: Some(0.3),
                        cliff: Some(3.1),
                    },
                    Sensitive::SchedulerJitter {
                        tail_ratio: 3.2,
                        modes: 2,
                    },
                ],
            },
        ),
        w(DesignMismatch {
            field: "warmup".into(),
            declared: "10 s".into(),
            measured: "none".into(),
        }
        .into()),
    ]
}
