//! Simulated counters from valgrind's cachegrind, for machines whose CPU exposes no
//! counters (most VMs and CI runners). Its own cache detection cannot be trusted (on this
//! KVM guest it reads a 256 MiB direct-mapped last level), so the geometry is always
//! given, from the machine record: L1 instruction, L1 data, and the last level.

use plumb_model::CacheLevel;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};

/// One simulated cache: size, associativity and line size, as cachegrind takes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimCache {
    pub size_bytes: u64,
    pub ways: u32,
    pub line_bytes: u32,
}

impl SimCache {
    fn arg(&self, name: &str) -> String {
        format!(
            "--{name}={},{},{}",
            self.size_bytes, self.ways, self.line_bytes
        )
    }
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
            match (c.ways, c.line_bytes) {
                (Some(ways), Some(line_bytes)) if ways > 0 && line_bytes > 0 => Ok(SimCache {
                    size_bytes: c.size_bytes,
                    ways,
                    line_bytes,
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
        vec![
            "--tool=cachegrind".into(),
            "--cache-sim=yes".into(),
            "--branch-sim=yes".into(),
            self.i1.arg("I1"),
            self.d1.arg("D1"),
            self.ll.arg("LL"),
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

/// Reads the totals from a cachegrind output file's text.
pub fn parse_totals(text: &str) -> Result<Totals, String> {
    let line = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .map(str::split_whitespace)
            .ok_or_else(|| format!("no `{key}` line in cachegrind's output"))
    };
    let names: Vec<&str> = line("events:")?.collect();
    let values = line("summary:")?
        .map(|v| {
            v.parse::<u64>()
                .map_err(|e| format!("summary value {v:?}: {e}"))
        })
        .collect::<Result<Vec<u64>, String>>()?;
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

/// Runs `argv` once under cachegrind with `geometry` and returns its totals. The
/// simulation is deterministic (the same instructions every run, tested below) and many
/// times slower than the program itself.
pub fn simulate(argv: &[String], geometry: &Geometry) -> Result<Totals, String> {
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let out = std::env::temp_dir().join(format!(
        "plumb-cachegrind-{}-{}.out",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    let result = Command::new("valgrind")
        .args(geometry.args())
        .arg(format!("--cachegrind-out-file={}", out.display()))
        .args(argv)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output();
    let output = match result {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err("valgrind is not installed (apt-get install valgrind)".into())
        }
        Err(e) => return Err(format!("cannot start valgrind: {e}")),
    };
    let text = std::fs::read_to_string(&out);
    let _ = std::fs::remove_file(&out);
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(3).collect();
        return Err(format!(
            "{} under cachegrind {}: {}",
            argv.join(" "),
            output.status,
            tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
        ));
    }
    parse_totals(&text.map_err(|e| format!("cachegrind wrote no output file: {e}"))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(level: u8, kind: &str, size_bytes: u64, ways: u32) -> CacheLevel {
        CacheLevel {
            level,
            kind: kind.into(),
            size_bytes,
            shared_by: None,
            ways: Some(ways),
            line_bytes: Some(64),
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
        let no_branches = "events: Ir Dr Dw\nsummary: 1 2 3\n";
        assert!(parse_totals(no_branches).unwrap_err().contains("no D1mr"));
        assert!(parse_totals("events: Ir\nsummary: 1 2\n").is_err());
        assert!(parse_totals("nothing").unwrap_err().contains("events:"));
    }

    /// Counts under simulation are deterministic: two runs of the same command give the
    /// same instructions, branches and misses. Needs valgrind (.ci/run installs it).
    #[test]
    fn simulated_counts_are_deterministic() {
        if Command::new("valgrind").arg("--version").output().is_err() {
            eprintln!("skipped: valgrind is not installed");
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
        let a = simulate(&argv, &g).unwrap();
        let b = simulate(&argv, &g).unwrap();
        assert_eq!(a, b);
        assert!(
            a.instructions > 100_000 && a.conditional_branches > 10_000,
            "{a:?}"
        );
        let failing: Vec<String> = ["sh", "-c", "exit 3"].map(String::from).to_vec();
        assert!(simulate(&failing, &g)
            .unwrap_err()
            .contains("exit status: 3"));
    }
}
