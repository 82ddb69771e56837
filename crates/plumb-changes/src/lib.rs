//! The history's workflows as library calls: every series' change points found and
//! recorded (`found`), two built revisions measured until the sequential verdict settles
//! (`revisions`), and a change confirmed by re-running its two ends, bisected to its
//! first commit (`confirm`, `step`). The CLI's `history` and `revs` commands are their
//! front door.

mod command;
mod confirm;
mod error;
mod found;
mod noise;
mod note;
mod revisions;
mod step;
mod until_settled;

pub use confirm::{
    confirm_all, confirm_named, ConfirmOptions, Confirmations, Confirmed, Confirming,
};
pub use error::ChangesError;
pub use found::{analyse, fails_gate, Method};
pub use noise::{between_runs_in_history, widen_by_history};
pub use revisions::{measure, Request, Rounds};
pub use until_settled::run_until_settled;
