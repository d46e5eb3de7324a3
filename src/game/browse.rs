//! Looking back through the game without changing it, as on lichess: ← and → step through the
//! positions, Home and End jump to the start and back to the game, and a click on a move in the
//! list shows the position after it. The game itself does not move: its clocks run, the
//! computer thinks and plays, and any change of the game's position (a move, a takeback) brings
//! the board back to it, as does a click on the board. "Play from here" takes the game back to
//! the position viewed (the moves after it can be redone).
//!
//! The earlier positions are made once per position of the game, the first time they are asked
//! for: the game is saved and resumed in a scratch engine (so presets, profiles and drops replay
//! exactly), which then takes its moves back one by one. The board draws a viewed position's
//! pieces, pockets, last move and arrows; preset facts (hit points, shields) are the live
//! pieces' and are not drawn for earlier positions.

use bevy::prelude::*;

use super::shared::{Browse, BrowseTo, GameSystems, Notice, Past, PositionVersion, Selection, Tone};
use crate::rules::{Board, Location, MoveLog, Owner, Piece, PieceType, Promoted};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Browse>();
    app.add_message::<BrowseTo>();
    // After the computer's move too, so that a move made while looking back returns the
    // board to the game in the same frame.
    app.add_systems(Update, browse.in_set(GameSystems::Follow));
}

/// The game's positions from its start to now, made in a scratch engine.
///
/// # Errors
/// The game does not replay (it always should: saves are tested on every variant).
pub fn past_positions(world: &mut World) -> Result<Vec<Past>, String> {
    let text = super::files::game_save(world);
    let save = crate::save::read_save(&text).map_err(|e| e.to_string())?;
    let mut engine = crate::save::resume(&save).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    loop {
        out.push(capture(engine.world_mut()));
        if engine.undo().is_none() {
            break;
        }
    }
    out.reverse();
    Ok(out)
}

fn capture(world: &mut World) -> Past {
    let mut query = world.query_filtered::<(&Location, &PieceType, &Owner, Option<&Promoted>), With<Piece>>();
    let mut pieces: Vec<_> = query
        .iter(world)
        .filter_map(|(loc, kind, owner, promoted)| Some((loc.square()?, *kind, owner.0, promoted.and_then(|p| p.0))))
        .collect();
    pieces.sort_by_key(|p| p.0);
    let board = world.resource::<Board>();
    Past { pieces, hands: board.hand_counts, last: world.resource::<MoveLog>().0.last().map(|r| r.mv), hash: board.hash }
}

/// Follows the requests to look back, and returns to the game when its position changes.
fn browse(world: &mut World) {
    let version = world.resource::<PositionVersion>().0;
    let requests: Vec<BrowseTo> = world.resource_mut::<Messages<BrowseTo>>().drain().collect();
    {
        let mut b = world.resource_mut::<Browse>();
        if b.ply.is_some() && b.made_for != Some(version) {
            b.ply = None;
        }
    }
    let Some(&last) = requests.last() else { return };
    let plies = world.resource::<MoveLog>().0.len();
    let now = world.resource::<Browse>().ply.unwrap_or(plies);
    let target = match last {
        BrowseTo::Back => now.saturating_sub(1),
        BrowseTo::Forward => (now + 1).min(plies),
        BrowseTo::Start => 0,
        BrowseTo::Live => plies,
        BrowseTo::Ply(p) => p.min(plies),
    };
    if target == plies {
        if world.resource::<Browse>().ply.is_some() {
            world.resource_mut::<Browse>().ply = None;
        }
        return;
    }
    if world.resource::<Browse>().made_for != Some(version) {
        match past_positions(world) {
            Ok(positions) => {
                let mut b = world.resource_mut::<Browse>();
                b.positions = positions;
                b.made_for = Some(version);
            }
            Err(e) => {
                world.resource_mut::<Notice>().show(Tone::Problem, format!("cannot show earlier positions: {e}"), 4.0);
                return;
            }
        }
    }
    *world.resource_mut::<Selection>() = Selection::default();
    world.resource_mut::<Browse>().ply = Some(target);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{RulesWorld, Side};

    fn app() -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        crate::game::shared::start_game(app.world_mut(), "crazyhouse", &[]).unwrap();
        app.add_plugins(super::super::play::plugin);
        super::super::clocks::logic(&mut app);
        plugin(&mut app);
        app
    }

    fn play(app: &mut App, san: &str) {
        let world = app.world_mut();
        let legal = world.legal_moves().to_vec();
        let rules = world.resource::<crate::rules::Rules>().0.clone();
        let m = crate::rules::parse_san(&rules, &world.resource::<Board>().cells, &legal, san).unwrap();
        for input in super::super::shared::inputs_for(&m, &legal) {
            world.write_message(input);
        }
        app.update();
    }

    fn go(app: &mut App, to: BrowseTo) -> Option<usize> {
        app.world_mut().write_message(to);
        app.update();
        app.world().resource::<Browse>().ply
    }

    #[test]
    fn looking_back_leaves_the_game_as_it_is() {
        let mut app = app();
        for san in ["e4", "d5", "exd5", "Qxd5", "Nc3"] {
            play(&mut app, san);
        }
        let fen = app.world_mut().fen();
        assert_eq!(go(&mut app, BrowseTo::Back), Some(4));
        assert_eq!(go(&mut app, BrowseTo::Back), Some(3));
        {
            let b = app.world().resource::<Browse>();
            let past = b.shown().unwrap();
            // After 2. exd5: a pawn on d5, and white holds a pawn in hand.
            let d5 = crate::rules::Variant::chess().geometry.parse_square("d5").unwrap();
            assert!(past.pieces.iter().any(|p| p.0 == d5 && p.2 == Side::White));
            assert_eq!(past.hands[0].iter().sum::<u8>(), 1);
            assert_eq!(past.last.map(|m| m.to), Some(d5));
        }
        assert_eq!(app.world_mut().fen(), fen, "the game has not moved");
        assert_eq!(go(&mut app, BrowseTo::Start), Some(0));
        assert_eq!(app.world().resource::<Browse>().shown().unwrap().pieces.len(), 32);
        assert_eq!(go(&mut app, BrowseTo::Back), Some(0), "no further back than the start");
        assert_eq!(go(&mut app, BrowseTo::Ply(4)), Some(4));
        assert_eq!(go(&mut app, BrowseTo::Forward), None, "one past the last move is the game");
        assert_eq!(go(&mut app, BrowseTo::Back), Some(4));
        // A move in the game brings the board back to it.
        play(&mut app, "Qa5");
        assert_eq!(app.world().resource::<Browse>().ply, None);
        assert_eq!(app.world().resource::<MoveLog>().0.len(), 6);
        assert_eq!(go(&mut app, BrowseTo::Back), Some(5), "positions made again for the new move");
        assert_eq!(go(&mut app, BrowseTo::Live), None);
    }
}
