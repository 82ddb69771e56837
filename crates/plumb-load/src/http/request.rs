//! The request, serialised once before the test: every send writes the same bytes, so the
//! generator's per-request cost holds no formatting and no allocation.

use super::target::Target;
use std::fmt;

/// A request option that is not valid HTTP, with what to write instead.
#[derive(Debug, Clone, PartialEq)]
pub enum RequestError {
    Method(String),
    HeaderName(String),
    LineBreak(String),
    HostHeader,
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::Method(m) => write!(f, "{m:?} is not an HTTP method"),
            RequestError::HeaderName(k) => write!(f, "header name {k:?} is not a token"),
            RequestError::LineBreak(k) => write!(f, "header {k:?} has a line break in its value"),
            RequestError::HostHeader => {
                f.write_str("the Host header comes from the URL; do not pass it with -H")
            }
        }
    }
}

/// Checks a method, header and body and returns the HTTP/1.1 request as bytes.
pub fn encode(
    target: &Target,
    method: &str,
    headers: &[(String, String)],
    body: &[u8],
) -> Result<Vec<u8>, RequestError> {
    if method.is_empty() || !method.bytes().all(is_token) {
        return Err(RequestError::Method(method.to_string()));
    }
    let mut out = format!(
        "{method} {} HTTP/1.1\r\nHost: {}\r\n",
        target.path, target.host_header
    );
    let has = |name: &str| headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(name));
    if !has("user-agent") {
        out.push_str(concat!(
            "User-Agent: plumb/",
            env!("CARGO_PKG_VERSION"),
            "\r\n"
        ));
    }
    let framed = has("content-length") || has("transfer-encoding");
    for (k, v) in headers {
        if k.is_empty() || !k.bytes().all(is_token) {
            return Err(RequestError::HeaderName(k.clone()));
        }
        if v.bytes().any(|b| b == b'\r' || b == b'\n' || b == 0) {
            return Err(RequestError::LineBreak(k.clone()));
        }
        if k.eq_ignore_ascii_case("host") {
            return Err(RequestError::HostHeader);
        }
        out.push_str(&format!("{k}: {v}\r\n"));
    }
    if !framed && (!body.is_empty() || matches!(method, "POST" | "PUT" | "PATCH")) {
        out.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    out.push_str("\r\n");
    let mut bytes = out.into_bytes();
    bytes.extend_from_slice(body);
    Ok(bytes)
}

/// RFC 9110 `tchar`.
fn is_token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target() -> Target {
        Target::parse("http://[::1]:8080/p?q=1").unwrap()
    }

    #[test]
    fn a_get_is_one_request_line_host_and_agent() {
        let r = encode(&target(), "GET", &[], b"").unwrap();
        let text = String::from_utf8(r).unwrap();
        assert_eq!(
            text,
            format!(
                "GET /p?q=1 HTTP/1.1\r\nHost: [::1]:8080\r\nUser-Agent: plumb/{}\r\n\r\n",
                env!("CARGO_PKG_VERSION")
            )
        );
    }

    #[test]
    fn a_body_is_framed_and_headers_are_checked() {
        let h = vec![("User-Agent".to_string(), "x".to_string())];
        let text = String::from_utf8(encode(&target(), "POST", &h, b"abc").unwrap()).unwrap();
        assert!(
            text.ends_with("User-Agent: x\r\nContent-Length: 3\r\n\r\nabc"),
            "{text}"
        );
        assert_eq!(
            encode(&target(), "GE T", &[], b""),
            Err(RequestError::Method("GE T".into()))
        );
        let bad = vec![("X".to_string(), "a\r\nb".to_string())];
        assert_eq!(
            encode(&target(), "GET", &bad, b""),
            Err(RequestError::LineBreak("X".into()))
        );
        let host = vec![("host".to_string(), "a".to_string())];
        let e = encode(&target(), "GET", &host, b"").unwrap_err();
        assert_eq!(e, RequestError::HostHeader);
        assert!(e.to_string().contains("Host header comes from the URL"));
    }
}
