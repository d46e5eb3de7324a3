//! Premoves against the computer (issue "Desktop feel", item 4): while the computer is to
//! move, a person may pick up one of their pieces and put it on a square (click and click, or
//! drag). The move is queued and shown (its two squares tinted); when the turn comes it is
//! played at once if it is legal then (a promotion takes the first choice the rules list, the
//! queen in chess), and otherwise dropped with no change. Esc, a press on an empty square or on
//! the queued piece again, a takeback and a new game drop it. Drops from the pocket are not
//! premoved (the pocket answers only on its side's turn).

use bevy::prelude::*;

use super::play::{self};
use super::shared::{BoardView, ComputerPlay, GameSystems, Premove, SQUARE, castle_landing, square_centre};
use crate::rules::{GameState, MoveLog, Rules, RulesWorld, Square};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Premove>();
    app.add_systems(Update, fire.in_set(GameSystems::Respond));
    app.add_systems(Update, draw.in_set(GameSystems::Present));
}

/// When the person's turn has come, plays the queued move if it is legal, or drops it.
fn fire(world: &mut World) {
    let pm = world.resource::<Premove>();
    if pm.from.is_none() && pm.queued.is_none() {
        return;
    }
    let (made_at, queued) = (pm.made_at, pm.queued);
    let played = world.resource::<MoveLog>().0.len();
    let turn = world.resource::<GameState>().turn;
    let person_to_move = world.get_resource::<ComputerPlay>().is_some_and(|cp| !cp.plays(turn) && cp.plays(turn.opponent()));
    // Still the computer's turn: keep waiting.
    if !person_to_move && played >= made_at {
        return;
    }
    *world.resource_mut::<Premove>() = Premove::default();
    // Dropped after a takeback, or when no move came (the seats changed), or the game is over.
    if played <= made_at || world.outcome().is_some() {
        return;
    }
    let Some((from, to)) = queued else { return };
    let legal = world.legal_moves().to_vec();
    // (A move taking on the way has three squares: it is not premoved.)
    let plain = |m: &&crate::rules::Move| !matches!(m.kind, crate::rules::MoveKind::Locust(_));
    // The king put where it lands castles too.
    let variant = &world.resource::<crate::rules::Rules>().0;
    let reaches = |m: &crate::rules::Move| m.to == to || castle_landing(variant, m, &legal) == Some(to);
    if let Some(m) = legal.iter().filter(plain).find(|m| m.from == from && reaches(m) && m.dropped().is_none() && m.gate.is_none()).copied()
    {
        play::play(world, m);
    }
}

/// A tint on a premove's square.
#[derive(Component)]
struct PremoveTint;

/// The premove's squares, tinted (sprites, as the board's other highlights).
fn draw(
    mut commands: Commands,
    pm: Res<Premove>,
    rules: Res<Rules>,
    view: Res<BoardView>,
    tints: Query<Entity, With<PremoveTint>>,
    mut shown: Local<Option<(Vec<Square>, BoardView)>>,
) {
    let squares = pm.queued.map(|(a, b)| vec![a, b]).or(pm.from.map(|a| vec![a])).unwrap_or_default();
    if shown.as_ref() == Some(&(squares.clone(), *view)) {
        return;
    }
    for e in &tints {
        commands.entity(e).despawn();
    }
    let g = rules.0.geometry;
    let colour = Color::srgba(0.45, 0.2, 0.75, 0.45);
    for &sq in &squares {
        let at = square_centre(g, *view, sq);
        let sprite = Sprite { color: colour, custom_size: Some(Vec2::splat(SQUARE)), ..default() };
        commands.spawn((PremoveTint, sprite, Transform::from_xyz(at.x, at.y, 1.5)));
    }
    *shown = Some((squares, *view));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::shared::BoardInput;
    use crate::rules::MoveLog;

    fn sq(name: &str) -> Square {
        crate::rules::Variant::chess().geometry.parse_square(name).unwrap()
    }

    /// A person with white against a computer that never answers by itself: its moves are
    /// played by the test.
    fn app() -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        crate::game::shared::start_game(app.world_mut(), "chess", &[]).unwrap();
        app.add_plugins((play::plugin, plugin));
        app.init_resource::<BoardView>();
        app.insert_resource(ComputerPlay { sides: [None, Some(1)], ..Default::default() });
        app
    }

    fn press_and_release(app: &mut App, from: &str, to: &str) {
        for input in [BoardInput::Press(sq(from)), BoardInput::Release(sq(from)), BoardInput::Press(sq(to)), BoardInput::Release(sq(to))] {
            app.world_mut().write_message(input);
        }
        app.update();
    }

    fn computer_plays(app: &mut App, uci: &str) {
        let legal = app.world_mut().legal_moves().to_vec();
        let m = *legal.iter().find(|m| crate::rules::to_uci(&crate::rules::Variant::chess(), m) == uci).unwrap();
        play::play(app.world_mut(), m);
        app.update();
    }

    #[test]
    fn a_premove_is_played_when_legal_and_dropped_otherwise() {
        let mut app = app();
        press_and_release(&mut app, "e2", "e4");
        assert_eq!(app.world().resource::<MoveLog>().0.len(), 1, "white's own move");
        // The computer is to move: g1 to f3 is queued, and played as soon as black has moved.
        press_and_release(&mut app, "g1", "f3");
        assert_eq!(app.world().resource::<Premove>().queued, Some((sq("g1"), sq("f3"))));
        computer_plays(&mut app, "e7e5");
        assert_eq!(app.world().resource::<MoveLog>().0.len(), 3);
        assert_eq!(app.world().resource::<Premove>().queued, None);
        // Queued f3 to e5, taking the pawn; after d7d6 it is still legal: played.
        press_and_release(&mut app, "f3", "e5");
        computer_plays(&mut app, "d7d6");
        assert_eq!(app.world().resource::<MoveLog>().0.len(), 5, "Nxe5 was played");
        // Queued e5 to f7, but the knight is taken first: the premove is dropped, no change.
        press_and_release(&mut app, "e5", "f7");
        computer_plays(&mut app, "d6e5");
        assert_eq!(app.world().resource::<MoveLog>().0.len(), 6, "nothing played for white");
        assert_eq!(*app.world().resource::<Premove>(), Premove::default());
        // A premove, then a takeback: dropped.
        computer_plays(&mut app, "b1c3");
        press_and_release(&mut app, "e5", "e4");
        app.world_mut().write_message(BoardInput::Takeback);
        app.update();
        computer_plays(&mut app, "b1c3");
        assert_eq!(*app.world().resource::<Premove>(), Premove::default());
    }
}
