//! A request's HTTP/2 header block, encoded once before the test (RFC 7541): every field a
//! literal without indexing and without Huffman coding, so the block never depends on
//! the connection's compression state and the same bytes serve every request and every
//! connection (only the frame's stream id changes). The pseudo-headers come from the
//! target; HTTP/1.1's connection-specific headers are left out (RFC 9113 §8.2.2).
use super::super::target::Target;

/// Headers that mean something only to one HTTP/1.1 connection.
const CONNECTION_SPECIFIC: [&str; 5] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "transfer-encoding",
    "upgrade",
];

/// The header block of `method` to `target` with `headers`, and a body of `body_len`
/// bytes (a content-length is sent when there is one, or for POST, PUT and PATCH).
pub fn header_block(
    target: &Target,
    method: &str,
    headers: &[(String, String)],
    body_len: usize,
) -> Vec<u8> {
    let mut out = Vec::new();
    let scheme = if target.tls { "https" } else { "http" };
    for (name, value) in [
        (":method", method),
        (":scheme", scheme),
        (":authority", target.host_header.as_str()),
        (":path", target.path.as_str()),
    ] {
        literal(&mut out, name.as_bytes(), value.as_bytes());
    }
    let has = |name: &str| headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(name));
    if !has("user-agent") {
        literal(
            &mut out,
            b"user-agent",
            concat!("plumb/", env!("CARGO_PKG_VERSION")).as_bytes(),
        );
    }
    for (k, v) in headers {
        let name = k.to_ascii_lowercase();
        if CONNECTION_SPECIFIC.contains(&name.as_str()) || name == "host" {
            continue;
        }
        if name == "te" && !v.eq_ignore_ascii_case("trailers") {
            continue;
        }
        literal(&mut out, name.as_bytes(), v.as_bytes());
    }
    if !has("content-length") && (body_len > 0 || matches!(method, "POST" | "PUT" | "PATCH")) {
        literal(&mut out, b"content-length", body_len.to_string().as_bytes());
    }
    out
}

/// A literal header field without indexing, with a literal name (§6.2.2): 0x00, then
/// the name and the value as plain strings.
fn literal(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.push(0);
    string(out, name);
    string(out, value);
}

/// A string without Huffman coding: its length as a 7-bit-prefix integer, then its bytes.
fn string(out: &mut Vec<u8>, s: &[u8]) {
    integer(out, s.len(), 7, 0);
    out.extend_from_slice(s);
}

/// An integer with an N-bit prefix (§5.1); `high` holds the first byte's other bits.
fn integer(out: &mut Vec<u8>, mut n: usize, prefix: u32, high: u8) {
    let max = (1usize << prefix) - 1;
    if n < max {
        out.push(high | n as u8);
        return;
    }
    out.push(high | max as u8);
    n -= max;
    while n >= 128 {
        out.push((n % 128) as u8 | 0x80);
        n /= 128;
    }
    out.push(n as u8);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The block decodes, by an independent HPACK decoder, to the fields meant.
    #[test]
    fn the_block_decodes_to_the_request_and_drops_connection_headers() {
        let target = Target::parse("https://api.example.com:8443/v1/items?q=1").unwrap();
        let long = "x".repeat(300);
        let headers = vec![
            ("Content-Type".to_string(), "application/json".to_string()),
            ("Connection".to_string(), "close".to_string()),
            ("X-Long".to_string(), long.clone()),
            ("TE".to_string(), "gzip".to_string()),
        ];
        let block = header_block(&target, "POST", &headers, 18);
        let mut decoder = loona_hpack::Decoder::new();
        let fields: Vec<(String, String)> = decoder
            .decode(&block)
            .unwrap()
            .into_iter()
            .map(|(k, v)| (String::from_utf8(k).unwrap(), String::from_utf8(v).unwrap()))
            .collect();
        let names: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            names,
            [
                ":method",
                ":scheme",
                ":authority",
                ":path",
                "user-agent",
                "content-type",
                "x-long",
                "content-length"
            ]
        );
        assert_eq!(fields[2].1, "api.example.com:8443");
        assert_eq!(fields[3].1, "/v1/items?q=1");
        assert_eq!(fields[6].1, long, "a length past the 7-bit prefix");
        assert_eq!(fields[7].1, "18");
        // The same bytes whatever the decoder's state: decoding twice gives the same.
        assert_eq!(decoder.decode(&block).unwrap().len(), 8);
    }

    #[test]
    fn integers_follow_rfc_7541s_examples() {
        // C.1.1: 10 in a 5-bit prefix; C.1.2: 1337 in a 5-bit prefix.
        let mut out = Vec::new();
        integer(&mut out, 10, 5, 0);
        assert_eq!(out, [0b01010]);
        out.clear();
        integer(&mut out, 1337, 5, 0);
        assert_eq!(out, [0b11111, 0b1001_1010, 0b0000_1010]);
    }
}
