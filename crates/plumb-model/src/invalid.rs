//! What makes a value of the model invalid, each said as the document reader reports it:
//! sample columns that disagree, a metric with values but no declaration, a benchmark
//! with another kind's part, a histogram or a child's region time that does not decode.
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum Invalid {
    /// A sample column (`"iterations"`, `metric "x"`, `"exits"`, as written) whose length
    /// is not the sample count.
    ColumnLength {
        column: String,
        values: usize,
        count: usize,
    },
    /// A sample of no iterations.
    ZeroIterations,
    /// Samples with no metric's values.
    NoValues { count: usize },
    /// Samples to join that measure different metrics.
    JoinMetrics,
    /// Samples to join of which only one side records exits.
    JoinExits,
    /// A metric with values that `metrics` does not declare; `simulated`: in the simulated
    /// counts; `benchmark`: whose, when known.
    Undeclared {
        benchmark: Option<String>,
        metric: String,
        simulated: bool,
    },
    /// A benchmark of one kind carrying another kind's part.
    KindPart {
        benchmark: String,
        kind: &'static str,
        part: &'static str,
    },
    /// A latency histogram that is not base64.
    #[cfg(feature = "histograms")]
    HistogramBase64(base64::DecodeError),
    /// A latency histogram whose bytes do not decode (hdrhistogram's words).
    HistogramDecode(String),
    /// A child's region time that is not whole nanoseconds.
    RegionTime { text: String },
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::ColumnLength {
                column,
                values,
                count,
            } => write!(
                f,
                "samples: {column} has {values} values for {count} samples"
            ),
            Invalid::ZeroIterations => f.write_str("samples: a sample of 0 iterations"),
            Invalid::NoValues { count } => {
                write!(f, "samples: {count} samples with no metric's values")
            }
            Invalid::JoinMetrics => f.write_str("the samples to join measure different metrics"),
            Invalid::JoinExits => f.write_str("only one side of the samples to join records exits"),
            Invalid::Undeclared {
                benchmark,
                metric,
                simulated,
            } => {
                if let Some(name) = benchmark {
                    write!(f, "benchmark {name:?}: ")?;
                }
                let simulated = if *simulated {
                    "simulated metric"
                } else {
                    "metric"
                };
                write!(
                    f,
                    "{simulated} \"{metric}\" has values but is not declared in \"metrics\""
                )
            }
            Invalid::KindPart {
                benchmark,
                kind,
                part,
            } => write!(
                f,
                "benchmark {benchmark:?} is a {kind} benchmark with a {part} part"
            ),
            #[cfg(feature = "histograms")]
            Invalid::HistogramBase64(e) => write!(f, "latency histogram is not base64: {e}"),
            Invalid::HistogramDecode(why) => {
                write!(f, "latency histogram does not decode: {why}")
            }
            Invalid::RegionTime { text } => {
                write!(f, "{text:?} is not a region time in whole nanoseconds")
            }
        }
    }
}

impl std::error::Error for Invalid {}
