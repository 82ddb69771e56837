//! A page's findings as a list: each with its severity, message, figures and advice, in
//! plumb-report's one wording (`finding::words`).
use super::svg::escape;
use plumb_model::Diagnostic;
use std::fmt::Write;

/// Each finding with its severity, message, the figures beside it and advice.
pub fn diagnostics(ds: &[Diagnostic]) -> String {
    let mut out = String::from("<ul class=\"diagnostics\">");
    for d in ds {
        let sev = format!("{:?}", d.severity).to_lowercase();
        let w = crate::finding::words(&d.finding);
        let _ = write!(
            out,
            "<li><span class=\"{sev}\">{sev}</span> <code>{}</code> {}",
            d.code(),
            escape(&w.message)
        );
        if let Some(details) = &w.details {
            let _ = write!(out, " <span class=\"muted\">({})</span>", escape(details));
        }
        if let Some(advice) = &w.advice {
            let _ = write!(out, "<br><span class=\"muted\">{}</span>", escape(advice));
        }
        out.push_str("</li>");
    }
    out.push_str("</ul>");
    out
}
