//! `plumb history confirm` and `history changes --confirm` end to end: histories whose
//! results sit at the commits of a repository the test makes (a program 5 % slower from
//! one commit of 20, results missing for a few commits around it, as when CI skipped
//! them): the change confirmed and bisected to exactly that commit, around a commit that
//! does not build; a step only in the history rejected; noise with one slow point
//! confirming nothing; a command only the store recorded refused unless trusted. The
//! re-runs are fake (`--debug-fake-runs -- cat speed`: each commit's time as its `speed`
//! file says), so the verdicts never depend on the clock; bench/revs.sh times real ones.
mod common;

use common::git_fixture::{have_cc, repo_with, Version, BUILD, FAKE};
use common::history::{result, result_at, sqlite_value};
use common::Env;
use std::path::Path;

/// Results at commits 0..=9 and 14..=19 of `commits` (none for 10..=13), their level
/// `level(i)` ns, each with the benchmark's command recorded as `./prog`; kept in the
/// repository's default store.
fn history(env: &Env, dir: &Path, commits: &[String], level: impl Fn(usize) -> f64) {
    for i in (0..=9).chain(14..=19) {
        let file = result(env, &format!("r{i}.json"), "prog", level(i), i as u64 + 1);
        let mut doc = common::read_doc(&file);
        doc.benchmarks[0].set_command("./prog");
        std::fs::write(&file, doc.to_json()).unwrap();
        env.plumb_in(
            dir,
            &[
                "history",
                "add",
                file.to_str().unwrap(),
                "--commit",
                &commits[i],
            ],
        )
        .assert_code(0);
    }
}

/// The fixture of a 5 % step: 20 commits, 10 ms to commit 11 and 10.5 ms from 12 on
/// (`broken`, if any, does not build), and the history of `history`; the repository and
/// its commits.
fn five_percent_step(env: &Env, broken: Option<usize>) -> (std::path::PathBuf, Vec<String>) {
    let versions: Vec<Version> = (0..20)
        .map(|i| match i {
            i if Some(i) == broken => Version::Broken,
            i => Version::Sleeps(if i < 12 { 10_000 } else { 10_500 }),
        })
        .collect();
    let (dir, commits) = repo_with(env, "r", &versions, &[]);
    history(env, &dir, &commits, |i| if i < 12 { 10e6 } else { 10.5e6 });
    (dir, commits)
}

/// `history changes --confirm` re-running the fixture's commits (fake runs of their
/// `speed`), four runs a round.
const CONFIRM_CHANGES: [&str; 11] = [
    "history",
    "changes",
    "--confirm",
    "--debug-fake-runs",
    "--build",
    BUILD,
    "--runs-per-round",
    "4",
    "--",
    FAKE[0],
    FAKE[1],
];

fn store(dir: &Path) -> std::path::PathBuf {
    dir.join(".plumb/history.db")
}

#[test]
fn a_five_percent_step_is_confirmed_and_bisected_to_its_commit() {
    if !have_cc() {
        return;
    }
    let env = Env::new();
    let (dir, commits) = five_percent_step(&env, None);
    let run = env.plumb_in(&dir, &CONFIRM_CHANGES);
    run.assert_code(1);
    let culprit = &commits[12][..10];
    assert!(
        run.stderr.contains(&format!("bisected to {culprit}")),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("1 confirmed regression"),
        "{}",
        run.stderr
    );
    let db = store(&dir);
    assert_eq!(sqlite_value(&db, "SELECT status FROM changes"), "confirmed");
    assert_eq!(
        sqlite_value(&db, "SELECT culprit FROM confirmations"),
        commits[12]
    );
    assert_eq!(
        sqlite_value(&db, "SELECT base_sha || ' ' || new_sha FROM confirmations"),
        format!("{} {}", commits[9], commits[14])
    );
    // Confirmed now: a second pass has nothing new to confirm, and says it in the table.
    let again = env.plumb_in(&dir, &["history", "changes", "--confirm", "--", "./prog"]);
    again.assert_code(0);
    assert!(again.stdout.contains("confirmed"), "{}", again.stdout);
}

#[test]
fn a_commit_that_does_not_build_is_stepped_around_with_plumb_toml_commands() {
    if !have_cc() {
        return;
    }
    let env = Env::new();
    let versions: Vec<Version> = (0..20)
        .map(|i| match i {
            12 => Version::Broken,
            i if i < 14 => Version::Sleeps(10_000),
            _ => Version::Sleeps(10_500),
        })
        .collect();
    let toml = format!("[revs]\nbuild = \"{BUILD}\"\n[benchmarks]\nprog = \"cat speed\"\n");
    let (dir, commits) = repo_with(&env, "r", &versions, &[("plumb.toml", &toml)]);
    history(&env, &dir, &commits, |i| if i < 14 { 10e6 } else { 10.5e6 });
    let run = env.plumb_in(
        &dir,
        &[
            "history",
            "confirm",
            "--debug-fake-runs",
            "--runs-per-round",
            "4",
        ],
    );
    run.assert_code(1);
    assert!(
        run.stderr
            .contains(&format!("bisected to {}", &commits[14][..10])),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(&format!(
            "not buildable, stepped around: {}",
            &commits[12][..10]
        )),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("this commit does not build"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_step_only_in_the_history_is_rejected_and_noise_confirms_nothing() {
    if !have_cc() {
        return;
    }
    let env = Env::new();
    let versions = vec![Version::Sleeps(10_000); 20];
    let (dir, commits) = repo_with(&env, "r", &versions, &[]);
    // The history says 5 % slower from commit 14; the program never changed.
    history(&env, &dir, &commits, |i| if i < 14 { 10e6 } else { 10.5e6 });
    let run = env.plumb_in(&dir, &CONFIRM_CHANGES);
    run.assert_code(0);
    assert_eq!(
        sqlite_value(&store(&dir), "SELECT status FROM changes"),
        "rejected"
    );
    assert!(
        !run.stderr.contains("bisected"),
        "a rejected change is not bisected: {}",
        run.stderr
    );

    // Noise with one slow point: nothing to confirm, nothing run.
    let quiet = env.path("q");
    std::fs::create_dir_all(&quiet).unwrap();
    let (qdir, qcommits) = repo_with(&env, "q/r", &versions, &[]);
    for i in (0..=9).chain(14..=19) {
        let level = if i == 16 { 10.5e6 } else { 10e6 };
        let file = result_at(
            &env,
            &format!("q{i}.json"),
            "prog",
            level * (1.0 + 0.01 * plumb_testkit::noise(i as u64, 7)),
            i as u64,
        );
        env.plumb_in(
            &qdir,
            &[
                "history",
                "add",
                file.to_str().unwrap(),
                "--commit",
                &qcommits[i],
            ],
        )
        .assert_code(0);
    }
    let run = env.plumb_in(
        &qdir,
        &[
            "history",
            "changes",
            "--confirm",
            "--build",
            BUILD,
            "--",
            "./prog",
        ],
    );
    run.assert_code(0);
    assert!(!run.stderr.contains("re-running"), "{}", run.stderr);
    assert_eq!(
        sqlite_value(&store(&qdir), "SELECT COUNT(*) FROM confirmations"),
        "0"
    );
}

#[test]
fn a_command_only_the_store_recorded_runs_only_when_trusted() {
    let env = Env::new();
    let versions: Vec<Version> = (0..20)
        .map(|i| Version::Sleeps(if i < 12 { 1_000 } else { 1_100 }))
        .collect();
    let (dir, commits) = repo_with(&env, "r", &versions, &[]);
    history(&env, &dir, &commits, |i| if i < 12 { 1e6 } else { 1.1e6 });
    let run = env.plumb_in(&dir, &["history", "confirm", "--build", "true"]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("recorded only in the history store: \"./prog\""),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("--trust-stored-commands"),
        "{}",
        run.stderr
    );
    assert!(
        !dir.join(".plumb/revs").exists(),
        "nothing checked out or built"
    );
    assert_eq!(
        sqlite_value(&store(&dir), "SELECT status FROM changes"),
        "candidate"
    );
}

/// Issue 45, defect 29: when an end of the change does not build, the confirmation cannot
/// say anything: exit 2 naming the commits and the build's failure, not exit 0 "not
/// settled"; the change stays a candidate.
#[test]
fn a_change_whose_end_does_not_build_is_an_error() {
    if !have_cc() {
        return;
    }
    let env = Env::new();
    let (dir, commits) = five_percent_step(&env, Some(14));
    let run = env.plumb_in(&dir, &CONFIRM_CHANGES);
    run.assert_code(2);
    let ends = format!("{} → {}", &commits[9][..10], &commits[14][..10]);
    assert!(
        run.stderr
            .contains(&format!("{ends}: cannot re-run the change"))
            && run.stderr.contains("does not build"),
        "{}",
        run.stderr
    );
    let status = sqlite_value(&store(&dir), "SELECT status FROM changes");
    assert_eq!(status, "candidate");
}

/// Issue 45, defect 29: a confirmation stopped by Ctrl-C says it was stopped, not
/// "unknown after N rounds", and exits 130.
#[test]
fn a_confirmation_stopped_by_ctrl_c_says_so() {
    let env = Env::new();
    let (dir, _) = five_percent_step(&env, None);
    let mut args = CONFIRM_CHANGES;
    args[5] = "sleep 30"; // the build: long enough for the signal to land in it
    let out = env.plumb_signalled_in(&dir, &args, "-INT", std::time::Duration::from_millis(1500));
    assert_eq!(out.code, 130, "{}", out.stderr);
    assert!(
        out.stderr.contains("stopped by a signal before it settled"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("unknown after"), "{}", out.stderr);
}
