//! Secrets out of what plumb keeps and says: a URL's `user:password@` written
//! `user:***@`, the value of `--token`, and every request header's value (`-H 'Name:
//! ***'`). A result document records the command line it was run with, a shared history
//! keeps that document for years, and a report page shows it.

/// Options whose whole value is a secret.
const SECRET_OPTIONS: [&str; 1] = ["--token"];
/// Options whose value is a request header, `Name: value`: the name is kept.
const HEADER_OPTIONS: [&str; 2] = ["-H", "--header"];

/// `text` with the password of every `scheme://user:password@…` in it hidden. A URL runs
/// to the next white space, and its credentials to the last `@` in it (a password may
/// hold `@`, `/` or `?` unescaped: it is hidden whole, and at worst more is hidden than
/// the password); text without `://` and `@` is returned as it is.
pub fn without_password(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(scheme_end) = rest.find("://") {
        let (before, after) = rest.split_at(scheme_end + 3);
        out.push_str(before);
        let end = after.find(char::is_whitespace).unwrap_or(after.len());
        let (url, tail) = after.split_at(end);
        match url.rfind('@').map(|at| (&url[..at], &url[at + 1..])) {
            Some((creds, host)) if creds.contains(':') => {
                let user = &creds[..creds.find(':').unwrap_or(0)];
                out.push_str(&format!("{user}:***@{host}"));
            }
            _ => out.push_str(url),
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// A command line as plumb keeps and shows it: URL passwords hidden, `--token`'s value
/// `***`, and each header's value `***` after its name (`-H`, `-HName: v`, `--header`,
/// `--header=`), wherever they stand (also among a benchmarked command's arguments).
pub fn argv(args: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut hide_next = false;
    with_headers(args, header_shown)
        .into_iter()
        .map(|arg| {
            if std::mem::take(&mut hide_next) {
                return "***".to_string();
            }
            if SECRET_OPTIONS.contains(&arg.as_str()) {
                hide_next = true;
                return arg;
            }
            hidden_inline(&arg).unwrap_or_else(|| without_password(&arg))
        })
        .collect()
}

/// `args` with each request header given to `-H` or `--header` (`-H V`, `-HV`,
/// `--header V`, `--header=V`) replaced by `header(V)`: the one reading of where headers
/// stand on a command line, for hiding their values (`argv`) and for moving them out of
/// what is written (plumb-load's Kubernetes manifests take them from a Secret).
pub fn with_headers(
    args: impl IntoIterator<Item = String>,
    mut header: impl FnMut(&str) -> String,
) -> Vec<String> {
    let mut next_is_header = false;
    args.into_iter()
        .map(|arg| {
            if std::mem::take(&mut next_is_header) {
                return header(&arg);
            }
            if HEADER_OPTIONS.contains(&arg.as_str()) {
                next_is_header = true;
                return arg;
            }
            if let Some(value) = arg.strip_prefix("--header=") {
                return format!("--header={}", header(value));
            }
            match arg.strip_prefix("-H").filter(|v| !v.is_empty()) {
                Some(value) => format!("-H{}", header(value)),
                None => arg,
            }
        })
        .collect()
}

/// `--token=X`, shown without its secret.
fn hidden_inline(arg: &str) -> Option<String> {
    SECRET_OPTIONS
        .into_iter()
        .find(|option| arg.strip_prefix(option).is_some_and(|v| v.starts_with('=')))
        .map(|option| format!("{option}=***"))
}

/// `Name: value` as `Name: ***`; text that is not a header hidden whole.
fn header_shown(header: &str) -> String {
    match header.split_once(':') {
        Some((name, _)) => format!("{}: ***", name.trim()),
        None => "***".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_hidden_wherever_it_stands() {
        let hidden = [
            (
                "postgres://plumb:s3cr%40t@db:5432/h",
                "postgres://plumb:***@db:5432/h",
            ),
            (
                "postgres://u:pa?ss@db/h?sslmode=require",
                "postgres://u:***@db/h?sslmode=require",
            ),
            (
                "--history=postgresql://u:a/b@db/h",
                "--history=postgresql://u:***@db/h",
            ),
            ("postgres://u:x@PW@db/h", "postgres://u:***@db/h"),
            (
                "curl http://a/ http://u:pw@b/x",
                "curl http://a/ http://u:***@b/x",
            ),
        ];
        for (given, shown) in hidden {
            assert_eq!(without_password(given), shown);
        }
        for kept in [
            "postgres://u@db/h",
            "sleep 0.01",
            "a@b",
            "http://127.0.0.1:8080/",
        ] {
            assert_eq!(without_password(kept), kept);
        }
    }

    fn shown(line: &[&str]) -> Vec<String> {
        argv(line.iter().map(|s| s.to_string()))
    }

    #[test]
    fn tokens_and_header_values_are_hidden_in_every_form() {
        let line = [
            "plumb",
            "load",
            "http://u:pw@h/",
            "--token",
            "T0K",
            "--token=T0K",
            "-H",
            "Authorization: Bearer T0K",
            "-HCookie: c=T0K",
            "--header=X-Key: T0K",
            "--header",
            "nocolonT0K",
            "--rate",
            "5",
        ];
        let shown = shown(&line);
        assert!(
            shown
                .iter()
                .all(|a| !a.contains("T0K") && !a.contains("pw")),
            "{shown:?}"
        );
        assert_eq!(
            shown[2..],
            [
                "http://u:***@h/",
                "--token",
                "***",
                "--token=***",
                "-H",
                "Authorization: ***",
                "-HCookie: ***",
                "--header=X-Key: ***",
                "--header",
                "***",
                "--rate",
                "5",
            ]
        );
    }

    #[test]
    fn what_only_looks_like_a_secret_option_is_kept() {
        let line = [
            "plumb",
            "run",
            "--tokens",
            "--headers",
            "--history",
            "h.db",
            "echo -H",
        ];
        assert_eq!(shown(&line), line);
    }
}
