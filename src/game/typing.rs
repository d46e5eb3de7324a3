//! Moves typed on the keyboard (issue "Desktop feel", item 5): SAN or UCI in any variant
//! (drops `P@e4`, gates `e1g1h` or `O-O/H`, passes), completed from the legal moves as the
//! player types, and played through the board's own inputs, so every effect and sound happens
//! as for a move made with the mouse. A move that is not legal, or that stands for several,
//! is refused with the reason. SAN may be typed without its capital (`nf3`) when that reads
//! as one legal move and the small letter does not.

use bevy::prelude::*;

use super::play::{self};
use super::shared::{ComputerPlay, GameSystems, Notice, PositionVersion, Tone, inputs_for};
use crate::rules::{Board, Move, Rules, RulesWorld, parse_san, parse_uci, san_body, to_uci};

/// A move the player typed.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct TypedMove(pub String);

/// The legal moves of the position on the board, as the completion offers them: SAN (without
/// its check mark) and UCI.
#[derive(Resource, Default)]
pub struct TypingMoves(pub Vec<(String, String)>);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<TypedMove>();
    app.init_resource::<TypingMoves>();
    app.add_systems(Update, (play_typed.in_set(GameSystems::Input), list_moves.in_set(GameSystems::Follow)));
}

/// The legal move `text` names, read as UCI, then as SAN, then as SAN with a capital first
/// letter.
///
/// # Errors
/// Why it names no legal move, or several.
pub fn resolve(world: &mut World, text: &str) -> Result<Move, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("type a move first".into());
    }
    let legal = world.legal_moves().to_vec();
    let rules = world.resource::<Rules>().0.clone();
    let cells = &world.resource::<Board>().cells;
    if let Ok(m) = parse_uci(&rules, cells, &legal, text) {
        return Ok(m);
    }
    let san = parse_san(&rules, cells, &legal, text);
    match san {
        Ok(m) => Ok(m),
        Err(e) => {
            let mut chars = text.chars();
            let capital: Option<String> =
                chars.next().filter(char::is_ascii_lowercase).map(|c| c.to_ascii_uppercase().to_string() + chars.as_str());
            capital.and_then(|t| parse_san(&rules, cells, &legal, &t).ok()).ok_or_else(|| {
                // A move a rule refused when it was tried says why.
                let named = |v: &_, cells: &_, moves: &_| parse_uci(v, cells, moves, text).or_else(|_| parse_san(v, cells, moves, text));
                match crate::rules::refusal_named(world, named) {
                    Some(why) => format!("Move refused: {why}"),
                    None => e.to_string(),
                }
            })
        }
    }
}

/// The moves of `moves` (SAN, UCI) that begin with `typed`: SAN without regard to case, or
/// UCI; in the order given.
pub fn completions<'a>(moves: &'a [(String, String)], typed: &str) -> Vec<&'a (String, String)> {
    let typed = typed.trim();
    if typed.is_empty() {
        return Vec::new();
    }
    let lower = typed.to_lowercase();
    moves.iter().filter(|(san, uci)| san.to_lowercase().starts_with(&lower) || uci.starts_with(typed)).collect()
}

/// Plays the moves typed this frame, or says why not.
fn play_typed(world: &mut World) {
    let typed: Vec<TypedMove> = world.resource_mut::<Messages<TypedMove>>().drain().collect();
    for TypedMove(text) in typed {
        let turn = world.resource::<crate::rules::GameState>().turn;
        if world.get_resource::<ComputerPlay>().is_some_and(|c| c.plays(turn)) {
            world.resource_mut::<Notice>().show(Tone::Info, "The computer is to move.", 2.0);
            continue;
        }
        if let Some(outcome) = world.outcome() {
            world.resource_mut::<Notice>().show(Tone::Info, format!("The game is over: {outcome}."), 3.0);
            continue;
        }
        match resolve(world, &text) {
            Ok(m) => {
                let legal = world.legal_moves().to_vec();
                for input in inputs_for(&m, &legal) {
                    play::handle(world, input);
                }
            }
            Err(why) => {
                // A beginning several moves share: say which they are.
                let moves = world.resource::<TypingMoves>().0.clone();
                let hits: Vec<&str> = completions(&moves, &text).iter().map(|(san, _)| san.as_str()).collect();
                let said = match hits.as_slice() {
                    [_, _, ..] if hits.len() <= 8 => {
                        let (last, rest) = hits.split_last().unwrap_or((&"", &[]));
                        format!("'{}' could be {} or {last}: type more, or pick one", text.trim(), rest.join(", "))
                    }
                    [_, _, ..] => format!("'{}' could be {} moves: type more", text.trim(), hits.len()),
                    _ => format!("'{}': {why}", text.trim()),
                };
                world.resource_mut::<Notice>().show(Tone::Problem, said, 5.0);
            }
        }
    }
}

/// After each change of position, the legal moves for the completion.
fn list_moves(world: &mut World, mut seen: Local<Option<u64>>) {
    let version = world.resource::<PositionVersion>().0;
    if *seen == Some(version) {
        return;
    }
    *seen = Some(version);
    let over = world.outcome().is_some();
    let legal = if over { Vec::new() } else { world.legal_moves().to_vec() };
    let rules = world.resource::<Rules>().0.clone();
    let cells = &world.resource::<Board>().cells;
    let moves = legal.iter().map(|m| (san_body(&rules, cells, &legal, m), to_uci(&rules, m))).collect();
    world.resource_mut::<TypingMoves>().0 = moves;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app(variant: &str) -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        crate::game::shared::start_game(app.world_mut(), variant, &[]).unwrap();
        app.add_plugins((play::plugin, plugin));
        app
    }

    #[test]
    fn typed_moves_are_played_completed_or_refused() {
        let mut app = app("crazyhouse");
        for text in ["e4", "d7d5", "exd5", "Qxd5", "nc3", "Qa5"] {
            app.world_mut().write_message(TypedMove(text.into()));
            app.update();
        }
        assert_eq!(app.world().resource::<crate::rules::MoveLog>().0.len(), 6, "{:?}", app.world().resource::<Notice>().0);
        // A drop, completed from "P@".
        let moves = app.world().resource::<TypingMoves>().0.clone();
        let drops = completions(&moves, "P@d");
        assert!(drops.iter().any(|(san, _)| san == "P@d5"), "{drops:?}");
        assert!(completions(&moves, "g1").iter().all(|(_, uci)| uci.starts_with("g1")));
        app.world_mut().write_message(TypedMove("P@d5".into()));
        app.update();
        assert_eq!(app.world().resource::<crate::rules::MoveLog>().0.len(), 7);
        // Not legal: refused with the reason, nothing played.
        app.world_mut().write_message(TypedMove("Ke3".into()));
        app.update();
        assert_eq!(app.world().resource::<crate::rules::MoveLog>().0.len(), 7);
        let notice = app.world().resource::<Notice>().0.clone().unwrap().0;
        assert!(notice.starts_with("'Ke3'"), "{notice}");
    }

    #[test]
    fn an_ambiguous_move_is_refused() {
        let mut app = app("chess");
        crate::presets::set_position(app.world_mut(), "4k3/8/8/8/8/8/4N3/4K2N w - - 0 1").unwrap();
        app.world_mut().write_message(TypedMove("Ng3".into()));
        app.update();
        assert!(app.world().resource::<crate::rules::MoveLog>().0.is_empty());
        let notice = app.world().resource::<Notice>().0.clone().unwrap().0;
        assert!(notice.contains("ambiguous"), "{notice}");
        app.world_mut().write_message(TypedMove("Nhg3".into()));
        app.update();
        assert_eq!(app.world().resource::<crate::rules::MoveLog>().0.len(), 1);
        // The beginning of several moves: answered with them.
        app.world_mut().write_message(TypedMove("Kd".into()));
        app.update();
        let notice = app.world().resource::<Notice>().0.clone().unwrap().0;
        assert_eq!(notice, "'Kd' could be Kd8 or Kd7: type more, or pick one");
    }
}
