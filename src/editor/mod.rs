//! The variant editor's model (issue 13), free of rendering: it builds and tests with
//! `--no-default-features`, and the editor's screens are views of it.
//!
//! An [`Editor`] works on one self-contained [`VariantFile`] (a copy of a built-in has its
//! `extends` resolved, so a later change of the built-in never changes the user's variant).
//! Every edit goes through [`Editor::edit`], which keeps the state before it for undo; the
//! definition is compiled after each edit and every problem the loader finds is listed with
//! its key path, so a view can show it beside its field. The RON text is one more view of the
//! same definition ([`Editor::ron`], [`Editor::set_ron`]).
//!
//! Done so far: the model with undo and redo, live problems, the RON text both ways, and the
//! move painter ([`painter`]) kept in step with Betza.

pub mod painter;
pub mod start;

use crate::variants::{BoardSpec, LoadError, PieceSpec, PresetUse, Problem, ProblemCode, VariantFile};

/// One edit as a view makes it, and as a test or a script replays it.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// The display name.
    Name(String),
    /// The paragraph for the variant picker.
    Description(String),
    /// The board's size (the start position keeps what still fits).
    Board {
        /// Files, 3 to 16.
        files: u8,
        /// Ranks, 3 to 16.
        ranks: u8,
    },
    /// Adds a piece type, or replaces the one with its letter.
    Piece(PieceSpec),
    /// Removes the piece type with this letter (and its pieces from the start position and the
    /// pockets).
    RemovePiece(char),
    /// Gives a piece type another letter, everywhere the definition names it (the start
    /// position and pockets, promotion targets and choices).
    Letter {
        /// The letter it has.
        from: char,
        /// The letter it gets (unused).
        to: char,
    },
    /// A piece type's movement, in Betza (the painter writes it).
    Betza {
        /// The piece's letter.
        letter: char,
        /// Its movement.
        betza: String,
    },
    /// A piece (a FEN token) on a square of the start position, or none; with `mirror`, the
    /// other side's piece on the mirrored square too.
    Place {
        /// File, from 0.
        file: u8,
        /// Rank, from 0.
        rank: u8,
        /// The FEN token, or `None` to clear.
        piece: Option<String>,
        /// Mirror it for the other side.
        mirror: bool,
    },
    /// The start position as FEN.
    Start(String),
    /// A preset on (with its default parameters, for both sides, for the whole game) or off.
    Preset {
        /// Preset id.
        id: String,
        /// On or off.
        on: bool,
    },
}

/// Where the user's variants are saved: `variants` in the data directory
/// ([`crate::save::data_dir`]: `~/.local/share/chimera/variants` on Linux).
pub fn variants_dir() -> Option<std::path::PathBuf> {
    crate::save::data_dir().map(|d| d.join("variants"))
}

/// The user's variants in `dir`, by file name: each file and its name, or why it does not
/// read (a file that parses but has problems is listed by name: it opens in the editor with
/// its problems).
pub fn my_variants(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Result<String, String>)> {
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect())
        .unwrap_or_default();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let read = std::fs::read_to_string(&p)
                .map_err(|e| e.to_string())
                .and_then(|t| crate::variants::parse_variant_file(&t).map_err(|e| e.to_string()))
                .map(|f| f.name.unwrap_or(f.id));
            (p, read)
        })
        .collect()
}

/// An id made from a name — lower-case letters and digits, other characters as single `-` —
/// that `taken` does not hold (`my-chess`, then `my-chess-2`, …).
pub fn id_from_name(name: &str, taken: &dyn Fn(&str) -> bool) -> String {
    let mut base = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            base.push(c);
        } else if !base.ends_with('-') && !base.is_empty() {
            base.push('-');
        }
    }
    let base = base.chars().take(40).collect::<String>().trim_end_matches('-').to_string();
    let base = if base.is_empty() { "variant".to_string() } else { base };
    if !taken(&base) {
        return base;
    }
    (2..).map(|n| format!("{base}-{n}")).find(|id| !taken(id)).expect("some number is free")
}

/// The most edits kept for undo.
pub const UNDO_DEPTH: usize = 500;

/// One variant definition being edited, with its undo history.
#[derive(Clone, Debug)]
pub struct Editor {
    file: VariantFile,
    undo: Vec<VariantFile>,
    redo: Vec<VariantFile>,
    /// Black's start mirrors white's (the board editor places both); a start that does not is
    /// warned of.
    pub mirror: bool,
    /// The file it was opened from or last saved to (saving again writes there).
    saved_as: Option<std::path::PathBuf>,
}

impl Editor {
    /// An editor on `file` (its `extends` should be resolved: see [`Editor::copy_of`]).
    pub fn new(file: VariantFile) -> Editor {
        Editor { file, undo: Vec::new(), redo: Vec::new(), mirror: false, saved_as: None }
    }

    /// An editor on a copy of the built-in variant `id`: self-contained (`extends` resolved),
    /// with the id `<id>-copy` and the name "<name> (copy)".
    ///
    /// # Errors
    /// No such built-in, or one whose chain does not resolve.
    pub fn copy_of(id: &str) -> Result<Editor, LoadError> {
        let file = crate::variants::builtin_file(id).ok_or_else(|| {
            LoadError::Invalid(vec![Problem::new(ProblemCode::UnknownVariant, "id", format!("no built-in variant '{id}'"))])
        })?;
        let mut file = crate::variants::resolve(file, &crate::variants::builtin_file)?;
        file.extends = None;
        file.id = format!("{id}-copy");
        file.name = Some(format!("{} (copy)", file.name.as_deref().unwrap_or(id)));
        Ok(Editor::new(file))
    }

    /// The definition as it stands.
    pub fn file(&self) -> &VariantFile {
        &self.file
    }

    /// Applies an edit; it can be undone. An edit that changes nothing is not recorded.
    /// Returns whether it changed the definition.
    pub fn edit(&mut self, change: impl FnOnce(&mut VariantFile)) -> bool {
        let before = self.file.clone();
        change(&mut self.file);
        if self.file == before {
            return false;
        }
        self.undo.push(before);
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.redo.clear();
        true
    }

    /// Takes back the last edit. Returns whether there was one.
    pub fn undo(&mut self) -> bool {
        let Some(before) = self.undo.pop() else { return false };
        self.redo.push(std::mem::replace(&mut self.file, before));
        true
    }

    /// Makes the last edit taken back again. Returns whether there was one.
    pub fn redo(&mut self) -> bool {
        let Some(after) = self.redo.pop() else { return false };
        self.undo.push(std::mem::replace(&mut self.file, after));
        true
    }

    /// Whether there is an edit to take back / to make again.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// See [`Editor::can_undo`].
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// An editor on a variant file: its `extends` resolved (the parent looked up beside it,
    /// then among the built-ins), so the editor sees the whole definition; saving writes back
    /// to the file when it is in the directory saved to.
    ///
    /// # Errors
    /// The file does not read, or its parent cannot be found.
    pub fn open(path: &std::path::Path) -> Result<Editor, LoadError> {
        let mut file = crate::variants::resolve_path(path)?;
        file.extends = None;
        let mut editor = Editor::new(file);
        editor.saved_as = Some(path.to_path_buf());
        Ok(editor)
    }

    /// Applies a typed edit (see [`Edit`]).
    ///
    /// # Errors
    /// An edit that cannot apply (a start position that does not read, a size out of range):
    /// nothing changes. Problems of the result (a piece that cannot move, a side in check) are
    /// not errors here: they are listed by [`Editor::problems`].
    pub fn apply(&mut self, edit: &Edit) -> Result<bool, String> {
        let (files, ranks) = self.board_size();
        match edit {
            Edit::Name(name) => Ok(self.edit(|f| f.name = Some(name.clone()))),
            Edit::Description(text) => Ok(self.edit(|f| f.description = Some(text.clone()))),
            Edit::Board { files: nf, ranks: nr } => {
                if !(3..=16).contains(nf) || !(3..=16).contains(nr) {
                    return Err(format!("a board of {nf} × {nr}: files and ranks go from 3 to 16"));
                }
                // The start keeps what still fits: white's half counted from the bottom, black's
                // from the top, each piece on its file.
                let old = match &self.file.start {
                    Some(_) => self.start_grid().map_err(|e| format!("the start position does not read ({e}): fix it first"))?,
                    None => start::StartGrid::empty(files, ranks),
                };
                let fen = old.resized(*nf, *nr).fen();
                Ok(self.edit(|f| {
                    let board =
                        f.board.get_or_insert(BoardSpec { files: 8, ranks: 8, walls: Vec::new(), style: Default::default(), river: None });
                    board.files = *nf;
                    board.ranks = *nr;
                    f.start = Some(fen);
                }))
            }
            Edit::Piece(spec) => Ok(self.edit(|f| {
                let pieces = f.pieces.get_or_insert_with(Vec::new);
                match pieces.iter_mut().find(|p| p.letter == spec.letter) {
                    Some(p) => *p = spec.clone(),
                    None => pieces.push(spec.clone()),
                }
            })),
            Edit::RemovePiece(letter) => {
                let mut g = self.start_grid().ok();
                if let Some(g) = &mut g {
                    for file in 0..files {
                        for rank in 0..ranks {
                            if g.at(file, rank).is_some_and(|t| t.chars().any(|c| c.eq_ignore_ascii_case(letter))) {
                                g.set(file, rank, None, false);
                            }
                        }
                    }
                    let pockets: Option<String> = g.pockets().map(|p| p.chars().filter(|c| !c.eq_ignore_ascii_case(letter)).collect());
                    g.set_pockets(pockets.as_deref());
                }
                Ok(self.edit(|f| {
                    if let Some(pieces) = &mut f.pieces {
                        pieces.retain(|p| p.letter != *letter);
                    }
                    if let Some(g) = g {
                        f.start = Some(g.fen());
                    }
                }))
            }
            Edit::Letter { from, to } => {
                let (from, to) = (from.to_ascii_uppercase(), to.to_ascii_uppercase());
                let pieces = self.file.pieces.as_deref().unwrap_or_default();
                if !to.is_ascii_alphabetic() || pieces.iter().any(|p| p.letter == to) {
                    return Err(format!("'{to}' is not a free letter"));
                }
                if !pieces.iter().any(|p| p.letter == from) {
                    return Err(format!("no piece '{from}'"));
                }
                let swap = |c: char| match c {
                    c if c == from => to,
                    c if c == from.to_ascii_lowercase() => to.to_ascii_lowercase(),
                    c => c,
                };
                // The placement and pockets (the first field) only: the castling field names files.
                let start = self.file.start.as_deref().map(|s| match s.split_once(' ') {
                    Some((placement, rest)) => format!("{} {rest}", placement.chars().map(swap).collect::<String>()),
                    None => s.chars().map(swap).collect(),
                });
                Ok(self.edit(|f| {
                    for p in f.pieces.iter_mut().flatten() {
                        if p.letter == from {
                            p.letter = to;
                        }
                        if p.promotes_to == Some(from) {
                            p.promotes_to = Some(to);
                        }
                    }
                    if let Some(promotion) = &mut f.promotion {
                        promotion.choices = promotion.choices.chars().map(swap).collect();
                        if let Some(n) = promotion.limits.remove(&from) {
                            promotion.limits.insert(to, n);
                        }
                    }
                    f.start = start;
                }))
            }
            Edit::Betza { letter, betza } => {
                if !self.file.pieces.as_ref().is_some_and(|ps| ps.iter().any(|p| p.letter == *letter)) {
                    return Err(format!("no piece '{letter}'"));
                }
                Ok(self.edit(|f| {
                    if let Some(p) = f.pieces.as_mut().and_then(|ps| ps.iter_mut().find(|p| p.letter == *letter)) {
                        p.betza.clone_from(betza);
                    }
                }))
            }
            Edit::Place { file, rank, piece, mirror } => {
                let mut g = self.start_grid()?;
                if *file >= files || *rank >= ranks {
                    return Err(format!("no square at file {file}, rank {rank} on a board of {files} × {ranks}"));
                }
                g.set(*file, *rank, piece.as_deref(), *mirror);
                Ok(self.edit(|f| f.start = Some(g.fen())))
            }
            Edit::Start(fen) => {
                let g = start::StartGrid::parse(fen, files, ranks)?;
                Ok(self.edit(|f| f.start = Some(g.fen())))
            }
            Edit::Preset { id, on } => {
                if crate::presets::by_id(id).is_none() {
                    return Err(format!("no preset '{id}'"));
                }
                Ok(self.edit(|f| {
                    let presets = f.presets.get_or_insert_with(Vec::new);
                    presets.retain(|p| p.id != *id);
                    if *on {
                        presets.push(PresetUse { id: id.clone(), params: Default::default(), scope: None, duration: None });
                    }
                    if presets.is_empty() {
                        f.presets = None;
                    }
                }))
            }
        }
    }

    /// The board's files and ranks (8 × 8 when the definition does not say).
    pub fn board_size(&self) -> (u8, u8) {
        self.file.board.as_ref().map_or((8, 8), |b| (b.files, b.ranks))
    }

    /// The start position as the board editor shows it.
    ///
    /// # Errors
    /// A start that does not fit the board.
    pub fn start_grid(&self) -> Result<start::StartGrid, String> {
        let (files, ranks) = self.board_size();
        start::StartGrid::parse(self.file.start.as_deref().unwrap_or(""), files, ranks)
    }

    /// Saves the definition as `<id>.ron` in `dir` (the user's variants: [`variants_dir`]),
    /// written atomically. Saved there before, it overwrites its own file; otherwise it takes
    /// an id made from its name that no built-in variant and no file in `dir` has, so a
    /// built-in is never shadowed and another variant never overwritten. The file is read back
    /// and must equal the definition.
    ///
    /// # Errors
    /// The directory or file cannot be written, or the file does not read back the same.
    pub fn save_in(&mut self, dir: &std::path::Path) -> Result<std::path::PathBuf, String> {
        // Its own file (opened from or saved to `dir` before) keeps its name, and the id follows
        // the file name as the loader wants.
        let own = self
            .saved_as
            .as_ref()
            .filter(|p| p.parent() == Some(dir))
            .and_then(|p| Some((p.clone(), p.file_stem()?.to_str()?.to_string())));
        let path = match own {
            Some((p, stem)) => {
                self.file.id = stem;
                p
            }
            None => {
                let name = self.file.name.clone().unwrap_or_else(|| self.file.id.clone());
                let id = id_from_name(&name, &|id| crate::variants::builtin_file(id).is_some() || dir.join(format!("{id}.ron")).exists());
                self.file.id.clone_from(&id);
                dir.join(format!("{id}.ron"))
            }
        };
        let text = self.ron();
        crate::save::write_atomically(&path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let back = std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|t| crate::variants::parse_variant_file(&t).map_err(|e| e.to_string()))?;
        if back != self.file {
            return Err(format!("{} does not read back as it was written", path.display()));
        }
        self.saved_as = Some(path.clone());
        Ok(path)
    }

    /// Every problem of the definition as it stands, each with its key path (`pieces[2].betza`,
    /// `start`, `board.files`): what the loader and the game would refuse, and its warnings.
    /// Design warnings (`W_` codes) follow the loader's problems once it accepts the file.
    pub fn problems(&self) -> Vec<Problem> {
        let variant = match crate::variants::compile_playable(&self.file) {
            Ok(v) => v,
            Err(LoadError::Invalid(problems)) => return problems,
            Err(other) => return vec![Problem::new(ProblemCode::StartFen, "", other.to_string())],
        };
        let mut out = Vec::new();
        let reg = &variant.registry;
        let checkmate =
            variant.end.iter().any(|e| matches!(e, crate::rules::EndCondition::Checkmate | crate::rules::EndCondition::Checkmated(_)));
        if checkmate && !reg.types.iter().any(|d| d.royal) {
            out.push(Problem::new(
                ProblemCode::NoRoyal,
                "pieces",
                "the game is won by checkmate, but no piece is royal: mark the king royal",
            ));
        }
        let promoters: Vec<_> = reg.types.iter().filter(|d| d.promotes).collect();
        if !promoters.is_empty()
            && !variant.promotion.choices.is_empty()
            && !promoters
                .iter()
                .any(|d| d.atoms.iter().any(|a| a.dy > 0 || a.any_square) || !matches!(d.generator, crate::rules::MoveGenerator::Table))
        {
            out.push(Problem::new(
                ProblemCode::PromotionUnreachable,
                "promotion",
                "no promoting piece moves forward, so none can reach the zone",
            ));
        }
        if let Ok(mut game) = crate::presets::new_game(variant.clone(), &variant.start_fen)
            && game.legal_moves().is_empty()
        {
            out.push(Problem::new(
                ProblemCode::NoLegalMove,
                "start",
                "the side to move has no legal move at the start: the game is over at once",
            ));
        }
        if self.mirror && self.start_grid().is_ok_and(|g| !g.is_mirrored()) {
            out.push(Problem::new(ProblemCode::StartAsymmetric, "start", "black's pieces do not mirror white's"));
        }
        out
    }

    /// The definition as RON, as it would be saved.
    pub fn ron(&self) -> String {
        crate::variants::write_variant_file(&self.file).expect("plain data serialises")
    }

    /// Replaces the definition with RON text (an edit: it can be undone).
    ///
    /// # Errors
    /// The text does not parse: nothing changes (the error has the line and column).
    pub fn set_ron(&mut self, text: &str) -> Result<bool, LoadError> {
        let file = crate::variants::parse_variant_file(text)?;
        Ok(self.edit(|f| *f = file))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_undo_and_redo() {
        let mut e = Editor::copy_of("capablanca").unwrap();
        assert!(e.file().extends.is_none());
        assert_eq!(e.file().id, "capablanca-copy");
        let before = e.file().clone();
        assert!(e.edit(|f| f.name = Some("Mine".into())));
        assert!(!e.edit(|f| f.name = Some("Mine".into())), "no change, no record");
        assert!(e.edit(|f| f.start = Some("8/8/8/8/8/8/8/8 w - - 0 1".into())));
        assert!(e.undo());
        assert_eq!(e.file().name.as_deref(), Some("Mine"));
        assert!(e.undo());
        assert_eq!(e.file(), &before);
        assert!(!e.undo());
        assert!(e.redo());
        assert_eq!(e.file().name.as_deref(), Some("Mine"));
        // A new edit drops what redo would have made.
        assert!(e.edit(|f| f.description = Some("x".into())));
        assert!(!e.can_redo());
    }

    #[test]
    fn problems_come_with_their_field() {
        let mut e = Editor::copy_of("chess").unwrap();
        assert!(e.problems().is_empty(), "{:?}", e.problems());
        e.edit(|f| f.pieces.as_mut().unwrap()[0].betza = "fmWx".into());
        let problems = e.problems();
        assert!(problems.iter().any(|p| p.path == "pieces[P].betza"), "{problems:?}");
        e.undo();
        e.edit(|f| f.start = Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1".into()));
        assert!(e.problems().iter().any(|p| p.path == "start"), "{:?}", e.problems());
    }

    /// The target, replayed on the model: Capablanca's board, pieces and start, with a
    /// grasshopper for each side, and exploding rooks; the result compiles, and its perft(3)
    /// equals the same definition written by hand. (The issue puts the grasshoppers on a3 and
    /// j3 / a6 and j6, where each side's a-file grasshopper checks the other king at the start;
    /// the problems list says so, and they move to b3 and i3 / b6 and i6.)
    #[test]
    fn capablanca_with_grasshoppers_and_exploding_rooks() {
        let mut e = Editor::new(VariantFile { id: "grasshopper-capablanca".into(), ..crate::variants::builtin_file("chess").unwrap() });
        let capablanca = {
            let file = crate::variants::builtin_file("capablanca").unwrap();
            crate::variants::resolve(file, &crate::variants::builtin_file).unwrap()
        };
        e.apply(&Edit::Name("Capablanca with grasshoppers".into())).unwrap();
        e.apply(&Edit::Board { files: 10, ranks: 8 }).unwrap();
        for spec in capablanca.pieces.clone().unwrap() {
            e.apply(&Edit::Piece(spec)).unwrap();
        }
        // The grasshopper, painted: all eight directions, hopping and landing just beyond.
        let mut p = painter::Painter::default();
        p.symmetry = painter::Symmetry { all: true, ..Default::default() };
        p.cycle(1, 0);
        p.cycle(1, 1);
        p.toggle(1, 0, painter::Toggle::Grasshop);
        p.toggle(1, 1, painter::Toggle::Grasshop);
        assert_eq!(p.betza(), "gQ");
        let grasshopper = PieceSpec::plain('G', "grasshopper", &p.betza());
        e.apply(&Edit::Piece(grasshopper)).unwrap();
        e.apply(&Edit::Start(capablanca.start.clone().unwrap())).unwrap();
        e.apply(&Edit::Place { file: 0, rank: 2, piece: Some("G".into()), mirror: true }).unwrap();
        e.apply(&Edit::Place { file: 9, rank: 2, piece: Some("G".into()), mirror: true }).unwrap();
        e.apply(&Edit::Preset { id: "explosive-rook".into(), on: true }).unwrap();
        // Promotion may choose the grasshopper too, like any piece: as Capablanca's.
        e.edit(|f| f.promotion = capablanca.promotion.clone());
        e.edit(|f| f.castling = capablanca.castling.clone());
        // On a3, the grasshopper hops e7's pawn onto f8: the black king is in check at the
        // start (and a6's, over e2, checks white's). The live problems say so, at `start`.
        let problems = e.problems();
        assert!(problems.iter().any(|p| p.path == "start" && p.message.contains("in check")), "{problems:?}");
        // So they stand on b3 and i3 / b6 and i6 instead.
        for (from, to) in [(0, 1), (9, 8)] {
            e.apply(&Edit::Place { file: from, rank: 2, piece: None, mirror: true }).unwrap();
            e.apply(&Edit::Place { file: to, rank: 2, piece: Some("G".into()), mirror: true }).unwrap();
        }
        assert!(e.problems().is_empty(), "{:?}", e.problems());
        let grid = e.start_grid().unwrap();
        assert_eq!((grid.at(1, 2), grid.at(8, 2), grid.at(1, 5), grid.at(8, 5)), (Some("G"), Some("G"), Some("g"), Some("g")));
        // Saved and read back: the same definition.
        let back = crate::variants::parse_variant_file(&e.ron()).unwrap();
        assert_eq!(&back, e.file());
        // Written by hand: Capablanca with the grasshoppers and the preset.
        let mut by_hand = capablanca.clone();
        by_hand.id = "by-hand".into();
        let mut pieces = by_hand.pieces.clone().unwrap();
        pieces.push(e.file().pieces.as_ref().unwrap().iter().find(|p| p.letter == 'G').unwrap().clone());
        by_hand.pieces = Some(pieces);
        by_hand.start = Some("rnabqkbcnr/pppppppppp/1g6g1/10/10/1G6G1/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1".into());
        by_hand.presets = Some(vec![PresetUse { id: "explosive-rook".into(), params: Default::default(), scope: None, duration: None }]);
        let perft = |file: &VariantFile| {
            let v = crate::variants::compile_playable(file).unwrap();
            crate::presets::new_game(v.clone(), &v.start_fen).unwrap().perft(3)
        };
        assert_eq!(perft(e.file()), perft(&by_hand));
        // Undo takes the edits back one by one, to the chess it started from.
        let mut n = 0;
        while e.undo() {
            n += 1;
        }
        assert!(n >= 10, "{n}");
        assert_eq!(e.file().name.as_deref(), Some("Chess"));
    }

    #[test]
    fn design_warnings_point_at_their_field() {
        let codes = |e: &Editor| e.problems().iter().map(|p| (p.code, p.path.clone())).collect::<Vec<_>>();
        let mut e = Editor::copy_of("chess").unwrap();
        e.mirror = true;
        assert!(codes(&e).is_empty(), "{:?}", codes(&e));
        // Pawns that only move backwards never reach the zone.
        e.apply(&Edit::Betza { letter: 'P', betza: "bmWbcF".into() }).unwrap();
        assert!(codes(&e).contains(&(ProblemCode::PromotionUnreachable, "promotion".into())), "{:?}", codes(&e));
        e.undo();
        // Atomic without a royal king: the game is still won by blowing the king up, but
        // checkmate can never happen.
        let mut atomic = Editor::copy_of("atomic").unwrap();
        atomic.edit(|f| f.pieces.as_mut().unwrap().iter_mut().for_each(|p| p.royal = false));
        assert_eq!(codes(&atomic), [(ProblemCode::NoRoyal, "pieces".into())]);
        // A start that does not mirror.
        e.apply(&Edit::Place { file: 0, rank: 1, piece: None, mirror: false }).unwrap();
        assert!(codes(&e).contains(&(ProblemCode::StartAsymmetric, "start".into())), "{:?}", codes(&e));
        e.undo();
        // Stalemate at the start.
        e.mirror = false;
        e.apply(&Edit::Start("k7/8/8/8/8/8/2q5/K7 w - - 0 1".into())).unwrap();
        assert_eq!(codes(&e), [(ProblemCode::NoLegalMove, "start".into())]);
    }

    #[test]
    fn saving_never_shadows_a_built_in_or_overwrites_another_variant() {
        assert_eq!(id_from_name("Capablanca with Grasshoppers!", &|_| false), "capablanca-with-grasshoppers");
        assert_eq!(id_from_name("  ", &|_| false), "variant");
        assert_eq!(id_from_name("Chess", &|id| id == "chess"), "chess-2");
        let dir = std::env::temp_dir().join(format!("chimera-my-variants-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut a = Editor::copy_of("chess").unwrap();
        a.apply(&Edit::Name("Chess".into())).unwrap();
        let first = a.save_in(&dir).unwrap();
        assert_eq!(first, dir.join("chess-2.ron"), "a built-in's id is never taken");
        a.apply(&Edit::Description("changed".into())).unwrap();
        assert_eq!(a.save_in(&dir).unwrap(), first, "saving again writes its own file");
        let mut b = Editor::copy_of("chess").unwrap();
        b.apply(&Edit::Name("Chess".into())).unwrap();
        assert_eq!(b.save_in(&dir).unwrap(), dir.join("chess-3.ron"), "another variant of the same name does not overwrite it");
        let listed = my_variants(&dir);
        assert_eq!(listed.len(), 2);
        assert!(listed.iter().all(|(_, r)| r.as_deref() == Ok("Chess")), "{listed:?}");
        // The saved file loads as the game loads variants, and plays.
        let variant = crate::variants::load_path(&first).unwrap();
        assert_eq!(crate::presets::new_game(variant.clone(), &variant.start_fen).unwrap().perft(2), 400);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn renaming_a_letter_renames_it_everywhere_and_resizing_keeps_both_armies() {
        let mut e = Editor::copy_of("crazyhouse").unwrap();
        e.apply(&Edit::Start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1".into())).unwrap();
        e.apply(&Edit::Letter { from: 'N', to: 'H' }).unwrap();
        assert!(
            e.file().start.as_deref().unwrap().starts_with("rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR[Hh] w KQkq"),
            "{:?}",
            e.file().start
        );
        assert!(e.problems().is_empty(), "{:?}", e.problems());
        assert!(e.apply(&Edit::Letter { from: 'H', to: 'B' }).is_err(), "a letter in use");
        e.apply(&Edit::RemovePiece('H')).unwrap();
        assert!(e.file().start.as_deref().unwrap().starts_with("r1bqkb1r/pppppppp/8/8/8/8/PPPPPPPP/R1BQKB1R[] w"), "{:?}", e.file().start);
        // 8 × 8 to 10 × 6 and back: white's pawns and pieces stay at the bottom, black's at the top.
        let mut c = Editor::copy_of("chess").unwrap();
        c.apply(&Edit::Board { files: 10, ranks: 6 }).unwrap();
        assert_eq!(c.file().start.as_deref(), Some("rnbqkbnr2/pppppppp2/10/10/PPPPPPPP2/RNBQKBNR2 w KQkq - 0 1"));
        c.apply(&Edit::Board { files: 8, ranks: 8 }).unwrap();
        assert_eq!(c.file().start.as_deref(), Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
        c.edit(|f| f.start = Some("not a position".into()));
        assert!(c.apply(&Edit::Board { files: 9, ranks: 9 }).is_err(), "an unreadable start is not wiped");
    }

    #[test]
    fn ron_text_is_a_view_of_the_same_definition() {
        let mut e = Editor::copy_of("shogi").unwrap();
        let text = e.ron();
        let changed = text.replace("(copy)", "(mine)");
        assert!(e.set_ron(&changed).unwrap());
        assert_eq!(e.file().name.as_deref(), Some("Shogi (mine)"));
        let err = e.set_ron("(id: \"x\", name: ").unwrap_err();
        assert!(matches!(err, LoadError::Syntax { line: 1, .. }), "{err}");
        assert_eq!(e.file().name.as_deref(), Some("Shogi (mine)"), "a text that does not parse changes nothing");
        assert!(e.undo());
        assert_eq!(e.ron(), text);
    }
}
