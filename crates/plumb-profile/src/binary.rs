//! What the profiled binary has — frame pointers, unwind tables, symbols, debug info —
//! read from its ELF file, to choose how perf walks the stack and to say what the profile
//! will lack.

use object::{Object, ObjectSection, ObjectSymbol, SymbolKind};
use plumb_model::CallGraph;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq)]
pub struct BinaryFacts {
    pub path: PathBuf,
    pub call_graph: CallGraph,
    /// Why, in a sentence.
    pub why: String,
    /// No function symbols: frames will be addresses.
    pub stripped: bool,
    /// `.debug_line` present: annotation can show source lines.
    pub debug_info: bool,
}

/// `program` as the shell would find it: a path when it has a `/`, else the first
/// executable of that name on `PATH`.
pub fn resolve(program: &str) -> Option<PathBuf> {
    let runnable = |p: &Path| {
        use std::os::unix::fs::PermissionsExt;
        p.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        let p = PathBuf::from(program);
        return runnable(&p).then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| runnable(p))
}

/// Reads the facts of the executable at `path`. A file that is not ELF (a script) gets
/// DWARF unwinding, which needs nothing of the code but its unwind tables.
pub fn inspect(path: &Path) -> BinaryFacts {
    let data = std::fs::read(path).unwrap_or_default();
    match object::File::parse(&*data) {
        Ok(file) => facts_of(path, &file),
        Err(_) => BinaryFacts {
            path: path.to_path_buf(),
            call_graph: CallGraph::Dwarf,
            why: format!(
                "{} is not an ELF binary (a script?): DWARF unwinding, which needs no frame pointers",
                path.display()
            ),
            stripped: false,
            debug_info: false,
        },
    }
}

fn facts_of(path: &Path, file: &object::File) -> BinaryFacts {
    let name = path.display();
    let (framed, functions) = frame_pointer_count(file);
    let unwind_tables = [".eh_frame", ".debug_frame"]
        .iter()
        .any(|s| file.section_by_name(s).is_some_and(|s| s.size() > 0));
    let stripped = functions == 0 && file.symbols().next().is_none();
    let (call_graph, why) = if functions > 0 && framed * 10 >= functions * 8 {
        (
            CallGraph::FramePointers,
            format!(
                "{name}: {framed} of {functions} functions keep a frame pointer: frame pointers"
            ),
        )
    } else if unwind_tables {
        let kept = if functions == 0 {
            "no symbols to check for frame pointers".to_string()
        } else {
            format!("{framed} of {functions} functions keep a frame pointer")
        };
        (
            CallGraph::Dwarf,
            format!("{name}: {kept}, and it has unwind tables: DWARF unwinding"),
        )
    } else {
        (
            CallGraph::FramePointers,
            format!("{name}: neither frame pointers nor unwind tables: frame pointers, stacks may stop at the first frame"),
        )
    };
    BinaryFacts {
        path: path.to_path_buf(),
        call_graph,
        why,
        stripped,
        debug_info: file.section_by_name(".debug_line").is_some(),
    }
}

/// The C runtime's start-up code, compiled without frame pointers whatever the program.
const CRT: [&str; 7] = [
    "_start",
    "_init",
    "_fini",
    "deregister_tm_clones",
    "register_tm_clones",
    "__do_global_dtors_aux",
    "frame_dummy",
];

/// Of the x86-64 functions of at least 8 bytes (outside the C runtime's), how many keep
/// a frame pointer: they open with `push %rbp` (after an `endbr64`, where control-flow
/// protection put one) and set `mov %rsp,%rbp` within their first instructions (the
/// compiler may schedule other moves between the two).
fn frame_pointer_count(file: &object::File) -> (usize, usize) {
    if file.architecture() != object::Architecture::X86_64 {
        return (0, 0);
    }
    let mut framed = 0;
    let mut functions = 0;
    let functions_here = file.symbols().filter(|s| {
        s.kind() == SymbolKind::Text && s.size() >= 8 && !s.name().is_ok_and(|n| CRT.contains(&n))
    });
    for sym in functions_here {
        let Some(code) = sym
            .section_index()
            .and_then(|i| file.section_by_index(i).ok())
            .and_then(|sec| {
                let data = sec.data().ok()?;
                let at = usize::try_from(sym.address().checked_sub(sec.address())?).ok()?;
                data.get(at..(at + 24).min(at + sym.size() as usize).min(data.len()))
            })
        else {
            continue;
        };
        functions += 1;
        let code = code
            .strip_prefix(&[0xf3, 0x0f, 0x1e, 0xfa][..])
            .unwrap_or(code);
        if code.first() == Some(&0x55) && code.windows(3).any(|w| w == [0x48, 0x89, 0xe5]) {
            framed += 1;
        }
    }
    (framed, functions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn compile(dir: &Path, name: &str, flags: &[&str]) -> Option<PathBuf> {
        let src = dir.join("p.c");
        std::fs::write(
            &src,
            "__attribute__((noinline)) int f(int x){return x*3+1;}\nint g(int x){int a[8];for(int i=0;i<8;i++)a[i]=f(x+i);return a[x&7];}\nint main(int c,char**v){(void)v;return g(c)&1;}\n",
        )
        .unwrap();
        let exe = dir.join(name);
        let ok = Command::new("cc")
            .args(flags)
            .arg("-o")
            .arg(&exe)
            .arg(&src)
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(exe)
    }

    #[test]
    fn chooses_by_what_the_binary_has() {
        let dir = tempfile::tempdir().unwrap();
        let Some(fp) = compile(dir.path(), "fp", &["-O2", "-fno-omit-frame-pointer"]) else {
            plumb_testkit::skip("no C compiler");
            return;
        };
        let facts = inspect(&fp);
        assert_eq!(facts.call_graph, CallGraph::FramePointers, "{}", facts.why);
        assert!(!facts.stripped && !facts.debug_info);

        let plain = compile(dir.path(), "plain", &["-O2", "-g"]).unwrap();
        let facts = inspect(&plain);
        assert_eq!(facts.call_graph, CallGraph::Dwarf, "{}", facts.why);
        assert!(facts.debug_info);

        let stripped = compile(dir.path(), "stripped", &["-O2", "-s"]).unwrap();
        let facts = inspect(&stripped);
        assert!(facts.stripped, "{facts:?}");
        assert_eq!(facts.call_graph, CallGraph::Dwarf);
    }

    #[test]
    fn a_script_gets_dwarf_and_programs_are_found_on_path() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("s.sh");
        std::fs::write(&script, "#!/bin/sh\ntrue\n").unwrap();
        assert_eq!(inspect(&script).call_graph, CallGraph::Dwarf);
        assert!(resolve("sh").is_some());
        assert!(resolve("surely-no-such-program-here").is_none());
        assert!(resolve("./surely-no-such-file").is_none());
    }
}
