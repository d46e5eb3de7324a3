//! The command line: `chimera perft …` and the options that start the game.
//!
//! Layer: uses `rules` to `save` (not `uci`, which stands beside it).

use std::io::Write;

use crate::variants;

/// Usage text.
pub const USAGE: &str = "\
usage:
  chimera [--variant <id|file.ron|file.ini:section>] [--fen <FEN>] [--presets a,b] [--profile <id|file.ron>]
          [--moves '<uci> <uci> ...'] [--screenshot <file.png>]
                                  start the game window with the variant, presets and
                                  modifier profile;
                                  play the moves through the board; save a screenshot
                                  once drawn and exit
      [--screenshot-after <frames>]  capture that many frames after the last move,
                                  while its effects still play
      [--bench-frames <N>]        print median and 99th-percentile frame times of N
                                  frames of the position, then N with explosions
      [--analyse]                 start with the analysis on (evaluation bar, lines)
      [--computer white|black|both] [--level <1-8>] [--pace <seconds>]
                                  the computer plays that side (or both, a move every
                                  <pace> seconds) at that level (default 3)
      [--until-ply <N>]           take the screenshot once the game has N moves (or is over)
      [--editor [<id|file.ron|file.ini:section>]]
                                  open the variant editor on a copy of a built-in variant, on
                                  a file, on a section of a Fairy-Stockfish ini file, or on a
                                  new variant
      [--clock <control>]         play with clocks: 5 (minutes each), 5+3 (3 s added a move),
                                  5d3 (3 s delay a move), 10b30x3 (byo-yomi: 10 minutes,
                                  then 3 periods of 30 s)
  chimera perft [--variant <id|file.ron|file.ini:section>] [--fen <FEN|startpos>] --depth <N>
                [--divide] [--profile <id|file.ron>]
                                  count leaf nodes through the rules pipelines (default:
                                  chess from its start; depth 1 to 20)
  chimera balance <id|file.ron|file.ini:section> [--presets a,b] [--games N]
                [--nodes N | --level L | --movetime MS] [--jobs J] [--seed S]
                [--openings plies] [--ply-cap N] [--band 40-60] [--piece-values] [--json]
                                  play the variant computer against computer (both sides at
                                  N nodes a move, default 5000, or at a level; a time a move
                                  is not reproducible; 100 games; 6 plies of seeded opening;
                                  a draw at 300 plies; J threads, default the cores) and
                                  report White's score with its interval, the first-move
                                  advantage in Elo, lengths, end reasons and a fairness
                                  verdict against the band; --piece-values measures each
                                  piece's worth in pawns by imbalance games instead (N games
                                  for the pawn odds and for each piece)
  chimera review <game.pgn> [--nodes N] [--json]
                                  review a game: search every position (N nodes each,
                                  default 150000), write the game as PGN with [%eval]
                                  comments and ?! ? ?? marks (--json: every move's loss and
                                  mark, and each position's evaluation, as JSON), and each
                                  side's mistakes and average centipawn loss on stderr
  chimera check <file.ron>...     validate variant files, reporting every problem
  chimera import <file.ini> [--out <dir>]
                                  convert each section of a Fairy-Stockfish variants.ini into
                                  a variant file <dir>/<section>.ron (default: the current
                                  directory); sections that cannot be converted are listed
                                  with the keys and lines that stop them
  chimera export <id|file.ron>... [--name <section>]
                                  write a Fairy-Stockfish variants.ini section for each variant
                                  (--all: every catalogue variant), naming what cannot be
                                  expressed
  chimera uci                     the engine over the UCI protocol (Fairy-Stockfish's dialect):
                                  options UCI_Variant, VariantPath, Presets, UCI_Chess960,
                                  Skill Level (1-8), Level Time Percent, Hash
  chimera list variants           print the built-in variant ids
  chimera list presets            print the preset ids and names
  chimera list profiles           print the built-in modifier profiles
  chimera help                    this text
  chimera --version               the version

Files named on the command line are read up to 16 MiB.";

/// The deepest perft the command line runs: deeper would not end, and would only exhaust memory.
pub const MAX_PERFT_DEPTH: u32 = 20;

/// The version line `--version` prints.
pub fn version() -> String {
    format!("chimera {}", env!("CARGO_PKG_VERSION"))
}

/// The game window's options from the command line (also the game's resource of them).
#[derive(bevy::prelude::Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct GameArgs {
    /// Variant id or path of a `.ron` file; the default is chess.
    pub variant: Option<String>,
    /// Presets to switch on after the variant's own, by id.
    pub presets: Vec<String>,
    /// A modifier profile (built-in id or `.ron` file) instead of the variant's own.
    pub profile: Option<String>,
    /// Start from this position (FEN) instead of the variant's.
    pub fen: Option<String>,
    /// UCI moves to play through the board's input path first.
    pub moves: Vec<String>,
    /// Save a screenshot here once the moves are played and drawn, then exit.
    pub screenshot: Option<String>,
    /// Capture this many frames after the last move, while its effects still play.
    pub screenshot_after: Option<u32>,
    /// Measure this many frames (quiet, then with explosions), print the figures, exit.
    pub bench_frames: Option<u32>,
    /// The sides the computer plays (`[white, black]`).
    pub computer: [bool; 2],
    /// Start with the analysis on.
    pub analyse: bool,
    /// The computer's level.
    pub level: Option<u8>,
    /// Milliseconds between moves when the computer plays both sides.
    pub pace_ms: Option<u32>,
    /// The screenshot waits until the game has this many moves (or is over).
    pub until_ply: Option<u32>,
    /// Clocks under this time control.
    pub clock: Option<crate::clock::TimeControl>,
    /// Open the variant editor: on a copy of a built-in, on a file, or (empty) on a new variant.
    pub editor: Option<String>,
}

/// A parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Start the game window.
    Game(GameArgs),
    /// Perft.
    Perft {
        /// Variant id.
        variant: String,
        /// FEN or `startpos`.
        fen: String,
        /// Depth in plies.
        depth: u32,
        /// Print the count per first move.
        divide: bool,
        /// A modifier profile (built-in id or `.ron` file).
        profile: Option<String>,
    },
    /// A balance run.
    Balance {
        /// Variant id, file or ini section.
        variant: String,
        /// Presets to switch on after the variant's own.
        presets: Vec<String>,
        /// How the run is played (`jobs` 0: the cores).
        settings: crate::ai::balance::Settings,
        /// Every figure as JSON.
        json: bool,
        /// Measure piece values (games per measurement: `settings.games`) instead.
        piece_values: bool,
    },
    /// Review a game from a PGN file.
    Review {
        /// The PGN file.
        file: String,
        /// Nodes a position.
        nodes: u64,
        /// JSON instead of PGN.
        json: bool,
    },
    /// List variant ids.
    ListVariants,
    /// List preset ids with their names.
    ListPresets,
    /// List the built-in modifier profiles.
    ListProfiles,
    /// Validate variant files.
    Check(Vec<String>),
    /// Convert a Fairy-Stockfish ini file into variant files.
    Import {
        /// The ini file.
        file: String,
        /// Where the variant files go.
        out: String,
    },
    /// Write variants as Fairy-Stockfish ini sections.
    Export {
        /// Catalogue ids or `.ron` files; empty with `all`.
        variants: Vec<String>,
        /// The section's name (one variant only); default: its id.
        name: Option<String>,
        /// Every catalogue variant.
        all: bool,
    },
    /// Speak UCI on standard input and output.
    Uci,
    /// Print usage.
    Help,
    /// Print the version.
    Version,
}

/// Parses the arguments after the program name.
///
/// # Errors
/// A message naming the bad argument, followed by the usage.
pub fn parse_args(args: &[String]) -> Result<Command, String> {
    let Some(first) = args.first() else {
        return Ok(Command::Game(GameArgs::default()));
    };
    match first.as_str() {
        a if a.starts_with("--") && a != "--help" && a != "--version" => {
            let mut game = GameArgs::default();
            let mut it = args.iter();
            while let Some(a) = it.next() {
                let mut value = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
                match a.as_str() {
                    "--variant" => game.variant = Some(value("--variant")?),
                    "--fen" => game.fen = Some(value("--fen")?),
                    "--profile" => game.profile = Some(value("--profile")?),
                    "--presets" => {
                        game.presets = value("--presets")?.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
                    }
                    "--moves" => game.moves = value("--moves")?.split_whitespace().map(String::from).collect(),
                    "--screenshot" => game.screenshot = Some(screenshot_path(&value("--screenshot")?)?),
                    "--screenshot-after" => {
                        let v = value("--screenshot-after")?;
                        game.screenshot_after =
                            Some(v.parse().map_err(|_| format!("--screenshot-after needs a number of frames, got '{v}'"))?);
                    }
                    "--bench-frames" => {
                        let v = value("--bench-frames")?;
                        game.bench_frames = Some(v.parse().map_err(|_| format!("--bench-frames needs a number of frames, got '{v}'"))?);
                    }
                    "--analyse" => game.analyse = true,
                    "--computer" => {
                        game.computer = match value("--computer")?.as_str() {
                            "white" => [true, false],
                            "black" => [false, true],
                            "both" => [true, true],
                            "none" => [false, false],
                            v => return Err(format!("--computer takes white, black, both or none, not '{v}'")),
                        }
                    }
                    "--level" => {
                        let v = value("--level")?;
                        let n: u8 = v.parse().map_err(|_| format!("--level takes 1 to 8, not '{v}'"))?;
                        if !(1..=8).contains(&n) {
                            return Err(format!("--level takes 1 to 8, not '{v}'"));
                        }
                        game.level = Some(n);
                    }
                    "--pace" => {
                        let v = value("--pace")?;
                        let x: f32 = v.parse().map_err(|_| format!("--pace takes seconds, not '{v}'"))?;
                        if !(0.0..=60.0).contains(&x) {
                            return Err(format!("--pace takes 0 to 60 seconds, not '{v}'"));
                        }
                        game.pace_ms = Some((x * 1000.0).round() as u32);
                    }
                    "--editor" => {
                        // The variant is optional: the next argument, unless it is an option.
                        let next = it.clone().next().filter(|n| !n.starts_with("--")).cloned();
                        if next.is_some() {
                            it.next();
                        }
                        game.editor = Some(next.unwrap_or_default());
                    }
                    "--clock" => {
                        let v = value("--clock")?;
                        game.clock = Some(crate::clock::TimeControl::parse(&v).map_err(|e| format!("--clock: {e}"))?);
                    }
                    "--until-ply" => {
                        let v = value("--until-ply")?;
                        game.until_ply = Some(v.parse().map_err(|_| format!("--until-ply takes a number of moves, not '{v}'"))?);
                    }
                    other => return Err(format!("unknown option '{other}'")),
                }
            }
            Ok(Command::Game(game))
        }
        "perft" => {
            let mut variant = "chess".to_string();
            let mut fen = "startpos".to_string();
            let mut depth = None;
            let mut divide = false;
            let mut profile = None;
            let mut it = args[1..].iter();
            while let Some(a) = it.next() {
                let mut value = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
                match a.as_str() {
                    "--variant" => variant = value("--variant")?,
                    "--fen" => fen = value("--fen")?,
                    "--depth" => {
                        let v = value("--depth")?;
                        let n = v.parse::<u32>().map_err(|_| format!("--depth '{v}' is not a whole number"))?;
                        if !(1..=MAX_PERFT_DEPTH).contains(&n) {
                            return Err(format!("--depth takes 1 to {MAX_PERFT_DEPTH}, not {n}"));
                        }
                        depth = Some(n);
                    }
                    "--divide" => divide = true,
                    "--profile" => profile = Some(value("--profile")?),
                    other => return Err(format!("unknown perft option '{other}'")),
                }
            }
            let depth = depth.ok_or("perft needs --depth <N>")?;
            Ok(Command::Perft { variant, fen, depth, divide, profile })
        }
        "balance" => {
            use crate::ai::balance::Strength;
            let (mut variant, mut presets, mut json, mut piece_values) = (None, Vec::new(), false, false);
            let mut strengths = 0;
            let mut settings = crate::ai::balance::Settings { jobs: 0, ..Default::default() };
            let mut it = args[1..].iter();
            while let Some(a) = it.next() {
                let mut number = |name: &str, max: u64| -> Result<u64, String> {
                    let v = it.next().ok_or_else(|| format!("{name} needs a value"))?;
                    let n = v.parse::<u64>().map_err(|_| format!("{name} '{v}' is not a whole number"))?;
                    if n > max {
                        return Err(format!("{name} takes at most {max}, not {n}"));
                    }
                    Ok(n)
                };
                match a.as_str() {
                    "--games" => settings.games = number("--games", 100_000)?.max(1) as usize,
                    "--nodes" => {
                        settings.strength = Strength::Nodes(number("--nodes", 100_000_000)?.max(1));
                        strengths += 1;
                    }
                    "--level" => {
                        let l = number("--level", u64::from(crate::ai::MAX_LEVEL))?;
                        if l == 0 {
                            return Err("--level is 1 to 8".into());
                        }
                        settings.strength = Strength::Level(l as u8);
                        strengths += 1;
                    }
                    "--movetime" => {
                        settings.strength = Strength::Movetime(number("--movetime", 600_000)?.max(1));
                        strengths += 1;
                    }
                    "--ply-cap" => settings.ply_cap = number("--ply-cap", 10_000)?.max(1) as usize,
                    "--band" => {
                        let v = it.next().ok_or("--band needs a value, e.g. 40-60")?;
                        let band = v.split_once('-').and_then(|(a, b)| Some((a.trim().parse::<u8>().ok()?, b.trim().parse::<u8>().ok()?)));
                        match band {
                            Some((lo, hi)) if lo < hi && hi <= 100 => settings.band = (lo, hi),
                            _ => return Err(format!("--band '{v}': say two per cents, low-high, e.g. 40-60")),
                        }
                    }
                    "--piece-values" => piece_values = true,
                    "--jobs" => settings.jobs = number("--jobs", 256)? as usize,
                    "--seed" => settings.seed = number("--seed", u64::MAX)?,
                    "--openings" => settings.openings = number("--openings", 40)? as usize,
                    "--json" => json = true,
                    "--presets" => {
                        let v = it.next().ok_or("--presets needs a value")?;
                        presets = v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
                    }
                    v if !v.starts_with("--") && variant.is_none() => variant = Some(v.to_string()),
                    other => return Err(format!("balance: unexpected '{other}'")),
                }
            }
            let variant = variant.ok_or("balance needs a variant, e.g. chimera balance chess --games 20")?;
            if strengths > 1 {
                return Err("balance: say one of --level, --movetime and --nodes".into());
            }
            Ok(Command::Balance { variant, presets, settings, json, piece_values })
        }
        "review" => {
            let (mut file, mut nodes, mut json) = (None, crate::ai::review::Budget::default().nodes, false);
            let mut it = args[1..].iter();
            while let Some(a) = it.next() {
                match a.as_str() {
                    "--nodes" => {
                        let v = it.next().ok_or("--nodes needs a value")?;
                        nodes = v
                            .parse::<u64>()
                            .ok()
                            .filter(|n| (1..=1_000_000_000).contains(n))
                            .ok_or_else(|| format!("--nodes '{v}': say 1 to 1000000000"))?;
                    }
                    "--json" => json = true,
                    f if !f.starts_with("--") && file.is_none() => file = Some(f.to_string()),
                    other => return Err(format!("review: unexpected '{other}'")),
                }
            }
            let file = file.ok_or("review needs a PGN file, e.g. chimera review game.pgn")?;
            Ok(Command::Review { file, nodes, json })
        }
        "list" => {
            let list = match args.get(1).map(String::as_str) {
                Some("variants") => Command::ListVariants,
                Some("presets") => Command::ListPresets,
                Some("profiles") => Command::ListProfiles,
                Some(other) => return Err(format!("list what? '{other}' is not variants, presets or profiles")),
                None => return Err("list what? say 'list variants', 'list presets' or 'list profiles'".into()),
            };
            no_more(&args[..2], &args[2..])?;
            Ok(list)
        }
        "check" => {
            if args.len() < 2 {
                return Err("check needs at least one file, e.g. chimera check presets/chess.ron".into());
            }
            Ok(Command::Check(args[1..].to_vec()))
        }
        "import" => {
            let mut file = None;
            let mut out = ".".to_string();
            let mut it = args[1..].iter();
            while let Some(a) = it.next() {
                match a.as_str() {
                    "--out" => out = it.next().cloned().ok_or("--out needs a directory")?,
                    f if !f.starts_with("--") && file.is_none() => file = Some(f.to_string()),
                    other => return Err(format!("import: unexpected '{other}'")),
                }
            }
            let file = file.ok_or("import needs an ini file, e.g. chimera import variants.ini --out my-variants")?;
            Ok(Command::Import { file, out })
        }
        "export" => {
            let (mut variants, mut name, mut all) = (Vec::new(), None, false);
            let mut it = args[1..].iter();
            while let Some(a) = it.next() {
                match a.as_str() {
                    "--name" => name = Some(it.next().cloned().ok_or("--name needs a section name")?),
                    "--all" => all = true,
                    v if !v.starts_with("--") => variants.push(v.to_string()),
                    other => return Err(format!("export: unexpected '{other}'")),
                }
            }
            if variants.is_empty() != all {
                return Err("export takes variant ids or files, or --all".into());
            }
            if name.is_some() && variants.len() != 1 {
                return Err("--name goes with one variant".into());
            }
            Ok(Command::Export { variants, name, all })
        }
        "uci" => no_more(&args[..1], &args[1..]).map(|()| Command::Uci),
        "help" | "--help" | "-h" => no_more(&args[..1], &args[1..]).map(|()| Command::Help),
        "--version" | "-V" | "version" => no_more(&args[..1], &args[1..]).map(|()| Command::Version),
        other => Err(format!("unknown command '{other}'")),
    }
}

/// An error naming the first of `extra`, words after a command (`command`) that takes no more.
fn no_more(command: &[String], extra: &[String]) -> Result<(), String> {
    match extra.first() {
        Some(word) => Err(format!("{}: unexpected '{word}'", command.join(" "))),
        None => Ok(()),
    }
}

/// Runs perft and writes its report; the last line is `Nodes searched: <N>`.
///
/// # Errors
/// An unknown variant or a bad FEN, as a message.
pub fn run_perft(variant: &str, fen: &str, depth: u32, divide: bool, profile: Option<&str>, out: &mut impl Write) -> Result<u64, String> {
    let variant = variants::find(variant).map_err(|e| format!("variant '{variant}': {e}"))?;
    let mut definition = crate::presets::GameDefinition::new(variant)?;
    if let Some(p) = profile {
        definition.profile = Some(crate::modifiers::load_profile(p)?);
    }
    let mut engine = definition.start(crate::presets::Start::Given(fen))?;
    let nodes = if divide && depth > 0 {
        let split = engine.divide(depth);
        for (uci, n) in &split {
            writeln!(out, "{uci}: {n}").map_err(|e| e.to_string())?;
        }
        writeln!(out).map_err(|e| e.to_string())?;
        split.iter().map(|(_, n)| n).sum()
    } else {
        engine.perft(depth)
    };
    writeln!(out, "Nodes searched: {nodes}").map_err(|e| e.to_string())?;
    Ok(nodes)
}

/// A balance run of `variant` (with `presets` switched on after its own), or its piece values
/// measured (`piece_values`), its progress on standard error, its report (words, or JSON) to
/// `out`.
///
/// # Errors
/// The variant cannot be found or does not start, or writing fails.
pub fn run_balance(
    variant: &str,
    presets: &[String],
    settings: &crate::ai::balance::Settings,
    json: bool,
    piece_values: bool,
    out: &mut impl Write,
) -> Result<(), String> {
    let mut variant = variants::find(variant).map_err(|e| format!("variant '{variant}': {e}"))?;
    for p in presets {
        variant.presets.push(crate::rules::PresetRequest { id: p.clone(), sides: [true, true], ..Default::default() });
    }
    let definition = crate::presets::GameDefinition::new(variant)?;
    let mut settings = settings.clone();
    if settings.jobs == 0 {
        settings.jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    }
    let stop = std::sync::atomic::AtomicBool::new(false);
    let started = std::time::Instant::now();
    let progress = |done: usize, total: usize| eprint!("\r{done}/{total} games, {:.0} s", started.elapsed().as_secs_f64());
    let text = if piece_values {
        let values = crate::ai::piece_values::measure_values(&definition, &settings, &stop, &progress)?;
        eprintln!();
        if json { format!("{:#}\n", values.json()) } else { values.text() }
    } else {
        let report = crate::ai::balance::run(&definition, &settings, &stop, &progress)?;
        eprintln!();
        if json { format!("{:#}\n", report.json()) } else { report.text() }
    };
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())
}

/// Reviews the game in the PGN file `file` at `nodes` a position ([`crate::ai::review`]):
/// writes the game to `out` as PGN with the review's marks and `[%eval]` comments (with
/// `json`, the review as JSON: [`crate::ai::review::Review::json`]), and each
/// side's count of inaccuracies, mistakes and blunders and its average centipawn loss to
/// `summary`. `progress(done, total)` follows the positions.
///
/// # Errors
/// A file that cannot be read, or a game that does not replay.
pub fn run_review(
    file: &str,
    nodes: u64,
    json: bool,
    out: &mut impl Write,
    summary: &mut impl Write,
    progress: impl FnMut(usize, usize),
) -> Result<crate::ai::review::Review, String> {
    use crate::ai::review::{Budget, review};
    use crate::rules::Side;
    let text = crate::rules::read_text(std::path::Path::new(file)).map_err(|e| format!("{file}: {e}"))?;
    let game = crate::pgn::parse_pgn(&text).map_err(|e| format!("{file}: {e}"))?;
    let (mut engine, id, presets) = crate::pgn::replay(&game).map_err(|e| format!("{file}: {e}"))?;
    let stop = std::sync::atomic::AtomicBool::new(false);
    let found = review(&mut engine, Budget { nodes }, &stop, progress).ok_or("the review was stopped")?;
    let start_fen = match game.tag("FEN") {
        Some(f) => f.to_string(),
        None => crate::pgn::definition_of(&game)?.0.start(crate::presets::Start::Given("startpos"))?.fen(),
    };
    let players = [game.tag("White").unwrap_or("?").to_string(), game.tag("Black").unwrap_or("?").to_string()];
    let date = game.tag("Date").unwrap_or("????.??.??").to_string();
    let text = if json {
        format!("{:#}\n", found.json())
    } else {
        crate::pgn::write_pgn_with(engine.world_mut(), &id, &presets, &start_fen, &date, &players, &[], Some(&found))
    };
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    for side in [Side::White, Side::Black] {
        let acpl = found.average_cp_loss(side).map_or("no moves".to_string(), |a| format!("average centipawn loss {a:.0}"));
        writeln!(summary, "{side:?}: {}; {acpl}", found.marks_in_words(side)).map_err(|e| e.to_string())?;
    }
    Ok(found)
}

/// Validates variant files; writes `ok <file>` or each problem as `<file>: <path>: <message> [<code>]`
/// (a file that cannot be read or parsed: `<file>: <error>`).
/// Returns whether all were valid.
pub fn run_check(files: &[String], out: &mut impl Write) -> bool {
    let mut all_ok = true;
    for f in files {
        // The start is judged as a game sets it up.
        let result = variants::load_path(std::path::Path::new(f)).and_then(|v| variants::playable(&v).map(|_| v));
        let written = match result {
            Ok(v) => {
                // The pieces' own pictures only warn: the variant plays with the set's pictures.
                let path = std::path::Path::new(f);
                let pictures =
                    variants::resolve_path(path).map(|file| variants::pictures::problems(&file, path.parent())).unwrap_or_default();
                writeln!(out, "ok {f} ({}, {}×{}, {} piece types)", v.name, v.geometry.files, v.geometry.ranks, v.registry.types.len())
                    .and_then(|()| pictures.iter().try_for_each(|p| writeln!(out, "{f}: warning: {p} [{}]", p.code)))
            }
            Err(variants::LoadError::Invalid(problems)) => {
                all_ok = false;
                problems.iter().try_for_each(|p| writeln!(out, "{f}: {p} [{}]", p.code))
            }
            Err(e) => {
                all_ok = false;
                let text = e.to_string();
                text.lines().try_for_each(|line| writeln!(out, "{f}: {line}"))
            }
        };
        if written.is_err() {
            return false;
        }
    }
    all_ok
}

/// Checks a `--screenshot` file name before the window opens: a `.png` in a folder that exists
/// (the window would otherwise only log that it could not save, and exit as if it had).
fn screenshot_path(path: &str) -> Result<String, String> {
    let p = std::path::Path::new(path);
    if !p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")) {
        return Err(format!("--screenshot saves a PNG: give a file name ending in .png, not '{path}'"));
    }
    let folder = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    if !folder.is_dir() {
        return Err(format!("--screenshot: the folder '{}' does not exist", folder.display()));
    }
    Ok(path.to_string())
}

/// Converts the sections of a Fairy-Stockfish ini file into variant files in `out`; writes a
/// line per section (`converted`, or `skipped` with each key that stops it). Returns how many
/// were converted and skipped.
///
/// # Errors
/// The file cannot be read or does not read as an ini file, or `out` cannot be written.
pub fn run_import(file: &str, out_dir: &str, out: &mut impl Write) -> Result<(usize, usize), String> {
    let text = crate::rules::read_text(std::path::Path::new(file)).map_err(|e| format!("{file}: {e}"))?;
    let sections = variants::fairy::import::import(&text).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(|e| format!("{file}: {e}")).collect();
        lines.join("\n")
    })?;
    std::fs::create_dir_all(out_dir).map_err(|e| format!("{out_dir}: {e}"))?;
    let (mut converted, mut skipped) = (0, 0);
    for s in &sections {
        let written = match &s.result {
            Ok(v) => {
                let path = std::path::Path::new(out_dir).join(format!("{}.ron", v.id));
                let ron = variants::write_variant_file(v).map_err(|e| format!("{}: {e}", s.name))?;
                let head = format!("// [{}] from {file}, converted by chimera import.\n", s.name);
                std::fs::write(&path, head + &ron + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
                converted += 1;
                match s.known_differences() {
                    Some(d) => writeln!(
                        out,
                        "converted [{}] -> {} (as Chimera plays {}: {d})",
                        s.name,
                        path.display(),
                        s.builtin_parent.as_deref().unwrap_or("")
                    ),
                    None => writeln!(out, "converted [{}] -> {}", s.name, path.display()),
                }
                .and_then(|()| s.notes.iter().try_for_each(|n| writeln!(out, "    note: {n}")))
            }
            Err(refusals) => {
                skipped += 1;
                let mut text = format!("skipped [{}] (line {}):", s.name, s.line);
                for r in refusals {
                    text.push_str(&format!("\n    {r}"));
                }
                writeln!(out, "{text}")
            }
        };
        written.map_err(|e| e.to_string())?;
    }
    writeln!(out, "{converted} converted, {skipped} skipped").map_err(|e| e.to_string())?;
    Ok((converted, skipped))
}

/// Writes each variant as a Fairy-Stockfish ini section to `out`, and what cannot be
/// expressed to `refused`. Returns how many were refused.
///
/// # Errors
/// A variant that does not load.
pub fn run_export(variants_in: &[String], name: Option<&str>, out: &mut impl Write, refused: &mut impl Write) -> Result<usize, String> {
    let mut count = 0;
    for v in variants_in {
        let file = if v.ends_with(".ron") {
            variants::resolve_path(std::path::Path::new(v)).map_err(|e| format!("{v}: {e}"))?
        } else {
            let f = variants::builtin_file(v).ok_or_else(|| format!("unknown variant '{v}'"))?;
            variants::resolve(f, &variants::builtin_file).map_err(|e| format!("{v}: {e}"))?
        };
        let section = name.map_or(file.id.clone(), String::from);
        match variants::fairy::export(&file, &section) {
            Ok(text) => writeln!(out, "{text}").map_err(|e| e.to_string())?,
            Err(why) => {
                count += 1;
                let reasons: Vec<String> = why.iter().map(ToString::to_string).collect();
                writeln!(refused, "not exported: {}: {}", file.id, reasons.join("; ")).map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(count)
}
