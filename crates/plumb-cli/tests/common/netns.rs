//! Hosts for tests across a network: one network namespace per host, each with its own
//! address on a bridge that lives in a namespace of its own (so no firewall of the
//! machine's sees the traffic, and no address exists outside these namespaces). Made by
//! the test with iproute2 (root), removed when dropped. Programs run in a host with
//! `ip netns exec`; the test's own server enters one on a thread of its own (setns(2)
//! moves only the calling thread, and a socket stays in the namespace it was made in).
use std::process::Command;

pub struct Hosts {
    prefix: String,
    /// The first three octets of every host's address.
    pub subnet: String,
    names: Vec<String>,
}

fn ip(args: &[&str]) -> std::io::Result<()> {
    let out = Command::new("ip")
        .args(args)
        .output()
        .map_err(|e| std::io::Error::other(format!("ip: {e}")))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(std::io::Error::other(format!(
            "ip {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )))
    }
}

impl Hosts {
    /// One namespace per name, addressed .1, .2, … in that order. Err when namespaces
    /// cannot be made here (not root, no iproute2): the caller skips, or fails under CI.
    pub fn create(hosts: &[&str]) -> std::io::Result<Hosts> {
        // Unique per call: tests of one process run at once.
        static MADE: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let pid = std::process::id();
        let prefix = format!("plumb{pid}x{n}");
        let subnet = format!("10.199.{}", 20 + (pid * 8 + n) % 200);
        let mut made = Hosts {
            prefix,
            subnet,
            names: Vec::new(),
        };
        let sw = format!("{}-sw", made.prefix);
        ip(&["netns", "add", &sw])?;
        made.names.push(sw.clone());
        ip(&["-n", &sw, "link", "add", "br0", "type", "bridge"])?;
        ip(&["-n", &sw, "link", "set", "br0", "up"])?;
        for (i, host) in hosts.iter().enumerate() {
            let ns = made.namespace(host);
            ip(&["netns", "add", &ns])?;
            made.names.push(ns.clone());
            ip(&["-n", &ns, "link", "set", "lo", "up"])?;
            let peer = format!("b{i}");
            ip(&[
                "link", "add", "eth0", "netns", &ns, "type", "veth", "peer", "name", &peer,
                "netns", &sw,
            ])?;
            ip(&["-n", &sw, "link", "set", &peer, "master", "br0"])?;
            ip(&["-n", &sw, "link", "set", &peer, "up"])?;
            let addr = format!("{}.{}/24", made.subnet, i + 1);
            ip(&["-n", &ns, "addr", "add", &addr, "dev", "eth0"])?;
            ip(&["-n", &ns, "link", "set", "eth0", "up"])?;
        }
        Ok(made)
    }

    pub fn namespace(&self, host: &str) -> String {
        format!("{}-{host}", self.prefix)
    }

    /// The address of the `i`-th host given to `create` (from 0).
    pub fn addr(&self, i: usize) -> String {
        format!("{}.{}", self.subnet, i + 1)
    }

    /// `program` run in `host`'s namespace (`ip netns exec` execs it: the child's pid is
    /// the program's, so signals reach it).
    pub fn command(&self, host: &str, program: &str) -> Command {
        let mut c = Command::new("ip");
        c.args(["netns", "exec", &self.namespace(host), program]);
        c
    }
}

impl Drop for Hosts {
    fn drop(&mut self) {
        // Deleting a namespace removes its veth ends (and so their peers).
        for ns in self.names.iter().rev() {
            let _ = ip(&["netns", "del", ns]);
        }
    }
}

/// Moves the calling thread into the network namespace named `namespace` (a
/// `Hosts::namespace`): setns(2) affects the calling thread only, and sockets it makes
/// stay in that namespace whichever thread uses them.
pub fn enter(namespace: &str) {
    let path = format!("/run/netns/{namespace}");
    let f = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    use std::os::fd::AsRawFd;
    // SAFETY: setns on an open namespace file; it affects the calling thread only.
    let r = unsafe { libc::setns(f.as_raw_fd(), libc::CLONE_NEWNET) };
    assert_eq!(
        r,
        0,
        "setns into {path}: {}",
        std::io::Error::last_os_error()
    );
}
