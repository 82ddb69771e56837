//! The `Harness` of one bench binary: registration, running each benchmark (panics caught), report.
use crate::args::{self, Args, ClockChoice};
use crate::bencher::{Bencher, Context, Measured, Untimed};
use crate::clock::{Clock, Monotonic};
use crate::error::{ArgsError, BenchError};
use crate::ran::{BenchOutcome, Ran};
use crate::registry::{select, Entry, Group, GroupOptions};
use crate::sampler::{Precision, SamplingConfig, Warmup};
use crate::{alloc, document};
use plumb_counters::plan::Counting;
use plumb_model::Benchmark;
use plumb_probe::stop::{signal_name, SecondSignal, StopOnSignals};
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The benchmarks of one bench binary. Register with [`Harness::bench`] and
/// [`Harness::group`], then call [`Harness::run`].
pub struct Harness<'a> {
    args: Args,
    entries: Vec<Entry<'a>>,
    options: BTreeMap<String, GroupOptions>,
}

impl<'a> Harness<'a> {
    /// Reads the bench binary's arguments; prints usage and exits on bad ones.
    pub fn from_env() -> Self {
        let raw: Vec<String> = std::env::args().skip(1).collect();
        match args::parse(&raw) {
            Ok(args) => Harness::with_args(args),
            Err(ArgsError::Help) => {
                let _ = plumb_report::targets::print_stdout(args::USAGE);
                std::process::exit(0)
            }
            Err(e) => {
                // One line, not the whole usage: in `cargo bench` output the usage would
                // bury the error.
                eprintln!("plumb-bench: error: {e}\n(`--help` lists the options)");
                std::process::exit(2)
            }
        }
    }

    /// A harness with these options, not the command line's. With `launches` above 1
    /// (the default) it re-executes this binary for each launch, which only works where
    /// `main` builds its harness with [`Harness::from_env`]; elsewhere (a test, say) set
    /// `launches: 1`, or each launch fails saying so.
    pub fn with_args(args: Args) -> Self {
        Harness {
            args,
            entries: Vec::new(),
            options: BTreeMap::new(),
        }
    }

    /// A benchmark outside any group.
    pub fn bench(&mut self, name: &str, f: impl FnMut(&mut Bencher) + 'a) -> &mut Self {
        self.entries.push(Entry {
            full_name: name.to_string(),
            compare_set: None,
            baseline: false,
            parameters: BTreeMap::new(),
            routine: Box::new(f),
        });
        self
    }

    /// A group of variants compared with its baseline.
    pub fn group(&mut self, name: &str) -> Group<'_, 'a> {
        Group {
            entries: &mut self.entries,
            options: &mut self.options,
            name: name.to_string(),
        }
    }

    /// Runs the selected benchmarks, prints the report, writes the results and exits
    /// the process: 0, 2 if a benchmark failed or the arguments were wrong, 130 if
    /// Ctrl-C stopped the simulations (the timed results are written).
    pub fn run(self) -> ! {
        let code = match self.run_to_document() {
            Ok(Some(doc)) if matches!(doc.status, plumb_model::RunStatus::Interrupted { .. }) => {
                130
            }
            Ok(Some(doc)) => {
                let failed = doc
                    .benchmarks
                    .iter()
                    .any(|b| b.function().is_some_and(|f| f.failure.is_some()));
                if failed {
                    2
                } else {
                    0
                }
            }
            Ok(None) => 0,
            Err(e) => {
                eprintln!("plumb-bench: error: {e}");
                2
            }
        };
        std::process::exit(code)
    }

    /// Runs and reports; returns the document (None for `--list` and test mode).
    pub fn run_to_document(mut self) -> Result<Option<plumb_model::ResultDocument>, BenchError> {
        let names: Vec<String> = self.entries.iter().map(|e| e.full_name.clone()).collect();
        let chosen = self.choose(&names)?;
        if self.args.list {
            let list: String = chosen.iter().map(|&i| format!("{}\n", names[i])).collect();
            // A closed stdout (`--list | head -1`) ends the listing, never in a panic.
            plumb_report::targets::print_stdout(&list)?;
            return Ok(None);
        }
        if let Some(calls) = self.args.simulate_child {
            return self
                .run_untimed(&chosen, Untimed::Calls(calls))
                .map(|()| None);
        }
        if let Some(time) = self.args.profile_child {
            return self
                .run_untimed(&chosen, Untimed::For(time.to_std()))
                .map(|()| None);
        }
        warn_if_debug(self.args.bench);
        let test_mode = !self.args.bench;
        let targets = document::targets(&self.args);
        if !test_mode {
            plumb_report::targets::check(&targets)?;
        }
        let history = crate::history::open(&self.args, test_mode)?;
        // Caught from here to the end: a stop ends sampling, and what was measured is
        // analysed, printed and written like a whole run, marked interrupted.
        let signals = self.catch_stops()?;
        let (ctx, clock_info, environment) = self.prepare(test_mode, Arc::clone(&signals.stop))?;
        let counting = self.counting(&environment, test_mode)?;
        // A launch's parent has said it; a launch's stderr is kept for why it failed.
        if !test_mode && !self.args.launch_child {
            announce(&clock_info, &ctx, &chosen, &names);
            for notice in &counting.notices {
                eprintln!("note: {notice}");
            }
        }
        let mut benchmarks = if self.launching(test_mode) {
            self.measure_in_launches(&chosen, &signals.stop)?
        } else {
            match self.measure_here(&ctx, &chosen, test_mode)? {
                Some(b) => b,
                None => return Ok(None),
            }
        };
        // A stop during sampling skips the simulation; one during it ends it.
        if let Some(sim) = counting.simulation.as_ref() {
            if !signals.stop.load(Ordering::Relaxed) {
                let stop = &signals.stop;
                crate::simulate::simulate_benchmarks(&self.args, sim, &mut benchmarks, stop)?;
            }
        }
        let mut doc = document::new_document(&self.args, clock_info, &ctx, environment);
        if signals.stop.load(Ordering::Relaxed) {
            let name = signal_name(signals.signal().unwrap_or(signal_hook::consts::SIGINT));
            eprintln!(
                "plumb-bench: stopped by {name}: what was measured until then is reported and written"
            );
            doc.status = plumb_model::RunStatus::Interrupted { signal: Some(name) };
        }
        doc.benchmarks = benchmarks;
        document::finish(&mut doc, &self.args, &self.options);
        if !test_mode && !self.args.launch_child {
            crate::history::between_runs(&self.args, &mut doc);
        }
        // A full stdout is told after the exports are written, never instead of them.
        let detail = plumb_report::Detail::verbose(self.args.verbose);
        let report = plumb_report::render_terminal_at(&doc, detail);
        let printed = plumb_report::targets::print_report(&targets, &report);
        document::export(&targets, &doc)?;
        let json = targets
            .iter()
            .find(|t| t.format == plumb_report::Format::Json && !t.is_stdout());
        history.keep(&doc, json.map(|t| t.path.as_path()))?;
        printed?;
        Ok(Some(doc))
    }

    /// Whether this process measures in launches (fresh processes) rather than itself.
    fn launching(&self, test_mode: bool) -> bool {
        self.args.launches > 1 && !self.args.launch_child && !test_mode
    }

    /// Ctrl-C and the other stop signals, caught until the run ends. A launch gets a
    /// terminal's Ctrl-C and then its parent's too: the second must not end it before it
    /// writes what it measured.
    fn catch_stops(&self) -> Result<StopOnSignals, BenchError> {
        let second = if self.args.launch_child {
            crate::launches::end_with_parent();
            SecondSignal::Same
        } else {
            SecondSignal::Exits
        };
        StopOnSignals::install(second).map_err(|cause| BenchError::System {
            what: "cannot catch Ctrl-C".into(),
            cause: cause.to_string(),
        })
    }

    /// `--counters` decided against this machine: how the run simulates counters (when it
    /// does), and the lines that say what is counted here. A launch child leaves the
    /// simulation to its parent.
    fn counting(
        &self,
        env: &plumb_model::Environment,
        test_mode: bool,
    ) -> Result<Counting, BenchError> {
        let Some(mode) = self
            .args
            .counters
            .filter(|_| !test_mode && !self.args.launch_child)
        else {
            return Ok(Counting {
                simulation: None,
                notices: Vec::new(),
            });
        };
        let budget = self.args.sim_budget.to_std();
        plumb_report::counting_plan(mode, env, budget, plumb_report::Counted::Routines)
            .map_err(BenchError::Counters)
    }

    /// `--simulate-child N` (under valgrind) or `--profile-child TIME` (under perf): each
    /// chosen routine run in the untimed region, nothing measured but how long the region
    /// took, written to `--region-time`.
    fn run_untimed(&mut self, chosen: &[usize], untimed: Untimed) -> Result<(), BenchError> {
        let ctx = Context {
            clock: Clock::Monotonic(Monotonic::new()),
            sampling: sampling(&self.args, Duration::ZERO, Arc::default()),
            count_allocations: false,
            counters: None,
            test_mode: false,
            untimed: Some(untimed),
        };
        let mut region = Duration::ZERO;
        for &i in chosen {
            let entry = &mut self.entries[i];
            let mut b = Bencher::new(&ctx);
            catch_unwind(AssertUnwindSafe(|| (entry.routine)(&mut b))).map_err(|panic| {
                BenchError::Panicked {
                    benchmark: entry.full_name.clone(),
                    message: panic_message(&*panic),
                }
            })?;
            region += b.region_time.unwrap_or_default();
        }
        match &self.args.region_time {
            // Whole nanoseconds: what the parent reads back (`simulate.rs`).
            Some(path) => std::fs::write(
                path,
                plumb_model::bench_child::write_region_time(region.into()),
            )
            .map_err(|e| BenchError::Write {
                path: path.clone(),
                cause: e.to_string(),
            }),
            None => Ok(()),
        }
    }

    /// The benchmarks the filters select, after checking the names.
    fn choose(&self, names: &[String]) -> Result<Vec<usize>, BenchError> {
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        check_unique(&names)?;
        for group in self.options.keys() {
            if !names.iter().any(|n| n.starts_with(&format!("{group}/"))) {
                eprintln!("plumb-bench: warning: group {group:?} has no benchmarks");
            }
        }
        select(&names, &self.args.filters, self.args.regex)
    }

    /// Pins, characterises the clock, reads the machine record and the allocator, and
    /// sets up sampling.
    fn prepare(
        &self,
        test_mode: bool,
        stop: Arc<AtomicBool>,
    ) -> Result<(Context, plumb_model::ClockInfo, plumb_model::Environment), BenchError> {
        // The machine record (a few dozen small files from /proc and /sys) is read on
        // another thread while the clock is characterised; it is needed only at the end.
        // Spawned before pinning (so it does not share the pinned CPU) and joined before
        // the first benchmark (so it neither runs during samples nor allocates into the
        // counters).
        let environment_thread = (!test_mode).then(|| std::thread::spawn(plumb_env::collect));
        // With launches, only they are pinned: the parent waits, and its stop watcher
        // should not share the measuring CPU.
        if let Some(cpu) = self.args.pin.filter(|_| !self.launching(test_mode)) {
            pin_to(cpu)?;
        }
        let clock = make_clock(self.args.clock)?;
        let clock_info = clock.info();
        let environment = environment_thread
            .and_then(|h| h.join().ok())
            .unwrap_or_default();
        // Samples last at least 1000 clock reads and 1000 resolution steps, so neither
        // shifts a per-op figure by more than 0.1 %.
        let slowest = clock_info.resolution.max(clock_info.read_cost);
        let min_sample = Duration::from_secs_f64(1000.0 * slowest.as_secs_f64());
        let ctx = Context {
            clock,
            sampling: sampling(&self.args, min_sample, stop),
            count_allocations: alloc::installed(),
            counters: (self.args.counters.is_some() && !test_mode)
                .then(plumb_counters::CounterProbe::open)
                .flatten(),
            test_mode,
            untimed: None,
        };
        Ok((ctx, clock_info, environment))
    }

    /// The chosen benchmarks in `--launches` fresh processes.
    fn measure_in_launches(
        &self,
        chosen: &[usize],
        stop: &AtomicBool,
    ) -> Result<Vec<Benchmark>, BenchError> {
        // Checked here too: `with_args` takes its options without parsing them.
        self.args.check_launches().map_err(BenchError::Args)?;
        let entries: Vec<&Entry<'_>> = chosen.iter().map(|&i| &self.entries[i]).collect();
        let progress = !self.args.quiet;
        let out = crate::launches::measure(&self.args, &entries, stop, progress)?;
        if progress {
            for b in &out {
                if let Some(why) = b.function().and_then(|f| f.failure.as_deref()) {
                    eprintln!("  {} FAILED: {why}", b.name);
                }
            }
        }
        Ok(out)
    }

    /// Each chosen benchmark in this process; `None` in test mode (each ran once).
    fn measure_here(
        &mut self,
        ctx: &Context,
        chosen: &[usize],
        test_mode: bool,
    ) -> Result<Option<Vec<Benchmark>>, BenchError> {
        let quiet = self.args.quiet || test_mode;
        let mut ran = Vec::new();
        for &i in chosen {
            if ctx.sampling.stop.load(Ordering::Relaxed) {
                break;
            }
            let entry = &mut self.entries[i];
            if !quiet {
                eprint!("  {} … ", entry.full_name);
            }
            let r = run_one(ctx, entry);
            let said = match &r.outcome {
                BenchOutcome::Measured(_) if test_mode => "ok".to_string(),
                BenchOutcome::Measured(_) => "done".to_string(),
                BenchOutcome::Failed(e) => format!("FAILED: {e}"),
            };
            if test_mode {
                // A closed stdout ends the listing, never in a panic.
                plumb_report::targets::print_stdout(&format!("{} ... {said}\n", entry.full_name))?;
            } else if !quiet {
                eprintln!("{said}");
            }
            ran.push((i, r));
        }
        if test_mode {
            let failed = ran
                .iter()
                .filter(|(_, r)| matches!(r.outcome, BenchOutcome::Failed(_)))
                .count();
            return if failed == 0 {
                Ok(None)
            } else {
                Err(BenchError::Failed(failed))
            };
        }
        Ok(Some(
            ran.into_iter()
                .map(|(i, r)| document::benchmark(&self.args, &self.entries[i], r))
                .collect(),
        ))
    }
}

/// How long and how to sample, from the options and the clock's shortest sample.
fn sampling(args: &Args, min_sample: Duration, stop: Arc<AtomicBool>) -> SamplingConfig {
    SamplingConfig {
        sample_count: args.sample_count,
        min_samples: min_samples(args),
        min_sample,
        measure: args.measure_time.to_std(),
        warmup: if args.warmup {
            Warmup::Steady {
                tolerance: 0.02,
                cap: args.warmup_cap.to_std(),
            }
        } else {
            Warmup::None
        },
        window: args.warmup_window,
        max_batch: 1 << 40,
        delta: args.delta,
        // The measured time may grow to the cap, never shrink below --measure-time.
        precision: args.target_error.map(|target| Precision {
            target: target.get(),
            level: args.confidence.get(),
            max_measure: args.max_measure_time.max(args.measure_time).to_std(),
        }),
        stop,
    }
}

/// Enough samples for the median's interval at the run's confidence (11 at 99.9 %); a
/// launch child takes its share of them (at least 2), so that a slow routine's launches
/// together take what one process would.
fn min_samples(args: &Args) -> usize {
    let needed = plumb_stats::samples_needed(args.confidence.get()).max(10);
    let share = if args.launch_child {
        needed.div_ceil(args.launches.max(1)).max(2)
    } else {
        needed
    };
    share.min(args.sample_count)
}

/// The clock, the sample length it allows, the allocator, and what will run.
fn announce(clock: &plumb_model::ClockInfo, ctx: &Context, chosen: &[usize], names: &[String]) {
    eprintln!(
        "clock: {} (resolution {}, read {}) → samples of ≥ {}; allocations {}",
        clock.name,
        plumb_model::format::time(clock.resolution),
        plumb_model::format::time(clock.read_cost),
        plumb_model::format::time(ctx.sampling.min_sample),
        if ctx.count_allocations {
            "counted"
        } else {
            "not counted (install plumb_bench::CountingAllocator)"
        }
    );
    eprintln!("running {} of {} benchmarks:", chosen.len(), names.len());
    for &i in chosen {
        eprintln!("  {}", names[i]);
    }
}

fn run_one(ctx: &Context, entry: &mut Entry<'_>) -> Ran {
    let mut b = Bencher::new(ctx);
    let result = catch_unwind(AssertUnwindSafe(|| (entry.routine)(&mut b)));
    let outcome = match result {
        Err(panic) => BenchOutcome::Failed(format!("panicked: {}", panic_message(&*panic))),
        Ok(()) => match b.measured.take() {
            Some(m) => BenchOutcome::Measured(Box::new(m)),
            None if ctx.test_mode => BenchOutcome::Measured(Box::new(Measured {
                sampled: crate::sampler::Sampled {
                    batch: 1,
                    samples: vec![],
                    warmup: vec![],
                    steady: false,
                    warmup_elapsed: Duration::ZERO,
                    window_means: vec![],
                    empty_per_iter: vec![],
                    delta_halves: vec![],
                    extra: vec![],
                    precision: None,
                },
                ops_per_iter: 1,
                allocations_counted: false,
                counters: Vec::new(),
                warmup: false,
            })),
            None => BenchOutcome::Failed(
                "the benchmark never called iter, iter_checked or iter_batched".into(),
            ),
        },
    };
    Ran {
        outcome,
        result: b.result.take(),
        working_set: b.working_set,
        design: b.design.take(),
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "non-string panic".to_string())
}

fn check_unique(names: &[&str]) -> Result<(), BenchError> {
    let mut seen = std::collections::BTreeSet::new();
    for n in names {
        if !seen.insert(*n) {
            return Err(BenchError::DuplicateName(n.to_string()));
        }
    }
    Ok(())
}

fn make_clock(choice: ClockChoice) -> Result<Clock, BenchError> {
    match choice {
        ClockChoice::Monotonic => Ok(Clock::Monotonic(Monotonic::new())),
        #[cfg(target_arch = "x86_64")]
        ClockChoice::Tsc => crate::clock::Tsc::new(Duration::from_millis(100))
            .map(Clock::Tsc)
            .ok_or(BenchError::NoTsc),
        #[cfg(not(target_arch = "x86_64"))]
        ClockChoice::Tsc => Err(BenchError::NoTsc),
    }
}

fn pin_to(cpu: usize) -> Result<(), BenchError> {
    // SAFETY: cpu_set_t is plain data; CPU_SET writes within it for cpu < CPU_SETSIZE.
    unsafe {
        if cpu >= libc::CPU_SETSIZE as usize {
            return Err(BenchError::Pin {
                cpu,
                why: "no such CPU".into(),
            });
        }
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(BenchError::Pin {
                cpu,
                why: std::io::Error::last_os_error().to_string(),
            });
        }
    }
    Ok(())
}

/// A debug build's numbers describe a debug build: said before measuring.
fn warn_if_debug(bench: bool) {
    if cfg!(debug_assertions) && bench {
        eprintln!(
            "plumb-bench: WARNING: this bench binary was built without optimisations (debug \
             assertions are on). Its numbers describe a debug build; run `cargo bench`, or \
             build with --release."
        );
    }
}
