//! Fairy-Stockfish's `variants.ini` sections as Chimera variant files.
//!
//! Each section's keys are resolved first: its parent's keys (a section before it in the file,
//! or one of Fairy-Stockfish's built-ins through the table in [`super::BUILTIN_PARENTS`], whose
//! keys are the Chimera catalogue variant's, exported), overlaid with its own. The resolved keys
//! are then built into one self-contained [`VariantFile`] (no `extends`), key by key. Every key
//! must be understood: a key Chimera does not know, or a value it cannot express, is a
//! [`Refusal`] naming the section, the key and its line, and the section is skipped. Nothing
//! is guessed. `presets/README.md` has the table of keys and what they become.
//!
//! Fairy-Stockfish's defaults (its "fairy" template, standard chess without pieces) apply to
//! every key a section and its parents leave out.

use std::collections::{BTreeMap, BTreeSet};

use super::ini::{self, Section};
use super::{Keys, PIECE_NAMES, Val};
use crate::rules::Verdict;
use crate::variants::{
    BlastSpec, BoardSpec, CastlingSpec, DropsSpec, EndSpec, INI_LACKING, IniSwitch, PiecePromotionSpec, PieceSpec, PromotionSpec,
    RegionSpec, RuleSwitch, SWITCHES, ShuffleSpec, VariantFile,
};

/// Why a section was not converted: which key, on which line, and what Chimera lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The key (or `[parent]` for an unknown parent).
    pub key: String,
    /// Its line in the file; `None` for keys that come from a built-in parent.
    pub line: Option<usize>,
    /// What cannot be expressed.
    pub message: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}: {}", self.key, self.message),
            None => write!(f, "{} (from the parent): {}", self.key, self.message),
        }
    }
}

/// One section, imported or not.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The section's name.
    pub name: String,
    /// The line of its header.
    pub line: usize,
    /// The variant file, or why not.
    pub result: Result<VariantFile, Vec<Refusal>>,
    /// The Fairy-Stockfish built-in it descends from, if any.
    pub builtin_parent: Option<String>,
    /// Keys of a converted section that Fairy-Stockfish reads otherwise than they say, and the
    /// conversion reads as it does (a Betza on a predefined piece, which it ignores).
    pub notes: Vec<Refusal>,
}

impl Imported {
    /// Where the converted variant is known to play unlike Fairy-Stockfish's, from the rules of
    /// the built-in it descends from (see [`super::known_differences`]).
    pub fn known_differences(&self) -> Option<&'static str> {
        self.builtin_parent.as_deref().and_then(super::known_differences)
    }
}

/// Imports every section of an ini text.
///
/// # Errors
/// Lines that do not read as an ini file.
pub fn import(text: &str) -> Result<Vec<Imported>, Vec<ini::IniError>> {
    let sections = ini::parse(text.strip_prefix('\u{feff}').unwrap_or(text))?;
    let mut resolved: BTreeMap<String, Result<Keys, Vec<Refusal>>> = BTreeMap::new();
    let mut roots: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut ids: BTreeMap<String, (String, usize)> = BTreeMap::new();
    let mut out = Vec::new();
    for section in &sections {
        // Fairy-Stockfish keeps the first section of a name; two sections may not share a file.
        let id = id_of(&section.name);
        let clash = if resolved.contains_key(&section.name) {
            Some(format!("a section [{}] comes before it; Fairy-Stockfish keeps the first", section.name))
        } else {
            ids.get(&id).map(|(other, line)| format!("its file name {id}.ron is taken by [{other}] (line {line})"))
        };
        if let Some(message) = clash {
            let refusal = Refusal { key: format!("[{}]", section.name), line: Some(section.line), message };
            out.push(Imported {
                name: section.name.clone(),
                line: section.line,
                result: Err(vec![refusal]),
                builtin_parent: None,
                notes: Vec::new(),
            });
            continue;
        }
        ids.insert(id, (section.name.clone(), section.line));
        let root = match &section.parent {
            Some(p) => roots.get(p).cloned().unwrap_or_else(|| Some(p.clone())),
            None => None,
        };
        roots.insert(section.name.clone(), root.clone());
        let keys = resolve(section, &resolved);
        resolved.insert(section.name.clone(), keys.clone());
        let mut notes = Vec::new();
        let result = keys.and_then(|k| build(&section.name, k)).and_then(|(file, n)| {
            notes = n;
            match crate::variants::compile(&file).and_then(|v| crate::variants::playable(&v)) {
                Ok(_) => Ok(file),
                // A file that does not load is not converted: what the loader says is the reason.
                Err(e) => Err(vec![Refusal {
                    key: format!("[{}]", section.name),
                    line: Some(section.line),
                    message: format!("the converted variant does not load: {e}"),
                }]),
            }
        });
        if result.is_err() {
            notes.clear();
        }
        out.push(Imported { name: section.name.clone(), line: section.line, result, builtin_parent: root, notes });
    }
    Ok(out)
}

/// The section's keys over its parent's.
fn resolve(section: &Section, before: &BTreeMap<String, Result<Keys, Vec<Refusal>>>) -> Result<Keys, Vec<Refusal>> {
    let mut keys = match &section.parent {
        None => Keys::default(),
        Some(parent) => match before.get(parent) {
            Some(Ok(k)) => k.clone(),
            Some(Err(refusals)) => {
                let mut r = vec![Refusal {
                    key: format!("[{}:{parent}]", section.name),
                    line: Some(section.line),
                    message: format!("its parent '{parent}' is not converted"),
                }];
                r.extend(refusals.iter().cloned());
                return Err(r);
            }
            None => super::builtin_parent_keys(parent)
                .map_err(|message| vec![Refusal { key: format!("[{}:{parent}]", section.name), line: Some(section.line), message }])?,
        },
    };
    for e in &section.entries {
        let val = Val { value: e.value.clone(), line: Some(e.line) };
        if super::is_piece_key(&e.key) {
            // A letter names one piece type: a new definition replaces the inherited one.
            let letter = piece_letter(&e.value);
            if letter.is_some() {
                let taken: Vec<String> = keys
                    .iter()
                    .filter(|(k, v)| super::is_piece_key(k) && piece_letter(&v.value) == letter)
                    .map(|(k, _)| k.clone())
                    .collect();
                for k in taken {
                    keys.remove(&k);
                }
            }
        }
        // Fairy-Stockfish sets the promoted type of each piece named and keeps the others: a
        // child's list is read after its parent's.
        let val = match keys.get(&e.key) {
            Some(parent) if e.key == "promotedPieceType" => Val { value: format!("{} {}", parent.value, val.value), ..val },
            _ => val,
        };
        keys.insert(e.key.clone(), val);
    }
    Ok(keys)
}

/// The letter of a piece key's value (`n`, `a:BN`), lower case; `None` for `-` (none).
fn piece_letter(value: &str) -> Option<char> {
    let letter = value.split(':').next()?.trim();
    let mut chars = letter.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Some(c.to_ascii_lowercase()),
        _ => None,
    }
}

/// Reads keys, remembering which were used and what could not be expressed.
struct Reader {
    keys: Keys,
    used: BTreeSet<String>,
    refusals: Vec<Refusal>,
    /// What is read as Fairy-Stockfish reads it, though the key says otherwise.
    notes: Vec<Refusal>,
    files: u8,
    ranks: u8,
}

impl Reader {
    fn get(&mut self, key: &str) -> Option<Val> {
        let v = self.keys.get(key).cloned();
        if v.is_some() {
            self.used.insert(key.to_string());
        }
        v
    }

    fn refuse(&mut self, key: &str, line: Option<usize>, message: impl Into<String>) {
        self.refusals.push(Refusal { key: key.to_string(), line, message: message.into() });
    }

    fn note(&mut self, key: &str, line: Option<usize>, message: impl Into<String>) {
        self.notes.push(Refusal { key: key.to_string(), line, message: message.into() });
    }

    fn line(&self, key: &str) -> Option<usize> {
        self.keys.get(key).and_then(|v| v.line)
    }

    fn bool(&mut self, key: &str, default: bool) -> bool {
        match self.get(key) {
            None => default,
            Some(v) => match v.value.as_str() {
                "true" => true,
                "false" => false,
                other => {
                    self.refuse(key, v.line, format!("'{other}' is not true or false"));
                    default
                }
            },
        }
    }

    /// A whole number from `lo` to `hi`; another value is refused (and the default used).
    fn int_in(&mut self, key: &str, default: u32, lo: u32, hi: u32) -> u32 {
        let n = self.int(key, default);
        if !(lo..=hi).contains(&n) {
            let line = self.line(key);
            self.refuse(key, line, format!("{n} is out of range ({lo} to {hi})"));
            return default;
        }
        n
    }

    fn int(&mut self, key: &str, default: u32) -> u32 {
        match self.get(key) {
            None => default,
            Some(v) => v.value.parse().unwrap_or_else(|_| {
                self.refuse(key, v.line, format!("'{}' is not a whole number", v.value));
                default
            }),
        }
    }

    /// A key Chimera cannot express unless it holds its default value.
    fn only_default(&mut self, key: &str, default: &str, why: &str) {
        if let Some(v) = self.get(key)
            && v.value != default
        {
            self.refuse(key, v.line, format!("'{}': {why}", v.value));
        }
    }

    /// A file: a letter `a`… or a number from 1.
    fn file(&mut self, key: &str, default: u8) -> u8 {
        match self.get(key) {
            None => default,
            Some(v) => match parse_file(&v.value) {
                Some(f) => f,
                None => {
                    self.refuse(key, v.line, format!("'{}' is not a file", v.value));
                    default
                }
            },
        }
    }

    /// A set of piece letters (`nbrq`, `*` for all, `-` for none), upper case.
    fn letters(&mut self, key: &str, default: &str, all: &str) -> String {
        match self.get(key) {
            None => default.to_string(),
            Some(v) => self.letter_set(key, &v, all),
        }
    }

    fn letter_set(&mut self, key: &str, v: &Val, all: &str) -> String {
        let text = v.value.trim();
        if text == "*" {
            return all.to_string();
        }
        if text == "-" || text.is_empty() {
            return String::new();
        }
        let mut out = String::new();
        for c in text.chars().filter(|c| !c.is_whitespace()) {
            let up = c.to_ascii_uppercase();
            if !all.contains(up) {
                // A letter of no piece type names nothing for Fairy-Stockfish (a set inherited
                // from the parent may name a type the child removed).
                if v.line.is_some() {
                    self.note(key, v.line, format!("'{c}' is not one of the variant's pieces; it names nothing, as in Fairy-Stockfish"));
                }
            } else if !out.contains(up) {
                out.push(up);
            }
        }
        out
    }

    /// A region: squares (`d4 e5`), whole ranks (`*1`) or files (`a*`); `None` when absent.
    fn squares(&mut self, key: &str) -> Option<BTreeSet<(u8, u8)>> {
        let v = self.get(key)?;
        let (set, bad) = self.region(&v);
        for token in bad {
            self.refuse(key, v.line, format!("'{token}' is not a square"));
        }
        Some(set)
    }

    /// A region's squares on this board, and the tokens that are not squares.
    fn region<'v>(&self, v: &'v Val) -> (BTreeSet<(u8, u8)>, Vec<&'v str>) {
        let (mut set, mut bad) = (BTreeSet::new(), Vec::new());
        for token in v.value.split_whitespace().filter(|t| *t != "-") {
            // Squares off the board do not exist for Fairy-Stockfish either (its regions are
            // masked by the board): they are left out.
            match parse_squares(token, 16, 16) {
                Some(s) => set.extend(s.into_iter().filter(|&(f, r)| f < self.files && r < self.ranks)),
                None => bad.push(token),
            }
        }
        (set, bad)
    }

    /// A verdict (`win`, `loss`, `draw`); `None` for `none`.
    fn verdict(&mut self, key: &str, default: Option<Verdict>) -> Option<Verdict> {
        match self.get(key) {
            None => default,
            Some(v) => match v.value.as_str() {
                "win" => Some(Verdict::Win),
                "loss" => Some(Verdict::Loss),
                "draw" => Some(Verdict::Draw),
                "none" => None,
                other => {
                    self.refuse(key, v.line, format!("'{other}' is not win, loss, draw or none"));
                    default
                }
            },
        }
    }

    /// The ranks (1 = the side's own back rank) one side's region covers, when it is whole
    /// ranks (`default` absolute ranks where the key is left out).
    fn one_side_ranks(&mut self, key: &str, default: &[u8], black: bool) -> Option<Vec<u8>> {
        let set = self.squares(key).unwrap_or_else(|| self.rank_rows(default));
        if !whole_ranks(&set, self.files) {
            let line = self.line(key);
            self.refuse(key, line, "a region that is not whole ranks; Chimera takes ranks here");
            return None;
        }
        Some(own_ranks(&set, self.ranks, black))
    }

    /// The squares of whole ranks given in absolute ranks (1 = white's back rank), those on
    /// the board.
    fn rank_rows(&self, absolute: &[u8]) -> BTreeSet<(u8, u8)> {
        let (files, ranks) = (self.files, self.ranks);
        absolute.iter().filter(|&&r| r >= 1 && r <= ranks).flat_map(|&r| (0..files).map(move |f| (f, r - 1))).collect()
    }

    /// The ranks (1 = the side's own back rank) a pair of per-side regions covers, when both
    /// are whole ranks and mirror each other. A region left out is Fairy-Stockfish's default,
    /// given in absolute ranks (`*2` for white and `*7` for black whatever the board's size);
    /// `both_absent` answers when neither is given.
    fn side_ranks(&mut self, white: &str, black: &str, defaults: (&[u8], &[u8]), both_absent: Option<Vec<u8>>) -> Option<Vec<u8>> {
        let w = self.squares(white);
        let b = self.squares(black);
        if w.is_none()
            && b.is_none()
            && let Some(r) = both_absent
        {
            return Some(r);
        }
        let (files, ranks) = (self.files, self.ranks);
        let w = w.unwrap_or_else(|| self.rank_rows(defaults.0));
        let b = b.unwrap_or_else(|| self.rank_rows(defaults.1));
        let ranks_of = |set: &BTreeSet<(u8, u8)>, black: bool| whole_ranks(set, files).then(|| own_ranks(set, ranks, black));
        let line = self.line(white).or(self.line(black));
        match (ranks_of(&w, false), ranks_of(&b, true)) {
            (Some(wr), Some(br)) if wr == br => Some(wr),
            (Some(wr), Some(br)) => {
                let message = format!(
                    "white's ranks {wr:?} and black's {br:?} (each from its own side, Fairy-Stockfish's default where not given) differ; \
                     Chimera's rule is the same for both sides"
                );
                self.refuse(white, line, message);
                None
            }
            _ => {
                self.refuse(white, line, "a region that is not whole ranks; Chimera takes ranks here");
                None
            }
        }
    }
}

fn parse_file(text: &str) -> Option<u8> {
    let t = text.trim();
    if let Ok(n) = t.parse::<u8>() {
        return (1..=16).contains(&n).then_some(n);
    }
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_lowercase() => Some(c as u8 - b'a' + 1),
        _ => None,
    }
}

/// The squares (file, rank from 0) of one token: `e4`, `*1` (a rank), `a*` (a file), `*` alone
/// (none).
fn parse_squares(token: &str, files: u8, ranks: u8) -> Option<Vec<(u8, u8)>> {
    if !token.is_ascii() || token.is_empty() {
        return None;
    }
    // A lone `*` names no square, as Fairy-Stockfish reads it (`*1` is a rank, `a*` a file).
    if token == "*" {
        return Some(Vec::new());
    }
    let (f, r) = token.split_at(token.find(|c: char| c.is_ascii_digit() || c == '*').filter(|&i| i > 0).unwrap_or(1));
    let fs: Vec<u8> = match f {
        "*" => (0..files).collect(),
        _ => vec![parse_file(f)?.checked_sub(1)?],
    };
    let rs: Vec<u8> = match r {
        "*" | "" if f != "*" || r == "*" => (0..ranks).collect(),
        _ => vec![r.parse::<u8>().ok()?.checked_sub(1)?],
    };
    if fs.iter().any(|&x| x >= files) || rs.iter().any(|&x| x >= ranks) {
        return None;
    }
    Some(fs.iter().flat_map(|&x| rs.iter().map(move |&y| (x, y))).collect())
}

fn square_name(f: u8, r: u8) -> String {
    format!("{}{}", (b'a' + f) as char, r + 1)
}

/// A Chimera id from a section name: lower case, with letters, digits and '-'.
pub fn id_of(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
        .collect::<String>()
        .trim_matches('-')
        .to_string()
}

/// `shogiPawn` → `shogi pawn`.
fn words(camel: &str) -> String {
    let mut out = String::new();
    for c in camel.chars() {
        if c.is_ascii_uppercase() && !out.is_empty() {
            out.push(' ');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// One piece key, read.
struct PieceKey {
    key: String,
    line: Option<usize>,
    letter: char,
    betza: String,
    name: String,
}

/// A start FEN with the fields Fairy-Stockfish lets it leave out written in: the castling and
/// en-passant fields (`w 0 1`, Shogi's way, or `w - 0 1`) as `-`.
fn full_fen(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 2 {
        return fen.to_string();
    }
    let castling = |t: &str| t.chars().all(|c| c.is_ascii_alphabetic() || c == '-');
    let en_passant =
        |t: &str| t == "-" || (t.starts_with(|c: char| c.is_ascii_lowercase()) && t.chars().all(|c| c.is_ascii_alphanumeric()));
    if fields.get(2).is_none_or(|t| !castling(t)) {
        fields.insert(2, "-");
    }
    if fields.get(3).is_none_or(|t| !en_passant(t)) {
        fields.insert(3, "-");
    }
    fields.join(" ")
}

/// Whether a set of squares is made of whole ranks of a board `files` wide.
fn whole_ranks(set: &BTreeSet<(u8, u8)>, files: u8) -> bool {
    set.iter().all(|&(_, r)| (0..files).all(|f| set.contains(&(f, r))))
}

/// The squares a start FEN writes as walls (`*`), by name.
fn wall_squares(start: &str, files: u8, ranks: u8) -> Vec<String> {
    // The board's ranks only: a pocket written as one rank more is not the board's.
    let placement = start.split_whitespace().next().unwrap_or("");
    let rows: Vec<&str> = placement.split('[').next().unwrap_or(placement).split('/').take(ranks as usize).collect();
    // A placement that does not read has no walls here; loading the variant names its fault.
    let Ok(cells) = crate::variants::placement::read_rows(&rows, files, ranks) else { return Vec::new() };
    let mut walls: Vec<String> = (0..ranks)
        .flat_map(|r| (0..files).map(move |f| (f, r)))
        .filter(|&(f, r)| cells[r as usize * files as usize + f as usize].as_deref() == Some("*"))
        .map(|(f, r)| square_name(f, r))
        .collect();
    walls.sort();
    walls
}

/// The ranks of `set` counted from a side's own back rank (1), sorted, each once.
fn own_ranks(set: &BTreeSet<(u8, u8)>, ranks: u8, black: bool) -> Vec<u8> {
    let own: BTreeSet<u8> = set.iter().map(|&(_, r)| if black { ranks - r } else { r + 1 }).collect();
    own.into_iter().collect()
}

/// Whether the keys turn drops on (pieces in hand may come from captures).
fn drops_keyed(rd: &Reader) -> bool {
    rd.keys.get("pieceDrops").is_some_and(|v| v.value == "true")
}

/// Builds a variant file from resolved keys, one concern at a time. Each `read_` function takes
/// its concern's keys (so that what is left over is refused as unknown), in the order its
/// readings depend on; the `write_` functions then turn what was read into the file's parts.
/// The variant file of a section and the notes on how some of its keys were read, or why it
/// cannot be converted.
fn build(name: &str, keys: Keys) -> Result<(VariantFile, Vec<Refusal>), Vec<Refusal>> {
    let mut rd = Reader { keys, used: BTreeSet::new(), refusals: Vec::new(), notes: Vec::new(), files: 8, ranks: 8 };
    // Cosmetic keys and those only for other programs.
    for k in ["variantTemplate", "pieceToCharTable", "pocketSize", "pieceValueMg", "pieceValueEg"] {
        rd.get(k);
    }
    let board = read_board(&mut rd);
    let pieces = read_pieces(&mut rd);
    let pawns = read_pawns(&mut rd, &board, &pieces);
    let castling = read_castling(&mut rd, &board, &pieces);
    let promotion = read_promotion(&mut rd, &board, &pieces, &pawns);
    let drops = read_drops(&mut rd, &board, &pieces);
    let rules = read_rules(&mut rd, &board, &pieces, &drops);
    let ends = read_ends(&mut rd, &pieces);
    let mut regions = BTreeMap::new();
    let confined = read_mobility(&mut rd, &board, &pieces, &mut regions);
    // Whatever is left is a key Chimera does not know.
    let unknown: Vec<(String, Option<usize>)> =
        rd.keys.iter().filter(|(k, _)| !rd.used.contains(*k)).map(|(k, v)| (k.clone(), v.line)).collect();
    for (k, line) in unknown {
        rd.refuse(&k, line, "a key Chimera does not know");
    }
    let read = Read { board, pieces, pawns, castling, promotion, drops, rules, ends };

    let mut file = VariantFile { id: id_of(name), name: Some(display_name(name)), ..VariantFile::default() };
    file.description = Some(format!("Imported from a Fairy-Stockfish variant configuration, section [{name}]."));
    file.pieces = Some(piece_specs(&mut rd, &read, &confined, &mut regions));
    file.shuffle = Some(ShuffleSpec::Fixed);
    write_rules(&read, &mut file);
    write_castling(&mut rd, &read, &mut file);
    write_promotion(&mut rd, &read, &mut regions, &mut file);
    write_drops(&mut rd, &read, &mut file);
    write_ends(&mut rd, &read, &mut regions, &mut file);
    // Without castling (or gating, which keeps its rights in the same field) Fairy-Stockfish
    // keeps no castling rights, whatever the start FEN says.
    let start = &read.board.start;
    let gating = read.rules.gating;
    file.start =
        Some(if matches!(file.castling, Some(CastlingSpec::Off)) && !gating { without_castling_rights(start) } else { start.clone() });
    if !regions.is_empty() {
        file.regions = Some(regions);
    }
    file.rules_summary = Some(format!("As [{name}] in Fairy-Stockfish: {}.", summary(&file)));
    if rd.refusals.is_empty() { Ok((file, rd.notes)) } else { Err(rd.refusals) }
}

/// What [`build`] read, by concern.
struct Read {
    board: Board,
    pieces: Pieces,
    pawns: Pawns,
    castling: Castling,
    promotion: Promotion,
    drops: Drops,
    rules: Rules,
    ends: Ends,
}

/// The regions an imported variant names, by name.
type Regions = BTreeMap<String, RegionSpec>;

/// The board's size and its start.
struct Board {
    /// The start FEN, its left-out fields written in.
    start: String,
    files: u8,
    ranks: u8,
    /// The letters the start puts on the board or in a hand (upper case): a rule about a type
    /// that is never there (Alapo's pawns) has nothing to act on.
    present: BTreeSet<char>,
}

fn read_board(rd: &mut Reader) -> Board {
    let start = rd.get("startFen").map_or("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string(), |v| full_fen(&v.value));
    rd.files = rd.file("maxFile", 8);
    rd.ranks = rd.int_in("maxRank", 8, 3, 16) as u8;
    if !(3..=16).contains(&rd.files) {
        let line = rd.line("maxFile");
        rd.refuse("maxFile", line, format!("{} files: Chimera's boards have 3 to 16", rd.files));
        rd.files = 8;
    }
    let present =
        start.split_whitespace().next().unwrap_or("").chars().filter(char::is_ascii_alphabetic).map(|c| c.to_ascii_uppercase()).collect();
    Board { start, files: rd.files, ranks: rd.ranks, present }
}

/// The piece keys, highest type first, and all their letters.
struct Pieces {
    list: Vec<PieceKey>,
    /// Every piece's letter, upper case.
    all: String,
}

impl Pieces {
    /// The letters (upper case) of the pieces with these keys.
    fn letters_of(&self, keys: &[&str]) -> String {
        self.list.iter().filter(|p| keys.contains(&p.key.as_str())).map(|p| p.letter.to_ascii_uppercase()).collect()
    }
}

fn read_pieces(rd: &mut Reader) -> Pieces {
    let piece_keys: Vec<(String, Val)> =
        rd.keys.iter().filter(|(k, _)| super::is_piece_key(k)).map(|(k, v)| (k.clone(), v.clone())).collect();
    let mut list: Vec<PieceKey> = Vec::new();
    for (key, v) in piece_keys {
        rd.used.insert(key.clone());
        if v.value.trim() == "-" {
            continue;
        }
        let (letter_text, betza) = match v.value.split_once(':') {
            Some((l, b)) => (l.trim(), Some(b.trim().to_string())),
            None => (v.value.trim(), None),
        };
        let Some(letter) = piece_letter(letter_text) else {
            rd.refuse(&key, v.line, format!("'{}' is not a piece letter", v.value));
            continue;
        };
        let predefined = PIECE_NAMES.iter().find(|(n, _)| *n == key);
        let betza = match (betza, predefined) {
            // Fairy-Stockfish reads a Betza after the letter only for the king and custom pieces.
            (Some(b), Some((n, own))) if *n != "king" => {
                rd.note(
                    &key,
                    v.line,
                    format!("'{b}' is ignored: a predefined piece keeps its moves ({own}), as in Fairy-Stockfish; use a customPiece"),
                );
                (*own).to_string()
            }
            (Some(b), _) => b,
            (None, Some((_, b))) => (*b).to_string(),
            (None, None) => {
                rd.note(&key, v.line, "a custom piece without its movement ('letter:Betza') cannot move, as in Fairy-Stockfish");
                String::new()
            }
        };
        let name = match predefined {
            Some((n, _)) => words(n),
            None => String::new(),
        };
        list.push(PieceKey { key, line: v.line, letter, betza, name });
    }
    // Fairy-Stockfish's order of piece types (its list of predefined pieces, the custom pieces
    // after them, the king last), highest first: the order in which it writes pieces in hand.
    let rank_of = |key: &str| -> usize {
        let custom = key.strip_prefix("customPiece").and_then(|n| n.parse::<usize>().ok());
        match (key, custom) {
            ("king", _) => 1000,
            (_, Some(n)) => PIECE_NAMES.len() + n,
            _ => PIECE_NAMES.iter().position(|(n, _)| *n == key).unwrap_or(0),
        }
    };
    list.sort_by_key(|p| std::cmp::Reverse(rank_of(&p.key)));
    let all = list.iter().map(|p| p.letter.to_ascii_uppercase()).collect();
    Pieces { list, all }
}

/// The pawns: which types they are, which promote, and their initial moves.
struct Pawns {
    /// Chimera's pawns (letters, upper case).
    types: String,
    /// The types that promote.
    promoting: String,
    /// Whether the `pawn` type has its double step.
    double_step: bool,
    /// The ranks (each side's own) initial moves start from, where a piece present has them.
    initial: Option<Vec<u8>>,
}

fn read_pawns(rd: &mut Reader, board: &Board, pieces: &Pieces) -> Pawns {
    let all = &pieces.all;
    // Chimera's pawns reset the move count and their SAN has no letter: Fairy-Stockfish's
    // pawnTypes (by default its `pawn` type), the default of its nMoveRuleTypes and
    // promotionPawnTypes. (Fairy-Stockfish resets the count only on a move the piece cannot
    // take back, and writes a pawn type other than its `pawn` with its letter in SAN.)
    let fs_pawn = pieces.letters_of(&["pawn"]);
    let types = rd.letters("pawnTypes", &fs_pawn, all);
    let n_move = rd.letters("nMoveRuleTypes", &types, all);
    if n_move != types {
        let line = rd.line("nMoveRuleTypes");
        rd.refuse(
            "nMoveRuleTypes",
            line,
            "pieces other than the pawn type that reset the move count (Chimera's pawns also have no letter in SAN)",
        );
    }
    // Each side's promoting pieces override the common list; Chimera's are the same for both.
    let common = rd.letters("promotionPawnTypes", &types, all);
    let mut by_side = Vec::new();
    for side in ["White", "Black"] {
        let key = format!("promotionPawnTypes{side}");
        by_side.push(match rd.get(&key) {
            Some(v) => (rd.letter_set(&key, &v, all), Some((key, v.line))),
            None => (common.clone(), None),
        });
    }
    if by_side[0].0 != by_side[1].0 {
        let (key, line) = by_side.iter().find_map(|(_, k)| k.clone()).unwrap_or_default();
        rd.refuse(&key, line, "promoting pieces that differ by side");
    }
    let promoting = by_side.swap_remove(0).0;
    // En passant is the Betza `e` of a piece's moves in Chimera: a list or region that says
    // what that already says (the pawn types; every square) is taken, any other refused.
    for key in ["enPassantTypes", "enPassantTypesWhite", "enPassantTypesBlack"] {
        if let Some(v) = rd.get(key)
            && rd.letter_set(key, &v, all) != types
        {
            rd.refuse(key, v.line, "en passant is the Betza 'e' of a piece's moves in Chimera; a separate list is not supported");
        }
    }
    let every_square = usize::from(board.files) * usize::from(board.ranks);
    for key in ["enPassantRegion", "enPassantRegionWhite", "enPassantRegionBlack"] {
        let line = rd.line(key);
        if rd.squares(key).is_some_and(|set| set.len() != every_square) {
            rd.refuse(key, line, "en passant is the Betza 'e' of a piece's moves in Chimera; a region for it is not supported");
        }
    }

    // Double steps: the Betza `i` moves, from the double-step region.
    let double_step = rd.bool("doubleStep", true);
    // The region matters only to pieces with initial moves.
    let has_initial = pieces
        .list
        .iter()
        .any(|p| (p.betza.contains('i') || (p.key == "pawn" && double_step)) && board.present.contains(&p.letter.to_ascii_uppercase()));
    let initial = if has_initial {
        rd.side_ranks("doubleStepRegionWhite", "doubleStepRegionBlack", (&[2], &[7]), None)
    } else {
        rd.squares("doubleStepRegionWhite");
        rd.squares("doubleStepRegionBlack");
        None
    };
    for key in ["tripleStepRegionWhite", "tripleStepRegionBlack"] {
        let line = rd.line(key);
        // (Empty, or `-`, the default: no triple steps.)
        if rd.squares(key).is_some_and(|set| !set.is_empty()) {
            rd.refuse(key, line, "triple steps are not supported");
        }
    }
    Pawns { types, promoting, double_step, initial }
}

/// Castling: who castles with whom, and the files (numbered from 1) the pieces go to.
struct Castling {
    on: bool,
    /// The castling king types and their partners (letters).
    kings: String,
    rooks: String,
    king_file: u8,
    queen_file: u8,
    rank: u8,
    rook_kingside: u8,
    rook_queenside: u8,
    /// Whether a dropped king and rook may castle.
    on_drop: bool,
}

fn read_castling(rd: &mut Reader, board: &Board, pieces: &Pieces) -> Castling {
    let all = &pieces.all;
    let kings = rd.letters("castlingKingPiece", &pieces.letters_of(&["king"]), all);
    let rooks = rd.letters("castlingRookPieces", &pieces.letters_of(&["rook"]), all);
    let on = rd.bool("castling", true);
    if rd.bool("chess960", false) {
        let line = rd.line("chess960");
        rd.refuse("chess960", line, "Chess960 castling in an imported variant is not supported yet");
    }
    let king_file = rd.file("castlingKingsideFile", 7);
    let queen_file = rd.file("castlingQueensideFile", 3);
    let rank = rd.int_in("castlingRank", 1, 1, u32::from(board.ranks)) as u8;
    let rook_kingside = rd.file("castlingRookKingsideFile", 12).min(board.files);
    let rook_queenside = rd.file("castlingRookQueensideFile", 1);
    rd.only_default("castlingKingFile", "e", "a castling king on another file than e is not supported");
    rd.only_default("oppositeCastling", "false", "opposite castling is not supported");
    rd.only_default("castlingWins", "-", "castling as a win is not supported");
    let on_drop = rd.bool("castlingDroppedPiece", false);
    Castling { on, kings, rooks, king_file, queen_file, rank, rook_kingside, rook_queenside, on_drop }
}

/// Promotion: the choices, the pieces that promote to one type, and the zone.
struct Promotion {
    choices: String,
    /// Black's choices where they differ from White's.
    black_choices: Option<String>,
    mandatory_pawn: bool,
    limits: BTreeMap<char, u8>,
    /// The pieces that promote to one type (Shogi's), by letter.
    promoted: BTreeMap<char, char>,
    mandatory_piece: bool,
    soldier_rank: u32,
    /// The zone in each side's own ranks, when it is whole ranks.
    ranks: Option<Vec<u8>>,
    /// The zone as squares (White's, Black's), when it is not.
    squares: Option<(BTreeSet<(u8, u8)>, BTreeSet<(u8, u8)>)>,
}

impl Promotion {
    /// The zone's ranks, the far rank where none are given.
    fn zone(&self, ranks: u8) -> Vec<u8> {
        self.ranks.clone().filter(|r| !r.is_empty()).unwrap_or_else(|| vec![ranks])
    }
}

fn read_promotion(rd: &mut Reader, board: &Board, pieces: &Pieces, pawns: &Pawns) -> Promotion {
    let (all, ranks, promoting) = (&pieces.all, board.ranks, &pawns.promoting);
    // Fairy-Stockfish's template offers no promotion unless promotionPieceTypes says.
    // The side's own key, where there is one, wins over the common one.
    let common = rd.letters("promotionPieceTypes", "", all);
    let choices = rd.letters("promotionPieceTypesWhite", &common, all);
    let black = rd.letters("promotionPieceTypesBlack", &common, all);
    let sorted = |s: &str| s.chars().collect::<BTreeSet<char>>();
    let black_choices = (sorted(&black) != sorted(&choices)).then_some(black);
    let mandatory_pawn = rd.bool("mandatoryPawnPromotion", true);
    let mut limits = BTreeMap::new();
    if let Some(v) = rd.get("promotionLimit") {
        for item in v.value.split_whitespace() {
            match item.split_once(':').and_then(|(l, n)| Some((piece_letter(l)?, n.parse::<u8>().ok()?))) {
                Some((l, n)) => {
                    limits.insert(l.to_ascii_uppercase(), n);
                }
                None => rd.refuse("promotionLimit", v.line, format!("'{item}' is not 'letter:count'")),
            }
        }
    }
    let mut promoted: BTreeMap<char, char> = BTreeMap::new();
    if let Some(v) = rd.get("promotedPieceType") {
        for item in v.value.split_whitespace() {
            match item.split_once(':').and_then(|(a, b)| Some((piece_letter(a)?, piece_letter(b)?))) {
                Some((a, b)) => {
                    promoted.insert(a.to_ascii_uppercase(), b.to_ascii_uppercase());
                }
                None => rd.refuse("promotedPieceType", v.line, format!("'{item}' is not 'letter:letter'")),
            }
        }
    }
    // A piece promoting to a type pawns also promote to would be written like the pawn's
    // promotion in Chimera's UCI (`+` for either): refused rather than confused (Forward).
    let pawn_choices: BTreeSet<char> =
        choices.chars().chain(black_choices.iter().flat_map(|b| b.chars())).map(|c| c.to_ascii_uppercase()).collect();
    if !promoting.is_empty()
        && let Some((a, b)) = promoted.iter().find(|(_, b)| pawn_choices.contains(b))
    {
        let line = rd.line("promotedPieceType");
        let message = format!("{a} promotes to {b}, which pawns promote to as well: Chimera's UCI would write both promotions alike");
        rd.refuse("promotedPieceType", line, message);
    }
    let mandatory_piece = rd.bool("mandatoryPiecePromotion", false);
    let soldier_rank = rd.int("soldierPromotionRank", 1);
    // The region matters only to pieces that promote.
    // A region that is not whole ranks (Troitzky's last square of each file) is kept as its
    // squares, for pawns (Shogi-style promotion needs ranks).
    // (A token that is not a square is refused on the rank path.)
    let in_ranks = |rd: &Reader, key: &str| {
        rd.keys.get(key).is_none_or(|v| {
            let (set, bad) = rd.region(v);
            !bad.is_empty() || whole_ranks(&set, rd.files)
        })
    };
    // Each side's region in its own ranks (Fairy-Stockfish's default: the absolute last rank).
    let side_region = |rd: &Reader, key: &str, default: u8, black: bool| {
        own_ranks(&rd.keys.get(key).map_or_else(|| rd.rank_rows(&[default]), |v| rd.region(v).0), ranks, black)
    };
    let sides_differ = side_region(rd, "promotionRegionWhite", ranks, false) != side_region(rd, "promotionRegionBlack", 1, true);
    // Pawns that are never on the board (nor in a hand) promote nowhere.
    let promoting_present = drops_keyed(rd) || promoting.chars().any(|c| board.present.contains(&c.to_ascii_uppercase()));
    let by_square = !promoting.is_empty()
        && promoting_present
        && promoted.is_empty()
        && (sides_differ || !(in_ranks(rd, "promotionRegionWhite") && in_ranks(rd, "promotionRegionBlack")));
    let mut squares = None;
    let zone = if (promoting.is_empty() && promoted.is_empty()) || by_square || (!promoting_present && promoted.is_empty()) {
        let w = rd.squares("promotionRegionWhite");
        let b = rd.squares("promotionRegionBlack");
        if by_square {
            squares = Some((w.unwrap_or_else(|| rd.rank_rows(&[ranks])), b.unwrap_or_else(|| rd.rank_rows(&[1]))));
        }
        None
    } else {
        rd.side_ranks("promotionRegionWhite", "promotionRegionBlack", (&[8], &[1]), None)
    };
    for (key, default, why) in [
        ("piecePromotionOnCapture", "false", "promotion only on captures is not supported"),
        ("pieceDemotion", "false", "demotion is not supported"),
        ("sittuyinPromotion", "false", "Sittuyin's promotion is not supported"),
    ] {
        rd.only_default(key, default, why);
    }
    Promotion { choices, black_choices, mandatory_pawn, limits, promoted, mandatory_piece, soldier_rank, ranks: zone, squares }
}

/// Drops: whether pieces come from a hand, and where they may not go.
struct Drops {
    on: bool,
    to_hand: bool,
    first_rank_pawns: bool,
    zone_pawns: bool,
    /// The ranks drops may go to (empty: all).
    ranks: Option<Vec<u8>>,
    no_doubled: String,
    no_doubled_count: u8,
    checks: bool,
    pawn_drop_mate: bool,
    opposite_bishops: bool,
    must_drop: bool,
    /// Whether a promoted piece goes to the hand as it is (Fairy-Stockfish's dropLoop).
    keep_promoted: bool,
}

fn read_drops(rd: &mut Reader, board: &Board, pieces: &Pieces) -> Drops {
    let keep_promoted = rd.bool("dropLoop", false);
    let on = rd.bool("pieceDrops", false);
    // Without drops Fairy-Stockfish keeps no hands (its FENs have no pocket): captures to hand
    // are then plain captures.
    let to_hand = rd.bool("capturesToHand", false) && on;
    let first_rank_pawns = rd.bool("firstRankPawnDrops", false);
    let zone_pawns = rd.bool("promotionZonePawnDrops", false);
    let all_ranks: Vec<u8> = (1..=board.ranks).collect();
    // Only a side that can ever hold pieces (from the start's hand, or by capturing where
    // captures go to hand) drops: the other side's region does not matter (Synochess).
    let hand = board.start.split_whitespace().next().and_then(|p| p.split_once('[')).map_or("", |(_, h)| h);
    let holds = [to_hand || hand.chars().any(|c| c.is_ascii_uppercase()), to_hand || hand.chars().any(|c| c.is_ascii_lowercase())];
    let ranks = match holds {
        [true, false] => {
            rd.squares("dropRegionBlack");
            rd.one_side_ranks("dropRegionWhite", &all_ranks, false).map(|r| if r == all_ranks { Vec::new() } else { r })
        }
        [false, true] => {
            rd.squares("dropRegionWhite");
            rd.one_side_ranks("dropRegionBlack", &all_ranks, true).map(|r| if r == all_ranks { Vec::new() } else { r })
        }
        _ => rd.side_ranks("dropRegionWhite", "dropRegionBlack", (&all_ranks, &all_ranks), Some(Vec::new())),
    };
    let no_doubled = rd.letters("dropNoDoubled", "", &pieces.all);
    let no_doubled_count = u8::try_from(rd.int_in("dropNoDoubledCount", 1, 0, 64)).unwrap_or(1);
    let checks = rd.bool("dropChecks", true);
    let pawn_drop_mate = rd.bool("shogiPawnDropMateIllegal", false);
    let opposite_bishops = rd.bool("dropOppositeColoredBishop", false);
    let must_drop = rd.bool("mustDrop", false);
    rd.only_default("mustDropType", "*", "a mandatory drop of one type is not supported");
    for (key, default, why) in [
        ("dropPromoted", "false", "drops of promoted pieces are not supported"),
        ("sittuyinRookDrop", "false", "Sittuyin's rook drops are not supported"),
        ("twoBoards", "false", "pieces from a second board (bughouse) are not supported"),
        ("enclosingDrop", "none", "enclosing drops are not supported (games such as Reversi are out of scope)"),
    ] {
        rd.only_default(key, default, why);
    }
    Drops {
        on,
        to_hand,
        first_rank_pawns,
        zone_pawns,
        ranks,
        no_doubled,
        no_doubled_count,
        checks,
        pawn_drop_mate,
        opposite_bishops,
        must_drop,
        keep_promoted,
    }
}

/// The other rules: gating, the table's switches, blasts, walls and draw odds.
struct Rules {
    gating: bool,
    seirawan: bool,
    cambodian: bool,
    /// The rule switches turned on (see `variants::SWITCHES`).
    switched: Vec<&'static RuleSwitch>,
    blast: bool,
    /// The pieces a blast leaves standing, and those that cannot take one another (letters).
    unharmed: String,
    mutually_immune: String,
    draw_odds: Option<crate::rules::Side>,
    /// The board's own walls (the start's `*` squares), by name.
    walls: Vec<String>,
    duck: bool,
    /// Whether a moving piece leaves a wall behind (wallingRule = past).
    trail: bool,
}

impl Rules {
    /// Whether the switch with this key is on.
    fn is_on(&self, key: &str) -> bool {
        self.switched.iter().any(|s| s.key == key)
    }
}

fn read_rules(rd: &mut Reader, board: &Board, pieces: &Pieces, drops: &Drops) -> Rules {
    let gating = rd.bool("gating", false);
    let seirawan = rd.bool("seirawanGating", false);
    // Cambodian's leaps keep their rights as gates, with nothing in hand to gate.
    let cambodian = rd.bool("cambodianMoves", false);
    if cambodian && (!gating || seirawan || drops.on) {
        let line = rd.line("cambodianMoves");
        rd.refuse("cambodianMoves", line, "Cambodian moves are supported with gating, without Seirawan's gating or drops");
    }
    if gating != seirawan && !cambodian {
        let line = rd.line("gating").or(rd.line("seirawanGating"));
        rd.refuse("gating", line, "gating is supported as Seirawan's (gating and seirawanGating both true)");
    }
    let switched: Vec<&'static RuleSwitch> =
        SWITCHES.iter().filter(|s| matches!(s.ini, IniSwitch::Key { key, on } if rd.bool(key, !on) == on)).collect();
    let blast = rd.bool("blastOnCapture", false);
    // Atomar's kings: unharmed by any blast, and unable to take one another.
    let unharmed = rd.letters("blastImmuneTypes", "", &pieces.all);
    let mutually_immune = rd.letters("mutuallyImmuneTypes", "", &pieces.all);
    if !blast && !unharmed.is_empty() {
        let line = rd.line("blastImmuneTypes");
        rd.note("blastImmuneTypes", line, "blast-immune pieces without blasts change nothing, as in Fairy-Stockfish");
    }
    let pass = switched.iter().any(|s| s.key == "pass");
    for key in ["passWhite", "passBlack"] {
        if let Some(v) = rd.get(key)
            && v.value != pass.to_string()
        {
            rd.refuse(key, v.line, "passing for one side only is not supported");
        }
    }
    for (key, default, why) in INI_LACKING {
        rd.only_default(key, default, why);
    }
    // Draw odds (Armageddon) are the one material counting rule read.
    let draw_odds = match rd.get("materialCounting") {
        None => None,
        Some(v) => match v.value.as_str() {
            "none" => None,
            "blackdrawodds" => Some(crate::rules::Side::Black),
            "whitedrawodds" => Some(crate::rules::Side::White),
            other => {
                rd.refuse("materialCounting", v.line, format!("material counting '{other}' is not supported (draw odds are)"));
                None
            }
        },
    };
    // Walls: the board's own are the start's `*` squares; the duck is the one walling rule.
    let walls = wall_squares(&board.start, board.files, board.ranks);
    let (duck, trail) = read_walling(rd, walls.is_empty(), blast);
    Rules { gating, seirawan, cambodian, switched, blast, unharmed, mutually_immune, draw_odds, walls, duck, trail }
}

/// The walling rule: (the duck, walls left behind). `no_walls`: the board has none of its own;
/// `blasts`: captures explode.
fn read_walling(rd: &mut Reader, no_walls: bool, blasts: bool) -> (bool, bool) {
    let Some(v) = rd.get("wallingRule") else { return (false, false) };
    match v.value.as_str() {
        "none" => (false, false),
        "past" if blasts => {
            rd.refuse("wallingRule", v.line, "walls left behind with exploding captures are not supported");
            (false, false)
        }
        "past" => (false, true),
        "duck" if blasts => {
            rd.refuse("wallingRule", v.line, "the duck with exploding captures is not supported");
            (false, false)
        }
        "duck" if no_walls => (true, false),
        "duck" => {
            rd.refuse("wallingRule", v.line, "the duck on a board with walls of its own is not supported");
            (false, false)
        }
        other => {
            rd.refuse("wallingRule", v.line, format!("walls placed by the rule '{other}' are not supported (duck and past are)"));
            (false, false)
        }
    }
}

/// How games end.
struct Ends {
    checkmate: Option<Verdict>,
    /// Shatar's mate: the pieces whose checks count, and the knights.
    shatar: Option<(String, String)>,
    stalemate: Option<Verdict>,
    stalemate_by_count: bool,
    extinction: Option<Verdict>,
    extinct_all: bool,
    extinct_types: String,
    extinct_count: u32,
    pseudo_royal: bool,
    check_counting: bool,
    /// The move rule in moves (0: none).
    n_move: u32,
    n_fold: u32,
    n_fold_value: Option<Verdict>,
    n_fold_absolute: bool,
    flag_white_piece: String,
    flag_black_piece: String,
    flag_white: Option<BTreeSet<(u8, u8)>>,
    flag_black: Option<BTreeSet<(u8, u8)>>,
    flag_move: bool,
    flag_safe: bool,
    flag_count: u8,
}

fn read_ends(rd: &mut Reader, pieces: &Pieces) -> Ends {
    let all = &pieces.all;
    // Shatar's mate counts the checks of Fairy-Stockfish's rook, knight and bers.
    let shatar = rd.bool("shatarMateRule", false).then(|| {
        let shak = ["rook", "knight", "bers"].iter().map(|k| pieces.letters_of(&[k])).collect::<String>();
        (shak, pieces.letters_of(&["knight"]))
    });
    let checkmate = rd.verdict("checkmateValue", Some(Verdict::Loss));
    let stalemate = rd.verdict("stalemateValue", Some(Verdict::Draw));
    let stalemate_by_count = rd.bool("stalematePieceCount", false);
    let extinction = rd.verdict("extinctionValue", None);
    let extinct_all = rd.keys.get("extinctionPieceTypes").is_some_and(|v| v.value.trim() == "*");
    let extinct_types = rd.letters("extinctionPieceTypes", "", all);
    let extinct_count = rd.int_in("extinctionPieceCount", 0, 0, 64);
    let pseudo_royal = rd.bool("extinctionPseudoRoyal", false);
    let check_counting = rd.bool("checkCounting", false);
    let n_move = rd.int_in("nMoveRule", 50, 0, 10_000);
    let n_fold = rd.int_in("nFoldRule", 3, 0, 100);
    let n_fold_value = rd.verdict("nFoldValue", Some(Verdict::Draw));
    let n_fold_absolute = rd.bool("nFoldValueAbsolute", false);
    let flag_piece = rd.letters("flagPiece", all, all);
    let flag_white_piece = rd.letters("flagPieceWhite", &flag_piece, all);
    let flag_black_piece = rd.letters("flagPieceBlack", &flag_piece, all);
    let flag_both = rd.squares("flagRegion");
    let flag_white = rd.squares("flagRegionWhite").or(flag_both.clone());
    let flag_black = rd.squares("flagRegionBlack").or(flag_both);
    let flag_move = rd.bool("flagMove", false);
    let flag_safe = rd.bool("flagPieceSafe", false);
    let flag_count = u8::try_from(rd.int_in("flagPieceCount", 1, 1, 64)).unwrap_or(1);
    let connect_keys: Vec<String> = rd.keys.keys().filter(|k| k.starts_with("connect") && !rd.used.contains(*k)).cloned().collect();
    for k in connect_keys {
        let v = rd.get(&k).expect("listed");
        if !matches!(v.value.as_str(), "true" | "*" | "-" | "win") {
            rd.refuse(&k, v.line, "connection games are out of scope");
        }
    }
    Ends {
        checkmate,
        shatar,
        stalemate,
        stalemate_by_count,
        extinction,
        extinct_all,
        extinct_types,
        extinct_count,
        pseudo_royal,
        check_counting,
        n_move,
        n_fold,
        n_fold_value,
        n_fold_absolute,
        flag_white_piece,
        flag_black_piece,
        flag_white,
        flag_black,
        flag_move,
        flag_safe,
        flag_count,
    }
}

/// Mobility regions: a piece confined to a region. Adds the regions; answers the region's name
/// by piece letter.
fn read_mobility(rd: &mut Reader, board: &Board, pieces: &Pieces, regions: &mut Regions) -> BTreeMap<char, String> {
    let mut confined: BTreeMap<char, String> = BTreeMap::new();
    let mobility: Vec<String> = rd.keys.keys().filter(|k| k.starts_with("mobilityRegion")).cloned().collect();
    for key in mobility {
        let rest = &key["mobilityRegion".len()..];
        let Some((side, piece)) = rest.strip_prefix("White").map(|p| ("white", p)).or(rest.strip_prefix("Black").map(|p| ("black", p)))
        else {
            let line = rd.line(&key);
            rd.refuse(&key, line, "expected mobilityRegionWhite<Piece> or mobilityRegionBlack<Piece>");
            continue;
        };
        let piece_key = {
            let mut c = piece.chars();
            c.next().map(|f| f.to_ascii_lowercase().to_string() + c.as_str()).unwrap_or_default()
        };
        let squares = rd.squares(&key).unwrap_or_default();
        let Some(p) = pieces.list.iter().find(|p| p.key == piece_key) else {
            let line = rd.line(&key);
            rd.note(&key, line, format!("the variant has no piece '{piece_key}': the region confines nothing, as in Fairy-Stockfish"));
            continue;
        };
        let letter = p.letter.to_ascii_uppercase();
        let region = format!("mobility-{}", letter.to_ascii_lowercase());
        regions.insert(format!("{region}-{side}"), RegionSpec::Squares(squares.iter().map(|&(f, r)| square_name(f, r)).collect()));
        confined.insert(letter, region);
    }
    for region in confined.values() {
        for side in ["white", "black"] {
            let name = format!("{region}-{side}");
            regions.entry(name).or_insert_with(|| RegionSpec::Rect("a1".into(), square_name(board.files - 1, board.ranks - 1)));
        }
        regions.insert(region.clone(), RegionSpec::PerSide { white: format!("{region}-white"), black: format!("{region}-black") });
    }
    confined
}

/// The pieces, with their roles.
fn piece_specs(rd: &mut Reader, read: &Read, confined: &BTreeMap<char, String>, regions: &mut Regions) -> Vec<PieceSpec> {
    let Read { board, pieces, pawns, castling, promotion, .. } = read;
    let (files, ranks) = (board.files, board.ranks);
    let mut specs = Vec::new();
    for p in &pieces.list {
        let letter = p.letter.to_ascii_uppercase();
        let mut betza = p.betza.clone();
        if p.key == "pawn" && !p.betza.contains('i') {
            if pawns.double_step {
                betza.push_str("ifmnD");
            }
        } else if betza.contains('i') && !pawns.double_step {
            // Fairy-Stockfish drops every initial move then (`ifmnD` and the like).
            match crate::rules::parse_betza(&betza) {
                Ok(atoms) if !betza.contains('a') => {
                    let kept: Vec<_> = atoms.into_iter().filter(|a| !a.initial).collect();
                    betza = crate::rules::write_betza(&kept);
                }
                _ => rd.refuse(&p.key, p.line, "initial moves ('i') with doubleStep = false are not supported"),
            }
        }
        if betza.contains('a') {
            // Fairy-Stockfish's Betza reader skips letters it does not know: `mafsW` moves
            // there as `mfsW` (pyffish 0.0.90), not as the multi-leg move Chimera reads.
            rd.refuse(&p.key, p.line, format!("'{}': Fairy-Stockfish does not read multi-leg moves ('a'); it skips the letter", p.betza));
            continue;
        }
        if let Err(e) = crate::rules::parse_movement(&betza) {
            rd.refuse(&p.key, p.line, format!("'{}': {e}", p.betza));
            continue;
        }
        let mut spec = PieceSpec::plain(letter, &piece_name(p, &betza), &betza);
        // The value the catalogue gives a piece that moves so, for the computer player.
        spec.value = super::catalogue_piece(&betza).map_or(0, |(_, value)| value);
        // Fairy-Stockfish's Janggi cannon neither hops over nor takes another cannon: Chimera's
        // code piece (Synochess).
        if p.key == "janggiCannon" {
            spec.code = Some("janggi_cannon".into());
        }
        if p.key == "soldier" && promotion.soldier_rank > 1 && betza == "fsW" {
            // A Shogi pawn until the rank, then forward and sideways (Xiangqi's river).
            let n = u8::try_from(promotion.soldier_rank).unwrap_or(u8::MAX).min(ranks);
            let rows = |from: u8, to: u8| -> Vec<String> { (from..=to).flat_map(|r| (0..files).map(move |f| square_name(f, r))).collect() };
            regions.insert("soldier-zone-white".into(), RegionSpec::Squares(rows(n - 1, ranks - 1)));
            regions.insert("soldier-zone-black".into(), RegionSpec::Squares(rows(0, ranks - n)));
            regions.insert(
                "soldier-zone".into(),
                RegionSpec::PerSide { white: "soldier-zone-white".into(), black: "soldier-zone-black".into() },
            );
            spec.betza = "fW".into();
            spec.region_moves = Some(crate::variants::RegionMoves { region: "soldier-zone".into(), betza: "fsW".into() });
        }
        spec.royal = p.key == "king";
        spec.pawn = pawns.types.contains(letter);
        // With no choices, Fairy-Stockfish's pawns promote only as their promotedPieceType says.
        let no_choices = promotion.choices.is_empty() && promotion.black_choices.as_ref().is_none_or(String::is_empty);
        spec.promotes = pawns.promoting.contains(letter) && !no_choices;
        spec.castles = castling.kings.contains(letter);
        spec.castling_partner = castling.rooks.contains(letter);
        spec.promotes_to = promotion.promoted.get(&letter).copied();
        if betza.contains('i')
            && let Some(r) = &pawns.initial
            && r.as_slice() != [2]
        {
            spec.initial_ranks = Some(r.clone());
        }
        spec.confined = confined.get(&letter).cloned();
        // Two pieces that move alike (Chak's two FvW pieces) are told apart by their letters.
        if specs.iter().any(|s: &PieceSpec| s.name == spec.name) {
            spec.name = format!("{} {letter}", spec.name);
        }
        specs.push(spec);
    }
    for (from, to) in &promotion.promoted {
        if !pieces.all.contains(*from) || !pieces.all.contains(*to) {
            let line = rd.line("promotedPieceType");
            rd.refuse("promotedPieceType", line, format!("'{from}:{to}' names a piece the variant does not have"));
        }
    }
    if castling.kings.chars().count() > 1 {
        let line = rd.line("castlingKingPiece");
        rd.refuse("castlingKingPiece", line, "more than one castling king type");
    }
    specs
}

/// The board, the switches, walls, immunity, blasts and gating.
fn write_rules(read: &Read, file: &mut VariantFile) {
    let (board, rules) = (&read.board, &read.rules);
    file.board =
        Some(BoardSpec { files: board.files, ranks: board.ranks, walls: rules.walls.clone(), style: Default::default(), river: None });
    file.duck = rules.duck.then_some(true);
    for s in &rules.switched {
        s.turn(file, true);
    }
    file.trail_walls = rules.trail.then_some(true);
    file.draw_odds = rules.draw_odds;
    file.mutually_immune = (!rules.mutually_immune.is_empty()).then(|| rules.mutually_immune.clone());
}

fn write_castling(rd: &mut Reader, read: &Read, file: &mut VariantFile) {
    let (c, files) = (&read.castling, read.board.files);
    // Castling rights come from the FEN (or a dropped king and rook): without any, castling is
    // off whatever the keys say.
    let rights = read.board.start.split_whitespace().nth(2).is_some_and(|f| f != "-");
    file.castling = Some(if c.on && !c.kings.is_empty() && (rights || c.on_drop) {
        if c.king_file < 2 || c.queen_file + 1 > files {
            let line = rd.line("castlingKingsideFile");
            rd.refuse("castlingKingsideFile", line, "castling files off the board");
        }
        let letter = |f: u8| (b'a' + f - 1) as char;
        let rook_start = (c.rook_kingside != files || c.rook_queenside != 1).then(|| (letter(c.rook_kingside), letter(c.rook_queenside)));
        CastlingSpec::On {
            king: (letter(c.king_file), letter(c.queen_file)),
            rook: (letter(c.king_file.saturating_sub(1).max(1)), letter((c.queen_file + 1).min(files))),
            king_takes_rook: false,
            rank: c.rank,
            rook_start,
        }
    } else {
        CastlingSpec::Off
    });
}

fn write_promotion(rd: &mut Reader, read: &Read, regions: &mut Regions, file: &mut VariantFile) {
    let (p, pawns, ranks) = (&read.promotion, &read.pawns, read.board.ranks);
    if p.ranks.as_ref().is_some_and(Vec::is_empty) {
        let line = rd.line("promotionRegionWhite").or(rd.line("promotionRegionBlack"));
        rd.refuse("promotionRegionWhite", line, "an empty promotion region: pawns would stay pawns on the last rank");
    }
    let zone = p.zone(ranks);
    let (first, last) = (zone.first().copied().unwrap_or(ranks), zone.last().copied().unwrap_or(ranks));
    let contiguous = zone.windows(2).all(|w| w[1] == w[0] + 1);
    if !contiguous || last != ranks {
        let line = rd.line("promotionRegionWhite");
        rd.refuse("promotionRegionWhite", line, "a promotion region that is not a run of ranks up to the far rank");
    }
    let stuck: String = pawns.promoting.chars().filter(|l| !p.promoted.contains_key(l)).collect();
    if (p.choices.is_empty() || p.black_choices.as_ref().is_some_and(String::is_empty)) && !stuck.is_empty() {
        // Fairy-Stockfish then forbids the move into the zone; Chimera has no such rule.
        let line = rd.line("promotionPieceTypes");
        rd.refuse(
            "promotionPieceTypes",
            line,
            format!("no promotion choices for the promoting pieces {stuck}: they could never enter the promotion zone"),
        );
    }
    if !p.mandatory_pawn && !read.rules.is_on("no_immobile_pieces") && !stuck.is_empty() {
        // Fairy-Stockfish then lets a pawn stay a pawn on the last rank; Chimera never does.
        let line = rd.line("mandatoryPawnPromotion");
        rd.refuse("mandatoryPawnPromotion", line, "optional promotion without immobilityIllegal lets a pawn stand on the last rank");
    }
    if !pawns.promoting.is_empty() && !p.choices.is_empty() {
        let (rank, optional_from) = if p.mandatory_pawn { (first, None) } else { (last, Some(first)) };
        let optional_from = optional_from.filter(|&f| f < rank);
        let mut region = None;
        if let Some((w, b)) = &p.squares {
            if !p.mandatory_pawn {
                let line = rd.line("mandatoryPawnPromotion");
                rd.refuse("mandatoryPawnPromotion", line, "optional promotion on a region of squares is not supported");
            }
            let names = |set: &BTreeSet<(u8, u8)>| set.iter().map(|&(f, r)| square_name(f, r)).collect();
            regions.insert("promotion-white".into(), RegionSpec::Squares(names(w)));
            regions.insert("promotion-black".into(), RegionSpec::Squares(names(b)));
            regions.insert("promotion".into(), RegionSpec::PerSide { white: "promotion-white".into(), black: "promotion-black".into() });
            region = Some("promotion".to_string());
        }
        let optional_from = optional_from.filter(|_| region.is_none());
        file.promotion = Some(PromotionSpec {
            rank,
            choices: p.choices.clone(),
            black_choices: p.black_choices.clone(),
            optional_from,
            limits: p.limits.clone(),
            region,
        });
    }
    if !p.promoted.is_empty() {
        file.piece_promotion = Some(PiecePromotionSpec { zone: first, mandatory: p.mandatory_piece });
    }
}

/// Drops, then the blast and gating that depend on them.
fn write_drops(rd: &mut Reader, read: &Read, file: &mut VariantFile) {
    let (d, pawns, rules) = (&read.drops, &read.pawns, &read.rules);
    if d.on {
        let zone = read.promotion.zone(read.board.ranks);
        let mut forbidden = BTreeMap::new();
        for p in pawns.types.chars() {
            let mut r = Vec::new();
            if !d.first_rank_pawns {
                r.push(1);
            }
            if !d.zone_pawns && !pawns.promoting.is_empty() && pawns.promoting.contains(p) {
                r.extend(zone.iter().copied());
            }
            if !r.is_empty() {
                forbidden.insert(p, r);
            }
        }
        let no_drop_mate = if d.pawn_drop_mate { read.pieces.letters_of(&["shogiPawn"]) } else { String::new() };
        file.drops = Some(DropsSpec {
            captures_to_hand: d.to_hand,
            forbidden_ranks: forbidden,
            ranks: d.ranks.clone().unwrap_or_default(),
            must_drop: d.must_drop,
            opposite_bishops: d.opposite_bishops,
            castling_on_drop: read.castling.on_drop,
            keep_promoted: d.keep_promoted,
            no_doubled: d.no_doubled.clone(),
            no_doubled_count: d.no_doubled_count,
            no_drop_mate,
            no_checks: !d.checks,
        });
    }
    if rules.blast && d.to_hand {
        // Fairy-Stockfish's hand then takes the pieces a blast removes too.
        let line = rd.line("blastOnCapture");
        rd.refuse("blastOnCapture", line, "exploding captures with captures to hand are not supported");
    }
    if rules.blast {
        file.blast = Some(BlastSpec { immune: pawns.types.clone(), unharmed: rules.unharmed.clone() });
    }
    if rules.gating && rules.seirawan {
        file.gating = Some(true);
    }
    if rules.cambodian {
        file.cambodian_moves = Some(true);
    }
}

fn write_ends(rd: &mut Reader, read: &Read, regions: &mut Regions, file: &mut VariantFile) {
    let e = &read.ends;
    let mut end = Vec::new();
    // Without a royal piece (a king, or pieces royal by their count), or where checks are
    // forbidden, there is no checkmate.
    let has_king = !read.pieces.letters_of(&["king"]).is_empty();
    let pseudo_royals = e.pseudo_royal && e.extinction.is_some() && (e.extinct_all || !e.extinct_types.is_empty());
    let checking = !read.rules.is_on("checks_forbidden");
    match e.checkmate.filter(|_| (has_king || pseudo_royals) && checking) {
        Some(Verdict::Loss) if let Some((shak, knights)) = e.shatar.clone() => end.push(EndSpec::ShatarMate { shak, knights }),
        Some(_) if e.shatar.is_some() => {
            let line = rd.line("shatarMateRule");
            rd.refuse("shatarMateRule", line, "Shatar's mate with a checkmate value other than a loss is not supported");
        }
        Some(Verdict::Loss) => end.push(EndSpec::Checkmate),
        Some(v) => end.push(EndSpec::Checkmated(v)),
        None => {}
    }
    // Stalemate scored by the pieces on the board: the side with fewer pieces gets the
    // stalemate value, the other its opposite, equal numbers draw (as pyffish scores it). With
    // a draw that is a plain drawn stalemate.
    match (e.stalemate_by_count, e.stalemate) {
        (true, Some(Verdict::Win)) => end.push(EndSpec::StalemateByCount),
        (true, Some(Verdict::Loss)) => {
            let line = rd.line("stalematePieceCount");
            rd.refuse("stalematePieceCount", line, "a stalemate won by the side with more pieces is not supported");
        }
        (true, _) => end.push(EndSpec::Stalemate(Verdict::Draw)),
        (false, Some(v)) => end.push(EndSpec::Stalemate(v)),
        (false, None) => {}
    }
    if let (Some(w), Some(b)) = (&e.flag_white, &e.flag_black) {
        if e.flag_white_piece != e.flag_black_piece {
            let line = rd.line("flagPieceWhite").or(rd.line("flagPieceBlack"));
            rd.refuse("flagPieceWhite", line, "flag pieces that differ by side");
        }
        let names = |s: &BTreeSet<(u8, u8)>| s.iter().map(|&(f, r)| square_name(f, r)).collect::<Vec<_>>();
        regions.insert("flag-white".into(), RegionSpec::Squares(names(w)));
        regions.insert("flag-black".into(), RegionSpec::Squares(names(b)));
        regions.insert("flag".into(), RegionSpec::PerSide { white: "flag-white".into(), black: "flag-black".into() });
        if e.flag_count > 1 && (e.flag_safe || e.flag_move) {
            let line = rd.line("flagPieceCount");
            rd.refuse("flagPieceCount", line, "several flag pieces with flagPieceSafe or flagMove are not supported");
        }
        if e.flag_safe && e.flag_move {
            // Played against pyffish, Alapo's goal is judged otherwise (Fairy-Stockfish ends
            // games Chimera goes on with): refused until the two rules' order is followed.
            let line = rd.line("flagPieceSafe");
            rd.refuse(
                "flagPieceSafe",
                line,
                "a flag piece that must be safe together with the opponent's reply (flagMove) is not supported",
            );
        }
        end.push(EndSpec::RegionReached {
            pieces: e.flag_white_piece.clone(),
            region: "flag".into(),
            reply: e.flag_move,
            safe: e.flag_safe,
            count: e.flag_count,
        });
    } else if e.flag_white.is_some() || e.flag_black.is_some() {
        let line = rd.line("flagRegionWhite").or(rd.line("flagRegionBlack"));
        rd.refuse("flagRegionWhite", line, "a flag region for one side only is not supported");
    }
    // Without types the extinction value has no effect for Fairy-Stockfish. Each listed type
    // counts on its own; `*` counts all pieces together.
    if let Some(v) = e.extinction.filter(|_| e.extinct_all || !e.extinct_types.is_empty()) {
        let per_type = !e.extinct_all && e.extinct_types.chars().count() > 1;
        let pieces = if e.extinct_all { String::new() } else { e.extinct_types.clone() };
        let fewer_than = u8::try_from(e.extinct_count + 1).unwrap_or(u8::MAX);
        // (A type a side does not start with ends the game at once, as in Fairy-Stockfish,
        // unless its pieces are pseudo-royal: then being gone ends nothing, as Forward's king
        // before a promotion makes one.)
        end.push(EndSpec::Extinction { pieces, per_type, fewer_than, verdict: v, pseudo_royal: e.pseudo_royal });
    }

    if e.check_counting {
        // Without counts in the start FEN, Fairy-Stockfish gives each side one check to win.
        end.push(EndSpec::NCheck(check_count(&read.board.start).unwrap_or(1)));
    }
    if e.n_move > 0 {
        end.push(EndSpec::MoveRule(e.n_move.saturating_mul(2)));
    }
    if e.n_fold > 0 {
        // (Fairy-Stockfish ends a "one-fold" repetition at the first repeat, as a twofold one.)
        let count = u8::try_from(e.n_fold.max(2)).unwrap_or(u8::MAX);
        match e.n_fold_value {
            Some(Verdict::Draw) => end.push(EndSpec::Repetition(count)),
            Some(verdict) => end.push(EndSpec::RepetitionScored { count, verdict, for_white: e.n_fold_absolute }),
            None => {
                let line = rd.line("nFoldValue");
                rd.refuse("nFoldValue", line, "a repetition with no result is not supported");
            }
        }
    }
    if has_king && e.extinction.is_none() && !e.check_counting && e.flag_white.is_none() && !read.drops.to_hand {
        end.push(EndSpec::InsufficientMaterial);
    }
    file.end = Some(end);
}

/// The checks to win of a FEN with a `3+3` field: the larger count where the sides differ
/// (the FEN's field then says how many the other side has given already).
fn check_count(fen: &str) -> Option<u8> {
    let field = fen.split_whitespace().find(|f| f.contains('+') && f.chars().all(|c| c.is_ascii_digit() || c == '+'))?;
    let (a, b) = field.split_once('+')?;
    Some(a.parse::<u8>().ok()?.max(b.parse::<u8>().ok()?))
}

/// A piece's name: Fairy-Stockfish's for its predefined pieces, otherwise the name of a
/// catalogue piece with the same moves, otherwise its letter.
fn piece_name(p: &PieceKey, betza: &str) -> String {
    if !p.name.is_empty() {
        return p.name.clone();
    }
    super::catalogue_piece(betza).map(|(name, _)| name).unwrap_or_else(|| format!("piece {}", p.letter.to_ascii_uppercase()))
}

fn display_name(section: &str) -> String {
    let mut out = String::new();
    let mut up = true;
    for c in section.chars() {
        if c == '-' || c == '_' {
            out.push(' ');
            up = true;
        } else if up {
            out.push(c.to_ascii_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// A one-line summary of an imported variant's board and pieces.
fn summary(file: &VariantFile) -> String {
    let board = file.board.as_ref().map_or(String::new(), |b| format!("{}×{} board", b.files, b.ranks));
    let pieces: Vec<String> = file.pieces.iter().flatten().map(|p| format!("{} {} ({})", p.letter, p.name, p.betza)).collect();
    format!("{board}; pieces {}", pieces.join(", "))
}

/// The FEN with its castling field emptied (`-`).
fn without_castling_rights(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() > 2 {
        fields[2] = "-";
    }
    fields.join(" ")
}
