//! Saved games that resume exactly.
//!
//! A save is a PGN game (any PGN reader gets the moves and the standard tags) whose extra tags
//! carry everything else a game needs to go on where it stopped:
//!
//! | tag | holds |
//! |---|---|
//! | `ChimeraSave` | the format's version, `3` (versions 1, without clocks, and 2, without pictures, still read) |
//! | `Variant` | the built-in id, or the name of the user's file |
//! | `ChimeraVariant` | a user variant's whole definition as one line of RON, its `extends` resolved and its pieces' own pictures carried in `pictures` (base64 of each file), so the save opens on a machine without the file or its pictures |
//! | `ChimeraPresets` | the presets the game started with: id, parameters, scope and duration |
//! | `Profile`, `ProfileSwap` | the modifier profile the game started with, and every swap (as plain PGN) |
//! | `FEN` | the start, when it is not the variant's usual one; its facts field carries preset state |
//! | `ChimeraSeats` | who plays (a person, or the computer's level, per side), the pace of computer against computer, the board's orientation |
//! | `ChimeraMoves` | the moves in UCI, the form the game replays from |
//! | `ChimeraRedo` | moves taken back that redo would play again, in UCI, next first (when there are any) |
//! | `ChimeraFinal` | the FEN (with Chimera's facts field) after the last move |
//! | `ChimeraClock` | the time control ([`crate::clock`]'s text form: `5+3`, `10b30x3`), when the game has clocks |
//! | `ChimeraClockTimes` | both sides' time in milliseconds when each position was reached (`white/black`, `ms:periods` in byo-yomi), the start first |
//! | `ChimeraClockNow` | the side to move's time when saved, or `flag white` / `flag black` |
//! | `TimeControl` | the control in PGN's own form (`300+3`), for other programs, where PGN has one |
//! | `ChimeraChecksum` | FNV-1a (64 bits) of every other line |
//!
//! Preset state (hit points, stamina, shields, turns left, counters) is not stored beside the
//! moves: it is what the moves make of the start, so the game replays to it, and the replay
//! is checked against `ChimeraFinal`. A file that claims to be a save (has `ChimeraSave`) is
//! refused, with nothing changed, when its version is newer than this build reads, a field
//! does not read, its checksum does not match (a truncated or edited file), or it replays to
//! another position. PGN without `ChimeraSave` (other programs' games, and the saves of
//! builds before format 1) is not a save: it is imported as PGN (see [`crate::pgn`]).
//!
//! A game lost on time replays to its last position, and then the flag falls again: the result
//! is part of the position (see [`crate::clock::declare_flag`]), so `ChimeraFinal` shows it.
//! Clocks resume running from the time saved, for the side to move.
//!
//! Files are written by [`write_atomically`]: a temporary file beside the target, flushed to
//! disk, renamed over it, so a process killed at any moment leaves the old file or the new one.
//!
//! Layer: uses `rules` to `ai`, `clock` and `pgn`.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use bevy::prelude::World;

use crate::pgn::{PgnGame, parse_pgn, profile_swaps, queue_swap, write_pgn_with};
use crate::presets::{Activation, GameDefinition, Scope, Start, by_id};
use crate::rules::{Board, Engine, MoveLog, PresetRequest, Rules, RulesWorld, Side, Variant, parse_uci, to_uci};
use crate::variants::VariantFile;

/// The save format this build writes and the newest it reads.
pub const FORMAT: u32 = 3;

/// Who plays, and how the board is turned.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Seats {
    /// The computer's level for each side it plays (`[white, black]`); `None` is a person.
    pub computer: [Option<u8>; 2],
    /// Seconds between moves when the computer plays both sides.
    pub pace: f32,
    /// The side drawn at the bottom.
    pub bottom: Side,
}

impl Default for Seats {
    fn default() -> Seats {
        Seats { computer: [None, None], pace: 1.0, bottom: Side::White }
    }
}

/// The longest pace a save may ask for, in seconds.
pub const MAX_PACE: f32 = 60.0;

/// One preset as a save writes it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct SavedPreset {
    id: String,
    params: BTreeMap<String, f64>,
    scope: Scope,
    turns: Option<u32>,
}

/// What a save is made of, besides the moves on the board.
#[derive(Clone, Copy, Debug)]
pub struct SaveInput<'a> {
    /// The variant's built-in id, or the name of the user's file.
    pub variant_id: &'a str,
    /// A user variant's self-contained definition; `None` for a built-in.
    pub definition: Option<&'a VariantFile>,
    /// The presets the game started with.
    pub presets: &'a [Activation],
    /// The position the game started from.
    pub start_fen: &'a str,
    /// Who plays.
    pub seats: Seats,
    /// Moves taken back that redo would play again, in UCI, the next first.
    pub redo: &'a [String],
    /// `YYYY.MM.DD`.
    pub date: &'a str,
    /// The clocks, when the game has them.
    pub clock: Option<&'a crate::clock::ClockSnapshot>,
}

/// Why a save was refused. Each kind has a stable code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveError {
    /// Written by a newer build (its version), or a version that does not read.
    Version(String),
    /// The checksum is missing or does not match: the file was cut short or edited.
    Checksum(String),
    /// A field does not read (the tag and why).
    Field(String, String),
    /// The game does not set up or replay (why).
    Replay(String),
}

impl SaveError {
    /// A stable code for the kind of problem.
    pub fn code(&self) -> &'static str {
        match self {
            SaveError::Version(_) => "save-version",
            SaveError::Checksum(_) => "save-checksum",
            SaveError::Field(..) => "save-field",
            SaveError::Replay(_) => "save-replay",
        }
    }
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveError::Version(v) => {
                write!(f, "a Chimera save of format '{v}', which this build cannot read (it reads formats up to {FORMAT})")
            }
            SaveError::Checksum(why) => write!(f, "a damaged Chimera save: {why}"),
            SaveError::Field(tag, why) => write!(f, "a Chimera save whose {tag} does not read: {why}"),
            SaveError::Replay(why) => write!(f, "a Chimera save that does not replay: {why}"),
        }
    }
}

impl std::error::Error for SaveError {}

/// A save, read and checked.
#[derive(Clone, Debug)]
pub struct Save {
    /// The PGN it is (tags and SAN moves).
    pub game: PgnGame,
    /// The `Variant` tag.
    pub variant_id: String,
    /// A user variant's definition.
    pub definition: Option<VariantFile>,
    /// The presets the game started with.
    pub presets: Vec<Activation>,
    /// Who plays.
    pub seats: Seats,
    /// The moves in UCI.
    pub moves: Vec<String>,
    /// The FEN after the last move.
    pub final_fen: String,
    /// Moves taken back that redo would play again, in UCI, the next first.
    pub redo: Vec<String>,
    /// The clocks, when the game has them.
    pub clock: Option<crate::clock::ClockSnapshot>,
}

impl Save {
    /// The position the game started from (`startpos` for the variant's usual one).
    pub fn start_fen(&self) -> &str {
        self.game.tag("FEN").unwrap_or("startpos")
    }

    /// Whether the game is over, by its `Result` tag.
    pub fn finished(&self) -> bool {
        self.game.tag("Result").is_some_and(|r| r != "*")
    }
}

fn one_line<T: serde::Serialize>(value: &T) -> String {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .to_string(value)
        .expect("plain data serialises")
}

fn read_ron<T: serde::de::DeserializeOwned>(tag: &str, text: &str) -> Result<T, SaveError> {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
        .map_err(|e| SaveError::Field(tag.into(), e.to_string()))
}

/// FNV-1a (64 bits) of the lines of `text` other than the checksum's, each ended by `\n` (so
/// a file whose line ends were changed to `\r\n` still reads).
fn checksum(text: &str) -> u64 {
    text.lines()
        .filter(|l| !is_checksum_line(l))
        .flat_map(|l| l.trim_end_matches('\r').bytes().chain(std::iter::once(b'\n')))
        .fold(0xCBF2_9CE4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3))
}

fn is_checksum_line(line: &str) -> bool {
    line.trim_start().starts_with("[ChimeraChecksum ")
}

/// Writes the game in `world` as a save.
pub fn write_save(world: &mut World, input: &SaveInput) -> String {
    let presets: Vec<SavedPreset> = input
        .presets
        .iter()
        .map(|a| SavedPreset { id: a.id.to_string(), params: a.params.clone(), scope: a.scope, turns: a.turns_left })
        .collect();
    let variant = world.resource::<Rules>().0.clone();
    let moves: Vec<String> = world.resource::<MoveLog>().0.iter().map(|r| to_uci(&variant, &r.mv)).collect();
    let mut extra = vec![("ChimeraSave", FORMAT.to_string())];
    if let Some(def) = input.definition {
        extra.push(("ChimeraVariant", one_line(def)));
    }
    extra.push(("ChimeraPresets", one_line(&presets)));
    extra.push(("ChimeraSeats", one_line(&input.seats)));
    extra.push(("ChimeraMoves", moves.join(" ")));
    if !input.redo.is_empty() {
        extra.push(("ChimeraRedo", input.redo.join(" ")));
    }
    extra.push(("ChimeraFinal", world.fen()));
    if let Some(clock) = input.clock {
        extra.push(("ChimeraClock", clock.control.to_string()));
        extra.push(("ChimeraClockTimes", clock.times_text()));
        extra.push(("ChimeraClockNow", clock.now_text()));
        if let Some(tag) = clock.control.pgn_tag() {
            extra.push(("TimeControl", tag));
        }
    }
    let players = crate::pgn::player_names(input.seats.computer);
    let text = write_pgn_with(world, input.variant_id, input.presets, input.start_fen, input.date, &players, &extra, None);
    // The checksum is the last tag: the line before the blank line that ends the tags.
    let sum = format!("[ChimeraChecksum \"fnv1a64:{:016x}\"]\n", checksum(&text));
    let end_of_tags = text.find("\n\n").map_or(0, |i| i + 1);
    format!("{}{sum}{}", &text[..end_of_tags], &text[end_of_tags..])
}

/// Whether `text` claims to be a Chimera save (it has a `ChimeraSave` tag), so that it must
/// read as one or be refused; other PGN is imported as PGN.
pub fn claims_to_be_save(text: &str) -> bool {
    text.lines().any(|l| l.trim_start().starts_with("[ChimeraSave "))
}

/// Reads a save and checks its version, checksum and fields (it does not replay it: see
/// [`resume`]).
///
/// # Errors
/// See [`SaveError`].
pub fn read_save(text: &str) -> Result<Save, SaveError> {
    let game = parse_pgn(text).map_err(|e| SaveError::Checksum(format!("it does not read as PGN ({e})")))?;
    let Some(version) = game.tag("ChimeraSave") else {
        return Err(SaveError::Checksum("it is empty or cut short (it has no ChimeraSave tag)".into()));
    };
    match version.parse::<u32>() {
        Ok(v) if (1..=FORMAT).contains(&v) => {}
        _ => return Err(SaveError::Version(version.into())),
    }
    let stored = game
        .tag("ChimeraChecksum")
        .and_then(|s| s.strip_prefix("fnv1a64:"))
        .and_then(|h| u64::from_str_radix(h, 16).ok())
        .ok_or_else(|| SaveError::Checksum("it has no checksum".into()))?;
    if stored != checksum(text) {
        return Err(SaveError::Checksum("its checksum does not match (the file was cut short or changed)".into()));
    }
    let field = |tag: &str| game.tag(tag).ok_or_else(|| SaveError::Field(tag.into(), "it is missing".into()));
    let variant_id = field("Variant")?.to_string();
    let definition = game.tag("ChimeraVariant").map(|t| read_ron::<VariantFile>("ChimeraVariant", t)).transpose()?;
    let presets = read_ron::<Vec<SavedPreset>>("ChimeraPresets", field("ChimeraPresets")?)?
        .into_iter()
        .map(|p| {
            let def = by_id(&p.id).ok_or_else(|| SaveError::Field("ChimeraPresets".into(), format!("no preset '{}'", p.id)))?;
            Ok(Activation { id: def.id, params: p.params, scope: p.scope, turns_left: p.turns })
        })
        .collect::<Result<Vec<_>, SaveError>>()?;
    crate::presets::validate(&presets).map_err(|e| SaveError::Field("ChimeraPresets".into(), e.to_string()))?;
    let seats: Seats = read_ron("ChimeraSeats", field("ChimeraSeats")?)?;
    if let Some(level) = seats.computer.iter().flatten().find(|l| !(1..=crate::ai::MAX_LEVEL).contains(*l)) {
        return Err(SaveError::Field("ChimeraSeats".into(), format!("level {level} is not 1 to {}", crate::ai::MAX_LEVEL)));
    }
    if !(0.0..=MAX_PACE).contains(&seats.pace) {
        return Err(SaveError::Field("ChimeraSeats".into(), format!("a pace of {} s is not 0 to {MAX_PACE}", seats.pace)));
    }
    let moves: Vec<String> = field("ChimeraMoves")?.split_whitespace().map(str::to_string).collect();
    let final_fen = field("ChimeraFinal")?.to_string();
    let redo = game.tag("ChimeraRedo").unwrap_or_default().split_whitespace().map(str::to_string).collect::<Vec<_>>();
    let clock = match game.tag("ChimeraClock") {
        Some(control) => {
            let clock = crate::clock::ClockSnapshot::read(control, field("ChimeraClockTimes")?, field("ChimeraClockNow")?)
                .map_err(|e| SaveError::Field("ChimeraClock".into(), e))?;
            if clock.history.len() > moves.len() + 1 {
                return Err(SaveError::Field(
                    "ChimeraClockTimes".into(),
                    format!("{} positions timed in a game of {}", clock.history.len(), moves.len() + 1),
                ));
            }
            Some(clock)
        }
        None => None,
    };
    Ok(Save { game, variant_id, definition, presets, seats, moves, final_fen, redo, clock })
}

/// The variant a save is played in, its presets and start profile set as the save's.
///
/// # Errors
/// An unknown built-in, or a definition that does not compile.
pub fn variant_of(save: &Save) -> Result<Variant, SaveError> {
    let mut variant = match &save.definition {
        Some(def) => crate::variants::resolve(def.clone(), &crate::variants::builtin_file)
            .and_then(|resolved| crate::variants::compile(&resolved))
            .map_err(|e| SaveError::Field("ChimeraVariant".into(), e.to_string()))?,
        None => crate::variants::builtin(&save.variant_id).map_err(|e| SaveError::Field("Variant".into(), e.to_string()))?,
    };
    variant.presets = save
        .presets
        .iter()
        .map(|a| PresetRequest { id: a.id.to_string(), params: a.params.clone(), sides: a.scope.sides(), turns: a.turns_left })
        .collect();
    // The variant's own actions run whether or not the save lists the preset that runs them.
    crate::presets::ask_for_actions(&mut variant);
    variant.profile = match save.game.tag("Profile") {
        Some(text) => {
            let profile = crate::modifiers::Profile::from_ron(text).map_err(|e| SaveError::Field("Profile".into(), e))?;
            Some(profile.to_ron())
        }
        None => None,
    };
    Ok(variant)
}

/// The game a save is played by: [`variant_of`], resolved once.
///
/// # Errors
/// See [`variant_of`]; presets or a profile that do not go together.
pub fn definition_of(save: &Save) -> Result<GameDefinition, SaveError> {
    GameDefinition::new(variant_of(save)?).map_err(|e| SaveError::Replay(format!("the start: {e}")))
}

/// Plays a save's moves (and its profile swaps) in `world`, set up at the save's start, and
/// checks that they lead to the position the save recorded.
///
/// # Errors
/// A move that does not read or is not legal, or another final position.
pub fn replay_moves(world: &mut World, save: &Save) -> Result<(), SaveError> {
    let swaps = profile_swaps(&save.game).map_err(|e| SaveError::Field("ProfileSwap".into(), e))?;
    for (i, text) in save.moves.iter().enumerate() {
        queue_swap(world, &swaps, i + 1).map_err(SaveError::Replay)?;
        let legal = world.legal_moves().to_vec();
        let rules = world.resource::<Rules>().0.clone();
        let m = parse_uci(&rules, &world.resource::<Board>().cells, &legal, text)
            .map_err(|e| SaveError::Replay(format!("move {} ({text}): {e}", i + 1)))?;
        world.apply_move(m).map_err(|e| SaveError::Replay(format!("move {} ({text}): {e}", i + 1)))?;
    }
    if let Some(side) = save.clock.as_ref().and_then(|c| c.flagged) {
        crate::clock::declare_flag(world, side);
    }
    let fen = world.fen();
    if fen != save.final_fen {
        return Err(SaveError::Replay(format!("its moves lead to {fen}, not to the saved {}", save.final_fen)));
    }
    Ok(())
}

/// The save's redo moves, checked by playing them in `world` (at the save's final position)
/// and taking them back: in the order a redo stack pops them (the next one last).
///
/// # Errors
/// A redo move that does not read or is not legal.
pub fn redo_stack(world: &mut World, save: &Save) -> Result<Vec<crate::rules::Move>, SaveError> {
    let mut played = Vec::new();
    let mut failure = None;
    for text in &save.redo {
        let legal = world.legal_moves().to_vec();
        let rules = world.resource::<Rules>().0.clone();
        let parsed = parse_uci(&rules, &world.resource::<Board>().cells, &legal, text);
        match parsed.and_then(|m| world.apply_move(m).map(|()| m)) {
            Ok(m) => played.push(m),
            Err(e) => {
                failure = Some(SaveError::Replay(format!("redo move {text}: {e}")));
                break;
            }
        }
    }
    for _ in 0..played.len() {
        world.undo_move();
    }
    match failure {
        Some(e) => Err(e),
        None => {
            played.reverse();
            Ok(played)
        }
    }
}

/// Sets a save's game up in a fresh engine and replays it.
///
/// # Errors
/// See [`definition_of`] and [`replay_moves`]; a start position that does not load.
pub fn resume(save: &Save) -> Result<Engine, SaveError> {
    resume_with(&definition_of(save)?, save)
}

/// [`resume`] with the save's definition already read.
///
/// # Errors
/// See [`replay_moves`]; a start position that does not load.
pub fn resume_with(definition: &GameDefinition, save: &Save) -> Result<Engine, SaveError> {
    let mut engine = definition.start(Start::Given(save.start_fen())).map_err(|e| SaveError::Replay(format!("the start: {e}")))?;
    replay_moves(engine.world_mut(), save)?;
    Ok(engine)
}

/// Chimera's directory of one kind on this platform: `$<xdg_var>/chimera` or
/// `~/<unix_default>/chimera` on Linux and BSD, `%APPDATA%\chimera` on Windows,
/// `~/Library/Application Support/chimera` on macOS.
pub fn platform_dir(xdg_var: &str, unix_default: &str) -> Option<std::path::PathBuf> {
    use std::path::PathBuf;
    if cfg!(target_os = "windows") {
        return std::env::var_os("APPDATA").map(|d| PathBuf::from(d).join("chimera"));
    }
    let home = std::env::var_os("HOME").map(PathBuf::from);
    if cfg!(target_os = "macos") {
        return home.map(|h| h.join("Library/Application Support/chimera"));
    }
    match std::env::var_os(xdg_var).filter(|d| !d.is_empty()) {
        Some(d) => Some(PathBuf::from(d).join("chimera")),
        None => home.map(|h| h.join(unix_default).join("chimera")),
    }
}

/// The data directory (saved games, the user's variants): `~/.local/share/chimera` on Linux
/// (see [`platform_dir`]).
pub fn data_dir() -> Option<std::path::PathBuf> {
    platform_dir("XDG_DATA_HOME", ".local/share")
}

/// Writes `text` to `path` so that a process killed at any moment leaves the old file or the
/// new one: the text goes to `path` + `.tmp` beside it, is flushed to disk, and the temporary
/// file is renamed over `path` (a rename within a directory is atomic); the directory is then
/// flushed too, where the platform allows. A temporary file left by a killed process is
/// overwritten by the next write. (Two processes writing the same file at the same instant
/// would share the temporary file; the game writes one autosave per window.)
///
/// # Errors
/// The directory or file cannot be written.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)?;
    }
    let mut name = path.file_name().ok_or_else(|| std::io::Error::other("not a file name"))?.to_os_string();
    name.push(".tmp");
    let tmp = path.with_file_name(name);
    {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
    }
    std::fs::rename(&tmp, path)?;
    #[cfg(unix)]
    if let Some(dir) = dir {
        // Best effort: the rename is durable once the directory is on disk.
        let _ = std::fs::File::open(dir).and_then(|d| d.sync_all());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::new_game;

    fn sample() -> (Engine, String) {
        let mut e = new_game(crate::variants::builtin("crazyhouse").unwrap(), "startpos").unwrap();
        for m in ["e4", "d5", "exd5", "Qxd5", "Nc3"] {
            e.play_san(m).unwrap();
        }
        let start = Engine::from_fen(e.variant().clone(), "startpos").unwrap().fen();
        let seats = Seats { computer: [None, Some(5)], pace: 0.5, bottom: Side::White };
        let redo = ["d5a5".to_string()];
        let input = SaveInput {
            variant_id: "crazyhouse",
            definition: None,
            presets: &[],
            start_fen: &start,
            seats,
            redo: &redo,
            date: "2026.11.25",
            clock: None,
        };
        let text = write_save(e.world_mut(), &input);
        (e, text)
    }

    #[test]
    fn a_save_reads_back_and_resumes() {
        let (mut e, text) = sample();
        assert!(claims_to_be_save(&text));
        let save = read_save(&text).unwrap();
        assert_eq!(save.seats.computer, [None, Some(5)]);
        assert_eq!(save.moves, ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3"]);
        assert!(!save.finished());
        let mut back = resume(&save).unwrap();
        assert_eq!(back.fen(), e.fen());
        let redo = redo_stack(back.world_mut(), &save).unwrap();
        assert_eq!(redo.iter().map(|m| back.to_uci(m)).collect::<Vec<_>>(), ["d5a5"]);
        assert_eq!(back.fen(), e.fen(), "redo is checked, then taken back");
        // Line ends changed by an editor or a mail program: still the same save.
        assert!(read_save(&text.replace('\n', "\r\n")).is_ok());
    }

    #[test]
    fn a_damaged_or_newer_save_is_refused_with_its_code() {
        let (_, text) = sample();
        let edited = text.replace("3. Nc3", "3. Nf3").replace("b1c3", "g1f3");
        assert_eq!(read_save(&edited).unwrap_err().code(), "save-checksum");
        let cut = &text[..text.len() - 20];
        assert_eq!(read_save(cut).unwrap_err().code(), "save-checksum");
        let newer = text.replace(&format!("[ChimeraSave \"{FORMAT}\"]"), &format!("[ChimeraSave \"{}\"]", FORMAT + 1));
        let err = read_save(&newer).unwrap_err();
        assert_eq!(err.code(), "save-version");
        assert!(err.to_string().contains(&format!("format '{}'", FORMAT + 1)), "{err}");
        let unsummed: String = text.lines().filter(|l| !is_checksum_line(l)).map(|l| format!("{l}\n")).collect();
        assert_eq!(read_save(&unsummed).unwrap_err().code(), "save-checksum");
    }

    #[test]
    fn a_game_lost_on_time_resumes_lost_with_its_clocks() {
        use crate::clock::{GameClock, TimeControl};
        use std::time::Duration;
        for (fen, result, words) in [
            ("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1", "0-1", "black wins by time forfeit"),
            // Black, with a bare king, cannot win: the fall draws.
            ("4k3/8/8/8/8/8/4P3/4K2R w - - 0 1", "1/2-1/2", "draw by time forfeit against insufficient material"),
        ] {
            let mut e = Engine::from_fen(crate::variants::builtin("chess").unwrap(), fen).unwrap();
            let control = TimeControl::parse("0.5+1").unwrap();
            let mut clock = GameClock::new(control, Side::White);
            e.play_san("e4").unwrap();
            clock.moved(Duration::ZERO, Side::Black).unwrap();
            e.play_san("Kd7").unwrap();
            clock.moved(Duration::from_secs(5), Side::White).unwrap();
            // White thinks too long.
            let flagged = clock.tick(Duration::from_secs(40)).unwrap();
            assert_eq!(flagged, Side::White);
            crate::clock::declare_flag(e.world_mut(), flagged);
            assert!(e.legal_moves().is_empty(), "no move after the flag");
            let snapshot = clock.snapshot(Duration::from_secs(41));
            let input = SaveInput {
                variant_id: "chess",
                definition: None,
                presets: &[],
                start_fen: fen,
                seats: Seats::default(),
                redo: &[],
                date: "-",
                clock: Some(&snapshot),
            };
            let text = write_save(e.world_mut(), &input);
            assert!(text.contains("[TimeControl \"30+1\"]") && text.contains(&format!("[Result \"{result}\"]")), "{text}");
            let save = read_save(&text).unwrap();
            assert!(save.finished());
            assert_eq!(save.clock.as_ref(), Some(&snapshot));
            let mut back = resume(&save).unwrap();
            assert_eq!(back.outcome().map(|o| o.to_string()).as_deref(), Some(words));
            // Taken back, the game goes on.
            back.undo();
            assert!(back.outcome().is_none());
        }
    }

    #[test]
    fn tag_values_with_quotes_and_backslashes_survive() {
        let mut def = crate::variants::builtin_file("chess").unwrap();
        def.id = "my-chess".into();
        def.description = Some("Quotes \"here\", a backslash \\ and\na new line.".into());
        let mut e = new_game(crate::variants::builtin("chess").unwrap(), "startpos").unwrap();
        e.play_san("e4").unwrap();
        let start = Engine::from_fen(e.variant().clone(), "startpos").unwrap().fen();
        let input = SaveInput {
            variant_id: "my-chess.ron",
            definition: Some(&def),
            presets: &[],
            start_fen: &start,
            seats: Seats::default(),
            redo: &[],
            date: "-",
            clock: None,
        };
        let text = write_save(e.world_mut(), &input);
        let save = read_save(&text).unwrap();
        assert_eq!(save.definition.as_ref().and_then(|d| d.description.as_deref()), def.description.as_deref());
        assert_eq!(resume(&save).unwrap().fen(), e.fen());
    }

    #[test]
    fn atomic_writes_replace_the_file_and_leave_no_temporary() {
        let dir = std::env::temp_dir().join(format!("chimera-atomic-{}", std::process::id()));
        let path = dir.join("a.pgn");
        write_atomically(&path, "old").unwrap();
        write_atomically(&path, "new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "only the file itself is left");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
