//! Allocation sites by valgrind's DHAT: every heap block with the stack that allocated
//! it, grouped by call site (the first frames outside the allocator). For a benchmark,
//! its routine is run N and 2N times in the untimed loop (`--simulate-child`, as the
//! simulated counters do) and the two subtracted, so the counts are per operation and
//! start-up, setup and the harness cancel.

use crate::{ProfileError, Unreadable};
use plumb_counters::valgrind;
use plumb_model::bench_child::{read_region_time, BenchChild, ChildRun};
use plumb_model::{AllocationProfile, AllocationSite};
use serde_json::Value;
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Stdio};

/// Frames of a site kept after the allocator's own.
const SITE_FRAMES: usize = 4;

/// Blocks and bytes allocated per call site.
type Sites = HashMap<Vec<String>, (f64, f64)>;

/// Frames recorded per allocation: deep enough to reach a benchmark's untimed region
/// from inside the allocator.
const CALLERS: u32 = 48;

/// A whole command's allocations under DHAT, `dir` holding its output.
pub fn command_sites(argv: &[OsString], dir: &Path) -> Result<AllocationProfile, ProfileError> {
    let sites = run_dhat(argv, &dir.join("dhat-command.json"), None)?;
    Ok(profile_of(sites, None))
}

/// Benchmark `bench` of the plumb-bench target `target` (its argv), allocations per
/// operation: the target run with `--simulate-child N` and then 2N; only allocations
/// made inside the untimed loop (`BENCH_REGIONS`: not its setup, which DHAT sees too)
/// are kept, and the difference divided by N. N is chosen so that the routine runs about
/// 20 ms natively (DHAT is some 50× slower).
pub fn bench_sites(
    target: &[OsString],
    bench: &str,
    dir: &Path,
) -> Result<AllocationProfile, ProfileError> {
    let calls = calls_for(target, bench, dir)?;
    let with = |n: u64| {
        let a = child_argv(target, bench, ChildRun::Calls(n), None);
        run_dhat(
            &a,
            &dir.join(format!("dhat-{n}.json")),
            Some(&crate::BENCH_REGIONS),
        )
    };
    let (once, twice) = (with(calls)?, with(2 * calls)?);
    let mut per_op = Sites::new();
    for (site, (blocks, bytes)) in twice {
        let (b0, y0) = once.get(&site).copied().unwrap_or((0.0, 0.0));
        let (blocks, bytes) = ((blocks - b0) / calls as f64, (bytes - y0) / calls as f64);
        if blocks > 0.0 || bytes > 0.0 {
            per_op.insert(site, (blocks, bytes));
        }
    }
    Ok(profile_of(per_op, Some(calls)))
}

/// N for about 20 ms of the routine natively, from a run of 100 calls timed by the
/// child itself around its untimed loop (`--region-time`); between 10 and 100,000.
fn calls_for(target: &[OsString], bench: &str, dir: &Path) -> Result<u64, ProfileError> {
    const PROBE: u64 = 100;
    let timing = dir.join(".region-time");
    let argv = child_argv(target, bench, ChildRun::Calls(PROBE), Some(timing.clone()));
    let ran = Command::new(&argv[0])
        .args(&argv[1..])
        .stdout(Stdio::null())
        .status()
        .map_err(|e| {
            ProfileError::NoCommand(format!("cannot run {}: {e}", argv[0].to_string_lossy()))
        })?;
    let ns: f64 = std::fs::read_to_string(&timing)
        .ok()
        .and_then(|t| read_region_time(&t).ok())
        .map(|d| d.as_nanos_f64())
        .filter(|_| ran.success())
        .ok_or_else(|| {
            ProfileError::NoCommand(format!("the benchmark's routine did not run ({ran})"))
        })?;
    let _ = std::fs::remove_file(&timing);
    Ok((20e6 / (ns / PROBE as f64).max(1.0)).clamp(10.0, 100_000.0) as u64)
}

/// The bench binary `target` asked to run `bench` as a child (`plumb_model::bench_child`).
fn child_argv(
    target: &[OsString],
    bench: &str,
    run: ChildRun,
    region_time: Option<std::path::PathBuf>,
) -> Vec<OsString> {
    let child = BenchChild {
        bench: bench.to_string(),
        run,
        region_time,
    };
    let mut argv = target.to_vec();
    argv.extend(child.args().into_iter().map(OsString::from));
    argv
}

/// `argv` under DHAT (through plumb-counters' one valgrind runner), its profile also kept
/// at `out`; a program that fails still gives the allocations it made.
fn run_dhat(argv: &[OsString], out: &Path, within: Option<&[&str]>) -> Result<Sites, ProfileError> {
    let tool = vec![
        "--tool=dhat".to_string(),
        "--quiet".to_string(),
        format!("--num-callers={CALLERS}"),
    ];
    let never = std::sync::atomic::AtomicBool::new(false);
    let run = valgrind::run(
        (argv, None),
        &tool,
        "--dhat-out-file",
        std::time::Duration::MAX,
        &never,
    )
    .map_err(|e| match e {
        valgrind::SimError::NoValgrind => ProfileError::NoValgrind,
        other => ProfileError::Script(other.to_string()),
    })?;
    let text = run
        .output
        .ok_or_else(|| ProfileError::Script(format!("DHAT wrote no profile ({})", run.status)))?;
    // Kept beside the other files of the profile, as before.
    let _ = std::fs::write(out, &text);
    parse(&text, within).map_err(|e| ProfileError::Script(e.to_string()))
}

/// Reads DHAT's JSON (`dhatFileVersion` 2): program points (`pps`) with total blocks
/// (`tbk`) and bytes (`tb`), each with its frames (`fs`, indices into `ftbl`, innermost
/// first). With `within`, only the points with one of those functions on their stack.
pub fn parse(text: &str, within: Option<&[&str]>) -> Result<Sites, Unreadable> {
    let v: Value = serde_json::from_str(text).map_err(|e| Unreadable::DhatJson(e.to_string()))?;
    if v.get("dhatFileVersion").and_then(Value::as_u64) != Some(2) {
        return Err(Unreadable::DhatVersion);
    }
    let table: Vec<&str> = v["ftbl"]
        .as_array()
        .ok_or(Unreadable::DhatPart("frame table"))?
        .iter()
        .map(|f| f.as_str().unwrap_or("?"))
        .collect();
    let mut sites = Sites::new();
    for pp in v["pps"]
        .as_array()
        .ok_or(Unreadable::DhatPart("program points"))?
    {
        let frames: Vec<&str> = pp["fs"]
            .as_array()
            .map(|fs| {
                fs.iter()
                    .filter_map(|i| table.get(i.as_u64()? as usize).copied())
                    .collect()
            })
            .unwrap_or_default();
        if let Some(regions) = within {
            if !frames.iter().any(|f| regions.iter().any(|r| f.contains(r))) {
                continue;
            }
        }
        let entry = sites.entry(site_of(&frames)).or_default();
        entry.0 += pp["tbk"].as_f64().unwrap_or(0.0);
        entry.1 += pp["tb"].as_f64().unwrap_or(0.0);
    }
    Ok(sites)
}

/// The first frames beyond the allocator's, each `function (file:line)` without its
/// address.
fn site_of(frames: &[&str]) -> Vec<String> {
    frames
        .iter()
        .map(|f| match f.split_once(": ") {
            Some((addr, rest)) if addr.starts_with("0x") => rest,
            _ => f,
        })
        .skip_while(|f| is_allocator(f))
        .take(SITE_FRAMES)
        .map(str::to_string)
        .collect()
}

/// The allocator and the standard containers' allocating internals (Rust's
/// `library/alloc`, inlined frames named by their file), whose callers are the sites.
fn is_allocator(frame: &str) -> bool {
    const ALLOCATOR: [&str; 13] = [
        "malloc ",
        "calloc ",
        "realloc ",
        "memalign ",
        "posix_memalign ",
        "aligned_alloc ",
        "operator new",
        "__rust_alloc",
        "__rust_realloc",
        "__rdl_",
        "alloc::",
        "<alloc::",
        "<plumb_bench::alloc::",
    ];
    ALLOCATOR.iter().any(|a| frame.starts_with(a))
        || frame.contains("(library/alloc/")
        || frame.contains("(library/std/src/alloc")
        || frame.contains("std::sys::alloc::")
}

fn profile_of(sites: Sites, per_operations: Option<u64>) -> AllocationProfile {
    let blocks = sites.values().map(|s| s.0).sum();
    let bytes = sites.values().map(|s| s.1).sum();
    let mut sites: Vec<AllocationSite> = sites
        .into_iter()
        .map(|(frames, (blocks, bytes))| AllocationSite {
            frames,
            blocks,
            bytes,
        })
        .collect();
    sites.sort_by(|a, b| {
        b.blocks
            .total_cmp(&a.blocks)
            .then(b.bytes.total_cmp(&a.bytes))
    });
    AllocationProfile {
        per_operations,
        blocks,
        bytes,
        sites,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DHAT: &str = r#"{"dhatFileVersion":2,"mode":"heap","verb":"Allocated","bklt":true,"bkacc":true,
"tu":"instrs","Mtu":"instr","cmd":"./a","pid":1,"te":100,"tg":90,
"pps":[
 {"tb":4000,"tbk":100,"tl":1,"mb":40,"mbk":1,"gb":40,"gbk":1,"eb":0,"ebk":0,"rb":0,"wb":0,"fs":[1,2,3]},
 {"tb":64,"tbk":2,"tl":1,"mb":32,"mbk":1,"gb":32,"gbk":1,"eb":0,"ebk":0,"rb":0,"wb":0,"fs":[1,4,3]},
 {"tb":16,"tbk":1,"tl":1,"mb":16,"mbk":1,"gb":16,"gbk":1,"eb":0,"ebk":0,"rb":0,"wb":0,"fs":[1,4,3]}
],
"ftbl":["[root]","0x484880F: malloc (in /usr/libexec/valgrind/vgpreload_dhat-amd64-linux.so)",
"0x109180: parse (a.c:10)","0x1091C0: main (a.c:20)","0x1091A0: keypress (a.c:15)"]}"#;

    #[test]
    fn sites_are_the_frames_beyond_the_allocator_merged() {
        let sites = parse(DHAT, None).unwrap();
        assert_eq!(parse(DHAT, Some(&["keypress"])).unwrap().len(), 1);
        assert_eq!(sites.len(), 2);
        assert_eq!(
            sites[&vec!["parse (a.c:10)".to_string(), "main (a.c:20)".to_string()]],
            (100.0, 4000.0)
        );
        assert_eq!(
            sites[&vec!["keypress (a.c:15)".to_string(), "main (a.c:20)".to_string()]],
            (3.0, 80.0)
        );
        let p = profile_of(sites, None);
        assert_eq!((p.blocks, p.bytes), (103.0, 4080.0));
        assert_eq!(p.sites[0].frames[0], "parse (a.c:10)");
        assert!(parse("{}", None).is_err());
    }

    #[test]
    fn rust_allocator_frames_are_skipped() {
        let frames = [
            "0x1: malloc (in vgpreload)",
            "0x2: alloc::alloc::alloc (alloc.rs:94)",
            "0x3: <plumb_bench::alloc::CountingAllocator as core::alloc::global::GlobalAlloc>::alloc (alloc.rs:40)",
            "0x4: alloc::raw_vec::RawVec<T,A>::allocate_in (raw_vec.rs:1)",
            "0x6: with_capacity_in<u64, alloc::alloc::Global> (library/alloc/src/vec/mod.rs:965)",
            "0x5: mybench::build (lib.rs:7)",
        ];
        assert_eq!(
            site_of(&frames),
            vec!["mybench::build (lib.rs:7)".to_string()]
        );
    }
}
