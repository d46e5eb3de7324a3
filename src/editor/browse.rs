//! The in-game file browser's model ("Open file…", "Save as…"): a folder's sub-folders and
//! variant files, and the path a typed name means. No native dialog: those need desktop
//! services that many machines lack.

use std::path::{Path, PathBuf};

/// One line of a folder's listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The file or folder name.
    pub name: String,
    /// A folder.
    pub is_dir: bool,
}

/// The folder's sub-folders (hidden ones left out), then its files ending in one of
/// `extensions`, each group sorted by name.
///
/// # Errors
/// The folder cannot be read.
pub fn listing(dir: &Path, extensions: &[&str]) -> Result<Vec<Entry>, String> {
    let read = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut out: Vec<Entry> = read
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            if name.starts_with('.') {
                return None;
            }
            let is_dir = e.path().is_dir();
            let wanted = is_dir || Path::new(&name).extension().and_then(|x| x.to_str()).is_some_and(|x| extensions.contains(&x));
            wanted.then_some(Entry { name, is_dir })
        })
        .collect();
    out.sort_by(|a, b| b.is_dir.cmp(&a.is_dir).then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase())));
    Ok(out)
}

/// The file a name typed in the browser means: a path of its own when absolute, otherwise in
/// `dir`; `.ron` added when it has no extension.
pub fn typed_path(dir: &Path, typed: &str) -> Option<PathBuf> {
    let typed = typed.trim();
    if typed.is_empty() {
        return None;
    }
    let mut path = if Path::new(typed).is_absolute() { PathBuf::from(typed) } else { dir.join(typed) };
    if path.extension().is_none() {
        path.set_extension("ron");
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_first_then_variant_files() {
        let dir = std::env::temp_dir().join(format!("chimera-browse-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for d in ["b-folder", "A-folder", ".hidden"] {
            std::fs::create_dir_all(dir.join(d)).unwrap();
        }
        for f in ["z.ron", "a.ron", "notes.txt", "x.ini"] {
            std::fs::write(dir.join(f), "").unwrap();
        }
        let names = |ext: &[&str]| listing(&dir, ext).unwrap().into_iter().map(|e| e.name).collect::<Vec<_>>();
        assert_eq!(names(&["ron"]), ["A-folder", "b-folder", "a.ron", "z.ron"]);
        assert_eq!(names(&["ron", "ini"]), ["A-folder", "b-folder", "a.ron", "x.ini", "z.ron"]);
        assert!(listing(&dir.join("none"), &["ron"]).is_err());
        assert_eq!(typed_path(&dir, " mine "), Some(dir.join("mine.ron")));
        assert_eq!(typed_path(&dir, "/tmp/x.ron"), Some(PathBuf::from("/tmp/x.ron")));
        assert_eq!(typed_path(&dir, ""), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
