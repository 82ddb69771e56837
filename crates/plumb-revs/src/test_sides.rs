//! For the tests: two sides whose worktrees are empty directories, and a spawner whose
//! runs take the time set for their worktree with a seeded spread, so rounds, looks and
//! verdicts are checked without a clock (real timings are bench/revs.sh's).
use crate::{Built, Checkout, Resolved, Side};
use plumb_command::{Launch, OutputPolicy, RunRecord, SpawnError, Spawner};
use plumb_model::quantity::{ByteSize, Duration};
use plumb_model::Exit;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Sides A and B in `dir`'s subdirectories `a` and `b`.
pub fn sides(dir: &Path) -> [Side; 2] {
    ["a", "b"].map(|name| {
        let wt = dir.join(name);
        std::fs::create_dir_all(&wt).unwrap();
        let commit = format!("{name}{}", "0".repeat(39));
        Side {
            rev: Resolved {
                name: name.to_uppercase(),
                commit: Some(commit),
                tree: "t".repeat(40),
            },
            checkout: Checkout {
                dir: wt.clone(),
                entry: wt,
                key: name.repeat(16),
                built: true,
            },
            built: Built::Reused,
        }
    })
}

/// What a fake run does in a worktree.
pub type Behaviour = Rc<dyn Fn(&[String], &Path, &mut Pcg64) -> RunRecord>;

/// Runs take what `behaviour` says for their worktree; every run's worktree is logged.
pub struct BySide {
    pub behaviour: Behaviour,
    pub rng: Rc<RefCell<Pcg64>>,
    pub log: Rc<RefCell<Vec<PathBuf>>>,
}

impl BySide {
    /// Each run in a worktree whose path ends in `a` takes `a`, in `b` `b`, times
    /// 1 ± `spread` (uniform, seeded).
    pub fn timed(a: Duration, b: Duration, spread: f64, seed: u64) -> BySide {
        let behaviour: Behaviour = Rc::new(move |_, dir: &Path, rng: &mut Pcg64| {
            let base = if dir.ends_with("a") { a } else { b };
            let factor = 1.0 + rng.gen_range(-spread..=spread);
            record(Duration::from_nanos_f64(base.as_nanos_f64() * factor))
        });
        BySide::with(behaviour, seed)
    }

    pub fn with(behaviour: Behaviour, seed: u64) -> BySide {
        BySide {
            behaviour,
            rng: Rc::new(RefCell::new(Pcg64::seed_from_u64(seed))),
            log: Rc::default(),
        }
    }
}

/// A successful run of `wall`.
pub fn record(wall: Duration) -> RunRecord {
    RunRecord {
        wall,
        user: wall,
        sys: Duration::ZERO,
        peak_rss: ByteSize(1 << 20),
        exit: Exit::Code(0),
    }
}

struct Run {
    argv: Vec<String>,
    dir: PathBuf,
    behaviour: Behaviour,
    rng: Rc<RefCell<Pcg64>>,
    log: Rc<RefCell<Vec<PathBuf>>>,
}

impl Spawner for BySide {
    fn prepare(
        &mut self,
        argv: &[String],
        dir: Option<&Path>,
        _: &OutputPolicy,
    ) -> std::io::Result<Box<dyn Launch>> {
        Ok(Box::new(Run {
            argv: argv.to_vec(),
            dir: dir.expect("a side runs in its worktree").to_path_buf(),
            behaviour: self.behaviour.clone(),
            rng: self.rng.clone(),
            log: self.log.clone(),
        }))
    }
}

impl Launch for Run {
    fn run_once(&mut self) -> Result<RunRecord, SpawnError> {
        self.log.borrow_mut().push(self.dir.clone());
        Ok((self.behaviour)(
            &self.argv,
            &self.dir,
            &mut self.rng.borrow_mut(),
        ))
    }

    fn stderr_tail(&mut self, _: u64) -> String {
        format!("stderr in {}", self.dir.display())
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}
