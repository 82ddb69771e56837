//! The words of every finding: what it means, the figures that show it and what to do,
//! written from its typed evidence in one place, as verdict reasons are (`reason.rs`).
//! Checks decide findings (plumb-analysis); tables, pages and messages print these.

mod counters;
mod design;
mod harness;
mod load;
mod machine;
mod samples;

use plumb_model::{Finding, Severity};

/// A finding in words: one sentence with its figures, the figures that did not fit in
/// it, and what to do about it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Words {
    pub message: String,
    pub details: Option<String>,
    pub advice: Option<String>,
}

impl Words {
    fn new(message: impl Into<String>) -> Words {
        Words {
            message: message.into(),
            ..Words::default()
        }
    }

    fn advice(mut self, advice: impl Into<String>) -> Words {
        self.advice = Some(advice.into()).filter(|a| !a.is_empty());
        self
    }

    /// The finding as a refusal: its sentence, then what to do as a sentence of its own.
    pub fn refusal(&self) -> String {
        let advice = self.advice.as_deref().unwrap_or_default();
        let mut chars = advice.chars();
        let advice: String = chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default();
        format!("{}. {advice}", self.message)
    }

    fn details(mut self, details: impl Into<String>) -> Words {
        self.details = Some(details.into()).filter(|d| !d.is_empty());
        self
    }
}

/// The words of `f`.
pub fn words(f: &Finding) -> Words {
    use Finding as F;
    match f {
        F::TooFewSamples(x) => samples::too_few(x),
        F::WideCi(x) => samples::wide_ci(x),
        F::HighCv(x) => samples::high_cv(x),
        F::Outliers(x) => samples::outliers(x),
        F::Multimodal(x) => samples::multimodal(x),
        F::Drift(x) => samples::drift(x),
        F::ColdStart(x) => samples::cold_start(x),
        F::ColdWarmup(x) => samples::cold_warmup(x),
        F::FailedRuns(x) => samples::failed_runs(x),
        F::Launches(x) => samples::launches(x),
        F::BranchBound(x) => counters::branch_bound(x),
        F::MemoryBound(x) => counters::memory_bound(x),
        F::CountedTooMuch(x) => counters::counted_too_much(x),
        F::CacheCliff(x) => counters::cache_cliff(x),
        F::SizeStep(x) => counters::size_step(x),
        F::TimeNotWork(x) => counters::time_not_work(x),
        F::WorkNotTime(x) => counters::work_not_time(x),
        F::NothingMeasured(x) => counters::nothing_measured(x),
        F::Failed(x) => harness::failed(x),
        F::WrongResult(x) => harness::wrong_result(x),
        F::ResultUnchecked(_) => harness::result_unchecked(),
        F::CheckTheWork(x) => harness::check_the_work(x),
        F::Allocates(x) => harness::allocates(x),
        F::NoSteadyState(x) => harness::no_steady_state(x),
        F::NoWarmup(_) => harness::no_warmup(),
        F::WorkingSet(x) => harness::working_set(x),
        F::Noise(x) => harness::noise(x),
        F::ShortSamples(x) => harness::short_samples(x),
        F::Imprecise(x) => harness::imprecise(x),
        F::CpuGovernor(x) => machine::governor(x),
        F::Turbo(_) => machine::turbo(),
        F::BusyMachine(x) => machine::busy(x),
        F::Virtualized(x) => machine::virtualized(x),
        F::ClockSource(x) => machine::clock_source(x),
        F::Smt(_) => machine::smt(),
        F::NotPinned(x) => machine::not_pinned(x),
        F::Aslr(x) => machine::aslr(x),
        F::DifferentMachine(x) => machine::different_machine(x),
        F::DifferentFrequencyPolicy(x) => machine::different_policy(x),
        F::DifferentLoad(x) => machine::different_load(x),
        F::BestCaseAgrees(x) => machine::best_case_agrees(x),
        F::PairedByElimination(x) => machine::paired_by_elimination(x),
        F::SeparateRuns(x) => machine::separate_runs(x),
        F::UnlikeRecentRuns(x) => machine::unlike_recent_runs(x),
        F::NothingSucceeded(x) => load::nothing_succeeded(x),
        F::LoadErrors(x) => load::errors(x),
        F::GeneratorBehind(x) => load::behind(x),
        F::LatencyFromGenerator(x) => load::latency_from_generator(x),
        F::RateAboveCapacity(x) => load::above_capacity(x),
        F::InFlightBoundFull(x) => load::bound_full(x),
        F::Retried(x) => load::retried(x),
        F::TlsNotVerified(x) => load::tls_not_verified(x),
        F::DisjointWindows(x) => load::disjoint(x),
        F::DifferentSchedules(x) => load::different_schedules(x),
        F::WorkingSetInCache(x) => design::working_set_in_cache(x),
        F::WorkingSetInMemory(x) => design::working_set_in_memory(x),
        F::HotSetInCache(x) => design::hot_set_in_cache(x),
        F::SequentialKeys(x) => design::sequential_keys(x),
        F::SingleThread(x) => design::single_thread(x),
        F::FixedSizeValues(x) => design::fixed_size_values(x),
        F::NoDurability(x) => design::no_durability(x),
        F::CleanState(_) => design::clean_state(),
        F::TooShortToSteady(x) => design::too_short_to_steady(x),
        F::ClosedLoopPercentile(x) => design::closed_loop_percentile(x),
        F::TooFewForPercentile(x) => design::too_few_for_percentile(x),
        F::ConcurrencyBelowLittle(x) => design::concurrency_below_little(x),
        F::GeneratorOnTarget(x) => design::generator_on_target(x),
        F::OneLaunch(_) => design::one_launch(),
        F::DesignMismatch(x) => design::design_mismatch(x),
        F::QuestionMatters(x) => design::question_matters(x),
        F::Sensitivity(x) => design::sensitivity(x),
        F::Recorded(_) | F::Unknown { .. } => as_recorded(f),
    }
}

/// A finding known only by its recorded words, or by a code this plumb does not know.
fn as_recorded(f: &Finding) -> Words {
    match f {
        Finding::Recorded(r) => Words::new(r.message.clone())
            .details(recorded_evidence(&r.evidence))
            .advice(r.advice.clone()),
        Finding::Unknown { code, fields } => Words::new(format!(
            "a finding this plumb does not know ({code}, from a newer plumb)"
        ))
        .details(recorded_evidence(fields)),
        _ => unreachable!("only recorded and unknown findings"),
    }
}

/// The sentence of `f` alone.
pub fn message(f: &Finding) -> String {
    words(f).message
}

/// A finding's mark in the terminal and in Markdown: how much it matters.
pub fn mark(s: Severity) -> &'static str {
    match s {
        Severity::Error => "✗",
        Severity::Warning => "!",
        Severity::Info => "·",
    }
}

/// Evidence recorded by name (older documents, newer codes): `name=value, …`.
fn recorded_evidence<'a>(
    e: impl IntoIterator<Item = (&'a String, &'a serde_json::Value)>,
) -> String {
    e.into_iter()
        .map(|(k, v)| match v.as_f64() {
            // A recorded float as its significant figures, not 111599999.99999999.
            Some(x) if v.is_f64() => format!("{k}={}", plumb_model::format::number(x)),
            _ => format!("{k}={v}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::finding::examples;

    /// Five or more decimals: a float printed as it is, not by the formatter.
    fn raw_float(s: &str) -> bool {
        s.split('.')
            .skip(1)
            .any(|after| after.chars().take_while(char::is_ascii_digit).count() >= 5)
    }

    /// Every finding has a sentence of its own with its figures in plumb's formats: no
    /// NaN, no raw float, no empty advice.
    #[test]
    fn every_finding_has_words() {
        for d in examples::all() {
            let w = words(&d.finding);
            let all = format!("{} {:?} {:?}", w.message, w.details, w.advice);
            assert!(!w.message.is_empty(), "{d:?}");
            assert!(!all.contains("NaN") && !all.contains("inf"), "{all}");
            assert!(!raw_float(&all), "a raw float: {all}");
            assert!(w.advice.as_ref().is_none_or(|a| !a.is_empty()));
        }
    }
}
