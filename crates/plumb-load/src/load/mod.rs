//! `plumb load`: HTTP/1.1 load without coordinated omission.
//!
//! Open loop (the default): requests are due on a fixed schedule (or Poisson arrivals);
//! each one's latency is measured from the time it was *due*, its service time from the
//! time it was actually sent, and the generator's own lateness (dispatch − due) is
//! recorded apart, so a generator that falls behind is seen, not mistaken for the server.
//! Closed loop (`--closed N`) runs N connections back to back for throughput and
//! saturation, and says that it does not measure user latency.
//!
//! Everything runs on one thread (a current-thread Tokio runtime): no locks, and state is
//! shared through `Rc<RefCell<…>>` between tasks that never run at the same time.

mod connection;
mod pacer;
mod recorder;
mod run;
mod target;

pub use recorder::{LoadReport, Outcome, SecondRow};
pub use run::{run, LoadConfig, Mode, DEFAULT_SPIN};
pub use target::{Target, TargetError};
