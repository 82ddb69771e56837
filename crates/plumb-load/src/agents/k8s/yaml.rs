//! A small tree of maps (keys in the order given), lists and scalars, written as YAML
//! for people to read (Kubernetes manifests): block style, every string double-quoted
//! as JSON quotes it (valid YAML, never read as a number, a boolean or null by
//! mistake). Written here: serde_yaml is no longer maintained, serde_json's maps sort
//! their keys, and manifests need only this much.

#[derive(Debug, Clone, PartialEq)]
pub enum Yaml {
    Map(Vec<(String, Yaml)>),
    List(Vec<Yaml>),
    Str(String),
    Int(i64),
    Bool(bool),
}

/// A map, keys in this order.
pub fn map(entries: Vec<(&str, Yaml)>) -> Yaml {
    Yaml::Map(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

pub fn s(v: impl Into<String>) -> Yaml {
    Yaml::Str(v.into())
}

pub fn strings<S: AsRef<str>>(items: &[S]) -> Yaml {
    Yaml::List(items.iter().map(|x| s(x.as_ref())).collect())
}

/// Each value as one YAML document, separated by `---`.
pub fn documents(docs: &[Yaml]) -> String {
    let mut out = String::new();
    for d in docs {
        out.push_str("---\n");
        block(d, 0, &mut out);
    }
    out
}

fn nested(v: &Yaml) -> bool {
    match v {
        Yaml::Map(m) => !m.is_empty(),
        Yaml::List(l) => !l.is_empty(),
        _ => false,
    }
}

fn block(v: &Yaml, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match v {
        Yaml::Map(entries) => {
            for (k, val) in entries {
                if nested(val) {
                    out.push_str(&format!("{pad}{k}:\n"));
                    block(val, indent + 2, out);
                } else {
                    out.push_str(&format!("{pad}{k}: {}\n", scalar(val)));
                }
            }
        }
        Yaml::List(items) => {
            for item in items {
                match item {
                    Yaml::Map(_) if nested(item) => {
                        // The item's first key goes on the dash's line.
                        let mut inner = String::new();
                        block(item, indent + 2, &mut inner);
                        out.push_str(&format!("{pad}- {}", &inner[indent + 2..]));
                    }
                    Yaml::List(_) if nested(item) => {
                        out.push_str(&format!("{pad}-\n"));
                        block(item, indent + 2, out);
                    }
                    _ => out.push_str(&format!("{pad}- {}\n", scalar(item))),
                }
            }
        }
        other => out.push_str(&format!("{pad}{}\n", scalar(other))),
    }
}

/// A scalar, or an empty map or list in flow style.
fn scalar(v: &Yaml) -> String {
    match v {
        Yaml::Map(_) => "{}".into(),
        Yaml::List(_) => "[]".into(),
        Yaml::Str(x) => serde_json::Value::String(x.clone()).to_string(),
        Yaml::Int(n) => n.to_string(),
        Yaml::Bool(b) => b.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_maps_lists_and_scalars_in_block_style() {
        let v = map(vec![
            ("kind", s("Job")),
            (
                "spec",
                map(vec![
                    ("completions", Yaml::Int(4)),
                    (
                        "args",
                        strings(&["load", "--rate", "2000", "yes", "a \"b\"\n"]),
                    ),
                    (
                        "containers",
                        Yaml::List(vec![map(vec![
                            ("name", s("agent")),
                            (
                                "env",
                                Yaml::List(vec![map(vec![("name", s("A")), ("value", s("1"))])]),
                            ),
                        ])]),
                    ),
                    (
                        "volumes",
                        Yaml::List(vec![map(vec![("name", s("r")), ("emptyDir", map(vec![]))])]),
                    ),
                    (
                        "nested",
                        Yaml::List(vec![Yaml::List(vec![Yaml::Int(1), Yaml::Int(2)])]),
                    ),
                    ("flag", Yaml::Bool(true)),
                ]),
            ),
        ]);
        let text = documents(&[v]);
        let want = r#"---
kind: "Job"
spec:
  completions: 4
  args:
    - "load"
    - "--rate"
    - "2000"
    - "yes"
    - "a \"b\"\n"
  containers:
    - name: "agent"
      env:
        - name: "A"
          value: "1"
  volumes:
    - name: "r"
      emptyDir: {}
  nested:
    -
      - 1
      - 2
  flag: true
"#;
        assert_eq!(text, want, "{text}");
    }
}
