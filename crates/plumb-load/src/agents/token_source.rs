//! Where the token a coordinator and its agents share comes from: a file first, then
//! the option (said to be visible in `ps`), then `PLUMB_TOKEN`; none is an error that
//! says how to make one.
use super::auth::{AuthError, Token};
use std::fmt;
use std::path::{Path, PathBuf};

/// Why there is no usable token.
#[derive(Debug)]
pub enum NoToken {
    /// None given anywhere.
    Missing,
    /// `--token-file` could not be read.
    Unreadable {
        path: PathBuf,
        cause: std::io::Error,
    },
    /// The token given is too weak.
    Weak(AuthError),
}

impl fmt::Display for NoToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoToken::Missing => f.write_str(
                "a coordinated test needs the token its coordinator and agents share: PLUMB_TOKEN=..., or --token-file FILE (make one with: head -c 32 /dev/urandom | base64 > token)",
            ),
            NoToken::Unreadable { path, cause } => {
                write!(f, "cannot read the token from {}: {cause}", path.display())
            }
            NoToken::Weak(e) => write!(f, "the shared token: {e}"),
        }
    }
}

impl std::error::Error for NoToken {}

/// The token from `file`, else `given` (said through `say`: visible in `ps`), else `env`
/// (`PLUMB_TOKEN`'s value).
pub fn token_from(
    file: Option<&Path>,
    given: Option<&str>,
    env: Option<String>,
    say: &mut dyn FnMut(String),
) -> Result<Token, NoToken> {
    let secret = secret(file, given, env, say)?;
    Token::new(secret.as_bytes()).map_err(NoToken::Weak)
}

fn secret(
    file: Option<&Path>,
    given: Option<&str>,
    env: Option<String>,
    say: &mut dyn FnMut(String),
) -> Result<String, NoToken> {
    if let Some(path) = file {
        let text = std::fs::read_to_string(path).map_err(|cause| NoToken::Unreadable {
            path: path.to_path_buf(),
            cause,
        })?;
        // A file written by `echo` or `base64` ends in a newline that is not the token's.
        return Ok(text.trim_end_matches(['\n', '\r']).to_string());
    }
    if let Some(t) = given {
        say("--token is visible to every user of this machine in ps; PLUMB_TOKEN or --token-file keep it out of sight".into());
        return Ok(t.to_string());
    }
    env.filter(|t| !t.is_empty()).ok_or(NoToken::Missing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_comes_first_then_the_option_then_the_environment() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("token");
        std::fs::write(&file, "from-the-file-0123456789\n").unwrap();
        let env = || Some("from-the-environment-0123".to_string());
        let mut said = Vec::new();
        let mut say = |l: String| said.push(l);
        let s = |file, given, env, say: &mut dyn FnMut(String)| secret(file, given, env, say);
        assert_eq!(
            s(Some(&file), Some("x"), env(), &mut say).unwrap(),
            "from-the-file-0123456789"
        );
        assert_eq!(s(None, Some("given"), env(), &mut say).unwrap(), "given");
        assert_eq!(
            s(None, None, env(), &mut say).unwrap(),
            "from-the-environment-0123"
        );
        let none = s(None, None, None, &mut say).unwrap_err().to_string();
        assert!(
            none.contains("PLUMB_TOKEN") && none.contains("--token-file"),
            "{none}"
        );
        let missing = s(Some(&dir.path().join("nope")), None, None, &mut say)
            .unwrap_err()
            .to_string();
        assert!(missing.contains("cannot read the token from"), "{missing}");
        assert!(
            said.iter().any(|l| l.contains("visible to every user")),
            "{said:?}"
        );
    }
}
