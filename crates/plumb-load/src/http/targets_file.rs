//! A request mix read from a targets file (`--targets FILE`, issue 28): vegeta's "http"
//! format — a `METHOD URL` line, header lines `Name: value`, an optional `@path` body line
//! last, targets separated by blank lines, `#` comments — plus a plumb line `weight N`
//! after the URL line (vegeta has none: repeating a target is its only ratio). Every
//! refusal names its line, which vegeta's do not. Parsing only: URLs, methods and headers
//! are checked when the requests are made (`target.rs`, `request.rs`), body files read
//! relative to the file's directory by the caller.
use std::fmt;
use std::path::PathBuf;

/// One target of the mix, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetSpec {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    /// The body file, as written after `@`.
    pub body: Option<PathBuf>,
    /// Its share of requests relative to the others' (1 unless given).
    pub weight: u64,
    /// The line of its `weight N`, when given (a second is refused).
    pub weight_line: Option<usize>,
    /// The line of its `METHOD URL`, for messages.
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetsError {
    /// No target at all (an empty file, or only comments).
    Empty,
    /// Line `line` is not what a target's block may hold there.
    Line { line: usize, why: String },
}

impl fmt::Display for TargetsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetsError::Empty => f.write_str(
                "the targets file holds no target (each is a `METHOD URL` line, e.g. `GET http://127.0.0.1:8080/`)",
            ),
            TargetsError::Line { line, why } => write!(f, "line {line}: {why}"),
        }
    }
}

impl std::error::Error for TargetsError {}

/// Why a line was refused, before its line number is put to it.
type Why = std::borrow::Cow<'static, str>;

/// The targets of `text`, in file order.
pub fn parse_targets(text: &str) -> Result<Vec<TargetSpec>, TargetsError> {
    let mut targets: Vec<TargetSpec> = Vec::new();
    // The target whose block is open (no blank line since its URL line).
    let mut open = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() {
            open = false;
            continue;
        }
        if t.starts_with('#') {
            continue;
        }
        let bad = |why: Why| TargetsError::Line {
            line,
            why: why.into_owned(),
        };
        if !open {
            targets.push(request_line(t, line).map_err(bad)?);
            open = true;
            continue;
        }
        let target = targets.last_mut().expect("an open block has a target");
        if target.body.is_some() {
            return Err(bad(format!(
                "{t:?} follows the body line of the target on line {}: a body line ends its target (a blank line starts the next)",
                target.line
            )
            .into()));
        }
        block_line(target, (t, line)).map_err(bad)?;
    }
    if targets.is_empty() {
        return Err(TargetsError::Empty);
    }
    Ok(targets)
}

fn request_line(t: &str, line: usize) -> Result<TargetSpec, Why> {
    let mut words = t.split_whitespace();
    let (Some(method), Some(url), None) = (words.next(), words.next(), words.next()) else {
        return Err(
            format!("{t:?} is not `METHOD URL` (e.g. `GET http://127.0.0.1:8080/`)").into(),
        );
    };
    if !method.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(format!("{method:?} is not a method (GET, POST, PUT, …, in capitals)").into());
    }
    Ok(TargetSpec {
        method: method.to_string(),
        url: url.to_string(),
        headers: Vec::new(),
        body: None,
        weight: 1,
        weight_line: None,
        line,
    })
}

/// A header, the weight or the body of the open target.
fn block_line(target: &mut TargetSpec, (t, line): (&str, usize)) -> Result<(), Why> {
    if let Some(path) = t.strip_prefix('@') {
        if path.trim().is_empty() {
            return Err("`@` names no body file".into());
        }
        target.body = Some(PathBuf::from(path.trim()));
        return Ok(());
    }
    if let Some(n) = t.strip_prefix("weight ") {
        if let Some(first) = target.weight_line {
            return Err(format!(
                "a second weight for the target on line {} (its first on line {first}): give one",
                target.line
            )
            .into());
        }
        target.weight_line = Some(line);
        target.weight = match n.trim().parse::<i64>() {
            Ok(w) if w >= 1 => w as u64,
            Ok(w) => {
                return Err(format!("weight {w}: a weight is a whole number of at least 1").into())
            }
            Err(_) => return Err(format!("weight {:?} is not a whole number", n.trim()).into()),
        };
        return Ok(());
    }
    if request_line(t, 0).is_ok_and(|r| r.url.contains("://")) {
        return Err(format!(
            "{t:?} starts a new target without a blank line before it (vegeta would take it as a header)"
        ).into());
    }
    let Some((name, value)) = t.split_once(':') else {
        return Err(format!(
            "{t:?} is not a header (`Name: value`), `weight N` or `@body-file`; a new target needs a blank line before it"
        ).into());
    };
    if name.is_empty() || name.contains(char::is_whitespace) {
        return Err(format!("{name:?} is not a header name").into());
    }
    target
        .headers
        .push((name.to_string(), value.trim().to_string()));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_vegetas_format_with_weights() {
        let t = parse_targets(
            "# the mix\nGET http://a:8080/users\nAccept: application/json\nweight 3\n\nPOST http://a:8080/orders\nContent-Type: application/json\n@order.json\n\n\nGET http://b:9090/\n",
        )
        .unwrap();
        assert_eq!(t.len(), 3);
        assert_eq!(
            (
                t[0].method.as_str(),
                t[0].url.as_str(),
                t[0].weight,
                t[0].line
            ),
            ("GET", "http://a:8080/users", 3, 2)
        );
        assert_eq!(
            t[0].headers,
            vec![("Accept".into(), "application/json".into())]
        );
        assert_eq!(t[1].body, Some(PathBuf::from("order.json")));
        assert_eq!((t[1].weight, t[1].line), (1, 6));
        assert_eq!((t[2].url.as_str(), t[2].line), ("http://b:9090/", 11));
    }

    #[test]
    fn every_refusal_names_its_line() {
        for (text, words) in [
            ("", "holds no target"),
            ("# only\n\n", "holds no target"),
            ("GET\n", "line 1: \"GET\" is not `METHOD URL`"),
            ("get http://a/\n", "line 1: \"get\" is not a method"),
            (
                "GET http://a/\nweight 0\n",
                "line 2: weight 0: a weight is a whole number of at least 1",
            ),
            ("GET http://a/\nweight -2\n", "line 2: weight -2"),
            (
                "GET http://a/\nweight 2\nweight 3\n",
                "line 3: a second weight for the target on line 1 (its first on line 2)",
            ),
            (
                "GET http://a/\nweight two\n",
                "line 2: weight \"two\" is not a whole number",
            ),
            (
                "GET http://a/\nAccept application/json\n",
                "line 2: \"Accept application/json\" is not a header",
            ),
            (
                "GET http://a/\n@b.json\nAccept: x\n",
                "line 3: \"Accept: x\" follows the body line of the target on line 1",
            ),
            ("GET http://a/\n@\n", "line 2: `@` names no body file"),
            (
                "GET http://a/\nGET http://b/\n",
                "line 2: \"GET http://b/\" starts a new target without a blank line",
            ),
        ] {
            let e = parse_targets(text).unwrap_err().to_string();
            assert!(e.contains(words), "{text:?}: {e}");
        }
    }
}
