//! A variant's rules as the engine uses them. Issue 3's RON files compile into this.

use std::sync::Arc;

use bevy::prelude::*;

use super::geometry::Geometry;
use super::piece::PieceType;
use super::registry::{PieceTypeDef, PieceTypeRegistry, RegistryError};

/// Where king and rook land when castling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastlingRule {
    /// The king's destination file, `[king side, queen side]` (g and c in chess).
    pub king_files: [u8; 2],
    /// The rook's destination file, `[king side, queen side]` (f and d in chess).
    pub rook_files: [u8; 2],
    /// The relative rank (0 = own back rank) on which king and rook castle.
    pub rank: u8,
    /// The files `[king side, queen side]` where FEN's `K` and `Q` look for the castling rook
    /// first (Fairy-Stockfish's convention for Shako); otherwise they mean the outermost rook.
    pub rook_start: Option<[u8; 2]>,
}

impl CastlingRule {
    /// The absolute rank on which `side` castles.
    pub fn rank_of(&self, side: super::geometry::Side, ranks: u8) -> u8 {
        match side {
            super::geometry::Side::White => self.rank,
            super::geometry::Side::Black => ranks.saturating_sub(1).saturating_sub(self.rank),
        }
    }
}

/// Promotion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromotionRule {
    /// The relative rank (0 = own back rank) on which promoting pieces must promote.
    pub rank: u8,
    /// The types a piece may promote to, in the order offered (white's, and black's unless
    /// `black_choices` says otherwise).
    pub choices: Vec<PieceType>,
    /// Black's choices where they differ from white's (Chigorin: white's pawns become
    /// knights or a chancellor, black's bishops or a queen).
    pub black_choices: Option<Vec<PieceType>>,
    /// From this relative rank up to `rank`, promotion is optional (Grand chess: 8 and 9).
    pub optional_from: Option<u8>,
    /// At most this many pieces of a type on the board for a promotion to it (Grand chess:
    /// only to a piece that has been captured).
    pub limits: Vec<(PieceType, u8)>,
    /// Where pieces promote, per side, when a region says it instead of `rank` (Troitzky).
    pub squares: Option<[super::geometry::SquareSet; 2]>,
}

impl PromotionRule {
    /// Whether a promoting piece of `side` arriving on relative rank `rel` promotes: `None`
    /// outside the zone; otherwise whether the plain move is allowed too. Beyond `rank` (a
    /// pawn dropped in the zone, as Fairy-Stockfish's promotion regions allow) it must promote
    /// too.
    pub fn zone(&self, rel: u8) -> Option<bool> {
        if rel >= self.rank {
            Some(false)
        } else if self.optional_from.is_some_and(|f| f <= rel && rel < self.rank) {
            Some(true)
        } else {
            None
        }
    }

    /// Whether a promoting piece of `side` arriving on `sq` promotes: `None` outside the zone
    /// (the promotion region, or the rank and those beyond it); otherwise whether the plain
    /// move is allowed too.
    pub fn zone_at(&self, g: Geometry, sq: super::geometry::Square, side: super::geometry::Side) -> Option<bool> {
        match &self.squares {
            Some(sets) => sets[side.index()].contains(sq).then_some(false),
            None => self.zone(g.relative_rank(sq, side)),
        }
    }

    /// The types `side`'s pieces may promote to, in the order offered.
    pub fn offered(&self, side: super::geometry::Side) -> &[PieceType] {
        match (&self.black_choices, side) {
            (Some(black), super::geometry::Side::Black) => black,
            _ => &self.choices,
        }
    }

    /// Whether either side may promote to `kind`.
    pub fn offers(&self, kind: PieceType) -> bool {
        self.choices.contains(&kind) || self.black_choices.as_ref().is_some_and(|b| b.contains(&kind))
    }

    /// The choices open to `side` now, given how many pieces of each type it has (`count`).
    pub fn open_choices<'a>(
        &'a self,
        side: super::geometry::Side,
        count: impl Fn(PieceType) -> u8 + 'a,
    ) -> impl Iterator<Item = PieceType> + 'a {
        self.offered(side)
            .iter()
            .copied()
            .filter(move |&t| self.limits.iter().find(|(k, _)| *k == t).is_none_or(|&(_, max)| count(t) < max))
    }
}

/// Shogi-style promotion: a piece whose type has `promotes_to` may promote on a move that
/// starts or ends in the zone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PiecePromotion {
    /// The first relative rank (0 = own back rank) of the zone, which runs to the far rank.
    pub zone: u8,
    /// Promotion is compulsory whenever it is possible (Dobutsu).
    pub mandatory: bool,
}

/// A material count that decides a game (Janggi's bikjang and double pass).
#[derive(Clone, Debug, PartialEq)]
pub struct MaterialCount {
    /// Points per type; types not listed count nothing.
    pub points: Vec<(PieceType, f64)>,
    /// Added to black's total (Janggi: 1.5 for Han, who moves second).
    pub black_bonus: f64,
}

/// How a game-end condition scores for the side it applies to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Verdict {
    /// A draw.
    Draw,
    /// The side it applies to wins.
    Win,
    /// The side it applies to loses.
    Loss,
}

/// A compiled game-end condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndCondition {
    /// No legal move while in check: the side to move loses.
    Checkmate,
    /// No legal move while not in check: this verdict for the side to move.
    Stalemate(Verdict),
    /// A piece of one of these types (bit set) reaches its side's region (bit sets of squares
    /// per side): its side wins at once.
    RegionReached {
        /// Types that count.
        types: u64,
        /// `[white's region, black's region]`, one bit per square.
        regions: [super::geometry::SquareSet; 2],
        /// Racing Kings' reply rule: when white gets there first, black may still draw by
        /// getting there with its next move.
        reply: bool,
        /// A piece counts only where the opponent does not attack it, and the other side's
        /// piece counts too once the mover leaves it alone there (Dobutsu's try).
        safe: bool,
        /// How many such pieces must stand there together (Knights Halma: 9).
        count: u8,
    },
    /// A side left with its royal pieces only (while the other side is not) gets this
    /// verdict at once (Shatranj: loss). Shatranj's reply rule, which lets the bared side
    /// bare back for a draw, is not modelled yet.
    BareKing(Verdict),
    /// A side with no pieces left of these types (bit set; 0 means any piece), on the board or
    /// in hand, gets this verdict (Horde: white loses with no pieces; Antichess: a side without pieces wins).
    Extinction {
        /// Types that count; 0 means all.
        types: u64,
        /// Judge each type on its own: losing every piece of any one of them counts
        /// (Extinction chess), instead of losing every piece of all of them together.
        per_type: bool,
        /// Count as extinct below this many pieces (1: none left; Three Kings: 3).
        fewer_than: u8,
        /// The verdict for the side that has none left.
        verdict: Verdict,
        /// While a side has no more than `fewer_than` of them, they are royal: they may not be
        /// left attacked, and a side that cannot save them is checkmated (Sho shogi's king and
        /// prince; Fairy-Stockfish's `extinctionPseudoRoyal`). Such pieces end nothing by being
        /// gone (a type promoted away or not yet there), unless blasts can take them.
        pseudo_royal: bool,
    },
    /// No legal move while in check: this verdict for the side to move (Losers: win).
    Checkmated(Verdict),
    /// Shatar's mate: no legal move while in check loses only if the mating side's unbroken
    /// series of checking moves, up to the mate, had a check by one of the `shak` types;
    /// otherwise it draws, and a mate given by `knights` alone loses for the side that gave it.
    ShatarMate {
        /// The types whose checks count (rook, knight, bers).
        shak: u64,
        /// The types that may not mate alone (the knight).
        knights: u64,
    },
    /// A side that starts its turn with a piece of these types on its region wins: the
    /// piece got there and survived the opponent's reply (Jeson Mor: occupy the centre,
    /// then leave it).
    RegionHeld {
        /// Types that count.
        types: u64,
        /// `[white's region, black's region]`.
        regions: [super::geometry::SquareSet; 2],
    },
    /// The side that gives this many checks wins (Three-check).
    NCheck(u8),
    /// This many half-moves without capture or pawn move: a draw.
    MoveRule(u32),
    /// The same position this many times: a draw.
    Repetition(u8),
    /// Neither side can mate (FIDE material rules): a draw.
    InsufficientMaterial,
    /// Neither side can win by the variant's lichess rule (`material::MaterialRule`): a draw.
    InsufficientMaterialAs(super::material::MaterialRule),
    /// The royal pieces face each other on an open file after two moves in a row (Janggi's
    /// bikjang): the game ends, scored by the variant's material count (a draw without one).
    Bikjang,
    /// Both sides pass in a row: the game ends, scored as for bikjang.
    DoublePass,
    /// No legal move while not in check: the side with fewer pieces on the board wins, equal
    /// numbers draw (Suicide chess; Fairy-Stockfish's `stalematePieceCount`).
    StalemateByCount,
    /// The same position `count` times: `verdict` for the side to move, or for white with
    /// `for_white` (Fairy-Stockfish's `nFoldValue`, `nFoldValueAbsolute`).
    RepetitionScored {
        /// How many times.
        count: u8,
        /// The verdict.
        verdict: Verdict,
        /// The verdict is white's.
        for_white: bool,
    },
}

impl EndCondition {
    /// Whether it is judged right after each move (in the game-result step), rather than when
    /// the side to move has no legal move or a counter runs out.
    pub fn is_immediate(&self) -> bool {
        matches!(
            self,
            EndCondition::RegionReached { .. }
                | EndCondition::RegionHeld { .. }
                | EndCondition::BareKing(_)
                | EndCondition::Extinction { .. }
                | EndCondition::NCheck(_)
                | EndCondition::Bikjang
                | EndCondition::DoublePass
        )
    }
}

/// The FIDE end conditions.
pub fn fide_end_conditions() -> Vec<EndCondition> {
    vec![
        EndCondition::Checkmate,
        EndCondition::Stalemate(Verdict::Draw),
        EndCondition::MoveRule(100),
        EndCondition::Repetition(3),
        EndCondition::InsufficientMaterial,
    ]
}

/// Hands and drops (Crazyhouse, Shogi).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct DropRule {
    /// Captured pieces go to the captor's hand (promoted ones as what they were promoted from).
    pub captures_to_hand: bool,
    /// Relative ranks (0 = own back rank) where a type may not be dropped.
    pub forbidden_ranks: Vec<(PieceType, Vec<u8>)>,
    /// The only relative ranks where anything may be dropped (empty: anywhere).
    pub ranks: Vec<u8>,
    /// A side with pieces in hand must drop one (Placement).
    pub must_drop: bool,
    /// A side's bishops must be dropped on squares of different colours (Placement).
    pub opposite_bishops: bool,
    /// A king and rook dropped on their castling squares gain the castling right (Placement).
    pub castling_on_drop: bool,
    /// Types (bit set) that may not be dropped on a file holding one of the same type and
    /// side (Shogi's nifu).
    pub no_doubled: u64,
    /// How many of a `no_doubled` type of its side a file may hold before no more may be
    /// dropped there (Shogi: 1; Tori shogi: 2).
    pub no_doubled_count: u8,
    /// No drop may give check.
    pub no_checks: bool,
    /// Types (bit set) whose drop may not checkmate (Shogi's uchifuzume): the mate such a drop
    /// gives loses for the dropper (`GameState::foul_drop`).
    pub no_drop_mate: u64,
    /// A promoted piece taken goes to the hand as what it became (Loop, Chessgi).
    pub keep_promoted: bool,
}

impl DropRule {
    /// Whether `kind` may be dropped on relative rank `rank`.
    pub fn allowed(&self, kind: PieceType, rank: u8) -> bool {
        (self.ranks.is_empty() || self.ranks.contains(&rank))
            && !self.forbidden_ranks.iter().any(|(k, ranks)| *k == kind && ranks.contains(&rank))
    }
}

/// Captures explode (Atomic): the capturing piece and every piece next to the capture square
/// are removed too, except pieces of immune types.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BlastRule {
    /// Bit set of types that survive a neighbouring blast (pawns in Atomic).
    pub immune: u64,
    /// Bit set of types no blast harms, not even their own capture's (Atomar's kings).
    pub unharmed: u64,
}

/// How new games of a variant may shuffle their start.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Shuffle {
    /// Chess960: the back rank shuffled with bishops on opposite colours and the king
    /// between the rooks, mirrored for black.
    Chess960,
}

/// Finds a catalogue variant's board and start placement (the FEN's first field) by its id: what
/// a modifier profile's `layout` names. The variants layer, which holds the catalogue, gives it
/// to every variant it builds, so that the layers below it never look the catalogue up.
pub type LayoutLookup = fn(&str) -> Option<(Geometry, String)>;

/// The layouts the rules know without the catalogue: chess's, for the variants built in code
/// ([`Variant::chess`], [`Variant::chess960`]).
fn fide_layout(id: &str) -> Option<(Geometry, String)> {
    (id == "chess").then(|| (Geometry::CHESS, FIDE_START.split_whitespace().next().unwrap_or_default().to_string()))
}

/// Chess's start position.
const FIDE_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The rules that are on or off, each a field (all off by default). The variant file declares
/// each one's key, editor label and Fairy-Stockfish key in one row of its switch table
/// (`variants::SWITCHES`); a rule's code reads its field here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleSwitches {
    /// Whether a side that can capture must (Antichess, Losers).
    pub mandatory_capture: bool,
    /// Whether moves that give check are illegal (Racing Kings).
    pub checks_forbidden: bool,
    /// Pieces in hand enter by gating: onto the square a back-rank piece leaves on its first
    /// move (Seirawan).
    pub gating: bool,
    /// A side not in check may pass instead of moving (Janggi).
    pub pass: bool,
    /// Royal pieces may not face each other on an open file or rank (Xiangqi's flying general,
    /// Fairy-Stockfish's `flyingGeneral`).
    pub flying_general: bool,
    /// No move or drop may leave a piece where it could never move again (Shogi's pawn and
    /// lance on the last rank, knight on the last two): the squares are [`Variant::immobile`].
    pub no_immobile_pieces: bool,
    /// A piece that captures (a royal piece never) changes side on the square where it took
    /// (Andernach chess).
    pub captures_change_side: bool,
    /// Every move also moves the duck, a wall that belongs to no side, to an empty square
    /// other than the one it stood on (it enters the board with the first move).
    pub duck: bool,
    /// A royal piece in check may only move to take the one piece checking it (Makpong).
    pub makpong: bool,
    /// Cambodian first-move leaps: a king on a back-rank square whose right is kept (the
    /// castling field's file letters, as gates) leaps as a knight one rank forward, out of
    /// check and onto an empty square; a ferz there jumps two squares forward onto an empty
    /// square. A right goes when its square is left or landed on, and a king's when an enemy
    /// rook lands on its rank or file.
    pub cambodian_moves: bool,
    /// Fixed gating (Musketeer): each piece in hand waits above one back-rank file (the FEN's
    /// gate rows, beyond each back rank) and must enter on the square that file's piece leaves
    /// on its first move (for castling, the king's or the rook's); it is lost if that piece is
    /// taken first.
    pub fixed_gating: bool,
    /// Every move leaves a wall on the square the piece left (Joust, Snail trail), written as
    /// the duck's is: UCI `d4f5,f5d4`, SAN `Nf5,d4`.
    pub trail_walls: bool,
    /// A repetition in which one side checked with every move is lost by that side (drawn if
    /// both did), as Fairy-Stockfish's `perpetualCheckIllegal` scores it (Xiangqi, Shogi).
    pub perpetual_check_loses: bool,
    /// A side with no legal move that is not in check has one: the pass (Fairy-Stockfish's
    /// `passOnStalemate`).
    pub pass_on_stalemate: bool,
}

/// A variant's complete rules, compiled.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Stable id, e.g. `chess`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// One paragraph for the variant picker.
    pub description: String,
    /// The rules in plain words, for the rules panel.
    pub rules_summary: String,
    /// Board size.
    pub geometry: Geometry,
    /// Squares that are not part of the board (walls, `*` in the FEN): no piece stands on,
    /// passes through, or is dropped onto them, and none is a hopper's screen.
    pub walls: Vec<super::geometry::Square>,
    /// A game that would be drawn is won by this side instead (Armageddon).
    pub draw_odds: Option<super::geometry::Side>,
    /// The rules that are on or off (see [`RuleSwitches`]).
    pub switches: RuleSwitches,
    /// Bit set of types that cannot capture one another (Atomar's kings).
    pub mutually_immune: u64,
    /// Compiled piece types.
    pub registry: PieceTypeRegistry,
    /// The start position as FEN.
    pub start_fen: String,
    /// Castling, when the variant has it.
    pub castling: Option<CastlingRule>,
    /// Promotion.
    pub promotion: PromotionRule,
    /// Shogi-style promotion, for types with `promotes_to`.
    pub piece_promotion: Option<PiecePromotion>,
    /// Per type, `[white, black]` squares from which it could never move: moves and drops
    /// there are illegal (empty when the variant allows immobile pieces).
    pub immobile: Vec<[super::geometry::SquareSet; 2]>,
    /// Whether castling is written and read as king-takes-rook (UCI `e1h1`), as Chess960 needs.
    pub chess960: bool,
    /// How new games shuffle the start, if they do.
    pub shuffle: Option<Shuffle>,
    /// How games end, checked in this order.
    pub end: Vec<EndCondition>,
    /// Hands and drops, when the variant has them.
    pub drops: Option<DropRule>,
    /// Exploding captures, when the variant has them.
    pub blast: Option<BlastRule>,
    /// Points per type and the second player's bonus, for games that end on a count (Janggi).
    pub material_count: Option<MaterialCount>,
    /// Presets a game of this variant starts with, in activation order.
    pub presets: Vec<PresetRequest>,
    /// The variant's own actions (run by the `actions` preset, which `presets` then names).
    pub actions: Vec<super::actions::Action>,
    /// The piece facts the variant declares for its actions.
    pub facts: Vec<super::actions::FactDecl>,
    /// The modifier profile a game of this variant starts with, as RON text (the modifiers
    /// module reads it; the rules only carry it).
    pub profile: Option<String>,
    /// Finds a catalogue variant's start by its id, for a modifier profile written for that
    /// variant's layout (see [`LayoutLookup`]); `None` knows only this variant's own layout.
    pub layouts: Option<LayoutLookup>,
    /// How the board is drawn (rules do not depend on it).
    pub look: BoardLook,
}

/// How a board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct BoardLook {
    /// Pieces stand on the points where lines cross (Xiangqi) instead of in squares.
    pub intersections: bool,
    /// A river between this rank (1-based) and the next: the lines of the inner files stop there.
    pub river_after: Option<u8>,
}

/// A preset a variant switches on (validated against the preset registry when loaded).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PresetRequest {
    /// Preset id.
    pub id: String,
    /// Parameters by name.
    pub params: std::collections::BTreeMap<String, f64>,
    /// `[white, black]`: the sides it applies to.
    pub sides: [bool; 2],
    /// Turns it lasts; `None` for the whole game.
    pub turns: Option<u32>,
}

impl Variant {
    /// Whether some pieces are royal only while few of them are left (a pseudo-royal
    /// extinction: Sho shogi).
    pub fn has_pseudo_royals(&self) -> bool {
        self.end.iter().any(|e| matches!(e, EndCondition::Extinction { pseudo_royal: true, .. }))
    }

    /// The types whose checks count under Shatar's mate rule, where the variant has it.
    pub fn shak_types(&self) -> Option<u64> {
        self.end.iter().find_map(|e| match e {
            EndCondition::ShatarMate { shak, .. } => Some(*shak),
            _ => None,
        })
    }

    /// The absolute rank on which `side` castles: its castling rule's, or its own back rank
    /// where the variant has no castling (Seirawan's gates and dual-king's crowned kings are
    /// judged there too).
    pub fn castling_rank(&self, side: super::geometry::Side) -> u8 {
        let ranks = self.geometry.ranks;
        match &self.castling {
            Some(rule) => rule.rank_of(side, ranks),
            None if side == super::geometry::Side::White => 0,
            None => ranks - 1,
        }
    }

    /// Standard chess (FIDE).
    ///
    /// # Panics
    /// Never: the FIDE set always compiles.
    pub fn chess() -> Variant {
        let geometry = Geometry::CHESS;
        let registry = PieceTypeRegistry::compile(geometry, PieceTypeDef::fide()).expect("FIDE types compile");
        let choices = ["queen", "rook", "bishop", "knight"].iter().filter_map(|n| registry.by_name(n)).collect();
        Variant {
            id: "chess".into(),
            name: "Chess".into(),
            description: "The classical game.".into(),
            rules_summary: "FIDE chess.".into(),
            geometry,
            walls: Vec::new(),
            switches: RuleSwitches::default(),
            draw_odds: None,
            mutually_immune: 0,
            registry,
            start_fen: FIDE_START.into(),
            castling: Some(CastlingRule { king_files: [6, 2], rook_files: [5, 3], rank: 0, rook_start: None }),
            promotion: PromotionRule { rank: 7, choices, black_choices: None, optional_from: None, limits: Vec::new(), squares: None },
            piece_promotion: None,
            immobile: Vec::new(),
            chess960: false,
            shuffle: None,
            end: fide_end_conditions(),
            drops: None,
            blast: None,
            material_count: None,
            look: BoardLook::default(),
            presets: Vec::new(),
            actions: Vec::new(),
            facts: Vec::new(),
            profile: None,
            layouts: Some(fide_layout),
        }
    }

    /// Chess960 (Fischer random): chess rules, shuffled back ranks, king-takes-rook castling.
    pub fn chess960() -> Variant {
        Variant { id: "chess960".into(), name: "Chess960".into(), chess960: true, shuffle: Some(Shuffle::Chess960), ..Variant::chess() }
    }

    /// A start position for a new game: the fixed start, or a shuffled one chosen by `pick`
    /// (`pick(n)` is a number below `n`; a shuffle may ask more than once).
    /// Chess960's shuffle deals the variant's own first rank, whatever its width (see
    /// [`super::shuffle::shuffle_start`]); the chess set gets Chess960 position `pick(960)`.
    pub fn new_game_fen(&self, pick: impl FnMut(u16) -> u16) -> String {
        match self.shuffle {
            None => self.start_fen.clone(),
            Some(Shuffle::Chess960) => {
                super::shuffle::shuffle_start(&self.start_fen, &self.registry, self.castling.is_some(), self.geometry.ranks, pick)
            }
        }
    }

    /// The number of checks that wins, in an n-check variant.
    pub fn check_limit(&self) -> Option<u8> {
        self.end.iter().find_map(|e| match e {
            EndCondition::NCheck(n) => Some(*n),
            _ => None,
        })
    }

    /// Recompiles the registry after the types were changed.
    ///
    /// # Errors
    /// See [`PieceTypeRegistry::compile`].
    pub fn with_types(mut self, types: Vec<PieceTypeDef>) -> Result<Variant, RegistryError> {
        self.registry = PieceTypeRegistry::compile(self.geometry, types)?;
        Ok(self)
    }
}

/// The active variant, shared (cheap to clone into another world for search).
#[derive(Resource, Clone, Debug)]
pub struct Rules(pub Arc<Variant>);

impl std::ops::Deref for Rules {
    type Target = Variant;
    fn deref(&self) -> &Variant {
        &self.0
    }
}
