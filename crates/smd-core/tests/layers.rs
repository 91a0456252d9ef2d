//! The modules of `smd-core` form layers (docs/ARCHITECTURE.md): a module may use only the
//! modules beneath it. This test reads every module's source under `src/` (its file and, for
//! a module with a folder, the files in it; tests and the crate root aside), collects the
//! modules it names through `crate::<module>` paths, and fails on a cycle, naming it. It also
//! checks that code names a module's item through its module, not the crate root's
//! re-exports, which would hide the edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Modules whose code is only compiled for tests.
const TEST_ONLY: [&str; 1] = ["testutil"];
/// `#[macro_export]` macros live at the crate root whatever module defines them: (macro,
/// module).
const ROOT_MACROS: [(&str, &str); 1] = [("named", "names")];

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The production text of a file: comments and `#[cfg(test)]` modules written inline
/// dropped (they may use anything).
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") && lines.peek().is_some_and(|n| n.contains("mod tests {"))
        {
            break;
        }
        if t.starts_with("//") {
            continue;
        }
        out.push_str(line.split(" // ").next().unwrap_or(""));
        out.push('\n');
    }
    out
}

/// The top-level names a text reaches through `crate::`: `crate::a::b` gives `a`,
/// `crate::{a, b::c}` gives `a` and `b`.
fn crate_refs(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("crate::") {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // e.g. `smd_crate::`
        }
        let rest = &text[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let end = group
                .char_indices()
                .find(|&(_, c)| {
                    depth += (c == '{') as i32 - (c == '}') as i32;
                    depth < 0
                })
                .map_or(group.len(), |(i, _)| i);
            let mut depth = 0;
            let mut item = String::new();
            for c in group[..end].chars().chain([',']) {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.push(ident(item.trim()));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                if depth == 0 {
                    item.push(c);
                }
            }
        } else {
            out.push(ident(rest));
        }
    }
    out.retain(|n| !n.is_empty());
    out
}

fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// Every module of `src` (by its top-level name) and the modules it uses.
fn graph(src: &Path) -> Graph {
    let mut files: Vec<(String, std::path::PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            for inner in std::fs::read_dir(&path).unwrap() {
                let p = inner.unwrap().path();
                if p.extension().is_some_and(|e| e == "rs") && p.file_name().unwrap() != "tests.rs"
                {
                    files.push((stem.clone(), p));
                }
            }
        } else if path.extension().is_some_and(|e| e == "rs") && stem != "lib" {
            files.push((stem, path));
        }
    }
    files.retain(|(m, _)| !TEST_ONLY.contains(&m.as_str()));
    let modules: BTreeSet<String> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut g: Graph = modules
        .iter()
        .map(|m| (m.clone(), BTreeSet::new()))
        .collect();
    for (module, path) in &files {
        let text = code(&std::fs::read_to_string(path).unwrap());
        for name in crate_refs(&text) {
            let name = ROOT_MACROS
                .iter()
                .find(|(m, _)| *m == name)
                .map_or(name, |(_, owner)| owner.to_string());
            assert!(
                modules.contains(&name),
                "{}: `crate::{name}` is not a module: name the item through the module that \
                 owns it, so that the dependency shows",
                path.display()
            );
            if &name != module {
                g.get_mut(module).unwrap().insert(name);
            }
        }
    }
    // Methods of an `impl` written away from its type (e.g. `Scenario::validate` in
    // `validate.rs`) are used without naming their module: a call names the method.
    for (method, owner) in methods_away_from_their_type(&files) {
        for (module, path) in &files {
            let text = code(&std::fs::read_to_string(path).unwrap());
            let called = [".", "::"]
                .iter()
                .any(|p| text.contains(&format!("{p}{method}(")));
            if called && module != &owner {
                g.get_mut(module).unwrap().insert(owner.clone());
            }
        }
    }
    g
}

/// (method, module) of every method of an inherent `impl` block written in another module
/// than its type's definition.
fn methods_away_from_their_type(files: &[(String, std::path::PathBuf)]) -> Vec<(String, String)> {
    let texts: Vec<(&String, String)> = files
        .iter()
        .map(|(m, p)| (m, code(&std::fs::read_to_string(p).unwrap())))
        .collect();
    // Whether `text` defines the type `ty` (a struct or an enum of that exact name).
    let defines = |text: &str, ty: &str| {
        text.lines().any(|l| {
            let l = l
                .trim_start()
                .trim_start_matches("pub ")
                .trim_start_matches("pub(crate) ");
            ["struct ", "enum "].iter().any(|kw| {
                l.strip_prefix(kw)
                    .and_then(|r| r.strip_prefix(ty))
                    .is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
            })
        })
    };
    let mut out = Vec::new();
    for (module, text) in &texts {
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let Some(ty) = line.strip_prefix("impl ").filter(|l| !l.contains(" for ")) else {
                continue;
            };
            let ty = ident(ty);
            let away = !defines(text, &ty) && texts.iter().any(|(_, t)| defines(t, &ty));
            for body in lines.by_ref().take_while(|l| *l != "}") {
                let f = body
                    .trim_start()
                    .trim_start_matches("pub ")
                    .trim_start_matches("pub(crate) ");
                if let (true, Some(name)) = (away, f.strip_prefix("fn ")) {
                    out.push((ident(name), (*module).clone()));
                }
            }
        }
    }
    out
}

/// A cycle of `g`, if it has one (depth-first search).
fn cycle(g: &Graph) -> Option<Vec<String>> {
    fn visit(
        g: &Graph,
        m: &str,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(m.to_owned(), 1);
        stack.push(m.to_owned());
        for n in &g[m] {
            match state.get(n.as_str()) {
                Some(1) => {
                    let from = stack.iter().position(|s| s == n).unwrap();
                    let mut c = stack[from..].to_vec();
                    c.push(n.clone());
                    return Some(c);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(g, n, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(m.to_owned(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in g.keys() {
        if !state.contains_key(m) {
            if let Some(c) = visit(g, m, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

/// Each module's layer: 0 for a module that uses none, else one above the highest it uses.
fn layers(g: &Graph) -> BTreeMap<String, usize> {
    fn layer(g: &Graph, m: &str, memo: &mut BTreeMap<String, usize>) -> usize {
        if let Some(&l) = memo.get(m) {
            return l;
        }
        let l = g[m]
            .iter()
            .map(|n| layer(g, n, memo) + 1)
            .max()
            .unwrap_or(0);
        memo.insert(m.to_owned(), l);
        l
    }
    let mut memo = BTreeMap::new();
    for m in g.keys() {
        layer(g, m, &mut memo);
    }
    memo
}

fn src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn the_modules_form_layers() {
    let g = graph(&src());
    if let Some(c) = cycle(&g) {
        panic!(
            "the modules of smd-core import each other in a loop: {}",
            c.join(" → ")
        );
    }
    // `cargo test --test layers -- --nocapture` prints the layers, bottom-up.
    let by_layer =
        layers(&g)
            .into_iter()
            .fold(BTreeMap::<usize, Vec<String>>::new(), |mut acc, (m, l)| {
                acc.entry(l).or_default().push(m);
                acc
            });
    for (l, ms) in by_layer {
        println!("layer {l}: {}", ms.join(", "));
    }
}

#[test]
fn the_reader_sees_imports_and_skips_comments_and_tests() {
    let text = "use crate::a::b;\nuse crate::{c, d::{e, f}};\n// crate::g\nfn x() { crate::h::i(); } // crate::j\n#[cfg(test)]\nmod tests {\n    use crate::k;\n}\n";
    assert_eq!(crate_refs(&code(text)), ["a", "c", "d", "h"]);
    let mut g = Graph::new();
    g.insert("a".into(), ["b".into()].into());
    g.insert("b".into(), ["a".into()].into());
    assert_eq!(cycle(&g), Some(vec!["a".into(), "b".into(), "a".into()]));
    g.get_mut("b").unwrap().clear();
    assert_eq!(cycle(&g), None);
    assert_eq!(layers(&g)["a"], 1);
}
