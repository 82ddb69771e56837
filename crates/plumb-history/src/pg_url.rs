//! A PostgreSQL store's URL: what plumb reads from it itself (the TLS mode and root
//! certificate, which the driver does not know in libpq's full form), the password from
//! where libpq would take it when the URL has none (`PGPASSWORD`, then `PGPASSFILE` or
//! `~/.pgpass`), and the URL as it may be shown: never with its password.
#![cfg_attr(not(feature = "postgres"), allow(dead_code))]
use std::path::PathBuf;

/// How TLS is used, as libpq's `sslmode` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TlsMode {
    /// Plain TCP.
    Disable,
    /// TLS when the server offers it (libpq's default): encrypted, not verified.
    Prefer,
    /// TLS or nothing: encrypted, the server not verified.
    Require,
    /// TLS, the server's certificate verified against the root certificates.
    VerifyCa,
    /// As verify-ca, and the certificate must name the host.
    VerifyFull,
}

/// A parsed store URL.
#[derive(Debug, Clone)]
pub struct StoreUrl {
    /// The URL given to the driver: plumb's own parameters taken out.
    pub driver: String,
    pub tls: TlsMode,
    /// `sslrootcert`: the root certificates to verify against (else the system's).
    pub root_cert: Option<PathBuf>,
    /// The URL with its password hidden, for messages.
    pub shown: String,
}

/// A store URL refused (shown without its password).
#[derive(Debug, Clone, PartialEq)]
pub enum BadStoreUrl {
    /// An `sslmode` libpq does not have.
    SslMode { shown: String, mode: String },
    /// An `@` in the user or password, which the driver would take for the end of them
    /// (and the rest of the password for the host).
    UnescapedAt { shown: String },
}

impl std::fmt::Display for BadStoreUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadStoreUrl::SslMode { shown, mode } => write!(
                f,
                "{shown}: sslmode={mode} is not one of disable, prefer, require, verify-ca, verify-full"
            ),
            BadStoreUrl::UnescapedAt { shown } => write!(
                f,
                "{shown}: the user or password holds an '@': write it %40"
            ),
        }
    }
}

impl StoreUrl {
    /// Reads `url` (postgres:// or postgresql://); an error says what is wrong without
    /// showing the password.
    pub fn parse(url: &str) -> Result<StoreUrl, BadStoreUrl> {
        let shown = redacted(url);
        let (base, query) = split_query(url);
        if base.matches('@').count() > 1 {
            return Err(BadStoreUrl::UnescapedAt { shown });
        }
        let query = query.unwrap_or("");
        let mut tls = TlsMode::Prefer;
        let mut root_cert = None;
        let mut rest = Vec::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            match k {
                "sslmode" => {
                    tls = match v {
                        "disable" => TlsMode::Disable,
                        "allow" | "prefer" => TlsMode::Prefer,
                        "require" => TlsMode::Require,
                        "verify-ca" => TlsMode::VerifyCa,
                        "verify-full" => TlsMode::VerifyFull,
                        other => {
                            return Err(BadStoreUrl::SslMode {
                                shown,
                                mode: other.to_string(),
                            })
                        }
                    }
                }
                "sslrootcert" => root_cert = Some(PathBuf::from(percent_decoded(v))),
                _ => rest.push(pair),
            }
        }
        // The driver knows disable, prefer and require; verification is plumb's.
        let driver_mode = match tls {
            TlsMode::Disable => "disable",
            TlsMode::Prefer => "prefer",
            _ => "require",
        };
        rest.push(match driver_mode {
            "disable" => "sslmode=disable",
            "prefer" => "sslmode=prefer",
            _ => "sslmode=require",
        });
        let driver = format!("{base}?{}", rest.join("&"));
        Ok(StoreUrl {
            driver,
            tls,
            root_cert,
            shown,
        })
    }
}

/// `url` split at its query's `?`: the first `?` after the credentials (which end at the
/// first `@`, as the driver reads them), so a `?` in a password is not taken for one.
fn split_query(url: &str) -> (&str, Option<&str>) {
    let after_creds = url
        .find("://")
        .and_then(|s| url[s + 3..].find('@').map(|a| s + 3 + a + 1))
        .unwrap_or(0);
    match url[after_creds..].find('?') {
        Some(q) => (&url[..after_creds + q], Some(&url[after_creds + q + 1..])),
        None => (url, None),
    }
}

/// `url` with its password hidden: in `user:password@` (plumb-model's `without_password`)
/// and in a `password=` parameter, its key read as the driver reads it (percent-decoded).
pub fn redacted(url: &str) -> String {
    let (base, query) = split_query(url);
    let mut out = plumb_model::redact::without_password(base);
    if let Some(q) = query {
        let params: Vec<String> = q
            .split('&')
            .map(|p| match p.split_once('=') {
                Some((k, _)) if percent_decoded(k) == "password" => format!("{k}=***"),
                _ => p.to_string(),
            })
            .collect();
        out.push('?');
        out.push_str(&params.join("&"));
    }
    out
}

/// `%xx` escapes decoded (a path in a URL parameter).
fn percent_decoded(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The password libpq would use for `host`, `port`, `db`, `user` when the URL has none:
/// `PGPASSWORD`, else the first matching line of `PGPASSFILE` or `~/.pgpass`
/// (`host:port:database:user:password`, `*` matching anything, `\` escaping `:`).
pub fn password_from_environment(host: &str, port: u16, db: &str, user: &str) -> Option<String> {
    if let Some(p) = std::env::var_os("PGPASSWORD").filter(|p| !p.is_empty()) {
        return Some(p.to_string_lossy().into_owned());
    }
    let file = std::env::var_os("PGPASSFILE")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".pgpass")))?;
    let text = std::fs::read_to_string(file).ok()?;
    let port = port.to_string();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(pgpass_fields)
        .find(|f| {
            f.len() == 5
                && [host, port.as_str(), db, user]
                    .iter()
                    .zip(f)
                    .all(|(want, have)| have == "*" || have == want)
        })
        .map(|f| f[4].clone())
}

/// A .pgpass line's fields, `\:` and `\\` unescaped.
fn pgpass_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(n) = chars.next() {
                    fields.last_mut().expect("one field").push(n);
                }
            }
            ':' => fields.push(String::new()),
            c => fields.last_mut().expect("one field").push(c),
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_never_shown() {
        assert_eq!(
            redacted("postgres://plumb:s3cr%40t@db.example:5432/h?sslmode=require"),
            "postgres://plumb:***@db.example:5432/h?sslmode=require"
        );
        assert_eq!(
            redacted("postgresql://db/h?user=u&password=hunter2"),
            "postgresql://db/h?user=u&password=***"
        );
        assert_eq!(redacted("postgres://u@db/h"), "postgres://u@db/h");
        // A password with `?` in it, and a key the driver decodes to `password`.
        assert_eq!(
            redacted("postgres://u:pa?ss@db/h?sslmode=require"),
            "postgres://u:***@db/h?sslmode=require"
        );
        assert_eq!(
            redacted("postgres://u@db/h?pass%77ord=hunter2"),
            "postgres://u@db/h?pass%77ord=***"
        );
        let u = StoreUrl::parse("postgres://u:pa?ss@db/h?sslmode=disable").unwrap();
        assert_eq!(u.tls, TlsMode::Disable);
        // An '@' in the password: refused, and nothing of the password shown.
        let e = StoreUrl::parse("postgres://u:x@PW@db/h")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "postgres://u:***@db/h: the user or password holds an '@': write it %40"
        );
        assert_eq!(u.driver, "postgres://u:pa?ss@db/h?sslmode=disable");
        let e = StoreUrl::parse("postgres://u:hunter2@db/h?sslmode=sometimes")
            .unwrap_err()
            .to_string();
        assert!(
            !e.contains("hunter2") && e.contains("sslmode=sometimes"),
            "{e}"
        );
    }

    #[test]
    fn plumb_s_own_tls_parameters_are_taken_out() {
        let u = StoreUrl::parse(
            "postgres://u@db/h?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&application_name=x",
        )
        .unwrap();
        assert_eq!(u.tls, TlsMode::VerifyFull);
        assert_eq!(u.root_cert, Some(PathBuf::from("/etc/ca.pem")));
        assert_eq!(
            u.driver,
            "postgres://u@db/h?application_name=x&sslmode=require"
        );
        assert_eq!(
            StoreUrl::parse("postgres://u@db/h").unwrap().tls,
            TlsMode::Prefer
        );
    }

    #[test]
    fn a_pgpass_line_matches_with_wildcards_and_escapes() {
        assert_eq!(
            pgpass_fields(r"db:*:h:u:pa\:ss"),
            ["db", "*", "h", "u", "pa:ss"]
        );
    }
}
