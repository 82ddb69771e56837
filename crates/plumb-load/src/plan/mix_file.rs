//! `--targets FILE`: the request mix read (vegeta's format with weights), each
//! body file read relative to the targets file, each URL checked, every refusal naming
//! the file and the line; and the mix's record for the result.
use super::PlanError;
use crate::http::targets_file::{parse_targets, TargetSpec};
use crate::http::{MixTarget, Target};
use plumb_model::{MixEntry, MixSettings};
use std::path::Path;

/// The mix of `file`, with `headers` (-H) added to every target that does not set them.
pub fn read_mix(
    file: &Path,
    headers: &[(String, String)],
    seed: u64,
) -> Result<(Vec<MixTarget>, MixSettings), PlanError> {
    let shown = file.display().to_string();
    let text = std::fs::read_to_string(file).map_err(|e| PlanError::TargetsFile {
        path: file.to_path_buf(),
        cause: e.to_string(),
    })?;
    let specs = parse_targets(&text).map_err(|error| PlanError::Targets {
        file: shown.clone(),
        error,
    })?;
    let dir = file.parent().unwrap_or(Path::new("."));
    let mut mix = Vec::new();
    for spec in &specs {
        mix.push(target(spec, dir, headers).map_err(|why| PlanError::Target {
            file: shown.clone(),
            line: spec.line,
            why,
        })?);
    }
    let names = names(&specs);
    let settings = MixSettings {
        file: shown,
        seed,
        targets: specs
            .iter()
            .zip(names)
            .map(|(s, name)| MixEntry {
                name,
                weight: s.weight,
                line: s.line,
            })
            .collect(),
    };
    Ok((mix, settings))
}

/// Why one target of the file is refused.
#[derive(Debug)]
pub enum Refused {
    Url(crate::http::TargetError),
    Body(std::path::PathBuf, std::io::Error),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Url(e) => e.fmt(f),
            Refused::Body(path, e) => {
                write!(f, "cannot read the body file {}: {e}", path.display())
            }
        }
    }
}

fn target(
    spec: &TargetSpec,
    dir: &Path,
    headers: &[(String, String)],
) -> Result<MixTarget, Refused> {
    Target::parse(&spec.url).map_err(Refused::Url)?;
    let body = match &spec.body {
        Some(p) => {
            let path = dir.join(p);
            std::fs::read(&path).map_err(|e| Refused::Body(path, e))?
        }
        None => Vec::new(),
    };
    let mut all = spec.headers.clone();
    for (k, v) in headers {
        if !all.iter().any(|(name, _)| name.eq_ignore_ascii_case(k)) {
            all.push((k.clone(), v.clone()));
        }
    }
    Ok(MixTarget {
        method: spec.method.clone(),
        url: spec.url.clone(),
        headers: all,
        body,
        weight: spec.weight,
    })
}

/// Each target's benchmark name, `METHOD URL`; a name two targets share gets its line.
fn names(specs: &[TargetSpec]) -> Vec<String> {
    let plain: Vec<String> = specs
        .iter()
        .map(|s| format!("{} {}", s.method, s.url))
        .collect();
    plain
        .iter()
        .zip(specs)
        .map(|(n, s)| {
            if plain.iter().filter(|m| *m == n).count() > 1 {
                format!("{n} (line {})", s.line)
            } else {
                n.clone()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_read_beside_the_file_and_errors_name_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("order.json"), b"{\"id\":1}").unwrap();
        let file = dir.path().join("targets.txt");
        std::fs::write(
            &file,
            "GET http://127.0.0.1:1/a\nweight 3\n\nPOST http://127.0.0.1:1/o\nContent-Type: application/json\n@order.json\n\nGET http://127.0.0.1:1/a\n",
        )
        .unwrap();
        let h = vec![("X-Run".to_string(), "7".to_string())];
        let (mix, settings) = read_mix(&file, &h, 9).unwrap();
        assert_eq!(mix.len(), 3);
        assert_eq!(mix[1].body, b"{\"id\":1}");
        assert!(mix.iter().all(|t| t.headers.contains(&h[0])));
        let names: Vec<&str> = settings.targets.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "GET http://127.0.0.1:1/a (line 1)",
                "POST http://127.0.0.1:1/o",
                "GET http://127.0.0.1:1/a (line 8)"
            ]
        );
        assert_eq!((settings.targets[0].weight, settings.seed), (3, 9));

        std::fs::write(
            &file,
            "GET http://127.0.0.1:1/\n\nPOST http://127.0.0.1:1/\n@missing.json\n",
        )
        .unwrap();
        let e = read_mix(&file, &[], 1).unwrap_err().to_string();
        assert!(
            e.contains("line 3: cannot read the body file") && e.contains("missing.json"),
            "{e}"
        );
        std::fs::write(&file, "GET ftp://x/\n").unwrap();
        let e = read_mix(&file, &[], 1).unwrap_err().to_string();
        assert!(
            e.contains("targets.txt: line 1:") && e.contains("not supported"),
            "{e}"
        );
        std::fs::write(&file, "# only a comment\n").unwrap();
        assert!(read_mix(&file, &[], 1)
            .unwrap_err()
            .to_string()
            .contains("holds no target"));
        let e = read_mix(&dir.path().join("nope.txt"), &[], 1)
            .unwrap_err()
            .to_string();
        assert!(e.contains("cannot read the targets file"), "{e}");
    }
}
