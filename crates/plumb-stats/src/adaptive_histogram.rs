//! Akinshin's adaptive histogram (Perfolizer's `AdaptiveHistogramBuilder`), the one
//! BenchmarkDotNet's mValue is computed on: bins of a base width, but wider where the
//! values are larger (2 % of the value), placed around the densest runs of values, and
//! bins much narrower than the base width joined to a neighbour. Written from the
//! published algorithm so that the mValue it gives matches Perfolizer's own test values.

/// One bin: its bounds and how many values it holds (and the largest of them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bin {
    pub lower: f64,
    pub upper: f64,
    pub count: usize,
    max: Option<f64>,
}

impl Bin {
    fn gap(&self) -> f64 {
        self.upper - self.lower
    }

    fn union(a: Bin, b: Bin) -> Bin {
        Bin {
            lower: a.lower.min(b.lower),
            upper: a.upper.max(b.upper),
            count: a.count + b.count,
            max: match (a.max, b.max) {
                (Some(x), Some(y)) => Some(x.max(y)),
                (x, y) => x.or(y),
            },
        }
    }
}

const EPS: f64 = 1e-9;
const MARGIN: f64 = 0.1;
const ADAPTIVE: f64 = 0.02;
const RESOLUTION: f64 = 1e-4;

fn nice_floor(x: f64) -> f64 {
    (x / RESOLUTION).floor() * RESOLUTION
}

fn nice_ceil(x: f64) -> f64 {
    (x / RESOLUTION).ceil() * RESOLUTION
}

/// The histogram of `sorted` (ascending, non-empty) at base width `width` (> 0); `None`
/// if the placement does not settle (a safeguard: it settles on every sample tried).
pub fn adaptive_histogram(sorted: &[f64], width: f64) -> Option<Vec<Bin>> {
    let width = nice_ceil(width.max(RESOLUTION));
    let (first, last) = (*sorted.first()?, *sorted.last()?);
    if last - first < width {
        let center = (first + last) / 2.0;
        return Some(vec![Bin {
            lower: center - width / 2.0,
            upper: center + width / 2.0,
            count: sorted.len(),
            max: Some(last),
        }]);
    }
    let points = place_edges(sorted, width)?;
    let bins = fill(sorted, &points);
    Some(join_narrow(trim(bins), width))
}

/// Bin edges: start with one wide interval and split every interval wider than the
/// (adaptive) width, around the densest run of values inside it.
fn place_edges(list: &[f64], width: f64) -> Option<Vec<f64>> {
    let mut points = vec![
        nice_floor(list[0] - width / 2.0),
        nice_ceil(list[list.len() - 1] + width / 2.0),
    ];
    let mut processed = 0;
    loop {
        if points.len() > 10 * list.len() {
            return None;
        }
        let too_wide = (processed..points.len() - 1).find(|&i| {
            let adaptive = (points[i] + points[i + 1]) / 2.0 * ADAPTIVE;
            points[i + 1] - points[i] > (width * (1.0 + 2.0 * MARGIN)).max(adaptive)
        });
        let Some(at) = too_wide else {
            return Some(points);
        };
        let (lower, upper) = (points[at], points[at + 1]);
        match densest_run(list, lower, upper, width) {
            Some((a, b)) => {
                let center = (list[a] + list[b]) / 2.0;
                let adaptive = width.max(center * ADAPTIVE);
                let left = nice_floor(center - adaptive / 2.0);
                let right = nice_floor((center + adaptive / 2.0).min(upper));
                if left > lower + width * MARGIN {
                    points.insert(at + 1, left);
                } else if right < upper - width * MARGIN && right > lower + width * MARGIN {
                    points.insert(at + 1, right);
                    processed += 1;
                } else {
                    processed += 1;
                }
            }
            None => {
                points.insert(at + 1, nice_floor(lower + width));
                processed += 1;
            }
        }
    }
}

/// The run of values inside [lower, upper) spanning less than `width` that holds the most
/// values (the tightest of equals): its first and last index.
fn densest_run(list: &[f64], lower: f64, upper: f64, width: f64) -> Option<(usize, usize)> {
    let inside = |x: f64| x > lower - EPS && x < upper - EPS;
    let mut best: Option<(usize, usize, usize, f64)> = None;
    for i in (0..list.len()).filter(|&i| inside(list[i])) {
        let mut j = i;
        while j < list.len() && inside(list[j]) && list[j] - list[i] < width {
            j += 1;
        }
        let (count, dist) = (j - i, list[j - 1] - list[i]);
        let better = best.is_none_or(|(_, _, c, d)| count > c || count == c && dist < d);
        if better {
            best = Some((i, j - 1, count, dist));
        }
    }
    best.map(|(a, b, _, _)| (a, b))
}

fn fill(list: &[f64], points: &[f64]) -> Vec<Bin> {
    let mut next = 0;
    let mut bins = Vec::with_capacity(points.len() - 1);
    for w in points.windows(2) {
        let start = next;
        while next < list.len() && list[next] < w[1] {
            next += 1;
        }
        bins.push(Bin {
            lower: w[0],
            upper: w[1],
            count: next - start,
            max: (next > start).then(|| list[next - 1]),
        });
    }
    bins
}

fn trim(mut bins: Vec<Bin>) -> Vec<Bin> {
    while bins.first().is_some_and(|b| b.count == 0) {
        bins.remove(0);
    }
    while bins.last().is_some_and(|b| b.count == 0) {
        bins.pop();
    }
    bins
}

/// A bin narrower than a third of the width (or 2 % of the values so far) joins its
/// narrower neighbour.
fn join_narrow(mut bins: Vec<Bin>, width: f64) -> Vec<Bin> {
    let mut i = 0;
    let mut last_value: f64 = 0.0;
    while i < bins.len() {
        if let Some(m) = bins[i].max {
            last_value = last_value.max(m);
        }
        let threshold = (width / 3.0).max(last_value * ADAPTIVE);
        if bins[i].gap() >= threshold {
            i += 1;
            continue;
        }
        let left = if i > 0 { bins[i - 1].gap() } else { f64::MAX };
        let right = if i + 1 < bins.len() {
            bins[i + 1].gap()
        } else {
            f64::MAX
        };
        if left < right && i > 0 {
            bins[i - 1] = Bin::union(bins[i - 1], bins[i]);
            bins.remove(i);
        } else if i + 1 < bins.len() {
            bins[i] = Bin::union(bins[i], bins[i + 1]);
            bins.remove(i + 1);
        } else {
            i += 1;
        }
    }
    bins
}
