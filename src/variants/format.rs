//! The variant file format: what a RON file in `presets/` says, field by field, before it is
//! validated. Every field but `id` may be left out when the file `extends` another variant;
//! unknown fields are rejected. `presets/README.md` documents each key with an example.
//!
//! # Rule switches
//!
//! The rules a variant has on or off, each declared once, as one row of the
//! `switches` table below. A row gives the switch's key in the variant file (which is
//! also its field there and in [`RuleSwitches`]), its words and section in the editor, and its
//! Fairy-Stockfish key. From the rows come the file's field, the merge of `extends`, the
//! compiled [`RuleSwitches`], the ini import and export, and the editor's checkbox. A switch is
//! off unless the file turns it on; off is written as the key left out.
//!
//! # How to add a rule
//!
//! A rule that is on or off:
//! 1. a row in the `switches` table here: its doc, `label` (what it does, in the editor's
//!    words), `section` (where the editor lists it) and `ini` (`Key` when a Fairy-Stockfish key
//!    of its own says it, `Missing` with the reason when Fairy-Stockfish has no such rule);
//! 2. a field of the same name in [`RuleSwitches`] (`rules/variant.rs`);
//! 3. the rule itself, where the engine's sequence needs it (`rules/query.rs` for the
//!    legal-move query, `rules/apply.rs` for moving, `rules/end.rs` for how a game ends),
//!    reading `variant.switches.<name>`; the pipeline's needs (`rules/pipeline.rs`) when it
//!    adds a step.
//!
//! Nothing else changes: `extends` merges it, the importer reads its key, the exporter writes
//! it, and the editor lists it. A rule with values (a region, letters, a number) is a field
//! of its own in the file, read by `compile.rs` and the ini code of its concern.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use crate::presets::Scope;
use crate::rules::{MaterialRule, RuleSwitches, Shuffle, Verdict};

/// Where the editor lists a switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwitchSection {
    /// With promotion.
    Promotion,
    /// With hands and drops.
    Drops,
    /// Among the other rules.
    Rules,
}

/// How Fairy-Stockfish's variant configuration says a switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IniSwitch {
    /// A key of its own: `key = on` turns the switch on; the key left out, or the other
    /// value, leaves it off.
    Key {
        /// The key.
        key: &'static str,
        /// The value that means on.
        on: bool,
    },
    /// Said together with other keys, which the importer and exporter read and write with
    /// their concern (gating, walls).
    Composite,
    /// Fairy-Stockfish has no such rule: a variant with it on is not exported, for this reason.
    Missing(&'static str),
}

/// One rule switch (see the module docs).
pub struct RuleSwitch {
    /// Its key in the variant file, and the path of its problems.
    pub key: &'static str,
    /// What it does, in the editor's words.
    pub label: &'static str,
    /// Where the editor lists it.
    pub section: SwitchSection,
    /// How Fairy-Stockfish says it.
    pub ini: IniSwitch,
    /// Its value in a file.
    pub get: fn(&VariantFile) -> Option<bool>,
    /// Sets its value in a file.
    pub set: fn(&mut VariantFile, Option<bool>),
    /// Sets it in the compiled rules.
    pub compile: fn(&mut RuleSwitches, bool),
}

impl RuleSwitch {
    /// Whether it is on in `f`.
    pub fn is_on(&self, f: &VariantFile) -> bool {
        (self.get)(f) == Some(true)
    }

    /// Turns it on or off in `f` (off is written as the key left out).
    pub fn turn(&self, f: &mut VariantFile, on: bool) {
        (self.set)(f, on.then_some(true));
    }
}

impl std::fmt::Debug for RuleSwitch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key)
    }
}

impl PartialEq for RuleSwitch {
    fn eq(&self, other: &RuleSwitch) -> bool {
        self.key == other.key
    }
}

/// The switch of key `key`.
pub fn switch(key: &str) -> Option<&'static RuleSwitch> {
    SWITCHES.iter().find(|s| s.key == key)
}

/// The switches `file` turns on, compiled.
pub fn compile_switches(file: &VariantFile) -> RuleSwitches {
    let mut on = RuleSwitches::default();
    for s in SWITCHES {
        (s.compile)(&mut on, s.is_on(file));
    }
    on
}

/// Fairy-Stockfish's rules that Chimera has neither as a switch nor as a field of the file:
/// the importer refuses a section that sets one of these keys to anything but its default
/// (key, default, why). A rule added as a switch leaves this list for the table.
pub const INI_LACKING: &[(&str, &str, &str)] = &[
    ("petrifyOnCaptureTypes", "-", "petrification is not supported"),
    ("petrifyBlastPieces", "false", "petrification is not supported"),
    ("passOnStalemateWhite", "false", "passing on stalemate for one side only is not supported"),
    ("passOnStalemateBlack", "false", "passing on stalemate for one side only is not supported"),
    ("wallOrMove", "false", "walls are not supported yet"),
    ("moveRepetitionIllegal", "false", "forbidden repetitions are not supported"),
    ("chasingRule", "none", "chasing rules are not supported"),
    ("bikjangRule", "false", "bikjang needs Janggi's code pieces; import from the janggi catalogue variant is not supported"),
    ("countingRule", "none", "counting rules (Makruk, ASEAN) are not supported"),
    ("extinctionClaim", "false", "extinction by claim is not supported"),
    ("dupleCheck", "false", "duple check is not supported"),
    ("extinctionOpponentPieceCount", "0", "an opponent piece count for extinction is not supported"),
    ("flagPieceBlockedWin", "false", "blocked flag wins are not supported"),
    ("adjudicateFullBoard", "false", "full-board adjudication is not supported"),
    ("diagonalLines", "", "diagonal lines need Janggi's code pieces"),
    ("connectN", "0", "connection games are out of scope"),
    ("connectNxN", "0", "connection games are out of scope"),
    ("collinearN", "0", "connection games are out of scope"),
    ("flipEnclosedPieces", "none", "flipping pieces (Reversi) is out of scope"),
];

/// Declares [`VariantFile`] from its fields and its rule switches, and with them the merge of
/// `extends` ([`VariantFile::inherit`]) and the switch table ([`SWITCHES`]). A switch's row
/// is all there is to say about it as data (see the module docs).
macro_rules! variant_file {
    (
        fields { $( $(#[doc = $doc:literal])* $field:ident: $ty:ty, )* }
        switches {
            $( $(#[doc = $sdoc:literal])* $switch:ident { label: $label:literal, section: $section:ident, ini: $ini:expr, } )*
        }
    ) => {
        /// A variant file as written.
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct VariantFile {
            /// Stable id; must equal the file stem.
            pub id: String,
            $(
                $(#[doc = $doc])*
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $field: Option<$ty>,
            )*
            $(
                $(#[doc = $sdoc])*
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $switch: Option<bool>,
            )*
        }

        impl VariantFile {
            /// Takes from `parent` every field this file leaves out: the merge of `extends`,
            /// field by field alike (the pieces, which merge by letter, are the caller's).
            pub fn inherit(&mut self, parent: VariantFile) {
                $( if self.$field.is_none() { self.$field = parent.$field; } )*
                $( if self.$switch.is_none() { self.$switch = parent.$switch; } )*
            }
        }

        /// The rule switches, in the order the editor lists them.
        pub const SWITCHES: &[RuleSwitch] = &[
            $(
                RuleSwitch {
                    key: stringify!($switch),
                    label: $label,
                    section: SwitchSection::$section,
                    ini: {
                        #[allow(unused_imports)]
                        use IniSwitch::{Composite, Key, Missing};
                        $ini
                    },
                    get: |f| f.$switch,
                    set: |f, on| f.$switch = on,
                    compile: |r, on| r.$switch = on,
                },
            )*
        ];
    };
}

variant_file! {
    fields {
        /// The format of the file: 1 when left out; 2 for a file with `actions`.
        format: u32,
        /// The variant this one starts from; only what differs needs stating.
        extends: String,
        /// Display name.
        name: String,
        /// One paragraph for the variant picker.
        description: String,
        /// The rules in plain words, for the rules panel.
        rules_summary: String,
        /// Board size and holes.
        board: BoardSpec,
        /// Piece types. With `extends`, these replace the parent's types of the same letter and
        /// add new ones.
        pieces: Vec<PieceSpec>,
        /// Letters of inherited piece types to drop.
        remove_pieces: String,
        /// The start position as FEN.
        start: String,
        /// How new games shuffle the start.
        shuffle: ShuffleSpec,
        /// Castling.
        castling: CastlingSpec,
        /// Promotion.
        promotion: PromotionSpec,
        /// Shogi-style promotion: pieces with `promotes_to` may promote on any move that starts or
        /// ends in the zone.
        piece_promotion: PiecePromotionSpec,
        /// Named regions of the board.
        regions: BTreeMap<String, RegionSpec>,
        /// Hands and drops.
        drops: DropsSpec,
        /// Exploding captures.
        blast: BlastSpec,
        /// Letters of the types that cannot capture one another (Atomar: `"K"`, no king takes a king).
        mutually_immune: String,
        /// The variant's own actions: when an event happens, if conditions hold, then effects
        /// (see `variants::actions`).
        actions: Vec<super::actions::ActionSpec>,
        /// The piece facts the variant's actions use.
        facts: Vec<super::actions::FactSpec>,
        /// The pieces' own pictures, carried (path → base64 of the file): filled when the file
        /// is read from the pictures beside it, and written only inside saved games, so that a
        /// save opens without the files (see `variants::pictures`). Shared, not copied, by the
        /// editor's undo steps.
        pictures: BTreeMap<String, std::sync::Arc<str>>,
        /// A game that would be drawn is won by this side instead (Armageddon: `Black`).
        draw_odds: crate::rules::Side,
        /// The region (by name) whose points are joined by diagonal lines that the `janggi_*` code
        /// pieces also move along (Janggi's palaces).
        diagonal_lines: String,
        /// Points per piece letter and black's bonus, for games decided by a count (`Bikjang`,
        /// `DoublePass`).
        material_count: MaterialCountSpec,
        /// How the game ends, checked in order.
        end: Vec<EndSpec>,
        /// Presets the variant activates.
        presets: Vec<PresetUse>,
        /// The modifier profile a game of the variant starts with: a built-in profile's id, or
        /// one written out here.
        profile: ProfileUse,
    }
    switches {
        /// Whether a side that can capture must.
        mandatory_capture {
            label: "a side that can capture must",
            section: Rules,
            ini: Key { key: "mustCapture", on: true },
        }
        /// Whether moves that give check are illegal.
        checks_forbidden {
            label: "moves that give check are illegal",
            section: Rules,
            ini: Key { key: "checking", on: false },
        }
        /// Pieces in hand enter by gating (Seirawan): onto the square a back-rank piece leaves on
        /// its first move.
        gating {
            label: "pieces in hand enter by gating (Seirawan)",
            section: Drops,
            ini: Composite,
        }
        /// A side not in check may pass instead of moving (Janggi).
        pass {
            label: "a side not in check may pass (Janggi)",
            section: Rules,
            ini: Key { key: "pass", on: true },
        }
        /// Royal pieces may not face each other on an open file or rank (Xiangqi).
        flying_general {
            label: "kings may not face each other on an open file or rank (Xiangqi)",
            section: Rules,
            ini: Key { key: "flyingGeneral", on: true },
        }
        /// A piece may not move or be dropped where it could never move again (Shogi's pawn and
        /// lance on the last rank, knight on the last two); such moves must promote.
        no_immobile_pieces {
            label: "no move or drop where a piece could never move again (Shogi)",
            section: Promotion,
            ini: Key { key: "immobilityIllegal", on: true },
        }
        /// A piece that captures (never a royal one) changes side on the square where it took
        /// (Andernach chess).
        captures_change_side {
            label: "a piece that captures changes side, kings excepted (Andernach)",
            section: Rules,
            ini: Missing("Fairy-Stockfish has no pieces that change side when they capture"),
        }
        /// Every move also moves the duck (Duck chess): a wall of no side, placed on any empty
        /// square other than the one it left; it enters the board with the first move.
        duck {
            label: "every move also moves the duck, a wall of no side (Duck chess)",
            section: Rules,
            ini: Composite,
        }
        /// A royal piece in check may not step away: its only move is to take the one piece
        /// checking it (Makpong).
        makpong {
            label: "a king in check may not step away, only take the piece checking it (Makpong)",
            section: Rules,
            ini: Key { key: "makpongRule", on: true },
        }
        /// Ouk Chatrang's first-move leaps (Cambodian): a king still on a square whose right the
        /// castling field keeps (`DEde`) may leap as a knight to the next rank forward, out of
        /// check and without capturing; a ferz (Betza `F`) on such a square may jump two squares
        /// straight forward onto an empty square.
        cambodian_moves {
            label: "first-move leaps: the king as a knight one rank forward, the ferz two squares forward, from squares the castling field keeps (Cambodian)",
            section: Rules,
            ini: Composite,
        }
        /// Fixed gating (Musketeer): each piece in hand waits above one back-rank file, written
        /// in a gate row beyond each side's back rank in the start's placement
        /// (`lc******/rnbqkbnr/…/RNBQKBNR/LC******`), and must enter on the square that file's
        /// piece leaves on its first move; it is lost if that piece is taken first.
        fixed_gating {
            label: "pieces wait above back-rank files (the start's gate rows) and must enter when the piece below first moves (Musketeer)",
            section: Rules,
            ini: Missing("Fairy-Stockfish has no fixed gating (pieces waiting above given files)"),
        }
        /// Every move leaves a wall on the square the piece left (Joust, Snail trail;
        /// Fairy-Stockfish's `wallingRule = past`).
        trail_walls {
            label: "every move leaves a wall on the square the piece left (Joust, Snail trail)",
            section: Rules,
            ini: Composite,
        }
        /// A repetition in which one side checked with every move is lost by that side, drawn if
        /// both did (Xiangqi, Shogi; Fairy-Stockfish's `perpetualCheckIllegal`).
        perpetual_check_loses {
            label: "a repetition in which one side gave check with every move is lost by that side, drawn if both did (Xiangqi, Shogi)",
            section: Rules,
            ini: Key { key: "perpetualCheckIllegal", on: true },
        }
        /// A side that cannot move and is not in check passes instead of being stalemated
        /// (Fairy-Stockfish's `passOnStalemate`). The pass's SAN is `pass`, where
        /// Fairy-Stockfish writes the move of the piece standing still (`Kh8`, `c5`).
        pass_on_stalemate {
            label: "a side that cannot move, and is not in check, passes instead of being stalemated",
            section: Rules,
            ini: Key { key: "passOnStalemate", on: true },
        }
    }
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
    /// The designer's own pictures, PNG or SVG files beside the variant; they come before
    /// `glyph` (see `variants::pictures`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture: Option<PictureSpec>,
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
            picture: None,
            code: None,
        }
    }
}

/// A piece's own pictures: paths relative to the variant file's folder. A side left out is
/// drawn as the other side's picture recoloured.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PictureSpec {
    /// White's picture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white: Option<String>,
    /// Black's picture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<String>,
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
    /// Letters whose drop may not checkmate (Shogi's uchifuzume: `"P"`): such a drop is
    /// played, and the mate it gives loses for the dropper (a foul, as Fairy-Stockfish scores
    /// it).
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
    /// Material with which neither side can win draws, by lichess's rule for a variant:
    /// `InsufficientMaterialAs(Atomic)`, `Antichess`, `Crazyhouse`, `ThreeCheck` or `Horde`.
    InsufficientMaterialAs(MaterialRule),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_switch_reaches_its_own_field_and_no_other() {
        for s in SWITCHES {
            let mut file = VariantFile::default();
            s.turn(&mut file, true);
            for other in SWITCHES {
                assert_eq!(other.is_on(&file), other.key == s.key, "{} turned {}", s.key, other.key);
            }
            let compiled = compile_switches(&file);
            assert_ne!(compiled, RuleSwitches::default(), "{} compiles to nothing", s.key);
            // Exactly one compiled switch is on: turning it off again gives none.
            let mut off = compiled;
            (s.compile)(&mut off, false);
            assert_eq!(off, RuleSwitches::default(), "{} compiles into another field", s.key);
            s.turn(&mut file, false);
            assert_eq!((s.get)(&file), None, "off is the key left out");
        }
    }

    #[test]
    fn keys_and_ini_keys_are_unique() {
        let mut keys: Vec<&str> = SWITCHES.iter().map(|s| s.key).collect();
        let mut ini: Vec<&str> = SWITCHES
            .iter()
            .filter_map(|s| match s.ini {
                IniSwitch::Key { key, .. } => Some(key),
                _ => None,
            })
            .collect();
        let (n, m) = (keys.len(), ini.len());
        keys.sort_unstable();
        keys.dedup();
        ini.sort_unstable();
        ini.dedup();
        assert_eq!((keys.len(), ini.len()), (n, m));
    }
}
