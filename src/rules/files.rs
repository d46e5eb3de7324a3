//! Reading the text files the rules are given (variant files, Fairy-Stockfish ini files,
//! modifier profiles), with a size limit: a file is read whole, so an endless or huge one
//! (`/dev/zero`, a mistaken path) must stop with an error, not fill memory.

use std::io::Read;
use std::path::Path;

/// The largest text file read: far above any variant (the shared Fairy-Stockfish ini with its
/// 143 variants is under 100 KiB).
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// The text of the file at `path`, if it is at most [`MAX_FILE_BYTES`] long and UTF-8.
///
/// # Errors
/// The file cannot be read, is longer than the limit, or is not UTF-8.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let mut text = String::new();
    std::fs::File::open(path)?.take(MAX_FILE_BYTES + 1).read_to_string(&mut text)?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!("longer than the {} MiB a file may be", MAX_FILE_BYTES >> 20),
        ));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_over_the_limit_is_refused_and_one_under_it_read() {
        let dir = std::env::temp_dir().join(format!("chimera-read-text-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.txt");
        std::fs::write(&path, vec![b'a'; MAX_FILE_BYTES as usize + 1]).unwrap();
        let e = read_text(&path).unwrap_err();
        assert!(e.to_string().contains("16 MiB"), "{e}");
        std::fs::write(&path, "small").unwrap();
        assert_eq!(read_text(&path).unwrap(), "small");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
