//! Fairy-Stockfish's variant configuration format (`variants.ini`), in and out.
//!
//! - [`import`](import::import): every section of an ini text as a Chimera variant file, or the
//!   keys that stop it, by name and line.
//! - [`export`]: a Chimera variant as an ini section, or what Fairy-Stockfish cannot express.
//!
//! Both go through one model: a variant's *keys*, Fairy-Stockfish's names with their values.
//! A section that inherits from one of Fairy-Stockfish's built-ins gets the keys of the
//! Chimera catalogue variant mapped from it ([`BUILTIN_PARENTS`]), exported, so import and
//! export agree by construction and a round trip (export, then import) is tested on the
//! whole catalogue. The table of keys is in `presets/README.md`.
//!
//! Departures from Fairy-Stockfish, refused rather than guessed: regions that differ by side
//! where Chimera's rule is one for both (double steps, promotion, drops), extinction where a side
//! could hold the type in hand (Fairy-Stockfish counts the hand), and every rule Chimera lacks
//! (see the refusals in `import.rs`). Where a built-in parent's Chimera version plays unlike
//! Fairy-Stockfish's ([`known_differences`]), the import says so for each section inheriting it.
//! What remains, found by comparing with pyffish: a drop does not reset Chimera's half-move
//! clock, and pieces in hand may be written in another order.

pub mod import;
pub mod ini;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use crate::rules::Verdict;
use crate::variants::{CastlingSpec, EndSpec, IniSwitch, PieceSpec, SWITCHES, ShuffleSpec, VariantFile};

/// A key's value and where it was written (`None`: from a built-in parent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Val {
    /// The value as written.
    pub value: String,
    /// 1-based line in the ini file.
    pub line: Option<usize>,
}

/// A variant's keys, resolved through its parents.
pub type Keys = BTreeMap<String, Val>;

/// Fairy-Stockfish's predefined piece types and their moves in Betza notation (its own list,
/// in the documentation of `variants.ini`).
pub const PIECE_NAMES: &[(&str, &str)] = &[
    ("pawn", "fmWfceF"),
    ("knight", "N"),
    ("bishop", "B"),
    ("rook", "R"),
    ("queen", "Q"),
    ("fers", "F"),
    ("alfil", "A"),
    ("fersAlfil", "FA"),
    ("silver", "FfW"),
    ("aiwok", "RNF"),
    ("bers", "RF"),
    ("archbishop", "BN"),
    ("chancellor", "RN"),
    ("amazon", "QN"),
    ("knibis", "mNcB"),
    ("biskni", "mBcN"),
    ("kniroo", "mNcR"),
    ("rookni", "mRcN"),
    ("shogiPawn", "fW"),
    ("lance", "fR"),
    ("shogiKnight", "ffN"),
    ("gold", "WfF"),
    ("dragonHorse", "BW"),
    ("clobber", "cW"),
    ("breakthrough", "fmWfF"),
    ("immobile", ""),
    ("cannon", "mRcpR"),
    ("janggiCannon", "pR"),
    ("soldier", "fsW"),
    ("horse", "nN"),
    ("elephant", "nA"),
    ("janggiElephant", "nZ"),
    ("banner", "RcpRnN"),
    ("wazir", "W"),
    ("commoner", "K"),
    ("centaur", "KN"),
    ("king", "K"),
];

/// Splits `file.ini:section`, the way a variant from an ini file is named (on the command
/// line, in saved games).
pub fn ini_spec(spec: &str) -> Option<(&str, &str)> {
    let (path, section) = spec.rsplit_once(".ini:")?;
    (!section.is_empty()).then(|| (&spec[..path.len() + 4], section))
}

/// The variant file converted from one section of an ini file.
///
/// # Errors
/// The file cannot be read or parsed, has no such section (the message lists them), or the
/// section cannot be converted (the message names every key that stops it).
pub fn import_section(path: &std::path::Path, section: &str) -> Result<VariantFile, String> {
    let text = crate::rules::read_text(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let all = import::import(&text).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(|e| format!("{}: {e}", path.display())).collect();
        lines.join("\n")
    })?;
    let Some(found) = all.iter().find(|i| i.name == section) else {
        let names: Vec<&str> = all.iter().map(|i| i.name.as_str()).collect();
        return Err(format!("{} has no section [{section}]; it has: {}", path.display(), names.join(", ")));
    };
    found.result.clone().map_err(|why| {
        let reasons: Vec<String> = why.iter().map(ToString::to_string).collect();
        format!("[{section}] of {} cannot be converted: {}", path.display(), reasons.join("; "))
    })
}

/// Whether a key defines a piece type (`knight = n`, `customPiece3 = a:BN`).
pub fn is_piece_key(key: &str) -> bool {
    PIECE_NAMES.iter().any(|(n, _)| *n == key)
        || key.strip_prefix("customPiece").and_then(|n| n.parse::<u8>().ok()).is_some_and(|n| (1..=25).contains(&n))
}

/// Fairy-Stockfish's built-in variants that a section may inherit from, and the Chimera
/// catalogue variant each resolves to.
pub const BUILTIN_PARENTS: &[(&str, &str)] = &[
    ("chess", "chess"),
    ("normal", "chess"),
    ("coregal", "coregal"),
    ("placement", "placement"),
    ("berolina", "berolina"),
    ("shogi", "shogi"),
    ("minishogi", "minishogi"),
    ("dobutsu", "dobutsu"),
    ("capablanca", "capablanca"),
    ("gothic", "gothic"),
    ("embassy", "embassy"),
    ("losalamos", "losalamos"),
    ("amazon", "amazon"),
    ("nightrider", "nightrider"),
    ("grasshopper", "grasshopper"),
    ("shatranj", "shatranj"),
    ("kingofthehill", "kingofthehill"),
    ("antichess", "antichess"),
    ("giveaway", "giveaway"),
    ("horde", "horde"),
    ("3check", "3check"),
    ("racingkings", "racingkings"),
    ("hoppelpoppel", "hoppelpoppel"),
    ("knightmate", "knightmate"),
    ("losers", "losers"),
    ("kinglet", "kinglet"),
    ("threekings", "threekings"),
    ("makruk", "makruk"),
    ("courier", "courier"),
    ("jesonmor", "jesonmor"),
    ("crazyhouse", "crazyhouse"),
    ("atomic", "atomic"),
    ("xiangqi", "xiangqi"),
    ("manchu", "manchu"),
    ("minixiangqi", "minixiangqi"),
    ("shako", "shako"),
    ("grand", "grand"),
    ("seirawan", "seirawan"),
    ("extinction", "extinction"),
    ("janggi", "janggi"),
    ("chancellor", "chancellor"),
    ("centaur", "centaur"),
    ("modern", "modern"),
    ("janus", "janus"),
    ("gardner", "gardner"),
    ("nocastle", "nocastle"),
    ("almost", "almost"),
    ("sortofalmost", "sortofalmost"),
    ("chigorin", "chigorin"),
    ("perfect", "perfect"),
    ("chaturanga", "chaturanga"),
    ("raazuvaa", "raazuvaa"),
    ("misere", "misere"),
    ("nocheckatomic", "nocheckatomic"),
    ("codrus", "codrus"),
    ("newzealand", "newzealand"),
    ("tencubed", "tencubed"),
    ("opulent", "opulent"),
    ("5check", "5check"),
    ("torpedo", "torpedo"),
    ("pawnback", "pawnback"),
    ("pawnsideways", "pawnsideways"),
    ("capahouse", "capahouse"),
    ("pocketknight", "pocketknight"),
    ("judkins", "judkins"),
    ("gorogoro", "gorogoro"),
    ("euroshogi", "euroshogi"),
    ("okisakishogi", "okisakishogi"),
    ("yarishogi", "yarishogi"),
    ("shoshogi", "shoshogi"),
    ("torishogi", "torishogi"),
    ("checkshogi", "checkshogi"),
    ("janggitraditional", "janggitraditional"),
    ("janggicasual", "janggicasual"),
    ("caparandom", "caparandom"),
    ("loop", "loop"),
    ("chessgi", "chessgi"),
    ("mini", "minishogi"),
    ("fischerandom", "chess960"),
    ("gustav3", "gustav3"),
    ("omicron", "omicron"),
    ("duck", "duck"),
    ("joust", "joust"),
    ("snailtrail", "snailtrail"),
    ("troitzky", "troitzky"),
    ("legan", "legan"),
    ("suicide", "suicide"),
    ("shouse", "shouse"),
    ("armageddon", "armageddon"),
    ("atomar", "atomar"),
    ("ai-wok", "ai-wok"),
    ("makpong", "makpong"),
    ("cambodian", "cambodian"),
    ("shatar", "shatar"),
    ("karouk", "karouk"),
    ("asean", "asean"),
    ("paradigm", "paradigm"),
    ("georgian", "georgian"),
    ("dragon", "dragon"),
];

/// Where Chimera's catalogue variant mapped from a Fairy-Stockfish built-in plays unlike
/// Fairy-Stockfish's (the rules-class differences `tests/differential.rs` lists): a section
/// that inherits from it inherits these too, and `chimera import` says so.
pub fn known_differences(builtin: &str) -> Option<&'static str> {
    Some(match builtin {
        "crazyhouse" | "placement" | "seirawan" | "dobutsu" | "dragon" | "shouse" => "a drop does not reset Chimera's half-move clock",
        "shogi" | "minishogi" => "a drop does not reset Chimera's half-move clock",
        "xiangqi" => "the chasing rules are not applied; no fifty-move draw claim; a soldier's move resets the half-move clock",
        "minixiangqi" | "manchu" => "no fifty-move draw claim; a soldier's move resets the half-move clock",
        "makruk" | "ai-wok" | "asean" | "makpong" | "cambodian" | "karouk" => "no counting rules: the fifty-move rule instead",
        _ => return None,
    })
}

/// The keys of a Fairy-Stockfish built-in, from the catalogue variant mapped from it.
///
/// # Errors
/// The built-in has no mapping, or its catalogue variant cannot be written as keys.
pub fn builtin_parent_keys(parent: &str) -> Result<Keys, String> {
    let Some(&(_, id)) = BUILTIN_PARENTS.iter().find(|(fs, _)| *fs == parent) else {
        return Err(format!("the parent '{parent}' is neither a section before it nor a Fairy-Stockfish built-in Chimera maps"));
    };
    let file = crate::variants::builtin_resolved(id).ok_or_else(|| format!("the catalogue variant '{id}' does not load"))?;
    let keys = export_keys(&file).map_err(|refusals| {
        let why: Vec<String> = refusals.iter().map(|r| format!("{}: {}", r.key, r.message)).collect();
        format!("the parent '{parent}' (Chimera's '{id}') cannot be written as Fairy-Stockfish keys: {}", why.join("; "))
    })?;
    Ok(keys.into_iter().map(|(k, value)| (k, Val { value, line: None })).collect())
}

/// The name and value of a catalogue piece type that moves as `betza`, if there is one (the
/// first found, royal pieces left out).
pub fn catalogue_piece(betza: &str) -> Option<(String, i32)> {
    static PIECES: LazyLock<BTreeMap<String, (String, i32)>> = LazyLock::new(|| {
        let mut pieces = BTreeMap::new();
        for (_, file) in crate::variants::catalogue() {
            for p in file.pieces.unwrap_or_default() {
                if p.code.is_none() && !p.royal && p.value > 0 {
                    pieces.entry(p.betza.clone()).or_insert((p.name.clone(), p.value));
                }
            }
        }
        pieces
    });
    PIECES.get(betza).cloned()
}

/// What Fairy-Stockfish cannot express of a Chimera variant: which part, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unexpressible {
    /// The variant file's key (`presets`, `pieces[2].code`, `end[1]`…).
    pub key: String,
    /// What Fairy-Stockfish lacks.
    pub message: String,
}

impl std::fmt::Display for Unexpressible {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.key, self.message)
    }
}

/// A resolved variant file as an ini section named `name`.
///
/// # Errors
/// Everything of the variant that Fairy-Stockfish cannot express.
pub fn export(file: &VariantFile, name: &str) -> Result<String, Vec<Unexpressible>> {
    let keys = export_keys(file)?;
    let mut text = format!("[{name}]\n");
    for (k, v) in keys {
        text.push_str(&format!("{k} = {v}\n"));
    }
    Ok(text)
}

fn ranks_text(ranks: impl IntoIterator<Item = u8>) -> String {
    ranks.into_iter().map(|r| format!("*{r}")).collect::<Vec<_>>().join(" ")
}

fn lower(letters: &str) -> String {
    letters.chars().map(|c| c.to_ascii_lowercase()).collect()
}

/// A resolved variant file as Fairy-Stockfish keys (those that differ from its defaults).
///
/// # Errors
/// Everything of the variant that Fairy-Stockfish cannot express.
pub fn export_keys(file: &VariantFile) -> Result<BTreeMap<String, String>, Vec<Unexpressible>> {
    let board = file.board.clone().unwrap_or(crate::variants::BoardSpec {
        files: 8,
        ranks: 8,
        walls: Vec::new(),
        style: Default::default(),
        river: None,
    });
    let mut x = Export {
        file,
        pieces: file.pieces.as_deref().unwrap_or(&[]),
        ranks: board.ranks,
        keys: BTreeMap::new(),
        no: Vec::new(),
        piece_key: BTreeMap::new(),
        zone: None,
    };
    export_board(&mut x, &board);
    export_pieces(&mut x);
    export_castling(&mut x);
    export_promotion(&mut x);
    export_rules(&mut x);
    export_drops(&mut x);
    export_ends(&mut x);
    if x.no.is_empty() { Ok(x.keys) } else { Err(x.no) }
}

/// The keys written so far, what cannot be written, and what the concerns share.
struct Export<'a> {
    file: &'a VariantFile,
    pieces: &'a [PieceSpec],
    ranks: u8,
    keys: BTreeMap<String, String>,
    no: Vec<Unexpressible>,
    /// Each piece letter's Fairy-Stockfish key (`pawn`, `king`, `customPiece1`…).
    piece_key: BTreeMap<char, String>,
    /// The promotion ranks (first, last), once promotion is written.
    zone: Option<(u8, u8)>,
}

impl Export<'_> {
    fn refuse(&mut self, key: &str, message: &str) {
        self.no.push(Unexpressible { key: key.into(), message: message.into() });
    }

    /// The letters of the pieces `f` picks, in the file's order.
    fn letters(&self, f: &dyn Fn(&PieceSpec) -> bool) -> String {
        self.pieces.iter().filter(|p| f(p)).map(|p| p.letter).collect()
    }

    /// Fairy-Stockfish's own pawns.
    fn pawns(&self) -> String {
        self.letters(&|p| p.pawn && matches!(p.betza.as_str(), "fmWfceF" | "fmWfcF" | "fmWfceFifmnD"))
    }

    /// The pieces that promote.
    fn promoting(&self) -> String {
        self.letters(&|p| p.promotes)
    }

    /// The letters written under the key `name`.
    fn key_letters(&self, name: &str) -> String {
        self.piece_key.iter().filter(|(_, k)| *k == name).map(|(l, _)| *l).collect()
    }

    /// The promotion region of ranks `first..=last`: Fairy-Stockfish's regions are absolute
    /// ranks, *8 and *1 by default.
    fn promo_region(&mut self, first: u8, last: u8) {
        if (first, last) != (8, 8) {
            self.keys.insert("promotionRegionWhite".into(), ranks_text(first..=last));
        }
        let black: Vec<u8> = (first..=last).map(|r| self.ranks + 1 - r).collect();
        if black.as_slice() != [1] {
            self.keys.insert("promotionRegionBlack".into(), ranks_text(black));
        }
    }
}

/// The board's size and walling rules.
fn export_board(x: &mut Export, board: &crate::variants::BoardSpec) {
    let file = x.file;
    let (files, ranks) = (board.files, board.ranks);
    if files > 12 || ranks > 10 {
        x.refuse("board", "Fairy-Stockfish's boards are at most 12 files by 10 ranks");
    }
    // The board's walls need no key: the start writes them as `*`, as Fairy-Stockfish reads.
    if file.trail_walls == Some(true) {
        if file.duck == Some(true) {
            x.refuse("trail_walls", "Fairy-Stockfish has one walling rule: not the duck and a trail together");
        }
        x.keys.insert("wallingRule".into(), "past".into());
    }
    if file.duck == Some(true) {
        if board.walls.is_empty() {
            x.keys.insert("wallingRule".into(), "duck".into());
        } else {
            x.refuse("duck", "Fairy-Stockfish's duck cannot share a board with walls of its own");
        }
    }
    if files != 8 {
        x.keys.insert("maxFile".into(), files.to_string());
    }
    if ranks != 8 {
        x.keys.insert("maxRank".into(), ranks.to_string());
    }
}

/// The pieces: each under a Fairy-Stockfish piece key or as a custom piece, with the pawns'
/// double steps and the regions they are confined to.
fn export_pieces(x: &mut Export) {
    let (file, pieces, ranks) = (x.file, x.pieces, x.ranks);
    let promoting = x.promoting();
    let mut used_names: BTreeSet<&str> = BTreeSet::new();
    let mut custom = 0;
    let mut any_initial: Option<Vec<u8>> = None;
    let mut double_step = false;
    for (i, p) in pieces.iter().enumerate() {
        let path = format!("pieces[{i}]");
        let l = p.letter.to_ascii_lowercase();
        if let Some(code) = &p.code {
            if code == "cannon" && !used_names.contains("cannon") {
                used_names.insert("cannon");
                x.keys.insert("cannon".into(), l.to_string());
                x.piece_key.insert(p.letter, "cannon".into());
            } else {
                x.refuse(&format!("{path}.code"), &format!("the code piece '{code}' has no Fairy-Stockfish counterpart in the ini format"));
            }
            continue;
        }
        if crate::rules::parse_movement(&p.betza).is_ok_and(|m| !m.legs.is_empty()) {
            x.refuse(&format!("{path}.betza"), "Fairy-Stockfish does not read multi-leg moves ('a'); it skips the letter");
            continue;
        }
        // Fairy-Stockfish's soldier: a Shogi pawn until it reaches soldierPromotionRank, then
        // forward and sideways (Xiangqi's soldier across the river).
        if let Some(rm) = &p.region_moves {
            match soldier_rank(file, p) {
                Some(n) if !used_names.contains("soldier") => {
                    used_names.insert("soldier");
                    x.keys.insert("soldier".into(), l.to_string());
                    x.keys.insert("soldierPromotionRank".into(), n.to_string());
                    x.piece_key.insert(p.letter, "soldier".into());
                    if p.pawn && ends_have_move_rule(file) {
                        x.refuse(&format!("{path}.pawn"), "Fairy-Stockfish's soldier does not reset the move count");
                    }
                }
                _ => x.refuse(&format!("{path}.region_moves"), &format!("moves of its own in '{}' are not expressible", rm.region)),
            }
            continue;
        }
        if p.pawn && !matches!(p.betza.as_str(), "fmWfceF" | "fmWfcF" | "fmWfceFifmnD") && ends_have_move_rule(file) {
            x.refuse(
                &format!("{path}.pawn"),
                "a pawn that moves unlike Fairy-Stockfish's pawn: its custom pieces do not reset the move count",
            );
        }
        if p.betza.contains('i') {
            let r = p.initial_ranks.clone().unwrap_or_else(|| vec![2]);
            if any_initial.as_ref().is_some_and(|a| *a != r) {
                x.refuse(&format!("{path}.initial_ranks"), "initial ranks that differ between pieces");
            }
            any_initial = Some(r);
        }
        let key = if p.royal {
            if used_names.contains("king") {
                x.refuse(&format!("{path}.royal"), "more than one royal piece type");
            }
            used_names.insert("king");
            x.keys.insert("king".into(), if p.betza == "K" { l.to_string() } else { format!("{l}:{}", p.betza) });
            "king".to_string()
        } else if p.pawn && matches!(p.betza.as_str(), "fmWfceF" | "fmWfcF" | "fmWfceFifmnD") && !used_names.contains("pawn") {
            used_names.insert("pawn");
            double_step = p.betza.ends_with("ifmnD");
            x.keys.insert("pawn".into(), l.to_string());
            "pawn".to_string()
        } else if let Some(&(name, _)) =
            PIECE_NAMES.iter().find(|(n, b)| *b == p.betza && *n != "king" && *n != "pawn" && !used_names.contains(n))
        {
            used_names.insert(name);
            x.keys.insert(name.into(), l.to_string());
            name.to_string()
        } else {
            custom += 1;
            if custom > 25 {
                x.refuse(&format!("{path}.betza"), "more than 25 custom pieces");
            }
            let key = format!("customPiece{custom}");
            x.keys.insert(key.clone(), format!("{l}:{}", p.betza));
            key
        };
        x.piece_key.insert(p.letter, key);
    }
    if x.keys.contains_key("pawn") && !double_step {
        x.keys.insert("doubleStep".into(), "false".into());
    }
    // Fairy-Stockfish's double-step regions are absolute ranks, *2 and *7 by default.
    if let Some(r) = &any_initial {
        let black: Vec<u8> = r.iter().map(|&x| ranks + 1 - x).collect();
        if r.as_slice() != [2] {
            x.keys.insert("doubleStepRegionWhite".into(), ranks_text(r.iter().copied()));
        }
        if black.as_slice() != [7] {
            x.keys.insert("doubleStepRegionBlack".into(), ranks_text(black));
        }
    }
    // Chimera's other pawns (a soldier) matter only where moves are counted (refused above).
    if promoting != x.key_letters("pawn") {
        x.keys.insert("promotionPawnTypes".into(), if promoting.is_empty() { "-".into() } else { lower(&promoting) });
    }
    for p in pieces {
        if let Some(region) = &p.confined {
            let [w, b] = crate::variants::region_squares(file, region);
            let Some(key) = x.piece_key.get(&p.letter) else { continue };
            let mut camel = key.clone();
            camel[..1].make_ascii_uppercase();
            x.keys.insert(format!("mobilityRegionWhite{camel}"), squares_text(&w));
            x.keys.insert(format!("mobilityRegionBlack{camel}"), squares_text(&b));
        }
    }
}

/// The start position and castling.
fn export_castling(x: &mut Export) {
    let file = x.file;
    let start = file.start.clone().unwrap_or_default();
    x.keys.insert("startFen".into(), start.clone());
    if matches!(file.shuffle, Some(ShuffleSpec::Shuffled(_))) {
        x.refuse("shuffle", "a start shuffled for every game is not part of Fairy-Stockfish's variant format");
    }
    // Castling.
    let castles = x.letters(&|p| p.castles);
    let partners = x.letters(&|p| p.castling_partner);
    match &file.castling {
        Some(CastlingSpec::On { king, rook, king_takes_rook, rank, rook_start }) if !castles.is_empty() => {
            if *king_takes_rook {
                x.refuse("castling.king_takes_rook", "Chess960 castling notation is not exported");
            }
            let file_no = |c: char| c as u8 - b'a' + 1;
            if file_no(rook.0) + 1 != file_no(king.0) || file_no(rook.1) != file_no(king.1) + 1 {
                x.refuse("castling.rook", "the rook must land beside the king, on its inner side");
            }
            if king.0 != 'g' {
                x.keys.insert("castlingKingsideFile".into(), king.0.to_string());
            }
            if king.1 != 'c' {
                x.keys.insert("castlingQueensideFile".into(), king.1.to_string());
            }
            if *rank != 1 {
                x.keys.insert("castlingRank".into(), rank.to_string());
            }
            if let Some((k, q)) = rook_start {
                x.keys.insert("castlingRookKingsideFile".into(), k.to_string());
                x.keys.insert("castlingRookQueensideFile".into(), q.to_string());
            }
            if castles != x.key_letters("king") {
                x.keys.insert("castlingKingPiece".into(), lower(&castles));
            }
            if partners != x.key_letters("rook") {
                x.keys.insert("castlingRookPieces".into(), lower(&partners));
            }
        }
        _ => {
            x.keys.insert("castling".into(), "false".into());
        }
    }
}

/// Promotion on ranks or in a region, and Shogi-style piece promotion.
fn export_promotion(x: &mut Export) {
    let (file, pieces, ranks) = (x.file, x.pieces, x.ranks);
    let promoting = x.promoting();
    // Promotion.
    // Fairy-Stockfish's promotion regions are absolute ranks, *8 and *1 by default.
    if let Some(pr) = &file.promotion
        && !promoting.is_empty()
    {
        let first = pr.optional_from.unwrap_or(pr.rank);
        if pr.optional_from.is_some() {
            x.keys.insert("mandatoryPawnPromotion".into(), "false".into());
            // Without it Fairy-Stockfish would let a pawn stay a pawn on the last rank.
            x.keys.insert("immobilityIllegal".into(), "true".into());
            if pr.rank != ranks {
                x.refuse("promotion.rank", "optional promotion must run to the far rank");
            }
        }
        x.zone = Some((first, pr.rank));
        if pr.optional_from.is_none() && pr.rank != ranks {
            x.zone = Some((pr.rank, ranks));
        }
        if pr.region.is_some() {
            // A region of squares (Troitzky): listed square by square, for each side.
            match crate::variants::compile(file).ok().and_then(|v| v.promotion.squares.map(|sets| (v.geometry, sets))) {
                Some((g, sets)) => {
                    for (key, set) in [("promotionRegionWhite", &sets[0]), ("promotionRegionBlack", &sets[1])] {
                        let names: Vec<String> = g.squares().filter(|&sq| set.contains(sq)).map(|sq| g.name(sq)).collect();
                        x.keys.insert(key.into(), names.join(" "));
                    }
                }
                None => x.refuse("promotion.region", "the promotion region does not compile"),
            }
        } else {
            let (a, b) = x.zone.expect("set");
            x.promo_region(a, b);
        }
        // Fairy-Stockfish's template has no promotion choices: always say them.
        let set = |letters: &str| if letters.is_empty() { "-".to_string() } else { lower(letters) };
        x.keys.insert("promotionPieceTypes".into(), set(&pr.choices));
        if let Some(black) = &pr.black_choices {
            x.keys.insert("promotionPieceTypesWhite".into(), set(&pr.choices));
            x.keys.insert("promotionPieceTypesBlack".into(), set(black));
        }
        if !pr.limits.is_empty() {
            let text: Vec<String> = pr.limits.iter().map(|(l, n)| format!("{}:{n}", l.to_ascii_lowercase())).collect();
            x.keys.insert("promotionLimit".into(), text.join(" "));
        }
    } else if !promoting.is_empty() {
        x.refuse("promotion", "pieces promote but the variant has no promotion rule");
    }
    let promoted: Vec<String> = pieces
        .iter()
        .filter_map(|p| p.promotes_to.map(|t| format!("{}:{}", p.letter.to_ascii_lowercase(), t.to_ascii_lowercase())))
        .collect();
    if !promoted.is_empty() {
        x.keys.insert("promotedPieceType".into(), promoted.join(" "));
        let z = file.piece_promotion.as_ref().map_or(ranks, |pp| pp.zone);
        if x.zone.is_some_and(|zz| zz != (z, ranks)) {
            x.refuse("piece_promotion.zone", "a piece promotion x.zone that differs from the pawns' promotion ranks");
        }
        x.zone = Some((z, ranks));
        x.promo_region(z, ranks);
        if file.piece_promotion.as_ref().is_some_and(|pp| pp.mandatory) {
            x.keys.insert("mandatoryPiecePromotion".into(), "true".into());
        }
    }
}

/// Gating, immunities, draw odds, the rule switches and blasts.
fn export_rules(x: &mut Export) {
    let file = x.file;
    if file.gating == Some(true) {
        x.keys.insert("gating".into(), "true".into());
        x.keys.insert("seirawanGating".into(), "true".into());
    }
    if file.cambodian_moves == Some(true) {
        if file.gating == Some(true) || file.drops.is_some() {
            x.refuse("cambodian_moves", "Fairy-Stockfish keeps Cambodian rights as gates: not beside gating or drops");
        }
        x.keys.insert("gating".into(), "true".into());
        x.keys.insert("cambodianMoves".into(), "true".into());
    }
    if let Some(letters) = file.mutually_immune.as_ref().filter(|l| !l.is_empty()) {
        x.keys.insert("mutuallyImmuneTypes".into(), lower(letters));
    }
    match file.draw_odds {
        Some(crate::rules::Side::Black) => {
            x.keys.insert("materialCounting".into(), "blackdrawodds".into());
        }
        Some(crate::rules::Side::White) => {
            x.keys.insert("materialCounting".into(), "whitedrawodds".into());
        }
        None => {}
    }
    // The switches with a key of their own, and those Fairy-Stockfish does not have.
    for s in SWITCHES.iter().filter(|s| s.is_on(file)) {
        match s.ini {
            IniSwitch::Key { key, on } => {
                x.keys.insert(key.into(), on.to_string());
            }
            IniSwitch::Missing(why) => x.refuse(s.key, why),
            IniSwitch::Composite => {}
        }
    }
    if file.diagonal_lines.is_some() {
        x.refuse("diagonal_lines", "diagonal lines go with Janggi's code pieces");
    }
    if file.material_count.is_some() {
        x.refuse("material_count", "a material count is not exported");
    }
    if let Some(b) = &file.blast {
        x.keys.insert("blastOnCapture".into(), "true".into());
        if b.immune != x.pawns() {
            x.refuse("blast.immune", "only the pawns may survive a neighbouring blast");
        }
        if !b.unharmed.is_empty() {
            x.keys.insert("blastImmuneTypes".into(), lower(&b.unharmed));
        }
    }
}

/// Hands and drops.
fn export_drops(x: &mut Export) {
    let (file, ranks) = (x.file, x.ranks);
    let (pawns, promoting) = (x.pawns(), x.promoting());
    if let Some(d) = &file.drops {
        x.keys.insert("pieceDrops".into(), "true".into());
        if d.captures_to_hand {
            x.keys.insert("capturesToHand".into(), "true".into());
        }
        // Fairy-Stockfish's pawn drops: never on the first rank unless allowed, never in the
        // promotion x.zone unless allowed.
        let zone_ranks: Vec<u8> = x.zone.map_or(Vec::new(), |(a, b)| (a..=b).collect());
        let expect = |first: bool, in_zone: bool| -> BTreeMap<char, Vec<u8>> {
            pawns
                .chars()
                .filter_map(|p| {
                    let mut r = Vec::new();
                    if !first {
                        r.push(1);
                    }
                    if !in_zone && promoting.contains(p) {
                        r.extend(zone_ranks.iter().copied());
                    }
                    (!r.is_empty()).then_some((p, r))
                })
                .collect()
        };
        let found =
            [(false, false), (true, false), (false, true), (true, true)].into_iter().find(|&(a, b)| expect(a, b) == d.forbidden_ranks);
        match found {
            Some((first, in_zone)) => {
                if first {
                    x.keys.insert("firstRankPawnDrops".into(), "true".into());
                }
                if in_zone {
                    x.keys.insert("promotionZonePawnDrops".into(), "true".into());
                }
            }
            None => x.refuse("drops.forbidden_ranks", "forbidden drop ranks other than the pawns' first rank and promotion x.zone"),
        }
        if !d.ranks.is_empty() {
            x.keys.insert("dropRegionWhite".into(), ranks_text(d.ranks.iter().copied()));
            x.keys.insert("dropRegionBlack".into(), ranks_text(d.ranks.iter().map(|&r| ranks + 1 - r)));
        }
        if d.must_drop {
            x.keys.insert("mustDrop".into(), "true".into());
        }
        if d.opposite_bishops {
            x.keys.insert("dropOppositeColoredBishop".into(), "true".into());
        }
        if d.castling_on_drop {
            x.keys.insert("castlingDroppedPiece".into(), "true".into());
        }
        if d.keep_promoted {
            x.keys.insert("dropLoop".into(), "true".into());
        }
        if d.no_checks {
            x.keys.insert("dropChecks".into(), "false".into());
        }
        if !d.no_doubled.is_empty() {
            if d.no_doubled.chars().count() > 1 {
                x.refuse("drops.no_doubled", "only one letter");
            }
            x.keys.insert("dropNoDoubled".into(), lower(&d.no_doubled));
            if d.no_doubled_count != 1 {
                x.keys.insert("dropNoDoubledCount".into(), d.no_doubled_count.to_string());
            }
        }
        if !d.no_drop_mate.is_empty() {
            if d.no_drop_mate != x.key_letters("shogiPawn") {
                x.refuse("drops.no_drop_mate", "only the Shogi pawn's drop mate can be forbidden");
            }
            x.keys.insert("shogiPawnDropMateIllegal".into(), "true".into());
        }
    }
}

/// How the game ends, and what only Chimera has (presets, profiles).
fn export_ends(x: &mut Export) {
    let (file, pieces) = (x.file, x.pieces);
    // Ends.
    let ends = file.end.clone().unwrap_or_else(crate::variants::default_end);
    let verdict = |v: Verdict| match v {
        Verdict::Win => "win",
        Verdict::Loss => "loss",
        Verdict::Draw => "draw",
    };
    let (mut move_rule, mut repetition, mut stalemate) = (None, None, None);
    for (i, e) in ends.iter().enumerate() {
        let path = format!("end[{i}]");
        match e {
            EndSpec::Checkmate => {}
            EndSpec::Checkmated(v) => {
                x.keys.insert("checkmateValue".into(), verdict(*v).into());
            }
            EndSpec::ShatarMate { shak, knights } => {
                // Fairy-Stockfish's rule names its rook, knight and bers.
                let by_moves = |moves: &[&str]| -> BTreeSet<char> {
                    pieces.iter().filter(|p| moves.contains(&p.betza.as_str())).map(|p| p.letter).collect()
                };
                let set = |letters: &str| letters.chars().collect::<BTreeSet<char>>();
                if set(shak) != by_moves(&["R", "N", "RF"]) || set(knights) != by_moves(&["N"]) {
                    x.refuse(&path, "Fairy-Stockfish's Shatar mate counts the checks of its rook, knight and bers (R, N, RF) only");
                }
                x.keys.insert("shatarMateRule".into(), "true".into());
            }
            EndSpec::Stalemate(v) => stalemate = Some(*v),
            EndSpec::StalemateByCount => {
                // Fairy-Stockfish scores a stalemate by count with the stalemate value: the
                // side with fewer pieces gets it (a win here), the other its opposite.
                x.keys.insert("stalematePieceCount".into(), "true".into());
                stalemate = Some(Verdict::Win);
            }
            EndSpec::RegionReached { pieces: which, region, reply, safe, count } => {
                let [w, b] = crate::variants::region_squares(file, region);
                x.keys.insert("flagRegionWhite".into(), squares_text(&w));
                x.keys.insert("flagRegionBlack".into(), squares_text(&b));
                let all: String = pieces.iter().map(|p| p.letter).collect();
                if *which != all {
                    if which.chars().count() != 1 {
                        x.refuse(&path, "a flag of more than one piece type");
                    }
                    x.keys.insert("flagPiece".into(), lower(which));
                }
                if *reply {
                    x.keys.insert("flagMove".into(), "true".into());
                }
                if *safe {
                    x.keys.insert("flagPieceSafe".into(), "true".into());
                }
                if *count != 1 {
                    x.keys.insert("flagPieceCount".into(), count.to_string());
                }
            }
            EndSpec::Extinction { pieces: which, per_type, fewer_than, verdict: v, pseudo_royal } => {
                if which.chars().count() > 1 && !per_type {
                    x.refuse(&path, "extinction of several types together");
                }
                x.keys.insert("extinctionValue".into(), verdict(*v).into());
                x.keys.insert("extinctionPieceTypes".into(), if which.is_empty() { "*".into() } else { lower(which) });
                if *pseudo_royal {
                    x.keys.insert("extinctionPseudoRoyal".into(), "true".into());
                }
                if *fewer_than > 1 {
                    x.keys.insert("extinctionPieceCount".into(), (fewer_than - 1).to_string());
                }
            }
            EndSpec::NCheck(_) => {
                x.keys.insert("checkCounting".into(), "true".into());
            }
            EndSpec::MoveRule(n) => {
                if n % 2 == 1 {
                    x.refuse(&path, "a move rule of an odd number of half-moves");
                }
                move_rule = Some(n / 2);
            }
            EndSpec::Repetition(n) => repetition = Some(*n),
            EndSpec::RepetitionScored { count, verdict: v, for_white } => {
                repetition = Some(*count);
                x.keys.insert("nFoldValue".into(), verdict(*v).into());
                if *for_white {
                    x.keys.insert("nFoldValueAbsolute".into(), "true".into());
                }
            }
            // (Fairy-Stockfish judges material by its own rule: lichess's is a departure it lacks.)
            EndSpec::InsufficientMaterial | EndSpec::InsufficientMaterialAs(_) => {}
            EndSpec::BareKing(_) | EndSpec::RegionHeld { .. } | EndSpec::Bikjang | EndSpec::DoublePass => {
                x.refuse(&path, "this end condition has no Fairy-Stockfish key");
            }
        }
    }
    match stalemate {
        Some(Verdict::Draw) => {}
        Some(v) => {
            x.keys.insert("stalemateValue".into(), verdict(v).into());
        }
        None => x.refuse("end", "without a stalemate rule Fairy-Stockfish would draw"),
    }
    if move_rule != Some(50) {
        x.keys.insert("nMoveRule".into(), move_rule.unwrap_or(0).to_string());
    }
    if repetition != Some(3) {
        x.keys.insert("nFoldRule".into(), repetition.unwrap_or(0).to_string());
    }
    if !file.presets.as_ref().is_none_or(Vec::is_empty) {
        x.refuse("presets", "presets are Chimera's own");
    }
    for (i, a) in file.actions.iter().flatten().enumerate() {
        x.refuse(&format!("actions[{i}]"), &format!("the action '{}' is Chimera's own: Fairy-Stockfish has no actions", a.name));
    }
    for (i, f) in file.facts.iter().flatten().enumerate() {
        x.refuse(&format!("facts[{i}]"), &format!("the piece fact '{}' is Chimera's own: Fairy-Stockfish has no piece facts", f.name));
    }
    if file.profile.is_some() {
        x.refuse("profile", "modifier profiles are Chimera's own");
    }
}

fn squares_text(squares: &[(u8, u8)]) -> String {
    squares.iter().map(|&(f, r)| format!("{}{}", (b'a' + f) as char, r + 1)).collect::<Vec<_>>().join(" ")
}

/// Whether the variant's ends count moves (a move rule), where pawns matter.
fn ends_have_move_rule(file: &VariantFile) -> bool {
    file.end.clone().unwrap_or_else(crate::variants::default_end).iter().any(|e| matches!(e, EndSpec::MoveRule(_)))
}

/// The rank (1 = own back rank) from which a piece moves as Fairy-Stockfish's soldier does
/// beyond its soldierPromotionRank: `fW` before, `fsW` in a region of whole ranks from there
/// to the far rank, mirrored for black.
fn soldier_rank(file: &VariantFile, p: &PieceSpec) -> Option<u8> {
    let rm = p.region_moves.as_ref()?;
    if p.betza != "fW" || rm.betza != "fsW" {
        return None;
    }
    let board = file.board.as_ref()?;
    let [w, b] = crate::variants::region_squares(file, &rm.region);
    let n = w.iter().map(|&(_, r)| r).min()? + 1;
    let expect_w: Vec<(u8, u8)> = (n - 1..board.ranks).flat_map(|r| (0..board.files).map(move |f| (f, r))).collect();
    let expect_b: Vec<(u8, u8)> = (0..=board.ranks - n).flat_map(|r| (0..board.files).map(move |f| (f, r))).collect();
    let sorted = |mut v: Vec<(u8, u8)>| {
        v.sort_unstable();
        v
    };
    (sorted(w) == sorted(expect_w) && sorted(b) == sorted(expect_b)).then_some(n)
}
