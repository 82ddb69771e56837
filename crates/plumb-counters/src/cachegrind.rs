//! Simulated counters from valgrind's cachegrind, for machines whose CPU exposes no
//! counters (most VMs and CI runners). Its own cache detection cannot be trusted (on this
//! KVM guest it reads a 256 MiB direct-mapped last level), so the geometry is always
//! given, from the machine record: L1 instruction, L1 data, and the last level.

use crate::unreadable::{BadTotals, NoGeometry};
use plumb_model::{CacheLevel, Metric, MetricInfo, SimulatedCaches, SimulatedCounts, Source};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// One simulated cache: size, associativity and line size, as cachegrind takes them
/// (the model's record of it).
pub use plumb_model::SimulatedCache as SimCache;

/// `--NAME=size,ways,line` for valgrind.
fn cache_arg(c: &SimCache, name: &str) -> String {
    format!("--{name}={},{},{}", c.size.0, c.ways, c.line_size.0)
}

/// The three caches cachegrind simulates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    pub i1: SimCache,
    pub d1: SimCache,
    pub ll: SimCache,
}

impl Geometry {
    /// From the machine record's caches: the level-1 instruction and data caches and the
    /// highest level. Says which is missing or incomplete.
    pub fn from_caches(caches: &[CacheLevel]) -> Result<Geometry, NoGeometry> {
        let find = |level: u8, kinds: &[&str]| {
            caches
                .iter()
                .find(|c| c.level == level && kinds.contains(&c.kind.as_str()))
        };
        let sim = |c: Option<&CacheLevel>, what: &'static str| -> Result<SimCache, NoGeometry> {
            let c = c.ok_or(NoGeometry::Missing(what))?;
            match (c.ways, c.line_size) {
                (Some(ways), Some(line_size)) if ways > 0 && line_size.0 > 0 => Ok(SimCache {
                    size: c.size,
                    ways,
                    line_size,
                }),
                _ => Err(NoGeometry::Incomplete(what)),
            }
        };
        let last = caches.iter().map(|c| c.level).max().unwrap_or(0);
        Ok(Geometry {
            i1: sim(find(1, &["Instruction", "Unified"]), "L1 instruction")?,
            d1: sim(find(1, &["Data", "Unified"]), "L1 data")?,
            ll: sim(
                find(last, &["Unified", "Data"]).filter(|_| last > 1),
                "last-level",
            )?,
        })
    }

    /// cachegrind's options for this geometry, with cache and branch simulation on.
    pub fn args(&self) -> Vec<String> {
        let mut args = vec!["--tool=cachegrind".to_string()];
        args.extend(self.simulation_args());
        args
    }

    /// Cache and branch simulation with this geometry, as cachegrind and callgrind both
    /// take them.
    fn simulation_args(&self) -> Vec<String> {
        vec![
            "--cache-sim=yes".into(),
            "--branch-sim=yes".into(),
            cache_arg(&self.i1, "I1"),
            cache_arg(&self.d1, "D1"),
            cache_arg(&self.ll, "LL"),
        ]
    }
}

/// The whole-program totals of a cachegrind output file (its `events:` and `summary:`
/// lines): instructions (Ir) and their misses in the level-1 instruction cache and the
/// last level, data reads and writes (Dr, Dw) and their L1 and last-level misses,
/// conditional and indirect branches and their mispredictions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    pub instructions: u64,
    pub i1_misses: u64,
    pub ll_instruction_misses: u64,
    pub data_reads: u64,
    pub data_writes: u64,
    pub d1_misses: u64,
    pub ll_data_misses: u64,
    pub conditional_branches: u64,
    pub conditional_mispredicts: u64,
    pub indirect_branches: u64,
    pub indirect_mispredicts: u64,
}

/// Reads the totals from a cachegrind or callgrind output file's text. callgrind leaves
/// out trailing zero totals; they are read as zeros.
pub fn parse_totals(text: &str) -> Result<Totals, BadTotals> {
    let line = |key: &'static str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .map(str::split_whitespace)
            .ok_or(BadTotals::NoLine(key))
    };
    let names: Vec<&str> = line("events:")?.collect();
    let mut values = line("summary:")?
        .map(|v| {
            v.parse::<u64>().map_err(|e| BadTotals::Value {
                value: v.to_string(),
                why: e.to_string(),
            })
        })
        .collect::<Result<Vec<u64>, BadTotals>>()?;
    if values.len() < names.len() && text.contains("\ncreator: callgrind") {
        values.resize(names.len(), 0);
    }
    if names.len() != values.len() {
        return Err(BadTotals::Count {
            events: names.len(),
            totals: values.len(),
        });
    }
    let get = |name: &'static str| {
        names
            .iter()
            .position(|n| *n == name)
            .map(|i| values[i])
            .ok_or(BadTotals::NoEvent(name))
    };
    Ok(Totals {
        instructions: get("Ir")?,
        i1_misses: get("I1mr")?,
        ll_instruction_misses: get("ILmr")?,
        data_reads: get("Dr")?,
        data_writes: get("Dw")?,
        d1_misses: get("D1mr")? + get("D1mw")?,
        ll_data_misses: get("DLmr")? + get("DLmw")?,
        conditional_branches: get("Bc")?,
        conditional_mispredicts: get("Bcm")?,
        indirect_branches: get("Bi")?,
        indirect_mispredicts: get("Bim")?,
    })
}

impl Totals {
    /// The model's simulated metrics, in the order of `values`.
    pub const METRICS: [Metric; 12] = [
        Metric::Instructions,
        Metric::I1Misses,
        Metric::LlInstructionMisses,
        Metric::DataReads,
        Metric::DataWrites,
        Metric::D1Misses,
        Metric::LlMisses,
        Metric::ConditionalBranches,
        Metric::ConditionalMispredictions,
        Metric::IndirectBranches,
        Metric::IndirectMispredictions,
        Metric::EstimatedCycles,
    ];

    /// What `self` counted beyond `earlier` (a run of 2N calls beyond one of N): each
    /// total's difference, never below zero.
    pub fn beyond(&self, earlier: &Totals) -> Totals {
        let d = |a: u64, b: u64| a.saturating_sub(b);
        Totals {
            instructions: d(self.instructions, earlier.instructions),
            i1_misses: d(self.i1_misses, earlier.i1_misses),
            ll_instruction_misses: d(self.ll_instruction_misses, earlier.ll_instruction_misses),
            data_reads: d(self.data_reads, earlier.data_reads),
            data_writes: d(self.data_writes, earlier.data_writes),
            d1_misses: d(self.d1_misses, earlier.d1_misses),
            ll_data_misses: d(self.ll_data_misses, earlier.ll_data_misses),
            conditional_branches: d(self.conditional_branches, earlier.conditional_branches),
            conditional_mispredicts: d(
                self.conditional_mispredicts,
                earlier.conditional_mispredicts,
            ),
            indirect_branches: d(self.indirect_branches, earlier.indirect_branches),
            indirect_mispredicts: d(self.indirect_mispredicts, earlier.indirect_mispredicts),
        }
    }

    /// The totals as the model's simulated metrics, the estimated cycles last.
    pub fn values(&self) -> [(Metric, u64); 12] {
        let v = [
            self.instructions,
            self.i1_misses,
            self.ll_instruction_misses,
            self.data_reads,
            self.data_writes,
            self.d1_misses,
            self.ll_data_misses,
            self.conditional_branches,
            self.conditional_mispredicts,
            self.indirect_branches,
            self.indirect_mispredicts,
            self.estimated_cycles(),
        ];
        std::array::from_fn(|i| (Self::METRICS[i].clone(), v[i]))
    }
}

impl Totals {
    /// Cycles estimated from the simulation: every instruction fetch and data access
    /// that hits the level-1 caches costs one, one served by the last level
    /// `LL_HIT_CYCLES`, one served by memory `MEMORY_CYCLES` (gungraun's — iai's — model,
    /// "L1 hits + 5 × LL hits + 35 × RAM hits"), and each mispredicted branch
    /// `MISPREDICT_CYCLES` more, which gungraun leaves out. Why plumb adds it: a branch
    /// the predictor gets wrong half the time (the blog series' sorted against shuffled
    /// data) runs the same instructions and touches the same lines, and takes about twice
    /// as long; without the term that change would be invisible to the estimate. A
    /// model, not a measurement: no prefetching, out-of-order overlap or frequency, so
    /// it ranks work, it does not predict time (`docs/run.md`, simulated counters).
    pub fn estimated_cycles(&self) -> u64 {
        let accesses = self.instructions + self.data_reads + self.data_writes;
        let l1_misses = self.i1_misses + self.d1_misses;
        let memory = self.ll_instruction_misses + self.ll_data_misses;
        let l1_hits = accesses.saturating_sub(l1_misses);
        let ll_hits = l1_misses.saturating_sub(memory);
        let mispredicts = self.conditional_mispredicts + self.indirect_mispredicts;
        l1_hits + LL_HIT_CYCLES * ll_hits + MEMORY_CYCLES * memory + MISPREDICT_CYCLES * mispredicts
    }

    /// gungraun's estimate of the same totals, without mispredictions: what its users
    /// compare (`bench/simulated-counters.sh` prints both against time).
    pub fn gungraun_cycles(&self) -> u64 {
        let mispredicts = self.conditional_mispredicts + self.indirect_mispredicts;
        self.estimated_cycles() - MISPREDICT_CYCLES * mispredicts
    }
}

/// What the estimate charges an access served by the last level, and one served by
/// memory: gungraun's constants, kept so that its users' estimates and plumb's agree on
/// code without mispredictions.
pub const LL_HIT_CYCLES: u64 = 5;
pub const MEMORY_CYCLES: u64 = 35;
/// What the estimate charges a mispredicted branch: the pipeline refilled, 15–20 cycles
/// on current x86 cores (Agner Fog's microarchitecture manual: Skylake 15–20, Zen 2–4
/// about 18), the low end taken so the estimate errs towards less.
pub const MISPREDICT_CYCLES: u64 = 15;

impl From<&Geometry> for SimulatedCaches {
    fn from(g: &Geometry) -> Self {
        SimulatedCaches {
            i1: g.i1,
            d1: g.d1,
            ll: g.ll,
        }
    }
}

/// Simulated counts with no runs yet: the simulated metrics, and the wall time of a
/// simulated run (measured: it says how much slower simulation is).
pub fn empty_counts(tool: String, geometry: &Geometry) -> SimulatedCounts {
    let mut counts = SimulatedCounts::new(tool, Some(geometry.into()));
    for metric in Totals::METRICS {
        let info = MetricInfo::known(&metric, Source::Simulated);
        counts.metrics.insert(metric, info);
    }
    counts
        .metrics
        .insert(Metric::WallTime, MetricInfo::measured(&Metric::WallTime));
    counts
}

/// valgrind's own start-up and exit (0.26 s here for `true`), in every estimate of how
/// long a simulation will take.
pub const VALGRIND_STARTUP: Duration = Duration::from_millis(400);

pub use crate::valgrind::{valgrind_version, SimError};

/// One simulated run: the totals, and how long the simulation took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimRun {
    pub totals: Totals,
    pub wall: Duration,
}

/// Runs `argv` once under cachegrind with `geometry` and returns its totals. The
/// simulation is deterministic (the same instructions every run, tested below) and many
/// times slower than the program itself: it is killed when it runs past `budget` or when
/// `stop` is raised. The command's own output is discarded.
pub fn simulate(
    argv: &[String],
    geometry: &Geometry,
    budget: Duration,
    stop: &AtomicBool,
) -> Result<SimRun, SimError> {
    simulate_in((argv, None), geometry, budget, stop)
}

/// [`simulate`] with the program started in `dir` (a revision's worktree), else here.
pub fn simulate_in(
    (argv, dir): (&[String], Option<&std::path::Path>),
    geometry: &Geometry,
    budget: Duration,
    stop: &AtomicBool,
) -> Result<SimRun, SimError> {
    simulate_with(
        (argv, dir),
        &geometry.args(),
        "--cachegrind-out-file",
        budget,
        stop,
    )
}

/// Runs `argv` once under callgrind, counting only inside the functions whose names
/// match `region` (a callgrind pattern such as `*::untimed_region_*`) and what they
/// call: the rest of the program (its start, its setup) runs simulated and uncounted.
/// The same cache and branch simulation as [`simulate`]. A region never entered is an
/// error, not zero counts.
pub fn simulate_region(
    argv: &[String],
    geometry: &Geometry,
    region: &str,
    budget: Duration,
    stop: &AtomicBool,
) -> Result<SimRun, SimError> {
    let mut args = vec!["--tool=callgrind".to_string()];
    args.extend(geometry.simulation_args());
    args.push("--collect-atstart=no".into());
    args.push(format!("--toggle-collect={region}"));
    let run = simulate_with((argv, None), &args, "--callgrind-out-file", budget, stop)?;
    if run.totals.instructions == 0 {
        return Err(SimError::Failed(format!(
            "callgrind counted nothing: no function matching {region} ran"
        )));
    }
    Ok(run)
}

/// `argv` under valgrind with `tool_args`, the tool's output file named by `out_option`,
/// and that output's simulated totals.
fn simulate_with(
    (argv, dir): (&[String], Option<&std::path::Path>),
    tool_args: &[String],
    out_option: &str,
    budget: Duration,
    stop: &AtomicBool,
) -> Result<SimRun, SimError> {
    let run = crate::valgrind::run((argv, dir), tool_args, out_option, budget, stop)?;
    let wall = run.wall;
    let output = run.output_of_success(argv)?;
    Ok(SimRun {
        totals: parse_totals(&output).map_err(|e| SimError::Failed(e.to_string()))?,
        wall,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::quantity::ByteSize;

    fn level(level: u8, kind: &str, size: u64, ways: u32) -> CacheLevel {
        CacheLevel {
            level,
            kind: kind.into(),
            size: ByteSize(size),
            shared_by: None,
            ways: Some(ways),
            line_size: Some(ByteSize(64)),
        }
    }

    /// This machine's caches (sysfs): L1d and L1i 32 KiB 8-way, L2 1 MiB 8-way, L3 32 MiB
    /// 16-way, 64-byte lines; cachegrind simulates L1i, L1d and the L3.
    #[test]
    fn geometry_comes_from_the_machine_record() {
        let caches = [
            level(1, "Data", 32 << 10, 8),
            level(1, "Instruction", 32 << 10, 8),
            level(2, "Unified", 1 << 20, 8),
            level(3, "Unified", 32 << 20, 16),
        ];
        let g = Geometry::from_caches(&caches).unwrap();
        assert_eq!(
            g.args()[3..],
            ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=33554432,16,64"]
        );
        let mut no_ways = caches.clone();
        no_ways[3].ways = None;
        let e = Geometry::from_caches(&no_ways).unwrap_err();
        assert_eq!(e, NoGeometry::Incomplete("last-level"));
        assert!(e.to_string().contains("last-level cache's associativity"));
        assert!(Geometry::from_caches(&caches[..2]).is_err());
    }

    /// The `events:` and `summary:` lines of cachegrind 3.19 on
    /// `sh -c 'x=0; while [ $x -lt 100 ]; do x=$((x+1)); done'` with the geometry above.
    #[test]
    fn totals_are_read_by_event_name() {
        let text = "desc: I1 cache: 32768 B, 64 B, 8-way associative\n\
            cmd: sh -c x\n\
            events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm Bi Bim\n\
            fl=x.c\nfn=main\n1 2 0 0 0 0 0 0 0 0 0 0 0 0\n\
            summary: 1370234 8396 1635 331739 2001 1528 173580 519 483 180593 11558 19701 1972\n";
        let t = parse_totals(text).unwrap();
        assert_eq!(t.instructions, 1_370_234);
        assert_eq!((t.data_reads, t.data_writes), (331_739, 173_580));
        assert_eq!((t.d1_misses, t.ll_data_misses), (2001 + 519, 1528 + 483));
        assert_eq!(
            (t.conditional_branches, t.conditional_mispredicts),
            (180_593, 11_558)
        );
        assert_eq!(
            (t.indirect_branches, t.indirect_mispredicts),
            (19_701, 1_972)
        );
        assert_eq!((t.i1_misses, t.ll_instruction_misses), (8396, 1635));
        // By hand (python): L1 hits 1,875,553 − 10,916, LL hits 10,916 − 3,646, memory
        // 3,646: gungraun's 1,864,637 + 5 × 7,270 + 35 × 3,646 = 2,028,597; plumb's adds
        // 15 × (11,558 + 1,972) mispredictions.
        assert_eq!(t.gungraun_cycles(), 2_028_597);
        assert_eq!(t.estimated_cycles(), 2_231_547);
        assert_eq!(t.values()[11], (Metric::EstimatedCycles, 2_231_547));
        // callgrind 3.19 on a C loop whose region had no misses: trailing zeros left out.
        let callgrind = "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n\
            events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim\n\
            summary: 18012 2 1 0 0 0 0 0 0 1001 7\ntotals: 18012 2 1 0 0 0 0 0 0 1001 7\n";
        let t = parse_totals(callgrind).unwrap();
        assert_eq!(
            (
                t.instructions,
                t.conditional_branches,
                t.conditional_mispredicts
            ),
            (18_012, 1001, 7)
        );
        assert_eq!((t.indirect_branches, t.indirect_mispredicts), (0, 0));
        let short_cachegrind = "events: Ir Dr Dw\nsummary: 1 2\n";
        assert_eq!(
            parse_totals(short_cachegrind).unwrap_err(),
            BadTotals::Count {
                events: 3,
                totals: 2
            }
        );
        let no_branches = "events: Ir Dr Dw\nsummary: 1 2 3\n";
        assert_eq!(
            parse_totals(no_branches).unwrap_err(),
            BadTotals::NoEvent("I1mr")
        );
        assert!(parse_totals("events: Ir\nsummary: 1 2\n").is_err());
        assert_eq!(
            parse_totals("nothing").unwrap_err(),
            BadTotals::NoLine("events:")
        );
    }

    /// gungraun's own `EstimatedCycles` for two of its summaries (plumb-import's fixtures
    /// `gungraun/before/…/bench_sum.{large,small}/summary.json`, no branch simulation):
    /// plumb's formula gives exactly its figure, and adds only the mispredictions.
    #[test]
    fn estimated_cycles_agree_with_gungraun_without_mispredictions() {
        let of = |[ir, dr, dw, i1, d1r, d1w, ili, dlr, dlw]: [u64; 9]| Totals {
            instructions: ir,
            data_reads: dr,
            data_writes: dw,
            i1_misses: i1,
            d1_misses: d1r + d1w,
            ll_instruction_misses: ili,
            ll_data_misses: dlr + dlw,
            ..Totals::default()
        };
        let large = of([1988, 569, 23, 13, 1, 0, 13, 0, 0]);
        let small = of([242, 69, 20, 3, 0, 0, 3, 0, 0]);
        assert_eq!(
            (large.estimated_cycles(), small.estimated_cycles()),
            (3026, 433)
        );
        let branchy = Totals {
            conditional_mispredicts: 10,
            indirect_mispredicts: 2,
            ..large
        };
        assert_eq!(branchy.gungraun_cycles(), 3026);
        assert_eq!(branchy.estimated_cycles(), 3026 + 12 * MISPREDICT_CYCLES);
    }

    /// Counts under simulation are deterministic: two runs of the same command give the
    /// same instructions, branches and misses. Needs valgrind (.ci/run installs it).
    #[test]
    fn simulated_counts_are_deterministic() {
        if valgrind_version().is_err() {
            plumb_testkit::skip("valgrind is not installed");
            return;
        }
        let caches = [
            level(1, "Data", 32 << 10, 8),
            level(1, "Instruction", 32 << 10, 8),
            level(3, "Unified", 32 << 20, 16),
        ];
        let g = Geometry::from_caches(&caches).unwrap();
        let argv: Vec<String> = ["sh", "-c", "x=0; while [ $x -lt 100 ]; do x=$((x+1)); done"]
            .map(String::from)
            .to_vec();
        let (budget, go) = (Duration::from_secs(60), AtomicBool::new(false));
        let a = simulate(&argv, &g, budget, &go).unwrap().totals;
        let b = simulate(&argv, &g, budget, &go).unwrap().totals;
        assert_eq!(a, b);
        assert!(
            a.instructions > 100_000 && a.conditional_branches > 10_000,
            "{a:?}"
        );
        let failing: Vec<String> = ["sh", "-c", "exit 3"].map(String::from).to_vec();
        let e = simulate(&failing, &g, budget, &go).unwrap_err();
        assert!(e.to_string().contains("exit status: 3"), "{e}");
        let endless: Vec<String> = ["sleep", "5"].map(String::from).to_vec();
        let short = Duration::from_millis(300);
        assert_eq!(
            simulate(&endless, &g, short, &go),
            Err(SimError::OverBudget(short))
        );
        assert_eq!(
            simulate(&endless, &g, budget, &AtomicBool::new(true)),
            Err(SimError::Stopped)
        );
        // A region that never runs is said, not counted as zero.
        let e = simulate_region(&argv, &g, "*no_such_region*", budget, &go).unwrap_err();
        assert!(
            e.to_string()
                .contains("no function matching *no_such_region* ran"),
            "{e}"
        );
    }
}
