use crate::args::ShowArgs;
use crate::compare_cmd::load;
use crate::exit::{self, CliError};
use crate::export;
use plumb_analysis::environment_diagnostics;
use plumb_model::{ProducerSettings, ResultDocument};
use plumb_report::{render_environment, render_load, render_terminal};

/// Renders saved results, and converts one to other formats.
pub fn run(a: ShowArgs) -> Result<i32, CliError> {
    let targets = export::targets_of(&a.exports);
    if !targets.is_empty() && a.results.len() > 1 {
        return Err(CliError(
            "--export-* converts one result; give one file, or show several without exporting"
                .into(),
        ));
    }
    export::check(&targets)?;
    let mut text = String::new();
    for path in &a.results {
        let doc = load(path)?;
        text.push_str(&render(&path.display().to_string(), &doc, a.environment));
        if !targets.is_empty() {
            export::write_all(&targets, &doc)?;
        }
    }
    export::print_report(&targets, &text);
    Ok(exit::OK)
}

fn render(path: &str, doc: &ResultDocument, environment: bool) -> String {
    let when = chrono_free_date(doc.started_unix_s);
    let host = doc
        .environment
        .hostname
        .as_deref()
        .unwrap_or("an unknown host");
    let cpu = doc
        .environment
        .cpu_model
        .as_deref()
        .unwrap_or("an unknown CPU");
    let what = match &doc.settings.producer {
        ProducerSettings::Imported { tool } => format!("a {tool} export"),
        _ => format!("plumb {} result", doc.tool.version),
    };
    let mut out = format!("{path}: {what}, {when}, on {host} ({cpu})\n\n");
    let (load, timed): (Vec<_>, Vec<_>) = doc.benchmarks.iter().partition(|b| b.load.is_some());
    if !timed.is_empty() {
        out.push_str(&render_terminal(doc));
    }
    for b in load {
        out.push_str(&render_load(b, false));
    }
    if !doc.regions.is_empty() {
        out.push_str(&plumb_report::render_regions(doc));
    }
    for p in &doc.profiles {
        out.push_str(&plumb_report::render_profile(
            p,
            doc.settings.producer.profile(),
            20,
        ));
    }
    if environment {
        out.push('\n');
        out.push_str(&render_environment(
            &doc.environment,
            &environment_diagnostics(&doc.environment),
        ));
    }
    out.push('\n');
    out
}

/// "2026-11-23 19:25 UTC" from Unix seconds (the civil-from-days algorithm; a date crate
/// for one line is not worth its weight).
fn chrono_free_date(unix_s: f64) -> String {
    if !unix_s.is_finite() || unix_s <= 0.0 {
        return "at an unknown time".into();
    }
    let secs = unix_s as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// References: `date -u -d @SECONDS '+%F %H:%M'`.
    #[test]
    fn dates() {
        assert_eq!(chrono_free_date(0.5), "1970-01-01 00:00 UTC");
        assert_eq!(chrono_free_date(1795461909.65), "2026-11-23 19:25 UTC");
        assert_eq!(chrono_free_date(951782400.0), "2000-02-29 00:00 UTC");
        assert_eq!(chrono_free_date(f64::NAN), "at an unknown time");
    }
}
