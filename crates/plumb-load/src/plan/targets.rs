//! A test's targets planned: each URL's, or a `--targets` mix's one plan, made from the
//! settings the result records and what is sent (`LoadConfig::planned`), with what cannot
//! run refused before anything is sent (a zero duration or timeout, a header that is not
//! `Name: value`).
use super::{read_mix, PlanError, Sent};
use crate::http::{LoadConfig, Target};
use plumb_model::LoadSettings;
use std::path::Path;

/// Headers given as `Name: value`, trimmed.
pub fn parse_headers(given: &[String]) -> Result<Vec<(String, String)>, PlanError> {
    given
        .iter()
        .map(|h| match h.split_once(':') {
            Some((k, v)) => Ok((k.trim().to_string(), v.trim().to_string())),
            None => Err(PlanError::Header(h.clone())),
        })
        .collect()
}

/// One plan a URL (each parsed, nothing sent): `settings` (its URL replaced by each)
/// recorded, `sent` sent.
pub fn plan_urls(
    settings: &LoadSettings,
    sent: &Sent,
    urls: &[String],
) -> Result<Vec<(LoadConfig, LoadSettings)>, PlanError> {
    check(settings)?;
    urls.iter()
        .map(|url| {
            Target::parse(url).map_err(PlanError::Url)?;
            let s = LoadSettings {
                url: url.clone(),
                ..settings.clone()
            };
            Ok((LoadConfig::planned(&s, sent.clone()), s))
        })
        .collect()
}

/// The mix of `file` as one plan: recorded with its first target's URL and method and the
/// mix's own record, every target sent with `sent`'s headers.
pub fn plan_mix(
    mut settings: LoadSettings,
    mut sent: Sent,
    file: &Path,
) -> Result<(LoadConfig, LoadSettings), PlanError> {
    check(&settings)?;
    let (mix, record) = read_mix(file, &sent.headers, sent.seed)?;
    settings.url = mix[0].url.clone();
    settings.method = mix[0].method.clone();
    settings.mix = Some(Box::new(record));
    sent.mix = mix;
    Ok((LoadConfig::planned(&settings, sent), settings))
}

/// Durations above 0.
fn check(s: &LoadSettings) -> Result<(), PlanError> {
    if s.duration.is_zero() {
        return Err(PlanError::Zero("--duration"));
    }
    if s.timeout.is_zero() {
        return Err(PlanError::Zero("--timeout"));
    }
    Ok(())
}
