//! Words of the findings about a load test: what succeeded, the generator's timeliness
//! and capacity, waits for connections, retries, and agents merged.
use super::Words;
use plumb_model::finding::{
    DifferentSchedules, DisjointWindows, GeneratorBehind, InFlightBoundFull, LatencyFromGenerator,
    LoadErrors, NothingSucceeded, RateAboveCapacity, Retried, TlsNotVerified,
};
use plumb_model::format::{self, share};

pub fn nothing_succeeded(x: &NothingSucceeded) -> Words {
    let errors: u64 = x.errors.values().sum();
    let kinds: Vec<String> = x.errors.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let message = if errors == 0 {
        "no request was answered in the measured window".to_string()
    } else {
        format!("none of {errors} requests succeeded")
    };
    Words::new(message).details(kinds.join(", "))
}

pub fn errors(x: &LoadErrors) -> Words {
    Words::new(format!(
        "{} of {} requests failed ({}), {} the accepted {}",
        x.errors,
        x.ended,
        share(x.rate()),
        if x.over() { "above" } else { "within" },
        share(x.max_error_rate)
    ))
    .advice("--max-error-rate sets the fraction of errors a run may have and still pass")
}

pub fn behind(x: &GeneratorBehind) -> Words {
    let why = if x.late() {
        format!(
            "its own send lateness p99 is {} (the bound is {})",
            format::time(x.lateness_p99),
            format::time(x.max_lateness)
        )
    } else {
        format!(
            "it was working {:.0} % of the time while requests waited for connections or went unsent, so answers it had not read yet may have kept the connections busy",
            100.0 * x.busy
        )
    };
    let who = match &x.agent {
        Some(agent) => format!("{agent} fell behind its share of the schedule"),
        None => "the generator fell behind its schedule".to_string(),
    };
    Words::new(format!(
        "{who}: {why}{}. Latencies include the generator's delay",
        if x.allow_late { " (accepted with --allow-late)" } else { "" }
    ))
    .advice("more --threads, more agents (plumb merge), or a lower rate; on a machine that starves the generator now and then, --max-lateness raises the bound, and --allow-late accepts the run as it is")
}

pub fn latency_from_generator(x: &LatencyFromGenerator) -> Words {
    let p = &x.percentile;
    Words::new(format!(
        "latency {p} {} is mostly the generator's own lateness (its {p} {}), not the server's: the service time {p} is {}",
        format::time(x.latency),
        format::time(x.lateness),
        format::time(x.service)
    ))
    .details("latency runs from each request's due time, so it includes how late the generator sent it; the service time runs from the send")
    .advice("read the server's tail in the service time; for latency without the generator's delay, give plumb a quieter core (taskset -c N plumb load …) and a longer --spin, so it wakes earlier before each due time")
}

pub fn above_capacity(x: &RateAboveCapacity) -> Words {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    Words::new(format!(
        "--rate {} is more than {} generator thread{} can send on schedule here: a probe measured {} of CPU per request (at most {:.0} req/s per thread, planned at 80 %); it would take --threads {}{}",
        x.rate,
        x.threads,
        plural(x.threads),
        format::time(x.cpu_per_request),
        x.per_thread,
        x.threads_needed,
        if x.threads_needed > x.cpus {
            format!(" and this machine lets it use {} CPU{}: add agents (plumb merge)", x.cpus, plural(x.cpus))
        } else {
            String::new()
        }
    ))
}

pub fn bound_full(x: &InFlightBoundFull) -> Words {
    Words::new(format!(
        "every connection was busy: {} requests ({}) waited for one, up to {}. The server is not keeping up at {} requests in flight; their latency includes the wait",
        x.waited,
        share(x.waited as f64 / x.due.max(1) as f64),
        format::time(x.max_wait),
        x.in_flight
    ))
    .advice("a higher --max-in-flight lets the backlog grow inside the server instead; the generator itself was on time")
}

pub fn retried(x: &Retried) -> Words {
    Words::new(format!(
        "{} requests were sent again after the server closed a kept-alive connection under them before answering; their latency includes the retry",
        x.retried
    ))
}

pub fn tls_not_verified(x: &TlsNotVerified) -> Words {
    Words::new(format!(
        "certificate not verified (--insecure): nothing proved the server answering was the one at {}",
        x.url
    ))
    .advice("give the server's CA with --cacert to measure with the check on")
}

pub fn disjoint(x: &DisjointWindows) -> Words {
    match x {
        DisjointWindows::NotChecked {} => Words::new("a result has no measured window (made before plumb 0.13): whether the runs overlapped was not checked"),
        DisjointWindows::Overlap { merged, .. } if *merged => Words::new(format!(
            "{}; merged over the union of the windows (--allow-disjoint)",
            overlap(x)
        )),
        DisjointWindows::Overlap { .. } => Words::new(overlap(x)).advice(
            "runs that did not overlap never offered their summed rate; start agents together with --start-at, or pass --allow-disjoint to merge them over the union of their windows",
        ),
    }
}

/// How far merged windows overlap, and where each lay from the earliest start.
pub fn overlap(x: &DisjointWindows) -> String {
    let DisjointWindows::Overlap {
        overlap,
        min_overlap,
        narrowest,
        windows,
        ..
    } = x
    else {
        return String::new();
    };
    let offsets: Vec<String> = windows
        .iter()
        .map(|w| {
            format!(
                "{} from +{} to +{}",
                w.agent,
                format::time(w.from),
                format::time(w.to)
            )
        })
        .collect();
    format!(
        "the measured windows overlap on {:.0} % of {narrowest} (at least {:.0} % is required): {}",
        100.0 * overlap,
        100.0 * min_overlap,
        offsets.join("; ")
    )
}

pub fn different_schedules(x: &DifferentSchedules) -> Words {
    match x {
        DifferentSchedules::Rates { rates } => {
            let rates: Vec<String> = rates
                .iter()
                .map(|r| r.map_or("closed".into(), |r| format!("{r}/s")))
                .collect();
            Words::new(format!(
                "the agents ran different schedules: {}",
                rates.join(", ")
            ))
        }
        DifferentSchedules::Targets { targets } => Words::new(format!(
            "the inputs loaded {} different targets ({}): each is merged on its own",
            targets.len(),
            targets.join(", ")
        )),
        DifferentSchedules::AgentsMissing { agents, missing } => {
            let missing: Vec<String> = missing.iter().map(u32::to_string).collect();
            Words::new(format!(
                "agent{} {} of the {agents} sharing the schedule {} missing: the merged result is {} of {agents} shares of it, and its rate falls short by the rest",
                if missing.len() == 1 { "" } else { "s" },
                missing.join(", "),
                if missing.len() == 1 { "is" } else { "are" },
                *agents as usize - missing.len()
            ))
            .advice("merge every agent's result (their indices run from 0 to N − 1)")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::quantity::Duration;

    #[test]
    fn load_findings_say_their_figures() {
        let none = nothing_succeeded(&NothingSucceeded {
            errors: [("timeout".to_string(), 40)].into(),
        });
        assert_eq!(none.message, "none of 40 requests succeeded");
        assert_eq!(none.details.as_deref(), Some("timeout 40"));
        let e = errors(&LoadErrors {
            errors: 26,
            ended: 100,
            max_error_rate: 0.0,
        });
        assert_eq!(
            e.message,
            "26 of 100 requests failed (26.0%), above the accepted 0%"
        );
        let mut late = GeneratorBehind {
            lateness_p99: Duration::from_micros(8_003),
            max_lateness: Duration::from_micros(2_500),
            busy: 0.99,
            allow_late: false,
            agent: None,
        };
        assert!(behind(&late)
            .message
            .contains("p99 is 8.003 ms (the bound is 2.500 ms)"));
        late.lateness_p99 = Duration::from_micros(10);
        assert!(behind(&late).message.contains("working 99 % of the time"));
        late.agent = Some("agent-2".into());
        assert!(behind(&late)
            .message
            .starts_with("agent-2 fell behind its share of the schedule: it was working"));
        let full = bound_full(&InFlightBoundFull {
            waited: 25,
            due: 100,
            max_wait: Duration::from_millis(40),
            in_flight: 100,
        });
        assert!(full
            .message
            .contains("25 requests (25.0%) waited for one, up to 40.00 ms. The server is not keeping up at 100 requests in flight"), "{}", full.message);
    }
}
