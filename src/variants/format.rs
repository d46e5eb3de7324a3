//! The variant file format: what a RON file in `presets/` says, field by field, before it is
//! validated. Every field but `id` may be left out when the file `extends` another variant;
//! unknown fields are rejected. `presets/README.md` documents each key with an example.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use crate::presets::Scope;
use crate::rules::{Shuffle, Verdict};

/// A variant file as written.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantFile {
    /// Stable id; must equal the file stem.
    pub id: String,
    /// The variant this one starts from; only what differs needs stating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extends: Option<String>,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// One paragraph for the variant picker.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The rules in plain words, for the rules panel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_summary: Option<String>,
    /// Board size and holes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardSpec>,
    /// Piece types. With `extends`, these replace the parent's types of the same letter and
    /// add new ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pieces: Option<Vec<PieceSpec>>,
    /// Letters of inherited piece types to drop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remove_pieces: Option<String>,
    /// The start position as FEN.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// How new games shuffle the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shuffle: Option<ShuffleSpec>,
    /// Castling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub castling: Option<CastlingSpec>,
    /// Promotion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promotion: Option<PromotionSpec>,
    /// Shogi-style promotion: pieces with `promotes_to` may promote on any move that starts or
    /// ends in the zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece_promotion: Option<PiecePromotionSpec>,
    /// A piece may not move or be dropped where it could never move again (Shogi's pawn and
    /// lance on the last rank, knight on the last two); such moves must promote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_immobile_pieces: Option<bool>,
    /// Named regions of the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regions: Option<BTreeMap<String, RegionSpec>>,
    /// Whether a side that can capture must.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mandatory_capture: Option<bool>,
    /// Hands and drops.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drops: Option<DropsSpec>,
    /// Exploding captures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blast: Option<BlastSpec>,
    /// Pieces in hand enter by gating (Seirawan): onto the square a back-rank piece leaves on
    /// its first move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gating: Option<bool>,
    /// A side not in check may pass instead of moving (Janggi).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass: Option<bool>,
    /// Letters of the types that cannot capture one another (Atomar: `"K"`, no king takes a king).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutually_immune: Option<String>,
    /// A game that would be drawn is won by this side instead (Armageddon: `Black`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_odds: Option<crate::rules::Side>,
    /// Every move also moves the duck (Duck chess): a wall of no side, placed on any empty
    /// square other than the one it left; it enters the board with the first move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duck: Option<bool>,
    /// A royal piece in check may not step away: its only move is to take the one piece
    /// checking it (Makpong).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub makpong: Option<bool>,
    /// Ouk Chatrang's first-move leaps (Cambodian): a king still on a square whose right the
    /// castling field keeps (`DEde`) may leap as a knight to the next rank forward, out of
    /// check and without capturing; a ferz (Betza `F`) on such a square may jump two squares
    /// straight forward onto an empty square.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cambodian_moves: Option<bool>,
    /// Fixed gating (Musketeer): each piece in hand waits above one back-rank file, written
    /// in a gate row beyond each side's back rank in the start's placement
    /// (`lc******/rnbqkbnr/…/RNBQKBNR/LC******`), and must enter on the square that file's
    /// piece leaves on its first move; it is lost if that piece is taken first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_gating: Option<bool>,
    /// Every move leaves a wall on the square the piece left (Joust, Snail trail;
    /// Fairy-Stockfish's `wallingRule = past`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trail_walls: Option<bool>,
    /// A repetition in which one side checked with every move is lost by that side, drawn if
    /// both did (Xiangqi, Shogi; Fairy-Stockfish's `perpetualCheckIllegal`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub perpetual_check_loses: Option<bool>,
    /// The region (by name) whose points are joined by diagonal lines that the `janggi_*` code
    /// pieces also move along (Janggi's palaces).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagonal_lines: Option<String>,
    /// Points per piece letter and black's bonus, for games decided by a count (`Bikjang`,
    /// `DoublePass`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub material_count: Option<MaterialCountSpec>,
    /// Royal pieces may not face each other on an open file or rank (Xiangqi).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flying_general: Option<bool>,
    /// Whether moves that give check are illegal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checks_forbidden: Option<bool>,
    /// A piece that captures (never a royal one) changes side on the square where it took
    /// (Andernach chess).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captures_change_side: Option<bool>,
    /// How the game ends, checked in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<Vec<EndSpec>>,
    /// Presets the variant activates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub presets: Option<Vec<PresetUse>>,
    /// The modifier profile a game of the variant starts with: a built-in profile's id, or
    /// one written out here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<ProfileUse>,
}

/// A variant file's `profile`: `"sturdy-rooks"` or `(id: "mine", types: {...})`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ProfileUse {
    /// A built-in profile by id (`chimera list profiles`).
    Id(String),
    /// A profile written in the file.
    Inline(crate::modifiers::Profile),
}

/// Board size and holes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardSpec {
    /// Files, 3 to 16.
    pub files: u8,
    /// Ranks, 3 to 16.
    pub ranks: u8,
    /// Squares that do not exist (walls), by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub walls: Vec<String>,
    /// How the board is drawn: `Squares` (the default) or `Intersections` (Xiangqi).
    #[serde(default, skip_serializing_if = "is_squares")]
    pub style: BoardStyle,
    /// Draw a river between this rank and the next (Xiangqi: 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub river: Option<u8>,
}

/// How a board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum BoardStyle {
    /// Pieces in squares.
    #[default]
    Squares,
    /// Pieces on the points where lines cross.
    Intersections,
}

fn is_squares(s: &BoardStyle) -> bool {
    *s == BoardStyle::Squares
}

/// One piece type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceSpec {
    /// FEN letter, upper case.
    pub letter: char,
    /// Name, lower case.
    pub name: String,
    /// Movement in Betza notation.
    pub betza: String,
    /// Royal: checkmate and check apply to it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub royal: bool,
    /// Value hint in centipawns.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub value: i32,
    /// A pawn: resets the fifty-move clock, SAN omits its letter.
    #[serde(default, skip_serializing_if = "is_false")]
    pub pawn: bool,
    /// Promotes on the promotion rank.
    #[serde(default, skip_serializing_if = "is_false")]
    pub promotes: bool,
    /// The letter of the one type it may promote to in the `piece_promotion` zone (Shogi).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promotes_to: Option<char>,
    /// Ranks (1 = own back rank) where its `i` (initial) moves apply; default `[2]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_ranks: Option<Vec<u8>>,
    /// The king of castling.
    #[serde(default, skip_serializing_if = "is_false")]
    pub castles: bool,
    /// The rook of castling.
    #[serde(default, skip_serializing_if = "is_false")]
    pub castling_partner: bool,
    /// A region (by name) it may never leave, e.g. the palace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confined: Option<String>,
    /// Different movement inside a region, e.g. a soldier across the river.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region_moves: Option<RegionMoves>,
    /// A glyph or image name for display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub glyph: Option<String>,
    /// Movement written in code (a registered generator and attack probe, e.g. `cannon`);
    /// `betza` then only draws its diagram.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

impl PieceSpec {
    /// A plain piece: its letter, name and movement, and nothing else (not royal, no pawn or
    /// promotion, no value hint, no image named).
    pub fn plain(letter: char, name: &str, betza: &str) -> PieceSpec {
        PieceSpec {
            letter,
            name: name.to_string(),
            betza: betza.to_string(),
            royal: false,
            value: 0,
            pawn: false,
            promotes: false,
            promotes_to: None,
            initial_ranks: None,
            castles: false,
            castling_partner: false,
            confined: None,
            region_moves: None,
            glyph: None,
            code: None,
        }
    }
}

/// Movement that replaces a type's own inside a region.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegionMoves {
    /// Region name.
    pub region: String,
    /// Movement there, in Betza notation.
    pub betza: String,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn one() -> u8 {
    1
}

fn is_one(v: &u8) -> bool {
    *v == 1
}

fn is_zero(v: &i32) -> bool {
    *v == 0
}

/// How new games shuffle the start.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShuffleSpec {
    /// Always the `start` position.
    Fixed,
    /// A shuffled start.
    Shuffled(Shuffle),
}

/// Castling.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CastlingSpec {
    /// No castling.
    Off,
    /// Castling with these landing files (letters), `(king side, queen side)`.
    On {
        /// Where the king lands, e.g. `('g', 'c')`.
        king: (char, char),
        /// Where the rook lands, e.g. `('f', 'd')`.
        rook: (char, char),
        /// Castling is written king-takes-rook in UCI (Chess960).
        #[serde(default, skip_serializing_if = "is_false")]
        king_takes_rook: bool,
        /// The rank (1 = own back rank) king and rook castle on; default 1.
        #[serde(default = "one", skip_serializing_if = "is_one")]
        rank: u8,
        /// Files where FEN's `K` and `Q` find the castling rook first, `(king side, queen side)`;
        /// without it they mean the outermost rook (X-FEN).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rook_start: Option<(char, char)>,
    },
}

/// Hands and drops.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DropsSpec {
    /// Captured pieces go to the captor's hand.
    pub captures_to_hand: bool,
    /// Ranks (1 = own back rank) where a letter may not be dropped, e.g. `{'P': [1, 8]}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub forbidden_ranks: BTreeMap<char, Vec<u8>>,
    /// The only ranks (1 = own back rank) where pieces may be dropped; empty: any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ranks: Vec<u8>,
    /// A side with pieces in hand must drop one instead of moving.
    #[serde(default, skip_serializing_if = "is_false")]
    pub must_drop: bool,
    /// A side's two bishops must stand on squares of different colours.
    #[serde(default, skip_serializing_if = "is_false")]
    pub opposite_bishops: bool,
    /// Dropping a king and rook on their castling squares gives the castling right.
    #[serde(default, skip_serializing_if = "is_false")]
    pub castling_on_drop: bool,
    /// Letters that may not be dropped on a file already holding an unpromoted piece of the
    /// same type and side (Shogi's nifu: `"P"`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub no_doubled: String,
    /// How many of a `no_doubled` type a file may already hold before no more may be
    /// dropped there (default 1; Tori shogi: 2).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub no_doubled_count: u8,
    /// Letters whose drop may not checkmate (Shogi's uchifuzume: `"P"`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub no_drop_mate: String,
    /// No drop may give check (Fairy-Stockfish's `dropChecks = false`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub no_checks: bool,
    /// A promoted piece taken goes to the hand as what it became, not what it was (Loop and
    /// Chessgi: a promoted queen comes back as a queen).
    #[serde(default, skip_serializing_if = "is_false")]
    pub keep_promoted: bool,
}

/// Exploding captures.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlastSpec {
    /// Letters of the types that survive a neighbouring blast.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub immune: String,
    /// Letters of the types no blast harms, not even their own capture's (Atomar's kings).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub unharmed: String,
}

/// Promotion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromotionSpec {
    /// The rank (1 = own back rank) on which promoting pieces must promote.
    pub rank: u8,
    /// Letters of the types offered, in order (to black too, unless `black_choices` is set).
    pub choices: String,
    /// Letters offered to black's pieces where they differ from white's (Chigorin).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_choices: Option<String>,
    /// From this rank on (up to `rank`) promotion is optional.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional_from: Option<u8>,
    /// At most this many pieces of a letter on the board for a promotion to it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub limits: BTreeMap<char, u8>,
    /// A named region whose squares are where pieces promote, instead of the rank and those
    /// beyond it (Troitzky's board: the last square of each file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
}

/// A material count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaterialCountSpec {
    /// Points per piece letter; letters not listed count nothing.
    pub points: BTreeMap<char, f64>,
    /// Added to black's total (Janggi: 1.5).
    #[serde(default)]
    pub black_bonus: f64,
}

/// Shogi-style promotion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PiecePromotionSpec {
    /// The first rank of the zone (1 = own back rank); it runs to the far rank.
    pub zone: u8,
    /// A piece that may promote must (Dobutsu's chick).
    #[serde(default, skip_serializing_if = "is_false")]
    pub mandatory: bool,
}

/// A region: a set of squares, possibly different for each side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RegionSpec {
    /// The rectangle between two corner squares, e.g. `Rect("d4", "e5")`.
    Rect(String, String),
    /// Listed squares.
    Squares(Vec<String>),
    /// Squares in any of the named regions.
    Union(Vec<String>),
    /// Squares in all of the named regions.
    Intersection(Vec<String>),
    /// One region for white and another for black (named regions).
    PerSide {
        /// White's region.
        white: String,
        /// Black's region.
        black: String,
    },
}

/// A game-end condition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EndSpec {
    /// No legal move while in check loses.
    Checkmate,
    /// No legal move while not in check: this verdict for the side to move.
    Stalemate(Verdict),
    /// A piece of these letters reaching the named region wins at once.
    RegionReached {
        /// Letters of the types that count.
        pieces: String,
        /// Region name.
        region: String,
        /// Racing Kings' reply rule: if white gets there first, black may still draw by getting
        /// there with its next move.
        #[serde(default, skip_serializing_if = "is_false")]
        reply: bool,
        /// The piece must also be safe there: not attacked by the opponent (Dobutsu's try). A
        /// piece that got there under attack wins once the opponent leaves it alone.
        #[serde(default, skip_serializing_if = "is_false")]
        safe: bool,
        /// How many such pieces must stand there together (default 1).
        #[serde(default = "one", skip_serializing_if = "is_one")]
        count: u8,
    },
    /// A side left with royal pieces only gets this verdict.
    BareKing(Verdict),
    /// A side with no pieces of these letters left (empty: no pieces at all) gets this verdict.
    Extinction {
        /// Letters of the types that count; empty means every piece.
        pieces: String,
        /// Judge each listed type on its own (losing all of any one counts).
        #[serde(default, skip_serializing_if = "is_false")]
        per_type: bool,
        /// Extinct below this many pieces; default 1 (none left).
        #[serde(default = "one", skip_serializing_if = "is_one")]
        fewer_than: u8,
        /// The verdict for the side that has none left.
        verdict: Verdict,
        /// While a side has no more than `fewer_than` of them they are royal (Sho shogi: the
        /// last of king and prince).
        #[serde(default, skip_serializing_if = "is_false")]
        pseudo_royal: bool,
    },
    /// No legal move while in check: this verdict for the side to move.
    Checkmated(Verdict),
    /// Shatar's mate: a mate wins only if the mating side's unbroken series of checks had a
    /// check by one of the `shak` letters; otherwise it draws, and a mate by `knights` alone
    /// loses for the side that gave it.
    ShatarMate {
        /// Letters of the pieces whose checks count.
        shak: String,
        /// Letters of the pieces that may not mate alone.
        knights: String,
    },
    /// A side that starts its turn with a piece of these letters on the named region wins.
    RegionHeld {
        /// Letters of the types that count.
        pieces: String,
        /// Region name.
        region: String,
    },
    /// The side that gives this many checks wins.
    NCheck(u8),
    /// This many half-moves without capture or pawn move draws.
    MoveRule(u32),
    /// The same position this many times draws.
    Repetition(u8),
    /// Material with which neither side can mate draws.
    InsufficientMaterial,
    /// The royal pieces face each other on an open file after two moves in a row (Janggi's
    /// bikjang): the game ends, scored by `material_count` (a draw without one).
    Bikjang,
    /// Both sides pass in a row: the game ends, scored as for `Bikjang`.
    DoublePass,
    /// No legal move while not in check: the side with fewer pieces on the board wins, equal
    /// numbers draw (Suicide chess).
    StalemateByCount,
    /// The same position `count` times: `verdict` for the side to move then, or for white
    /// with `for_white` (Minishogi: a fourth repetition loses for the first player).
    RepetitionScored {
        /// How many times.
        count: u8,
        /// The verdict.
        verdict: Verdict,
        /// The verdict is white's, whoever is to move.
        #[serde(default, skip_serializing_if = "is_false")]
        for_white: bool,
    },
}

/// A preset the variant activates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PresetUse {
    /// Preset id.
    pub id: String,
    /// Parameters by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, f64>,
    /// Which side it applies to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<Scope>,
    /// How many turns it lasts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<u32>,
}
