//! Passwords out of what plumb keeps and says: a URL's `user:password@` (as a PostgreSQL
//! history store's is given) written `user:***@`. A result document records the command
//! line it was run with, and a shared history keeps that document for years.

/// `text` with the password of a `scheme://user:password@…` in it hidden. The credentials
/// end at the first `@` after `://`, as PostgreSQL's driver reads them (so a password with
/// `?` or `/` in it is hidden whole); text without `://` and `@` is returned as it is.
pub fn without_password(text: &str) -> String {
    let Some(scheme_end) = text.find("://") else {
        return text.to_string();
    };
    let rest = &text[scheme_end + 3..];
    let Some(at) = rest.find('@') else {
        return text.to_string();
    };
    let creds = &rest[..at];
    match creds.split_once(':') {
        Some((user, _)) => format!("{}{user}:***@{}", &text[..scheme_end + 3], &rest[at + 1..]),
        None => text.to_string(),
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
}
