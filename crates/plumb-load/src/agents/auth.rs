//! Agents and their coordinator prove to each other that they hold the shared token
//! (`--token`, `PLUMB_TOKEN`) without ever sending it: the coordinator's hello carries a
//! random nonce; the agent answers first with its own nonce and HMAC-SHA256(token,
//! "plumb-v1 agent" ‖ both nonces); the coordinator checks it and answers with the same
//! over "plumb-v1 coordinator". The two labels differ, so neither side's answer can be
//! replayed as the other's (a reflection), and fresh nonces on both sides keep an answer
//! from serving twice. HMAC by ring (already under rustls), compared in constant time.
use ring::hmac;
use ring::rand::{SecureRandom, SystemRandom};
use std::fmt;

pub const NONCE_LEN: usize = 32;
/// A token must carry at least this many bytes: anyone who sees a nonce and its answer
/// can try guesses offline, so a short token is a guessable one.
pub const MIN_TOKEN_LEN: usize = 16;

const AGENT: &[u8] = b"plumb-v1 agent";
const COORDINATOR: &[u8] = b"plumb-v1 coordinator";

#[derive(Debug, Clone, PartialEq)]
pub enum AuthError {
    /// The token is too short to resist guessing.
    WeakToken { length: usize },
    /// No random bytes from the system.
    Random,
    /// The peer's answer does not prove the token.
    Refused,
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuthError::WeakToken { length } => write!(
                f,
                "the token is {}; at least {} is needed (e.g. head -c 32 /dev/urandom | base64)",
                plumb_model::format::bytes(plumb_model::quantity::ByteSize(*length as u64)),
                plumb_model::format::bytes(plumb_model::quantity::ByteSize(MIN_TOKEN_LEN as u64))
            ),
            AuthError::Random => f.write_str("the system gave no random bytes for a nonce"),
            AuthError::Refused => f.write_str("the peer does not hold the token"),
        }
    }
}

impl std::error::Error for AuthError {}

/// The shared token, as an HMAC key.
pub struct Token(hmac::Key);

impl Token {
    pub fn new(secret: &[u8]) -> Result<Token, AuthError> {
        if secret.len() < MIN_TOKEN_LEN {
            return Err(AuthError::WeakToken {
                length: secret.len(),
            });
        }
        Ok(Token(hmac::Key::new(hmac::HMAC_SHA256, secret)))
    }

    /// The agent's answer to the coordinator's nonce `nc`, with its own nonce `na`.
    pub fn agent_proof(&self, nc: &[u8; NONCE_LEN], na: &[u8; NONCE_LEN]) -> Vec<u8> {
        self.sign(AGENT, nc, na)
    }

    /// The coordinator's answer, once the agent's has been checked.
    pub fn coordinator_proof(&self, nc: &[u8; NONCE_LEN], na: &[u8; NONCE_LEN]) -> Vec<u8> {
        self.sign(COORDINATOR, nc, na)
    }

    pub fn check_agent(
        &self,
        nc: &[u8; NONCE_LEN],
        na: &[u8; NONCE_LEN],
        proof: &[u8],
    ) -> Result<(), AuthError> {
        self.check(AGENT, nc, na, proof)
    }

    pub fn check_coordinator(
        &self,
        nc: &[u8; NONCE_LEN],
        na: &[u8; NONCE_LEN],
        proof: &[u8],
    ) -> Result<(), AuthError> {
        self.check(COORDINATOR, nc, na, proof)
    }

    fn sign(&self, label: &[u8], nc: &[u8], na: &[u8]) -> Vec<u8> {
        hmac::sign(&self.0, &message(label, nc, na))
            .as_ref()
            .to_vec()
    }

    fn check(&self, label: &[u8], nc: &[u8], na: &[u8], proof: &[u8]) -> Result<(), AuthError> {
        hmac::verify(&self.0, &message(label, nc, na), proof).map_err(|_| AuthError::Refused)
    }
}

fn message(label: &[u8], nc: &[u8], na: &[u8]) -> Vec<u8> {
    [label, nc, na].concat()
}

/// A fresh random nonce.
pub fn nonce() -> Result<[u8; NONCE_LEN], AuthError> {
    let mut n = [0u8; NONCE_LEN];
    SystemRandom::new()
        .fill(&mut n)
        .map_err(|_| AuthError::Random)?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_side_proves_the_token_and_no_answer_serves_the_other_way() {
        let token = Token::new(b"0123456789abcdef-shared").unwrap();
        let (nc, na) = (nonce().unwrap(), nonce().unwrap());
        assert_ne!(nc, na, "fresh nonces");
        let agent = token.agent_proof(&nc, &na);
        assert_eq!(token.check_agent(&nc, &na, &agent), Ok(()));
        let coordinator = token.coordinator_proof(&nc, &na);
        assert_eq!(token.check_coordinator(&nc, &na, &coordinator), Ok(()));
        // A reflection: the agent's answer offered as the coordinator's, or the reverse.
        assert_eq!(
            token.check_coordinator(&nc, &na, &agent),
            Err(AuthError::Refused)
        );
        assert_eq!(
            token.check_agent(&nc, &na, &coordinator),
            Err(AuthError::Refused)
        );
        // Another nonce, another token, a cut answer: refused.
        let other = nonce().unwrap();
        assert_eq!(
            token.check_agent(&other, &na, &agent),
            Err(AuthError::Refused)
        );
        let wrong = Token::new(b"0123456789abcdef-WRONG").unwrap();
        assert_eq!(wrong.check_agent(&nc, &na, &agent), Err(AuthError::Refused));
        assert_eq!(
            token.check_agent(&nc, &na, &agent[..31]),
            Err(AuthError::Refused)
        );
    }

    #[test]
    fn the_answer_is_hmac_sha256_of_the_label_and_nonces() {
        // Checked against an independent HMAC (Python's hmac module) for fixed inputs:
        // python3 -c 'import hmac,hashlib;print(hmac.new(b"k"*16,b"plumb-v1 agent"+bytes(32)+bytes([1])*32,hashlib.sha256).hexdigest())'
        let token = Token::new(&[b'k'; 16]).unwrap();
        let proof = token.agent_proof(&[0; NONCE_LEN], &[1; NONCE_LEN]);
        let hex: String = proof.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex,
            "085eeb8e81fe5d7d0ec5bb974c94d39b1e3b2b220769bf0febc54de579c9c132"
        );
        assert_eq!(
            Token::new(b"short").err(),
            Some(AuthError::WeakToken { length: 5 })
        );
    }
}
