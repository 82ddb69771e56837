//! The token a coordinator and its agents share: from --token-file, PLUMB_TOKEN, or
//! --token (said to be visible in `ps`); none is an error that says how to make one.
use crate::args::TokenArgs;
use crate::exit::CliError;
use plumb_load::agents::auth::Token;

pub fn token(a: &TokenArgs) -> Result<Token, CliError> {
    let secret = secret(a, std::env::var("PLUMB_TOKEN").ok())?;
    Token::new(secret.as_bytes()).map_err(|e| CliError::msg(format!("the shared token: {e}")))
}

fn secret(a: &TokenArgs, env: Option<String>) -> Result<String, CliError> {
    if let Some(path) = &a.token_file {
        let text = std::fs::read_to_string(path).map_err(|e| {
            CliError::msg(format!(
                "cannot read the token from {}: {e}",
                path.display()
            ))
        })?;
        // A file written by `echo` or `base64` ends in a newline that is not the token's.
        return Ok(text.trim_end_matches(['\n', '\r']).to_string());
    }
    if let Some(t) = &a.token {
        eprintln!(
            "plumb: --token is visible to every user of this machine in ps; PLUMB_TOKEN or --token-file keep it out of sight"
        );
        return Ok(t.clone());
    }
    env.filter(|t| !t.is_empty()).ok_or_else(|| {
        CliError::msg(
            "a coordinated test needs the token its coordinator and agents share: PLUMB_TOKEN=..., or --token-file FILE (make one with: head -c 32 /dev/urandom | base64 > token)"
                .into(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_comes_first_then_the_option_then_the_environment() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("token");
        std::fs::write(&file, "from-the-file-0123456789\n").unwrap();
        let args = |file: Option<&std::path::Path>, token: Option<&str>| TokenArgs {
            token_file: file.map(Into::into),
            token: token.map(Into::into),
        };
        let env = || Some("from-the-environment-0123".to_string());
        assert_eq!(
            secret(&args(Some(&file), Some("x")), env()).unwrap(),
            "from-the-file-0123456789"
        );
        assert_eq!(secret(&args(None, Some("given")), env()).unwrap(), "given");
        assert_eq!(
            secret(&args(None, None), env()).unwrap(),
            "from-the-environment-0123"
        );
        let none = secret(&args(None, None), None).unwrap_err().message();
        assert!(
            none.contains("PLUMB_TOKEN") && none.contains("--token-file"),
            "{none}"
        );
        let missing = secret(&args(Some(&dir.path().join("nope")), None), None)
            .unwrap_err()
            .message();
        assert!(missing.contains("cannot read the token from"), "{missing}");
    }
}
