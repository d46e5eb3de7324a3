//! `suicide-chess`: captures are compulsory, nothing is royal, and losing every piece wins.

use bevy::prelude::*;

use super::{Activation, PresetDef};
use crate::rules::{ApplySystems, Board, DecidedOutcome, Hook, MoveQuery, Outcome, PendingMove, QuerySystems, Reason, decide};

/// The preset.
pub const SUICIDE_CHESS: PresetDef = PresetDef {
    id: "suicide-chess",
    name: "Suicide chess",
    description: "Captures are compulsory and the king is an ordinary piece (no check, no mate). The first player to lose all their pieces wins.",
    incompatible_with: &["capture-all", "last-piece-standing"],
    hooks,
    // An empty union of royal pieces: no royalty at all.
    royalty: |_| vec![super::royalty::no_royals("suicide-chess")],
    ..PresetDef::BASE
};

fn hooks(_a: &Activation) -> Vec<Hook> {
    vec![
        Hook::new("suicide-chess", QuerySystems::LegalFilter, |mut q: ResMut<MoveQuery>| {
            if q.moves.iter().any(|m| m.capture) {
                q.moves.retain(|m| m.capture);
            }
        }),
        Hook::new("suicide-chess", ApplySystems::GameResult, |p: Res<PendingMove>, board: Res<Board>, mut d: ResMut<DecidedOutcome>| {
            let victim = p.mover.opponent();
            if board.find(victim, u64::MAX).next().is_none() {
                decide(&mut d, Outcome::win(victim, Reason::Rule("lost every piece".into())));
            }
        }),
    ]
}
