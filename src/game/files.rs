//! Game files and the clipboard: copy FEN or PGN, load a FEN, a PGN or a save (pasted or from
//! a file), save the game (format: [`crate::save`]; written atomically into the data
//! directory), autosave it after every change, go to any move of the list. A bad, truncated or
//! edited file is refused with a clear message and the game on the board is kept: a loaded
//! game is replayed in a scratch engine first and only then set up.

use std::path::PathBuf;

use bevy::prelude::*;

use super::shared::{
    BoardView, Clocks, ComputerPlay, FoulWarning, GameReview, GameSetup, GameSystems, LayoutVersion, Notice, PendingChoice,
    PositionVersion, RedoStack, Selection, Tone, definition_for, fresh, resume, start_definition,
};
use crate::pgn::{PgnGame, parse_pgn, write_pgn};
use crate::presets::Start;
use crate::rules::{Board, MoveLog, Rules, RulesWorld, parse_san};
use crate::save::{Save, SaveInput, Seats, read_save, write_save};

/// What the panel asks for.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum GameAction {
    /// Put the position's FEN on the clipboard.
    CopyFen,
    /// Put the game's PGN on the clipboard.
    CopyPgn,
    /// Save the game as PGN in the games directory.
    Save,
    /// Put the reviewed game's PGN (marks and `[%eval]` comments) on the clipboard.
    CopyReview,
    /// Save the reviewed game as PGN in the games directory.
    SaveReview,
    /// Load pasted text: a PGN game, or a FEN for the current variant.
    LoadText(String),
    /// Load a PGN file.
    LoadFile(PathBuf),
    /// Show the position after this many moves (taking back or replaying).
    GoTo(usize),
    /// Try moves from the position after this many moves, keeping the game to return to.
    Branch(usize),
    /// Back from trying moves to the game as it was.
    LeaveBranch,
    /// A game of the variant and presets on the board from a set-up position (FEN), with the
    /// computer on the sides given and the analysis on or off.
    Position {
        /// The position.
        fen: String,
        /// The computer's level for each side it plays (`[white, black]`).
        computer: [Option<u8>; 2],
        /// Whether the analysis is switched on.
        analyse: bool,
    },
    /// Resume an unfinished game from its autosave (which it then goes on writing).
    Resume(PathBuf),
    /// One of the above that replaces the game in progress, which the player agreed to.
    Confirmed(Box<GameAction>),
}

impl GameAction {
    /// Whether it puts another game on the board.
    fn replaces(&self) -> bool {
        matches!(self, GameAction::LoadText(_) | GameAction::LoadFile(_) | GameAction::Resume(_) | GameAction::Position { .. })
    }
}

/// Moves tried from a position of the game (the analysis's branch): the game as it was, kept
/// as a save to return to, while the board plays the branch. The branch is the same game (its
/// serial), so another game ends it; while it lasts, nobody's computer moves, the clocks are
/// off and the autosave is left alone.
#[derive(Resource, Default)]
pub struct Branching(pub Option<Branch>);

/// A branch from the game.
pub struct Branch {
    /// The game as it was, as a save.
    save: String,
    /// The moves of the game before the branch.
    pub ply: usize,
    /// The game's serial while the branch lasts.
    serial: u64,
}

impl Branching {
    /// The branch of game `serial`, if one is being tried.
    pub fn of(&self, serial: u64) -> Option<&Branch> {
        self.0.as_ref().filter(|b| b.serial == serial)
    }
}

/// Whether a game is in progress: it has moves and is not over. Replacing it asks first.
pub fn in_progress(world: &mut World) -> bool {
    !world.resource::<MoveLog>().0.is_empty() && world.outcome().is_none()
}

/// What would replace the game in progress, waiting for the player's yes.
#[derive(Resource, Default)]
pub struct Replacing(pub Option<Replacement>);

/// A new game or a loaded one.
#[derive(Clone, Debug, PartialEq)]
pub enum Replacement {
    /// A new game.
    New(super::shared::NewGame),
    /// A game loaded or resumed.
    Load(GameAction),
}

impl Replacement {
    /// The same, marked as agreed to.
    pub fn confirmed(self) -> Replacement {
        match self {
            Replacement::New(n) => Replacement::New(super::shared::NewGame { confirmed: true, ..n }),
            Replacement::Load(a) => Replacement::Load(GameAction::Confirmed(Box::new(a))),
        }
    }
}

/// Text for the panel to put on the clipboard.
#[derive(Resource, Default)]
pub struct ClipboardOut(pub Option<String>);

/// Where saved games go: `$XDG_DATA_HOME/chimera/games` or `~/.local/share/chimera/games`
/// (`%APPDATA%\chimera\games`, `~/Library/Application Support/chimera/games`).
pub fn games_dir() -> Option<PathBuf> {
    crate::save::data_dir().map(|d| d.join("games"))
}

/// Saved games, newest first.
pub fn saved_games() -> Vec<PathBuf> {
    games_dir().map(|d| pgn_files(&d)).unwrap_or_default()
}

/// The offer to resume the autosave at `path`: `None` when there is none, or its game is over
/// or has no move yet; otherwise a line saying what it is (variant, presets, move, who plays),
/// or why it does not read (it is then moved aside to `<name>.unreadable`, out of the
/// autosaves' list, where nothing overwrites it).
fn resume_offer(path: &std::path::Path) -> Option<Result<String, String>> {
    let text = std::fs::read_to_string(path).ok()?;
    let unreadable = |e: crate::save::SaveError| {
        let aside = path.with_extension("unreadable");
        let kept = match std::fs::rename(path, &aside) {
            Ok(()) => format!("it is kept as {}", aside.display()),
            Err(_) => format!("it is left in {}", path.display()),
        };
        Some(Err(format!("An autosaved game does not read ({e}); {kept}.")))
    };
    let save = match crate::save::read_save(&text) {
        Ok(save) => save,
        Err(e) => return unreadable(e),
    };
    if save.finished() || save.moves.is_empty() {
        return None;
    }
    let name = match crate::save::variant_of(&save) {
        Ok(v) => v.name,
        Err(e) => return unreadable(e),
    };
    let presets: Vec<&str> = save.presets.iter().filter_map(|a| crate::presets::by_id(a.id)).map(|d| d.name).collect();
    let with = if presets.is_empty() { String::new() } else { format!(" with {}", presets.join(", ")) };
    let who = match save.seats.computer {
        [None, None] => "two players".to_string(),
        [Some(w), Some(b)] => format!("computer against computer (levels {w} and {b})"),
        [None, Some(l)] => format!("you (white) against the computer, level {l}"),
        [Some(l), None] => format!("you (black) against the computer, level {l}"),
    };
    Some(Ok(format!("{name}{with}: {} played, {who}", moves_text(save.moves.len()))))
}

/// "1 move", "12 moves".
pub fn moves_text(n: usize) -> String {
    if n == 1 { "1 move".into() } else { format!("{n} moves") }
}

/// The PGN files in `dir`, newest first (their names begin with their times).
fn pgn_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "pgn")).collect())
        .unwrap_or_default();
    files.sort();
    files.reverse();
    files
}

pub use crate::save::write_atomically;

/// Where games in progress are autosaved: `autosaves/` beside the games directory, a file a
/// game (the last [`KEPT_UNFINISHED`] unfinished ones are kept).
pub fn autosave_dir() -> Option<PathBuf> {
    games_dir().and_then(|d| d.parent().map(|p| p.join("autosaves")))
}

/// How many unfinished games the autosaves keep.
pub const KEPT_UNFINISHED: usize = 5;

/// The autosave: the folder (`None`: off, as under `--screenshot` and `--bench-frames`, so
/// that automation never overwrites a player's game), the file of the game on the board, and
/// the position last written.
#[derive(Resource, Default)]
pub struct Autosave {
    /// The folder.
    pub dir: Option<PathBuf>,
    /// The game (its [`GameSetup::serial`]) and its file.
    current: Option<(u64, PathBuf)>,
    written: Option<(u64, u64, BoardView)>,
    failed: bool,
}

impl Autosave {
    /// Autosaves into the folder `dir`. The one slot of earlier versions (`autosave.pgn`
    /// beside it) joins the folder as its oldest game.
    pub fn into(dir: Option<PathBuf>) -> Autosave {
        if let Some(dir) = &dir
            && let Some(old) = dir.parent().map(|p| p.join("autosave.pgn")).filter(|p| p.exists())
            && std::fs::create_dir_all(dir).is_ok()
        {
            let _ = std::fs::rename(&old, dir.join("0000-00-00-000000.pgn"));
        }
        Autosave { dir, ..Default::default() }
    }

    /// The file of the game on the board, once it has one.
    pub fn current_file(&self) -> Option<&std::path::Path> {
        self.current.as_ref().map(|(_, p)| p.as_path())
    }
}

/// The unfinished games autosaved in `dir`, newest first: each file, with a line saying what
/// it is, or why it does not read (see [`resume_offer`]).
pub fn unfinished_games(dir: &std::path::Path) -> Vec<(PathBuf, Result<String, String>)> {
    let started = |p: &std::path::Path| {
        // The file's name is when the game was first saved: 2026-11-29-064012.
        let stem = p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        match (stem.get(..10), stem.get(11..13), stem.get(13..15)) {
            (Some(day), ..) if day.starts_with("0000") => ", autosaved by an earlier version".to_string(),
            (Some(day), Some(h), Some(m)) => format!(", started {day} {h}:{m}"),
            _ => String::new(),
        }
    };
    pgn_files(dir)
        .into_iter()
        .filter_map(|p| {
            let offer = resume_offer(&p)?.map(|line| format!("{line}{}", started(&p)));
            Some((p, offer))
        })
        .collect()
}

/// Removes the autosaves of finished games and of games with no move, and the unfinished ones
/// beyond the newest [`KEPT_UNFINISHED`] (never `keep`, the game on the board).
fn prune_autosaves(dir: &std::path::Path, keep: &std::path::Path) {
    let mut unfinished = 0;
    for path in pgn_files(dir) {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let save = read_save(&text);
        let live = save.as_ref().is_ok_and(|s| !s.finished() && !s.moves.is_empty());
        // A file that does not read is left for the start screen to set aside and report.
        if save.is_err() || path == keep {
            unfinished += usize::from(live || path == keep);
            continue;
        }
        if live && unfinished < KEPT_UNFINISHED {
            unfinished += 1;
        } else {
            let _ = std::fs::remove_file(&path);
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<GameAction>();
    app.init_resource::<ClipboardOut>();
    app.init_resource::<Autosave>();
    app.init_resource::<Replacing>();
    app.init_resource::<Branching>();
    app.add_systems(Update, handle_actions.in_set(GameSystems::Input));
    app.add_systems(Update, autosave.in_set(GameSystems::Follow));
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

/// Writes `pgn` in the games directory as `<date-time>-<variant><suffix>.pgn`, and says where.
fn save_in_games(world: &World, pgn: &str, suffix: &str) -> (Tone, String) {
    let variant = world.resource::<GameSetup>().variant_id.clone();
    let name: String = variant.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    match games_dir().map(|d| d.join(format!("{}-{name}{suffix}.pgn", today().1))) {
        Some(path) => match write_atomically(&path, pgn) {
            Ok(()) => (Tone::Done, format!("saved to {}", path.display())),
            Err(e) => (Tone::Problem, format!("could not save to {}: {e}", path.display())),
        },
        None => (Tone::Problem, "no directory to save games in (HOME is not set)".into()),
    }
}

/// The game on the board as PGN.
pub fn game_pgn(world: &mut World) -> String {
    let setup = world.resource::<GameSetup>().clone();
    let (date, _) = today();
    let players = crate::pgn::player_names(world.get_resource::<ComputerPlay>().map_or([None, None], |c| c.sides));
    write_pgn(world, &setup.variant_id, &setup.presets, &setup.start_fen, &date, &players)
}

/// The game on the board as PGN with its review's marks and evaluations, when it has an up to
/// date review.
fn reviewed_pgn(world: &mut World) -> Option<String> {
    let setup = world.resource::<GameSetup>().clone();
    let review = world.get_resource::<GameReview>()?.of(setup.serial, world.resource::<MoveLog>())?.clone();
    let (date, _) = today();
    let players = crate::pgn::player_names(world.get_resource::<ComputerPlay>().map_or([None, None], |c| c.sides));
    Some(crate::pgn::write_pgn_with(world, &setup.variant_id, &setup.presets, &setup.start_fen, &date, &players, &[], Some(&review)))
}

/// The game on the board replayed from its save in an engine of its own, whose moves can be
/// taken back (a fork's cannot): for looking at earlier positions off the main thread.
///
/// # Errors
/// The save does not read or replay.
pub fn replayed_game(world: &mut World) -> Result<crate::rules::Engine, String> {
    let save = read_save(&game_save(world)).map_err(|e| e.to_string())?;
    crate::save::resume(&save).map_err(|e| e.to_string())
}

/// The game on the board as a save: PGN with everything needed to resume it.
pub fn game_save(world: &mut World) -> String {
    let setup = world.resource::<GameSetup>().clone();
    let (date, _) = today();
    let seats = Seats {
        computer: world.get_resource::<ComputerPlay>().map_or([None, None], |c| c.sides),
        pace: world.get_resource::<ComputerPlay>().map_or(1.0, |c| c.pace),
        bottom: world.get_resource::<BoardView>().map_or(crate::rules::Side::White, |v| v.bottom),
    };
    let variant = world.resource::<Rules>().0.clone();
    let redo: Vec<String> = world.resource::<RedoStack>().0.iter().rev().map(|m| crate::rules::to_uci(&variant, m)).collect();
    let clock = world.get_resource::<Clocks>().and_then(Clocks::snapshot);
    let input = SaveInput {
        variant_id: &setup.variant_id,
        definition: setup.definition.as_ref(),
        presets: &setup.presets,
        start_fen: &setup.start_fen,
        seats,
        redo: &redo,
        date: &date,
        clock: clock.as_ref(),
    };
    write_save(world, &input)
}

/// Replaces the game on the board with `game`, if it replays.
///
/// # Errors
/// Why the game does not replay; the board is untouched then.
pub fn load_game(world: &mut World, game: &PgnGame) -> Result<(), String> {
    let (definition, id) = crate::pgn::definition_of(game)?;
    // Replayed in a scratch engine first, so that the board is untouched when it fails.
    crate::pgn::replay_with(&definition, game)?;
    start_definition(world, &id, None, &definition, Start::Given(game.tag("FEN").unwrap_or("startpos")))?;
    world.resource_mut::<RedoStack>().0.clear();
    let swaps = crate::pgn::profile_swaps(game)?;
    for (i, san) in game.moves.iter().enumerate() {
        crate::pgn::queue_swap(world, &swaps, i + 1)?;
        let legal = world.legal_moves().to_vec();
        let rules = world.resource::<Rules>().0.clone();
        let m = parse_san(&rules, &world.resource::<Board>().cells, &legal, san).map_err(|e| e.to_string())?;
        world.apply_move(m).map_err(|e| e.to_string())?;
    }
    // Clocks start afresh from the position reached.
    fresh(world);
    Ok(())
}

/// Replaces the game on the board with a save's: its variant, presets, profile, start, moves,
/// redo moves, who plays and the board's orientation. The save is resumed in a scratch engine
/// first: when it does not resume, nothing changes.
///
/// # Errors
/// Why the save does not resume.
pub fn resume_save(world: &mut World, save: &Save) -> Result<(), String> {
    let definition = crate::save::definition_of(save).map_err(|e| e.to_string())?;
    let mut scratch = crate::save::resume_with(&definition, save).map_err(|e| e.to_string())?;
    crate::save::redo_stack(scratch.world_mut(), save).map_err(|e| e.to_string())?;
    start_definition(world, &save.variant_id, save.definition.clone(), &definition, Start::Given(save.start_fen()))?;
    crate::save::replay_moves(world, save).map_err(|e| e.to_string())?;
    let redo = crate::save::redo_stack(world, save).map_err(|e| e.to_string())?;
    world.resource_mut::<RedoStack>().0 = redo;
    resume(world, save.clock.as_ref())?;
    if let Some(mut cp) = world.get_resource_mut::<ComputerPlay>() {
        cp.cancel();
        cp.sides = save.seats.computer;
        cp.pace = save.seats.pace;
    }
    if let Some(mut view) = world.get_resource_mut::<BoardView>() {
        view.bottom = save.seats.bottom;
    }
    Ok(())
}

/// A new game of this variant and presets from the position `fen` (refused, it changes
/// nothing), in a file of its own among the autosaves.
fn load_fen(world: &mut World, fen: &str) -> Result<(), String> {
    let setup = world.resource::<GameSetup>().clone();
    let presets: Vec<String> = setup.presets.iter().map(|a| a.id.to_string()).collect();
    let (definition, file) = definition_for(world, &setup.variant_id, &presets)?;
    start_definition(world, &setup.variant_id, file, &definition, Start::Given(fen)).map_err(|e| format!("FEN: {e}"))?;
    world.resource_mut::<RedoStack>().0.clear();
    Ok(())
}

fn load_text(world: &mut World, text: &str) -> Result<String, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("paste a FEN or a PGN game first".into());
    }
    let looks_like_fen = !t.contains('[') && t.split_whitespace().next().is_some_and(|p| p.contains('/'));
    if looks_like_fen {
        load_fen(world, t)?;
        return Ok("position loaded".into());
    }
    if crate::save::claims_to_be_save(t) {
        let save = read_save(t).map_err(|e| e.to_string())?;
        resume_save(world, &save)?;
        return Ok(format!("game resumed ({} moves)", save.moves.len()));
    }
    let game = parse_pgn(t).map_err(|e| format!("PGN: {e}"))?;
    load_game(world, &game).map_err(|e| format!("PGN: {e}"))?;
    Ok(format!("game loaded ({} moves)", game.moves.len()))
}

/// A file's game: a save resumes, other PGN is imported. Returns the number of moves.
fn load_file_text(world: &mut World, text: &str) -> Result<usize, String> {
    if crate::save::claims_to_be_save(text) {
        let save = read_save(text).map_err(|e| e.to_string())?;
        resume_save(world, &save)?;
        return Ok(save.moves.len());
    }
    let game = parse_pgn(text)?;
    load_game(world, &game)?;
    Ok(game.moves.len())
}

/// Takes moves back or replays them until the game has `ply` moves.
fn go_to(world: &mut World, ply: usize) {
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
    world.resource_mut::<FoulWarning>().0 = None;
    world.resource_mut::<PositionVersion>().0 += 1;
}

/// Puts the game back as it was before the branch, showing the position the branch left
/// from. The game goes on in its own autosave, and its review (if any) is still its own.
fn leave_branch(world: &mut World) -> Option<(Tone, String)> {
    let serial = world.resource::<GameSetup>().serial;
    let branch = world.resource_mut::<Branching>().0.take().filter(|b| b.serial == serial)?;
    let save = match read_save(&branch.save) {
        Ok(s) => s,
        Err(e) => return Some((Tone::Problem, format!("the game could not be put back — {e}"))),
    };
    if let Err(e) = resume_save(world, &save) {
        return Some((Tone::Problem, format!("the game could not be put back — {e}")));
    }
    changed(world);
    let now = world.resource::<GameSetup>().serial;
    let mut autosave = world.resource_mut::<Autosave>();
    if let Some((s, _)) = autosave.current.as_mut().filter(|(s, _)| *s == serial) {
        *s = now;
    }
    if let Some((s, _, _)) = autosave.written.as_mut().filter(|(s, _, _)| *s == serial) {
        *s = now;
    }
    if let Some(mut review) = world.get_resource_mut::<GameReview>() {
        review.same_game(serial, now);
    }
    let plies = world.resource::<MoveLog>().0.len();
    if branch.ply < plies && world.contains_resource::<Messages<super::shared::BrowseTo>>() {
        world.write_message(super::shared::BrowseTo::Ply(branch.ply));
    }
    Some((Tone::Done, "back to the game".to_string()))
}

fn changed(world: &mut World) {
    world.resource_mut::<LayoutVersion>().0 += 1;
    world.resource_mut::<PositionVersion>().0 += 1;
    *world.resource_mut::<Selection>() = Selection::default();
    world.resource_mut::<FoulWarning>().0 = None;
}

/// Writes the game to the autosave whenever the position or the board's orientation changed
/// (a move, a takeback, a new or loaded game, a flip). A failure is shown once.
fn autosave(world: &mut World) {
    let Some(dir) = world.resource::<Autosave>().dir.clone() else { return };
    let serial = world.resource::<GameSetup>().serial;
    // Moves tried on a branch are not the game.
    if world.resource::<Branching>().of(serial).is_some() {
        return;
    }
    let now = (serial, world.resource::<PositionVersion>().0, world.get_resource::<BoardView>().copied().unwrap_or_default());
    let written = world.resource::<Autosave>().written;
    if written.is_none() {
        // The game the window opened with: nothing to save yet, and the unfinished games of
        // the last session are still on offer.
        world.resource_mut::<Autosave>().written = Some(now);
        return;
    }
    if written == Some(now) || !world.resource::<PendingChoice>().0.is_empty() {
        return;
    }
    // A game without a move is not kept; another game gets a file of its own.
    if world.resource::<MoveLog>().0.is_empty() && world.resource::<RedoStack>().0.is_empty() {
        world.resource_mut::<Autosave>().written = Some(now);
        return;
    }
    let current = world.resource::<Autosave>().current.clone();
    let (path, new_file) = match current {
        Some((game, path)) if game == serial => (path, false),
        _ => {
            // Named by the time, and a count after the last for games started within the same
            // second (so that names sort as the games started).
            let (_, stamp) = today();
            let last = pgn_files(&dir)
                .iter()
                .filter_map(|p| p.file_stem()?.to_str()?.strip_prefix(&format!("{stamp}-"))?.parse::<u32>().ok())
                .max()
                .unwrap_or(0);
            let path = dir.join(format!("{stamp}-{:02}.pgn", last + 1));
            world.resource_mut::<Autosave>().current = Some((serial, path.clone()));
            (path, true)
        }
    };
    let text = game_save(world);
    let result = write_atomically(&path, &text);
    if result.is_ok() && new_file {
        prune_autosaves(&dir, &path);
    }
    let mut autosave = world.resource_mut::<Autosave>();
    autosave.written = Some(now);
    match result {
        Ok(()) => autosave.failed = false,
        Err(e) if !autosave.failed => {
            autosave.failed = true;
            world.resource_mut::<Notice>().show(Tone::Problem, format!("could not autosave to {}: {e}", path.display()), 6.0);
        }
        Err(_) => {}
    }
}

fn handle_actions(world: &mut World) {
    let actions: Vec<GameAction> = world.resource_mut::<Messages<GameAction>>().drain().collect();
    for action in actions {
        // A game in progress is replaced only once the player says yes.
        let action = match action {
            GameAction::Confirmed(action) => *action,
            action if action.replaces() && in_progress(world) => {
                world.resource_mut::<Replacing>().0 = Some(Replacement::Load(action));
                continue;
            }
            action => action,
        };
        let notice = match action {
            GameAction::Confirmed(_) => None,
            GameAction::Resume(path) => {
                Some(match crate::rules::read_text(&path).map_err(|e| e.to_string()).and_then(|t| load_text(world, &t)) {
                    Ok(done) => {
                        changed(world);
                        // The game goes on in its own file.
                        let serial = world.resource::<GameSetup>().serial;
                        world.resource_mut::<Autosave>().current = Some((serial, path));
                        (Tone::Done, done)
                    }
                    Err(e) => (Tone::Problem, format!("not resumed — {e}")),
                })
            }
            GameAction::CopyFen => {
                let fen = world.fen();
                world.resource_mut::<ClipboardOut>().0 = Some(fen);
                Some((Tone::Done, "FEN copied".to_string()))
            }
            GameAction::CopyPgn => {
                let pgn = game_pgn(world);
                world.resource_mut::<ClipboardOut>().0 = Some(pgn);
                Some((Tone::Done, "PGN copied".to_string()))
            }
            GameAction::Save => {
                let pgn = game_save(world);
                Some(save_in_games(world, &pgn, ""))
            }
            GameAction::CopyReview => Some(match reviewed_pgn(world) {
                Some(pgn) => {
                    world.resource_mut::<ClipboardOut>().0 = Some(pgn);
                    (Tone::Done, "reviewed PGN copied".to_string())
                }
                None => (Tone::Problem, "the game has no up-to-date review".to_string()),
            }),
            GameAction::SaveReview => Some(match reviewed_pgn(world) {
                Some(pgn) => save_in_games(world, &pgn, "-reviewed"),
                None => (Tone::Problem, "the game has no up-to-date review".to_string()),
            }),
            GameAction::LoadText(text) => Some(match load_text(world, &text) {
                Ok(done) => {
                    changed(world);
                    (Tone::Done, done)
                }
                Err(e) => (Tone::Problem, format!("not loaded — {e}")),
            }),
            GameAction::LoadFile(path) => Some(match crate::rules::read_text(&path) {
                Err(e) => (Tone::Problem, format!("cannot read {}: {e}", path.display())),
                Ok(text) => match load_file_text(world, &text) {
                    Ok(n) => {
                        changed(world);
                        let name = path.file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default();
                        (Tone::Done, format!("loaded {name} ({n} moves)"))
                    }
                    Err(e) => (Tone::Problem, format!("not loaded — {}: {e}", path.display())),
                },
            }),
            GameAction::GoTo(ply) => {
                go_to(world, ply);
                None
            }
            GameAction::Branch(ply) => {
                let serial = world.resource::<GameSetup>().serial;
                if world.resource::<Branching>().of(serial).is_none() {
                    let save = game_save(world);
                    world.resource_mut::<Branching>().0 = Some(Branch { save, ply, serial });
                }
                if let Some(mut cp) = world.get_resource_mut::<ComputerPlay>() {
                    cp.cancel();
                    cp.sides = [None, None];
                }
                if let Some(mut clocks) = world.get_resource_mut::<Clocks>() {
                    clocks.clock = None;
                }
                go_to(world, ply);
                Some((Tone::Done, format!("a branch after {ply} moves: the game is kept")))
            }
            GameAction::LeaveBranch => leave_branch(world),
            GameAction::Position { fen, computer, analyse } => Some(match load_fen(world, &fen) {
                Ok(()) => {
                    changed(world);
                    if let Some(mut cp) = world.get_resource_mut::<ComputerPlay>() {
                        cp.cancel();
                        cp.sides = computer;
                    }
                    if let Some(mut a) = world.get_resource_mut::<super::shared::Analysis>() {
                        a.on = analyse;
                    }
                    if let (true, Some(mut clocks)) = (analyse, world.get_resource_mut::<Clocks>()) {
                        clocks.clock = None;
                    }
                    // The person's side at the bottom against the computer.
                    if let (Some(person), Some(mut view)) = (
                        match computer {
                            [None, Some(_)] => Some(crate::rules::Side::White),
                            [Some(_), None] => Some(crate::rules::Side::Black),
                            _ => None,
                        },
                        world.get_resource_mut::<BoardView>(),
                    ) {
                        view.bottom = person;
                    }
                    (Tone::Done, "game set up from the position".to_string())
                }
                Err(e) => (Tone::Problem, format!("not set up — {e}")),
            }),
        };
        if let Some((tone, text)) = notice {
            world.resource_mut::<Notice>().show(tone, text, 4.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `action`, agreed to replace the game in progress.
    fn yes(action: GameAction) -> GameAction {
        GameAction::Confirmed(Box::new(action))
    }

    fn app() -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        super::super::shared::start_game(app.world_mut(), "chess", &[]).unwrap();
        app.add_plugins((super::super::play::plugin, plugin));
        app.init_resource::<super::super::shared::LayoutVersion>();
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
        app.world_mut().write_message(yes(GameAction::LoadText("[Variant \"atomic\"]\n1. e4 {a long thou".into())));
        app.update();
        assert_eq!(app.world_mut().fen(), fen);
        let notice = app.world().resource::<Notice>().0.clone().unwrap().0;
        assert!(notice.starts_with("not loaded") && notice.contains("never closed"), "{notice}");
        // A move that is not legal: refused, nothing changes.
        app.world_mut().write_message(yes(GameAction::LoadText("1. e4 e5 2. Qh8".into())));
        app.update();
        assert_eq!(app.world_mut().fen(), fen);
    }

    /// A pasted FEN is a new game of the variant and presets on the board (a file of its own
    /// among the autosaves); one the presets refuse once they are on changes nothing.
    #[test]
    fn a_pasted_position_starts_a_game_and_a_refused_one_changes_nothing() {
        let mut app = app();
        super::super::shared::start_game(app.world_mut(), "chess", &["dual-king".into()]).unwrap();
        for uci in ["e2e4", "e7e5", "g1f3"] {
            let chess = crate::rules::Variant::chess();
            let m = app.world_mut().legal_moves().iter().copied().find(|m| crate::rules::to_uci(&chess, m) == uci).unwrap();
            app.world_mut().apply_move(m).unwrap();
        }
        let (fen, serial) = (app.world_mut().fen(), app.world().resource::<GameSetup>().serial);
        // Two kings crowns the queens: Black's d2 queen, attacked by White's, is a king in check
        // with White to move.
        app.world_mut().write_message(yes(GameAction::LoadText("4k3/8/8/8/8/8/3q4/3QK2R w K - 0 1".into())));
        app.update();
        let notice = app.world().resource::<Notice>().0.clone().unwrap().0;
        assert!(notice.contains("black is in check but it is white's turn"), "{notice}");
        assert_eq!(app.world_mut().fen(), fen);
        assert_eq!(app.world().resource::<MoveLog>().0.len(), 3);
        let pasted = "4k3/8/8/8/8/8/8/3QK2R w K - 0 1";
        app.world_mut().write_message(yes(GameAction::LoadText(pasted.into())));
        app.update();
        let setup = app.world().resource::<GameSetup>().clone();
        assert_eq!(app.world_mut().fen(), "4k3/8/8/8/8/8/8/3KK2R w K - 0 1 {Crowned=d1:1}", "the queen crowned");
        assert_eq!((setup.serial, setup.presets.len()), (serial + 1, 1), "a new game, two kings still on");
        assert!(app.world().resource::<MoveLog>().0.is_empty());
    }

    #[test]
    fn the_autosave_is_offered_or_moved_aside() {
        let dir = std::env::temp_dir().join(format!("chimera-offer-{}", std::process::id()));
        let path = dir.join("autosave.pgn");
        let mut e = crate::presets::new_game(crate::variants::builtin("crazyhouse").unwrap(), "startpos").unwrap();
        let start = e.fen();
        let seats = crate::save::Seats { computer: [Some(2), None], ..Default::default() };
        let input = crate::save::SaveInput {
            variant_id: "crazyhouse",
            definition: None,
            presets: &[],
            start_fen: &start,
            seats,
            redo: &[],
            date: "-",
            clock: None,
        };
        // No move yet: nothing to offer.
        crate::save::write_atomically(&path, &crate::save::write_save(e.world_mut(), &input)).unwrap();
        assert!(resume_offer(&path).is_none());
        e.play_uci("e2e4").unwrap();
        let text = crate::save::write_save(e.world_mut(), &input);
        crate::save::write_atomically(&path, &text).unwrap();
        let summary = resume_offer(&path).unwrap().unwrap();
        assert_eq!(summary, "Crazyhouse: 1 move played, you (black) against the computer, level 2");
        // Cut short: refused, and kept aside where the next autosave does not overwrite it.
        crate::save::write_atomically(&path, &text[..text.len() / 2]).unwrap();
        let why = resume_offer(&path).unwrap().unwrap_err();
        assert!(why.contains("damaged") && why.contains("autosave.unreadable"), "{why}");
        assert!(!path.exists() && dir.join("autosave.unreadable").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Notices say what kind of news they are: done in green, problems in red.
    #[test]
    fn notices_are_coloured_by_meaning() {
        let mut app = app();
        let tone = |app: &App| app.world().resource::<Notice>().1;
        app.world_mut().write_message(GameAction::CopyFen);
        app.update();
        assert_eq!(tone(&app), Tone::Done);
        app.world_mut().write_message(GameAction::LoadText("1. e4 e5 2. Qh8".into()));
        app.update();
        assert_eq!(tone(&app), Tone::Problem);
        app.world_mut().write_message(GameAction::LoadText("1. e4 e5".into()));
        app.update();
        assert_eq!(tone(&app), Tone::Done);
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

    /// Moves tried from an earlier position leave the game as it was: its moves and its
    /// review.
    #[test]
    fn a_branch_tries_moves_and_the_game_comes_back() {
        let mut app = app();
        app.init_resource::<GameReview>();
        app.world_mut().write_message(GameAction::LoadText("1. e4 e5 2. Nf3 Nc6".into()));
        app.update();
        let (end, serial) = (app.world_mut().fen(), app.world().resource::<GameSetup>().serial);
        let moves: Vec<crate::rules::Move> = app.world().resource::<MoveLog>().0.iter().map(|r| r.mv).collect();
        app.world_mut().resource_mut::<GameReview>().done = Some((serial, moves, crate::ai::review::Review::default()));
        app.world_mut().write_message(GameAction::Branch(2));
        app.update();
        assert_eq!(app.world().resource::<Branching>().of(serial).map(|b| b.ply), Some(2));
        // Another line: 2. d4.
        let chess = crate::rules::Variant::chess();
        let d4 = app.world_mut().legal_moves().iter().copied().find(|m| crate::rules::to_uci(&chess, m) == "d2d4").unwrap();
        app.world_mut().apply_move(d4).unwrap();
        assert_eq!(app.world().resource::<MoveLog>().0.len(), 3);
        app.world_mut().write_message(GameAction::LeaveBranch);
        app.update();
        assert_eq!(app.world_mut().fen(), end, "the game as it was");
        assert_eq!(app.world().resource::<MoveLog>().0.len(), 4);
        let now = app.world().resource::<GameSetup>().serial;
        assert!(app.world().resource::<Branching>().of(now).is_none(), "the branch is over");
        let log = app.world().resource::<MoveLog>().clone();
        assert!(app.world().resource::<GameReview>().of(now, &log).is_some(), "the review is still the game's");
    }

    /// A set-up position becomes the game, with its facts; one the rules refuse changes
    /// nothing.
    #[test]
    fn a_set_up_position_becomes_the_game() {
        let mut app = app();
        super::super::shared::start_game(app.world_mut(), "chess", &["piece-hp".into()]).unwrap();
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 {Hp=e1:2,e2:5,e8:2}";
        app.world_mut().write_message(GameAction::Position { fen: fen.into(), computer: [None, None], analyse: false });
        app.update();
        assert_eq!(app.world_mut().fen(), fen);
        app.world_mut().write_message(GameAction::Position {
            fen: "4k3/8/8/8/8/8/8/4K3 x - - 0 1".into(),
            computer: [None, None],
            analyse: true,
        });
        app.update();
        assert_eq!(app.world_mut().fen(), fen, "refused: the game stays");
        assert_eq!(app.world().resource::<Notice>().1, Tone::Problem);
    }

    #[test]
    fn a_save_resumes_with_its_redo_moves_seats_and_orientation() {
        let mut app = app();
        app.init_resource::<super::super::shared::BoardView>();
        app.world_mut().write_message(GameAction::LoadText("1. e4 e5 2. Nf3 Nc6".into()));
        app.update();
        app.world_mut().write_message(GameAction::GoTo(3));
        app.update();
        app.world_mut().resource_mut::<super::super::shared::BoardView>().bottom = crate::rules::Side::Black;
        let fen = app.world_mut().fen();
        let text = game_save(app.world_mut());
        // Another game, then the save: everything comes back.
        app.world_mut().write_message(yes(GameAction::LoadText("1. d4".into())));
        app.update();
        app.world_mut().resource_mut::<super::super::shared::BoardView>().bottom = crate::rules::Side::White;
        app.world_mut().write_message(yes(GameAction::LoadText(text.clone())));
        app.update();
        assert_eq!(app.world_mut().fen(), fen);
        assert_eq!(app.world().resource::<RedoStack>().0.len(), 1, "Nc6 can be played again");
        assert_eq!(app.world().resource::<super::super::shared::BoardView>().bottom, crate::rules::Side::Black);
        // The same save edited (a move changed): refused, nothing changes.
        app.world_mut().write_message(yes(GameAction::LoadText("1. d4".into())));
        app.update();
        let before = app.world_mut().fen();
        app.world_mut().write_message(yes(GameAction::LoadText(text.replace("Nf3", "Nc3").replace("g1f3", "b1c3"))));
        app.update();
        assert_eq!(app.world_mut().fen(), before);
        let notice = app.world().resource::<Notice>().0.clone().unwrap().0;
        assert!(notice.contains("damaged") && notice.contains("checksum"), "{notice}");
    }

    /// The files in the autosave folder (not the temporary ones).
    fn autosaves(dir: &std::path::Path) -> Vec<PathBuf> {
        pgn_files(dir)
    }

    #[test]
    fn the_game_is_autosaved_after_a_change_and_not_before() {
        let dir = std::env::temp_dir().join(format!("chimera-autosave-{}", std::process::id()));
        let mut app = app();
        app.insert_resource(Autosave::into(Some(dir.clone())));
        app.update();
        assert!(autosaves(&dir).is_empty(), "the game the window opened with is not saved");
        app.world_mut().write_message(GameAction::LoadText("1. e4 e5 2. Nf3".into()));
        app.update();
        let files = autosaves(&dir);
        assert_eq!(files.len(), 1);
        let save = read_save(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
        assert_eq!(save.moves, ["e2e4", "e7e5", "g1f3"]);
        app.world_mut().write_message(GameAction::GoTo(1));
        app.update();
        let save = read_save(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
        assert_eq!((save.moves.len(), save.redo.len()), (1, 2), "a takeback is saved, with its redo moves");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temporary file is left");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A game in progress is replaced only after a yes, and then it stays among the unfinished
    /// games: the last five are kept, each in its own file, and one resumes into its own file.
    #[test]
    fn replacing_a_game_in_progress_asks_and_keeps_the_last_five() {
        let dir = std::env::temp_dir().join(format!("chimera-unfinished-{}", std::process::id()));
        let mut app = app();
        app.init_resource::<super::super::shared::ComputerPlay>();
        app.add_message::<super::super::shared::NewGame>();
        app.insert_resource(Autosave::into(Some(dir.clone())));
        app.update();
        let moves = |app: &App| app.world().resource::<MoveLog>().0.len();
        let confirm = |app: &mut App| {
            let waiting = app.world_mut().resource_mut::<Replacing>().0.take().expect("the player is asked");
            match waiting.confirmed() {
                Replacement::Load(action) => app.world_mut().write_message(action),
                Replacement::New(_) => unreachable!(),
            };
            app.update();
        };
        // The first game needs no yes: the board had no game in progress.
        app.world_mut().write_message(GameAction::LoadText("1. e4 e5".into()));
        app.update();
        assert_eq!(moves(&app), 2);
        let line = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"];
        for n in 1..=6 {
            // Another game: asked first, and nothing changes until the yes.
            app.world_mut().write_message(GameAction::LoadText(line[..2 + n].join(" ")));
            app.update();
            assert_eq!(moves(&app), 1 + n, "the game before is still on the board");
            confirm(&mut app);
            assert_eq!(moves(&app), 2 + n);
        }
        let kept = unfinished_games(&dir);
        assert_eq!(kept.len(), KEPT_UNFINISHED, "{kept:?}");
        assert!(
            kept.iter().all(|(_, line)| line.as_ref().is_ok_and(|l| l.starts_with("Chess: ") && l.contains("two players"))),
            "{kept:?}"
        );
        // Resuming one goes on writing its file.
        let oldest = kept.last().unwrap().0.clone();
        app.world_mut().write_message(GameAction::Resume(oldest.clone()));
        app.update();
        confirm(&mut app);
        let before = moves(&app);
        app.world_mut().write_message(GameAction::GoTo(before - 1));
        app.update();
        let save = read_save(&std::fs::read_to_string(&oldest).unwrap()).unwrap();
        assert_eq!(save.moves.len(), before - 1);
        assert_eq!(unfinished_games(&dir).len(), KEPT_UNFINISHED);
        // A game over is not asked about.
        app.world_mut().write_message(GameAction::LoadText("1. f3 e5 2. g4 Qh4#".into()));
        app.update();
        confirm(&mut app);
        app.world_mut().write_message(GameAction::LoadText("1. e4".into()));
        app.update();
        assert!(app.world().resource::<Replacing>().0.is_none());
        assert_eq!(moves(&app), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
