//! The piece-type registry: each type's data, its move generator and its attack probe.

use super::geometry::{Geometry, Side, Square};
use super::movement::{Atom, AttackTable, Mode, MoveTable, symmetric};
use super::moves::Move;
use super::piece::{Cell, PieceType};
use super::query::{GenContext, PieceSlot};

/// Generates the pseudo-legal moves of one piece (step 2.2 of the legal-move query).
pub type GeneratorFn = fn(&GenContext, &PieceSlot, &mut Vec<Move>);

/// Whether a piece of `kind` and `side` standing on `from` attacks `target`.
pub type ProbeFn = fn(&PieceTypeRegistry, &[Cell], PieceType, Side, Square, Square) -> bool;

/// How a type generates its moves.
#[derive(Copy, Clone, Debug)]
pub enum MoveGenerator {
    /// From its compiled atom tables.
    Table,
    /// Its own function (hoppers, lame leapers, anything atoms cannot say).
    Custom(GeneratorFn),
}

/// How check detection asks whether a type attacks a square.
#[derive(Copy, Clone, Debug)]
pub enum AttackProbe {
    /// Through the merged reverse table (first blocker along each atom).
    Table,
    /// Its own function, called for each piece of the type.
    Custom(ProbeFn),
}

/// Pawn-like behaviour of a type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PawnRules {
    /// Relative ranks (0 = own back rank) from which double-step atoms reach two squares.
    pub double_step_ranks: Vec<u8>,
    /// Whether it may capture en passant, and leaves an en-passant square on a double step.
    pub en_passant: bool,
    /// Whether it promotes on the variant's promotion rank.
    pub promotes: bool,
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
    /// Its movement as atoms.
    pub atoms: Vec<Atom>,
    /// Pawn behaviour, if any.
    pub pawn: Option<PawnRules>,
    /// The type that castles (the king) in variants with castling.
    pub castles: bool,
    /// The type the king castles with (the rook).
    pub castling_partner: bool,
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
            atoms,
            pawn: None,
            castles: false,
            castling_partner: false,
            generator: MoveGenerator::Table,
            attack_probe: AttackProbe::Table,
        }
    }

    /// The FIDE pawn: one step forward, two from its second rank, captures diagonally forward.
    pub fn pawn() -> PieceTypeDef {
        let mut def = PieceTypeDef::new(
            "pawn",
            'P',
            100,
            vec![
                Atom { dx: 0, dy: 1, range: 1, mode: Mode::Move, double_step: true },
                Atom { dx: -1, dy: 1, range: 1, mode: Mode::Capture, double_step: false },
                Atom { dx: 1, dy: 1, range: 1, mode: Mode::Capture, double_step: false },
            ],
        );
        def.pawn = Some(PawnRules { double_step_ranks: vec![1], en_passant: true, promotes: true });
        def
    }

    /// The knight.
    pub fn knight() -> PieceTypeDef {
        PieceTypeDef::new("knight", 'N', 300, symmetric(1, 2, 1, Mode::Both))
    }

    /// The bishop.
    pub fn bishop() -> PieceTypeDef {
        PieceTypeDef::new("bishop", 'B', 320, symmetric(1, 1, 0, Mode::Both))
    }

    /// The rook.
    pub fn rook() -> PieceTypeDef {
        let mut def = PieceTypeDef::new("rook", 'R', 500, symmetric(1, 0, 0, Mode::Both));
        def.castling_partner = true;
        def
    }

    /// The queen.
    pub fn queen() -> PieceTypeDef {
        let mut atoms = symmetric(1, 0, 0, Mode::Both);
        atoms.extend(symmetric(1, 1, 0, Mode::Both));
        PieceTypeDef::new("queen", 'Q', 900, atoms)
    }

    /// The king: royal, one step any way, castles.
    pub fn king() -> PieceTypeDef {
        let mut atoms = symmetric(1, 0, 1, Mode::Both);
        atoms.extend(symmetric(1, 1, 1, Mode::Both));
        let mut def = PieceTypeDef::new("king", 'K', 0, atoms);
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
    /// Merged reverse table of every table-probed type.
    pub attacks: AttackTable,
    /// Types with custom attack probes, checked piece by piece.
    pub custom_probes: Vec<(PieceType, ProbeFn)>,
    /// Whether every type attacks along atoms with first-blocker semantics, so that a piece
    /// that is not pinned cannot expose its king (enables the fast self-check path).
    pub simple_attacks: bool,
    /// Bit set of royal-by-default types.
    pub royal_mask: u64,
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
    pub fn compile(geometry: Geometry, types: Vec<PieceTypeDef>) -> Result<PieceTypeRegistry, RegistryError> {
        if types.len() > 64 {
            return Err(RegistryError::TooManyTypes(types.len()));
        }
        for (i, t) in types.iter().enumerate() {
            if types[..i].iter().any(|u| u.letter == t.letter) {
                return Err(RegistryError::DuplicateLetter(t.letter));
            }
        }
        let tables = types
            .iter()
            .map(|t| {
                let ranks = t.pawn.as_ref().map(|p| p.double_step_ranks.clone()).unwrap_or_default();
                MoveTable::compile(geometry, &t.atoms, &[ranks.clone(), ranks])
            })
            .collect();
        let probe_atoms: Vec<Option<&[Atom]>> = types
            .iter()
            .map(|t| match t.attack_probe {
                AttackProbe::Table => Some(t.atoms.as_slice()),
                AttackProbe::Custom(_) => None,
            })
            .collect();
        let attacks = AttackTable::compile(geometry, &probe_atoms);
        let custom_probes: Vec<(PieceType, ProbeFn)> = types
            .iter()
            .enumerate()
            .filter_map(|(i, t)| match t.attack_probe {
                AttackProbe::Custom(f) => Some((PieceType(i as u8), f)),
                AttackProbe::Table => None,
            })
            .collect();
        let simple_attacks = custom_probes.is_empty();
        let royal_mask = types.iter().enumerate().filter(|(_, t)| t.royal).fold(0u64, |m, (i, _)| m | 1 << i);
        Ok(PieceTypeRegistry { geometry, types, tables, attacks, custom_probes, simple_attacks, royal_mask })
    }

    /// The definition of a type.
    #[inline]
    pub fn def(&self, kind: PieceType) -> &PieceTypeDef {
        &self.types[kind.0 as usize]
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

    /// Whether any piece of `by` attacks `target` on `cells`.
    #[inline]
    pub fn square_attacked(&self, cells: &[Cell], target: Square, by: Side) -> bool {
        if self.attacks.attacked(cells, target, by) {
            return true;
        }
        if self.custom_probes.is_empty() {
            return false;
        }
        for (i, c) in cells.iter().enumerate() {
            if c.is_piece()
                && c.side() == by
                && let Some((_, probe)) = self.custom_probes.iter().find(|(k, _)| *k == c.kind())
                && probe(self, cells, c.kind(), by, Square(i as u8), target)
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
            AttackProbe::Table => self.attacks.piece_attacks(cells, kind, by, from, target),
            AttackProbe::Custom(f) => f(self, cells, kind, by, from, target),
        }
    }
}
