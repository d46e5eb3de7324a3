//! Perft through the two pipelines against published node counts. One generic harness reads
//! `.perft` files (`id` / `epd` / `perft <depth> <nodes>`) and checks every count up to a
//! node budget, so the suite stays within a few minutes.

use chimera::rules::{Engine, Variant};

/// One position and its counts.
struct Case {
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn parse(text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(id) = line.strip_prefix("id ") {
            cases.push(Case { id: id.to_string(), fen: String::new(), counts: Vec::new() });
        } else if let Some(fen) = line.strip_prefix("epd ") {
            cases.last_mut().expect("epd after id").fen = fen.to_string();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut it = rest.split_whitespace();
            let depth = it.next().and_then(|d| d.parse().ok()).expect("perft depth");
            let nodes = it.next().and_then(|n| n.parse().ok()).expect("perft nodes");
            cases.last_mut().expect("perft after id").counts.push((depth, nodes));
        }
    }
    cases
}

/// Checks every `every`-th case of `file` up to `budget` nodes per count; returns how many
/// counts were checked.
fn check(variant: fn() -> Variant, file: &str, every: usize, budget: u64) -> usize {
    let cases = parse(file);
    assert!(!cases.is_empty(), "no cases parsed");
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in cases.iter().step_by(every) {
        let mut engine = match Engine::from_fen(variant(), &case.fen) {
            Ok(e) => e,
            Err(e) => {
                failures.push(format!("{}: {e}", case.id));
                continue;
            }
        };
        for &(depth, nodes) in case.counts.iter().filter(|(_, n)| *n <= budget) {
            let got = engine.perft(depth);
            if got != nodes {
                failures.push(format!("{} ({}) depth {depth}: expected {nodes}, got {got}", case.id, case.fen));
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{} perft mismatches:\n{}", failures.len(), failures.join("\n"));
    checked
}

#[test]
fn standard_positions() {
    let n = check(Variant::chess, include_str!("data/standard.perft"), 1, 5_000_000);
    assert_eq!(n, 26, "every count of standard.perft fits the budget");
}

#[test]
fn tricky_positions() {
    let n = check(Variant::chess, include_str!("data/tricky.perft"), 1, 3_000_000);
    assert!(n >= 88, "only {n} counts checked");
}

#[test]
fn random_positions_sample() {
    // Every 9th of the 6838 positions, each up to 300k nodes.
    let n = check(Variant::chess, include_str!("data/random.perft"), 9, 300_000);
    assert!(n >= 2_500, "only {n} counts checked");
}

#[test]
fn chess960_middle_games_sample() {
    let n = check(Variant::chess960, include_str!("data/chess960.perft"), 12, 300_000);
    assert!(n >= 240, "only {n} counts checked");
}

/// Every Chess960 start, by its Scharnagl number: the position Chimera deals for that number,
/// and its perft 1–3 as Fairy-Stockfish (pyffish) counts them.
#[test]
fn chess960_every_start() {
    let mut n = 0;
    for line in include_str!("data/chess960-starts.tsv").lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (number, fen): (u16, &str) = (cols[0].parse().unwrap(), cols[1]);
        assert_eq!(chimera::rules::chess960_fen(number), fen, "start {number}");
        let mut e = Engine::from_fen(Variant::chess960(), fen).unwrap();
        for (depth, col) in [(1, 2), (2, 3), (3, 4)] {
            let nodes: u64 = cols[col].parse().unwrap();
            assert_eq!(e.perft(depth), nodes, "start {number} ({fen}) depth {depth}");
        }
        n += 1;
    }
    assert_eq!(n, 960, "every start is counted");
}
