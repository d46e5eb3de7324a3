//! `last-piece-standing`: annihilation replaces checkmate.

use bevy::prelude::*;

use super::{Activation, PresetDef};
use crate::rules::{ApplySystems, Board, DecidedOutcome, GameState, Hook, MoveQuery, Outcome, PendingMove, Pipeline, Reason, run_pipeline};

/// The preset.
pub const LAST_PIECE_STANDING: PresetDef = PresetDef {
    id: "last-piece-standing",
    name: "Last piece standing",
    description: "There is no check or checkmate; kings are ordinary pieces. A side with no pieces left loses, however they were lost (captures, explosions, poison); if both sides are wiped out by the same move the game is drawn. A side that has pieces but no legal move also loses.",
    incompatible_with: &["capture-all", "coregal", "knightmate-rules", "dual-king", "weak-dual-king", "suicide-chess"],
    hooks,
    royalty: |_| vec![super::royalty::no_royals("last-piece-standing")],
    ..PresetDef::BASE
};

fn hooks(_a: &Activation) -> Vec<Hook> {
    vec![
        // Terminal state is global (unscoped); the first decision stands.
        Hook::new("last-piece-standing", ApplySystems::GameResult, |world: &mut World| {
            if world.resource::<DecidedOutcome>().0.is_some() {
                return;
            }
            let mover = world.resource::<PendingMove>().mover;
            let board = world.resource::<Board>();
            let alive = |side| board.find(side, u64::MAX).next().is_some();
            let (mine, theirs) = (alive(mover), alive(mover.opponent()));
            let result = match (mine, theirs) {
                (false, false) => Some(Outcome::draw(Reason::Rule("both sides wiped out".into()))),
                (true, false) => Some(Outcome::win(mover, Reason::Rule("last piece standing".into()))),
                (false, true) => Some(Outcome::win(mover.opponent(), Reason::Rule("last piece standing".into()))),
                (true, true) => None,
            };
            if let Some(result) = result {
                world.resource_mut::<DecidedOutcome>().0 = Some(result);
                return;
            }
            // A side to move with pieces but no legal move loses.
            run_pipeline(world, Pipeline::Query);
            if world.resource::<MoveQuery>().moves.is_empty() {
                let stuck = world.resource::<GameState>().turn;
                world.resource_mut::<DecidedOutcome>().0 = Some(Outcome::win(stuck.opponent(), Reason::Rule("no legal move".into())));
            }
        }),
    ]
}
