//! `plumb load deploy k8s` end to end: the manifests it writes validate against the
//! Kubernetes schemas of 1.33 and 1.37 (kubernetes-validate, offline, strict), a broken
//! copy does not (the validator is not a formality), and the agents' command line in
//! them is one plumb runs as far as the coordinator it names.
mod common;

use common::{Env, Run};

fn validator() -> bool {
    let found = std::process::Command::new("kubernetes-validate")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        plumb_testkit::skip(
            "kubernetes-validate is not installed (pip install kubernetes-validate==1.37.0)",
        );
    }
    found
}

fn validate(file: &std::path::Path, version: &str) -> Run {
    Run::of(
        std::process::Command::new("kubernetes-validate")
            .args(["--strict", "-k", version])
            .arg(file)
            .output()
            .unwrap(),
    )
}

/// The manifests as JSON, read by PyYAML (kubernetes-validate's own YAML reader).
fn documents(file: &std::path::Path) -> Vec<serde_json::Value> {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import json,sys,yaml; print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1])))))",
        ])
        .arg(file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_manifests_validate_and_their_agents_run_as_written() {
    if !validator() {
        return;
    }
    let env = Env::new();
    let file = env.path("plumb.yaml");
    env.plumb(&[
        "load",
        "deploy",
        "k8s",
        "--agents",
        "4",
        "--image",
        "plumb:test",
        "--namespace",
        "load",
        "-o",
        file.to_str().unwrap(),
        "--",
        "http://api.load.svc/",
        "--rate",
        "2000",
        "--duration",
        "60s",
        "--warmup",
        "5s",
    ])
    .assert_code(0);
    for version in ["1.33.0", "1.37.0"] {
        let r = validate(&file, version);
        assert_eq!(r.code, 0, "{version}: {}{}", r.stdout, r.stderr);
        assert_eq!(
            r.stdout.matches("passed for resource").count()
                + r.stderr.matches("passed for resource").count(),
            3
        );
    }
    // A misspelt field, as a hand edit would make: refused by the same validator.
    let text = std::fs::read_to_string(&file).unwrap();
    let broken = env.write(
        "broken.yaml",
        &text.replace("completionMode", "completionMod"),
    );
    assert_ne!(
        validate(&broken, "1.37.0").code,
        0,
        "the validator catches a misspelt field"
    );

    let docs = documents(&file);
    let kinds: Vec<&str> = docs.iter().map(|d| d["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["Service", "Job", "Job"]);
    let (service, coordinator, agents) = (&docs[0], &docs[1], &docs[2]);
    assert_eq!(service["spec"]["clusterIP"], "None");
    assert_eq!(
        service["spec"]["selector"],
        coordinator["spec"]["template"]["metadata"]["labels"]
    );
    assert_eq!(agents["spec"]["completionMode"], "Indexed");
    assert_eq!(agents["spec"]["completions"], 4);
    assert_eq!(agents["spec"]["parallelism"], 4);
    let agent = &agents["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(agent["resources"]["requests"], agent["resources"]["limits"]);
    let args: Vec<String> = agent["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    let at = args.iter().position(|a| a == "--coordinator").unwrap();
    let port = service["spec"]["ports"][0]["port"].as_i64().unwrap();
    assert_eq!(
        args[at + 1],
        format!("{}:{port}", service["metadata"]["name"].as_str().unwrap())
    );
    // The agent's command line as a pod would run it (index 3 from the Job): it reads,
    // plans, and stops only at the coordinator's name, which resolves inside the
    // cluster alone.
    let mut line: Vec<&str> = args.iter().map(String::as_str).collect();
    let wait = line
        .iter()
        .position(|a| *a == "--coordinator-wait")
        .unwrap();
    line[wait + 1] = "1s";
    let out = env
        .command(&line)
        .env("JOB_COMPLETION_INDEX", "3")
        .env("PLUMB_TOKEN", "0123456789abcdef0123456789abcdef")
        .output()
        .unwrap();
    let r = Run::of(out);
    r.assert_code(2);
    assert!(
        r.stderr
            .contains("cannot reach the coordinator at plumb-coordinator:7207"),
        "{}",
        r.stderr
    );
}

#[test]
fn load_options_the_manifests_set_or_plumb_cannot_read_are_refused() {
    let env = Env::new();
    let deploy = |load: &[&str]| {
        let mut args = vec![
            "load", "deploy", "k8s", "--agents", "2", "--image", "i", "--",
        ];
        args.extend_from_slice(load);
        env.plumb(&args)
    };
    let r = deploy(&["http://x/", "--rate", "100", "--agent-index", "1"]);
    r.assert_code(2);
    assert!(
        r.stderr.contains("--agent-index is set by the manifests"),
        "{}",
        r.stderr
    );
    // The token goes in the Secret: given among the load options it is refused, not
    // repeated, and no manifest is written.
    let out = env.path("m.yaml");
    for token in [&["--token", "T0K-5ecret"][..], &["--token=T0K-5ecret"][..]] {
        let mut args = vec![
            "load", "deploy", "k8s", "--agents", "2", "--image", "i", "-o",
        ];
        args.push(out.to_str().unwrap());
        args.extend(["--", "http://x/", "--rate", "100"]);
        args.extend_from_slice(token);
        let r = env.plumb(&args);
        r.assert_code(2);
        assert!(
            r.stderr
                .contains("would write the token into the manifests"),
            "{}",
            r.stderr
        );
        assert!(
            !r.stderr.contains("T0K-5ecret") && !out.exists(),
            "{}",
            r.stderr
        );
    }
    // A URL's password is not repeated in the refusal.
    let r = deploy(&["http://u:PW-5ecret@x/", "--rate", "5"]);
    r.assert_code(2);
    assert!(
        r.stderr.contains("credentials") && !r.stderr.contains("PW-5ecret"),
        "{}",
        r.stderr
    );
    for (load, said) in [
        (&["ftp://x/", "--rate", "5"][..], "ftp://x/"),
        (&["http://x/", "--closed", "5"][..], "give --rate"),
    ] {
        let r = deploy(load);
        r.assert_code(2);
        assert!(r.stderr.contains(said), "{}", r.stderr);
    }
    let r = deploy(&["http://x/", "--rate", "100", "--duraton", "5s"]);
    r.assert_code(2);
    assert!(
        r.stderr.contains("do not read as plumb load's") && r.stderr.contains("--duraton"),
        "{}",
        r.stderr
    );
    let r = env.plumb(&[
        "load",
        "deploy",
        "k8s",
        "--agents",
        "2",
        "--image",
        "i",
        "--name",
        "Plumb",
        "--",
        "http://x/",
        "--rate",
        "1",
    ]);
    r.assert_code(2);
    assert!(
        r.stderr.contains("not usable in a Kubernetes name"),
        "{}",
        r.stderr
    );
}

/// Issue 45, defect 34: values Kubernetes would reject are refused before any manifest is
/// written; a loopback target and a local --targets file are warned of (the pod's own,
/// the image's); `--rate -5` among the load options is out of range, not "unexpected".
#[test]
fn values_kubernetes_rejects_are_refused_before_writing() {
    let env = Env::new();
    let out = env.path("m.yaml");
    let o = out.to_str().unwrap();
    for (option, value) in [
        ("--image", ""),
        ("--image", "a\nb"),
        ("--cpu", "lots"),
        ("--memory", "512parsecs"),
        ("--namespace", "Bad_NS"),
        ("--port", "0"),
        ("--token-secret", "a/b"),
        ("--results-claim", "-x"),
    ] {
        let mut args = vec![
            "load", "deploy", "k8s", "--agents", "2", "--image", "i", "-o", o,
        ];
        args.extend([option, value, "--", "http://api.load.svc/", "--rate", "5"]);
        let r = env.plumb(&args);
        r.assert_code(2);
        assert!(
            r.stderr.contains(option),
            "{option} {value:?}: {}",
            r.stderr
        );
        assert!(!out.exists(), "{option} {value:?}: a manifest was written");
    }
    let deploy = |load: &[&str]| {
        let mut args = vec![
            "load", "deploy", "k8s", "--agents", "2", "--image", "i", "-o", o, "--",
        ];
        args.extend_from_slice(load);
        env.plumb(&args)
    };
    let r = deploy(&["http://127.0.0.1:8080/", "--rate", "5"]);
    r.assert_code(0);
    assert!(
        r.stderr
            .contains("warning: http://127.0.0.1:8080/ is each pod's own loopback"),
        "{}",
        r.stderr
    );
    let targets = env.write("t.txt", "GET http://api/\n");
    let r = deploy(&["--targets", targets.to_str().unwrap(), "--rate", "5"]);
    r.assert_code(0);
    assert!(
        r.stderr
            .contains("is read in each pod: its image must hold that file"),
        "{}",
        r.stderr
    );
    let r = deploy(&["http://api/", "--rate", "-5"]);
    r.assert_code(2);
    assert!(
        r.stderr.contains("--rate") && !r.stderr.contains("unexpected argument"),
        "{}",
        r.stderr
    );
}
