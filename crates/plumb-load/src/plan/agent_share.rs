//! `--agents N --agent-index I`: this agent's share of one schedule shared by
//! N agents, the index from the option, else from the environment a scheduler sets
//! (Kubernetes Indexed Jobs' `JOB_COMPLETION_INDEX`, Slurm's `SLURM_PROCID`).
use super::PlanError;
use plumb_model::AgentShare;

/// Where an agent's index may come from, in order after `--agent-index`.
pub const INDEX_VARIABLES: [&str; 2] = ["JOB_COMPLETION_INDEX", "SLURM_PROCID"];

/// The share, from the options and `env` (the process's environment in a run).
pub fn agent_share(
    agents: Option<u32>,
    index: Option<u32>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Option<AgentShare>, PlanError> {
    let Some(count) = agents else {
        if index.is_some() {
            return Err(PlanError::IndexWithoutAgents);
        }
        return Ok(None);
    };
    let index = match index {
        Some(i) => i,
        None => from_environment(&env)?.ok_or(PlanError::NoIndex { count })?,
    };
    if index >= count {
        return Err(PlanError::IndexTooHigh { index, count });
    }
    Ok(Some(AgentShare { count, index }))
}

fn from_environment(env: &impl Fn(&str) -> Option<String>) -> Result<Option<u32>, PlanError> {
    for name in INDEX_VARIABLES {
        if let Some(v) = env(name) {
            return v
                .trim()
                .parse::<u32>()
                .map(Some)
                .map_err(|_| PlanError::IndexVariable { name, value: v });
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn the_index_comes_from_the_option_then_the_schedulers_variables() {
        let share = |a, i, vars| agent_share(a, i, env(vars)).unwrap();
        assert_eq!(share(None, None, &[("JOB_COMPLETION_INDEX", "3")]), None);
        let both = [("JOB_COMPLETION_INDEX", "2"), ("SLURM_PROCID", "1")];
        assert_eq!(
            share(Some(4), Some(0), &both),
            Some(AgentShare { count: 4, index: 0 })
        );
        assert_eq!(
            share(Some(4), None, &both),
            Some(AgentShare { count: 4, index: 2 })
        );
        assert_eq!(
            share(Some(4), None, &[("SLURM_PROCID", "1")]),
            Some(AgentShare { count: 4, index: 1 })
        );
    }

    #[test]
    fn a_missing_or_impossible_index_is_refused_with_what_to_give() {
        let err = |a, i, vars| agent_share(a, i, env(vars)).unwrap_err().to_string();
        assert!(err(Some(4), None, &[]).contains("JOB_COMPLETION_INDEX or SLURM_PROCID"));
        assert!(err(Some(4), Some(4), &[]).contains("not below --agents 4"));
        assert!(err(Some(2), None, &[("SLURM_PROCID", "x")]).contains("not an agent index"));
        assert!(err(None, Some(1), &[]).contains("needs --agents"));
    }
}
