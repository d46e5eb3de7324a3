//! Loading a variant: RON text → [`VariantFile`] → resolved (`extends` merged) → validated
//! and compiled into the engine's [`Variant`]. Every problem in a file is reported at once.

use std::path::Path;

use crate::rules::Variant;

use super::compile::compile;
use super::format::VariantFile;
use super::problem::{LoadError, Problem, ProblemCode};

/// Parses the RON text of a variant file.
///
/// # Errors
/// [`LoadError::Syntax`] with line and column.
pub fn parse_variant_file(text: &str) -> Result<VariantFile, LoadError> {
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    options.from_str::<VariantFile>(text).map_err(|e| LoadError::Syntax {
        line: e.span.start.line,
        column: e.span.start.col,
        message: e.code.to_string(),
    })
}

/// Writes a variant file as RON.
///
/// # Errors
/// The serializer's error (not expected for these plain types).
pub fn write_variant_file(file: &VariantFile) -> Result<String, ron::Error> {
    let pretty = ron::ser::PrettyConfig::new().struct_names(false).extensions(ron::extensions::Extensions::IMPLICIT_SOME);
    ron::ser::to_string_pretty(file, pretty)
}

/// Merges `child` over its resolved `parent`: the child's fields win; pieces merge by letter.
fn merge(mut parent: VariantFile, mut child: VariantFile) -> VariantFile {
    let mut pieces = parent.pieces.take().unwrap_or_default();
    if let Some(remove) = &child.remove_pieces {
        pieces.retain(|p| !remove.contains(p.letter));
    }
    for p in child.pieces.take().unwrap_or_default() {
        match pieces.iter_mut().find(|q| q.letter == p.letter) {
            Some(q) => *q = p,
            None => pieces.push(p),
        }
    }
    child.pieces = Some(pieces);
    // The pictures of both: the child's win where a path is in both.
    match (&mut child.pictures, parent.pictures.take()) {
        (Some(mine), Some(theirs)) => {
            for (path, data) in theirs {
                mine.entry(path).or_insert(data);
            }
        }
        (None, theirs) => child.pictures = theirs,
        (Some(_), None) => {}
    }
    child.inherit(parent);
    child.extends = None;
    child.remove_pieces = None;
    child
}

/// The most variants an `extends` chain may hold above a file.
pub const MAX_EXTENDS_DEPTH: usize = 32;

/// Resolves `extends` chains with `lookup` (id → parsed file), so that every field is the
/// variant's own or inherited.
///
/// # Errors
/// An unknown parent or a cycle, as a problem at `extends`.
pub fn resolve(file: VariantFile, lookup: &dyn Fn(&str) -> Option<VariantFile>) -> Result<VariantFile, LoadError> {
    let mut seen = vec![file.id.clone()];
    let mut chain = vec![file];
    while let Some(parent_id) = chain.last().and_then(|f| f.extends.clone()) {
        // An id, never a path: a file may extend a built-in or a file beside it, nothing else.
        let is_id = !parent_id.is_empty() && parent_id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !is_id {
            let message =
                format!("'{parent_id}' is not a variant id; extends names a built-in variant or a file beside this one by its id");
            return Err(LoadError::Invalid(vec![Problem::new(ProblemCode::ExtendsId, "extends", message)]));
        }
        if seen.contains(&parent_id) {
            let message = format!("'{parent_id}' leads back to itself: {} → {parent_id}", seen.join(" → "));
            return Err(LoadError::Invalid(vec![Problem::new(ProblemCode::ExtendsCycle, "extends", message)]));
        }
        if seen.len() > MAX_EXTENDS_DEPTH {
            let message = format!("more than {MAX_EXTENDS_DEPTH} variants in the extends chain: {} → …", seen.join(" → "));
            return Err(LoadError::Invalid(vec![Problem::new(ProblemCode::ExtendsDepth, "extends", message)]));
        }
        seen.push(parent_id.clone());
        match lookup(&parent_id) {
            Some(parent) => chain.push(parent),
            None => {
                let message = format!("no variant '{parent_id}' to extend; built-in ids are listed by `chimera list variants`");
                return Err(LoadError::Invalid(vec![Problem::new(ProblemCode::UnknownParent, "extends", message)]));
            }
        }
    }
    let mut resolved = chain.pop().expect("the chain holds the file itself");
    resolved.extends = None;
    while let Some(child) = chain.pop() {
        resolved = merge(resolved, child);
    }
    if resolved.pieces.is_none() {
        resolved.pieces = Some(Vec::new());
    }
    Ok(resolved)
}

/// Reads the variant file at `path`, with the pictures its pieces name read from beside it.
fn read_path(path: &Path) -> Result<VariantFile, LoadError> {
    let text = crate::rules::read_text(path).map_err(|e| LoadError::Io(format!("{}: {e}", path.display())))?;
    let mut file = parse_variant_file(&text)?;
    // A file on disk names its pictures; what it would carry is not taken from it.
    file.pictures = None;
    super::pictures::embed_beside(&mut file, path.parent().unwrap_or(Path::new("")));
    Ok(file)
}

/// Parents of the file at `path`: a file beside it first, then a built-in variant.
/// Looks a parent variant up by id: a file of that id beside `path`, else a built-in.
pub fn sibling_lookup(path: &Path) -> impl Fn(&str) -> Option<VariantFile> {
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    move |id: &str| -> Option<VariantFile> {
        let sibling = dir.join(format!("{id}.ron"));
        read_path(&sibling).ok().or_else(|| super::builtin_file(id))
    }
}

/// The file at `path` made self-contained: its `extends` chain resolved (parents beside it,
/// then built-ins), so that it reads the same on a machine without its parents.
///
/// # Errors
/// Unreadable file, bad RON, or a parent that is missing or loops.
pub fn resolve_path(path: &Path) -> Result<VariantFile, LoadError> {
    resolve(read_path(path)?, &sibling_lookup(path))
}

/// Starts `variant` as a game does, from its start with its presets and profile on, so that
/// a file `check` passes is one that `perft` and the window accept. For the checks that need
/// the verdict (`chimera check`, the editor's problems, the ini import, the list of the user's
/// variants); a game is started by [`GameDefinition`](crate::presets::GameDefinition), which
/// reports a bad start itself.
///
/// # Errors
/// A start position the game refuses.
pub fn playable(variant: &Variant) -> Result<crate::rules::Engine, LoadError> {
    crate::presets::new_game(variant.clone(), "startpos")
        .map_err(|e| LoadError::Invalid(vec![Problem::new(ProblemCode::StartFen, "start", format!("bad position: {e}"))]))
}

/// Loads a variant file from disk: its parents are looked up beside it first, then among
/// the built-in variants. The id must equal the file stem. Its start is judged when a game
/// starts, or by [`playable`].
///
/// # Errors
/// Unreadable file, bad RON, or an invalid variant.
pub fn load_path(path: &Path) -> Result<Variant, LoadError> {
    let file = read_path(path)?;
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let mut id_problem = None;
    if file.id != stem {
        let message = format!("'{}' differs from the file name '{stem}'; they must match", file.id);
        id_problem = Some(Problem::new(ProblemCode::IdFileName, "id", message));
    }
    let resolved = resolve(file, &sibling_lookup(path))?;
    match (compile(&resolved), id_problem) {
        (Ok(v), None) => Ok(v),
        (Ok(_), Some(p)) => Err(LoadError::Invalid(vec![p])),
        (Err(LoadError::Invalid(mut ps)), Some(p)) => {
            ps.insert(0, p);
            Err(LoadError::Invalid(ps))
        }
        (Err(e), _) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::super::pictures::tests::DISC;
    use super::super::pictures::{carried, from_base64, key_of, problems};
    use super::*;
    use crate::rules::PictureKey;

    /// Pictures beside variant files: read when named and pictures (not a text file named as
    /// one, nor a map written into the file), inherited by a file extending one beside it,
    /// each side drawn from the right file, and what is wrong said with its reason.
    #[test]
    fn pictures_beside_variant_files() {
        let dir = std::env::temp_dir().join(format!("chimera-beside-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("art")).unwrap();
        std::fs::write(dir.join("art/b.svg"), DISC).unwrap();
        std::fs::write(dir.join("art/notes.png"), "my private notes").unwrap();
        let parent = r#"(
            id: "parent", extends: "chess",
            pieces: [(letter: 'Q', name: "queen", betza: "Q", picture: (black: "art/b.svg")),
                     (letter: 'N', name: "knight", betza: "N", picture: (white: "art/notes.png"))],
            pictures: {"art/b.svg": "bm90IGEgcGljdHVyZQ=="},
        )"#;
        std::fs::write(dir.join("parent.ron"), parent).unwrap();
        std::fs::write(dir.join("child.ron"), r#"(id: "child", extends: "parent", name: "Child")"#).unwrap();
        for id in ["parent", "child"] {
            let path = dir.join(format!("{id}.ron"));
            let file = resolve_path(&path).unwrap();
            let carried = file.pictures.clone().unwrap();
            assert_eq!(carried.keys().collect::<Vec<_>>(), ["art/b.svg"], "{id}: the text file is not carried");
            assert_eq!(from_base64(&carried["art/b.svg"]).unwrap(), DISC.as_bytes(), "{id}: the file's map is not taken");
            let v = load_path(&path).unwrap();
            let q = v.registry.ids().map(|k| v.registry.def(k)).find(|d| d.letter == 'Q').unwrap();
            let own = key_of(&carried["art/b.svg"], false);
            assert_eq!(q.pictures, [Some(PictureKey { recoloured: true, ..own }), Some(own)], "{id}");
            // The carried pictures are the ones the keys name: White's is Black's recoloured.
            let mut drawn: Vec<PictureKey> = carried_for(&file);
            drawn.sort_by_key(|k| k.recoloured);
            assert_eq!(drawn, [own, PictureKey { recoloured: true, ..own }]);
            let warned = problems(&file, Some(&dir));
            assert_eq!(warned.len(), 1, "{warned:?}");
            assert!(warned[0].message.contains("'art/notes.png' is not a PNG or SVG picture"), "{warned:?}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn carried_for(file: &VariantFile) -> Vec<PictureKey> {
        carried(file).into_iter().map(|(k, _)| k).collect()
    }
}
