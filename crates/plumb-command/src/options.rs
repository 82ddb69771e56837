//! `plumb run`'s options that make its plan, declared once beside `plan_of` (feature
//! `cli`): the commands, their names and preparation, how many runs, their order, the
//! parameters and the shell; and whether to measure until the verdict settles.
use crate::{
    plan_of, Asked, Order, OutputPolicy, Parameter, PlanError, RunCount, RunPlan, UntilSettled,
};
use clap::{Args, ValueEnum};
use plumb_model::quantity::{parse_count, Duration};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OrderArg {
    /// A fresh random order of the commands in every round.
    Shuffle,
    /// Rotate the starting command each round.
    RoundRobin,
}

#[derive(Debug, Args)]
pub struct RunOptions {
    /// Commands to benchmark, run directly (not through a shell) unless --shell is given.
    #[arg(required = true, value_name = "COMMAND")]
    pub commands: Vec<String>,

    /// Warm-up runs of each command before measuring.
    #[arg(short, long, default_value = "3", value_name = "N", value_parser = |s: &str| parse_count(s, 0), allow_negative_numbers = true)]
    pub warmup: u64,

    /// Exactly N measured runs of each command (overrides the min/max settings).
    #[arg(short, long, value_name = "N", value_parser = |s: &str| parse_count(s, 1), allow_negative_numbers = true)]
    pub runs: Option<u64>,

    /// At least N measured runs of each command (11 by default: the fewest whose median
    /// has an interval at 99.9 %).
    #[arg(short = 'm', long, default_value = "11", value_name = "N", value_parser = |s: &str| parse_count(s, 1), allow_negative_numbers = true)]
    pub min_runs: u64,

    /// At most N measured runs of each command.
    #[arg(short = 'M', long, value_name = "N", value_parser = |s: &str| parse_count(s, 1), allow_negative_numbers = true)]
    pub max_runs: Option<u64>,

    /// Measure each command for at least this long in total (e.g. 3s, 500ms).
    #[arg(long, default_value = "3s", value_name = "TIME")]
    pub min_time: Duration,

    /// Stop measuring a command after this long in total.
    #[arg(long, value_name = "TIME")]
    pub max_time: Option<Duration>,

    /// Run before every timed run (through sh -c). Give once for all commands or once per command.
    #[arg(short, long, value_name = "CMD")]
    pub prepare: Vec<String>,

    /// Run once after a command's last run (through sh -c). Once for all, or once per command.
    #[arg(short, long, value_name = "CMD")]
    pub cleanup: Vec<String>,

    /// Run commands through a shell: --shell for sh, --shell=bash for another. Its start-up
    /// time is measured in the same rounds and subtracted.
    #[arg(short = 'S', long, value_name = "SHELL", num_args = 0..=1, require_equals = true, default_missing_value = "sh")]
    pub shell: Option<String>,

    /// Name of a command in the report, in the order of the commands.
    #[arg(short = 'n', long = "name", value_name = "NAME")]
    pub names: Vec<String>,

    /// The baseline the others are compared with: a name or a 1-based position (default: the first).
    #[arg(long, value_name = "NAME|N")]
    pub baseline: Option<String>,

    /// Order of commands within each round.
    #[arg(long, value_enum, default_value_t = OrderArg::Shuffle)]
    pub order: OrderArg,

    /// Seed for --order shuffle (recorded in the result, so a run can be replayed).
    #[arg(long, value_name = "N", value_parser = |s: &str| parse_count(s, 0))]
    pub seed: Option<u64>,

    /// Scan a numeric parameter: {NAME} in commands takes LO, LO+STEP, … HI.
    #[arg(short = 'P', long, num_args = 3, value_names = ["NAME", "LO", "HI"], allow_negative_numbers = true)]
    pub parameter_scan: Vec<String>,

    /// Step of --parameter-scan.
    #[arg(
        short = 'D',
        long,
        default_value_t = 1.0,
        value_name = "STEP",
        allow_negative_numbers = true
    )]
    pub parameter_step_size: f64,

    /// A parameter over a list: {NAME} takes each comma-separated value.
    #[arg(short = 'L', long, num_args = 2, value_names = ["NAME", "VALUES"])]
    pub parameter_list: Vec<String>,

    /// Keep measuring commands that exit non-zero (their exit codes are recorded).
    #[arg(short, long)]
    pub ignore_failure: bool,

    /// How many operations (elements, requests…) one run of each command performs, e.g.
    /// 1000000 or a parameter, {n}: every figure (time, counters) is then also given per
    /// operation.
    #[arg(long, value_name = "N")]
    pub operations: Option<String>,

    /// The bytes one run touches, e.g. 64K, 8MiB, or a parameter, {size}: a sweep over it
    /// is shown against this machine's caches, with the size where time per operation
    /// jumps. A parameter named size or bytes whose values are sizes is taken by itself.
    #[arg(long, value_name = "BYTES")]
    pub working_set: Option<String>,

    /// Where the commands' standard output goes: null, inherit, or a file path.
    #[arg(long, default_value = "null", value_name = "WHERE")]
    pub output: String,

    /// With two commands: add interleaved rounds until the verdict settles (slower, faster
    /// or equivalent), with plumb revs' group-sequential design (its error rates held over
    /// every look), up to --max-rounds or --max-time; unknown if not settled by then.
    #[arg(long, conflicts_with_all = ["runs", "min_runs", "max_runs", "min_time"])]
    pub until_settled: bool,

    /// The cap in rounds of --until-settled: looks at round 10, then every 5, up to this.
    #[arg(long, default_value = "60", value_name = "N", requires = "until_settled", value_parser = |s: &str| parse_count(s, 2), allow_negative_numbers = true)]
    pub max_rounds: u64,

    /// Runs of each command per round with --until-settled (default: enough that a round
    /// of the slower takes 300 ms, between 5 and 50, from one trial run of each).
    #[arg(long, value_name = "N", requires = "until_settled", value_parser = |s: &str| parse_count(s, 1), allow_negative_numbers = true)]
    pub runs_per_round: Option<u64>,

    /// How each pair of the two commands' runs is made with --until-settled, as plumb
    /// revs' --pairing: auto (a duet, both at once on two CPUs, where it can be), duet,
    /// or interleaved.
    #[arg(long, value_enum, default_value = "auto", value_name = "HOW")]
    pub pairing: crate::PairingAsked,
}

impl RunOptions {
    /// The plan and its baseline's index; the shuffle seeded from `--seed`, else the clock.
    pub fn plan(&self) -> Result<(RunPlan, usize), PlanError> {
        let (plan, baseline) = plan_of(self.asked()?)?;
        if self.until_settled {
            crate::check_until_settled(&plan)?;
        }
        Ok((plan, baseline))
    }

    /// `--until-settled`'s rounds, when asked.
    pub fn until_settled(&self) -> Option<UntilSettled> {
        self.until_settled.then_some(UntilSettled {
            max_rounds: self.max_rounds,
            runs_per_round: self.runs_per_round,
            max_time: self.max_time,
            pairing: self.pairing,
        })
    }

    fn asked(&self) -> Result<Asked, PlanError> {
        Ok(Asked {
            commands: self.commands.clone(),
            names: self.names.clone(),
            prepare: self.prepare.clone(),
            cleanup: self.cleanup.clone(),
            operations: self.operations.clone(),
            working_set: self.working_set.clone(),
            parameters: self.parameters()?,
            shape: RunPlan {
                commands: Vec::new(),
                shell: self.shell.clone(),
                warmup: self.warmup,
                runs: match self.runs {
                    Some(r) => RunCount::Fixed(r),
                    None => RunCount::Adaptive {
                        min_runs: self.min_runs,
                        max_runs: self.max_runs,
                        min_time: self.min_time.to_std(),
                        max_time: self.max_time.map(|t| t.to_std()),
                    },
                },
                order: match self.order {
                    OrderArg::Shuffle => Order::Shuffle {
                        seed: self.seed.unwrap_or_else(clock_seed),
                    },
                    OrderArg::RoundRobin => Order::RoundRobin,
                },
                output: match self.output.as_str() {
                    "null" => OutputPolicy::Discard,
                    "inherit" => OutputPolicy::Inherit,
                    path => OutputPolicy::File(path.into()),
                },
                ignore_failure: self.ignore_failure,
                counters: false,
                simulation: None,
            },
            baseline: self.baseline.clone(),
        })
    }

    /// `-P NAME LO HI` scans and `-L NAME a,b,c` lists, in the order given by kind.
    fn parameters(&self) -> Result<Vec<Parameter>, PlanError> {
        let step = self.parameter_step_size;
        let scans = (self.parameter_scan.chunks(3))
            .map(|c| Parameter::scan(&c[0], &c[1], &c[2], step).map_err(PlanError::Parameters));
        let lists = (self.parameter_list.chunks(2)).map(|c| Ok(Parameter::list(&c[0], &c[1])));
        scans.chain(lists).collect()
    }
}

/// A seed that differs between runs, for a shuffle nobody seeded (recorded with the
/// result, so the run can be replayed).
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Line {
        #[command(flatten)]
        run: RunOptions,
    }

    fn plan(args: &[&str]) -> Result<(RunPlan, usize), PlanError> {
        let line = std::iter::once("run").chain(args.iter().copied());
        Line::try_parse_from(line).unwrap().run.plan()
    }

    #[test]
    fn a_scan_and_a_list_expand_each_command_and_the_baseline_is_named() {
        let (p, baseline) = plan(&[
            "a {n} {x}",
            "-P",
            "n",
            "1",
            "3",
            "-L",
            "x",
            "p,q",
            "--baseline",
            "2",
            "--seed",
            "7",
        ])
        .unwrap();
        assert_eq!(p.commands.len(), 6);
        assert_eq!(p.commands[0].command, "a 1 p");
        assert_eq!(baseline, 1);
        assert!(matches!(p.order, Order::Shuffle { seed: 7 }));
    }

    #[test]
    fn fixed_runs_override_the_adaptive_bounds_and_output_goes_where_told() {
        let (p, _) = plan(&["true", "--runs", "5", "--output", "inherit"]).unwrap();
        assert!(matches!(p.runs, RunCount::Fixed(5)));
        assert!(matches!(p.output, OutputPolicy::Inherit));
        let (p, _) = plan(&["true", "--output", "out.txt", "--order", "round-robin"]).unwrap();
        assert!(matches!(p.output, OutputPolicy::File(_)));
        assert!(matches!(p.order, Order::RoundRobin));
    }

    #[test]
    fn a_scan_that_is_not_a_number_and_extra_names_are_refused() {
        let e = plan(&["a {n}", "-P", "n", "1", "x"]).err().unwrap();
        assert!(matches!(e, PlanError::Parameters(_)), "{e}");
        let e = plan(&["a", "-n", "one", "-n", "two"]).err().unwrap();
        assert!(matches!(
            e,
            PlanError::ExtraNames {
                names: 2,
                commands: 1
            }
        ));
    }
}
