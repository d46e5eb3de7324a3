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

use crate::variants::{LoadError, Problem, ProblemCode, VariantFile};

/// The most edits kept for undo.
pub const UNDO_DEPTH: usize = 500;

/// One variant definition being edited, with its undo history.
#[derive(Clone, Debug)]
pub struct Editor {
    file: VariantFile,
    undo: Vec<VariantFile>,
    redo: Vec<VariantFile>,
}

impl Editor {
    /// An editor on `file` (its `extends` should be resolved: see [`Editor::copy_of`]).
    pub fn new(file: VariantFile) -> Editor {
        Editor { file, undo: Vec::new(), redo: Vec::new() }
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

    /// Every problem of the definition as it stands, each with its key path (`pieces[2].betza`,
    /// `start`, `board.files`): what the loader and the game would refuse, and its warnings.
    pub fn problems(&self) -> Vec<Problem> {
        match crate::variants::compile_playable(&self.file) {
            Ok(_) => Vec::new(),
            Err(LoadError::Invalid(problems)) => problems,
            Err(other) => vec![Problem::new(ProblemCode::StartFen, "", other.to_string())],
        }
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
