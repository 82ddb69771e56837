//! One benchmark's part of the page: its findings, then the pictures of its samples.

use super::cdf::{cdf_chart, Marks};
use super::diagnostics::diagnostics;
use super::distribution::distribution_chart;
use super::run_order::run_order_chart;
use super::runs::runs_chart;
use super::spectrum::spectrum_chart;
use super::svg::escape;
use super::timeline::timeline_chart;
use plumb_model::{Benchmark, DiagnosticCode, LoadInfo, Metric};
use std::fmt::Write;

pub fn benchmark_section(b: &Benchmark) -> String {
    let mut out = String::new();
    let _ = write!(out, "<section><h2>{}</h2>", escape(&b.name));
    if !b.diagnostics.is_empty() {
        out.push_str(&diagnostics(&b.diagnostics));
    }
    if let Some(l) = b.load() {
        out.push_str(&load_spectrum(&b.name, l));
        if let Some(chart) = runs_chart(&b.name, l) {
            let _ = write!(
                out,
                "<figure>{chart}<figcaption>Each run's p50 and p99 (plumb load --repeat): comparisons judge a percentile by this spread, which one run cannot show.</figcaption></figure>"
            );
        }
        if let Some(chart) = timeline_chart(&b.name, &l.timeline) {
            let _ = write!(
                out,
                "<figure>{chart}<figcaption>p50 and p99 of the requests due in each second; seconds with errors marked in red at the bottom.</figcaption></figure>"
            );
        }
        let text = console::strip_ansi_codes(&crate::render_load(b, false)).into_owned();
        let _ = write!(out, "<pre>{}</pre>", escape(&text));
    } else {
        out.push_str(&sample_charts(b));
    }
    out.push_str("</section>\n");
    out
}

/// The CDF and the run-order plot of wall time per operation. Values that are not
/// finite are left out of the pictures and counted.
fn sample_charts(b: &Benchmark) -> String {
    let format = |ns: f64| plumb_model::format::time_ns(ns);
    let measured: Vec<f64> = b.per_op(&Metric::WallTime);
    let finite: Vec<f64> = measured.iter().copied().filter(|v| v.is_finite()).collect();
    if finite.is_empty() {
        return "<p class=\"muted\">No samples were measured: nothing to draw.</p>".into();
    }
    let mut out = String::new();
    if finite.len() < measured.len() {
        let _ = write!(
            out,
            "<p class=\"warning\">{} of {} samples are not finite numbers and are left out of the charts.</p>",
            measured.len() - finite.len(),
            measured.len()
        );
    }
    let mut sorted = b.analysed(&Metric::WallTime);
    sorted.retain(|v| v.is_finite());
    sorted.sort_by(f64::total_cmp);
    if let Some(s) = b.time().map(|s| &s.summary).filter(|_| !sorted.is_empty()) {
        let marks = Marks {
            min: s.min,
            median: s.median,
            mean: s.mean,
            p99: s.p99,
        };
        let _ = write!(
            out,
            "<figure>{}<figcaption>Every sample (jittered, at most 1,500 drawn) over its box: quartiles, median, whiskers to the Tukey fences.</figcaption></figure>",
            distribution_chart(&b.name, &finite, s, &format)
        );
        let _ = write!(
            out,
            "<figure>{}<figcaption>Each sample's time per operation, cumulative: the minimum answers \"best case\", the median \"typical\", p99 \"bounded worst case\". Noise only makes things slower.</figcaption></figure>",
            cdf_chart(&b.name, &sorted, &marks, &format)
        );
    }
    let warm: Vec<f64> = b
        .warmup_per_op(&Metric::WallTime)
        .into_iter()
        .filter(|v| v.is_finite())
        .collect();
    let verdict = drift_verdict(b);
    let _ = write!(
        out,
        "<figure>{}<figcaption>{}</figcaption></figure>",
        run_order_chart(&b.name, &warm, &finite, &verdict, &format),
        escape(&verdict)
    );
    out
}

/// Latency and service time (and the generator's lateness, open loop) by percentile.
fn load_spectrum(name: &str, l: &LoadInfo) -> String {
    let mut series = vec![
        ("latency (from the due time)", &l.latency),
        ("service time (from the send)", &l.service),
    ];
    if let Some(late) = &l.send_lateness {
        series.push(("the generator's send lateness", late));
    }
    let decoded: Result<Vec<_>, plumb_model::Invalid> = series
        .iter()
        .map(|(label, d)| d.histogram().map(|h| (*label, h)))
        .collect();
    match decoded {
        Ok(hs) if hs.iter().any(|(_, h)| !h.is_empty()) => {
            let refs: Vec<(&str, &hdrhistogram::Histogram<u64>)> =
                hs.iter().map(|(l, h)| (*l, h)).collect();
            format!(
                "<figure>{}<figcaption>Each nine (p90, p99, p99.9 …) one step to the right: the tail takes as much room as the median. Latency counts from when each request was due, so a stalled server cannot hide the requests it delayed.</figcaption></figure>",
                spectrum_chart(name, &refs)
            )
        }
        Ok(_) => "<p class=\"muted\">No request was answered: no spectrum to draw.</p>".into(),
        Err(e) => format!(
            "<p class=\"error\">The histograms in this result do not decode ({}): no spectrum.</p>",
            escape(&e.to_string())
        ),
    }
}

fn drift_verdict(b: &Benchmark) -> String {
    let found: Vec<String> = b
        .diagnostics
        .iter()
        .filter(|d| {
            matches!(
                d.code(),
                DiagnosticCode::Drift | DiagnosticCode::ColdStart | DiagnosticCode::ColdWarmup
            )
        })
        .map(|d| crate::finding::message(&d.finding))
        .collect();
    if found.is_empty() {
        "The drift and cold-start checks found nothing.".into()
    } else {
        found.join(" ")
    }
}
