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
/// lines): instructions (Ir), data reads and writes (Dr, Dw), their L1 and last-level
/// misses, conditional and indirect branches and their mispredictions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    pub instructions: u64,
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
    pub const METRICS: [Metric; 9] = [
        Metric::Instructions,
        Metric::DataReads,
        Metric::DataWrites,
        Metric::D1Misses,
        Metric::LlMisses,
        Metric::ConditionalBranches,
        Metric::ConditionalMispredictions,
        Metric::IndirectBranches,
        Metric::IndirectMispredictions,
    ];

    /// What `self` counted beyond `earlier` (a run of 2N calls beyond one of N): each
    /// total's difference, never below zero.
    pub fn beyond(&self, earlier: &Totals) -> Totals {
        let d = |a: u64, b: u64| a.saturating_sub(b);
        Totals {
            instructions: d(self.instructions, earlier.instructions),
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

    /// The totals as the model's simulated metrics.
    pub fn values(&self) -> [(Metric, u64); 9] {
        let v = [
            self.instructions,
            self.data_reads,
            self.data_writes,
            self.d1_misses,
            self.ll_data_misses,
            self.conditional_branches,
            self.conditional_mispredicts,
            self.indirect_branches,
            self.indirect_mispredicts,
        ];
        std::array::from_fn(|i| (Self::METRICS[i].clone(), v[i]))
    }
}

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
    simulate_with(
        argv,
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
    let run = simulate_with(argv, &args, "--callgrind-out-file", budget, stop)?;
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
    argv: &[String],
    tool_args: &[String],
    out_option: &str,
    budget: Duration,
    stop: &AtomicBool,
) -> Result<SimRun, SimError> {
    let run = crate::valgrind::run(argv, tool_args, out_option, budget, stop)?;
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
            BadTotals::NoEvent("D1mr")
        );
        assert!(parse_totals("events: Ir\nsummary: 1 2\n").is_err());
        assert_eq!(
            parse_totals("nothing").unwrap_err(),
            BadTotals::NoLine("events:")
        );
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
