//! `chimera uci`: the engine over the UCI protocol, in Fairy-Stockfish's dialect, so that other
//! GUIs and match tools can play Chimera's variants, presets and variant files.
//!
//! Options: `UCI_Variant` (every catalogue id, plus Fairy-Stockfish's names where they differ),
//! `VariantPath` (a `.ron` variant file, which then takes precedence), `Presets`
//! (`piece-hp(hp=3,scope=white,turns=6),piece-shield`: parameters, scope and duration as in
//! variant files), `Profile` (a modifier profile: a built-in id or a `.ron` file),
//! `UCI_Chess960`, `Skill Level` (1–8, Chimera's levels), `Level Time Percent`
//! (a bare `go` thinks for the level's own time per move, scaled by it), `Hash` (MB) and
//! `MultiPV` (1–16 lines a depth, each `info … multipv k … pv …`, best first: the root is
//! searched again without the moves of the lines found). `go searchmoves m1 m2 …` searches only
//! those moves; every `info` line says `hashfull` (thousandths of the table written by this
//! search, sampled over its first thousand slots).
//! Moves are read and written in the dialect Fairy-Stockfish speaks: drops `P@e4`, gating as a
//! fifth letter, `+` promotions, a pass as the king moving to its own square, king-to-rook
//! castling in Chess960 mode. The search runs on its own thread; `stop`, `isready` and `quit`
//! are answered while it thinks. Bad input gets an `info string` naming the problem and never
//! ends the engine.
//!
//! Layer: uses `rules` to `save`.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::ai::{Clock, Computer, Info, Limits, SearchResult};
use crate::presets::{GameDefinition, Start};
use crate::rules::{Engine, PresetRequest, Side, Variant, to_uci};

/// Where the engine writes: shared between the command loop and the search thread.
pub type Output = Arc<Mutex<dyn Write + Send>>;

fn say(out: &Output, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// Fairy-Stockfish's names for catalogue variants whose ids differ.
const ALIASES: &[(&str, &str)] = &[("fischerandom", "chess960"), ("chess960", "chess960")];

/// The engine's settings and position.
struct Session {
    out: Output,
    variant_id: String,
    variant_path: Option<String>,
    presets: Vec<PresetRequest>,
    presets_text: String,
    /// A modifier profile (built-in id or `.ron` file), as RON text, with its name.
    profile: Option<(String, String)>,
    chess960: bool,
    level: u8,
    /// The level's own time per move (used by a bare `go`) is scaled by this, in percent.
    level_time_percent: u32,
    hash_mb: usize,
    /// Lines a search reports (`MultiPV`).
    multipv: usize,
    game: Option<Engine>,
    /// The game the settings define, resolved at the first `position` after they change.
    definition: Option<GameDefinition>,
    /// The settings the current computer was made for.
    computer_key: String,
    computer: Option<Computer>,
    search: Option<(JoinHandle<Computer>, Arc<AtomicBool>)>,
}

impl Session {
    fn new(out: Output) -> Session {
        Session {
            out,
            variant_id: "chess".into(),
            variant_path: None,
            presets: Vec::new(),
            presets_text: String::new(),
            profile: None,
            chess960: false,
            level: crate::ai::MAX_LEVEL,
            level_time_percent: 100,
            hash_mb: 16,
            multipv: 1,
            game: None,
            definition: None,
            computer_key: String::new(),
            computer: None,
            search: None,
        }
    }

    /// An `info string`, cut to 200 bytes: it may quote input, which can be long.
    fn info(&self, text: &str) {
        let cut = text.char_indices().map(|(i, _)| i).find(|&i| i > 200);
        match cut {
            Some(at) => say(&self.out, &format!("info string {}…", &text[..at])),
            None => say(&self.out, &format!("info string {text}")),
        }
    }

    /// The variant the settings name, with the presets switched on.
    fn variant(&self) -> Result<Variant, String> {
        let mut v = match &self.variant_path {
            Some(path) => crate::variants::find(path).map_err(|e| format!("variant file '{path}': {e}"))?,
            None => {
                let id = ALIASES.iter().find(|(fs, _)| *fs == self.variant_id).map_or(self.variant_id.as_str(), |(_, id)| id);
                let id = if self.chess960 && id == "chess" { "chess960" } else { id };
                crate::variants::builtin(id).map_err(|e| format!("variant '{id}': {e}"))?
            }
        };
        v.presets.extend(self.presets.iter().cloned());
        if let Some((_, ron)) = &self.profile {
            v.profile = Some(ron.clone());
        }
        Ok(v)
    }

    fn key(&self) -> String {
        let profile = self.profile.as_ref().map(|(name, _)| name.as_str());
        format!("{}|{:?}|{}|{:?}|{}|{}", self.variant_id, self.variant_path, self.presets_text, profile, self.chess960, self.level)
    }

    fn variant_names() -> Vec<String> {
        let mut names: Vec<String> = crate::variants::builtin_ids().map(String::from).collect();
        for (fs, _) in ALIASES {
            if !names.iter().any(|n| n == fs) {
                names.push(fs.to_string());
            }
        }
        names
    }

    fn uci(&self) {
        say(&self.out, &format!("id name Chimera {}", env!("CARGO_PKG_VERSION")));
        say(&self.out, "id author the Chimera developers");
        let vars: String = Self::variant_names().iter().map(|v| format!(" var {v}")).collect();
        say(&self.out, &format!("option name UCI_Variant type combo default chess{vars}"));
        say(&self.out, "option name VariantPath type string default <empty>");
        say(&self.out, "option name Presets type string default <empty>");
        say(&self.out, "option name Profile type string default <empty>");
        say(&self.out, "option name UCI_Chess960 type check default false");
        say(&self.out, &format!("option name Skill Level type spin default {} min 1 max {}", crate::ai::MAX_LEVEL, crate::ai::MAX_LEVEL));
        say(&self.out, "option name Level Time Percent type spin default 100 min 1 max 100");
        say(&self.out, "option name Hash type spin default 16 min 1 max 1024");
        say(&self.out, &format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"));
        say(&self.out, "uciok");
    }

    fn setoption(&mut self, rest: &str) {
        let Some(rest) = rest.trim().strip_prefix("name ") else {
            return self.info("setoption needs 'name <option> [value <value>]'");
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        self.definition = None;
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let known = Self::variant_names().iter().any(|n| n == value);
                if known {
                    self.variant_id = value.to_string();
                    self.variant_path = None;
                    self.game = None;
                } else {
                    self.info(&format!("unknown variant '{value}'; the variant stays {}", self.variant_id));
                }
            }
            "variantpath" => {
                if value.is_empty() || value == "<empty>" {
                    self.variant_path = None;
                } else {
                    match crate::variants::find(value) {
                        Ok(_) => self.variant_path = Some(value.to_string()),
                        Err(e) => self.info(&format!("variant file '{value}': {}", e.to_string().replace('\n', "; "))),
                    }
                }
                self.game = None;
            }
            "presets" => match parse_presets(value) {
                Ok(p) => {
                    self.presets = p;
                    self.presets_text = value.to_string();
                    self.game = None;
                }
                Err(e) => self.info(&format!("presets '{value}': {e}")),
            },
            "profile" => {
                if value.is_empty() || value == "<empty>" {
                    self.profile = None;
                    self.game = None;
                } else {
                    match crate::modifiers::load_profile(value) {
                        Ok(p) => {
                            self.profile = Some((value.to_string(), p.to_ron()));
                            self.game = None;
                        }
                        Err(e) => self.info(&format!("profile '{value}': {e}")),
                    }
                }
            }
            "uci_chess960" => match value {
                "true" => self.chess960 = true,
                "false" => self.chess960 = false,
                other => self.info(&format!("UCI_Chess960 takes true or false, not '{other}'")),
            },
            "skill level" => match value.parse::<i64>() {
                Ok(n) => self.level = n.clamp(1, crate::ai::MAX_LEVEL as i64) as u8,
                Err(_) => self.info(&format!("Skill Level takes a number from 1 to {}, not '{value}'", crate::ai::MAX_LEVEL)),
            },
            "level time percent" => match value.parse::<u32>() {
                Ok(n) => self.level_time_percent = n.clamp(1, 100),
                Err(_) => self.info(&format!("Level Time Percent takes 1 to 100, not '{value}'")),
            },
            "hash" => match value.parse::<usize>() {
                Ok(n) => {
                    self.hash_mb = n.clamp(1, 1024);
                    self.computer = None;
                }
                Err(_) => self.info(&format!("Hash takes a size in MB, not '{value}'")),
            },
            "multipv" => match value.parse::<usize>() {
                Ok(n) => self.multipv = n.clamp(1, MAX_MULTIPV),
                Err(_) => self.info(&format!("MultiPV takes 1 to {MAX_MULTIPV}, not '{value}'")),
            },
            _ => self.info(&format!("no option '{name}'")),
        }
    }

    fn position(&mut self, rest: &str) {
        let rest = rest.trim();
        let (fen, moves) = if let Some(after) = rest.strip_prefix("startpos") {
            ("startpos".to_string(), after.trim().strip_prefix("moves").unwrap_or(""))
        } else if let Some(after) = rest.strip_prefix("fen ") {
            match after.split_once(" moves") {
                Some((fen, moves)) => (fen.trim().to_string(), moves),
                None => (after.trim().to_string(), ""),
            }
        } else {
            return self.info("position needs 'startpos' or 'fen <FEN>', then optionally 'moves ...'");
        };
        if self.definition.is_none() {
            match self.variant().and_then(GameDefinition::new) {
                Ok(d) => self.definition = Some(d),
                Err(e) => return self.info(&e),
            }
        }
        let Some(definition) = &self.definition else { return };
        let mut game = match definition.start(Start::Given(&fen)) {
            Ok(g) => g,
            Err(e) => return self.info(&format!("bad position '{fen}': {e}; the position is unchanged")),
        };
        // The moves are played while they are legal, past a rule's end of the game too (a
        // repetition, the move rule, bare kings): over UCI the GUI adjudicates, as with
        // Fairy-Stockfish.
        for m in moves.split_whitespace() {
            // (`parse_uci` reads a legal move only; `apply` would refuse once a rule ended the game.)
            if let Err(e) = game.parse_uci(m).and_then(|mv| game.apply_unchecked(mv)) {
                self.info(&format!("{e}; moves from '{m}' on are ignored"));
                break;
            }
        }
        self.game = Some(game);
    }

    fn go(&mut self, rest: &str) {
        self.stop();
        if self.game.is_none() {
            self.position("startpos");
        }
        let Some(game) = &self.game else {
            self.info("no position to search");
            return say(&self.out, "bestmove (none)");
        };
        let (mut limits, mut problems, searchmoves) = parse_go(rest, game.state().turn);
        limits.past_the_end = true;
        limits.multipv = self.multipv;
        // The moves `searchmoves` names, in this position; a word that is not one is reported.
        let mut reader = (!searchmoves.is_empty()).then(|| game.fork());
        for word in searchmoves {
            let Some(reader) = reader.as_mut() else { break };
            match reader.parse_uci(&word) {
                Ok(m) => limits.searchmoves.push(m),
                Err(e) => problems.push(format!("searchmoves '{word}': {e}")),
            }
        }
        let bare = limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() && limits.clock.is_none();
        if bare && !limits.infinite {
            // A bare `go`: the level's own time per move, scaled.
            let own = crate::ai::level(self.level).movetime;
            limits.movetime = Some(own * self.level_time_percent / 100);
        }
        for p in problems {
            self.info(&p);
        }
        let key = self.key();
        if self.computer.is_none() || self.computer_key != key {
            let mut c = Computer::new(game, self.level);
            c.memory = crate::ai::SearchMemory::new(self.hash_mb);
            self.computer = Some(c);
            self.computer_key = key;
        }
        let Some(mut computer) = self.computer.take() else { return };
        computer.level = self.level;
        let mut fork = game.fork();
        let variant = game.variant().clone();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let out = self.out.clone();
        let infinite = limits.infinite;
        let handle = std::thread::spawn(move || {
            let result: SearchResult = computer.think_on(&mut fork, limits, &flag, |info| say(&out, &info_line(&variant, info)));
            // In infinite mode the best move waits for `stop`.
            while infinite && !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(5));
            }
            let best = match result.best {
                Some(m) => to_uci(&variant, &m),
                None => "(none)".to_string(),
            };
            say(&out, &format!("bestmove {best}"));
            computer
        });
        self.search = Some((handle, stop));
    }

    /// Stops a running search (it prints its best move) and takes the computer back.
    fn stop(&mut self) {
        if let Some((handle, flag)) = self.search.take() {
            flag.store(true, Ordering::Relaxed);
            if let Ok(c) = handle.join() {
                self.computer = Some(c);
            }
        }
    }

    fn newgame(&mut self) {
        self.stop();
        if let Some(c) = &mut self.computer {
            c.memory.clear();
        }
        self.game = None;
    }

    fn show(&mut self) {
        match &mut self.game {
            Some(g) => {
                let fen = g.fen();
                say(&self.out, &format!("info string fen {fen}"));
            }
            None => self.info("no position yet"),
        }
    }

    /// Handles one line; returns false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match word {
            "" => {}
            "uci" => self.uci(),
            "isready" => say(&self.out, "readyok"),
            "ucinewgame" => self.newgame(),
            "setoption" => {
                self.stop();
                self.setoption(rest);
            }
            "position" => {
                self.stop();
                self.position(rest);
            }
            "go" => self.go(rest),
            "stop" => self.stop(),
            "d" => self.show(),
            "quit" => {
                self.stop();
                return false;
            }
            other => self.info(&format!("unknown command '{other}'")),
        }
        true
    }
}

/// The most lines `MultiPV` asks for.
pub const MAX_MULTIPV: usize = 16;

/// Parses `go`'s arguments into limits for the side `turn`, the words after `searchmoves` (to
/// be read as moves in the position), and the unknown or malformed words, which are skipped.
fn parse_go(rest: &str, turn: Side) -> (Limits, Vec<String>, Vec<String>) {
    let mut searchmoves = Vec::new();
    let mut limits = Limits::default();
    let mut problems = Vec::new();
    let mut clock = Clock::default();
    let mut has_clock = false;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let mut i = 0;
    let (mine, inc) = if turn == Side::White { ("wtime", "winc") } else { ("btime", "binc") };
    while i < words.len() {
        let w = words[i];
        let takes_value = matches!(
            w,
            "depth" | "nodes" | "movetime" | "wtime" | "btime" | "winc" | "binc" | "movestogo" | "byoyomi" | "mate" | "wdelay" | "bdelay"
        );
        if w == "infinite" {
            limits.infinite = true;
            i += 1;
            continue;
        }
        if w == "ponder" {
            problems.push("'go ponder' is not supported; ignored".to_string());
            i += 1;
            continue;
        }
        if w == "searchmoves" {
            // The moves run to the next keyword (or the end).
            i += 1;
            while i < words.len() && !is_go_keyword(words[i]) {
                searchmoves.push(words[i].to_string());
                i += 1;
            }
            continue;
        }
        if !takes_value {
            problems.push(format!("unknown go parameter '{w}'"));
            i += 1;
            continue;
        }
        let Some(value) = words.get(i + 1).and_then(|v| v.parse::<i64>().ok()) else {
            problems.push(format!("go {w} needs a number"));
            i += 2;
            continue;
        };
        let ms = Duration::from_millis(value.max(0) as u64);
        match w {
            "depth" => limits.depth = Some(value.clamp(1, 100) as u32),
            "nodes" => limits.nodes = Some(value.max(1) as u64),
            "movetime" => limits.movetime = Some(ms),
            "movestogo" => clock.moves_to_go = Some(value.clamp(1, 1000) as u32),
            "byoyomi" => {
                clock.byoyomi = ms;
                has_clock = true;
            }
            "mate" => limits.depth = Some((2 * value).clamp(1, 100) as u32),
            _ if w == mine => {
                clock.remaining = ms;
                has_clock = true;
            }
            _ if w == inc => clock.increment = ms,
            "wdelay" | "bdelay" if w.starts_with(if turn == Side::White { 'w' } else { 'b' }) => clock.delay = ms,
            _ => {}
        }
        i += 2;
    }
    if has_clock {
        limits.clock = Some(clock);
    }
    (limits, problems, searchmoves)
}

/// Whether `word` starts another of `go`'s parameters.
fn is_go_keyword(word: &str) -> bool {
    matches!(
        word,
        "depth"
            | "nodes"
            | "movetime"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "byoyomi"
            | "mate"
            | "wdelay"
            | "bdelay"
            | "infinite"
            | "ponder"
            | "searchmoves"
    )
}

/// Parses `piece-hp(hp=3,scope=white,turns=6),piece-shield`.
pub fn parse_presets(text: &str) -> Result<Vec<PresetRequest>, String> {
    let text = text.trim();
    if text.is_empty() || text == "<empty>" {
        return Ok(Vec::new());
    }
    let mut items = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Err("a ')' without its '('".into()),
            ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err("a '(' without its ')'".into());
    }
    items.push(&text[start..]);
    let mut out = Vec::new();
    for item in items {
        let item = item.trim();
        let (id, args) = match item.split_once('(') {
            Some((id, args)) => (id.trim(), args.strip_suffix(')').ok_or_else(|| format!("'{item}' should end with ')'"))?),
            None => (item, ""),
        };
        if crate::presets::by_id(id).is_none() {
            return Err(format!("no preset '{id}' (chimera list presets names them)"));
        }
        let mut request = PresetRequest { id: id.to_string(), sides: [true, true], ..Default::default() };
        for arg in args.split(',').map(str::trim).filter(|a| !a.is_empty()) {
            let (k, v) = arg.split_once('=').ok_or_else(|| format!("'{arg}' in {id} should be name=value"))?;
            let (k, v) = (k.trim(), v.trim());
            match k {
                "scope" => {
                    request.sides = match v {
                        "white" => [true, false],
                        "black" => [false, true],
                        "both" => [true, true],
                        _ => return Err(format!("scope of {id} is white, black or both, not '{v}'")),
                    }
                }
                "turns" => request.turns = Some(v.parse().map_err(|_| format!("turns of {id} is a whole number, not '{v}'"))?),
                _ => {
                    let x: f64 = v.parse().map_err(|_| format!("{k} of {id} is a number, not '{v}'"))?;
                    if !x.is_finite() {
                        return Err(format!("{k} of {id} must be finite"));
                    }
                    request.params.insert(k.to_string(), x);
                }
            }
        }
        out.push(request);
    }
    let set: Vec<crate::presets::Activation> = out
        .iter()
        .filter_map(|r| {
            let def = crate::presets::by_id(&r.id)?;
            Some(crate::presets::Activation {
                id: def.id,
                params: r.params.clone(),
                scope: crate::presets::Scope::Both,
                turns_left: r.turns,
            })
        })
        .collect();
    crate::presets::validate(&set).map_err(|e| e.to_string())?;
    Ok(out)
}

/// A UCI `info` line for a finished iteration.
pub fn info_line(variant: &Variant, info: &Info) -> String {
    let score = match info.mate_in() {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", info.score),
    };
    let ms = info.elapsed.as_millis().max(1);
    let nps = info.nodes as u128 * 1000 / ms;
    let pv: Vec<String> = info.pv.iter().map(|m| to_uci(variant, m)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {score} nodes {} nps {nps} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv.max(1),
        info.nodes,
        info.hashfull,
        info.elapsed.as_millis(),
        pv.join(" ")
    )
    .trim_end()
    .to_string()
}

/// The longest line read, in bytes: a `position` with thousands of moves fits many times over.
/// A longer line is skipped whole, with an `info string` giving its length.
pub const MAX_LINE: usize = 1 << 20;

/// One line of input, or a line over [`MAX_LINE`] bytes (skipped unread), with its length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line, without its end.
    Line(String),
    /// A line this many bytes long, over the limit.
    TooLong(usize),
}

impl From<String> for Input {
    fn from(line: String) -> Self {
        Input::Line(line)
    }
}

impl From<&str> for Input {
    fn from(line: &str) -> Self {
        Input::Line(line.into())
    }
}

/// Runs the protocol on the lines of `input` until `quit` or the end of input, writing to
/// `out`. At the end of input a running search is stopped and its best move printed.
pub fn run<L: Into<Input>>(input: impl IntoIterator<Item = L>, out: Output) {
    let mut session = Session::new(out);
    for line in input {
        let line = match line.into() {
            Input::Line(line) => line,
            Input::TooLong(len) => {
                session.info(&format!("a line of {len} bytes was skipped: lines are read up to {MAX_LINE} bytes"));
                continue;
            }
        };
        if !session.command(&line) {
            return;
        }
    }
    session.stop();
}

/// The lines of a reader (invalid UTF-8 replaced), ending at the end of input or the first
/// read error. A line over [`MAX_LINE`] bytes is read past without being kept.
pub fn lines(mut input: impl BufRead) -> impl Iterator<Item = Input> {
    std::iter::from_fn(move || read_line(&mut input, MAX_LINE).ok().flatten())
}

/// Reads one line of at most `cap` bytes; `None` at the end of input.
fn read_line(input: &mut impl BufRead, cap: usize) -> std::io::Result<Option<Input>> {
    let (mut kept, mut len, mut ended) = (Vec::new(), 0usize, false);
    while !ended {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            if len == 0 {
                return Ok(None);
            }
            break;
        }
        let (part, used) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1),
            None => (chunk, chunk.len()),
        };
        ended = used > part.len();
        len += part.len();
        if len <= cap {
            kept.extend_from_slice(part);
        } else {
            kept = Vec::new();
        }
        input.consume(used);
    }
    if len > cap {
        return Ok(Some(Input::TooLong(len)));
    }
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    Ok(Some(Input::Line(String::from_utf8_lossy(&kept).into_owned())))
}
