use super::connection::{connect, Sender};
use super::recorder::{LoadReport, Outcome, Recorder};
use super::target::Target;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use plumb_model::LoadMode;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

#[derive(Debug, Clone, PartialEq)]
pub enum Mode {
    /// Requests due at `rate` per second (constant interval, or Poisson from a seed), at
    /// most `max_in_flight` outstanding: beyond that, requests wait for a slot and their
    /// lateness shows in the send-lateness histogram and their latency.
    Open {
        rate: f64,
        poisson_seed: Option<u64>,
        max_in_flight: usize,
    },
    /// `connections` clients sending back to back: throughput, not user latency.
    Closed { connections: usize },
}

/// The generator's mode from the one the result records.
impl From<&LoadMode> for Mode {
    fn from(m: &LoadMode) -> Self {
        match *m {
            LoadMode::Open {
                rate,
                max_in_flight,
                poisson_seed,
            } => Mode::Open {
                rate: rate.per_second(),
                poisson_seed,
                max_in_flight: max_in_flight as usize,
            },
            LoadMode::Closed { connections } => Mode::Closed {
                connections: connections as usize,
            },
        }
    }
}

#[derive(Debug, Clone)]
pub struct LoadConfig {
    pub url: String,
    pub method: hyper::Method,
    pub headers: Vec<(String, String)>,
    pub body: Bytes,
    pub duration: Duration,
    pub warmup: Duration,
    pub timeout: Duration,
    pub mode: Mode,
    /// Start the schedule at this wall-clock time (agents of one test agree on it).
    pub start_at: Option<std::time::SystemTime>,
    /// Write per-second latency histograms here as an HdrHistogram interval log.
    pub hlog: Option<std::path::PathBuf>,
    /// How long before each due time the scheduler stops sleeping and yields in a loop
    /// instead: longer is more punctual and costs more CPU. `DEFAULT_SPIN` by default.
    pub spin: Duration,
}

/// Waits shorter than this are spent on the CPU rather than yielding to the runtime.
const BUSY_WAIT: Duration = Duration::from_micros(20);
/// Busy-waits in a row before the scheduler yields anyway, to let answers be read.
const MAX_UNYIELDED: u32 = 8;

/// The default stretch of yielding before each due time: enough to absorb a hypervisor's
/// wake-up latency, short enough to cost about a tenth of a core at 1,000 requests/s.
pub const DEFAULT_SPIN: Duration = Duration::from_micros(100);

struct Ctx {
    cfg: LoadConfig,
    target: Target,
    pool: RefCell<Vec<Sender>>,
    connections: Cell<usize>,
    rec: RefCell<Recorder>,
}

/// Runs the test on a single-threaded runtime. `stop` (Ctrl-C) ends it early; what was
/// measured is kept. Fails only before the first request: a bad URL, DNS, or a target
/// that refuses the first connection.
pub fn run(cfg: &LoadConfig, stop: Arc<AtomicBool>) -> Result<LoadReport, String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let local = tokio::task::LocalSet::new();
    local.block_on(&rt, run_async(cfg.clone(), stop))
}

async fn run_async(cfg: LoadConfig, stop: Arc<AtomicBool>) -> Result<LoadReport, String> {
    let target = Target::resolve(&cfg.url).await.map_err(|e| e.to_string())?;
    let first = tokio::time::timeout(cfg.timeout, connect(&target))
        .await
        .unwrap_or_else(|_| Err("timed out".to_string()))
        .map_err(|e| format!("cannot reach {}: {e}", cfg.url))?;
    let wait = match cfg.start_at {
        Some(at) => at
            .duration_since(std::time::SystemTime::now())
            .map_err(|_| "--start-at is in the past".to_string())?,
        None => Duration::from_millis(5),
    };
    let start = Instant::now() + wait;
    let measure_from = start + cfg.warmup;
    let end = measure_from + cfg.duration;
    let hlog = match &cfg.hlog {
        Some(path) => Some(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let base_time = std::time::SystemTime::now() + wait + cfg.warmup;
    let ctx = Rc::new(Ctx {
        rec: RefCell::new(Recorder::new(measure_from, cfg.timeout).with_hlog(hlog, base_time)),
        target,
        pool: RefCell::new(vec![first]),
        connections: Cell::new(1),
        cfg,
    });
    let interrupted = match ctx.cfg.mode.clone() {
        Mode::Open {
            rate,
            poisson_seed,
            max_in_flight,
        } => open_loop(&ctx, start, end, rate, poisson_seed, max_in_flight, &stop).await?,
        Mode::Closed { connections } => closed_loop(&ctx, start, end, connections, &stop).await,
    };
    let stopped_at = Instant::now().min(end);
    let measured_s = stopped_at
        .saturating_duration_since(measure_from)
        .as_secs_f64();
    let open = matches!(ctx.cfg.mode, Mode::Open { .. });
    let connections = ctx.connections.get();
    // Requests still outstanding after the drain (a connect that hangs past the timeout)
    // cannot hold the results hostage: take the recorder as it stands.
    let mut rec = ctx
        .rec
        .replace(Recorder::new(Instant::now(), ctx.cfg.timeout));
    let outstanding = rec.outstanding();
    rec.unfinished(outstanding);
    Ok(rec.finish(measured_s, interrupted, connections, open))
}

/// Sleeps until `t`, waking every 100 ms to see the stop flag. True when stopped.
async fn sleep_until(t: Instant, stop: &AtomicBool) -> bool {
    loop {
        if stop.load(Ordering::Relaxed) {
            return true;
        }
        let now = Instant::now();
        if now >= t {
            return false;
        }
        tokio::time::sleep_until((t.min(now + Duration::from_millis(100))).into()).await;
    }
}

async fn open_loop(
    ctx: &Rc<Ctx>,
    start: Instant,
    end: Instant,
    rate: f64,
    poisson_seed: Option<u64>,
    max_in_flight: usize,
    stop: &Arc<AtomicBool>,
) -> Result<bool, String> {
    let slots = Arc::new(Semaphore::new(max_in_flight));
    let pacer = super::pacer::Pacer::new()
        .map_err(|e| format!("cannot set up the schedule's timer: {e}"))?;
    let mut unyielded = 0u32;
    let interval = 1.0 / rate;
    let mut rng = poisson_seed.map(Pcg64::seed_from_u64);
    let mut offset_s = 0.0f64;
    loop {
        let due = start + Duration::from_secs_f64(offset_s);
        if due >= end {
            break;
        }
        if !wait_until(due, &pacer, ctx.cfg.spin, &mut unyielded, stop).await {
            break;
        }
        offset_s += match rng.as_mut() {
            Some(r) => -interval * (1.0 - r.gen::<f64>()).ln(),
            None => interval,
        };
        // A free slot, or the end of the test: requests still due when it ends, because
        // the in-flight bound held them back, are counted as not sent, never dropped.
        let Some(permit) = free_slot(&slots, end, stop).await else {
            let mut rec = ctx.rec.borrow_mut();
            let mut next = due;
            while next < end {
                rec.not_sent(next);
                next = start + Duration::from_secs_f64(offset_s);
                offset_s += interval;
            }
            break;
        };
        let ctx2 = Rc::clone(ctx);
        tokio::task::spawn_local(async move {
            one_request(&ctx2, due).await;
            drop(permit);
        });
    }
    drain(&slots, max_in_flight, ctx.cfg.timeout).await;
    Ok(stop.load(Ordering::Relaxed))
}

/// Waits for `due`: sleeps on the timerfd to just before it (a wake-up from sleep can
/// itself take tens of microseconds under a hypervisor), then yields the last stretch;
/// other tasks, answers among them, run between the yields. False when stopped first.
async fn wait_until(
    due: Instant,
    pacer: &super::pacer::Pacer,
    spin: Duration,
    unyielded: &mut u32,
    stop: &AtomicBool,
) -> bool {
    loop {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        let now = Instant::now();
        if now >= due {
            return true;
        }
        let left = due - now;
        if left <= BUSY_WAIT && *unyielded < MAX_UNYIELDED {
            // Too short to be worth a trip through the runtime (each yield polls the
            // I/O driver: an epoll_wait syscall): wait on the CPU. At most a few times
            // in a row, so answers are read promptly even at high rates.
            while Instant::now() < due {
                std::hint::spin_loop();
            }
            *unyielded += 1;
        } else if left <= spin {
            *unyielded = 0;
            tokio::task::yield_now().await;
        } else {
            *unyielded = 0;
            let wake = (due - spin).min(now + super::pacer::MAX_WAIT);
            let _ = pacer.sleep_until(wake).await;
        }
    }
}

/// A slot under the in-flight bound, or `None` when the test ends or is stopped first.
async fn free_slot(
    slots: &Arc<Semaphore>,
    end: Instant,
    stop: &AtomicBool,
) -> Option<tokio::sync::OwnedSemaphorePermit> {
    loop {
        if stop.load(Ordering::Relaxed) || Instant::now() >= end {
            return None;
        }
        let acquire = slots.clone().acquire_owned();
        if let Ok(p) = tokio::time::timeout(super::pacer::MAX_WAIT, acquire).await {
            return Some(p.expect("never closed"));
        }
    }
}

async fn closed_loop(
    ctx: &Rc<Ctx>,
    start: Instant,
    end: Instant,
    connections: usize,
    stop: &Arc<AtomicBool>,
) -> bool {
    let slots = Arc::new(Semaphore::new(connections));
    for _ in 0..connections {
        let permit = slots.clone().acquire_owned().await.expect("never closed");
        let (ctx2, stop2) = (Rc::clone(ctx), Arc::clone(stop));
        tokio::task::spawn_local(async move {
            if sleep_until(start, &stop2).await {
                return;
            }
            while Instant::now() < end && !stop2.load(Ordering::Relaxed) {
                one_request(&ctx2, Instant::now()).await;
            }
            drop(permit);
        });
    }
    let stopped = sleep_until(end, stop).await;
    drain(&slots, connections, ctx.cfg.timeout).await;
    stopped
}

/// Waits for outstanding requests, at most one timeout (plus a second) longer.
async fn drain(slots: &Arc<Semaphore>, n: usize, timeout: Duration) {
    let _ = tokio::time::timeout(
        timeout + Duration::from_secs(1),
        slots.acquire_many(n as u32),
    )
    .await;
}

async fn one_request(ctx: &Ctx, due: Instant) {
    // Lateness is measured when the request's task runs, not when it was spawned: a
    // backlog of spawned tasks is the generator's delay too.
    let started = Instant::now();
    ctx.rec.borrow_mut().dispatched(due, started);
    // One deadline for connecting and for the exchange.
    let deadline = started + ctx.cfg.timeout;
    let reused = ctx.pool.borrow_mut().pop();
    let mut sender = match reused {
        Some(s) if !s.is_closed() => s,
        // Connecting counts against the same timeout as the exchange: a black-holed SYN
        // must not keep a request (and the end of the test) waiting for minutes.
        _ => match tokio::time::timeout_at(deadline.into(), connect(&ctx.target))
            .await
            .unwrap_or_else(|_| Err("timed out".to_string()))
        {
            Ok(s) => {
                ctx.connections.set(ctx.connections.get() + 1);
                s
            }
            Err(e) => {
                ctx.rec
                    .borrow_mut()
                    .done(due, None, Instant::now(), Outcome::Connect(e));
                return;
            }
        },
    };
    let mut req = hyper::Request::builder()
        .method(ctx.cfg.method.clone())
        .uri(ctx.target.path())
        .header(hyper::header::HOST, ctx.target.host_header.as_str());
    for (k, v) in &ctx.cfg.headers {
        req = req.header(k.as_str(), v.as_str());
    }
    let req = match req.body(Full::new(ctx.cfg.body.clone())) {
        Ok(r) => r,
        Err(e) => {
            ctx.rec.borrow_mut().done(
                due,
                None,
                Instant::now(),
                Outcome::Protocol(format!("bad request: {e}")),
            );
            return;
        }
    };
    let sent = Instant::now();
    let exchange = async {
        sender.ready().await?;
        let resp = sender.send_request(req).await?;
        let status = resp.status();
        resp.into_body().collect().await?;
        Ok::<_, hyper::Error>(status)
    };
    let result = tokio::time::timeout_at(deadline.into(), exchange).await;
    let done = Instant::now();
    let (outcome, keep) = match result {
        Err(_) => (Outcome::Timeout, false),
        Ok(Err(e)) => (Outcome::Protocol(short(&e)), false),
        Ok(Ok(s)) if s.as_u16() >= 400 => (Outcome::Status(s.as_u16()), true),
        Ok(Ok(_)) => (Outcome::Ok, true),
    };
    ctx.rec.borrow_mut().done(due, Some(sent), done, outcome);
    if keep && !sender.is_closed() {
        ctx.pool.borrow_mut().push(sender);
    }
}

/// A short, categorical description of a hyper error (its kind, not per-request
/// details), so the error table stays small.
fn short(e: &hyper::Error) -> String {
    if e.is_parse() {
        "not an HTTP response".into()
    } else if e.is_incomplete_message() {
        "connection closed mid-response".into()
    } else if e.is_closed() || e.is_canceled() {
        "connection closed".into()
    } else {
        let s = e.to_string();
        s.split(':').next().unwrap_or(&s).to_string()
    }
}
