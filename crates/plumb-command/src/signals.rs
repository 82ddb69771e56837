//! Children start with the default action of every stop signal, whatever plumb inherited.
//!
//! A signal ignored (SIG_IGN) by a process stays ignored across `exec`: a plumb started
//! from a non-interactive shell's background (`cmd &`) inherits SIGINT and SIGQUIT
//! ignored and would pass that on, so a benchmarked command that signals itself, or a
//! Ctrl-C meant for it, would do nothing. A *caught* signal is reset to its default by
//! `exec`, so an ignored stop signal is replaced here by a handler that does nothing: this
//! process goes on ignoring it in effect (a blocking call may return EINTR, which the
//! runner's `wait4` retries), and its children get the default. Done once, before the
//! first command is prepared, never in the timed region; `pre_exec` would do it per child
//! but would turn `posix_spawn` into fork + exec, which changes what is timed.

use std::sync::Once;

const STOP_SIGNALS: [libc::c_int; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT];

extern "C" fn ignore(_: libc::c_int) {}

/// Replaces an ignored disposition of each stop signal by a handler that does nothing,
/// once per process.
pub fn let_children_take_stop_signals() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| replace_ignored(&STOP_SIGNALS));
}

fn replace_ignored(signals: &[libc::c_int]) {
    for &sig in signals {
        // SAFETY: sigaction with a null new action only reads the current one; the
        // handler installed is async-signal-safe (it does nothing).
        unsafe {
            let mut current: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut current) != 0
                || current.sa_sigaction != libc::SIG_IGN
            {
                continue;
            }
            let mut caught: libc::sigaction = std::mem::zeroed();
            caught.sa_sigaction = ignore as extern "C" fn(libc::c_int) as libc::sighandler_t;
            caught.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut caught.sa_mask);
            libc::sigaction(sig, &caught, std::ptr::null_mut());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    /// This test process's SIGQUIT ignored, as a background shell leaves it: a child
    /// started after the reset takes the default action and dies of it.
    #[test]
    fn an_ignored_stop_signal_is_not_passed_on() {
        // SAFETY: setting SIG_IGN on SIGQUIT for this test process; nothing sends it.
        unsafe {
            libc::signal(libc::SIGQUIT, libc::SIG_IGN);
        }
        replace_ignored(&[libc::SIGQUIT]);
        let status = Command::new("sh")
            .args(["-c", "kill -QUIT $$; exit 0"])
            .status()
            .unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(libc::SIGQUIT), "{status:?}");
    }
}
