//! The layers of `src/`, held: a module uses only the layers below it, and no two files (or
//! sub-folders) inside a folder import each other in a circle.
//!
//! Layers, lowest first: `rules` < `modifiers` < `presets` < `variants` < `ai` < `clock`, `pgn`
//! < `save` < `uci`, `cli` < `editor` < `game` (modules on one line of that list do not use each
//! other either). Every path in code that starts with `crate::`, `super::`, `self::` or
//! `$crate::` counts, in `use` lines and inline alike (for example `crate::presets::ActivePresets`
//! in the middle of an expression); comments, doc links and strings do not, nor does a folder's
//! own file naming its children (`mod board;`, `board::plugin`), which is how it lists them. A path through a folder's re-export (`super::Board`, re-exported by
//! `rules/mod.rs` from `rules/board.rs`) counts as a use of the file that defines it.
//!
//! The check reads the sources itself (CI installs no tool for it). There is no list of
//! allowed departures: any one fails the test.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, lowest first; the modules of one entry are beside each other.
const LAYERS: &[&[&str]] = &[
    &["rules"],
    &["modifiers"],
    &["presets"],
    &["variants"],
    &["ai"],
    &["clock", "pgn"],
    &["save"],
    &["uci", "cli"],
    &["editor"],
    &["game"],
];

/// A source file: its module path (`["rules", "board"]` for `src/rules/board.rs`, `[]` for
/// `src/lib.rs`) and its code with comments and literals blanked.
struct File {
    path: String,
    module: Vec<String>,
    code: String,
}

/// Every departure in `sources` (file path relative to `src/` → text), as sorted lines.
fn departures(sources: &BTreeMap<String, String>) -> Vec<String> {
    let files: Vec<File> = sources
        .iter()
        .filter(|(path, _)| path.as_str() != "main.rs" && !path.starts_with("bin/"))
        .map(|(path, text)| File { path: path.clone(), module: module_of(path), code: blank(text) })
        .collect();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
    let exports = re_exports(&files, &modules);
    let mut out = BTreeSet::new();
    // Per folder (a module path with children), the edges between its children.
    let mut edges: BTreeMap<Vec<String>, BTreeSet<(String, String)>> = BTreeMap::new();
    for file in &files {
        for path in paths(file) {
            let target = resolve(&path, &modules, &exports);
            // The top module the path names, and the one it leads to through re-exports.
            let named = path.first().filter(|m| modules.contains(&vec![m.to_string()]));
            for to in [named, target.first()].into_iter().flatten() {
                let Some(from) = file.module.first().filter(|from| *from != to) else { continue };
                match (layer(from), layer(to)) {
                    (Some(a), Some(b)) if b < a => {}
                    (None, _) => {
                        out.insert(format!("layer: {from} is in no layer (add it to LAYERS)"));
                    }
                    _ => {
                        out.insert(format!("layer: {from} uses {to} (src/{})", file.path));
                    }
                }
            }
            if target == file.module {
                continue;
            }
            // The folder both lie in, and the child of it each lies in (`mod` for the folder's
            // own file).
            let common = file.module.iter().zip(&target).take_while(|(a, b)| a == b).count();
            let child = |m: &Vec<String>| m.get(common).cloned().unwrap_or_else(|| "mod".into());
            let (a, b) = (child(&file.module), child(&target));
            if a != b {
                edges.entry(file.module[..common].to_vec()).or_default().insert((a, b));
            }
        }
    }
    for (folder, edges) in &edges {
        for circle in circles(edges) {
            let at = if folder.is_empty() { "src".to_string() } else { format!("src/{}", folder.join("/")) };
            out.insert(format!("circle in {at}: {}", circle.join(", ")));
        }
    }
    out.into_iter().collect()
}

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn module_of(path: &str) -> Vec<String> {
    let mut parts: Vec<String> = path.trim_end_matches(".rs").split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// `text` with comments (doc comments too), string and character literals blanked out.
fn blank(text: &str) -> String {
    let s = text.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while i < s.len() {
        if s[i..].starts_with(b"//") {
            while i < s.len() && s[i] != b'\n' {
                i += 1;
            }
        } else if s[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < s.len() {
                if s[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if s[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if s[i] == b'r' && (i == 0 || !ident(s[i - 1])) && matches!(s.get(i + 1), Some(b'"' | b'#')) {
            // A raw string: r"…", r#"…"#.
            let hashes = s[i + 1..].iter().take_while(|&&b| b == b'#').count();
            if s.get(i + 1 + hashes) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            let end: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
            i += 2 + hashes;
            while i < s.len() && !s[i..].starts_with(&end) {
                i += 1;
            }
            i += end.len();
            out.push_str("\"\"");
        } else if s[i] == b'"' {
            i += 1;
            while i < s.len() && s[i] != b'"' {
                i += if s[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if s[i] == b'\'' && (s.get(i + 2) == Some(&b'\'') || s.get(i + 1) == Some(&b'\\')) {
            // A character literal ('a', '\n', '\u{1F600}'); a lifetime has no closing quote.
            i += 1;
            while i < s.len() && s[i] != b'\'' {
                i += if s[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("' '");
        } else {
            // Copies one whole UTF-8 character.
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&text[i..i + len]);
            i += len;
        }
    }
    out
}

/// Inline module blocks (`mod tests { … }`) of `code`: their byte span and name.
fn inline_modules(code: &str) -> Vec<(usize, usize, String)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    for (at, _) in code.match_indices("mod ") {
        if at > 0 && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_') {
            continue;
        }
        let rest = &code[at + 4..];
        let name: String = rest.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let after = rest.trim_start()[name.len()..].trim_start();
        if name.is_empty() || !after.starts_with('{') {
            continue;
        }
        let open = code.len() - after.len();
        let mut depth = 0;
        let mut end = code.len();
        for (i, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push((open, end, name));
    }
    out
}

/// Every path of `file` that starts from the crate, its parent or itself, made absolute (from
/// the crate root), with a `use` tree's braces expanded.
fn paths(file: &File) -> Vec<Vec<String>> {
    let code = &file.code;
    let b = code.as_bytes();
    let inline = inline_modules(code);
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_alphabetic() || b[i] == b'_';
        if !starts || (i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b':')) {
            i += 1;
            continue;
        }
        let word: String = code[i..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let after = i + word.len();
        if !code[after..].starts_with("::") {
            i = after;
            continue;
        }
        // Where the path is: the file's module and the inline modules around it.
        let mut here = file.module.clone();
        here.extend(inline.iter().filter(|(s, e, _)| *s < i && i < *e).map(|(_, _, n)| n.clone()));
        let mut base: Vec<String>;
        let mut j = after + 2;
        match word.as_str() {
            "crate" => base = Vec::new(),
            "self" => base = here.clone(),
            "super" => {
                base = here.clone();
                base.pop();
                while code[j..].starts_with("super::") {
                    base.pop();
                    j += "super::".len();
                }
            }
            _ => {
                i = after;
                continue;
            }
        }
        let (trees, end) = use_tree(code, j);
        for t in trees {
            let mut p = base.clone();
            p.extend(t.into_iter().filter(|s| !s.starts_with('@')));
            out.push(p);
        }
        i = end.max(after);
    }
    out
}

/// The paths of a `use` tree (or a plain path) that starts at `at`, and where it ends.
fn use_tree(code: &str, at: usize) -> (Vec<Vec<String>>, usize) {
    let skip = |mut j: usize| {
        while j < code.len() && code.as_bytes()[j].is_ascii_whitespace() {
            j += 1;
        }
        j
    };
    let mut j = skip(at);
    if code[j..].starts_with('{') {
        j += 1;
        let mut out = Vec::new();
        loop {
            j = skip(j);
            while code[j..].starts_with(',') {
                j = skip(j + 1);
            }
            if j >= code.len() || code[j..].starts_with('}') {
                return (out, j + 1);
            }
            let (sub, end) = use_tree(code, j);
            if end <= j {
                return (out, j + 1);
            }
            out.extend(sub);
            j = end;
        }
    }
    let word: String = code[j..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    if word.is_empty() {
        return (vec![Vec::new()], j);
    }
    j += word.len();
    if code[j..].starts_with("::") {
        let (sub, end) = use_tree(code, j + 2);
        return (sub.into_iter().map(|s| std::iter::once(word.clone()).chain(s).collect()).collect(), end);
    }
    // `x as y` in a use tree: the name it is known by follows, marked `@y`.
    let rest = &code[skip(j)..];
    if rest.starts_with("as ") {
        let k = skip(skip(j) + 3);
        let alias: String = code[k..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        j = k + alias.len();
        return (vec![vec![word, format!("@{alias}")]], j);
    }
    (vec![vec![word]], j)
}

/// What each folder's own file re-exports with `pub use`: (folder, item) → the module it
/// comes from.
fn re_exports(files: &[File], modules: &BTreeSet<Vec<String>>) -> BTreeMap<(Vec<String>, String), Vec<String>> {
    let mut out = BTreeMap::new();
    for file in files {
        // `pub use`, `pub(crate) use`, `pub(super) use`…
        let starts = file.code.match_indices("pub ").chain(file.code.match_indices("pub(")).map(|(at, _)| at);
        for at in starts {
            let rest = &file.code[at + 3..];
            let after_vis = if rest.starts_with('(') { rest.find(')').map_or(rest.len(), |k| k + 1) } else { 0 };
            let Some(tree) = rest[after_vis..].trim_start().strip_prefix("use ") else { continue };
            let (trees, _) = use_tree(&file.code, file.code.len() - tree.len());
            for mut t in trees {
                let alias = t.last().and_then(|s| s.strip_prefix('@')).map(str::to_string);
                if alias.is_some() {
                    t.pop();
                }
                let mut p = file.module.clone();
                let mut t = t.as_slice();
                match t.first().map(String::as_str) {
                    Some("self") => t = &t[1..],
                    Some("crate") => {
                        p.clear();
                        t = &t[1..];
                    }
                    _ => {}
                }
                while t.first().map(String::as_str) == Some("super") {
                    p.pop();
                    t = &t[1..];
                }
                p.extend(t.iter().cloned());
                let Some(item) = alias.or_else(|| p.last().cloned()) else { continue };
                let from = longest_module(&p[..p.len().saturating_sub(1)], modules);
                if from != file.module {
                    out.insert((file.module.clone(), item), from);
                }
            }
        }
    }
    out
}

fn longest_module(path: &[String], modules: &BTreeSet<Vec<String>>) -> Vec<String> {
    (0..=path.len()).rev().map(|k| path[..k].to_vec()).find(|m| modules.contains(m)).unwrap_or_default()
}

/// The file module a path leads to, through re-exports.
fn resolve(path: &[String], modules: &BTreeSet<Vec<String>>, exports: &BTreeMap<(Vec<String>, String), Vec<String>>) -> Vec<String> {
    let mut module = longest_module(path, modules);
    let mut seen = 0;
    while let Some(item) = path.get(module.len()) {
        match exports.get(&(module.clone(), item.clone())) {
            Some(from) if seen < 8 => {
                module = from.clone();
                seen += 1;
            }
            _ => break,
        }
    }
    module
}

/// The circles (strongly connected parts of more than one node) of a directed graph, each
/// sorted, by Tarjan's algorithm.
fn circles(edges: &BTreeSet<(String, String)>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = edges.iter().flat_map(|(a, b)| [a, b]).collect();
    let nodes: Vec<&String> = nodes.into_iter().collect();
    let at = |n: &String| nodes.iter().position(|m| *m == n).unwrap_or(0);
    let next: Vec<Vec<usize>> = nodes.iter().map(|n| edges.iter().filter(|(a, _)| a == *n).map(|(_, b)| at(b)).collect()).collect();
    struct Walk {
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on: Vec<bool>,
        count: usize,
        found: Vec<Vec<usize>>,
    }
    fn visit(v: usize, next: &[Vec<usize>], w: &mut Walk) {
        w.index[v] = Some(w.count);
        w.low[v] = w.count;
        w.count += 1;
        w.stack.push(v);
        w.on[v] = true;
        for &u in &next[v] {
            match w.index[u] {
                None => {
                    visit(u, next, w);
                    w.low[v] = w.low[v].min(w.low[u]);
                }
                Some(i) if w.on[u] => w.low[v] = w.low[v].min(i),
                _ => {}
            }
        }
        if Some(w.low[v]) == w.index[v] {
            let mut part = Vec::new();
            while let Some(u) = w.stack.pop() {
                w.on[u] = false;
                part.push(u);
                if u == v {
                    break;
                }
            }
            if part.len() > 1 {
                w.found.push(part);
            }
        }
    }
    let n = nodes.len();
    let mut w = Walk { index: vec![None; n], low: vec![0; n], stack: Vec::new(), on: vec![false; n], count: 0, found: Vec::new() };
    for v in 0..n {
        if w.index[v].is_none() {
            visit(v, &next, &mut w);
        }
    }
    let mut out: Vec<Vec<String>> = w.found.into_iter().map(|p| p.into_iter().map(|i| nodes[i].clone()).collect()).collect();
    for c in &mut out {
        c.sort();
    }
    out.sort();
    out
}

fn read_sources(dir: &Path, root: &Path, out: &mut BTreeMap<String, String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("src/ reads").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            read_sources(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).expect("under src").to_string_lossy().replace('\\', "/");
            out.insert(rel, std::fs::read_to_string(&path).expect("source reads"));
        }
    }
}

#[test]
fn src_keeps_its_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut sources = BTreeMap::new();
    read_sources(&root, &root, &mut sources);
    let found = departures(&sources);
    assert!(found.is_empty(), "departures from the layers (mend them):\n  {}", found.join("\n  "));
}

fn tree(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    files.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect()
}

#[test]
fn a_circle_between_files_fails() {
    let clean = [
        ("lib.rs", "pub mod rules;"),
        ("rules/mod.rs", "mod a;\nmod b;\npub use a::A;\npub use b::B;"),
        ("rules/a.rs", "pub struct A;"),
        ("rules/b.rs", "use super::A;\npub struct B(A);"),
    ];
    assert_eq!(departures(&tree(&clean)), Vec::<String>::new());
    // `a` now uses `b` inline, through the folder's re-export: a circle.
    let mut circle = clean;
    circle[2] = ("rules/a.rs", "pub struct A;\nfn f() -> crate::rules::B { todo!() }");
    assert_eq!(departures(&tree(&circle)), vec!["circle in src/rules: a, b".to_string()]);
    // Only a doc link or a string naming it: no circle.
    circle[2] = ("rules/a.rs", "/// See [`super::B`].\npub struct A;\nconst S: &str = \"super::b::B\";");
    assert_eq!(departures(&tree(&circle)), Vec::<String>::new());
}

#[test]
fn an_import_from_below_up_fails() {
    let files = [
        ("lib.rs", "pub mod rules;\npub mod presets;"),
        ("rules/mod.rs", "pub fn f() { let _ = crate::presets::P; }"),
        ("presets/mod.rs", "use crate::rules::f;\npub struct P;"),
    ];
    assert_eq!(
        departures(&tree(&files)),
        vec!["circle in src: presets, rules".to_string(), "layer: rules uses presets (src/rules/mod.rs)".to_string()]
    );
}

#[test]
fn a_folders_own_file_and_its_children_in_a_circle_fail() {
    let files = [
        ("lib.rs", "pub mod game;"),
        ("game/mod.rs", "mod board;\npub struct Shared;\npub fn run() { self::board::plugin(); }"),
        ("game/board.rs", "use super::Shared;\npub fn plugin() {}"),
    ];
    assert_eq!(departures(&tree(&files)), vec!["circle in src/game: board, mod".to_string()]);
}

#[test]
fn test_modules_resolve_super_to_their_file() {
    let files = [
        ("lib.rs", "pub mod rules;"),
        ("rules/mod.rs", "mod a;\nmod b;"),
        ("rules/a.rs", "pub fn f() {}\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::b::g;\n}"),
        ("rules/b.rs", "pub fn g() { super::a::f() }"),
    ];
    assert_eq!(departures(&tree(&files)), vec!["circle in src/rules: a, b".to_string()]);
}

#[test]
fn re_exports_are_followed_whatever_their_visibility_alias_or_path() {
    let files = [
        ("lib.rs", "pub mod rules;"),
        ("rules/mod.rs", "mod a;\nmod b;\nmod c;\npub(crate) use a::A as Alpha;"),
        ("rules/a.rs", "pub struct A;\nfn f() -> super::b::C { todo!() }"),
        ("rules/b.rs", "pub use super::c::C;"),
        ("rules/c.rs", "pub struct C(super::Alpha);"),
    ];
    // a names b's C, which is c's; c names the folder's Alpha, which is a's A.
    assert_eq!(departures(&tree(&files)), vec!["circle in src/rules: a, c".to_string()]);
}

#[test]
fn naming_a_higher_module_fails_even_for_what_it_re_exports() {
    let files = [
        ("lib.rs", "pub mod rules;\npub mod presets;"),
        ("rules/mod.rs", "pub struct R;\nfn f() -> crate::presets::Again { todo!() }"),
        ("presets/mod.rs", "pub use crate::rules::R as Again;"),
    ];
    assert_eq!(departures(&tree(&files)), vec!["layer: rules uses presets (src/rules/mod.rs)".to_string()]);
}
