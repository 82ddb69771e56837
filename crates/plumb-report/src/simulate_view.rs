//! `plumb simulate`'s report: the two clients' percentiles side by side, and what the
//! closed loop hid.

use plumb_model::format;
use plumb_model::quantity::Duration;
use plumb_model::{
    LatencyDistribution, SimulatedClient, SimulatedStall, Simulation, LATENCY_PERCENTILES,
};
use std::fmt::Write;

fn row(label: &str, closed: String, open: String, ratio: String) -> String {
    format!("  {label:<22} {closed:>14} {open:>14} {ratio:>12}\n")
}

fn ratio(closed: Duration, open: Duration) -> String {
    if !closed.is_zero() {
        format!("{:.1}×", open.as_nanos_f64() / closed.as_nanos_f64())
    } else {
        "-".into()
    }
}

pub fn render_simulation(sim: &Simulation) -> String {
    let mut out = header(sim);
    out.push_str(&row(
        "latency",
        "closed loop".into(),
        "open loop".into(),
        "open/closed".into(),
    ));
    let (closed, open) = (&sim.closed, &sim.open);
    for (label, _) in LATENCY_PERCENTILES {
        let (c, o) = (
            closed.latency.percentile(label).unwrap_or_default(),
            open.latency.percentile(label).unwrap_or_default(),
        );
        out.push_str(&row(label, format::time(c), format::time(o), ratio(c, o)));
    }
    let (c, o) = (closed.latency.max, open.latency.max);
    out.push_str(&row("max", format::time(c), format::time(o), ratio(c, o)));
    out.push_str(&row(
        "achieved rate",
        format::rate(closed.achieved_rate),
        format::rate(open.achieved_rate),
        String::new(),
    ));
    out.push_str(&row(
        "in flight (L = λW)",
        format!("{:.2}", closed.mean_in_flight),
        format!("{:.2}", open.mean_in_flight),
        String::new(),
    ));
    if let Some(late) = &open.send_lateness {
        out.push_str(&row(
            "open: send lateness p99",
            String::new(),
            format::time_or_dash(late.percentile("p99")),
            String::new(),
        ));
    }
    let _ = writeln!(out, "\n{}", explain(closed, open));
    if sim.utilisation >= 1.0 {
        let _ = writeln!(
            out,
            "! The offered load is {:.0}% of what the server can do: the open-loop queue grows for as long as the test runs, and its percentiles describe the test's length, not a steady state.",
            100.0 * sim.utilisation
        );
    }
    out
}

fn header(sim: &Simulation) -> String {
    let s = &sim.settings;
    let stall = match s.stall {
        None => "no stalls".to_string(),
        Some(SimulatedStall::Requests { requests, length }) => {
            format!("a {} stall every {requests} requests", format::time(length))
        }
        Some(SimulatedStall::Period { period, length }) => format!(
            "a {} pause every {}",
            format::time(length),
            format::time(period)
        ),
    };
    let closed = if s.closed_paced {
        format!(
            "paced to {} req/s (it waits when ahead), achieved {}",
            s.rate.per_second(),
            format::rate(sim.closed.achieved_rate)
        )
    } else {
        format!(
            "back to back, as fast as the server answers: {}",
            format::rate(sim.closed.achieved_rate)
        )
    };
    format!(
        "Simulated service: {} per request, {stall}.\n{} requests per client. Open loop: {} req/s for {}, {} arrivals, offered load {:.1}% of capacity. Closed loop: {closed}.\n\n",
        format::time(s.service),
        sim.open.requests,
        s.rate.per_second(),
        s.duration,
        if s.poisson_seed.is_some() { "Poisson" } else { "constant" },
        100.0 * sim.utilisation
    )
}

fn explain(closed: &SimulatedClient, open: &SimulatedClient) -> String {
    let closed_p99 = closed.latency.percentile("p99").unwrap_or_default();
    let hidden = open.requests as f64 * (100.0 - rank_of(&open.latency, closed_p99)) / 100.0;
    format!(
        "The closed loop waits for each answer before sending the next, so a stall delays one of its requests and silences the rest: it reports a p99 of {}. Measured from the intended send time, {:.0} requests ({:.1}%) waited longer than that.",
        format::time(closed_p99),
        hidden,
        100.0 * hidden / open.requests as f64
    )
}

/// The percentile rank of `value` among the latencies of `d`.
fn rank_of(d: &LatencyDistribution, value: Duration) -> f64 {
    // The histogram's values are microseconds.
    let value_us = value.as_micros_f64();
    let Ok(h) = d.histogram() else {
        return f64::NAN;
    };
    let below: u64 = h
        .iter_recorded()
        .take_while(|v| v.value_iterated_to() as f64 <= value_us * 1.001)
        .map(|v| v.count_at_value())
        .sum();
    100.0 * below as f64 / h.len().max(1) as f64
}
