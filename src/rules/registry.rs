//! The piece-type registry: each type's data, its move generator and its attack probe.

use super::betza::{BetzaError, parse_movement};
use super::geometry::{Geometry, Side, Square};
use super::movement::{Atom, AttackTable, LegPath, MoveTable, RayKind, ReverseRays, Zones};
use super::piece::{Cell, PieceType};

/// Whether a piece of `kind` and `side` standing on `from` attacks `target`.
pub type ProbeFn = fn(&PieceTypeRegistry, &[Cell], PieceType, Side, Square, Square) -> bool;

/// How a type generates its moves.
#[derive(Copy, Clone, Debug)]
pub enum MoveGenerator {
    /// From its compiled atom tables.
    Table,
    /// Its own function (anything atoms cannot say): the index of a code generator in
    /// `code_pieces.rs`, which the generation step calls; the registry holds only the index, so
    /// it needs nothing of what a generator sees.
    Code(u8),
}

/// How check detection asks whether a type attacks a square.
#[derive(Copy, Clone, Debug)]
pub enum AttackProbe {
    /// Through the merged reverse table (first blocker along each atom).
    Table,
    /// Its own function, called for each piece of the type.
    Custom(ProbeFn),
}

/// Names a designer's picture that a variant carries: a hash of its bytes, and whether it is
/// drawn recoloured (the other side's picture, its light parts made dark and its dark lines light).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PictureKey {
    /// FNV-1a of the picture as carried.
    pub source: u64,
    /// Drawn recoloured.
    pub recoloured: bool,
}

/// One piece type.
#[derive(Clone, Debug)]
pub struct PieceTypeDef {
    /// Lower-case English name, e.g. `knight`.
    pub name: String,
    /// Upper-case FEN letter, e.g. `N`.
    pub letter: char,
    /// Whether it is royal by default (checkmate, self-check).
    pub royal: bool,
    /// A value hint in centipawns, for the AI and for material displays.
    pub value: i32,
    /// Its movement in Betza notation, as written (empty for types built from atoms).
    pub betza: String,
    /// The image it is drawn with, when the variant names one.
    pub glyph: Option<String>,
    /// The designer's own pictures, white's and black's, when the variant carries them (see
    /// `variants::pictures`); they come before `glyph` and the piece set's.
    pub pictures: [Option<PictureKey>; 2],
    /// Its movement as atoms.
    pub atoms: Vec<Atom>,
    /// Its multi-leg moves (XBetza `a`), generated beside the atoms and probed piece by piece.
    pub legs: Vec<LegPath>,
    /// Whether it is a pawn: its moves reset the fifty-move clock and SAN omits its letter.
    pub pawn: bool,
    /// Whether it promotes on the variant's promotion rank.
    pub promotes: bool,
    /// The one type it may promote to in the promotion zone (Shogi's pieces); such a
    /// promoted piece is written `+X` in FEN and goes back to hand as X.
    pub promotes_to: Option<PieceType>,
    /// Relative ranks (0 = own back rank) where its initial-only (`i`) atoms apply.
    pub initial_ranks: Vec<u8>,
    /// The type that castles (the king) in variants with castling.
    pub castles: bool,
    /// The type the king castles with (the rook).
    pub castling_partner: bool,
    /// Confinement and region-dependent movement.
    pub zones: Zones,
    /// Its move generator.
    pub generator: MoveGenerator,
    /// Its attack probe.
    pub attack_probe: AttackProbe,
}

impl PieceTypeDef {
    /// A type moving by `atoms`, table-generated, with the given name, letter and value.
    pub fn new(name: &str, letter: char, value: i32, atoms: Vec<Atom>) -> PieceTypeDef {
        PieceTypeDef {
            name: name.to_string(),
            letter: letter.to_ascii_uppercase(),
            royal: false,
            value,
            betza: String::new(),
            glyph: None,
            pictures: [None, None],
            atoms,
            legs: Vec::new(),
            pawn: false,
            promotes: false,
            promotes_to: None,
            initial_ranks: vec![1],
            castles: false,
            castling_partner: false,
            zones: Zones::default(),
            generator: MoveGenerator::Table,
            attack_probe: AttackProbe::Table,
        }
    }

    /// A type moving as the Betza string says.
    ///
    /// # Errors
    /// The Betza string does not read.
    pub fn from_betza(name: &str, letter: char, value: i32, betza: &str) -> Result<PieceTypeDef, BetzaError> {
        let movement = parse_movement(betza)?;
        let mut def = PieceTypeDef::new(name, letter, value, movement.atoms);
        def.legs = movement.legs;
        def.betza = betza.to_string();
        Ok(def)
    }

    /// Whether it never moves at all (`betza: ""`, Fairy-Stockfish's immobile piece): it stands
    /// where it is put, is promoted into or dropped.
    pub fn never_moves(&self) -> bool {
        self.betza.is_empty() && self.atoms.is_empty() && self.legs.is_empty()
    }

    fn builtin(name: &str, letter: char, value: i32, betza: &str) -> PieceTypeDef {
        PieceTypeDef::from_betza(name, letter, value, betza).unwrap_or_else(|e| panic!("built-in {name} '{betza}': {e}"))
    }

    /// The FIDE pawn: `fmWfceFifmnD`.
    pub fn pawn() -> PieceTypeDef {
        let mut def = Self::builtin("pawn", 'P', 100, "fmWfceFifmnD");
        def.pawn = true;
        def.promotes = true;
        def
    }

    /// The knight.
    pub fn knight() -> PieceTypeDef {
        Self::builtin("knight", 'N', 300, "N")
    }

    /// The bishop.
    pub fn bishop() -> PieceTypeDef {
        Self::builtin("bishop", 'B', 320, "B")
    }

    /// The rook.
    pub fn rook() -> PieceTypeDef {
        let mut def = Self::builtin("rook", 'R', 500, "R");
        def.castling_partner = true;
        def
    }

    /// The queen.
    pub fn queen() -> PieceTypeDef {
        Self::builtin("queen", 'Q', 900, "Q")
    }

    /// The king: royal, one step any way, castles.
    pub fn king() -> PieceTypeDef {
        let mut def = Self::builtin("king", 'K', 0, "K");
        def.royal = true;
        def.castles = true;
        def
    }

    /// The six FIDE types, in the order pawn, knight, bishop, rook, queen, king.
    pub fn fide() -> Vec<PieceTypeDef> {
        vec![Self::pawn(), Self::knight(), Self::bishop(), Self::rook(), Self::queen(), Self::king()]
    }
}

/// The compiled piece types of one variant on one board.
#[derive(Clone, Debug)]
pub struct PieceTypeRegistry {
    /// The board the tables are compiled for.
    pub geometry: Geometry,
    /// The type definitions; a [`PieceType`] indexes this.
    pub types: Vec<PieceTypeDef>,
    /// Per type, its compiled move table.
    pub tables: Vec<MoveTable>,
    /// Merged reverse table of the simple capture atoms of every table-probed type.
    pub attacks: AttackTable,
    /// Reverse entries of the types with capture atoms the merged table cannot express
    /// (hoppers, lame leapers, confined or region-dependent movement).
    pub reverse: ReverseRays,
    /// Whether any type is in [`Self::reverse`].
    pub any_reverse: bool,
    /// Bit set of types with capture atoms the merged table cannot express (hoppers, lame
    /// leapers, any-square, zones).
    pub complex_mask: u64,
    /// Bit set of the complex types with any-square captures, which no reverse table holds:
    /// check detection walks their rays piece by piece.
    pub scanned_mask: u64,
    /// Per type, its custom attack probe, if it has one (checked piece by piece).
    probe_of: Vec<Option<ProbeFn>>,
    /// Bit set of the types checked piece by piece: [`Self::scanned_mask`] and those with
    /// custom probes.
    pub piecewise_mask: u64,
    /// Whether every type attacks along atoms with first-blocker semantics, so that a piece
    /// that is not pinned cannot expose its king (enables the fast self-check path).
    pub simple_attacks: bool,
    /// Bit set of royal-by-default types.
    pub royal_mask: u64,
    /// Bit set of types that may capture en passant.
    pub en_passant_mask: u64,
    /// Points joined by diagonal lines (Janggi's palaces), along which the palace pieces
    /// (code pieces `janggi_*`) also move.
    pub lines: super::geometry::SquareSet,
}

/// Why a set of piece types cannot be compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegistryError {
    /// More than 64 types.
    TooManyTypes(usize),
    /// Two types share a FEN letter.
    DuplicateLetter(char),
}

impl std::fmt::Display for RegistryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RegistryError::TooManyTypes(n) => write!(f, "{n} piece types; at most 64 are supported"),
            RegistryError::DuplicateLetter(c) => write!(f, "two piece types use the letter '{c}'; give each its own"),
        }
    }
}

impl std::error::Error for RegistryError {}

impl PieceTypeRegistry {
    /// Compiles `types` for `geometry`.
    ///
    /// # Errors
    /// Too many types, or two types with one letter.
    pub fn compile(geometry: Geometry, mut types: Vec<PieceTypeDef>) -> Result<PieceTypeRegistry, RegistryError> {
        // A type with multi-leg moves is probed piece by piece: its rays and its paths.
        for t in &mut types {
            if !t.legs.is_empty() && matches!(t.attack_probe, AttackProbe::Table) {
                t.attack_probe = AttackProbe::Custom(legs_probe);
            }
        }
        if types.len() > 64 {
            return Err(RegistryError::TooManyTypes(types.len()));
        }
        for (i, t) in types.iter().enumerate() {
            if types[..i].iter().any(|u| u.letter == t.letter) {
                return Err(RegistryError::DuplicateLetter(t.letter));
            }
        }
        let mask = |f: &dyn Fn(&PieceTypeDef) -> bool| types.iter().enumerate().filter(|(_, t)| f(t)).fold(0u64, |m, (i, _)| m | 1 << i);
        let en_passant_mask = mask(&|t| t.atoms.iter().any(|a| a.en_passant && a.mode.captures()));
        let royal_mask = mask(&|t| t.royal);
        // Types the merged reverse table cannot describe: their attacks are found by walking
        // their own compiled rays, piece by piece.
        let complex_mask = mask(&|t| {
            matches!(t.attack_probe, AttackProbe::Table)
                && (t.atoms.iter().any(|a| a.mode.captures() && !a.is_simple()) || t.zones != Zones::default())
        });
        let tables: Vec<MoveTable> = types
            .iter()
            .enumerate()
            .map(|(i, t)| MoveTable::compile_with(geometry, &t.atoms, &t.initial_ranks, en_passant_mask & (1 << i) != 0, &t.zones))
            .collect();
        let probe_atoms: Vec<Option<&[Atom]>> = types
            .iter()
            .enumerate()
            .map(|(i, t)| match t.attack_probe {
                AttackProbe::Table if complex_mask & (1 << i) == 0 => Some(t.atoms.as_slice()),
                _ => None,
            })
            .collect();
        let attacks = AttackTable::compile(geometry, &probe_atoms);
        let probe_of: Vec<Option<ProbeFn>> = types
            .iter()
            .map(|t| match t.attack_probe {
                AttackProbe::Custom(f) => Some(f),
                AttackProbe::Table => None,
            })
            .collect();
        let custom_mask = mask(&|t: &PieceTypeDef| matches!(t.attack_probe, AttackProbe::Custom(_)));
        let any_square = |t: &PieceTypeDef| {
            let region = t.zones.region_atoms.as_ref().map_or(&[][..], |(_, atoms)| atoms.as_slice());
            t.atoms.iter().chain(region).any(|a| a.any_square && a.mode.captures())
        };
        let scanned_mask = complex_mask & mask(&any_square);
        let reversed: Vec<Option<&MoveTable>> =
            tables.iter().enumerate().map(|(i, table)| (complex_mask & !scanned_mask & (1 << i) != 0).then_some(table)).collect();
        let reverse = ReverseRays::compile(geometry, &reversed);
        let any_reverse = complex_mask & !scanned_mask != 0;
        let simple_attacks = custom_mask == 0 && complex_mask == 0;
        let piecewise_mask = custom_mask | scanned_mask;
        Ok(PieceTypeRegistry {
            geometry,
            types,
            tables,
            attacks,
            reverse,
            any_reverse,
            complex_mask,
            scanned_mask,
            probe_of,
            piecewise_mask,
            simple_attacks,
            royal_mask,
            en_passant_mask,
            lines: super::geometry::SquareSet::EMPTY,
        })
    }

    /// The definition of a type.
    #[inline]
    pub fn def(&self, kind: PieceType) -> &PieceTypeDef {
        &self.types[kind.0 as usize]
    }

    /// Whether pieces of `kind` may capture en passant.
    #[inline]
    pub fn captures_en_passant(&self, kind: PieceType) -> bool {
        self.en_passant_mask & (1u64 << kind.0) != 0
    }

    /// The type with this FEN letter (either case).
    pub fn by_letter(&self, letter: char) -> Option<PieceType> {
        let up = letter.to_ascii_uppercase();
        self.types.iter().position(|t| t.letter == up).map(|i| PieceType(i as u8))
    }

    /// The type with this name.
    pub fn by_name(&self, name: &str) -> Option<PieceType> {
        self.types.iter().position(|t| t.name == name).map(|i| PieceType(i as u8))
    }

    /// Every type id.
    pub fn ids(&self) -> impl Iterator<Item = PieceType> {
        (0..self.types.len()).map(|i| PieceType(i as u8))
    }

    /// Whether the non-simple capture rays of the piece on `from` reach `target`, whatever
    /// stands on `target`.
    fn complex_attacks(&self, cells: &[Cell], kind: PieceType, by: Side, from: Square, target: Square) -> bool {
        let table = &self.tables[kind.0 as usize];
        table.rays(self.geometry.len(), by, from).iter().any(|ray| ray.mode.captures() && ray_reaches(table, ray, cells, target))
    }

    /// Whether any piece of `by` attacks `target` on `cells`. The target square is treated
    /// as holding an enemy piece of `by`, whatever stands there.
    #[inline]
    pub fn square_attacked(&self, cells: &[Cell], target: Square, by: Side) -> bool {
        match self.table_attacked(cells, target, by) {
            Some(answer) => answer,
            None => self.piecewise_attacks(cells, (0..cells.len()).map(|i| Square(i as u8)), target, by),
        }
    }

    /// [`Self::square_attacked`] on a board, whose occupancy lists `by`'s pieces for the types
    /// checked piece by piece (no scan of every cell: Janggi's pieces all have custom probes).
    #[inline]
    pub fn square_attacked_on(&self, board: &super::board::Board, target: Square, by: Side) -> bool {
        match self.table_attacked(&board.cells, target, by) {
            Some(answer) => answer,
            None => self.piecewise_attacks(&board.cells, board.squares_of(by), target, by),
        }
    }

    /// The answer of the compiled tables, or `None` when some types must be checked piece by
    /// piece.
    #[inline]
    fn table_attacked(&self, cells: &[Cell], target: Square, by: Side) -> Option<bool> {
        if self.attacks.attacked(cells, target, by) || (self.any_reverse && self.reverse.attacked(cells, target, by)) {
            return Some(true);
        }
        if self.piecewise_mask == 0 { Some(false) } else { None }
    }

    /// Whether a piece of `by` among `squares`, of a type checked piece by piece, attacks `target`.
    #[cold]
    fn piecewise_attacks(&self, cells: &[Cell], squares: impl Iterator<Item = Square>, target: Square, by: Side) -> bool {
        for from in squares {
            let c = cells[from.index()];
            if !c.is_piece() || c.side() != by || self.piecewise_mask & (1u64 << c.kind().0) == 0 {
                continue;
            }
            let kind = c.kind();
            if self.scanned_mask & (1u64 << kind.0) != 0 && self.complex_attacks(cells, kind, by, from, target) {
                return true;
            }
            if let Some(probe) = self.probe_of[kind.0 as usize]
                && probe(self, cells, kind, by, from, target)
            {
                return true;
            }
        }
        false
    }

    /// The attack probe of one piece: whether the piece of `kind` and `by` on `from` attacks
    /// `target`.
    pub fn piece_attacks(&self, cells: &[Cell], kind: PieceType, by: Side, from: Square, target: Square) -> bool {
        match self.def(kind).attack_probe {
            AttackProbe::Table if self.complex_mask & (1u64 << kind.0) != 0 => self.complex_attacks(cells, kind, by, from, target),
            AttackProbe::Table => self.attacks.piece_attacks(cells, kind, by, from, target),
            AttackProbe::Custom(f) => f(self, cells, kind, by, from, target),
        }
    }
}

/// The attack probe of a type with multi-leg moves: its compiled rays (walked, whatever they
/// are), then its paths, with `target` taken for an enemy piece.
fn legs_probe(reg: &PieceTypeRegistry, cells: &[Cell], kind: PieceType, by: Side, from: Square, target: Square) -> bool {
    reg.complex_attacks(cells, kind, by, from, target) || {
        let mut hit = false;
        let def = reg.def(kind);
        let region = def.zones.confinement.as_ref().map(|c| &c[by.index()]);
        for path in &def.legs {
            super::movement::walk_legs(reg.geometry, path, cells, by, from, Some(target), |to, taken, capture| {
                if region.is_none_or(|r| r.contains(to)) {
                    hit |= taken == Some(target) || (capture && to == target);
                }
            });
            if hit {
                return true;
            }
        }
        false
    }
}

/// Whether a capture along a non-simple `ray` lands on `target`, treating `target` as
/// capturable whatever stands there.
fn ray_reaches(table: &MoveTable, ray: &super::movement::Ray, cells: &[Cell], target: Square) -> bool {
    let squares = table.ray_squares(ray);
    match ray.kind {
        RayKind::Slide => {
            for &s in squares {
                if s == target {
                    return true;
                }
                if !cells[s.index()].is_empty() {
                    return false;
                }
            }
            false
        }
        RayKind::Lame { path } => {
            let (path, to) = squares.split_at(path as usize);
            to[0] == target && path.iter().all(|s| cells[s.index()].is_empty())
        }
        RayKind::Hop(hop) => {
            let Some(screen) = squares.iter().position(|s| *s == target || !cells[s.index()].is_empty()) else { return false };
            if squares[screen] == target || !cells[squares[screen].index()].is_piece() {
                return false;
            }
            for (k, &s) in squares[screen + 1..].iter().enumerate() {
                if s == target {
                    return true;
                }
                if !cells[s.index()].is_empty() || (hop == super::movement::Hop::Adjacent && k == 0) {
                    return false;
                }
            }
            false
        }
        RayKind::AnySquare => true,
    }
}
