//! Presets that change which pieces are royal: `coregal` (king and queen), `knightmate-rules`
//! (knights), `capture-all` (none: capture everything to win).

use bevy::prelude::*;

use super::{Activation, PresetDef};
use crate::rules::{
    ApplySystems, Board, DecidedOutcome, Hook, Location, MoveQuery, Outcome, Owner, PendingMove, PieceType, QuerySystems, Reason, Rules,
    decide,
};

/// King and queen are both royal.
pub const COREGAL: PresetDef = PresetDef {
    id: "coregal",
    name: "Coregal",
    description: "The queen is royal as well as the king: neither may be left attacked, and a side that cannot save both is checkmated.",
    incompatible_with: &["knightmate-rules", "capture-all", "last-piece-standing", "dual-king", "weak-dual-king"],
    hooks: coregal_hooks,
    ..PresetDef::BASE
};

/// Knights are royal, kings are not.
pub const KNIGHTMATE_RULES: PresetDef = PresetDef {
    id: "knightmate-rules",
    name: "Knightmate rules",
    description: "Every knight is royal instead of the king: checkmate a knight to win; the king is an ordinary piece.",
    incompatible_with: &["coregal", "capture-all", "last-piece-standing", "dual-king", "weak-dual-king"],
    hooks: knightmate_hooks,
    ..PresetDef::BASE
};

/// Nothing is royal; capturing every enemy piece wins.
pub const CAPTURE_ALL: PresetDef = PresetDef {
    id: "capture-all",
    name: "Capture all",
    description: "There is no check and no checkmate: the king is an ordinary piece. Capture every enemy piece to win.",
    incompatible_with: &["coregal", "knightmate-rules", "last-piece-standing", "dual-king", "weak-dual-king", "suicide-chess"],
    hooks: capture_all_hooks,
    ..PresetDef::BASE
};

/// A royalty hook contributing every piece of the named types of the side to move.
fn royal_types(owner: &'static str, names: &'static [&'static str]) -> Hook {
    Hook::new(
        owner,
        QuerySystems::Royalty,
        move |mut q: ResMut<MoveQuery>, rules: Res<Rules>, pieces: Query<(Entity, &PieceType, &Owner, &Location)>| {
            let kinds: Vec<PieceType> = names.iter().filter_map(|n| rules.registry.by_name(n)).collect();
            let side = q.side;
            let mut royals: Vec<(Entity, u8)> =
                pieces.iter().filter_map(|(e, k, o, l)| (kinds.contains(k) && o.0 == side).then_some((e, l.square()?.0))).collect();
            royals.sort_by_key(|r| r.1);
            q.contribute_royals(royals.into_iter().map(|r| r.0));
        },
    )
}

fn coregal_hooks(_a: &Activation) -> Vec<Hook> {
    vec![royal_types("coregal", &["king", "queen"])]
}

fn knightmate_hooks(_a: &Activation) -> Vec<Hook> {
    vec![royal_types("knightmate-rules", &["knight"])]
}

fn capture_all_hooks(_a: &Activation) -> Vec<Hook> {
    vec![
        Hook::new("capture-all", QuerySystems::Royalty, |mut q: ResMut<MoveQuery>| q.contribute_royals([])),
        Hook::new("capture-all", ApplySystems::GameResult, |p: Res<PendingMove>, board: Res<Board>, mut d: ResMut<DecidedOutcome>| {
            if board.find(p.mover.opponent(), u64::MAX).next().is_none() {
                decide(&mut d, Outcome::win(p.mover, Reason::Rule("captured everything".into())));
            }
        }),
    ]
}
