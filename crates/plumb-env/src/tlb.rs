//! The data TLBs' entries for 4 KiB pages, from CPUID: how much memory their translations
//! reach, the edge a sweep can step over where no cache lies (issue 24, defect 18). AMD
//! reports them in leaves 0x8000_0005 (L1) and 0x8000_0006 (L2); Intel in leaf 0x18, one
//! subleaf per translation structure. Elsewhere, or when CPUID says nothing, no TLB is
//! recorded and no step is blamed on one.
use plumb_model::quantity::ByteSize;
use plumb_model::TlbLevel;

const PAGE: ByteSize = ByteSize(4096);

pub fn data_tlbs() -> Vec<TlbLevel> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__cpuid, __cpuid_count};
        // Leaves past the maximum return zeros or the highest leaf's values: each is
        // asked for only below the maximum its vendor reports.
        let vendor = __cpuid(0);
        let max_ext = __cpuid(0x8000_0000).eax;
        if vendor.ebx == u32::from_le_bytes(*b"Auth") && max_ext >= 0x8000_0006 {
            let (l1, l2) = (__cpuid(0x8000_0005).ebx, __cpuid(0x8000_0006).ebx);
            return amd(l1, l2);
        }
        if vendor.ebx == u32::from_le_bytes(*b"Genu") && vendor.eax >= 0x18 {
            let max_sub = __cpuid_count(0x18, 0).eax;
            let subleaves: Vec<(u32, u32, u32)> = (0..=max_sub.min(16))
                .map(|s| {
                    let r = __cpuid_count(0x18, s);
                    (r.ebx, r.ecx, r.edx)
                })
                .collect();
            return intel(&subleaves);
        }
    }
    Vec::new()
}

/// AMD: L1 data TLB entries for 4 KiB pages in EBX[23:16] of 0x8000_0005, L2 in
/// EBX[27:16] of 0x8000_0006 (an associativity of 0 there means no L2 TLB).
fn amd(l1_ebx: u32, l2_ebx: u32) -> Vec<TlbLevel> {
    let mut out = Vec::new();
    let l1 = (l1_ebx >> 16) & 0xff;
    if l1 > 0 {
        out.push(level(1, l1));
    }
    let (l2, l2_ways) = ((l2_ebx >> 16) & 0xfff, l2_ebx >> 28);
    if l2 > 0 && l2_ways > 0 {
        out.push(level(2, l2));
    }
    out
}

/// Intel leaf 0x18, one (EBX, ECX, EDX) per subleaf: EDX[4:0] the type (1 data, 3
/// unified, 4 load-only), EDX[7:5] the level, EBX[0] 4 KiB pages supported, EBX[31:16]
/// the ways, ECX the sets. The largest structure per level that translates loads.
fn intel(subleaves: &[(u32, u32, u32)]) -> Vec<TlbLevel> {
    let mut out: Vec<TlbLevel> = Vec::new();
    for &(ebx, ecx, edx) in subleaves {
        let kind = edx & 0x1f;
        if !matches!(kind, 1 | 3 | 4) || ebx & 1 == 0 {
            continue;
        }
        let entries = (ebx >> 16) * ecx;
        let lvl = ((edx >> 5) & 0x7) as u8;
        match out.iter_mut().find(|t| t.level == lvl) {
            Some(t) if t.entries < entries => t.entries = entries,
            Some(_) => {}
            None if entries > 0 => out.push(level(lvl, entries)),
            None => {}
        }
    }
    out.sort_by_key(|t| t.level);
    out
}

fn level(level: u8, entries: u32) -> TlbLevel {
    TlbLevel {
        level,
        entries,
        page_size: PAGE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amd_leaves_as_this_vm_reports_them() {
        // 0x8000_0005 EBX 0xff40ff40 and 0x8000_0006 EBX 0x68004200, read on this VM:
        // 64 L1 entries, 2048 L2 entries, for 4 KiB pages.
        let t = amd(0xff40_ff40, 0x6800_4200);
        assert_eq!((t[0].level, t[0].entries), (1, 64));
        assert_eq!((t[1].level, t[1].entries), (2, 2048));
        assert_eq!(t[0].reach(), ByteSize(256 << 10));
        assert_eq!(t[1].reach(), ByteSize(8 << 20));
        assert!(amd(0, 0).is_empty());
    }

    #[test]
    fn intel_subleaves_give_the_load_tlb_of_each_level() {
        // Hand-built from the SDM's layout: a 4-way 16-set load-only L1 DTLB (64), an
        // instruction TLB left out, a 12-way 128-set unified L2 (1536), and a 2M-only
        // structure (no 4K bit) left out.
        let sub = [
            (0, 0, 0),
            ((4 << 16) | 1, 16, (1 << 5) | 4),
            ((8 << 16) | 1, 8, (1 << 5) | 2),
            ((12 << 16) | 1, 128, (2 << 5) | 3),
            (16 << 16, 32, (2 << 5) | 3),
        ];
        let t = intel(&sub);
        assert_eq!(t.len(), 2);
        assert_eq!((t[0].level, t[0].entries), (1, 64));
        assert_eq!((t[1].level, t[1].entries), (2, 1536));
    }
}
