//! Completions, the man page, and --color.
mod common;

use common::Env;

#[test]
fn completions_for_every_shell_and_a_man_page() {
    let env = Env::new();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let run = env.plumb(&["completions", shell]);
        run.assert_code(0);
        assert!(
            run.stdout.contains("plumb") && run.stdout.contains("compare"),
            "{shell}"
        );
    }
    let run = env.plumb(&["completions", "tcsh"]);
    run.assert_code(2);
    let run = env.plumb(&["man"]);
    run.assert_code(0);
    assert!(run.stdout.contains(".TH plumb 1"), "{}", run.stdout);
}

#[test]
fn color_is_forced_on_or_off() {
    let env = Env::new();
    let args = [
        "run",
        "true",
        "false 0",
        "--ignore-failure",
        "--runs",
        "3",
        "--warmup",
        "0",
    ];
    let on = env.plumb(&[&args[..], &["--color", "always"]].concat());
    on.assert_code(0);
    assert!(on.stdout.contains("\u{1b}["), "{}", on.stdout);
    let off = env.plumb(&[&args[..], &["--color", "never"]].concat());
    assert!(!off.stdout.contains("\u{1b}["), "{}", off.stdout);
}
