//! `plumb profile`'s options that say what to sample and how (feature `cli`), declared
//! beside the plan they make: the command or one benchmark's loop, the event, the
//! frequency, the unwinding.
use crate::{Asked, Unwinding, DEFAULT_FREQUENCY_HZ};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::Args;
use plumb_model::quantity::Duration;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ProfileOptions {
    /// The command, after `--` (with --bench: a plumb-bench target binary).
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
    /// Profile only this benchmark's measured loop (its setup and the harness left out).
    #[arg(long, value_name = "NAME")]
    pub bench: Option<String>,
    /// With --bench: how long the measured loop runs under perf.
    #[arg(long, default_value = "3s", value_name = "TIME")]
    pub bench_time: Duration,
    /// The perf event to sample: auto (cycles where the CPU counts them, cpu-clock where
    /// it does not), or any event perf knows.
    #[arg(long, default_value = "auto", value_name = "EVENT")]
    pub event: String,
    /// Samples per second.
    #[arg(short = 'F', long, default_value_t = DEFAULT_FREQUENCY_HZ, value_name = "HZ", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub frequency: u32,
    /// How perf walks the stack: fp (the frame-pointer chain), dwarf (DWARF unwinding of
    /// a copy of the stack), or auto (frame pointers where the binary keeps them, DWARF
    /// where it does not).
    #[arg(long, default_value = "auto", value_parser = unwinding())]
    pub call_graph: Unwinding,
}

impl ProfileOptions {
    /// What the options ask, perf.data going to `data`.
    pub fn asked(&self, data: PathBuf) -> Asked<'_> {
        Asked {
            command: &self.command,
            event: &self.event,
            frequency_hz: self.frequency,
            unwinding: self.call_graph,
            bench: self.bench.as_deref(),
            bench_time: self.bench_time,
            data,
        }
    }
}

/// `--call-graph`'s values.
fn unwinding() -> impl TypedValueParser<Value = Unwinding> {
    let ways = PossibleValuesParser::new(["auto", "fp", "dwarf"]);
    ways.map(|w| match w.as_str() {
        "fp" => Unwinding::FramePointers,
        "dwarf" => Unwinding::Dwarf,
        _ => Unwinding::Auto,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Line {
        #[command(flatten)]
        profile: ProfileOptions,
    }

    fn unwinding_of(way: &str) -> Result<Unwinding, clap::Error> {
        Line::try_parse_from(["profile", "--call-graph", way]).map(|l| l.profile.call_graph)
    }

    #[test]
    fn each_way_of_walking_the_stack_is_its_own_and_others_are_refused() {
        assert_eq!(unwinding_of("fp").unwrap(), Unwinding::FramePointers);
        assert_eq!(unwinding_of("dwarf").unwrap(), Unwinding::Dwarf);
        assert_eq!(unwinding_of("auto").unwrap(), Unwinding::Auto);
        assert!(unwinding_of("lbr").is_err());
        let line = Line::try_parse_from(["profile", "--", "./app", "-x"]).unwrap();
        let asked = line.profile.asked("perf.data".into());
        assert_eq!(asked.command, ["./app", "-x"]);
        assert_eq!(asked.frequency_hz, DEFAULT_FREQUENCY_HZ);
    }
}
