//! The per-second latency histograms as an HdrHistogram interval log (`.hlog`), readable
//! by HdrHistogram's own tools (HistogramLogAnalyzer, `hdr-plot`). Written once the test
//! is over, from every thread's seconds merged.

use super::recorder::SecondRow;
use crate::LoadError;
use hdrhistogram::serialization::interval_log::{IntervalLogWriterBuilder, Tag};
use hdrhistogram::serialization::V2DeflateSerializer;
use std::time::{Duration, SystemTime};

/// `base_time`: the wall-clock start of measurement, which interval times count from.
pub fn write(
    path: &std::path::Path,
    rows: &[SecondRow],
    base_time: SystemTime,
) -> Result<(), LoadError> {
    let mut buf = Vec::new();
    let mut ser = V2DeflateSerializer::new();
    {
        let mut b = IntervalLogWriterBuilder::new();
        b.add_comment("plumb load: latency from due time, microseconds, one interval per second");
        b.with_base_time(base_time);
        b.with_start_time(base_time);
        let mut w = b.begin_log_with(&mut buf, &mut ser).map_err(log_error)?;
        for r in rows {
            let h = r.histogram()?;
            w.write_histogram(
                &h,
                Duration::from_secs(r.second),
                Duration::from_secs(1),
                Tag::new("latency"),
            )
            .map_err(log_error)?;
        }
    }
    std::fs::write(path, buf).map_err(|e| LoadError::Write {
        path: path.to_path_buf(),
        cause: e.to_string(),
    })
}

fn log_error(e: impl std::fmt::Debug) -> LoadError {
    LoadError::Histogram {
        what: "cannot write the interval log",
        cause: format!("{e:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::recorder::{Answer, Recorder};
    use hdrhistogram::serialization::interval_log::{IntervalLogIterator, LogEntry};
    use hdrhistogram::serialization::Deserializer;
    use hdrhistogram::Histogram;
    use plumb_model::quantity;
    use std::time::{Duration, Instant, SystemTime};

    #[test]
    fn each_second_is_an_interval_that_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.hlog");
        let t0 = Instant::now();
        let mut r = Recorder::new(t0, Duration::from_secs(1));
        for s in 0..3u64 {
            for k in 0..=s {
                let due = t0 + Duration::from_secs(s) + Duration::from_millis(k);
                r.done(due, due, due + Duration::from_millis(3), Answer::Ok);
            }
        }
        let rep = r.finish(quantity::Duration::from_secs(3), false, 1, true);
        super::write(&path, &rep.timeline, SystemTime::now()).unwrap();
        let text = std::fs::read(&path).unwrap();
        let mut counts = Vec::new();
        for entry in IntervalLogIterator::new(&text) {
            if let Ok(LogEntry::Interval(i)) = entry {
                let bytes = base64::Engine::decode(
                    &base64::engine::general_purpose::STANDARD,
                    i.encoded_histogram(),
                )
                .unwrap();
                let h: Histogram<u64> = Deserializer::new()
                    .deserialize(&mut bytes.as_slice())
                    .unwrap();
                counts.push(h.len());
            }
        }
        assert_eq!(counts, [1, 2, 3]);
    }
}
