//! Open-file budget. Each prepared command holds its files open for the whole run (stdin
//! and stdout on /dev/null, a stderr buffer and the child's end of it), so that nothing is
//! opened inside the timed region; a scan of thousands of commands needs that many files
//! at once, more than the default limit of 1024.

use std::io;

/// Files each prepared command keeps open.
pub const FILES_PER_COMMAND: u64 = 4;
/// Kept free for plumb itself: its own stdio, the export files, the terminal.
const SPARE: u64 = 64;

/// Makes room for `commands` prepared commands: raises the soft limit on open files up
/// to the hard one if needed, or says why the run cannot be prepared.
pub fn reserve(commands: usize) -> io::Result<()> {
    let need = commands as u64 * FILES_PER_COMMAND + SPARE;
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit into the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return Err(io::Error::last_os_error());
    }
    if lim.rlim_cur >= need {
        return Ok(());
    }
    if lim.rlim_max >= need {
        let raised = libc::rlimit {
            rlim_cur: need,
            rlim_max: lim.rlim_max,
        };
        // SAFETY: setrlimit reads one rlimit; raising the soft limit up to the hard one
        // needs no privilege.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            return Ok(());
        }
    }
    Err(io::Error::other(format!(
        "{commands} commands need about {need} open files ({FILES_PER_COMMAND} each, held for the whole run), but the limit is {} (hard limit {}): scan fewer values (a larger --parameter-step-size) or raise the limit (ulimit -n)",
        lim.rlim_cur, lim.rlim_max
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_run_fits_and_an_impossible_one_is_refused_with_the_fix() {
        reserve(10).unwrap();
        let e = reserve(usize::MAX / 8).unwrap_err().to_string();
        assert!(e.contains("ulimit -n") && e.contains("open files"), "{e}");
    }
}
