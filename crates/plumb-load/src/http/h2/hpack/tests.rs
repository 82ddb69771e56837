//! The decoder against RFC 7541's own examples (Appendix C.4: requests with Huffman
//! coding; C.6: responses with Huffman coding and evictions from a 256-byte table), each
//! also decoded by an independent decoder (`loona-hpack`) that must agree, and against
//! bad blocks.
use super::*;

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

type Fields = Vec<(String, String)>;

fn mine(d: &mut Decoder, block: &[u8]) -> Fields {
    let mut out = Vec::new();
    d.decode(block, |n, v| {
        out.push((
            String::from_utf8(n.to_vec()).unwrap(),
            String::from_utf8(v.to_vec()).unwrap(),
        ))
    })
    .unwrap();
    out
}

fn theirs(d: &mut loona_hpack::Decoder<'static>, block: &[u8]) -> Fields {
    d.decode(block)
        .unwrap()
        .into_iter()
        .map(|(n, v)| (String::from_utf8(n).unwrap(), String::from_utf8(v).unwrap()))
        .collect()
}

fn fields(pairs: &[(&str, &str)]) -> Fields {
    pairs
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

/// Blocks decoded in turn by both decoders (sharing their tables across blocks), each
/// equal to what the RFC says.
fn check(blocks: &[(&str, &[(&str, &str)])], table: usize) {
    let mut d = Decoder::new();
    d.max_size = table;
    let mut reference = loona_hpack::Decoder::new();
    reference.set_max_table_size(table);
    for (block, want) in blocks {
        let b = hex(block);
        let got = mine(&mut d, &b);
        assert_eq!(got, fields(want));
        assert_eq!(
            theirs(&mut reference, &b),
            got,
            "the independent decoder agrees"
        );
    }
}

#[test]
fn rfc_7541_c4_requests_with_huffman_coding() {
    check(
        &[
            (
                "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff",
                &[
                    (":method", "GET"),
                    (":scheme", "http"),
                    (":path", "/"),
                    (":authority", "www.example.com"),
                ],
            ),
            (
                "8286 84be 5886 a8eb 1064 9cbf",
                &[
                    (":method", "GET"),
                    (":scheme", "http"),
                    (":path", "/"),
                    (":authority", "www.example.com"),
                    ("cache-control", "no-cache"),
                ],
            ),
            (
                "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf",
                &[
                    (":method", "GET"),
                    (":scheme", "https"),
                    (":path", "/index.html"),
                    (":authority", "www.example.com"),
                    ("custom-key", "custom-value"),
                ],
            ),
        ],
        4096,
    );
}

#[test]
fn rfc_7541_c6_responses_with_huffman_coding_and_eviction() {
    let date1 = "Mon, 21 Oct 2013 20:13:21 GMT";
    let date2 = "Mon, 21 Oct 2013 20:13:22 GMT";
    check(
        &[
            (
                "4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3",
                &[(":status", "302"), ("cache-control", "private"), ("date", date1), ("location", "https://www.example.com")],
            ),
            (
                "4883 640e ffc1 c0bf",
                &[(":status", "307"), ("cache-control", "private"), ("date", date1), ("location", "https://www.example.com")],
            ),
            (
                "88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07",
                &[
                    (":status", "200"),
                    ("cache-control", "private"),
                    ("date", date2),
                    ("location", "https://www.example.com"),
                    ("content-encoding", "gzip"),
                    ("set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"),
                ],
            ),
        ],
        256,
    );
}

#[test]
fn bad_blocks_are_errors_not_panics() {
    for (block, why) in [
        ("80", "index 0"),
        ("ff00", "an index beyond the tables"),
        ("ff", "a block cut inside an integer"),
        ("0003 6162", "a block cut inside a string"),
        // "a" is 00011 (5 bits): padded with 0s instead of 1s.
        ("0081 18 00", "bad Huffman padding"),
        ("3fe21f", "a table size update above the size allowed"),
    ] {
        let mut d = Decoder::new();
        let e = d.decode(&hex(block), |_, _| {}).unwrap_err();
        assert_eq!(e.0, why, "{block}");
    }
}
