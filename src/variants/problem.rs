//! Problems found in a variant file: where (a key path), what kind (a stable [`ProblemCode`]
//! with its [`Severity`]) and what to do about it (a message); and [`LoadError`], why a file
//! was not loaded.

use std::fmt;

pub use crate::rules::Severity;
use crate::rules::stable_codes;

stable_codes! {
    /// The kind of a [`Problem`], one per kind of mistake, stable across versions so that
    /// tools and the editor can key on it. The path says where it is; where a kind can
    /// occur under several keys (an unknown letter, a rank off the board), the code is the
    /// same everywhere. Codes of errors start with `E_`, codes of warnings with `W_`. Grouped
    /// by the section of the file.
    ProblemCode, "E_BOARD_SIZE" {
    // The file as a whole: `id`, `extends`, `name`.
    /// `id` is not made of lower-case letters, digits and `-`.
    IdInvalid = "E_ID_INVALID",
    /// `id` differs from the file's name.
    IdFileName = "E_ID_FILE_NAME",
    /// No built-in variant has the id asked for.
    UnknownVariant = "E_UNKNOWN_VARIANT",
    /// `extends` names no variant beside the file or built in.
    UnknownParent = "E_UNKNOWN_PARENT",
    /// `extends` leads back to a variant already in the chain.
    ExtendsCycle = "E_EXTENDS_CYCLE",
    /// `extends` is not a variant id (a path, say).
    ExtendsId = "E_EXTENDS_ID",
    /// The `extends` chain is longer than the limit.
    ExtendsDepth = "E_EXTENDS_DEPTH",
    /// `name` is missing.
    NameMissing = "E_NAME_MISSING",

    // Shared by several sections; the path says which key.
    /// A letter names no piece type (promotion choices and limits, end conditions, drops, blast, material count).
    UnknownLetter = "E_UNKNOWN_LETTER",
    /// A rank is not between 1 and the board's ranks (initial ranks, castling, promotion, drops, promotion zone).
    RankOffBoard = "E_RANK_OFF_BOARD",
    /// A square's name is not on the board (walls, regions).
    SquareOffBoard = "E_SQUARE_OFF_BOARD",
    /// A Betza string does not parse (a piece's moves, region moves).
    Betza = "E_BETZA",

    // `board`.
    /// `board` is missing.
    BoardMissing = "E_BOARD_MISSING",
    /// The board is smaller than 3×3 or larger than 16×16.
    BoardSize = "E_BOARD_SIZE",
    /// The river is not between two ranks of the board.
    BoardRiver = "E_BOARD_RIVER",

    // `pieces`.
    /// There are no piece types.
    PiecesEmpty = "E_PIECES_EMPTY",
    /// More piece types than the engine supports.
    PiecesTooMany = "E_PIECES_TOO_MANY",
    /// A piece type's letter is not an upper-case letter A-Z.
    PieceLetter = "E_PIECE_LETTER",
    /// Two piece types use the same letter.
    PieceLetterDuplicate = "E_PIECE_LETTER_DUPLICATE",
    /// A piece type's name is empty or used by an earlier type.
    PieceName = "E_PIECE_NAME",
    /// `code` names no code piece.
    UnknownCodePiece = "E_UNKNOWN_CODE_PIECE",
    /// A code piece is confined or has region moves, which it cannot honour.
    CodePieceZones = "E_CODE_PIECE_ZONES",
    /// `promotes_to` is not the letter of another piece type.
    PiecePromotesTo = "E_PIECE_PROMOTES_TO",
    /// `promotes_to` is given but there is no `piece_promotion` zone.
    PromotionZoneMissing = "E_PROMOTION_ZONE_MISSING",

    // `start`.
    /// `start` is missing.
    StartMissing = "E_START_MISSING",
    /// `start` is not a valid FEN for the variant.
    StartFen = "E_START_FEN",

    // `castling`.
    /// A castling landing file is not on the board.
    CastlingFile = "E_CASTLING_FILE",
    /// Castling without a piece type that castles and one that is its partner.
    CastlingPieces = "E_CASTLING_PIECES",

    // `promotion` and `piece_promotion`.
    /// A piece type promotes but there is no `promotion` rule.
    PromotionMissing = "E_PROMOTION_MISSING",
    /// `promotion.choices` is empty while a piece type promotes.
    PromotionChoicesEmpty = "E_PROMOTION_CHOICES_EMPTY",
    /// `promotion.optional_from` is not between 1 and the promotion rank.
    PromotionOptionalFrom = "E_PROMOTION_OPTIONAL_FROM",
    /// A promotion choice is the variant's only royal type (a second king).
    PromotionRoyal = "E_PROMOTION_ROYAL",

    // `regions`, and every key that names a region.
    /// No region has this name.
    UnknownRegion = "E_UNKNOWN_REGION",
    /// Regions made of other regions refer to each other in a loop.
    RegionLoop = "E_REGION_LOOP",

    // `end`.
    /// Nothing wins the game: no royal piece type and no other winning condition.
    EndNoWin = "E_END_NO_WIN",
    /// `end` is an empty list.
    EndEmpty = "E_END_EMPTY",
    /// A count in an end condition (`NCheck`, `MoveRule`, `Repetition`) is out of its range.
    EndCount = "E_END_COUNT",

    // Rules that cannot be played together.
    /// Two rules that do not go together: fixed gating with drops, Seirawan's gating, passing
    /// or a shuffled start; a trail of walls with the duck; Cambodian moves with gating.
    RulesConflict = "E_RULES_CONFLICT",

    // `presets` and `profile`.
    /// No preset has this id.
    UnknownPreset = "E_UNKNOWN_PRESET",
    /// Two presets that exclude each other.
    PresetConflict = "E_PRESET_CONFLICT",
    /// A preset without one it requires.
    PresetRequires = "E_PRESET_REQUIRES",
    /// The same preset twice.
    PresetDuplicate = "E_PRESET_DUPLICATE",
    /// A preset parameter it does not take, or a value out of its range.
    PresetParam = "E_PRESET_PARAM",
    /// No modifier profile has this id.
    UnknownProfile = "E_UNKNOWN_PROFILE",
    /// A profile entry names no modifier or piece, or has a value the modifier does not take.
    ProfileEntry = "E_PROFILE_ENTRY",
    /// A per-instance entry names a square the start does not hold (a warning; it is dropped).
    ProfileOrphan = "E_PROFILE_ORPHAN_INSTANCE",

    // `format` and `actions`.
    /// `format` is newer than this build reads.
    FormatNewer = "E_FORMAT_NEWER",
    /// `actions` in a file that does not say `format: 2`.
    ActionFormat = "E_ACTION_FORMAT",
    /// An action's name is empty or used by an earlier action.
    ActionName = "E_ACTION_NAME",
    /// An action names no piece type.
    ActionPiece = "E_ACTION_PIECE",
    /// An action has no effect, or one its event cannot have (taking a capture over outside
    /// `Capture`, a win outside `Result`).
    ActionEffect = "E_ACTION_EFFECT",
    /// Damage of less than one point, or an area wider than 8 squares round its centre.
    ActionDamage = "E_ACTION_DAMAGE",
    /// A fact not declared, declared twice, badly named, starting outside its limits, or more
    /// facts than a game holds.
    ActionFact = "E_ACTION_FACT",
    /// A piece the action's event does not have (`Hit` outside `Damaged`, `This` without
    /// `pieces`).
    ActionWho = "E_ACTION_WHO",
    /// Actions that answer pieces appearing and leaving make pieces appear and leave in a loop
    /// that nothing in their events stops.
    ActionCycle = "E_ACTION_CYCLE",
    /// A state value named `preset/key` for a preset that is not in the game, or an effect on
    /// another preset's state.
    ActionState = "E_ACTION_STATE",

    // Design warnings: the variant loads, but probably does not do what its designer meant.
    // The editor shows them; the loader does not look for them.
    /// The game is won by checkmate, but no piece type is royal.
    NoRoyal = "W_NO_ROYAL",
    /// Promotion has a zone and choices, but no promoting piece ever moves forward.
    PromotionUnreachable = "W_PROMOTION_UNREACHABLE",
    /// The side to move has no legal move in the start position.
    NoLegalMove = "W_NO_LEGAL_MOVE",
    /// The start was to mirror white's pieces for black, and does not.
    StartAsymmetric = "W_START_ASYMMETRIC",
    /// A piece's own picture is refused or not beside the file (it is drawn with the piece
    /// set's picture).
    Picture = "W_PICTURE",
    /// An action's conditions contradict one another (or its facts' limits): it never runs.
    ActionNever = "W_ACTION_NEVER",
}
}

impl ProblemCode {
    /// [`Severity::Warning`] for `W_` codes, [`Severity::Error`] for `E_` codes.
    pub const fn severity(self) -> Severity {
        // The ADR names the orphan warning with an E_ code.
        if matches!(self, ProblemCode::ProfileOrphan) {
            return Severity::Warning;
        }
        match self.as_str().as_bytes()[0] {
            b'W' => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

impl fmt::Display for ProblemCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem in a variant file: where (a key path such as `pieces[X].betza`), what kind and
/// how bad, and what to do. Displayed as `path: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// What kind of problem, e.g. [`ProblemCode::Betza`].
    pub code: ProblemCode,
    /// Whether the file still loads; the code's [`ProblemCode::severity`].
    pub severity: Severity,
    /// Key path, e.g. `promotion.choices`.
    pub path: String,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl Problem {
    /// A problem of kind `code` at `path`, with the code's severity.
    pub fn new(code: ProblemCode, path: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem { code, severity: code.severity(), path: path.into(), message: message.into() }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Why a variant file was not loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The file could not be read.
    Io(String),
    /// The RON does not parse.
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser expected.
        message: String,
    },
    /// The file parses but describes an invalid variant; every problem found.
    Invalid(Vec<Problem>),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(e) => write!(f, "cannot read the file: {e}"),
            LoadError::Syntax { line, column, message } => write!(f, "line {line}, column {column}: {message}"),
            LoadError::Invalid(problems) => {
                for (i, p) in problems.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "{p}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for LoadError {}
