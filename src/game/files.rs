//! Game files and the clipboard: copy FEN or PGN, load a FEN or PGN (pasted or from a file),
//! save the game as PGN (written atomically into the data directory), go to any move of the
//! list. A bad or truncated file is refused with a clear message and the game on the board is
//! kept: a loaded game is replayed in a scratch engine first and only then set up.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use super::play::{Notice, PositionVersion, RedoStack, Selection};
use super::{GameSetup, start_game};
use crate::pgn::{PgnGame, parse_pgn, replay, write_pgn};
use crate::rules::{Board, MoveLog, Rules, RulesWorld, parse_san};

/// What the panel asks for.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum GameAction {
    /// Put the position's FEN on the clipboard.
    CopyFen,
    /// Put the game's PGN on the clipboard.
    CopyPgn,
    /// Save the game as PGN in the games directory.
    Save,
    /// Load pasted text: a PGN game, or a FEN for the current variant.
    LoadText(String),
    /// Load a PGN file.
    LoadFile(PathBuf),
    /// Show the position after this many moves (taking back or replaying).
    GoTo(usize),
}

/// Text for the panel to put on the clipboard.
#[derive(Resource, Default)]
pub struct ClipboardOut(pub Option<String>);

/// Where saved games go: `$XDG_DATA_HOME/chimera/games` or `~/.local/share/chimera/games`
/// (`%APPDATA%\chimera\games`, `~/Library/Application Support/chimera/games`).
pub fn games_dir() -> Option<PathBuf> {
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        return super::settings::config_dir().map(|d| d.join("games"));
    }
    match std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        Some(d) => Some(PathBuf::from(d).join("chimera/games")),
        None => std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share/chimera/games")),
    }
}

/// Saved games, newest first.
pub fn saved_games() -> Vec<PathBuf> {
    let Some(dir) = games_dir() else { return Vec::new() };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "pgn")).collect())
        .unwrap_or_default();
    files.sort();
    files.reverse();
    files
}

/// Writes `text` to `path` atomically.
///
/// # Errors
/// The directory or file cannot be written.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<GameAction>();
    app.init_resource::<ClipboardOut>();
    app.add_systems(Update, handle_actions.before(super::play::handle_input));
}

fn today() -> (String, String) {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let days = (secs / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    let t = secs % 86_400;
    (format!("{y:04}.{m:02}.{d:02}"), format!("{y:04}-{m:02}-{d:02}-{:02}{:02}{:02}", t / 3600, t / 60 % 60, t % 60))
}

/// The game on the board as PGN.
pub fn game_pgn(world: &mut World) -> String {
    let setup = world.resource::<GameSetup>().clone();
    let (date, _) = today();
    write_pgn(world, &setup.variant_id, &setup.presets, &setup.start_fen, &date)
}

/// Replaces the game on the board with `game`, if it replays.
///
/// # Errors
/// Why the game does not replay; the board is untouched then.
pub fn load_game(world: &mut World, game: &PgnGame) -> Result<(), String> {
    let (_, id, presets) = replay(game)?;
    let ids: Vec<String> = presets.iter().map(|a| a.id.to_string()).collect();
    start_game(world, &id, &ids)?;
    // The profile the game started with (the replay above checked that it reads and applies).
    if let Some(text) = game.tag("Profile") {
        let profile = crate::modifiers::Profile::from_ron(text)?;
        crate::modifiers::apply_profile(world, Some(&profile))
            .map_err(|p| p.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))?;
    }
    if let Some(fen) = game.tag("FEN") {
        crate::presets::set_position(world, fen)?;
        world.resource_mut::<GameSetup>().start_fen = world.fen();
    }
    let swaps = crate::pgn::profile_swaps(game)?;
    for (i, san) in game.moves.iter().enumerate() {
        crate::pgn::queue_swap(world, &swaps, i + 1)?;
        let legal = world.legal_moves().to_vec();
        let rules = world.resource::<Rules>().0.clone();
        let m = parse_san(&rules, &world.resource::<Board>().cells, &legal, san).map_err(|e| e.to_string())?;
        world.apply_move(m).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn load_text(world: &mut World, text: &str) -> Result<String, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("paste a FEN or a PGN game first".into());
    }
    let looks_like_fen = !t.contains('[') && t.split_whitespace().next().is_some_and(|p| p.contains('/'));
    if looks_like_fen {
        crate::presets::set_position(world, t).map_err(|e| format!("FEN: {e}"))?;
        world.resource_mut::<GameSetup>().start_fen = world.fen();
        return Ok("position loaded".into());
    }
    let game = parse_pgn(t).map_err(|e| format!("PGN: {e}"))?;
    load_game(world, &game).map_err(|e| format!("PGN: {e}"))?;
    Ok(format!("game loaded ({} moves)", game.moves.len()))
}

fn changed(world: &mut World) {
    world.resource_mut::<super::board::LayoutVersion>().0 += 1;
    world.resource_mut::<PositionVersion>().0 += 1;
    *world.resource_mut::<Selection>() = Selection::default();
    world.resource_mut::<RedoStack>().0.clear();
}

fn handle_actions(world: &mut World) {
    let actions: Vec<GameAction> = world.resource_mut::<Messages<GameAction>>().drain().collect();
    for action in actions {
        let notice = match action {
            GameAction::CopyFen => {
                let fen = world.fen();
                world.resource_mut::<ClipboardOut>().0 = Some(fen);
                Some("FEN copied".to_string())
            }
            GameAction::CopyPgn => {
                let pgn = game_pgn(world);
                world.resource_mut::<ClipboardOut>().0 = Some(pgn);
                Some("PGN copied".to_string())
            }
            GameAction::Save => {
                let pgn = game_pgn(world);
                let variant = world.resource::<GameSetup>().variant_id.clone();
                let name: String = variant.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
                match games_dir().map(|d| d.join(format!("{}-{name}.pgn", today().1))) {
                    Some(path) => match write_atomically(&path, &pgn) {
                        Ok(()) => Some(format!("saved to {}", path.display())),
                        Err(e) => Some(format!("could not save to {}: {e}", path.display())),
                    },
                    None => Some("no directory to save games in (HOME is not set)".into()),
                }
            }
            GameAction::LoadText(text) => Some(match load_text(world, &text) {
                Ok(done) => {
                    changed(world);
                    done
                }
                Err(e) => format!("not loaded — {e}"),
            }),
            GameAction::LoadFile(path) => Some(match std::fs::read_to_string(&path) {
                Err(e) => format!("cannot read {}: {e}", path.display()),
                Ok(text) => match parse_pgn(&text).and_then(|g| load_game(world, &g).map(|_| g.moves.len())) {
                    Ok(n) => {
                        changed(world);
                        format!("loaded {} ({n} moves)", path.file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default())
                    }
                    Err(e) => format!("not loaded — {}: {e}", path.display()),
                },
            }),
            GameAction::GoTo(ply) => {
                while world.resource::<MoveLog>().0.len() > ply {
                    match world.undo_move() {
                        Some(m) => world.resource_mut::<RedoStack>().0.push(m),
                        None => break,
                    }
                }
                while world.resource::<MoveLog>().0.len() < ply {
                    let Some(m) = world.resource_mut::<RedoStack>().0.pop() else { break };
                    if world.apply_move(m).is_err() {
                        break;
                    }
                }
                *world.resource_mut::<Selection>() = Selection::default();
                world.resource_mut::<PositionVersion>().0 += 1;
                None
            }
        };
        if let Some(text) = notice {
            world.resource_mut::<Notice>().0 = Some((text, 4.0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app() -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        start_game(app.world_mut(), "chess", &[]).unwrap();
        app.add_plugins((super::super::play::plugin, plugin));
        app.init_resource::<super::super::board::LayoutVersion>();
        app
    }

    #[test]
    fn a_truncated_pgn_is_refused_and_the_game_is_kept() {
        let mut app = app();
        app.world_mut().write_message(GameAction::LoadText("1. e4 e5 2. Nf3".into()));
        app.update();
        let fen = app.world_mut().fen();
        assert!(fen.starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b"), "{fen}");
        // Cut short inside a comment: refused, nothing changes.
        app.world_mut().write_message(GameAction::LoadText("[Variant \"atomic\"]\n1. e4 {a long thou".into()));
        app.update();
        assert_eq!(app.world_mut().fen(), fen);
        let notice = app.world().resource::<Notice>().0.clone().unwrap().0;
        assert!(notice.starts_with("not loaded") && notice.contains("never closed"), "{notice}");
        // A move that is not legal: refused, nothing changes.
        app.world_mut().write_message(GameAction::LoadText("1. e4 e5 2. Qh8".into()));
        app.update();
        assert_eq!(app.world_mut().fen(), fen);
    }

    #[test]
    fn a_loaded_game_keeps_its_profile() {
        let mut app = app();
        let profile = crate::modifiers::builtin("sturdy-rooks").unwrap().to_ron_line().replace('"', "\\\"");
        let text = format!("[Variant \"chess\"]\n[Profile \"{profile}\"]\n\n1. a4 h5 2. Ra3 Rh6 3. Rb4");
        app.world_mut().write_message(GameAction::LoadText(text));
        app.update();
        // Rb4 is the rook's added diagonal step: the game loaded with its profile.
        assert!(app.world_mut().fen().starts_with("rnbqkbn1/ppppppp1/7r/7p/PR6/8/1PPPPPPP/1NBQKBNR b"), "{}", app.world_mut().fen());
        let pgn = game_pgn(app.world_mut());
        assert!(pgn.contains("[Profile \"(id:\\\"sturdy-rooks\\\""), "a save keeps it: {pgn}");
    }

    #[test]
    fn go_to_a_move_and_back() {
        let mut app = app();
        app.world_mut().write_message(GameAction::LoadText("1. e4 e5 2. Nf3 Nc6".into()));
        app.update();
        let end = app.world_mut().fen();
        app.world_mut().write_message(GameAction::GoTo(1));
        app.update();
        assert!(app.world_mut().fen().starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"));
        app.world_mut().write_message(GameAction::GoTo(4));
        app.update();
        assert_eq!(app.world_mut().fen(), end);
    }

    #[test]
    fn saving_is_atomic_and_reads_back() {
        let dir = std::env::temp_dir().join(format!("chimera-games-{}", std::process::id()));
        let path = dir.join("g.pgn");
        let mut app = app();
        app.world_mut().write_message(GameAction::LoadText("1. e4 e5 2. Nf3 Nc6".into()));
        app.update();
        let pgn = game_pgn(app.world_mut());
        write_atomically(&path, &pgn).unwrap();
        assert!(!path.with_extension("tmp").exists());
        let back = parse_pgn(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(back.moves, ["e4", "e5", "Nf3", "Nc6"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
