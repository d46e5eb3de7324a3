//! Reading the text of a Fairy-Stockfish `variants.ini`: sections (`[name]` or
//! `[name:parent]`), each a list of `key = value` lines. Lines starting with `#` or `;` are
//! comments; blank lines are skipped. Every entry keeps its line, so that a key Chimera cannot
//! express can be reported where it is written.

/// One `key = value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The key, as written (keys are case-sensitive).
    pub key: String,
    /// The value, trimmed.
    pub value: String,
    /// 1-based line number in the file.
    pub line: usize,
}

/// One section: a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The variant's name.
    pub name: String,
    /// The variant it inherits from (a section before it, or one of Fairy-Stockfish's
    /// built-ins).
    pub parent: Option<String>,
    /// 1-based line of the section's header.
    pub line: usize,
    /// Its entries, in order; a key given twice keeps the last value.
    pub entries: Vec<Entry>,
}

impl Section {
    /// The value of `key`, the last one given.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().rev().find(|e| e.key == key)
    }
}

/// A line that does not read: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IniError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for IniError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// The sections of an ini text, in order. Lines before the first section must be comments or
/// blank.
///
/// # Errors
/// Every line that is neither a section header, an entry, a comment nor blank.
pub fn parse(text: &str) -> Result<Vec<Section>, Vec<IniError>> {
    let mut sections: Vec<Section> = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let s = raw.trim();
        if s.is_empty() || s.starts_with('#') || s.starts_with(';') {
            continue;
        }
        if let Some(header) = s.strip_prefix('[') {
            let Some(inner) = header.strip_suffix(']') else {
                errors.push(IniError { line, message: format!("a section header must end with ']': '{s}'") });
                continue;
            };
            let (name, parent) = match inner.split_once(':') {
                Some((n, p)) => (n.trim(), Some(p.trim().to_string())),
                None => (inner.trim(), None),
            };
            if name.is_empty() || parent.as_deref().is_some_and(str::is_empty) {
                errors.push(IniError { line, message: format!("a section needs a name (and a parent after ':'): '{s}'") });
                continue;
            }
            sections.push(Section { name: name.to_string(), parent, line, entries: Vec::new() });
            continue;
        }
        let Some((key, value)) = s.split_once('=') else {
            errors.push(IniError { line, message: format!("expected 'key = value', a section header or a comment: '{s}'") });
            continue;
        };
        let Some(section) = sections.last_mut() else {
            errors.push(IniError { line, message: format!("an entry before the first section: '{s}'") });
            continue;
        };
        let key = key.trim();
        if key.is_empty() {
            errors.push(IniError { line, message: format!("an entry needs a key: '{s}'") });
            continue;
        }
        section.entries.push(Entry { key: key.to_string(), value: value.trim().to_string(), line });
    }
    if errors.is_empty() { Ok(sections) } else { Err(errors) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_entries_and_comments() {
        let text = "# a comment\n\n[one]\nmaxRank = 6\n; another\n[two:one]\n  maxFile=5  \nmaxFile = 7\n";
        let s = parse(text).expect("reads");
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].name.as_str(), s[0].parent.as_deref(), s[0].line), ("one", None, 3));
        assert_eq!(s[0].entries, vec![Entry { key: "maxRank".into(), value: "6".into(), line: 4 }]);
        assert_eq!((s[1].name.as_str(), s[1].parent.as_deref()), ("two", Some("one")));
        assert_eq!(s[1].get("maxFile").map(|e| (e.value.as_str(), e.line)), Some(("7", 8)));
    }

    #[test]
    fn bad_lines_are_reported_with_their_number() {
        let errors = parse("key = 1\n[ok]\nnonsense\n[broken\n[:x]\n").expect_err("refused");
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![1, 3, 4, 5]);
    }
}
