//! Function names as a reader wants them: demangled (Rust, both manglings, and C++),
//! without offsets, and as inferno folds them (no argument list, `;` written `:`).

/// `heavy+0x2b` → `heavy` (only a hexadecimal offset is cut).
pub fn strip_offset(sym: &str) -> &str {
    match sym.rfind("+0x") {
        Some(at) if sym[at + 3..].bytes().all(|b| b.is_ascii_hexdigit()) && at + 3 < sym.len() => {
            &sym[..at]
        }
        _ => sym,
    }
}

/// Demangles what perf left mangled: Rust's legacy (`_ZN…17h<hash>E`) and v0 (`_R…`)
/// symbols without their hash, C++ (`_Z…`), and Rust names perf demangled only in part
/// (`_$LT$T$u20$as$u20$Trait$GT$::f::h<hash>`). Anything else is returned as it was.
pub fn demangle(sym: &str) -> String {
    if sym.starts_with("_R") || sym.starts_with("_ZN") {
        if let Ok(d) = rustc_demangle::try_demangle(sym) {
            return format!("{d:#}");
        }
    }
    if sym.starts_with("_Z") {
        if let Ok(d) = cpp_demangle::Symbol::new(sym) {
            if let Ok(s) = d.demangle(&cpp_demangle::DemangleOptions::default()) {
                return s;
            }
        }
    }
    fix_partly_demangled_rust(sym)
}

fn fix_partly_demangled_rust(sym: &str) -> String {
    let without_hash = match sym.rsplit_once("::h") {
        Some((head, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            head
        }
        _ => sym,
    };
    if !without_hash.contains('$') {
        return without_hash.to_string();
    }
    const ESCAPES: [(&str, &str); 12] = [
        ("$LT$", "<"),
        ("$GT$", ">"),
        ("$u20$", " "),
        ("$u27$", "'"),
        ("$u5b$", "["),
        ("$u5d$", "]"),
        ("$u7b$", "{"),
        ("$u7d$", "}"),
        ("$RF$", "&"),
        ("$BP$", "*"),
        ("$C$", ","),
        ("..", "::"),
    ];
    let mut s = without_hash.to_string();
    for (from, to) in ESCAPES {
        s = s.replace(from, to);
    }
    s = s.replace("::_<", "::<").replace("::_{", "::{");
    s.strip_prefix("_<")
        .map(|rest| format!("<{rest}"))
        .unwrap_or(s)
}

/// The frame's name as inferno's perf collapser writes it (with raw addresses on):
/// an unknown symbol becomes `[module-file <pc>]`, and the argument list is cut.
pub fn folded_name(sym: &str, pc: &str, module: &str) -> String {
    if sym == "[unknown]" {
        let file = if module == "[unknown]" {
            "unknown"
        } else {
            module.rsplit('/').next().unwrap_or(module)
        };
        return format!("[{file} <{pc}>]");
    }
    tidy(sym)
}

/// inferno's `tidy_generic`: `;` → `:`, and the top-level argument list cut (but not a
/// Go method's `.(*T)` nor C++'s `(anonymous namespace)`).
pub fn tidy(name: &str) -> String {
    let mut name = name.replace(';', ":");
    let mut depth = 0i32;
    let mut after_dot = None;
    for (i, c) in name.char_indices() {
        match c {
            '<' | '{' | '[' => depth += 1,
            '>' | '}' | ']' | ')' => depth -= 1,
            '(' => {
                if depth == 0
                    && after_dot != Some(i)
                    && !name[i..].starts_with("(anonymous namespace)")
                {
                    name.truncate(i);
                    break;
                }
                depth += 1;
            }
            '.' => after_dot = Some(i + 1),
            _ => {}
        }
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_cut_only_when_hexadecimal() {
        assert_eq!(strip_offset("heavy+0x2b"), "heavy");
        assert_eq!(strip_offset("a+b"), "a+b");
        assert_eq!(strip_offset("x+0x"), "x+0x");
        assert_eq!(strip_offset("x+0xzz"), "x+0xzz");
    }

    #[test]
    fn rust_and_cpp_names_are_demangled() {
        assert_eq!(
            demangle("_ZN3std2rt19lang_start_internal17h540c897fe52ba9c5E"),
            "std::rt::lang_start_internal"
        );
        assert_eq!(demangle("_RNvCs1234_7mycrate3foo"), "mycrate::foo");
        assert_eq!(
            demangle("_ZNSt6vectorIiSaIiEE9push_backERKi"),
            "std::vector<int, std::allocator<int> >::push_back(int const&)"
        );
        assert_eq!(
            demangle("_$LT$std..fs..ReadDir$u20$as$u20$core..iter..traits..iterator..Iterator$GT$::next::hc14f1750ca79129b"),
            "<std::fs::ReadDir as core::iter::traits::iterator::Iterator>::next"
        );
        assert_eq!(
            demangle("std::sys::fs::File::open::hb90e1c1c787080f0"),
            "std::sys::fs::File::open"
        );
        assert_eq!(demangle("heavy"), "heavy");
        assert_eq!(demangle("[unknown]"), "[unknown]");
    }

    #[test]
    fn folded_names_follow_inferno() {
        assert_eq!(
            tidy("std::vector<int>::push_back(int const&)"),
            "std::vector<int>::push_back"
        );
        assert_eq!(tidy("net/http.(*Client).Do"), "net/http.(*Client).Do");
        assert_eq!(
            tidy("(anonymous namespace)::f(int)"),
            "(anonymous namespace)::f"
        );
        assert_eq!(tidy("a;b"), "a:b");
        assert_eq!(folded_name("[unknown]", "7f00", "/bin/x"), "[x <7f00>]");
        assert_eq!(
            folded_name("[unknown]", "7f00", "[unknown]"),
            "[unknown <7f00>]"
        );
    }
}
