//! The progress bar of `plumb run` on stderr: warm-up, measured rounds, and long simulations.
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use plumb_command::Progress;
use std::io::IsTerminal;

/// A simulation long enough to announce even when stderr is not a terminal.
const LONG_SIMULATION_SECS: u64 = 5;

/// A progress bar on stderr; drawn only when stderr is a terminal.
pub struct Bar {
    bar: ProgressBar,
    commands: u64,
}

impl Bar {
    /// A bar on stderr when `wanted` (no --no-progress) and stderr is a terminal.
    pub fn new(commands: usize, wanted: bool) -> Self {
        let bar = ProgressBar::with_draw_target(
            Some(0),
            if wanted && std::io::stderr().is_terminal() {
                ProgressDrawTarget::stderr()
            } else {
                ProgressDrawTarget::hidden()
            },
        );
        bar.set_style(
            ProgressStyle::with_template(
                "{msg:>10} [{bar:30}] {pos}/{len} rounds of {prefix} command(s) ({elapsed})",
            )
            .expect("static template")
            .progress_chars("=> "),
        );
        bar.set_prefix(commands.to_string());
        Bar {
            bar,
            commands: commands as u64,
        }
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Progress for Bar {
    fn warmup_started(&mut self, rounds: u64) {
        self.bar.set_message("warm-up");
        self.bar.set_length(rounds * self.commands);
    }
    fn warmup_run(&mut self) {
        self.bar.inc(1);
    }
    fn measuring_started(&mut self, planned_rounds: u64) {
        self.bar.set_message("measuring");
        self.bar.set_position(0);
        self.bar.set_length(planned_rounds * self.commands);
    }
    fn round_done(&mut self, done: u64, planned: u64) {
        self.bar.set_length(planned * self.commands);
        self.bar.set_position(done * self.commands);
    }
    /// Said on the terminal for every simulation, elsewhere only for long ones.
    fn simulating(&mut self, name: &str, estimate: std::time::Duration) {
        let line = format!(
            "plumb: simulating {name:?} under cachegrind (about {}; Ctrl-C keeps the timed results)",
            plumb_model::format::time(estimate.max(std::time::Duration::from_secs(1)))
        );
        if self.bar.is_hidden() {
            if estimate.as_secs() >= LONG_SIMULATION_SECS {
                eprintln!("{line}");
            }
        } else {
            self.bar.set_message("simulating");
            self.bar.println(line);
        }
    }
}
