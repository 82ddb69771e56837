//! Simulated counters from valgrind's cachegrind, for machines whose CPU exposes no
//! counters (most VMs and CI runners). Its own cache detection cannot be trusted (on this
//! KVM guest it reads a 256 MiB direct-mapped last level), so the geometry is always
//! given, from the machine record: L1 instruction, L1 data, and the last level.

use plumb_model::{CacheLevel, Metric, MetricInfo, SimulatedCaches, SimulatedCounts, Source};
use std::fmt;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

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
    pub fn from_caches(caches: &[CacheLevel]) -> Result<Geometry, String> {
        let find = |level: u8, kinds: &[&str]| {
            caches
                .iter()
                .find(|c| c.level == level && kinds.contains(&c.kind.as_str()))
        };
        let sim = |c: Option<&CacheLevel>, what: &str| -> Result<SimCache, String> {
            let c = c.ok_or_else(|| format!("the machine record has no {what} cache"))?;
            match (c.ways, c.line_size) {
                (Some(ways), Some(line_size)) if ways > 0 && line_size.0 > 0 => Ok(SimCache {
                    size: c.size,
                    ways,
                    line_size,
                }),
                _ => Err(format!(
                    "the machine record lacks the {what} cache's associativity or line size"
                )),
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
pub fn parse_totals(text: &str) -> Result<Totals, String> {
    let line = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .map(str::split_whitespace)
            .ok_or_else(|| format!("no `{key}` line in cachegrind's output"))
    };
    let names: Vec<&str> = line("events:")?.collect();
    let mut values = line("summary:")?
        .map(|v| {
            v.parse::<u64>()
                .map_err(|e| format!("summary value {v:?}: {e}"))
        })
        .collect::<Result<Vec<u64>, String>>()?;
    if values.len() < names.len() && text.contains("\ncreator: callgrind") {
        values.resize(names.len(), 0);
    }
    if names.len() != values.len() {
        return Err(format!(
            "cachegrind's output lists {} events but {} totals",
            names.len(),
            values.len()
        ));
    }
    let get = |name: &str| {
        names
            .iter()
            .position(|n| *n == name)
            .map(|i| values[i])
            .ok_or_else(|| {
                format!("cachegrind's output has no {name} (was cache and branch simulation on?)")
            })
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

/// Why a simulated run gave no counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimError {
    /// valgrind is not installed.
    NoValgrind,
    /// valgrind could not be started, or the command failed under it.
    Failed(String),
    /// Stopped at the budget.
    OverBudget(Duration),
    /// The stop flag was raised (Ctrl-C).
    Stopped,
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::NoValgrind => write!(
                f,
                "valgrind is not installed, so nothing can be simulated (install it: apt-get install valgrind)"
            ),
            SimError::Failed(m) => f.write_str(m),
            SimError::OverBudget(b) => write!(
                f,
                "the simulation was stopped at its budget of {} (raise --sim-budget)",
                plumb_model::quantity::Duration::from(*b)
            ),
            SimError::Stopped => write!(f, "the simulation was interrupted"),
        }
    }
}

impl SimError {
    /// Why a benchmark has no simulated counts, as its result says it.
    pub fn not_simulated(&self) -> String {
        match self {
            SimError::Stopped => "its simulation was interrupted".into(),
            SimError::Failed(why) => format!("not simulated: {why}"),
            other => other.to_string(),
        }
    }
}

/// valgrind's version ("valgrind-3.19.0"), which also says that it can be run.
pub fn valgrind_version() -> Result<String, SimError> {
    match Command::new("valgrind").arg("--version").output() {
        Ok(o) if o.status.success() => Ok(String::from_utf8_lossy(&o.stdout).trim().to_string()),
        Ok(o) => Err(SimError::Failed(format!(
            "`valgrind --version` failed ({})",
            o.status
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(SimError::NoValgrind),
        Err(e) => Err(SimError::Failed(format!("cannot start valgrind: {e}"))),
    }
}

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

fn simulate_with(
    argv: &[String],
    tool_args: &[String],
    out_option: &str,
    budget: Duration,
    stop: &AtomicBool,
) -> Result<SimRun, SimError> {
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let base = std::env::temp_dir().join(format!(
        "plumb-valgrind-{}-{}",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    let (out, log) = (base.with_extension("out"), base.with_extension("log"));
    let mut args = tool_args.to_vec();
    args.push(format!("{out_option}={}", out.display()));
    let result = run_valgrind(argv, &args, &log, budget, stop);
    let text = std::fs::read_to_string(&out);
    let log_text = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_file(&out);
    let _ = std::fs::remove_file(&log);
    let (status, wall) = result?;
    if !status.success() {
        return Err(SimError::Failed(failure_message(argv, status, &log_text)));
    }
    let text = text.map_err(|e| SimError::Failed(format!("valgrind wrote no output file: {e}")))?;
    Ok(SimRun {
        totals: parse_totals(&text).map_err(SimError::Failed)?,
        wall,
    })
}

fn run_valgrind(
    argv: &[String],
    valgrind_args: &[String],
    log: &Path,
    budget: Duration,
    stop: &AtomicBool,
) -> Result<(ExitStatus, Duration), SimError> {
    let log_file = std::fs::File::create(log)
        .map_err(|e| SimError::Failed(format!("cannot create {}: {e}", log.display())))?;
    let started = Instant::now();
    let mut child = Command::new("valgrind")
        .args(valgrind_args)
        .args(argv)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log_file)
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => SimError::NoValgrind,
            _ => SimError::Failed(format!("cannot start valgrind: {e}")),
        })?;
    loop {
        let waited = child
            .try_wait()
            .map_err(|e| SimError::Failed(format!("waiting for valgrind: {e}")))?;
        if let Some(status) = waited {
            if stop.load(Ordering::Relaxed) {
                return Err(SimError::Stopped);
            }
            return Ok((status, started.elapsed()));
        }
        let over = started.elapsed() > budget;
        if over || stop.load(Ordering::Relaxed) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(if over {
                SimError::OverBudget(budget)
            } else {
                SimError::Stopped
            });
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// What went wrong under valgrind, from its exit and the end of its log (which holds the
/// command's stderr too).
fn failure_message(argv: &[String], status: ExitStatus, log: &str) -> String {
    let command = argv.join(" ");
    if log.contains("unhandled instruction") {
        return format!(
            "valgrind cannot run {command}: it uses an instruction valgrind does not know (built for a newer CPU than valgrind supports?); no simulated counters"
        );
    }
    let tail: Vec<&str> = log
        .lines()
        .filter(|l| !l.trim().is_empty())
        .rev()
        .take(3)
        .collect();
    format!(
        "{command} under valgrind {status}: {}",
        tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
    )
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
        assert!(Geometry::from_caches(&no_ways)
            .unwrap_err()
            .contains("last-level cache's associativity"));
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
        assert!(parse_totals(short_cachegrind)
            .unwrap_err()
            .contains("3 events but 2 totals"));
        let no_branches = "events: Ir Dr Dw\nsummary: 1 2 3\n";
        assert!(parse_totals(no_branches).unwrap_err().contains("no D1mr"));
        assert!(parse_totals("events: Ir\nsummary: 1 2\n").is_err());
        assert!(parse_totals("nothing").unwrap_err().contains("events:"));
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
