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
//! Parts: the typed edits ([`Edit`]) with undo and redo (a gesture — a value dragged, a name
//! typed — merges into one step: [`Editor::apply_merged`]), live problems and the section each
//! belongs to ([`Section::of`]), the RON text both ways, the move painter ([`painter`]) in plain
//! words and kept in step with Betza, ready-made ways to win ([`templates`]), a description that
//! follows the rules in words while the designer has not written one ([`Editor::follow_words`]),
//! the start position as a grid with its pockets and a Chess960-style shuffle ([`start`]), the
//! rules' forms and regions painted square by square, the piece library and
//! the catalogue's starts ([`rules`]), saving (to the user's variants, or as any file) and the
//! file browser's model ([`browse`]).
//!
//! Layer: uses `rules` to `cli`.

pub mod actions;
pub mod balance;
pub mod browse;
pub mod painter;
pub mod rules;
pub mod setup;
pub mod start;
pub mod templates;

pub use rules::{LibraryPiece, Switch, castling_default, catalogue_starts, piece_library, region_uses, square_name};
pub use templates::{WinTemplate, free_region_name};

use std::collections::BTreeMap;

use crate::rules::Side;
use crate::variants::{
    BlastSpec, BoardSpec, CastlingSpec, DropsSpec, EndSpec, LoadError, MaterialCountSpec, PiecePromotionSpec, PieceSpec, PresetUse,
    Problem, ProblemCode, ProfileUse, PromotionSpec, RegionSpec, ShuffleSpec, VariantFile,
};

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
    /// An active preset's parameters, scope and duration (the preset named by its id).
    PresetUse(PresetUse),
    /// A rule switched on or off.
    Switch {
        /// Which rule.
        switch: Switch,
        /// On or off.
        on: bool,
    },
    /// Castling: off (`None`), or on with its files.
    Castling(Option<CastlingSpec>),
    /// Promotion on a rank (`None`: none).
    Promotion(Option<PromotionSpec>),
    /// Shogi-style promotion in a zone (`None`: none).
    PiecePromotion(Option<PiecePromotionSpec>),
    /// Hands and drops (`None`: no hands).
    Drops(Option<DropsSpec>),
    /// Exploding captures (`None`: none).
    Blast(Option<BlastSpec>),
    /// How new games shuffle the start (`None`: never).
    Shuffle(Option<ShuffleSpec>),
    /// The end conditions, in the order they are checked (written out even when they are
    /// chess's, which a file may leave out).
    End(Vec<EndSpec>),
    /// The variant's own actions, in order (the file says `format: 2` while it has any).
    Actions(Vec<crate::variants::actions::ActionSpec>),
    /// The piece facts the actions use.
    Facts(Vec<crate::variants::actions::FactSpec>),
    /// A named region set (`Some`) or removed (`None`).
    Region {
        /// Its name.
        name: String,
        /// What it is.
        spec: Option<RegionSpec>,
    },
    /// A region renamed, and every place that names it.
    RenameRegion {
        /// The name it has.
        from: String,
        /// The name it gets (unused).
        to: String,
    },
    /// A region made one for each side: its squares become white's region `<name>-white`,
    /// their mirror black's `<name>-black`, and it names the two.
    RegionPerSide(String),
    /// How the board is drawn: on the intersections of lines (Xiangqi), and a river after a
    /// rank.
    BoardLook {
        /// Pieces on the points where lines cross.
        intersections: bool,
        /// A river between this rank and the next.
        river: Option<u8>,
    },
    /// Squares (file and rank, from 0) added to a region or taken out of it: the region
    /// becomes the list of its squares (one is made if there is none of that name).
    PaintRegion {
        /// The region.
        name: String,
        /// The squares painted.
        squares: Vec<(u8, u8)>,
        /// Added, or taken out.
        on: bool,
    },
    /// The region whose points are joined by diagonal lines (Janggi's palaces), or none.
    DiagonalLines(Option<String>),
    /// The material count that scores a game ended by bikjang or passes, or none.
    MaterialCount(Option<MaterialCountSpec>),
    /// The modifier profile games of the variant start with: none, a built-in's id, or one
    /// written out in the file.
    Profile(Option<ProfileUse>),
    /// One piece (its letter: upper case white's, lower case black's) put in a pocket
    /// (`on`), or taken out of it.
    Pocket {
        /// The piece.
        letter: char,
        /// Put in, or taken out.
        on: bool,
    },
}

/// The editor's sections, each editing some keys of the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Section {
    /// Board size and the named regions.
    Board,
    /// Piece types and the move painter.
    #[default]
    Pieces,
    /// The start position, its pockets and shuffling.
    Start,
    /// Castling, promotion, drops, the rule switches, end conditions, presets.
    Rules,
    /// The variant's own rules as data: actions and the piece facts they use.
    Actions,
    /// The balance lab: computer-against-computer runs and piece values from play.
    Balance,
    /// The whole definition as RON (and the header's name and description).
    Ron,
}

/// A file with actions or facts says `format: 2` (at least); one without keeps what it says.
fn needs_format(f: &mut VariantFile) {
    if (f.actions.is_some() || f.facts.is_some()) && f.format.is_none_or(|n| n < 2) {
        f.format = Some(crate::variants::actions::FORMAT);
    }
}

impl Section {
    /// Every section, in the order the editor shows them.
    pub const ALL: [Section; 7] =
        [Section::Board, Section::Pieces, Section::Start, Section::Rules, Section::Actions, Section::Balance, Section::Ron];

    /// Its title.
    pub fn title(self) -> &'static str {
        match self {
            Section::Board => "Board",
            Section::Pieces => "Pieces",
            Section::Start => "Start position",
            Section::Rules => "Rules",
            Section::Actions => "Actions",
            Section::Balance => "Balance",
            Section::Ron => "RON",
        }
    }

    /// The top-level keys of the file it has fields for, besides the rule switches (the rules',
    /// from the table). Every key is some section's; the RON section has the whole text, and
    /// lists the keys no form edits.
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            Section::Board => &["board", "regions"],
            Section::Pieces => &["pieces", "remove_pieces"],
            Section::Start => &["start", "shuffle"],
            Section::Rules => &[
                "castling",
                "promotion",
                "piece_promotion",
                "drops",
                "blast",
                "diagonal_lines",
                "material_count",
                "draw_odds",
                "mutually_immune",
                "end",
                "presets",
                "profile",
            ],
            Section::Actions => &["format", "actions", "facts"],
            Section::Balance => &[],
            Section::Ron => &["id", "extends", "name", "description", "rules_summary"],
        }
    }

    /// Whether the top-level `key` is one of this section's: one of [`Self::keys`], or for the
    /// rules a rule switch of the table ([`crate::variants::SWITCHES`]).
    pub fn has(self, key: &str) -> bool {
        self.keys().contains(&key) || (self == Section::Rules && crate::variants::switch(key).is_some())
    }

    /// The section whose field a problem's key path (`pieces[P].betza`, `end[1].pieces`,
    /// `regions.hill`) points at.
    pub fn of(path: &str) -> Section {
        let key = path.split(['.', '[']).next().unwrap_or("");
        Section::ALL.into_iter().find(|s| s.has(key)).unwrap_or(Section::Ron)
    }
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
    /// The key of the edit being made by [`Editor::apply_merged`], while it applies.
    merging: Option<String>,
    /// The key of the last edit recorded, while later edits of that key merge into it (until
    /// [`Editor::seal`]).
    last_merge: Option<String>,
    /// The definition as last opened or saved.
    saved: Option<VariantFile>,
    /// The file at `saved_as` was written by this editor.
    wrote_it: bool,
}

impl Editor {
    /// An editor on `file` (its `extends` should be resolved: see [`Editor::copy_of`]).
    pub fn new(file: VariantFile) -> Editor {
        let saved = Some(file.clone());
        Editor {
            file,
            undo: Vec::new(),
            redo: Vec::new(),
            mirror: false,
            saved_as: None,
            merging: None,
            last_merge: None,
            saved,
            wrote_it: false,
        }
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
        // The parent's words would describe the parent: a copy starts with its rules in words,
        // made from its definition (the rules panel makes them afresh as it changes).
        file.rules_summary = None;
        file.description = crate::variants::compile(&file).ok().map(|v| crate::rules::describe_rules(&v));
        Ok(Editor::new(file))
    }

    /// Keeps a description that is the rules in words in step with them: when it reads
    /// `before` (the words of the definition before the last edit), it becomes `now`, as part of
    /// that edit (undo takes both back). A description the designer wrote is left alone.
    pub fn follow_words(&mut self, before: &str, now: &str) -> bool {
        if before == now || self.file.description.as_deref() != Some(before) {
            return false;
        }
        self.file.description = Some(now.to_string());
        true
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
        // An edit of the key being merged into adds nothing to the history: undo takes back
        // the whole gesture.
        let merged = self.merging.is_some() && self.merging == self.last_merge && !self.undo.is_empty();
        if !merged {
            self.undo.push(before);
            if self.undo.len() > UNDO_DEPTH {
                self.undo.remove(0);
            }
        }
        self.last_merge.clone_from(&self.merging);
        self.redo.clear();
        true
    }

    /// Applies an edit that merges with the edits of the same `key` just before it (a value
    /// dragged, a name typed: one gesture, one step of undo), until [`Editor::seal`].
    ///
    /// # Errors
    /// As [`Editor::apply`].
    pub fn apply_merged(&mut self, edit: &Edit, key: &str) -> Result<bool, String> {
        self.merging = Some(key.to_string());
        let result = self.apply(edit);
        self.merging = None;
        result
    }

    /// Ends the gesture: the next edit is a step of its own.
    pub fn seal(&mut self) {
        self.last_merge = None;
    }

    /// Takes back the last edit. Returns whether there was one.
    pub fn undo(&mut self) -> bool {
        self.last_merge = None;
        let Some(before) = self.undo.pop() else { return false };
        self.redo.push(std::mem::replace(&mut self.file, before));
        true
    }

    /// Makes the last edit taken back again. Returns whether there was one.
    pub fn redo(&mut self) -> bool {
        self.last_merge = None;
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
                    // Rules counted from the far rank stay there: promotion on the last rank, a
                    // zone of the last ranks; castling on its usual squares stays on them.
                    let far = |r: u8| nr.saturating_sub(ranks.saturating_sub(r)).max(1);
                    if let Some(p) = &mut f.promotion {
                        p.optional_from = p.optional_from.map(|o| far(o).min(far(p.rank)));
                        p.rank = far(p.rank);
                    }
                    if let Some(z) = &mut f.piece_promotion {
                        z.zone = far(z.zone);
                    }
                    // Drop ranks in the far half are counted from the far rank too.
                    let shift = |r: &mut u8| {
                        if *r > ranks / 2 {
                            *r = far(*r);
                        }
                    };
                    if let Some(d) = &mut f.drops {
                        d.ranks.iter_mut().for_each(shift);
                        d.forbidden_ranks.values_mut().flatten().for_each(shift);
                    }
                    if f.castling == Some(rules::castling_default(files)) {
                        f.castling = Some(rules::castling_default(*nf));
                    }
                }))
            }
            Edit::Piece(spec) => Ok(self.edit(|f| {
                let pieces = f.pieces.get_or_insert_with(Vec::new);
                match pieces.iter_mut().find(|p| p.letter == spec.letter) {
                    Some(p) => *p = spec.clone(),
                    None => pieces.push(spec.clone()),
                }
                drop_unused_pictures(f);
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
                    rules::map_letter(f, *letter, None);
                    if let Some(g) = g {
                        f.start = Some(g.fen());
                    }
                    drop_unused_pictures(f);
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
                    }
                    rules::map_letter(f, from, Some(to));
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
            Edit::PresetUse(usage) => {
                let Some(def) = crate::presets::by_id(&usage.id) else { return Err(format!("no preset '{}'", usage.id)) };
                // The parameters checked as an activation's are.
                let activation = crate::presets::Activation { id: def.id, params: usage.params.clone(), ..Default::default() };
                crate::presets::check_params(def, &activation).map_err(|e| e.to_string())?;
                if !self.file.presets.iter().flatten().any(|p| p.id == usage.id) {
                    return Err(format!("{} is not on", def.name));
                }
                Ok(self.edit(|f| {
                    for p in f.presets.iter_mut().flatten().filter(|p| p.id == usage.id) {
                        *p = usage.clone();
                    }
                }))
            }
            Edit::Switch { switch, on } => Ok(self.edit(|f| switch.turn(f, *on))),
            Edit::Castling(spec) => Ok(self.edit(|f| f.castling.clone_from(spec))),
            Edit::Promotion(spec) => Ok(self.edit(|f| f.promotion.clone_from(spec))),
            Edit::PiecePromotion(spec) => Ok(self.edit(|f| f.piece_promotion.clone_from(spec))),
            Edit::Drops(spec) => Ok(self.edit(|f| f.drops.clone_from(spec))),
            Edit::Blast(spec) => Ok(self.edit(|f| f.blast.clone_from(spec))),
            Edit::Shuffle(spec) => Ok(self.edit(|f| f.shuffle = *spec)),
            Edit::End(list) => Ok(self.edit(|f| f.end = Some(list.clone()))),
            Edit::Actions(list) => Ok(self.edit(|f| {
                f.actions = Some(list.clone()).filter(|l| !l.is_empty());
                needs_format(f);
            })),
            Edit::Facts(list) => Ok(self.edit(|f| {
                f.facts = Some(list.clone()).filter(|l| !l.is_empty());
                needs_format(f);
            })),
            Edit::DiagonalLines(region) => Ok(self.edit(|f| f.diagonal_lines.clone_from(region))),
            Edit::MaterialCount(count) => Ok(self.edit(|f| f.material_count.clone_from(count))),
            Edit::Profile(profile) => {
                if let Some(ProfileUse::Id(id)) = profile
                    && crate::modifiers::builtin(id).is_none()
                {
                    return Err(format!("no built-in profile '{id}'"));
                }
                Ok(self.edit(|f| f.profile.clone_from(profile)))
            }
            Edit::Region { name, spec } => {
                if name.trim().is_empty() {
                    return Err("a region needs a name".into());
                }
                if spec.is_none() && !region_uses(&self.file, name).is_empty() {
                    return Err(format!("'{name}' is used by {}: change those first", region_uses(&self.file, name).join(", ")));
                }
                Ok(self.edit(|f| {
                    let regions = f.regions.get_or_insert_with(Default::default);
                    match spec {
                        Some(s) => {
                            regions.insert(name.clone(), s.clone());
                        }
                        None => {
                            regions.remove(name);
                        }
                    }
                    if regions.is_empty() {
                        f.regions = None;
                    }
                }))
            }
            Edit::RenameRegion { from, to } => {
                let regions = self.file.regions.as_ref();
                if !regions.is_some_and(|r| r.contains_key(from)) {
                    return Err(format!("no region '{from}'"));
                }
                if to.trim().is_empty() || regions.is_some_and(|r| r.contains_key(to)) {
                    return Err(format!("'{to}' is not a free region name"));
                }
                Ok(self.edit(|f| rules::rename_region(f, from, to)))
            }
            Edit::RegionPerSide(name) => {
                let regions = self.file.regions.clone().unwrap_or_default();
                if matches!(regions.get(name), None | Some(RegionSpec::PerSide { .. })) {
                    return Err(format!("'{name}' is not a region of squares"));
                }
                let (white, black) = (format!("{name}-white"), format!("{name}-black"));
                if regions.contains_key(&white) || regions.contains_key(&black) {
                    return Err(format!("'{white}' or '{black}' is taken"));
                }
                // (On the board as drawn: a size out of range in the text is drawn clamped.)
                let squares: Vec<(u8, u8)> =
                    self.region_squares(name)[0].iter().copied().filter(|&(f, r)| f < files && r < ranks).collect();
                let names = |flip: bool| {
                    let mut list: Vec<(u8, u8)> = squares.iter().map(|&(f, r)| (f, if flip { ranks - 1 - r } else { r })).collect();
                    list.sort_by_key(|&(f, r)| (r, f));
                    RegionSpec::Squares(list.into_iter().map(|(f, r)| square_name(f, r)).collect())
                };
                Ok(self.edit(|f| {
                    let regions = f.regions.get_or_insert_with(Default::default);
                    regions.insert(white.clone(), names(false));
                    regions.insert(black.clone(), names(true));
                    regions.insert(name.clone(), RegionSpec::PerSide { white, black });
                }))
            }
            Edit::BoardLook { intersections, river } => Ok(self.edit(|f| {
                let board = f.board.get_or_insert(BoardSpec { files, ranks, walls: Vec::new(), style: Default::default(), river: None });
                board.style =
                    if *intersections { crate::variants::BoardStyle::Intersections } else { crate::variants::BoardStyle::Squares };
                board.river = *river;
            })),
            Edit::PaintRegion { name, squares, on } => {
                if let Some(&(x, y)) = squares.iter().find(|&&(x, y)| x >= files || y >= ranks) {
                    return Err(format!("no square at file {x}, rank {y} on a board of {files} × {ranks}"));
                }
                let mut after = self.file.clone();
                rules::paint_region(&mut after, name, squares, *on)?;
                Ok(self.edit(|f| *f = after))
            }
            Edit::Pocket { letter, on } => {
                let mut g = self.start_grid()?;
                if !letter.is_ascii_alphabetic() {
                    return Err(format!("'{letter}' is not a piece letter"));
                }
                if *on {
                    g.add_to_pocket(*letter);
                } else if !g.take_from_pocket(*letter) {
                    return Err(format!("no '{letter}' in the pockets"));
                }
                Ok(self.edit(|f| f.start = Some(g.fen())))
            }
        }
    }

    /// The end conditions as they apply: the file's, or chess's when it leaves them out.
    pub fn end_conditions(&self) -> Vec<EndSpec> {
        self.file.end.clone().unwrap_or_else(crate::variants::default_end)
    }

    /// A letter no piece type has: `preferred` (upper-cased) if it is free, else the first free
    /// one from A; `None` when all 26 are taken.
    pub fn free_letter(&self, preferred: char) -> Option<char> {
        let taken = |c: char| self.file.pieces.iter().flatten().any(|p| p.letter == c);
        let preferred = preferred.to_ascii_uppercase();
        if preferred.is_ascii_uppercase() && !taken(preferred) {
            return Some(preferred);
        }
        ('A'..='Z').find(|&c| !taken(c))
    }

    /// The squares of the region `name`, for white and for black (see
    /// [`crate::variants::region_squares`]).
    pub fn region_squares(&self, name: &str) -> [Vec<(u8, u8)>; 2] {
        crate::variants::region_squares(&self.file, name)
    }

    /// Shuffles white's first rank as Chess960 does (bishops on both colours, the king between
    /// the rooks when the variant castles), black's mirrored; one edit. `pick(n)` chooses a
    /// number below `n`.
    ///
    /// # Errors
    /// A start that does not read, or a first rank that cannot meet those rules.
    pub fn shuffle_start(&mut self, pick: &mut dyn FnMut(usize) -> usize) -> Result<bool, String> {
        let mut g = self.start_grid()?;
        let pieces = self.file.pieces.clone().unwrap_or_default();
        // Pieces that keep to one colour of square (every step moves an even distance).
        let colour_bound: String = pieces
            .iter()
            .filter(|p| {
                p.code.is_none()
                    && crate::rules::parse_betza(&p.betza)
                        .is_ok_and(|atoms| !atoms.is_empty() && atoms.iter().all(|a| !a.any_square && (a.dx + a.dy) % 2 == 0))
            })
            .map(|p| p.letter)
            .collect();
        let castling = match (&self.file.castling, pieces.iter().find(|p| p.castles), pieces.iter().find(|p| p.castling_partner)) {
            (Some(CastlingSpec::On { .. }), Some(k), Some(r)) => Some((k.letter, r.letter)),
            _ => None,
        };
        g.shuffle_first_rank(&colour_bound, castling, pick)?;
        Ok(self.edit(|f| f.start = Some(g.fen())))
    }

    /// The board's files and ranks (8 × 8 when the definition does not say).
    pub fn board_size(&self) -> (u8, u8) {
        // A size out of range (typed in the RON text) is a problem at `board`; the views draw
        // what the loader would check against.
        self.file.board.as_ref().map_or((8, 8), |b| (b.files.clamp(3, 16), b.ranks.clamp(3, 16)))
    }

    /// The start position as the board editor shows it.
    ///
    /// # Errors
    /// A start that does not fit the board.
    pub fn start_grid(&self) -> Result<start::StartGrid, String> {
        let (files, ranks) = self.board_size();
        start::StartGrid::parse(self.file.start.as_deref().unwrap_or(""), files, ranks)
    }

    /// Saves the definition ("Save"), written atomically: to its own file — the one it was
    /// opened from or saved to before, unless that is a built-in's source (whose name a
    /// built-in owns) — and otherwise as `<id>.ron` in `dir` (the user's variants:
    /// [`variants_dir`]), with an id made from its name that no built-in variant and no file
    /// in `dir` has, so a built-in is never shadowed and another variant never overwritten.
    /// The file is read back and must equal the definition.
    ///
    /// # Errors
    /// The directory or file cannot be written, or the file does not read back the same.
    pub fn save_in(&mut self, dir: &std::path::Path) -> Result<std::path::PathBuf, String> {
        // Its own file keeps its name, and the id follows the file name as the loader wants. A
        // file is its own when the editor wrote it, or it is one of the user's variants; a
        // file opened from elsewhere (written by hand, perhaps extending another) is not
        // rewritten: its copy goes to `dir`.
        let own = self
            .saved_as
            .as_ref()
            .filter(|p| self.wrote_it || p.parent() == Some(dir))
            .and_then(|p| Some((p.clone(), p.file_stem()?.to_str()?.to_string())))
            .filter(|(_, stem)| crate::variants::builtin_file(stem).is_none());
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
        self.write_to(&path)?;
        Ok(path)
    }

    /// Saves the definition to the file `path` ("Save as…"), written atomically and read back;
    /// the id becomes the file's name, as the loader wants. Saving again writes there.
    ///
    /// # Errors
    /// A file name that is not an id (lower-case letters, digits and `-`, ending `.ron`), or
    /// a file that cannot be written or does not read back the same.
    pub fn save_as(&mut self, path: &std::path::Path) -> Result<(), String> {
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        let is_id = !stem.is_empty() && stem.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !is_id || path.extension().is_none_or(|x| x != "ron") {
            return Err(format!("'{}': name the file with lower-case letters, digits and '-', ending .ron", path.display()));
        }
        if crate::variants::builtin_file(stem).is_some() {
            return Err(format!("'{stem}' is a built-in variant's id: choose another name"));
        }
        let before = self.file.id.clone();
        self.file.id = stem.to_string();
        let written = self.write_to(path);
        if written.is_err() {
            self.file.id = before;
        }
        written
    }

    /// Writes the definition to `path` atomically and reads it back. The pieces' own pictures
    /// are written first, to `<id>-images/` beside it (see
    /// [`crate::variants::pictures::write_beside`]); the file names them there.
    fn write_to(&mut self, path: &std::path::Path) -> Result<(), String> {
        let dir = path.parent().unwrap_or(std::path::Path::new(""));
        let mut file = self.file.clone();
        // Pictures named and not carried (not read when opened): read from where the file was,
        // so that a copy saved elsewhere takes them along.
        if let Some(old) = self.saved_as.as_deref().and_then(std::path::Path::parent) {
            crate::variants::pictures::embed_beside(&mut file, old);
        }
        let named = crate::variants::pictures::write_beside(&mut file, dir)
            .map_err(|e| format!("cannot write the pictures beside {}: {e}", path.display()))?;
        let text = crate::variants::write_variant_file(&named).expect("plain data serialises");
        crate::save::write_atomically(path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let mut back = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|t| crate::variants::parse_variant_file(&t).map_err(|e| e.to_string()))?;
        crate::variants::pictures::embed_beside(&mut back, dir);
        if back != file {
            return Err(format!("{} does not read back as it was written", path.display()));
        }
        // The pictures are now named where they were written (the same pictures: no edit).
        self.file = file;
        self.saved_as = Some(path.to_path_buf());
        self.saved = Some(self.file.clone());
        self.wrote_it = true;
        Ok(())
    }

    /// The file it was opened from or last saved to.
    pub fn saved_as(&self) -> Option<&std::path::Path> {
        self.saved_as.as_deref()
    }

    /// Names the file Save writes back to: a file whose text did not parse when opened, once
    /// its text is fixed and applied (the definition then counts as changes not saved).
    pub fn set_saved_as(&mut self, path: &std::path::Path) {
        self.saved_as = Some(path.to_path_buf());
        self.wrote_it = true;
        self.saved = None;
    }

    /// Whether the definition has changed since it was opened or last saved (a new variant:
    /// since it was made).
    pub fn has_unsaved_changes(&self) -> bool {
        self.saved.as_ref() != Some(&self.file)
    }

    /// Every problem of the definition as it stands, each with its key path (`pieces[2].betza`,
    /// `start`, `board.files`): what the loader and the game would refuse, and its warnings.
    /// Design warnings (`W_` codes) follow the loader's problems once it accepts the file.
    pub fn problems(&self) -> Vec<Problem> {
        self.check().0
    }

    /// The definition's problems (see [`Editor::problems`]) and the variant it compiles to, when
    /// it compiles: one compilation for both (a view wants the variant too, for the pieces'
    /// values and the profile's forms).
    pub fn check(&self) -> (Vec<Problem>, Option<crate::rules::Variant>) {
        let compiled = crate::variants::compile(&self.file).and_then(|v| Ok((crate::variants::playable(&v)?, v)));
        let (mut game, variant) = match compiled {
            Ok(both) => both,
            Err(LoadError::Invalid(problems)) => return (problems, None),
            Err(other) => return (vec![Problem::new(ProblemCode::StartFen, "", other.to_string())], None),
        };
        let mut out = Vec::new();
        let reg = &variant.registry;
        let checkmate = variant.end.iter().any(|e| {
            matches!(
                e,
                crate::rules::EndCondition::Checkmate
                    | crate::rules::EndCondition::Checkmated(_)
                    | crate::rules::EndCondition::ShatarMate { .. }
            )
        });
        // (Pieces royal by their count are royal enough: Sho shogi's king.)
        if checkmate && !reg.types.iter().any(|d| d.royal) && !variant.has_pseudo_royals() {
            out.push(Problem::new(
                ProblemCode::NoRoyal,
                "pieces",
                "the game is won by checkmate, but no piece is royal: mark the king royal",
            ));
        }
        let promoters: Vec<_> = reg.types.iter().filter(|d| d.promotes).collect();
        if !promoters.is_empty()
            && !variant.promotion.choices.is_empty()
            && !promoters.iter().any(|d| {
                d.atoms.iter().any(|a| a.dy > 0 || a.any_square)
                    || d.legs.iter().any(|path| path.iter().map(|s| i32::from(s.dy)).sum::<i32>() > 0)
                    || !matches!(d.generator, crate::rules::MoveGenerator::Table)
            })
        {
            out.push(Problem::new(
                ProblemCode::PromotionUnreachable,
                "promotion",
                "no promoting piece moves forward, so none can reach the zone",
            ));
        }
        if game.legal_moves().is_empty() {
            out.push(Problem::new(
                ProblemCode::NoLegalMove,
                "start",
                "the side to move has no legal move at the start: the game is over at once",
            ));
        }
        if self.mirror && self.start_grid().is_ok_and(|g| !g.is_mirrored()) {
            out.push(Problem::new(ProblemCode::StartAsymmetric, "start", "black's pieces do not mirror white's"));
        }
        out.extend(crate::variants::pictures::problems(&self.file, self.saved_as.as_deref().and_then(std::path::Path::parent)));
        let specs = self.file.actions.as_deref().unwrap_or_default();
        for a in &variant.actions {
            if let Some(why) = crate::presets::action_compile::never_runs(a, &variant.facts) {
                let i = specs.iter().position(|s| s.name == a.name).unwrap_or_default();
                out.push(Problem::new(ProblemCode::ActionNever, format!("actions[{i}]"), format!("it never runs: {why}")));
            }
        }
        (out, Some(variant))
    }

    /// The definition as RON, as it would be saved (the pieces' pictures named, not carried).
    pub fn ron(&self) -> String {
        let named = VariantFile { pictures: None, ..self.file.clone() };
        crate::variants::write_variant_file(&named).expect("plain data serialises")
    }

    /// Gives the piece `letter` the picture in the file at `path`, for `side`, or for both
    /// sides (`None`: the other side's is the same picture recoloured). The picture is read
    /// and drawn first, and refused as [`crate::variants::pictures`] says; the definition then
    /// carries it until Save writes it beside the variant. Returns what of it is not drawn
    /// (text in an SVG). One step of undo.
    ///
    /// # Errors
    /// No such piece, or the picture refused (why, in words).
    pub fn import_picture(&mut self, letter: char, side: Option<Side>, path: &std::path::Path) -> Result<Vec<String>, String> {
        use crate::variants::pictures;
        let Some(spec) = self.file.pieces.iter().flatten().find(|p| p.letter == letter).cloned() else {
            return Err(format!("no piece {letter}"));
        };
        let shown = path.file_name().and_then(|n| n.to_str()).unwrap_or("the picture").to_string();
        let bytes = pictures::read_file(path).map_err(|e| format!("{shown} {e}"))?;
        let notes = pictures::draw(&bytes).map_err(|e| format!("{shown} is refused: {e}"))?.notes;
        let data: std::sync::Arc<str> = pictures::to_base64(&bytes).into();
        let carried = self.file.pictures.clone().unwrap_or_default();
        // What the variant carries in all stays within the limit (other pieces' pictures, and
        // this piece's own for the side replaced, count until the import replaces them).
        let total: u64 = carried.values().map(|d| d.len() as u64 / 4 * 3).sum::<u64>() + bytes.len() as u64;
        if total > pictures::MAX_TOTAL_BYTES {
            return Err(format!(
                "{shown} is refused: the variant's pictures would come to {} KiB, and {} KiB is the most in all",
                total / 1024,
                pictures::MAX_TOTAL_BYTES / 1024
            ));
        }
        // Named in the folder Save writes to; a name taken by another picture gets a number.
        let ext = pictures::extension(&bytes);
        let stem: String = std::path::Path::new(&shown)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("picture")
            .chars()
            .map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '-' })
            .collect();
        let mut key = format!("{}-images/{stem}.{ext}", self.file.id);
        let mut n = 1;
        while carried.get(&key).is_some_and(|d| *d != data) {
            n += 1;
            key = format!("{}-images/{stem}-{n}.{ext}", self.file.id);
        }
        let mut picture = spec.picture.clone().unwrap_or_default();
        match side {
            None => picture = crate::variants::PictureSpec { white: Some(key.clone()), black: None },
            Some(Side::White) => picture.white = Some(key.clone()),
            Some(Side::Black) => picture.black = Some(key.clone()),
        }
        self.edit(|f| {
            f.pictures.get_or_insert_with(Default::default).insert(key, data);
            if let Some(p) = f.pieces.iter_mut().flatten().find(|p| p.letter == letter) {
                p.picture = Some(picture);
            }
            drop_unused_pictures(f);
        });
        Ok(notes)
    }

    /// Takes the piece's own pictures away (it is drawn with the piece set's again), or one
    /// side's (`Some(side)`: that side becomes the other's recoloured). One step of undo.
    pub fn clear_picture(&mut self, letter: char, side: Option<Side>) -> bool {
        self.edit(|f| {
            if let Some(p) = f.pieces.iter_mut().flatten().find(|p| p.letter == letter) {
                match (side, &mut p.picture) {
                    (None, picture) => *picture = None,
                    (Some(Side::White), Some(picture)) => picture.white = None,
                    (Some(Side::Black), Some(picture)) => picture.black = None,
                    (Some(_), None) => {}
                }
                if p.picture.as_ref().is_some_and(|q| q.white.is_none() && q.black.is_none()) {
                    p.picture = None;
                }
            }
            drop_unused_pictures(f);
        })
    }

    /// Replaces the definition with RON text (an edit: it can be undone).
    ///
    /// # Errors
    /// The text does not parse: nothing changes (the error has the line and column).
    pub fn set_ron(&mut self, text: &str) -> Result<bool, LoadError> {
        let beside = self.saved_as.clone();
        self.set_ron_of(text, beside.as_deref())
    }

    /// [`Editor::set_ron`] for the text of the file `path` (one that did not parse when opened):
    /// parents are looked up beside it, and once the text applies, Save writes back to it.
    ///
    /// # Errors
    /// As [`Editor::set_ron`].
    pub fn set_ron_for(&mut self, text: &str, path: &std::path::Path) -> Result<bool, LoadError> {
        let changed = self.set_ron_of(text, Some(path))?;
        self.set_saved_as(path);
        Ok(changed)
    }

    fn set_ron_of(&mut self, text: &str, beside: Option<&std::path::Path>) -> Result<bool, LoadError> {
        let mut file = crate::variants::parse_variant_file(text)?;
        // Self-contained, as every definition the editor holds: a parent named in the text is
        // resolved (beside its file, as the loader looks parents up, else built in; `extends`
        // is then gone).
        if file.extends.is_some() {
            file = match beside {
                Some(path) => crate::variants::resolve(file, &crate::variants::sibling_lookup(path))?,
                None => crate::variants::resolve(file, &crate::variants::builtin_file)?,
            };
            file.extends = None;
        }
        // The text names the pictures; the ones already carried stay, and new names are read
        // from beside the file.
        file.pictures.clone_from(&self.file.pictures);
        if let Some(dir) = beside.and_then(std::path::Path::parent) {
            crate::variants::pictures::embed_beside(&mut file, dir);
        }
        drop_unused_pictures(&mut file);
        Ok(self.edit(|f| *f = file))
    }
}

/// Drops the carried pictures that no piece names.
fn drop_unused_pictures(f: &mut VariantFile) {
    let named: Vec<String> =
        f.pieces.iter().flatten().filter_map(|p| p.picture.as_ref()).flat_map(|p| [p.white.clone(), p.black.clone()]).flatten().collect();
    if let Some(m) = &mut f.pictures {
        m.retain(|path, _| named.contains(path));
    }
    if f.pictures.as_ref().is_some_and(BTreeMap::is_empty) {
        f.pictures = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Scope;

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

    /// The issue's target, replayed on the model: Capablanca's board, pieces and start, with a
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
        p.symmetry = painter::Symmetry::Turns;
        p.cycle(1, 0);
        p.cycle(1, 1);
        p.set_reach(1, 0, painter::Reach::OverJustBeyond);
        p.set_reach(1, 1, painter::Reach::OverJustBeyond);
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
            let v = crate::variants::compile(file).unwrap();
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

    /// The edits `scripts/editor-e2e.sh` makes by mouse and keyboard, replayed on the model as
    /// the screen makes them: from "New variant" (a copy of chess), ten files, the archbishop
    /// and chancellor from the library, Capablanca's start copied, castling switched off and
    /// on again (its squares for ten files), A and C added to the promotion choices, the
    /// grasshopper painted and placed on b3 and i3 (mirrored), exploding rooks. The result
    /// equals Capablanca with the grasshoppers written by hand, perft(3) included.
    #[test]
    fn the_e2e_edit_sequence_from_a_new_variant() {
        let mut e = Editor::copy_of("chess").unwrap();
        e.apply(&Edit::Name("New variant".into())).unwrap();
        e.apply(&Edit::Board { files: 10, ranks: 8 }).unwrap();
        let library = piece_library();
        for name in ["archbishop", "chancellor"] {
            let l = library.iter().find(|l| l.spec.name == name).unwrap();
            let letter = e.free_letter(l.spec.letter).unwrap();
            e.apply(&Edit::Piece(PieceSpec { letter, ..l.spec.clone() })).unwrap();
        }
        let (_, _, start) = catalogue_starts(10, 8).into_iter().find(|(id, _, _)| id == "capablanca").unwrap();
        e.apply(&Edit::Start(start)).unwrap();
        e.apply(&Edit::Castling(None)).unwrap();
        e.apply(&Edit::Castling(Some(castling_default(10)))).unwrap();
        let mut promotion = e.file().promotion.clone().unwrap();
        promotion.choices.push_str("AC");
        e.apply(&Edit::Promotion(Some(promotion))).unwrap();
        // "Add a piece" takes the first free letter, renamed G in the letter field.
        let free = e.free_letter('A').unwrap();
        assert_eq!(free, 'D');
        e.apply(&Edit::Piece(PieceSpec::plain(free, &format!("piece {free}"), "W"))).unwrap();
        e.apply(&Edit::Letter { from: free, to: 'G' }).unwrap();
        let mut p = painter::Painter::from_betza("W").unwrap();
        p.symmetry = painter::Symmetry::Turns;
        p.cycle(1, 1);
        p.set_reach(1, 0, painter::Reach::OverJustBeyond);
        p.set_reach(1, 1, painter::Reach::OverJustBeyond);
        e.apply(&Edit::Betza { letter: 'G', betza: p.betza() }).unwrap();
        let named =
            PieceSpec { name: "grasshopper".into(), ..e.file().pieces.as_ref().unwrap().iter().find(|p| p.letter == 'G').unwrap().clone() };
        e.apply(&Edit::Piece(named)).unwrap();
        for file in [1, 8] {
            e.apply(&Edit::Place { file, rank: 2, piece: Some("G".into()), mirror: true }).unwrap();
        }
        e.apply(&Edit::Preset { id: "explosive-rook".into(), on: true }).unwrap();
        e.apply(&Edit::Name("Capablanca with grasshoppers".into())).unwrap();
        assert!(e.problems().is_empty(), "{:?}", e.problems());
        let by_hand = crate::variants::parse_variant_file(
            r#"(
                id: "by-hand",
                extends: "capablanca",
                pieces: [(letter: 'G', name: "grasshopper", betza: "gQ")],
                start: "rnabqkbcnr/pppppppppp/1g6g1/10/10/1G6G1/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
                presets: [(id: "explosive-rook")],
            )"#,
        )
        .unwrap();
        let by_hand = crate::variants::resolve(by_hand, &crate::variants::builtin_file).unwrap();
        let perft = |file: &VariantFile| {
            let v = crate::variants::compile(file).unwrap();
            crate::presets::new_game(v.clone(), &v.start_fen).unwrap().perft(3)
        };
        assert_eq!(perft(e.file()), perft(&by_hand));
        // A regression value, from Chimera itself: Fairy-Stockfish has no exploding rooks to
        // give it (the hand-written file above is the independent check).
        assert_eq!(perft(e.file()), 21_802);
        // The same rules as the hand-written file, key by key (names and order aside).
        let (mine, hand) = (e.file(), &by_hand);
        assert_eq!(
            (mine.board.as_ref(), &mine.start, &mine.castling, &mine.presets),
            (hand.board.as_ref(), &hand.start, &hand.castling, &hand.presets)
        );
        let sorted = |f: &VariantFile| {
            let mut ps: Vec<(char, String)> = f.pieces.iter().flatten().map(|p| (p.letter, p.betza.clone())).collect();
            ps.sort();
            ps
        };
        assert_eq!(sorted(mine), sorted(hand));
        let letters = |s: &str| {
            let mut c: Vec<char> = s.chars().collect();
            c.sort_unstable();
            c
        };
        assert_eq!(letters(&mine.promotion.as_ref().unwrap().choices), letters(&hand.promotion.as_ref().unwrap().choices));
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
        // Moves that do not read are the loader's error, at the piece's moves; a piece with no
        // move at all stands where it is put (Fairy-Stockfish's immobile piece).
        e.apply(&Edit::Piece(PieceSpec::plain('X', "statue", "Wx"))).unwrap();
        assert!(codes(&e).contains(&(ProblemCode::Betza, "pieces[X].betza".into())), "{:?}", codes(&e));
        e.undo();
        e.apply(&Edit::Piece(PieceSpec::plain('X', "statue", ""))).unwrap();
        assert!(!codes(&e).iter().any(|(c, _)| *c == ProblemCode::Betza), "{:?}", codes(&e));
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
        // Wider with the same ranks: every rank stays where it is.
        c.apply(&Edit::Board { files: 10, ranks: 8 }).unwrap();
        assert_eq!(c.file().start.as_deref(), Some("rnbqkbnr2/pppppppp2/10/10/10/10/PPPPPPPP2/RNBQKBNR2 w KQkq - 0 1"));
        c.undo();
        c.edit(|f| f.start = Some("not a position".into()));
        assert!(c.apply(&Edit::Board { files: 9, ranks: 9 }).is_err(), "an unreadable start is not wiped");
    }

    /// King of the hill built in the editor from chess: the centre painted by a drag, the
    /// king reaching it made an end condition; it plays as the built-in does.
    #[test]
    fn a_painted_region_and_an_end_condition_make_king_of_the_hill() {
        let mut e = Editor::copy_of("chess").unwrap();
        assert!(e.region_squares("hill")[0].is_empty());
        e.apply(&Edit::PaintRegion { name: "centre".into(), squares: vec![(3, 3), (4, 3), (3, 4), (4, 4), (5, 5)], on: true }).unwrap();
        e.apply(&Edit::PaintRegion { name: "centre".into(), squares: vec![(5, 5)], on: false }).unwrap();
        assert_eq!(e.region_squares("centre"), [vec![(3, 3), (4, 3), (3, 4), (4, 4)], vec![(3, 3), (4, 3), (3, 4), (4, 4)]]);
        let mut end = e.end_conditions();
        assert_eq!(end, crate::variants::default_end(), "chess's when the file leaves them out");
        end.insert(1, EndSpec::RegionReached { pieces: "K".into(), region: "centre".into(), reply: false, safe: false, count: 1 });
        end.retain(|e| *e != EndSpec::InsufficientMaterial);
        e.apply(&Edit::End(end)).unwrap();
        // Renamed, it is renamed where the end condition names it; removing it while used is refused.
        e.apply(&Edit::RenameRegion { from: "centre".into(), to: "hill".into() }).unwrap();
        assert!(matches!(&e.file().end.as_ref().unwrap()[1], EndSpec::RegionReached { region, .. } if region == "hill"));
        assert_eq!(region_uses(e.file(), "hill"), ["end[1]"]);
        assert!(e.apply(&Edit::Region { name: "hill".into(), spec: None }).is_err());
        assert!(e.apply(&Edit::RenameRegion { from: "nowhere".into(), to: "x".into() }).is_err());
        assert!(e.apply(&Edit::PaintRegion { name: "hill".into(), squares: vec![(8, 0)], on: true }).is_err(), "off the board");
        assert!(e.problems().is_empty(), "{:?}", e.problems());
        let perft = |file: &VariantFile| {
            let v = crate::variants::compile(file).unwrap();
            crate::presets::new_game(v.clone(), "rnbqkbnr/pppppppp/8/8/8/2K5/PPPPPPPP/RNBQ1BNR w kq - 0 1").unwrap().perft(2)
        };
        let koth =
            crate::variants::resolve(crate::variants::builtin_file("kingofthehill").unwrap(), &crate::variants::builtin_file).unwrap();
        assert_eq!(perft(e.file()), perft(&koth), "the king on c3 steps onto the hill and wins, as in the built-in");
        let chess = crate::variants::resolve(crate::variants::builtin_file("chess").unwrap(), &crate::variants::builtin_file).unwrap();
        assert!(perft(e.file()) < perft(&chess), "a king on the hill ends the game");
        // A region for each side is painted through the regions it names.
        e.apply(&Edit::Region { name: "camp".into(), spec: Some(RegionSpec::PerSide { white: "hill".into(), black: "hill".into() }) })
            .unwrap();
        assert!(e.apply(&Edit::PaintRegion { name: "camp".into(), squares: vec![(0, 0)], on: true }).is_err());
    }

    #[test]
    fn rule_forms_write_the_keys_the_loader_reads() {
        let mut e = Editor::copy_of("chess").unwrap();
        let mandatory = crate::variants::switch("mandatory_capture").unwrap();
        e.apply(&Edit::Switch { switch: mandatory, on: true }).unwrap();
        assert_eq!(e.file().mandatory_capture, Some(true));
        assert!(mandatory.is_on(e.file()));
        e.apply(&Edit::Castling(None)).unwrap();
        e.apply(&Edit::Promotion(Some(PromotionSpec {
            rank: 8,
            choices: "QN".into(),
            black_choices: None,
            optional_from: None,
            limits: Default::default(),
            region: None,
        })))
        .unwrap();
        e.apply(&Edit::Blast(Some(BlastSpec { immune: "P".into(), ..Default::default() }))).unwrap();
        e.apply(&Edit::Start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1".into())).unwrap();
        assert!(e.problems().is_empty(), "{:?}", e.problems());
        // What the forms wrote is what the loader plays: mandatory capture, no castling, two
        // promotion choices, blasts.
        let v = crate::variants::compile(e.file()).unwrap();
        assert!(v.switches.mandatory_capture && v.castling.is_none() && v.blast.is_some());
        assert_eq!(v.promotion.choices.len(), 2);
        // And the text says the same.
        assert_eq!(&crate::variants::parse_variant_file(&e.ron()).unwrap(), e.file());
        // A preset's parameters, scope and duration; values out of range are refused.
        e.apply(&Edit::Preset { id: "piece-hp".into(), on: true }).unwrap();
        let hp = |v: f64| PresetUse {
            id: "piece-hp".into(),
            params: [("hp".to_string(), v)].into_iter().collect(),
            scope: Some(crate::variants::Scope::White),
            duration: Some(10),
        };
        let def = crate::presets::by_id("piece-hp").unwrap();
        let range = def.params.iter().find(|p| p.name == "hp").unwrap();
        assert!(e.apply(&Edit::PresetUse(hp(f64::from(range.max) + 1.0))).is_err());
        e.apply(&Edit::PresetUse(hp(f64::from(range.max)))).unwrap();
        assert_eq!(e.file().presets.as_ref().unwrap()[0], hp(f64::from(range.max)));
        assert!(e.problems().is_empty(), "{:?}", e.problems());
        assert!(e.apply(&Edit::PresetUse(PresetUse { id: "double-move".into(), ..hp(2.0) })).is_err(), "not on");
        // Each edit undoes on its own.
        let mut n = 0;
        while e.undo() {
            n += 1;
        }
        assert_eq!(n, 7);
        assert_eq!(e.file(), Editor::copy_of("chess").unwrap().file());
    }

    #[test]
    fn a_profile_by_id_or_written_out() {
        let mut e = Editor::copy_of("chess").unwrap();
        assert!(e.apply(&Edit::Profile(Some(ProfileUse::Id("no-such".into())))).is_err());
        e.apply(&Edit::Profile(Some(ProfileUse::Id("sturdy-rooks".into())))).unwrap();
        assert!(e.problems().is_empty(), "{:?}", e.problems());
        // Written out: knights that also step like a ferz.
        let mut own = crate::modifiers::Profile { id: "mine".into(), ..Default::default() };
        own.types
            .insert("N".into(), [("direction-additions".to_string(), crate::modifiers::Value::Text("F".into()))].into_iter().collect());
        e.apply(&Edit::Profile(Some(ProfileUse::Inline(own.clone())))).unwrap();
        assert!(e.problems().is_empty(), "{:?}", e.problems());
        let v = crate::variants::compile(e.file()).unwrap();
        let mut game = crate::presets::new_game(v.clone(), "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(game.legal_moves().len(), 8 + 4 + 5, "the knight's 8, the ferz's 4, the king's 5");
        // A letter the variant lacks is a problem at the profile, in the rules section.
        own.types.insert("Z".into(), [("hp-bonus".to_string(), crate::modifiers::Value::Int(1))].into_iter().collect());
        e.apply(&Edit::Profile(Some(ProfileUse::Inline(own)))).unwrap();
        let problems = e.problems();
        assert!(problems.iter().any(|p| p.path.starts_with("profile")), "{problems:?}");
        assert!(problems.iter().all(|p| Section::of(&p.path) == Section::Rules), "{problems:?}");
    }

    #[test]
    fn pockets_and_a_shuffled_start() {
        let mut e = Editor::copy_of("crazyhouse").unwrap();
        e.apply(&Edit::Pocket { letter: 'N', on: true }).unwrap();
        e.apply(&Edit::Pocket { letter: 'n', on: true }).unwrap();
        assert!(e.file().start.as_deref().unwrap().contains("[Nn]"), "{:?}", e.file().start);
        assert!(e.problems().is_empty(), "{:?}", e.problems());
        assert!(e.apply(&Edit::Pocket { letter: 'q', on: false }).is_err());
        let mut state = 7u64;
        let mut pick = move |n: usize| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((state >> 33) % n as u64) as usize
        };
        let mut c = Editor::copy_of("capablanca").unwrap();
        c.apply(&Edit::Castling(Some(CastlingSpec::On {
            king: ('i', 'c'),
            rook: ('h', 'd'),
            king_takes_rook: true,
            rank: 1,
            rook_start: None,
        })))
        .unwrap();
        for _ in 0..20 {
            c.shuffle_start(&mut pick).unwrap();
            assert!(c.problems().is_empty(), "{:?}: {:?}", c.file().start, c.problems());
        }
        assert!(c.start_grid().unwrap().is_mirrored());
    }

    #[test]
    fn the_library_and_the_catalogue_starts() {
        let library = piece_library();
        let named = |n: &str| library.iter().filter(|l| l.spec.name == n).count();
        assert!(library.len() > 40, "{}", library.len());
        assert_eq!(named("archbishop"), 1, "Capablanca's and Gothic's archbishop is one piece");
        let archbishop = library.iter().find(|l| l.spec.name == "archbishop").unwrap();
        assert!(archbishop.variants.len() >= 2, "{:?}", archbishop.variants);
        assert!(library.iter().any(|l| l.spec.code.as_deref() == Some("cannon")), "code pieces too");
        // Added to chess under a free letter, it plays.
        let mut e = Editor::copy_of("chess").unwrap();
        assert_eq!(e.free_letter('K'), Some('A'));
        assert_eq!(e.free_letter('a'), Some('A'));
        let letter = e.free_letter(archbishop.spec.letter).unwrap();
        e.apply(&Edit::Piece(PieceSpec { letter, ..archbishop.spec.clone() })).unwrap();
        assert!(e.problems().is_empty(), "{:?}", e.problems());
        let starts = catalogue_starts(10, 8);
        assert!(starts.iter().any(|(id, _, _)| id == "capablanca") && starts.iter().all(|(id, _, _)| id != "chess"));
    }

    /// Every top-level key of the file has a section, and the problems of a broken file each
    /// point at a section that has a field for their key.
    #[test]
    fn every_problem_reaches_a_section_with_its_field() {
        let switches = crate::variants::SWITCHES.iter().map(|s| s.key);
        let mut keys: Vec<&str> = Section::ALL.iter().flat_map(|s| s.keys().iter().copied()).chain(switches).collect();
        let n = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), n, "a key in two sections");
        // Every key the catalogue's files write has a section.
        let mut written = std::collections::BTreeSet::new();
        for id in crate::variants::builtin_ids() {
            let text = ron::ser::to_string_pretty(&crate::variants::builtin_file(id).unwrap(), ron::ser::PrettyConfig::default()).unwrap();
            for line in text.lines().filter(|l| l.starts_with("    ") && !l.starts_with("     ")) {
                if let Some((key, _)) = line.trim().split_once(':') {
                    written.insert(key.to_string());
                }
            }
        }
        assert!(written.len() >= 20, "{written:?}");
        for key in &written {
            assert!(keys.contains(&key.as_str()), "{key} has no section");
        }
        let mut e = Editor::copy_of("chess").unwrap();
        e.edit(|f| {
            f.pieces.as_mut().unwrap()[0].betza = "fQx".into();
            f.promotion.as_mut().unwrap().choices = "QS".into();
            f.castling = Some(CastlingSpec::On { king: ('g', 'c'), rook: ('f', 'd'), king_takes_rook: false, rank: 9, rook_start: None });
            f.regions = Some([("far".to_string(), RegionSpec::Rect("a1".into(), "k9".into()))].into_iter().collect());
            f.end = Some(vec![
                EndSpec::Checkmate,
                EndSpec::RegionReached { pieces: "KW".into(), region: "near".into(), reply: false, safe: false, count: 1 },
            ]);
            f.presets = Some(vec![PresetUse { id: "no-such".into(), params: Default::default(), scope: None, duration: None }]);
            f.board.as_mut().unwrap().river = Some(9);
        });
        let problems = e.problems();
        assert!(problems.len() >= 7, "{problems:?}");
        for p in &problems {
            let key = p.path.split(['.', '[']).next().unwrap();
            assert!(Section::of(&p.path).keys().contains(&key), "{p:?}");
            assert_ne!(Section::of(&p.path), Section::Ron, "{p:?} has a form");
        }
        assert_eq!(Section::of("pieces[P].betza"), Section::Pieces);
        assert_eq!(Section::of("regions.far"), Section::Board);
        assert_eq!(Section::of("end[1].pieces"), Section::Rules);
        // Every rule switch is the rules' (a new row of the table too).
        assert!(crate::variants::SWITCHES.iter().all(|s| Section::of(s.key) == Section::Rules));
        assert_eq!(Section::of(""), Section::Ron);
    }

    #[test]
    fn a_gesture_is_one_step_of_undo() {
        let mut e = Editor::copy_of("chess").unwrap();
        for name in ["M", "Mi", "Min", "Mine"] {
            e.apply_merged(&Edit::Name(name.into()), "name").unwrap();
        }
        e.seal();
        e.apply_merged(&Edit::Name("Mine!".into()), "name").unwrap();
        e.apply_merged(&Edit::Description("d".into()), "description").unwrap();
        assert!(e.undo());
        assert_eq!(e.file().name.as_deref(), Some("Mine!"));
        assert!(e.undo());
        assert_eq!(e.file().name.as_deref(), Some("Mine"), "sealed: a step of its own");
        assert!(e.undo());
        assert_eq!(e.file().name.as_deref(), Some("Chess (copy)"), "the typing is one step");
        assert!(!e.undo());
    }

    /// The novice's Dragon chess (issue 33), as the editor's controls make it with no Betza,
    /// region or FEN typed: a new variant named, the queen given a knight's moves and then a
    /// king's added ("Like a…" by picture), King of the Hill from the ready-made ways to win,
    /// the description following the rules in words, saved and opened again. The GUI script
    /// `scripts/editor-novice.sh` clicks the same controls.
    #[test]
    fn the_novice_builds_dragon_chess() {
        let mut e = Editor::copy_of("chess").unwrap();
        let words = |e: &Editor| crate::rules::describe_rules(&crate::variants::compile(e.file()).unwrap());
        assert_eq!(e.file().description.as_deref(), Some(words(&e).as_str()), "a copy starts with its rules in words");
        assert_eq!(e.file().rules_summary, None, "not the parent's words");
        e.apply(&Edit::Name("Dragon chess".into())).unwrap();
        let queen = e.file().pieces.iter().flatten().find(|p| p.letter == 'Q').unwrap().clone();
        let knight = painter::together("", "N").unwrap();
        let dragon = painter::together(&knight, "K").unwrap();
        e.apply(&Edit::Betza { letter: 'Q', betza: dragon }).unwrap();
        let before = words(&e);
        e.add_win(&WinTemplate::Hill).unwrap();
        let now = words(&e);
        assert!(e.follow_words(&before, &now));
        assert!(now.contains("getting a king to d4, e4, d5 or e5"), "{now}");
        assert!(e.problems().is_empty(), "{:?}", e.problems());
        let v = crate::variants::compile(e.file()).unwrap();
        let q = v.registry.types.iter().find(|d| d.letter == 'Q').unwrap();
        assert_eq!(crate::rules::describe_piece(q), "Moves as a knight or as a king.");
        assert_eq!(q.value, queen.value, "the saved value is not replaced by the estimate");
        // A king one step from the hill wins by stepping on it.
        let mut g = crate::presets::new_game(v.clone(), "4k3/8/8/8/8/2K5/8/8 w - - 0 1").unwrap();
        g.play_uci("c3d4").unwrap();
        assert_eq!(g.outcome().map(|o| o.winner), Some(Some(crate::rules::Side::White)));
        let dir = std::env::temp_dir().join(format!("chimera-novice-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = e.save_in(&dir).unwrap();
        let again = Editor::open(&path).unwrap();
        assert_eq!(again.file().description, e.file().description);
        assert_eq!(crate::variants::load_path(&path).unwrap().start_fen, v.start_fen);
        std::fs::remove_dir_all(&dir).unwrap();
        // A description the designer wrote is left alone.
        let mut e = Editor::copy_of("chess").unwrap();
        e.apply(&Edit::Description("Mine.".into())).unwrap();
        let before = words(&e);
        e.add_win(&WinTemplate::Checks(3)).unwrap();
        assert!(!e.follow_words(&before, &words(&e)));
        assert_eq!(e.file().description.as_deref(), Some("Mine."));
    }

    #[test]
    fn save_as_names_the_id_after_the_file() {
        let dir = std::env::temp_dir().join(format!("chimera-save-as-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut e = Editor::copy_of("shogi").unwrap();
        assert!(e.save_as(&dir.join("My Shogi.ron")).is_err(), "not an id");
        assert!(e.save_as(&dir.join("chess.ron")).is_err(), "a built-in's id");
        assert_eq!(e.file().id, "shogi-copy", "nothing changed");
        e.save_as(&dir.join("my-shogi.ron")).unwrap();
        assert_eq!(e.file().id, "my-shogi");
        assert_eq!(e.saved_as(), Some(dir.join("my-shogi.ron").as_path()));
        let v = crate::variants::load_path(&dir.join("my-shogi.ron")).unwrap();
        assert_eq!(crate::presets::new_game(v.clone(), &v.start_fen).unwrap().perft(2), 900);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_letter_is_renamed_and_removed_everywhere_it_is_named() {
        let perft = |e: &Editor, depth: u32| {
            let v = crate::variants::compile(e.file()).unwrap();
            crate::presets::new_game(v.clone(), &v.start_fen).unwrap().perft(depth)
        };
        // Atomic: the king in the extinction rule, the pawn among the pieces a blast spares.
        let mut a = Editor::copy_of("atomic").unwrap();
        let before = perft(&a, 3);
        a.apply(&Edit::Letter { from: 'K', to: 'W' }).unwrap();
        a.apply(&Edit::Letter { from: 'P', to: 'O' }).unwrap();
        assert_eq!(a.file().blast.as_ref().unwrap().immune, "O");
        let extinction = EndSpec::Extinction {
            pieces: "W".into(),
            per_type: false,
            fewer_than: 1,
            verdict: crate::rules::Verdict::Loss,
            pseudo_royal: false,
        };
        assert!(a.file().end.as_ref().unwrap().contains(&extinction), "{:?}", a.file().end);
        assert!(a.problems().is_empty(), "{:?}", a.problems());
        assert_eq!(perft(&a, 3), before, "the same game under other letters");
        // Shogi: promotion targets and the drop rules.
        let mut s = Editor::copy_of("shogi").unwrap();
        s.apply(&Edit::Letter { from: 'G', to: 'J' }).unwrap();
        s.apply(&Edit::Letter { from: 'P', to: 'F' }).unwrap();
        let drops = s.file().drops.clone().unwrap();
        assert_eq!((drops.no_doubled.as_str(), drops.no_drop_mate.as_str()), ("F", "F"));
        assert!(s.file().pieces.iter().flatten().all(|p| p.promotes_to != Some('G')));
        assert!(s.problems().is_empty(), "{:?}", s.problems());
        assert_eq!(perft(&s, 2), 900);
        // Removed: gone from the lists that name it, and from what promotes to it.
        s.apply(&Edit::RemovePiece('F')).unwrap();
        let drops = s.file().drops.clone().unwrap();
        assert_eq!((drops.no_doubled.as_str(), drops.no_drop_mate.as_str()), ("", ""));
        s.apply(&Edit::RemovePiece('J')).unwrap();
        assert!(s.file().pieces.iter().flatten().all(|p| p.promotes_to != Some('J')));
    }

    #[test]
    fn resizing_keeps_rules_counted_from_the_far_rank() {
        let mut c = Editor::copy_of("chess").unwrap();
        c.apply(&Edit::Board { files: 10, ranks: 10 }).unwrap();
        assert_eq!(c.file().promotion.as_ref().unwrap().rank, 10);
        assert_eq!(c.file().castling, Some(castling_default(10)), "the king still castles two files from each corner");
        assert!(c.problems().is_empty(), "{:?}", c.problems());
        let mut g = Editor::copy_of("grand").unwrap();
        let p = g.file().promotion.clone().unwrap();
        assert_eq!((p.rank, p.optional_from), (10, Some(8)));
        g.apply(&Edit::Board { files: 10, ranks: 8 }).unwrap();
        let p = g.file().promotion.clone().unwrap();
        assert_eq!((p.rank, p.optional_from), (8, Some(6)));
        let mut z = Editor::copy_of("crazyhouse").unwrap();
        z.edit(|f| f.drops.as_mut().unwrap().forbidden_ranks = [('P', vec![1, 8])].into_iter().collect());
        z.apply(&Edit::Board { files: 8, ranks: 10 }).unwrap();
        assert_eq!(z.file().drops.as_ref().unwrap().forbidden_ranks[&'P'], [1, 10], "the far rank stays the far rank");
        let mut s = Editor::copy_of("shogi").unwrap();
        assert_eq!(s.file().piece_promotion.as_ref().unwrap().zone, 7);
        s.apply(&Edit::Board { files: 9, ranks: 7 }).unwrap();
        assert_eq!(s.file().piece_promotion.as_ref().unwrap().zone, 5);
    }

    #[test]
    fn text_naming_a_parent_is_resolved() {
        let mut e = Editor::copy_of("chess").unwrap();
        e.set_ron(r#"(id: "mine", extends: "kingofthehill", name: "Mine")"#).unwrap();
        assert!(e.file().extends.is_none());
        assert!(e.file().regions.as_ref().is_some_and(|r| r.contains_key("hill")), "the parent's rules are in the definition");
        assert!(e.problems().is_empty(), "{:?}", e.problems());
        assert!(e.set_ron(r#"(id: "mine", extends: "no-such")"#).is_err());
    }

    /// Every kind of edit is one step of undo, and redo makes it again.
    #[test]
    fn every_kind_of_edit_undoes_and_redoes() {
        let mut e = Editor::copy_of("crazyhouse").unwrap();
        let start = e.file().clone();
        let mut own = crate::modifiers::Profile { id: "own".into(), ..Default::default() };
        own.types.insert("R".into(), [("hp-bonus".to_string(), crate::modifiers::Value::Int(1))].into_iter().collect());
        let edits = vec![
            Edit::Name("N".into()),
            Edit::Description("D".into()),
            Edit::Board { files: 8, ranks: 9 },
            Edit::Board { files: 8, ranks: 8 },
            Edit::Piece(PieceSpec::plain('X', "xiphos", "W")),
            Edit::Betza { letter: 'X', betza: "F".into() },
            Edit::Letter { from: 'X', to: 'Y' },
            Edit::Place { file: 3, rank: 3, piece: Some("Y".into()), mirror: true },
            Edit::Pocket { letter: 'Y', on: true },
            Edit::RemovePiece('Y'),
            Edit::Start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq] w KQkq - 0 1".into()),
            Edit::Preset { id: "piece-hp".into(), on: true },
            Edit::PresetUse(PresetUse { id: "piece-hp".into(), params: Default::default(), scope: Some(Scope::Black), duration: Some(4) }),
            Edit::Switch { switch: crate::variants::switch("mandatory_capture").unwrap(), on: true },
            Edit::Castling(None),
            Edit::Promotion(Some(PromotionSpec {
                rank: 8,
                choices: "Q".into(),
                black_choices: None,
                optional_from: None,
                limits: Default::default(),
                region: None,
            })),
            Edit::PiecePromotion(Some(PiecePromotionSpec { zone: 8, mandatory: false })),
            Edit::Drops(None),
            Edit::Blast(Some(BlastSpec::default())),
            Edit::Shuffle(Some(ShuffleSpec::Shuffled(crate::rules::Shuffle::Chess960))),
            Edit::End(vec![EndSpec::Checkmate]),
            Edit::Region { name: "hill".into(), spec: Some(RegionSpec::Rect("d4".into(), "e5".into())) },
            Edit::PaintRegion { name: "hill".into(), squares: vec![(0, 0)], on: true },
            Edit::RenameRegion { from: "hill".into(), to: "mound".into() },
            Edit::RegionPerSide("mound".into()),
            Edit::BoardLook { intersections: true, river: Some(4) },
            Edit::DiagonalLines(Some("mound".into())),
            Edit::MaterialCount(Some(MaterialCountSpec { points: [('Q', 9.0)].into_iter().collect(), black_bonus: 1.5 })),
            Edit::Profile(Some(ProfileUse::Inline(own))),
        ];
        let mut states = vec![e.file().clone()];
        for edit in &edits {
            assert_eq!(e.apply(edit), Ok(true), "{edit:?}");
            states.push(e.file().clone());
        }
        for (i, want) in states.iter().rev().skip(1).enumerate() {
            assert!(e.undo(), "undo {i}");
            assert_eq!(e.file(), want, "after undoing {:?}", edits[edits.len() - 1 - i]);
        }
        assert_eq!(e.file(), &start);
        for want in states.iter().skip(1) {
            assert!(e.redo());
            assert_eq!(e.file(), want);
        }
        assert!(e.has_unsaved_changes());
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

    /// A piece gets its own pictures (an SVG for White, a PNG for Black); refused files say why;
    /// Save writes them beside the variant; the file reopens with them; a saved game carries
    /// them and resumes with them after the files are deleted.
    #[test]
    fn a_piece_gets_its_own_pictures_and_a_save_keeps_them() {
        use crate::variants::pictures::{self, tests::DISC, tests::tiny_png};
        let dir = std::env::temp_dir().join(format!("chimera-own-pictures-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (art, saved) = (dir.join("art"), dir.join("mine"));
        std::fs::create_dir_all(&art).unwrap();
        std::fs::create_dir_all(&saved).unwrap();
        std::fs::write(art.join("dragon.svg"), DISC).unwrap();
        std::fs::write(art.join("dragon black.png"), tiny_png(16, 16, |x, y| [(x * 16) as u8, (y * 16) as u8, 90, 255])).unwrap();
        std::fs::write(art.join("notes.svg"), "this is not a picture").unwrap();
        let far = r#"<svg xmlns="http://www.w3.org/2000/svg"><image href="../secret.png" width="9" height="9"/></svg>"#;
        std::fs::write(art.join("far.svg"), far).unwrap();
        std::fs::write(art.join("huge.png"), vec![0u8; pictures::MAX_FILE_BYTES as usize + 1]).unwrap();

        let mut e = Editor::copy_of("chess").unwrap();
        e.apply(&Edit::Name("Dragon chess".into())).unwrap();
        let before = e.file().clone();
        assert_eq!(e.import_picture('Q', Some(Side::White), &art.join("dragon.svg")), Ok(vec![]));
        assert_eq!(e.import_picture('Q', Some(Side::Black), &art.join("dragon black.png")), Ok(vec![]));
        for (file, why) in [
            ("notes.svg", "not a PNG or SVG picture"),
            ("far.svg", "refers to another file"),
            ("huge.png", "too large"),
            ("missing.png", "cannot be read"),
            ("dragon.svg", "no piece"),
        ] {
            let letter = if file == "dragon.svg" { 'Z' } else { 'Q' };
            let err = e.import_picture(letter, None, &art.join(file)).unwrap_err();
            assert!(err.contains(why), "{file}: {err}");
        }
        let queen = |e: &Editor| e.file().pieces.iter().flatten().find(|p| p.letter == 'Q').unwrap().clone();
        let keys = pictures::keys(&queen(&e), e.file());
        assert!(keys.iter().all(|k| k.is_some_and(|k| !k.recoloured)), "{keys:?}");
        let (problems, compiled) = e.check();
        assert!(problems.is_empty(), "{problems:?}");
        let v = compiled.unwrap();
        let q = v.registry.ids().find(|&k| v.registry.def(k).letter == 'Q').unwrap();
        assert_eq!(v.registry.def(q).pictures, keys);
        // One picture for both sides: Black's is White's recoloured.
        e.import_picture('N', None, &art.join("dragon.svg")).unwrap();
        let knight = e.file().pieces.iter().flatten().find(|p| p.letter == 'N').unwrap().clone();
        let [w, b] = pictures::keys(&knight, e.file());
        assert_eq!((w.unwrap().source, w.unwrap().recoloured, b.unwrap().recoloured), (b.unwrap().source, false, true));
        assert_eq!(e.file().pictures.as_ref().unwrap().len(), 2, "one copy of the SVG for both pieces");
        assert!(e.undo());
        assert!(e.file().pieces.iter().flatten().find(|p| p.letter == 'N').unwrap().picture.is_none());

        // Saved: the files beside the variant, the RON naming them and carrying none.
        let path = e.save_in(&saved).unwrap();
        assert_eq!(path, saved.join("dragon-chess.ron"));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("white: \"dragon-chess-images/dragon.svg\""), "{text}");
        assert!(text.contains("black: \"dragon-chess-images/dragon-black.png\""), "{text}");
        assert!(!text.contains("pictures"), "a variant file names its pictures, never carries them");
        assert_eq!(std::fs::read(saved.join("dragon-chess-images/dragon.svg")).unwrap(), DISC.as_bytes());
        assert!(!e.has_unsaved_changes());
        assert!(!e.ron().contains("pictures"));
        let reopened = Editor::open(&path).unwrap();
        assert_eq!(pictures::keys(&queen(&reopened), reopened.file()), keys);
        let loaded = crate::variants::load_path(&path).unwrap();
        assert_eq!(loaded.registry.def(q).pictures, keys);

        // A game saved carries them; with the files gone, it resumes with its pictures.
        let definition = crate::variants::resolve_path(&path).unwrap();
        let mut game = crate::presets::new_game(loaded, "startpos").unwrap();
        game.play_san("e4").unwrap();
        let input = crate::save::SaveInput {
            variant_id: &path.display().to_string(),
            definition: Some(&definition),
            presets: &[],
            start_fen: "startpos",
            seats: crate::save::Seats::default(),
            redo: &[],
            date: "2026.11.29",
            clock: None,
        };
        let save_text = crate::save::write_save(game.world_mut(), &input);
        assert!(save_text.contains(&format!("[ChimeraSave \"{}\"]", crate::save::FORMAT)));
        std::fs::remove_dir_all(saved.join("dragon-chess-images")).unwrap();
        let gone = crate::variants::pictures::problems(&crate::variants::resolve_path(&path).unwrap(), Some(&saved));
        assert_eq!(gone.len(), 2, "both files gone: {gone:?}");
        assert!(gone[0].message.contains("cannot be read"), "{gone:?}");
        let save = crate::save::read_save(&save_text).unwrap();
        let variant = crate::save::variant_of(&save).unwrap();
        assert_eq!(variant.registry.def(q).pictures, keys);
        let carried = pictures::carried(save.definition.as_ref().unwrap());
        assert_eq!(carried.len(), 2);
        for (key, data) in carried {
            assert_eq!(pictures::draw_carried(key, data).unwrap().size, pictures::SIZE);
        }
        crate::save::resume(&save).unwrap();

        // What a variant carries in all has a limit, said when an import would pass it.
        let mut big = Editor::copy_of("chess").unwrap();
        let mut refused = None;
        for (i, (letter, side)) in ['P', 'N', 'B', 'R', 'Q', 'K'].into_iter().flat_map(|l| [(l, Side::White), (l, Side::Black)]).enumerate()
        {
            let png = art.join(format!("big-{i}.png"));
            std::fs::write(&png, tiny_png(600, 400, |x, _| [i as u8, (x % 256) as u8, 7, 255])).unwrap();
            if let Err(e) = big.import_picture(letter, Some(side), &png) {
                refused = Some((i, e));
                break;
            }
        }
        let (i, why) = refused.expect("twelve pictures of 940 KiB pass the limit");
        assert_eq!(i, 8, "eight fit in 8 MiB");
        assert!(why.contains("8192 KiB is the most in all"), "{why}");

        // Removed, the pictures go with it; undo brings them back.
        assert!(e.clear_picture('Q', None));
        assert_eq!(e.file().pictures, None);
        assert!(e.undo());
        assert_eq!(pictures::keys(&queen(&e), e.file()), keys);
        assert_ne!(e.file(), &before);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
