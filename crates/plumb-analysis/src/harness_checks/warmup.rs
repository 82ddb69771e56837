//! The warm-up check: warm-up that never reached a steady state, or none at all.
use plumb_model::finding::{NoSteadyState, NoWarmup};
use plumb_model::{Diagnostic, FunctionInfo, Severity};

pub fn check(info: &FunctionInfo) -> Option<Diagnostic> {
    if !info.warmup {
        return Some(Diagnostic::new(Severity::Info, NoWarmup {}));
    }
    (!info.steady_state).then(|| {
        let finding = NoSteadyState {
            warmup: info.warmup_time,
        };
        Diagnostic::new(Severity::Warning, finding)
    })
}
