//! YCSB's six core workloads as design presets (`preset = "ycsb-a"` … `"ycsb-f"`), from
//! its `workloads/workloada` … `workloadf` and CoreWorkload's defaults (docs/ycsb-notes.md
//! §5–6): 1,000 records of ten 100-byte fields, keys `user` + a hashed number (about 23
//! bytes), Zipfian requests (θ = 0.99, scrambled) except D's latest.
use super::{Design, KeyDistribution, Mix, SizeDistribution};
use crate::quantity::ByteSize;

/// The design of YCSB core workload `letter` (a–f), or None for another letter.
pub fn ycsb_core(letter: char) -> Option<Design> {
    let mix = |read, update, insert, scan, read_modify_write| Mix {
        read,
        update,
        insert,
        scan,
        read_modify_write,
    };
    let (mix, keys) = match letter.to_ascii_lowercase() {
        'a' => (mix(0.5, 0.5, 0.0, 0.0, 0.0), zipfian()),
        'b' => (mix(0.95, 0.05, 0.0, 0.0, 0.0), zipfian()),
        'c' => (mix(1.0, 0.0, 0.0, 0.0, 0.0), zipfian()),
        'd' => (
            mix(0.95, 0.0, 0.05, 0.0, 0.0),
            KeyDistribution::Latest { theta: 0.99 },
        ),
        'e' => (mix(0.0, 0.0, 0.05, 0.95, 0.0), zipfian()),
        'f' => (mix(0.5, 0.0, 0.0, 0.0, 0.5), zipfian()),
        _ => return None,
    };
    Some(Design {
        preset: Some(format!("ycsb-{}", letter.to_ascii_lowercase())),
        keys: Some(keys),
        mix: Some(mix),
        records: Some(1_000),
        // "user" + the FNV hash of the key number in decimal: 4 + up to 19 digits.
        key_size: Some(SizeDistribution::Fixed { size: ByteSize(23) }),
        // fieldcount = 10 × fieldlength = 100, fieldlengthdistribution = constant.
        value_size: Some(SizeDistribution::Fixed {
            size: ByteSize(1_000),
        }),
        ..Design::default()
    })
}

fn zipfian() -> KeyDistribution {
    KeyDistribution::Zipfian {
        theta: 0.99,
        scrambled: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_mixes_each_summing_to_one() {
        for letter in "abcdef".chars() {
            let d = ycsb_core(letter).unwrap();
            assert!((d.mix.unwrap().total() - 1.0).abs() < 1e-12, "{letter}");
            assert_eq!(d.records, Some(1_000));
        }
        assert_eq!(ycsb_core('g'), None);
        assert_eq!(ycsb_core('a').unwrap().mix.unwrap().write_share(), 0.5);
        assert_eq!(ycsb_core('c').unwrap().mix.unwrap().write_share(), 0.0);
        assert!(matches!(
            ycsb_core('d').unwrap().keys,
            Some(KeyDistribution::Latest { .. })
        ));
    }
}
