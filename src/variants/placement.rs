//! The placement field of a FEN read as tokens, without knowing the pieces: each square empty,
//! a wall (`*`) or a piece's letter with its `+` and `~` marks. The editor's start grid and the
//! ini import's wall reading both use it; the rules' own FEN reader
//! ([`parse_fen`](crate::rules::parse_fen)) knows the variant's letters.

/// Reads the ranks of a placement (`rows`, from the last rank down, as a FEN writes them) on a
/// board `files` by `ranks`: every square's token, rank by rank from rank 1, file by file from
/// file a.
///
/// # Errors
/// A rank with too many or too few squares, an empty run, a character that is not a piece,
/// or another number of ranks than the board has, in words that name the rank.
pub fn read_rows(rows: &[&str], files: u8, ranks: u8) -> Result<Vec<Option<String>>, String> {
    if rows.len() != ranks as usize {
        return Err(format!("{} ranks; the board has {ranks}", rows.len()));
    }
    let mut cells = vec![None; files as usize * ranks as usize];
    for (i, row) in rows.iter().enumerate() {
        let rank = ranks as usize - 1 - i;
        let mut file = 0usize;
        let chars: Vec<char> = row.chars().collect();
        let mut at = 0;
        while at < chars.len() {
            let c = chars[at];
            if c.is_ascii_digit() {
                let start = at;
                while at < chars.len() && chars[at].is_ascii_digit() {
                    at += 1;
                }
                let n: usize =
                    chars[start..at].iter().collect::<String>().parse().map_err(|_| format!("rank {}: a bad count", rank + 1))?;
                if n == 0 {
                    return Err(format!("rank {}: an empty run of 0 squares", rank + 1));
                }
                file = file.saturating_add(n);
            } else if c == '*' {
                // A wall (the board's, or the duck): kept as its own token.
                if file >= files as usize {
                    return Err(format!("rank {} has more than {files} squares", rank + 1));
                }
                cells[rank * files as usize + file] = Some("*".into());
                file += 1;
                at += 1;
            } else {
                let mut token = String::new();
                if c == '+' {
                    token.push('+');
                    at += 1;
                }
                let letter = chars
                    .get(at)
                    .copied()
                    .filter(char::is_ascii_alphabetic)
                    .ok_or_else(|| format!("rank {}: '{c}' is not a piece", rank + 1))?;
                token.push(letter);
                at += 1;
                if chars.get(at) == Some(&'~') {
                    token.push('~');
                    at += 1;
                }
                if file >= files as usize {
                    return Err(format!("rank {} has more than {files} squares", rank + 1));
                }
                cells[rank * files as usize + file] = Some(token);
                file += 1;
            }
            if file > files as usize {
                return Err(format!("rank {} has more than {files} squares", rank + 1));
            }
        }
        if file != files as usize {
            return Err(format!("rank {} has {file} squares; the board has {files}", rank + 1));
        }
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::read_rows;

    #[test]
    fn tokens_walls_and_faults() {
        let cells = read_rows(&["+p~*", "2"], 2, 2).expect("reads");
        assert_eq!(cells, vec![None, None, Some("+p~".to_string()), Some("*".to_string())]);
        assert_eq!(read_rows(&["3", "2"], 2, 2), Err("rank 2 has more than 2 squares".into()));
        assert_eq!(read_rows(&["1", "2"], 2, 2), Err("rank 2 has 1 squares; the board has 2".into()));
        assert_eq!(read_rows(&["2"], 2, 2), Err("1 ranks; the board has 2".into()));
        assert_eq!(read_rows(&["0", "2"], 2, 2), Err("rank 2: an empty run of 0 squares".into()));
        assert_eq!(read_rows(&["p!", "2"], 2, 2), Err("rank 2: '!' is not a piece".into()));
    }
}
