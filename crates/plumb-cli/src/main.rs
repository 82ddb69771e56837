//! `plumb`: parse, dispatch, map the outcome to an exit code. Nothing else lives here.

use plumb_cli::args;

mod amdahl_cmd;
mod compare_cmd;
mod completions_cmd;
mod coordinate_cmd;
mod deploy_k8s;
mod design_cmd;
mod env_cmd;
mod exit;
mod export;
mod history_changes;
mod history_cmd;
mod history_confirm;
mod history_report;
mod history_show;
mod load_cmd;
mod merge_cmd;
mod profile_cmd;
mod profile_diff_cmd;
mod progress;
mod report_cmd;
mod results_in;
mod revs_cmd;
mod run_cmd;
mod session;
mod show_cmd;
mod simulate_cmd;
mod store;

fn main() {
    let cli = args::parse();
    match cli.color {
        args::ColorArg::Always => plumb_report::set_colors(true),
        args::ColorArg::Never => plumb_report::set_colors(false),
        args::ColorArg::Auto => {}
    }
    let result = match cli.command {
        args::Command::Run(a) => run_cmd::run(*a),
        args::Command::Compare(a) => compare_cmd::run(a),
        args::Command::Env(a) => env_cmd::run(a),
        args::Command::Show(a) => show_cmd::run(a),
        args::Command::Report(a) => report_cmd::run(a),
        args::Command::Completions(a) => completions_cmd::completions(a),
        args::Command::Man => completions_cmd::man(),
        args::Command::Simulate(a) => simulate_cmd::run(a),
        args::Command::Load(a) => load_cmd::run(*a),
        args::Command::Merge(a) => merge_cmd::run(a),
        args::Command::Coordinate(a) => coordinate_cmd::run(*a),
        args::Command::Profile(a) => profile_cmd::run(*a),
        args::Command::Amdahl(a) => amdahl_cmd::run(a),
        args::Command::History(a) => history_cmd::run(a),
        args::Command::Revs(a) => revs_cmd::run(*a),
        args::Command::Design(a) => design_cmd::run(a),
    };
    std::process::exit(exit::report(result));
}
