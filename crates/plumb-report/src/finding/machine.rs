//! Words of the findings about the machine, and about two results compared: each noise
//! source with the command that fixes it, in the spirit of `pyperf system show`.
use super::Words;
use plumb_model::finding::{
    Aslr, AssumedDrift, BestCaseAgrees, BusyMachine, ClockSource, CpuGovernor,
    DifferentFrequencyPolicy, DifferentLoad, DifferentMachine, MachineField, NotPinned,
    PairedByElimination, SeparateRuns, UnlikeRecentRuns, Virtualized,
};
use plumb_model::format;

pub fn governor(x: &CpuGovernor) -> Words {
    let not_performance: Vec<&str> = x
        .governors
        .iter()
        .map(String::as_str)
        .filter(|g| *g != "performance")
        .collect();
    Words::new(format!(
        "CPU frequency governor is {}: the clock speed changes with load",
        not_performance.join(", ")
    ))
    .advice("sudo cpupower frequency-set --governor performance")
}

pub fn turbo() -> Words {
    Words::new("turbo boost is on: the clock speed depends on temperature and on other cores")
        .advice("echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo   # or: echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost")
}

pub fn busy(x: &BusyMachine) -> Words {
    Words::new(format!(
        "load average {:.2} on {} threads: other work competes for the CPU",
        x.load, x.threads
    ))
    .advice("find it with: top -o %CPU")
}

pub fn virtualized(x: &Virtualized) -> Words {
    Words::new(format!("running under virtualisation ({}): steal time and neighbours add noise, and hardware counters may be missing", x.virtualization))
        .advice("compare only results from the same machine type; prefer bare metal for small effects")
}

pub fn clock_source(x: &ClockSource) -> Words {
    Words::new(format!("the kernel clock source is {}, not tsc: reading the clock costs more and resolves less", x.clock_source))
        .advice("echo tsc | sudo tee /sys/devices/system/clocksource/clocksource0/current_clocksource   # if tsc is listed in available_clocksource")
}

pub fn smt() -> Words {
    Words::new("SMT (hyper-threading) is on: a sibling thread shares the core's caches and ports")
        .advice("echo off | sudo tee /sys/devices/system/cpu/smt/control")
}

pub fn not_pinned(x: &NotPinned) -> Words {
    let cpus: Vec<String> = x.affinity.iter().map(usize::to_string).collect();
    Words::new(
        "no CPUs are isolated and the benchmark may run on any CPU: the scheduler can migrate it",
    )
    .details(format!("allowed CPUs {}", cpus.join(", ")))
    .advice("pin: taskset -c 1 plumb …; isolate: boot with isolcpus=1 nohz_full=1")
}

pub fn aslr(x: &Aslr) -> Words {
    Words::new("address-space layout randomisation is on: layout differs run to run (plumb's many runs average over it; that is usually what you want)")
        .details(format!("randomize_va_space = {}", x.randomize_va_space))
        .advice("to rule layout out: echo 0 | sudo tee /proc/sys/kernel/randomize_va_space")
}

pub fn different_machine(x: &DifferentMachine) -> Words {
    let what = match x.field {
        MachineField::Host => "host",
        MachineField::Cpu => "CPU",
        MachineField::Kernel => "kernel",
        MachineField::Virtualization => "virtualisation",
    };
    let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "none".into());
    Words::new(format!(
        "the {what} differs: {} vs {}",
        show(&x.base),
        show(&x.new)
    ))
    .advice("a verdict across machines says as much about the machines as the code")
}

pub fn different_policy(x: &DifferentFrequencyPolicy) -> Words {
    Words::new(format!(
        "CPU frequency settings differ (governor {:?} vs {:?}, turbo {:?} vs {:?})",
        x.base_governors, x.new_governors, x.base_turbo, x.new_turbo
    ))
    .advice("fix the governor and turbo before both runs (plumb env)")
}

pub fn different_load(x: &DifferentLoad) -> Words {
    Words::new(format!(
        "the machine was busier in one run: load average {:.2} vs {:.2} on {} threads",
        x.base, x.new, x.threads
    ))
    .advice("separate runs see separate conditions; `plumb run A B` interleaves them and cancels this out")
}

pub fn best_case_agrees(x: &BestCaseAgrees) -> Words {
    Words::new(format!(
        "{}: the means differ (×{:.3}) but the fastest samples agree (×{:.3}): the runs differ in how often they were slow, which may be the machine's state in each run rather than the code",
        x.benchmark, x.mean_ratio, x.min_ratio
    ))
    .advice("measure both versions in one run (variants of one group share the machine's state far more closely than separate runs), or measure longer; a slow path the new code takes more often looks the same, so look at the tail")
}

pub fn paired_by_elimination(x: &PairedByElimination) -> Words {
    Words::new(format!(
        "compared {:?} with {:?}: the only benchmark of each result, under different names",
        x.base, x.new
    ))
    .advice("name the pairs with --pair OLD=NEW when the results hold more than one")
}

pub fn unlike_recent_runs(x: &UnlikeRecentRuns) -> Words {
    Words::new(format!(
        "{}: this run's mean is {} from its last {} runs on this machine (since {}; they drift ±{} between runs): the machine's state or the code changed, and the interval between runs does not hold for this run",
        x.benchmark,
        format::signed_percent(x.shift),
        x.runs,
        x.since,
        format::percent(x.noise)
    ))
    .advice("run it again: a machine's spell passes, a change of the code stays (`plumb history changes` finds where it began)")
}

/// "; so `parse` is slower only if the runs drifted apart by less than ±5.4 %, …".
fn assumes(assumed: &[AssumedDrift]) -> String {
    let each: Vec<String> = assumed
        .iter()
        .map(|a| {
            format!(
                "{} is {} only while a run's mean drifts by less than ±{} between runs",
                a.benchmark,
                a.verdict,
                format::percent(a.drift)
            )
        })
        .collect();
    if each.is_empty() {
        String::new()
    } else {
        format!(": {}", each.join("; "))
    }
}

pub fn separate_runs(x: &SeparateRuns) -> Words {
    let machine = |m: &[String]| {
        if m.is_empty() {
            String::new()
        } else {
            format!("; machine findings of the runs: {}", m.join(", "))
        }
    };
    match x {
        SeparateRuns::Measured {
            benchmark,
            noise,
            points,
            since,
            interval_within,
            verdict_within,
            machine: m,
        } => {
            let within = interval_within.map_or("-".to_string(), |i| {
                format!("[{}, {}]", format::factor(i.lo), format::factor(i.hi))
            });
            Words::new(format!(
                "{benchmark}: separate runs; between runs its mean moves by ±{} on this machine (history: {points} runs since {since}, no change among them), so the ratio's interval is widened from {within} ({}) by it{}",
                format::percent(*noise),
                verdict_within,
                machine(m)
            ))
            .advice("`plumb run A B` interleaves both in one run and cancels what drifts between runs")
        }
        SeparateRuns::Unmeasured {
            machine: m,
            assumed,
        } => Words::new(format!(
            "separate runs: each interval sees only its own run's noise, not the drift between runs, which no history here has measured{}{}",
            assumes(assumed),
            machine(m)
        ))
        .advice("keep results with `--save` (plumb history) so that compare can measure it, or compare in one interleaved run: `plumb run A B`"),
    }
}
