//! An HPACK decoder (RFC 7541) for the answers' header blocks: indexed fields from the
//! static and dynamic tables, literals with and without indexing, table size updates,
//! and Huffman-coded strings (decoded bit by bit against the canonical code of Appendix
//! B, whose tables are built once). Written here because the decoders on crates.io
//! rebuild their Huffman table (a hash map) for every string they decode — a thousand
//! times the cost of the decoding itself on the generator's path — and `h2`'s is private.
//! Strings decode into buffers kept between blocks: a field costs no allocation unless
//! the server adds it to the dynamic table.
use std::collections::VecDeque;
use std::fmt;
use std::sync::OnceLock;

/// Each entry's overhead in the table's size (§4.1).
const ENTRY_OVERHEAD: usize = 32;
/// SETTINGS_HEADER_TABLE_SIZE's default, which this client never changes.
const MAX_TABLE: usize = 4096;

#[derive(Debug, Clone, PartialEq)]
pub struct HpackError(pub &'static str);

impl fmt::Display for HpackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

pub struct Decoder {
    /// Newest first, as indices count (§2.3.3).
    dynamic: VecDeque<(Vec<u8>, Vec<u8>)>,
    size: usize,
    max_size: usize,
    name: Vec<u8>,
    value: Vec<u8>,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder {
            dynamic: VecDeque::new(),
            size: 0,
            max_size: MAX_TABLE,
            name: Vec::new(),
            value: Vec::new(),
        }
    }

    /// Decodes one whole header block, calling `field` with each name and value.
    pub fn decode(
        &mut self,
        mut block: &[u8],
        mut field: impl FnMut(&[u8], &[u8]),
    ) -> Result<(), HpackError> {
        while let Some(&first) = block.first() {
            if first & 0x80 != 0 {
                let (index, used) = integer(block, 7)?;
                block = &block[used..];
                let (name, value) = entry(&self.dynamic, index)?;
                field(name, value);
            } else if first & 0xe0 == 0x20 {
                let (size, used) = integer(block, 5)?;
                block = &block[used..];
                if size > MAX_TABLE {
                    return Err(HpackError("a table size update above the size allowed"));
                }
                self.max_size = size;
                self.evict(0);
            } else {
                let indexing = first & 0xc0 == 0x40;
                let prefix = if indexing { 6 } else { 4 };
                let used = self.literal(block, prefix)?;
                block = &block[used..];
                field(&self.name, &self.value);
                if indexing {
                    self.insert();
                }
            }
        }
        Ok(())
    }

    /// A literal field into `name` and `value`; the bytes it took.
    fn literal(&mut self, block: &[u8], prefix: u32) -> Result<usize, HpackError> {
        let (index, mut at) = integer(block, prefix)?;
        if index == 0 {
            at += string(&block[at..], &mut self.name)?;
        } else {
            // The name of an entry, copied into the buffer kept (no allocation).
            let (name, _) = entry(&self.dynamic, index)?;
            self.name.clear();
            self.name.extend_from_slice(name);
        }
        at += string(&block[at..], &mut self.value)?;
        Ok(at)
    }

    fn insert(&mut self) {
        let size = self.name.len() + self.value.len() + ENTRY_OVERHEAD;
        self.evict(size);
        if size <= self.max_size {
            self.dynamic
                .push_front((self.name.clone(), self.value.clone()));
            self.size += size;
        }
    }

    /// Evicts the oldest entries until `room` more bytes fit (all of them if it never
    /// will, §4.4).
    fn evict(&mut self, room: usize) {
        while self.size + room > self.max_size {
            let Some((n, v)) = self.dynamic.pop_back() else {
                self.size = 0;
                return;
            };
            self.size -= n.len() + v.len() + ENTRY_OVERHEAD;
        }
    }
}

/// Entry `index` of the static table (1–61) or the dynamic one (62 on).
fn entry(
    dynamic: &VecDeque<(Vec<u8>, Vec<u8>)>,
    index: usize,
) -> Result<(&[u8], &[u8]), HpackError> {
    match index {
        0 => Err(HpackError("index 0")),
        i if i <= STATIC.len() => {
            let (n, v) = STATIC[i - 1];
            Ok((n.as_bytes(), v.as_bytes()))
        }
        i => dynamic
            .get(i - STATIC.len() - 1)
            .map(|(n, v)| (n.as_slice(), v.as_slice()))
            .ok_or(HpackError("an index beyond the tables")),
    }
}

/// An integer with an N-bit prefix (§5.1), and the bytes it took.
fn integer(b: &[u8], prefix: u32) -> Result<(usize, usize), HpackError> {
    let max = (1usize << prefix) - 1;
    let first = *b
        .first()
        .ok_or(HpackError("a block cut inside an integer"))? as usize
        & max;
    if first < max {
        return Ok((first, 1));
    }
    let mut value = max;
    for (k, &byte) in b[1..].iter().enumerate() {
        if k >= 4 {
            return Err(HpackError("an integer too large"));
        }
        value += ((byte & 0x7f) as usize) << (7 * k);
        if byte & 0x80 == 0 {
            return Ok((value, k + 2));
        }
    }
    Err(HpackError("a block cut inside an integer"))
}

/// A string (§5.2) into `out`, Huffman-decoded where its H bit says; the bytes it took.
fn string(b: &[u8], out: &mut Vec<u8>) -> Result<usize, HpackError> {
    let huffman = b.first().is_some_and(|x| x & 0x80 != 0);
    let (len, at) = integer(b, 7)?;
    let raw = b
        .get(at..at + len)
        .ok_or(HpackError("a block cut inside a string"))?;
    out.clear();
    if huffman {
        huffman_decode(raw, out)?;
    } else {
        out.extend_from_slice(raw);
    }
    Ok(at + len)
}

/// The canonical code's tables: per length, its first code, how many codes, and where
/// its symbols start in the symbols sorted by (length, symbol).
struct Canonical {
    first: [u32; 31],
    count: [u32; 31],
    offset: [usize; 31],
    symbols: [u16; 257],
}

fn canonical() -> &'static Canonical {
    static TABLES: OnceLock<Canonical> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut c = Canonical {
            first: [0; 31],
            count: [0; 31],
            offset: [0; 31],
            symbols: [0; 257],
        };
        let mut order: Vec<u16> = (0..257).collect();
        order.sort_by_key(|&s| (CODE_LENGTHS[s as usize], s));
        for &len in &CODE_LENGTHS {
            c.count[len as usize] += 1;
        }
        let (mut code, mut at) = (0u32, 0usize);
        for len in 1..31 {
            c.first[len] = code;
            c.offset[len] = at;
            code = (code + c.count[len]) << 1;
            at += c.count[len] as usize;
        }
        c.symbols.copy_from_slice(&order);
        c
    })
}

/// Appendix B's code, decoded bit by bit: a code of length L is one of the `count[L]`
/// values from `first[L]` (a canonical code's shorter codes are never prefixes).
fn huffman_decode(raw: &[u8], out: &mut Vec<u8>) -> Result<(), HpackError> {
    let c = canonical();
    let (mut code, mut len) = (0u32, 0usize);
    for &byte in raw {
        for shift in (0..8).rev() {
            code = code << 1 | u32::from(byte >> shift & 1);
            len += 1;
            let k = code.wrapping_sub(c.first[len]);
            if k < c.count[len] {
                let symbol = c.symbols[c.offset[len] + k as usize];
                if symbol == 256 {
                    return Err(HpackError("the end-of-string symbol inside a string"));
                }
                out.push(symbol as u8);
                code = 0;
                len = 0;
            } else if len == 30 {
                return Err(HpackError("not a Huffman code"));
            }
        }
    }
    // Padding: fewer than 8 bits, all ones (the end-of-string code's first bits, §5.2).
    if len > 7 || code != (1 << len) - 1 {
        return Err(HpackError("bad Huffman padding"));
    }
    Ok(())
}

/// Appendix A.
static STATIC: [(&str, &str); 61] = [
    (":authority", ""),
    (":method", "GET"),
    (":method", "POST"),
    (":path", "/"),
    (":path", "/index.html"),
    (":scheme", "http"),
    (":scheme", "https"),
    (":status", "200"),
    (":status", "204"),
    (":status", "206"),
    (":status", "304"),
    (":status", "400"),
    (":status", "404"),
    (":status", "500"),
    ("accept-charset", ""),
    ("accept-encoding", "gzip, deflate"),
    ("accept-language", ""),
    ("accept-ranges", ""),
    ("accept", ""),
    ("access-control-allow-origin", ""),
    ("age", ""),
    ("allow", ""),
    ("authorization", ""),
    ("cache-control", ""),
    ("content-disposition", ""),
    ("content-encoding", ""),
    ("content-language", ""),
    ("content-length", ""),
    ("content-location", ""),
    ("content-range", ""),
    ("content-type", ""),
    ("cookie", ""),
    ("date", ""),
    ("etag", ""),
    ("expect", ""),
    ("expires", ""),
    ("from", ""),
    ("host", ""),
    ("if-match", ""),
    ("if-modified-since", ""),
    ("if-none-match", ""),
    ("if-range", ""),
    ("if-unmodified-since", ""),
    ("last-modified", ""),
    ("link", ""),
    ("location", ""),
    ("max-forwards", ""),
    ("proxy-authenticate", ""),
    ("proxy-authorization", ""),
    ("range", ""),
    ("referer", ""),
    ("refresh", ""),
    ("retry-after", ""),
    ("server", ""),
    ("set-cookie", ""),
    ("strict-transport-security", ""),
    ("transfer-encoding", ""),
    ("user-agent", ""),
    ("vary", ""),
    ("via", ""),
    ("www-authenticate", ""),
];

/// Appendix B's code lengths, symbol by symbol (0–255, then 256: end of string); the
/// code is canonical, so the lengths are all it takes.
static CODE_LENGTHS: [u8; 257] = [
    13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 30, 28,
    28, 28, 28, 28, 28, 28, 28, 28, 6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6, 5, 5,
    5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10, 13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
    7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6, 15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6,
    6, 5, 6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28, 20, 22, 20, 20, 22, 22, 22, 23, 22,
    23, 23, 23, 23, 23, 24, 23, 24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24, 22,
    21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, 21, 21, 22, 21, 23, 22, 23, 23, 20,
    22, 22, 22, 23, 22, 22, 23, 26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25, 19,
    21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27, 20, 24, 20, 21, 22, 21, 21, 23, 22,
    22, 25, 25, 24, 24, 26, 23, 26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26, 30,
];

#[cfg(test)]
mod tests;
