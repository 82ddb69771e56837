//! Keeps non-ASCII text away from inferno's perf folder: percent-escaped before it folds,
//! restored in the stacks it gives back.
//!
//! inferno 0.12.8 (the newest) slices each frame's symbol at a fixed byte count to look
//! for a Rust hash (`fix_partially_demangled_rust_symbol`), and panics when that count
//! lands inside a multi-byte character; cargo fuzz found it with a Hebrew letter 16 bytes
//! before a symbol's end. Real scripts can carry such names (C++ or Go identifiers, paths,
//! thread names), so rather than lose the profile, plumb hands inferno only ASCII: every
//! non-ASCII byte and every `%` becomes `%XX`. Each escape sits between characters inferno
//! splits on, so the folded names decode to what perf wrote. (One difference: inferno's
//! trimming no longer sees non-ASCII white space, such as a no-break space, as space; perf
//! writes none.)

use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet};
use std::borrow::Cow;

/// `%` itself, so that decoding is exact; non-ASCII is always escaped by the crate.
const ESCAPED: &AsciiSet = &AsciiSet::EMPTY.add(b'%');

/// The text inferno may be given, and whether it was escaped (an ASCII script, the usual
/// case, is passed through untouched and uncopied).
pub fn escape(text: &str) -> (Cow<'_, str>, bool) {
    if text.is_ascii() {
        (Cow::Borrowed(text), false)
    } else {
        (Cow::Owned(escape_like(text, true)), true)
    }
}

/// `text` as it must reach inferno beside a script `escape` gave: escaped exactly when the
/// script was, so that a region or event name still matches its frames.
pub fn escape_like(text: &str, escaped: bool) -> String {
    if escaped {
        utf8_percent_encode(text, ESCAPED).to_string()
    } else {
        text.to_string()
    }
}

/// A name folded from escaped text, as perf wrote it.
pub fn restore(name: &str) -> String {
    percent_decode_str(name).decode_utf8_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_passes_through_uncopied() {
        let (text, escaped) = escape("main;f 100% (/p)\n\t1 g\n");
        assert!(matches!(text, Cow::Borrowed(_)));
        assert!(!escaped);
    }

    #[test]
    fn non_ascii_and_percent_round_trip_through_ascii() {
        let original = "\t1 fooן0123 50%éx (/p/ü)\n";
        let (text, escaped) = escape(original);
        assert!(escaped && text.is_ascii());
        assert_eq!(text, "\t1 foo%D7%9F0123 50%25%C3%A9x (/p/%C3%BC)\n");
        assert_eq!(restore(&text), original);
        assert_eq!(escape_like("50%", true), "50%25");
        assert_eq!(escape_like("50%", false), "50%");
    }
}
