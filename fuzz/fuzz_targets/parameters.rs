//! `-P NAME LO HI -D STEP` scans and `-L NAME a,b,c` lists as typed, expanded over a
//! command. Input: the command on the first line, then one parameter a line, `P name lo
//! hi step` or `L name values`. Never a panic nor a runaway product (refused past
//! MAX_VALUES before it is built); a scan starts at its start, rises, and stays in bounds.
#![no_main]
use libfuzzer_sys::fuzz_target;
use plumb_command::{expand, CommandSpec, Parameter, ParameterValues, MAX_VALUES};

fuzz_target!(|text: &str| {
    let mut lines = text.lines();
    let Some(command) = lines.next() else {
        return;
    };
    let mut params = Vec::new();
    for line in lines {
        match line.splitn(5, ' ').collect::<Vec<_>>().as_slice() {
            ["P", name, lo, hi, step] => {
                let Ok(step) = step.parse::<f64>() else {
                    return;
                };
                match Parameter::scan(name, lo, hi, step) {
                    Ok(p) => params.push(p),
                    Err(e) => return assert!(!e.to_string().is_empty()),
                }
            }
            ["L", name, values @ ..] => params.push(Parameter::list(name, &values.join(" "))),
            _ => return,
        }
    }
    let out = match expand(&[CommandSpec::new(command)], &params) {
        Ok(out) => out,
        Err(e) => return assert!(!e.to_string().is_empty()),
    };
    assert!(!out.is_empty() && out.len() <= MAX_VALUES, "{}", out.len());
    for p in &params {
        let ParameterValues::Range { lo, hi, step } = p.values else {
            continue;
        };
        let mut values: Vec<f64> = out
            .iter()
            .map(|c| {
                c.parameters[&p.name]
                    .parse()
                    .expect("a scan's value is a number")
            })
            .collect();
        values.dedup();
        values.sort_by(f64::total_cmp);
        values.dedup();
        assert_eq!(values[0], lo, "{:?}", p);
        let slack = step * 0.5 + hi.abs() * 1e-12;
        assert!(*values.last().unwrap() <= hi + slack, "{p:?}: {values:?}");
    }
});
