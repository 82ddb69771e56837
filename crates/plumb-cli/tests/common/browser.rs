//! Opening a page of `plumb report` in headless Chromium, as a reader would.

/// What the browser saw of a page: its charts (title, drawn with a size and shapes),
/// the resources it fetched, console lines, and the screenshot's size; and, laid out in
/// a 1100 px frame, each chart's width against its column's, texts that overlap other
/// texts, and texts that run past their chart's edge (issue 24, defect 22).
pub struct Seen {
    pub charts: Vec<(String, bool)>,
    pub fetched: Vec<String>,
    pub console: Vec<String>,
    pub screenshot_bytes: u64,
    /// Each chart's title, its drawn width and its column's width, pixels.
    pub widths: Vec<(String, f64, f64)>,
    pub overlaps: Vec<String>,
    pub clipped: Vec<String>,
}

/// A page that loads `report` in a frame and, once it has loaded, writes what it finds
/// into its own DOM for --dump-dom: each chart's title and whether it has a box and
/// shapes, and every resource the report fetched (Resource Timing).
const HARNESS: &str = r#"<!doctype html><html><body><pre id="seen">pending</pre>
<iframe id="r" src="report.html" style="width:1100px;height:900px"></iframe>
<script>
document.getElementById('r').addEventListener('load', () => {
  const w = document.getElementById('r').contentWindow, d = w.document;
  const charts = [...d.querySelectorAll('svg')].map(s => {
    const b = s.getBoundingClientRect();
    const shapes = s.querySelectorAll('polyline,circle,line,rect').length;
    return [(s.querySelector('title') || {}).textContent || '', b.width > 0 && b.height > 0 && shapes > 0];
  });
  const fetched = w.performance.getEntriesByType('resource').map(e => e.name);
  const widths = [], overlaps = [], clipped = [];
  for (const s of d.querySelectorAll('svg')) {
    const title = (s.querySelector('title') || {}).textContent || '';
    const b = s.getBoundingClientRect();
    widths.push([title, b.width, s.parentElement.getBoundingClientRect().width]);
    // Flame-graph frames clip their own labels; every other text stands free.
    const texts = [...s.querySelectorAll('text')]
      .filter(t => t.textContent.trim() !== '' && !t.classList.contains('flt'))
      .map(t => [t.textContent, t.getBoundingClientRect()]);
    for (const [text, r] of texts) {
      if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) {
        clipped.push(title + ': "' + text + '"');
      }
    }
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++) {
        const [ta, a] = texts[i], [tb, c] = texts[j];
        const w = Math.min(a.right, c.right) - Math.max(a.left, c.left);
        const h = Math.min(a.bottom, c.bottom) - Math.max(a.top, c.top);
        if (w > 1 && h > 1) overlaps.push(title + ': "' + ta + '" and "' + tb + '"');
      }
    }
  }
  document.getElementById('seen').textContent = JSON.stringify({charts, fetched, widths, overlaps, clipped});
});
</script></body></html>"#;

/// `report.html` in `dir` opened headless; None (said on stderr) without Chromium.
pub fn open_in_chromium(dir: &std::path::Path) -> Option<Seen> {
    let chromium = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| {
            std::process::Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        });
    let Some(chromium) = chromium else {
        plumb_testkit::skip("no chromium on PATH (.ci/run installs it)");
        return None;
    };
    std::fs::write(dir.join("harness.html"), HARNESS).unwrap();
    // Nothing may resolve: a page that tried to fetch would fail, and its resource
    // entries would still name what it tried.
    let common = [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--host-resolver-rules=MAP * ~NOTFOUND",
        "--enable-logging=stderr",
        "--v=0",
    ];
    let dump = std::process::Command::new(chromium)
        .args(common)
        .args([
            "--allow-file-access-from-files",
            "--virtual-time-budget=5000",
            "--dump-dom",
        ])
        .arg(format!("file://{}", dir.join("harness.html").display()))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&dump.stdout);
    let json = dom
        .split("<pre id=\"seen\">")
        .nth(1)
        .and_then(|r| r.split("</pre>").next())
        .unwrap_or_else(|| panic!("the harness wrote nothing\n{dom}"));
    let json = json
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let v: serde_json::Value =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    let console = String::from_utf8_lossy(&dump.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_string)
        .collect();
    let png = dir.join("report.png");
    std::process::Command::new(chromium)
        .args(common)
        .args(["--hide-scrollbars", "--window-size=1100,2400"])
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", dir.join("report.html").display()))
        .output()
        .unwrap();
    Some(Seen {
        charts: v["charts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c[0].as_str().unwrap().to_string(), c[1].as_bool().unwrap()))
            .collect(),
        fetched: v["fetched"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u.to_string())
            .collect(),
        console,
        screenshot_bytes: std::fs::metadata(&png).map_or(0, |m| m.len()),
        widths: v["widths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let px = |i: usize| c[i].as_f64().unwrap();
                (c[0].as_str().unwrap().to_string(), px(1), px(2))
            })
            .collect(),
        overlaps: strings(&v["overlaps"]),
        clipped: strings(&v["clipped"]),
    })
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

impl Seen {
    /// Every chart drawn, nothing fetched, a silent console, a screenshot written.
    pub fn assert_clean(&self) {
        assert!(
            self.charts.iter().all(|(_, drawn)| *drawn),
            "{:?}",
            self.charts
        );
        assert!(
            self.fetched.is_empty(),
            "the page fetched {:?}",
            self.fetched
        );
        assert!(self.console.is_empty(), "console: {:?}", self.console);
        assert!(
            self.screenshot_bytes > 20_000,
            "screenshot of {} bytes",
            self.screenshot_bytes
        );
        assert!(
            self.overlaps.is_empty(),
            "texts drawn over texts: {:#?}",
            self.overlaps
        );
        assert!(
            self.clipped.is_empty(),
            "texts past their chart's edge: {:#?}",
            self.clipped
        );
        // A chart fills its column (it was drawn 550 px wide in a 1100 px column).
        for (title, width, column) in &self.widths {
            assert!(
                *width >= 0.9 * column || *column < 1.0,
                "{title}: {width} px in a {column} px column"
            );
        }
    }
}
