//! Hartigan's dip: the largest distance between a sample's empirical distribution function
//! and the closest unimodal one (Hartigan & Hartigan 1985, "The dip test of unimodality";
//! the algorithm of Hartigan 1985, Applied Statistics AS 217). Written from the published
//! algorithm; tested against the `diptest` package (the one R and Python users run).
//!
//! Why the dip and not a kernel-density or mixture test as plumb's second mode detector:
//! its null distribution is taken at the uniform, the least favourable unimodal
//! distribution, so its false-alarm rate on any unimodal sample (normal, skewed,
//! heavy-tailed) is at most the level chosen, without a bandwidth or a distribution family
//! to pick. A two-Gaussian fit by BIC calls every skewed timing distribution bimodal once
//! n is large; a kernel-density peak count depends on its bandwidth.

use crate::{check_finite, sorted, StatsError};

/// The dip of a sample and the modal interval of the closest unimodal distribution.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dip {
    /// Between 1/(2n) and 1/4; near 1/(2n) for a unimodal sample.
    pub dip: f64,
    pub modal_lo: f64,
    pub modal_hi: f64,
}

/// The dip of a sample with at least one value. Ties are kept as they are; see
/// `crate::dip_test` for samples of discrete values.
pub fn dip(xs: &[f64]) -> Result<Dip, StatsError> {
    check_finite(xs, 1)?;
    Ok(dip_of_sorted(&sorted(xs)))
}

/// The dip of sorted values. Indices below are 1-based (`x[0]` is a pad) so that the
/// code reads as the published algorithm does; counts are in units of one sample and
/// divided by 2n at the end.
pub(crate) fn dip_of_sorted(sorted: &[f64]) -> Dip {
    let n = sorted.len();
    let x: Vec<f64> = std::iter::once(f64::NAN)
        .chain(sorted.iter().copied())
        .collect();
    if n < 2 || x[1] == x[n] {
        return Dip {
            dip: 1.0 / (2.0 * n as f64),
            modal_lo: x[1],
            modal_hi: x[n],
        };
    }
    let (mn, mj) = (minorant_links(&x), majorant_links(&x));
    let (mut low, mut high) = (1, n);
    let mut dip = 1.0;
    let mut gcm = Vec::with_capacity(n + 1);
    let mut lcm = Vec::with_capacity(n + 1);
    loop {
        hull_chain(&mut gcm, high, |i| i > low, |i| mn[i]);
        hull_chain(&mut lcm, low, |i| i < high, |i| mj[i]);
        let (d, ig, ih) = widest_gap(&x, &gcm, &lcm);
        if d < dip {
            break;
        }
        let within = minorant_dip(&x, &gcm, ig).max(majorant_dip(&x, &lcm, ih));
        dip = f64::max(dip, within);
        if low == gcm[ig] && high == lcm[ih] {
            break;
        }
        (low, high) = (gcm[ig], lcm[ih]);
    }
    Dip {
        dip: dip / (2.0 * n as f64),
        modal_lo: x[low],
        modal_hi: x[high],
    }
}

/// For each j, the previous vertex of the greatest convex minorant of x[1..=j].
fn minorant_links(x: &[f64]) -> Vec<usize> {
    let n = x.len() - 1;
    let mut mn = vec![0; n + 1];
    mn[1] = 1;
    for j in 2..=n {
        mn[j] = j - 1;
        loop {
            let (a, b) = (mn[j], mn[mn[j]]);
            if a == 1 || (x[j] - x[a]) * ((a - b) as f64) < (x[a] - x[b]) * (j - a) as f64 {
                break;
            }
            mn[j] = b;
        }
    }
    mn
}

/// For each k, the next vertex of the least concave majorant of x[k..=n].
fn majorant_links(x: &[f64]) -> Vec<usize> {
    let n = x.len() - 1;
    let mut mj = vec![0; n + 1];
    mj[n] = n;
    for k in (1..n).rev() {
        mj[k] = k + 1;
        loop {
            let (a, b) = (mj[k], mj[mj[k]]);
            // (x[k] - x[a])·(a - b) < (x[a] - x[b])·(k - a), each product's two factors
            // negated so that the index differences stay unsigned.
            if a == n || (x[a] - x[k]) * ((b - a) as f64) < (x[b] - x[a]) * (a - k) as f64 {
                break;
            }
            mj[k] = b;
        }
    }
    mj
}

/// Follows `link` from `start` while `go_on`, writing the chain into `out` (1-based).
fn hull_chain(
    out: &mut Vec<usize>,
    start: usize,
    go_on: impl Fn(usize) -> bool,
    link: impl Fn(usize) -> usize,
) {
    out.clear();
    out.push(0);
    out.push(start);
    while go_on(*out.last().expect("non-empty")) {
        out.push(link(*out.last().expect("non-empty")));
    }
}

/// The largest vertical distance between the minorant (`gcm`, walked from high to low)
/// and the majorant (`lcm`, from low to high) on [low, high], with the indices into each
/// chain where it occurs. When both are a single segment the distance is one sample,
/// the smallest possible.
fn widest_gap(x: &[f64], gcm: &[usize], lcm: &[usize]) -> (f64, usize, usize) {
    let (l_gcm, l_lcm) = (gcm.len() - 1, lcm.len() - 1);
    if l_gcm == 2 && l_lcm == 2 {
        return (1.0, l_gcm, l_lcm);
    }
    let (mut ix, mut iv) = (l_gcm - 1, 2);
    let (mut d, mut ig, mut ih) = (0.0, l_gcm, l_lcm);
    loop {
        let (gx, lv) = (gcm[ix], lcm[iv]);
        if gx > lv {
            // The majorant's vertex lv lies left of the minorant's: measure there.
            let g1 = gcm[ix + 1];
            let dx = (lv - g1 + 1) as f64 - (x[lv] - x[g1]) * (gx - g1) as f64 / (x[gx] - x[g1]);
            iv += 1;
            if dx >= d {
                (d, ig, ih) = (dx, ix + 1, iv - 1);
            }
        } else {
            let l1 = lcm[iv - 1];
            let dx = (x[gx] - x[l1]) * (lv - l1) as f64 / (x[lv] - x[l1]) - (gx - l1 - 1) as f64;
            ix -= 1;
            if dx >= d {
                (d, ig, ih) = (dx, ix + 1, iv);
            }
        }
        ix = ix.max(1);
        iv = iv.min(l_lcm);
        if gcm[ix] == lcm[iv] {
            return (d, ig, ih);
        }
    }
}

/// The largest distance between the empirical function and the minorant on its
/// segments from chain index `ig` down to low.
fn minorant_dip(x: &[f64], gcm: &[usize], ig: usize) -> f64 {
    let l_gcm = gcm.len() - 1;
    (ig..l_gcm)
        .map(|j| {
            let (jb, je) = (gcm[j + 1], gcm[j]);
            segment_excess(x, jb, je, |jj, c| {
                (jj - jb + 1) as f64 - (x[jj] - x[jb]) * c
            })
        })
        .fold(0.0, f64::max)
}

/// As `minorant_dip`, for the majorant from chain index `ih` up to high.
fn majorant_dip(x: &[f64], lcm: &[usize], ih: usize) -> f64 {
    let l_lcm = lcm.len() - 1;
    (ih..l_lcm)
        .map(|j| {
            let (jb, je) = (lcm[j], lcm[j + 1]);
            segment_excess(x, jb, je, |jj, c| {
                (x[jj] - x[jb]) * c - (jj as f64 - jb as f64 - 1.0)
            })
        })
        .fold(0.0, f64::max)
}

/// The largest `excess(jj, slope)` over the points of one hull segment [jb, je], at
/// least 1 (one sample's step).
fn segment_excess(x: &[f64], jb: usize, je: usize, excess: impl Fn(usize, f64) -> f64) -> f64 {
    if je - jb <= 1 || x[je] == x[jb] {
        return 1.0;
    }
    let slope = (je - jb) as f64 / (x[je] - x[jb]);
    (jb..=je).map(|jj| excess(jj, slope)).fold(1.0, f64::max)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The 64-bit LCG of the Python script that produced the references below, so that
    /// both draw the same values: uniforms from the top 53 bits; a normal as the sum of
    /// 12 uniforms minus 6.
    pub(crate) fn lcg(seed: u64) -> impl FnMut() -> f64 {
        let mut s = seed;
        move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    pub(crate) fn normalish(n: usize, mean: f64, sd: f64, seed: u64) -> Vec<f64> {
        let mut u = lcg(seed);
        (0..n)
            .map(|_| mean + sd * ((0..12).map(|_| u()).sum::<f64>() - 6.0))
            .collect()
    }

    /// References from the `diptest` package 0.12.0 (Python; Maechler's C code of R's
    /// diptest): `diptest.dipstat(x, full_output=True)` → dip, xl, xu.
    #[test]
    fn matches_the_diptest_package() {
        let mut u = lcg(3);
        let uniform: Vec<f64> = (0..200).map(|_| u()).collect();
        let mix = |a: Vec<f64>, b: Vec<f64>| [a, b].concat();
        let ties: Vec<f64> = normalish(300, 10.0, 2.0, 8)
            .into_iter()
            .map(f64::round)
            .collect();
        let cases = [
            (
                normalish(50, 10.0, 1.0, 1),
                0.03502369756698357,
                10.194286004156833,
                10.28497891668319,
            ),
            (
                normalish(500, 10.0, 1.0, 2),
                0.013566983563797493,
                9.305915246732486,
                9.8349027767796,
            ),
            (
                uniform,
                0.02986767433740278,
                0.24056394894324906,
                0.4892687810192703,
            ),
            (
                mix(normalish(70, 1.0, 0.05, 4), normalish(30, 2.0, 0.1, 5)),
                0.10026856815028784,
                0.8914844966485617,
                1.08803997887888,
            ),
            (
                mix(normalish(90, 1.0, 0.05, 6), normalish(10, 1.5, 0.075, 7)),
                0.028466819427795532,
                0.9944794890864179,
                1.0541641353207376,
            ),
            (ties, 0.08833333333333333, 10.0, 10.0),
        ];
        for (i, (xs, want, lo, hi)) in cases.into_iter().enumerate() {
            let d = dip(&xs).unwrap();
            assert!((d.dip - want).abs() < 1e-12, "case {i}: {d:?} vs {want}");
            assert_eq!((d.modal_lo, d.modal_hi), (lo, hi), "case {i}");
        }
    }

    #[test]
    fn constant_and_tiny_samples_have_no_dip() {
        assert_eq!(dip(&[3.0; 5]).unwrap().dip, 0.1);
        assert_eq!(dip(&[3.0]).unwrap().dip, 0.5);
    }
}
