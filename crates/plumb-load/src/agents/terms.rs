//! What every agent of one coordinated test must agree on, taken from its own settings
//! (the coordinator never tells an agent what to load: it only compares): the target or
//! mix, method, schedule, window, timeout, N, and the gates the exit code applies. Each
//! term is named as the option the user would change, so a refusal says which flag
//! differs and its two values.
use plumb_model::{LoadMode, LoadSettings};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// An agent's terms: the share it takes and what must agree with every other agent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Terms {
    pub count: u32,
    pub index: u32,
    /// The agent's name in the results (`--agent`, or `agent-I`).
    pub name: String,
    /// Option name → its value, compared as text.
    pub agreed: BTreeMap<String, String>,
}

/// A term two agents differ in: the option, this agent's value and the others'.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    pub option: String,
    pub this: String,
    pub others: String,
}

impl Terms {
    /// The terms of an agent's settings; None when it is not one of several agents.
    pub fn of(s: &LoadSettings, name: &str) -> Option<Terms> {
        let share = s.agents?;
        let mut agreed = BTreeMap::new();
        let mut put = |k: &str, v: String| {
            agreed.insert(k.to_string(), v);
        };
        put("plumb version", env!("CARGO_PKG_VERSION").to_string());
        put("--agents", share.count.to_string());
        match &s.mix {
            Some(m) => put("--targets", mix_summary(m)),
            None => put("URL", s.url.clone()),
        }
        put("--method", s.method.clone());
        match &s.mode {
            LoadMode::Open {
                rate, poisson_seed, ..
            } => {
                put("--rate", rate.to_string());
                put(
                    "--poisson --seed",
                    poisson_seed.map_or("off (constant intervals)".into(), |s| s.to_string()),
                );
            }
            LoadMode::Closed { connections } => put("--closed", connections.to_string()),
        }
        put("--duration", s.duration.to_string());
        put("--warmup", s.warmup.to_string());
        put("--timeout", s.timeout.to_string());
        put("--new-connection", s.new_connection.to_string());
        put("--http2", s.http2.to_string());
        put("--max-error-rate", format!("{:?}", s.max_error_rate));
        put("--allow-late", s.allow_late.to_string());
        put(
            "--max-lateness",
            s.max_lateness.map_or("-".into(), |d| d.to_string()),
        );
        Some(Terms {
            count: share.count,
            index: share.index,
            name: name.to_string(),
            agreed,
        })
    }

    /// The first term in which this agent differs from `others` (in the order of the
    /// option names), a term only one side has included.
    pub fn differs_from(&self, others: &Terms) -> Option<Difference> {
        let keys = self.agreed.keys().chain(others.agreed.keys());
        let mut keys: Vec<&String> = keys.collect();
        keys.sort();
        keys.dedup();
        let missing = || "(not given)".to_string();
        keys.into_iter().find_map(|k| {
            let (a, b) = (self.agreed.get(k), others.agreed.get(k));
            (a != b).then(|| Difference {
                option: k.clone(),
                this: a.cloned().unwrap_or_else(missing),
                others: b.cloned().unwrap_or_else(missing),
            })
        })
    }
}

/// A mix as its file, seed and a digest of its targets and weights: two agents reading
/// files that differ in one weight differ here.
fn mix_summary(m: &plumb_model::MixSettings) -> String {
    let weights: Vec<[u8; 8]> = m.targets.iter().map(|t| t.weight.to_le_bytes()).collect();
    let parts: Vec<&[u8]> = m
        .targets
        .iter()
        .zip(&weights)
        .flat_map(|(t, w)| [t.name.as_bytes(), w.as_slice()])
        .collect();
    format!(
        "{} ({} targets, seed {}, digest {})",
        m.file,
        m.targets.len(),
        m.seed,
        digest(&parts)
    )
}

/// A digest of the parts, one after another, in hex: what two agents' options are
/// compared by where the options themselves are too long to say (headers, a body, a
/// mix). FNV-1a: stable and enough to catch a mistake, not a defence (the agents are
/// trusted once they have proven the token).
impl Terms {
    /// This agent's terms for the test `config` runs and `settings` records (none without
    /// `--agents N`): the settings' terms, and what every agent must still send alike that
    /// the settings do not keep (the headers and body, digested: a credential is never
    /// sent to the coordinator, and whether certificates are checked).
    pub fn for_test(config: &crate::http::LoadConfig, settings: &LoadSettings) -> Option<Terms> {
        let name = settings.agent.clone().unwrap_or_default();
        let mut terms = Terms::of(settings, &name)?;
        let headers: Vec<String> = (config.headers.iter())
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        for (option, value) in [
            ("-H/--header", digest(&[headers.join("\n").as_bytes()])),
            ("--body", digest(&[&config.body])),
            ("--insecure", config.tls.insecure.to_string()),
        ] {
            terms.agreed.insert(option.into(), value);
        }
        Some(terms)
    }
}

pub fn digest(parts: &[&[u8]]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in parts.iter().flat_map(|p| p.iter()) {
        h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use plumb_model::quantity::{Duration, Rate};
    use plumb_model::AgentShare;

    pub(crate) fn settings(rate: f64, index: u32) -> LoadSettings {
        LoadSettings {
            url: "http://10.0.0.1:8080/".into(),
            method: "GET".into(),
            mode: LoadMode::Open {
                rate: Rate::new(rate).unwrap(),
                max_in_flight: 1000,
                poisson_seed: None,
            },
            duration: Duration::from_secs_f64(10.0),
            warmup: Duration::from_secs_f64(1.0),
            timeout: Duration::from_secs_f64(2.0),
            start_at: None,
            agent: None,
            spin: Duration::from_secs_f64(1e-4),
            threads: 1,
            pipeline: 1,
            drain: None,
            max_body: None,
            max_error_rate: Some(0.0),
            allow_late: false,
            max_lateness: None,
            repeat: 1,
            second_url: None,
            new_connection: false,
            tls: None,
            http2: false,
            agents: Some(AgentShare { count: 4, index }),
            mix: None,
            coordinated: None,
        }
    }

    #[test]
    fn agents_agree_but_for_their_index_and_differ_by_the_option_named() {
        let a = Terms::of(&settings(2000.0, 0), "agent-0").unwrap();
        let b = Terms::of(&settings(2000.0, 3), "agent-3").unwrap();
        assert_eq!(a.differs_from(&b), None);
        let c = Terms::of(&settings(1000.0, 1), "agent-1").unwrap();
        assert_eq!(
            c.differs_from(&a),
            Some(Difference {
                option: "--rate".into(),
                this: "1000/s".into(),
                others: "2000/s".into()
            })
        );
        let mut s = settings(2000.0, 2);
        s.duration = Duration::from_secs_f64(30.0);
        s.agents = Some(AgentShare { count: 5, index: 2 });
        // Both differ: the first in the order of the names is said.
        let d = Terms::of(&s, "x").unwrap().differs_from(&a).unwrap();
        assert_eq!((d.option.as_str(), d.this.as_str()), ("--agents", "5"));
        let mut s = settings(2000.0, 2);
        s.agents = None;
        assert_eq!(Terms::of(&s, "x"), None);
    }
}
