//! `capture-to-win`: the first capture wins the game.

use bevy::prelude::*;

use super::{Activation, PresetDef};
use crate::rules::{ApplySystems, DecidedOutcome, Hook, Outcome, PendingMove, Reason, decide};

/// The preset.
pub const CAPTURE_TO_WIN: PresetDef = PresetDef {
    id: "capture-to-win",
    name: "First capture wins",
    description: "The first player to capture any piece wins at once.",
    hooks,
    ..PresetDef::BASE
};

fn hooks(a: &Activation) -> Vec<Hook> {
    let scope = a.scope;
    vec![Hook::new("capture-to-win", ApplySystems::GameResult, move |p: Res<PendingMove>, mut d: ResMut<DecidedOutcome>| {
        if p.victim.is_some() && scope.covers(p.mover) {
            decide(&mut d, Outcome::win(p.mover, Reason::Rule("first capture".into())));
        }
    })]
}
