//! A load test's terminal report: latency and service time, rates, errors, timeline, checks.
use console::style;
use plumb_model::format;
use plumb_model::{Benchmark, LatencyDistribution, LoadInfo};
use std::fmt::Write;

/// A load test's report: latency and service time side by side, rates, Little's law, the
/// generator's own lateness, errors with an example of each, the per-second timeline, and
/// the checks the result passed or failed. When nothing succeeded there is no latency to
/// show: what failed, and how, instead of a table of zeros.
pub fn render_load(b: &Benchmark, timeline: bool) -> String {
    let Some(l) = b.load() else {
        return String::new();
    };
    let mut out = String::new();
    let head = match (l.mode.as_str(), l.target_rate) {
        ("open", Some(rate)) => format!(
            "open loop at {} req/s: latency is measured from each request's due time",
            format::number(rate)
        ),
        _ => format!(
            "closed loop, {} client(s): throughput and saturation. Its latency is service time, NOT what users wait (coordinated omission)",
            l.concurrency
        ),
    };
    let _ = writeln!(out, "{}\n{}\n", style(&b.name).bold(), head);
    if l.ok > 0 {
        out.push_str(&percentiles(l));
    }
    if !l.runs.is_empty() {
        out.push_str(&runs(l));
    }
    out.push_str(&counts(l));
    if let Some(late) = &l.send_lateness {
        out.push_str(&lateness(l, late));
    }
    if timeline && !l.timeline.is_empty() {
        out.push_str(&timeline_rows(l));
    }
    if !b.diagnostics.is_empty() {
        out.push('\n');
        out.push_str(&crate::terminal::render_diagnostics(&b.diagnostics, 2));
    }
    out
}

fn percentiles(l: &LoadInfo) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "  {:<10} {:>16} {:>16}", "", "latency", "service time");
    for label in ["p50", "p90", "p99", "p99.9", "p99.99"] {
        let _ = writeln!(
            out,
            "  {:<10} {:>16} {:>16}",
            label,
            format::time_or_dash(l.latency.percentile(label)),
            format::time_or_dash(l.service.percentile(label))
        );
    }
    let _ = writeln!(
        out,
        "  {:<10} {:>16} {:>16}",
        "max",
        format::time(l.latency.max),
        format::time(l.service.max)
    );
    out
}

/// Runs beyond this many are summarised (lowest, median, highest) rather than listed.
const RUNS_LISTED: usize = 8;

/// How far apart the highest and the lowest of `values` are, as a ratio.
pub(crate) fn highest_over_lowest(values: &[f64]) -> f64 {
    let (lo, hi) = values.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
        (lo.min(*v), hi.max(*v))
    });
    hi / lo
}

/// A repeated test's runs side by side: how much a percentile moves from run to run.
fn runs(l: &LoadInfo) -> String {
    let mut out = String::new();
    let listed = l.runs.len() <= RUNS_LISTED;
    let _ = writeln!(
        out,
        "\n  {} runs, {}:",
        l.runs.len(),
        if listed {
            "in the order they ran"
        } else {
            "lowest, median and highest of each"
        }
    );
    for label in ["p50", "p99"] {
        let mut values: Vec<f64> = l
            .run_percentiles(label)
            .iter()
            .map(|p| p.map_or(f64::NAN, |d| d.as_nanos_f64()))
            .collect();
        let spread = highest_over_lowest(&values);
        if !listed {
            values.sort_by(f64::total_cmp);
            values = vec![
                values[0],
                values[values.len() / 2],
                values[values.len() - 1],
            ];
        }
        let cells: Vec<String> = values.iter().map(|v| format::time_ns(*v)).collect();
        let _ = writeln!(
            out,
            "  {:<10} {}  {}",
            label,
            cells.join("  "),
            style(format!("(highest / lowest ×{spread:.2})")).dim()
        );
    }
    out
}

fn counts(l: &LoadInfo) -> String {
    let mut out = String::new();
    let errors: u64 = l.errors.values().sum();
    let lead = if l.ok == 0 { "" } else { "\n" };
    let _ = writeln!(
        out,
        "{lead}  requests   {} ok, {} errors over {}{}",
        l.ok,
        errors,
        format::time(l.duration),
        if l.abandoned > 0 {
            format!(", {} in flight when stopped", l.abandoned)
        } else {
            String::new()
        }
    );
    for (k, v) in &l.errors {
        match l.error_examples.get(k) {
            Some(e) => {
                let _ = writeln!(out, "             {v} × {k}: {}", style(e).dim());
            }
            None => {
                let _ = writeln!(out, "             {v} × {k}");
            }
        }
    }
    match l.target_rate {
        Some(t) => {
            let _ = writeln!(
                out,
                "  rate       {} achieved of {} target ({})",
                format::rate(l.achieved_rate),
                format::rate(t),
                format::percent(l.achieved_rate / t)
            );
        }
        None => {
            let _ = writeln!(out, "  rate       {}", format::rate(l.achieved_rate));
        }
    }
    if l.ok > 0 {
        let _ = writeln!(
            out,
            "  in flight  {} on average (Little's law: {} × {})",
            format::number(l.mean_in_flight),
            format::rate(l.achieved_rate),
            format::time(l.latency.mean)
        );
    }
    // A mix's target has no connections of its own (they are the whole's): no line.
    if l.connections_opened > 0 {
        let _ = writeln!(
            out,
            "  connections {} opened ({} at most in flight{})",
            l.connections_opened,
            l.concurrency,
            match (l.agents, l.threads) {
                (1, 1) => String::new(),
                (1, t) => format!(", {t} generator threads"),
                (a, t) => format!(", {a} agents merged, {t} generator threads in all"),
            }
        );
    }
    if let Some(s) = &l.setup {
        out.push_str(&setup(s));
    }
    out
}

/// How a load test reached its target — the connection policy and, for https, the
/// TLS agreed and whether the certificate was checked — one line above its results;
/// empty for other producers.
pub fn render_connection(p: &plumb_model::ProducerSettings) -> String {
    let plumb_model::ProducerSettings::Load(s) = p else {
        return String::new();
    };
    let policy = if s.new_connection {
        "a new connection per request: connect and handshake are inside each latency"
    } else {
        "kept-alive connections"
    };
    let alpn_h2 = s.tls.as_ref().map(|t| t.alpn.as_deref() == Some("h2"));
    let protocol = match (s.http2, alpn_h2) {
        (false, _) => String::new(),
        (true, None) => format!(
            "HTTP/2 by prior knowledge (h2c), up to {} streams a connection; ",
            s.pipeline
        ),
        (true, Some(true)) => format!("HTTP/2, up to {} streams a connection; ", s.pipeline),
        (true, Some(false)) => {
            "HTTP/2 asked, but the server offered only HTTP/1.1: measured over HTTP/1.1; ".into()
        }
    };
    let policy = format!("{protocol}{policy}");
    let Some(t) = &s.tls else {
        return format!("{policy}\n");
    };
    let trust = match (&t.cacert, t.verified) {
        (_, false) => style("certificate NOT verified (--insecure)")
            .bold()
            .to_string(),
        (Some(ca), true) => format!("certificate verified against {ca}"),
        (None, true) => "certificate verified against the system's roots".into(),
    };
    let alpn = t
        .alpn
        .as_deref()
        .map_or(String::new(), |a| format!(", ALPN {a}"));
    format!("{policy}, over {}{alpn}; {trust}\n", t.version)
}

/// A mix's targets, one row each: weight and share of the requests, answers and errors,
/// and the latency percentiles of each (from its due time, like the whole's).
pub fn render_mix_targets(targets: &[Benchmark]) -> String {
    let mut out = String::new();
    let total: u64 = targets.iter().filter_map(|b| b.load()).map(|l| l.due).sum();
    let width = targets
        .iter()
        .map(|b| b.name.chars().count())
        .max()
        .unwrap_or(6)
        .clamp(6, 72);
    let _ = writeln!(
        out,
        "\n  {:<width$} {:>6} {:>7} {:>8} {:>7} {:>10} {:>10} {:>10} {:>10}",
        "target", "weight", "share", "ok", "errors", "p50", "p99", "p99.9", "max"
    );
    for b in targets {
        let Some(l) = b.load() else { continue };
        let _ = writeln!(
            out,
            "  {:<width$} {:>6} {:>7} {:>8} {:>7} {:>10} {:>10} {:>10} {:>10}",
            b.name,
            b.parameters.get("weight").map_or("", String::as_str),
            format::percent(l.due as f64 / total.max(1) as f64),
            l.ok,
            l.error_count(),
            format::time_or_dash(l.latency.percentile("p50")),
            format::time_or_dash(l.latency.percentile("p99")),
            format::time_or_dash(l.latency.percentile("p99.9")),
            format::time(l.latency.max),
        );
    }
    for b in targets {
        if !b.diagnostics.is_empty() {
            let _ = writeln!(out, "\n  {}:", b.name);
            out.push_str(&crate::terminal::render_diagnostics(&b.diagnostics, 4));
        }
    }
    out
}

/// Each connection's setup, apart from the requests' latency.
fn setup(s: &plumb_model::ConnectionSetup) -> String {
    let figures = |d: &LatencyDistribution| {
        format!(
            "p50 {}, p99 {}, max {}",
            format::time_or_dash(d.percentile("p50")),
            format::time_or_dash(d.percentile("p99")),
            format::time(d.max)
        )
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "  connect    {} ({} connection{}, warm-up included)",
        figures(&s.connect),
        s.connect.count,
        if s.connect.count == 1 { "" } else { "s" }
    );
    if s.http2 > 0 {
        let _ = writeln!(
            out,
            "  HTTP/2     {} of {} connections",
            s.http2, s.connect.count
        );
    }
    if let Some(h) = &s.handshake {
        let resumed = match s.resumed {
            0 => "every one in full".to_string(),
            n if n == h.count => "every one resumed".to_string(),
            n => format!("{n} of {} resumed", h.count),
        };
        let _ = writeln!(out, "  TLS handshake {} ({resumed})", figures(h));
    }
    out
}

fn lateness(l: &LoadInfo, late: &LatencyDistribution) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "  send lateness (generator): p50 {}, p99 {}, max {}{}",
        format::time_or_dash(late.percentile("p50")),
        format::time_or_dash(late.percentile("p99")),
        format::time(late.max),
        l.generator_busy.map_or(String::new(), |b| format!(
            "; busy {:.0} % of the time",
            100.0 * b
        ))
    );
    if l.slot_waits.count > 0 {
        let _ = writeln!(
            out,
            "  waited for a connection (in-flight bound full): {} requests, up to {}",
            l.slot_waits.count,
            format::time(l.slot_waits.max)
        );
    }
    out
}

fn timeline_rows(l: &LoadInfo) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n  {:>6} {:>8} {:>7} {:>12} {:>12} {:>12}",
        "second", "ok", "errors", "p50", "p99", "max"
    );
    for r in &l.timeline {
        let _ = writeln!(
            out,
            "  {:>6} {:>8} {:>7} {:>12} {:>12} {:>12}",
            r.second,
            r.ok,
            r.errors,
            format::time_or_dash(r.p50),
            format::time_or_dash(r.p99),
            format::time(r.max)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::{Benchmark, BenchmarkKind};

    fn repeated(n: usize) -> String {
        let runs: Vec<(f64, f64)> = (0..n)
            .map(|i| (100.0 + i as f64, 200.0 * (1.0 + i as f64)))
            .collect();
        let l = crate::fixture::repeated_load(&runs);
        let mut b = Benchmark::new("GET /", BenchmarkKind::Load);
        b.set_load(l);
        console::strip_ansi_codes(&render_load(&b, false)).into_owned()
    }

    #[test]
    fn runs_are_listed_in_order_or_summarised_when_many() {
        let few = repeated(3);
        assert!(few.contains("3 runs, in the order they ran:"), "{few}");
        assert!(
            few.contains("p50        100.0 µs  101.0 µs  102.0 µs  (highest / lowest ×1.02)"),
            "{few}"
        );
        let many = repeated(10);
        assert!(
            many.contains("10 runs, lowest, median and highest of each:"),
            "{many}"
        );
        // p99 of the ten runs: 200 µs … 2 ms; the median is the sixth, 1.2 ms.
        assert!(
            many.contains("p99        200.0 µs  1.200 ms  2.000 ms  (highest / lowest ×10.00)"),
            "{many}"
        );
    }
}
