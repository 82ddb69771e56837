//! A real nginx for the HTTPS end-to-end tests, with certificates made by the test with
//! openssl in its own directory: a CA and a server certificate for localhost signed by
//! it, one for another name, an expired one, a CA served as the server's own, and a
//! client certificate. One nginx process serves every case on its own loopback port;
//! it is stopped (SIGTERM, workers and all) when the value is dropped. Without nginx or
//! openssl the test is skipped here and fails under CI=true (.ci/run installs both).
use std::collections::BTreeMap;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The cases served, each on its own port: (name, certificate file stem, extra
/// directives of its server block). Every TLS case offers HTTP/2 by ALPN but "h1-only";
/// "h2c" speaks HTTP/2 over plain TCP (prior knowledge), "plain" HTTP/1.1.
const SERVERS: [(&str, &str, &str); 9] = [
    ("tls13", "server", "ssl_protocols TLSv1.3;"),
    ("tls12", "server", "ssl_protocols TLSv1.2;"),
    ("wrong-name", "other", "ssl_protocols TLSv1.2 TLSv1.3;"),
    ("expired", "expired", "ssl_protocols TLSv1.2 TLSv1.3;"),
    (
        "ca-as-server",
        "selfsigned",
        "ssl_protocols TLSv1.2 TLSv1.3;",
    ),
    (
        "client-auth",
        "server",
        "ssl_protocols TLSv1.2 TLSv1.3; ssl_verify_client on; ssl_client_certificate DIR/ca.pem;",
    ),
    ("plain", "", ""),
    ("h1-only", "server", "ssl_protocols TLSv1.2 TLSv1.3;"),
    ("h2c", "", ""),
];

pub struct Nginx {
    child: Child,
    pub dir: PathBuf,
    ports: BTreeMap<&'static str, u16>,
}

impl Nginx {
    /// Certificates made and nginx started in `dir`; None (having said why) where nginx
    /// or openssl is missing.
    pub fn start(dir: &Path) -> Option<Nginx> {
        for tool in ["nginx", "openssl"] {
            let found = Command::new("sh")
                .args([
                    "-c",
                    &format!("command -v {tool} || test -x /usr/sbin/{tool}"),
                ])
                .stdout(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if !found {
                plumb_testkit::skip(&format!("{tool} is not installed (.ci/run installs it)"));
                return None;
            }
        }
        make_certificates(dir);
        let ports: BTreeMap<&'static str, u16> = SERVERS
            .iter()
            .map(|(name, ..)| (*name, free_port()))
            .collect();
        std::fs::write(dir.join("nginx.conf"), config(dir, &ports)).unwrap();
        let nginx = if Path::new("/usr/sbin/nginx").exists() {
            "/usr/sbin/nginx"
        } else {
            "nginx"
        };
        let child = Command::new(nginx)
            .arg("-p")
            .arg(dir)
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            .args(["-g", "daemon off;"])
            .stderr(std::fs::File::create(dir.join("nginx.stderr")).unwrap())
            .spawn()
            .expect("nginx starts");
        let mut n = Nginx {
            child,
            dir: dir.to_path_buf(),
            ports,
        };
        n.wait_ready();
        Some(n)
    }

    pub fn port(&self, name: &str) -> u16 {
        self.ports[name]
    }

    /// `https://localhost:PORT/path` of a case (`http://` for "plain").
    pub fn url(&self, name: &str, path: &str) -> String {
        let scheme = if matches!(name, "plain" | "h2c") {
            "http"
        } else {
            "https"
        };
        format!("{scheme}://localhost:{}{path}", self.port(name))
    }

    pub fn file(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The access log's lines for one case's port: `request-uri status protocol n method
    /// length sni`, n the request's place on its connection (1: the connection's first),
    /// length the request's Content-Length (`-` without one), sni the name the client
    /// sent by SNI (`-` without TLS or SNI).
    pub fn access_log(&self, name: &str) -> Vec<String> {
        let port = self.port(name).to_string();
        std::fs::read_to_string(self.dir.join("access.log"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.strip_prefix(&format!("{port} ")).map(str::to_string))
            .collect()
    }

    fn wait_ready(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        for port in self.ports.values() {
            while TcpStream::connect(("127.0.0.1", *port)).is_err() {
                if Instant::now() > deadline {
                    let err =
                        std::fs::read_to_string(self.dir.join("nginx.stderr")).unwrap_or_default();
                    panic!("nginx did not listen on {port} within 10 s: {err}");
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        // Listening on its ports, and still running (an nginx that could not bind one
        // of them exits: the port answering would be someone else's).
        std::thread::sleep(Duration::from_millis(50));
        if let Ok(Some(status)) = self.child.try_wait() {
            let err = std::fs::read_to_string(self.dir.join("nginx.stderr")).unwrap_or_default();
            panic!("nginx exited ({status}): {err}");
        }
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        // SIGTERM: the master stops its workers too (SIGKILL would orphan them).
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let _ = self.child.wait();
    }
}

/// A port free now and never handed to another test of this process: tests run in
/// parallel, each with its own nginx, and two asking the kernel for a free port at once
/// could be given the same one (one nginx then serves the other's requests). The ports
/// count up from a base drawn from the process id, below the kernel's ephemeral range
/// (32768 on), so no client socket takes one between the check and nginx's bind; each
/// is checked free by binding it.
/// `plumb load` of `what` (a URL, or `--targets FILE`) at `rate` for `secs`, no warm-up
/// (nginx's log then holds exactly the measured requests), its result in `r.json` of the
/// test's directory; `extra` options last.
pub fn load(env: &super::Env, what: &[&str], rate: &str, secs: &str, extra: &[&str]) -> super::Run {
    let json = env.path("r.json");
    let json = json.to_str().unwrap();
    let mut args = vec!["load"];
    args.extend_from_slice(what);
    args.extend_from_slice(&[
        "--rate",
        rate,
        "--duration",
        secs,
        "--warmup",
        "0s",
        "--allow-late",
        "--export-json",
        json,
    ]);
    args.extend_from_slice(extra);
    env.plumb(&args)
}

fn free_port() -> u16 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let _ = NEXT.compare_exchange(
        0,
        20_000 + (std::process::id() % 120) * 100,
        Ordering::SeqCst,
        Ordering::SeqCst,
    );
    loop {
        let port = NEXT.fetch_add(1, Ordering::SeqCst);
        assert!(port < 65_000, "no free port left for nginx");
        if TcpListener::bind(("127.0.0.1", port as u16)).is_ok() {
            return port as u16;
        }
    }
}

fn config(dir: &Path, ports: &BTreeMap<&'static str, u16>) -> String {
    let d = dir.display();
    let mut servers = String::new();
    for (name, cert, extra) in SERVERS {
        let port = ports[name];
        // bookworm's nginx 1.22 turns HTTP/2 on with `listen … http2`.
        let http2 = if matches!(name, "h1-only" | "plain") {
            ""
        } else {
            " http2"
        };
        let body = "location / { return 200 \"ok\\n\"; }";
        let server = if cert.is_empty() {
            format!("server {{ listen 127.0.0.1:{port}{http2}; {body} }}\n")
        } else {
            format!(
                "server {{ listen 127.0.0.1:{port} ssl{http2}; ssl_certificate {d}/{cert}.pem; ssl_certificate_key {d}/{cert}.key; {} {body} }}\n",
                extra.replace("DIR", &d.to_string())
            )
        };
        servers.push_str(&server);
    }
    format!(
        "pid {d}/nginx.pid;\nerror_log {d}/error.log;\nevents {{ worker_connections 1024; }}\n\
         http {{\n  log_format ports '$server_port $request_uri $status $server_protocol $connection_requests $request_method $content_length $ssl_server_name';\n  \
         access_log {d}/access.log ports;\n  keepalive_requests 100000;\n  \
         client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n  \
         fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n\
         {servers}}}\n"
    )
}

/// openssl in `dir`: each command must succeed.
fn openssl(dir: &Path, args: &str) {
    let out = Command::new("openssl")
        .args(args.split_whitespace())
        .current_dir(dir)
        .output()
        .expect("openssl runs");
    assert!(
        out.status.success(),
        "openssl {args}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A key and a certificate request for `cn` as `stem`.key and `stem`.csr.
fn request(dir: &Path, stem: &str, cn: &str) {
    openssl(
        dir,
        &format!("req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout {stem}.key -out {stem}.csr -subj /CN={cn}"),
    );
}

/// `stem`.pem signed by the CA for `names`, valid for `days` (-1: already expired).
fn sign(dir: &Path, stem: &str, names: &str, days: i32) {
    std::fs::write(
        dir.join(format!("{stem}.ext")),
        format!("subjectAltName={names}\nbasicConstraints=CA:FALSE\n"),
    )
    .unwrap();
    openssl(
        dir,
        &format!("x509 -req -in {stem}.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out {stem}.pem -days {days} -extfile {stem}.ext"),
    );
}

fn make_certificates(dir: &Path) {
    // The CA (and, served as the server's own, what `openssl req -x509` makes).
    openssl(dir, "req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.pem -days 2 -subj /CN=plumb-test-CA");
    openssl(dir, "req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout selfsigned.key -out selfsigned.pem -days 2 -subj /CN=localhost -addext subjectAltName=DNS:localhost");
    for (stem, cn, names, days) in [
        ("server", "localhost", "DNS:localhost,IP:127.0.0.1", 2),
        ("other", "other.example", "DNS:other.example", 2),
        ("expired", "localhost", "DNS:localhost,IP:127.0.0.1", -1),
        ("client", "plumb-client", "DNS:plumb-client", 2),
    ] {
        request(dir, stem, cn);
        sign(dir, stem, names, days);
    }
}
