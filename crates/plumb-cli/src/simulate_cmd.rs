use crate::args::SimulateArgs;
use crate::exit::{self, CliError};
use plumb_load::{
    percentile_distribution, simulate, Arrivals, ClientReport, SimConfig, Stall, PERCENTILES,
};
use plumb_report::format_duration_ns;
use std::fmt::Write;

pub fn run(a: SimulateArgs) -> Result<i32, CliError> {
    if a.duration.is_zero() {
        return Err(CliError("--duration must be above 0".into()));
    }
    if a.service.is_zero() {
        return Err(CliError("--service must be above 0".into()));
    }
    let stall_us = a.stall.as_micros_f64();
    let stall = match (!a.stall.is_zero(), a.stall_every, a.stall_period) {
        (false, _, _) => None,
        (true, Some(every), None) => Some(Stall::EveryRequests {
            every,
            length_us: stall_us,
        }),
        (true, None, Some(period)) if period > a.stall => Some(Stall::EveryPeriod {
            period_us: period.as_micros_f64(),
            length_us: stall_us,
        }),
        (true, None, Some(_)) => {
            return Err(CliError(
                "--stall-period must be longer than --stall".into(),
            ))
        }
        (true, None, None) => Some(Stall::EveryRequests {
            every: 500,
            length_us: stall_us,
        }),
        (true, Some(_), Some(_)) => unreachable!("clap refuses both"),
    };
    let cfg = SimConfig {
        rate: a.rate.per_second(),
        duration_s: a.duration.as_secs_f64(),
        service_us: a.service.as_micros_f64(),
        stall,
        arrivals: if a.poisson {
            Arrivals::Poisson { seed: a.seed }
        } else {
            Arrivals::Constant
        },
    };
    if let Some(dir) = &a.hgrm_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError(format!("cannot create {}: {e}", dir.display())))?;
    }
    let r = simulate(&cfg);
    exit::print_stdout(&render(&cfg, &r));
    if let Some(dir) = &a.hgrm_dir {
        for (name, client) in [("closed", &r.closed), ("open", &r.open)] {
            let path = dir.join(format!("{name}.hgrm"));
            std::fs::write(&path, percentile_distribution(&client.latency))
                .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
        }
    }
    Ok(exit::OK)
}

fn us(v: f64) -> String {
    format_duration_ns(v * 1e3)
}

fn render(cfg: &SimConfig, r: &plumb_load::SimReport) -> String {
    let mut out = String::new();
    let stall = match cfg.stall {
        None => "no stalls".to_string(),
        Some(Stall::EveryRequests { every, length_us }) => {
            format!("a {} stall every {every} requests", us(length_us))
        }
        Some(Stall::EveryPeriod {
            period_us,
            length_us,
        }) => format!("a {} pause every {}", us(length_us), us(period_us)),
    };
    let _ = writeln!(
        out,
        "Simulated service: {} per request, {stall}.\nClients: {} req/s for {} s ({} requests), {} arrivals. Offered load: {:.1}% of capacity.\n",
        us(cfg.service_us),
        cfg.rate,
        cfg.duration_s,
        r.open.requests,
        match cfg.arrivals { Arrivals::Constant => "constant", Arrivals::Poisson { .. } => "Poisson" },
        100.0 * r.utilisation
    );
    let row = |label: &str, c: String, o: String, ratio: String| {
        format!("  {label:<22} {c:>14} {o:>14} {ratio:>12}\n")
    };
    out.push_str(&row(
        "latency",
        "closed loop".into(),
        "open loop".into(),
        "open/closed".into(),
    ));
    let ratio = |c: f64, o: f64| {
        if c > 0.0 {
            format!("{:.1}×", o / c)
        } else {
            "-".into()
        }
    };
    for (label, p) in PERCENTILES {
        let (c, o) = (
            r.closed.latency.percentile_us(p),
            r.open.latency.percentile_us(p),
        );
        out.push_str(&row(label, us(c), us(o), ratio(c, o)));
    }
    let (c, o) = (r.closed.latency.max_us(), r.open.latency.max_us());
    out.push_str(&row("max", us(c), us(o), ratio(c, o)));
    out.push_str(&row(
        "achieved rate",
        format!("{:.1}/s", r.closed.achieved_rate()),
        format!("{:.1}/s", r.open.achieved_rate()),
        String::new(),
    ));
    out.push_str(&row(
        "in flight (L = λW)",
        format!("{:.2}", r.closed.mean_in_flight()),
        format!("{:.2}", r.open.mean_in_flight()),
        String::new(),
    ));
    if let Some(late) = &r.open.send_lateness {
        out.push_str(&row(
            "open: send lateness p99",
            String::new(),
            us(late.percentile_us(99.0)),
            String::new(),
        ));
    }
    let _ = writeln!(out, "\n{}", explain(&r.closed, &r.open));
    if r.utilisation >= 1.0 {
        let _ = writeln!(
            out,
            "! The offered load is {:.0}% of what the server can do: the open-loop queue grows for as long as the test runs, and its percentiles describe the test's length, not a steady state.",
            100.0 * r.utilisation
        );
    }
    out
}

fn explain(closed: &ClientReport, open: &ClientReport) -> String {
    let closed_p99 = closed.latency.percentile_us(99.0);
    let hidden = open.requests as f64 * (100.0 - open_rank_above(open, closed_p99)) / 100.0;
    format!(
        "The closed loop waits for each answer before sending the next, so a stall delays one of its requests and silences the rest: it reports a p99 of {}. Measured from the intended send time, {:.0} requests ({:.1}%) waited longer than that.",
        us(closed_p99),
        hidden,
        100.0 * hidden / open.requests as f64
    )
}

/// The percentile rank of `value_us` in the open-loop latencies.
fn open_rank_above(open: &ClientReport, value_us: f64) -> f64 {
    let h = open.latency.inner();
    let below: u64 = h
        .iter_recorded()
        .take_while(|v| v.value_iterated_to() as f64 <= value_us * 1.001)
        .map(|v| v.count_at_value())
        .sum();
    100.0 * below as f64 / h.len().max(1) as f64
}
