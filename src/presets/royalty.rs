//! Presets that change which pieces are royal: `coregal` (king and queen), `knightmate-rules`
//! (knights), `capture-all` (none: capture everything to win).

use std::sync::Arc;

use bevy::prelude::*;

use super::{Activation, PresetDef};
use crate::rules::{
    ApplySystems, Board, Cell, DecidedOutcome, Hook, Outcome, PendingMove, Reason, RoyalRule, Side, Square, Variant, decide,
};

/// King and queen are both royal.
pub const COREGAL: PresetDef = PresetDef {
    id: "coregal",
    name: "Coregal",
    description: "The queen is royal as well as the king: neither may be left attacked, and a side that cannot save both is checkmated.",
    incompatible_with: &["knightmate-rules", "capture-all", "last-piece-standing", "dual-king", "weak-dual-king"],
    royalty: coregal_royalty,
    ..PresetDef::BASE
};

/// Knights are royal, kings are not.
pub const KNIGHTMATE_RULES: PresetDef = PresetDef {
    id: "knightmate-rules",
    name: "Knightmate rules",
    description: "Every knight is royal instead of the king: checkmate a knight to win; the king is an ordinary piece.",
    incompatible_with: &["coregal", "capture-all", "last-piece-standing", "dual-king", "weak-dual-king"],
    royalty: knightmate_royalty,
    ..PresetDef::BASE
};

/// Nothing is royal; capturing every enemy piece wins.
pub const CAPTURE_ALL: PresetDef = PresetDef {
    id: "capture-all",
    name: "Capture all",
    description: "There is no check and no checkmate: the king is an ordinary piece. Capture every enemy piece to win.",
    incompatible_with: &["coregal", "knightmate-rules", "last-piece-standing", "dual-king", "weak-dual-king", "suicide-chess"],
    hooks: capture_all_hooks,
    royalty: capture_all_royalty,
    ..PresetDef::BASE
};

/// A royalty rule: every piece of the named types.
fn royal_types(owner: &'static str, names: &'static [&'static str]) -> RoyalRule {
    RoyalRule {
        owner,
        run: Arc::new(move |v: &Variant, cells: &[Cell], side: Side, out: &mut Vec<Square>| {
            let mask = names.iter().filter_map(|n| v.registry.by_name(n)).fold(0u64, |m, k| m | (1u64 << k.0));
            out.extend(
                cells
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| (c.is_piece() && c.side() == side && mask & (1u64 << c.kind().0) != 0).then_some(Square(i as u8))),
            );
        }),
    }
}

/// A royalty rule that contributes nothing: the union is empty, so there is no royalty.
pub fn no_royals(owner: &'static str) -> RoyalRule {
    RoyalRule { owner, run: Arc::new(|_: &Variant, _: &[Cell], _: Side, _: &mut Vec<Square>| {}) }
}

fn coregal_royalty(_a: &Activation) -> Vec<RoyalRule> {
    vec![royal_types("coregal", &["king", "queen"])]
}

fn knightmate_royalty(_a: &Activation) -> Vec<RoyalRule> {
    vec![royal_types("knightmate-rules", &["knight"])]
}

fn capture_all_royalty(_a: &Activation) -> Vec<RoyalRule> {
    vec![no_royals("capture-all")]
}

fn capture_all_hooks(_a: &Activation) -> Vec<Hook> {
    vec![Hook::new("capture-all", ApplySystems::GameResult, |p: Res<PendingMove>, board: Res<Board>, mut d: ResMut<DecidedOutcome>| {
        if board.find(p.mover.opponent(), u64::MAX).next().is_none() {
            decide(&mut d, Outcome::win(p.mover, Reason::Rule("captured everything".into())));
        }
    })]
}
