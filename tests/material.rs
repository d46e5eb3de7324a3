//! Insufficient material as lichess defines it per variant (`rules::material`, issue 31):
//! - chessops' rows (`tests/data/chessops-insufficient_material.tsv`): each side's verdict, in
//!   Atomic, Antichess, Three-check, Crazyhouse and Horde, and none in King of the Hill and
//!   Racing Kings (whose files have no such end);
//! - shakmaty's 21,996 Horde positions (`tests/data/horde-insufficient_material.csv`): the
//!   rule agrees with shakmaty on every one (1,695 of them dead for the horde);
//! - a game that reaches such a position ends drawn.

use chimera::rules::{Board, EndCondition, Engine, MaterialRule, Outcome, Reason, Rules, Side, cannot_win};
use chimera::variants::builtin;

/// A FEN of the data with the clocks it may lack (Three-check's counters are a field of their
/// own).
fn full(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let checks = fields.iter().any(|f| f.contains('+') && f.chars().all(|c| c.is_ascii_digit() || c == '+'));
    if fields.len() + 2 == if checks { 7 } else { 6 } { format!("{fen} 0 1") } else { fen.to_string() }
}

/// The variant's lichess material rule (its end condition), if it has one.
fn rule_of(engine: &Engine) -> Option<MaterialRule> {
    engine.world().resource::<Rules>().0.end.iter().find_map(|e| match e {
        EndCondition::InsufficientMaterialAs(r) => Some(*r),
        _ => None,
    })
}

fn verdicts(engine: &Engine, rule: MaterialRule) -> [bool; 2] {
    let board = engine.world().resource::<Board>();
    let reg = &engine.world().resource::<Rules>().0.registry;
    let turn = engine.world().resource::<chimera::rules::GameState>().turn;
    [Side::White, Side::Black].map(|s| cannot_win(rule, board, reg, s, turn))
}

#[test]
fn each_side_cannot_win_where_chessops_says_so() {
    let text = include_str!("data/chessops-insufficient_material.tsv");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (variant, fen, white, black) = (cols[0], full(cols[1]), cols[2] == "true", cols[3] == "true");
        let engine = Engine::from_fen(builtin(variant).unwrap(), &fen).unwrap_or_else(|e| panic!("{variant} {fen}: {e}"));
        match rule_of(&engine) {
            Some(rule) => assert_eq!(verdicts(&engine, rule), [white, black], "{variant} {fen}"),
            None => assert_eq!([white, black], [false, false], "{variant} has no material end, but chessops says {line}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 32, "every row read");
}

#[test]
fn the_horde_cannot_win_only_where_shakmaty_agrees() {
    let text = include_str!("data/horde-insufficient_material.csv");
    let horde = builtin("horde").unwrap();
    let (mut rows, mut said, mut missed) = (0, 0, 0);
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.starts_with("fen,")) {
        let mut cols = line.split(',');
        let (fen, expected) = (cols.next().unwrap(), cols.next() == Some("true"));
        let engine = Engine::from_fen(horde.clone(), fen).unwrap_or_else(|e| panic!("horde {fen}: {e}"));
        let ours = verdicts(&engine, MaterialRule::Horde)[0];
        assert!(!ours || expected, "horde {fen}: the rule says white cannot win, shakmaty says it can");
        assert_eq!(ours, expected, "horde {fen}: shakmaty says {expected}");
        rows += 1;
        said += usize::from(ours);
        missed += usize::from(expected && !ours);
    }
    assert_eq!(rows, 21_996, "every row read");
    println!("horde: {rows} positions, {said} judged dead, {missed} dead positions played on (the rule is conservative)");
}

#[test]
fn a_dead_position_ends_the_game_drawn() {
    // Three-check: bare kings after the last capture.
    let mut e = Engine::from_fen(builtin("3check").unwrap(), "8/8/8/3k4/8/8/4r3/4K3 w - - 3+3 0 1").unwrap();
    e.play_uci("e1e2").unwrap();
    assert_eq!(e.outcome(), Some(Outcome::draw(Reason::InsufficientMaterial)));
    // Atomic: knight against a lone king is not enough, and neither is the lone king.
    let mut e = Engine::from_fen(builtin("atomic").unwrap(), "8/3k4/8/8/2N5/8/3K4/8 b - - 0 1").unwrap();
    assert_eq!(e.outcome(), Some(Outcome::draw(Reason::InsufficientMaterial)));
    // Crazyhouse: a knight and the two kings, nothing in hand.
    let mut e = Engine::from_fen(builtin("crazyhouse").unwrap(), "8/5k2/8/8/8/8/3K2N1/8[] w - - 0 1").unwrap();
    assert_eq!(e.outcome(), Some(Outcome::draw(Reason::InsufficientMaterial)));
    // ... but not with a pawn in hand.
    let mut e = Engine::from_fen(builtin("crazyhouse").unwrap(), "8/5k2/8/8/8/8/3K2N1/8[p] w - - 0 1").unwrap();
    assert_eq!(e.outcome(), None);
}
