//! The command line parsed as `plumb` parses it (plumb-cli's library target), without
//! running anything: values that start with '-', change names, the rounds' caps.
use plumb_cli::args::{try_parse_from, Command, HistoryCommand};

fn parsed(line: &[&str]) -> Command {
    let mut args = vec!["plumb"];
    args.extend(line);
    match try_parse_from(args) {
        Ok(cli) => cli.command,
        Err(e) => panic!("{line:?} did not parse: {e}"),
    }
}

fn refused(line: &[&str]) -> String {
    let mut args = vec!["plumb"];
    args.extend(line);
    match try_parse_from(args) {
        Ok(cli) => panic!("{line:?} parsed as {:?}", cli.command),
        Err(e) => e.to_string(),
    }
}

/// Every relation between options (requires, conflicts) names an option of its own
/// subcommand, also where the producers' options are flattened in.
#[test]
fn every_subcommand_is_a_consistent_command_line() {
    use clap::CommandFactory;
    plumb_cli::args::Cli::command().debug_assert();
}

#[test]
fn a_value_that_starts_with_a_dash_reaches_its_own_parser() {
    let said = refused(&["run", "--sesoi", "-2%", "true"]);
    assert!(said.contains("--sesoi"), "{said}");
    assert!(!said.contains("unexpected argument"), "{said}");
    let said = refused(&["load", "http://127.0.0.1:1/", "--rate", "-5"]);
    assert!(said.contains("--rate"), "{said}");
    assert!(!said.contains("unexpected argument"), "{said}");
}

#[test]
fn a_change_is_named_series_at_run() {
    let Command::History(h) = parsed(&["history", "ack", "3@41"]) else {
        panic!("not history")
    };
    let HistoryCommand::Ack(a) = h.command else {
        panic!("not ack")
    };
    assert_eq!(a.change, (3, 41));
    let said = refused(&["history", "confirm", "3-41"]);
    assert!(said.contains("SERIES@RUN"), "{said}");
}

#[test]
fn revs_takes_its_command_after_the_dashes_and_its_caps() {
    let Command::Revs(r) = parsed(&[
        "revs",
        "main",
        "--max-rounds",
        "20",
        "--",
        "./target/release/x",
        "--fast",
    ]) else {
        panic!("not revs")
    };
    assert_eq!(r.base, "main");
    assert_eq!(r.new, None);
    assert_eq!(r.command, ["./target/release/x", "--fast"]);
    let rounds = r.rounds;
    assert_eq!(rounds.max_rounds, 20);
    assert_eq!(rounds.warmup, 3);
    assert!(refused(&["revs", "main", "--max-rounds", "1", "--", "x"]).contains("--max-rounds"));
}
