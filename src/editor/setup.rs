//! The position set-up board's model: a position of a game (a variant with its presets and
//! profile) being edited piece by piece, testable without the window.
//!
//! The position is held as its FEN's parts: the placement and the pockets (a
//! [`StartGrid`], whose tokens are FEN tokens), the side to move, castling rights, en-passant
//! square and counters (the fields after the placement, as written, so a variant's own fields —
//! three-check's counts — stay editable as text), and the trailing field's sections. A trailing
//! section of the form `Name=square:value,…` is a *piece fact* (hit points: `Hp=e1:2`); its
//! values follow the pieces: removing a piece drops its facts, and a piece placed on an empty
//! square gets, when the position is written, the value the game's presets give it at a start
//! (found by setting the position up without the fact and reading it back). Other sections
//! (a preset's state, `moves=1`) are kept as they are.
//!
//! [`SetupBoard::check`] validates the position as a game starts it: the FEN reader's code and
//! field first (`[castling] castling rights (field 3): …`), then what the presets refuse.
//!
//! Layer: uses `rules` and `presets`.

use std::collections::BTreeMap;

use super::start::StartGrid;
use crate::presets::{GameDefinition, Start};
use crate::rules::{Engine, Side, parse_fen, split_trailing};

/// A position being set up.
pub struct SetupBoard {
    definition: GameDefinition,
    grid: StartGrid,
    /// The fields after the placement: side to move, castling, en passant, the counters, and
    /// any a variant adds.
    fields: Vec<String>,
    /// Piece facts: fact name → square name → value, as set (or read).
    facts: Facts,
    /// Trailing sections that are not piece facts, kept as written.
    other: Vec<String>,
    /// The facts a start gives the pieces, for the placement written without them (setting a
    /// game up to find them costs more than a frame should spend each time).
    start_facts: std::sync::Mutex<Option<(String, Facts)>>,
}

/// Piece facts: fact name → square name → value.
type Facts = BTreeMap<String, BTreeMap<String, i32>>;

impl SetupBoard {
    /// The position `fen` (or `startpos`) of the game `definition` starts, ready to edit.
    ///
    /// # Errors
    /// A placement that does not fit the board.
    pub fn new(definition: GameDefinition, fen: &str) -> Result<SetupBoard, String> {
        let g = definition.variant.geometry;
        let fen = if fen.trim() == "startpos" { definition.variant.start_fen.clone() } else { fen.to_string() };
        let (standard, trailing) = split_trailing(&fen);
        let (placement, rest) = standard.trim().split_once(' ').unwrap_or((standard.trim(), "w - - 0 1"));
        let grid = StartGrid::parse(placement, g.files, g.ranks)?;
        let fields: Vec<String> = rest.split_whitespace().map(str::to_string).collect();
        let mut board = SetupBoard { definition, grid, fields, facts: BTreeMap::new(), other: Vec::new(), start_facts: Default::default() };
        for section in trailing.unwrap_or("").split(';').filter(|s| !s.trim().is_empty()) {
            match board.piece_fact(section) {
                Some((name, values)) => {
                    board.facts.insert(name, values);
                }
                None => board.other.push(section.to_string()),
            }
        }
        Ok(board)
    }

    /// A trailing section read as a piece fact, when it is one: every entry a square of the
    /// board and a whole number.
    fn piece_fact(&self, section: &str) -> Option<(String, BTreeMap<String, i32>)> {
        let (name, body) = section.split_once('=')?;
        let g = self.definition.variant.geometry;
        let mut values = BTreeMap::new();
        for entry in body.split(',').filter(|e| !e.is_empty()) {
            let (sq, v) = entry.split_once(':')?;
            g.parse_square(sq)?;
            values.insert(sq.to_string(), v.parse().ok()?);
        }
        (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')).then(|| (name.to_string(), values))
    }

    /// The game the position is for.
    pub fn definition(&self) -> &GameDefinition {
        &self.definition
    }

    /// The board's files and ranks.
    pub fn size(&self) -> (u8, u8) {
        let g = self.definition.variant.geometry;
        (g.files, g.ranks)
    }

    /// The square's name (`e4`) from file and rank counted from 0.
    pub fn square_name(&self, file: u8, rank: u8) -> String {
        let g = self.definition.variant.geometry;
        g.square(i32::from(file), i32::from(rank)).map_or_else(String::new, |sq| g.name(sq))
    }

    /// The piece on a square, as its FEN token.
    pub fn at(&self, file: u8, rank: u8) -> Option<&str> {
        self.grid.at(file, rank)
    }

    /// Puts a piece (a FEN token) on a square, or clears it (`None`); the square's facts go
    /// with the piece that was there.
    pub fn set(&mut self, file: u8, rank: u8, piece: Option<&str>) {
        if self.grid.at(file, rank) == Some("*") {
            return;
        }
        let name = self.square_name(file, rank);
        for values in self.facts.values_mut() {
            values.remove(&name);
        }
        self.grid.set(file, rank, piece, false);
    }

    /// Empties the board and the pockets (walls stay).
    pub fn clear(&mut self) {
        self.grid.clear();
        if self.grid.pockets().is_some() {
            self.grid.set_pockets(Some(""));
        }
        for values in self.facts.values_mut() {
            values.clear();
        }
    }

    /// The pieces in hand: each letter (upper case white's) with its count, by side then letter.
    pub fn pocket(&self) -> Vec<(char, usize)> {
        let mut counts: BTreeMap<(bool, char), usize> = BTreeMap::new();
        for c in self.grid.pocket_pieces() {
            *counts.entry((c.is_ascii_lowercase(), c)).or_default() += 1;
        }
        counts.into_iter().map(|((_, c), n)| (c, n)).collect()
    }

    /// How many pieces of `letter` (upper case white's) are in hand.
    pub fn in_hand(&self, letter: char) -> usize {
        self.grid.pocket_pieces().iter().filter(|&&c| c == letter).count()
    }

    /// Sets how many pieces of `letter` are in hand.
    pub fn set_in_hand(&mut self, letter: char, count: usize) {
        while self.in_hand(letter) > count {
            self.grid.take_from_pocket(letter);
        }
        while self.in_hand(letter) < count {
            self.grid.add_to_pocket(letter);
        }
    }

    /// Whether the game has hands (pieces in hand and drops).
    pub fn has_hands(&self) -> bool {
        self.grid.pockets().is_some() || self.definition.variant.drops.is_some()
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        if self.fields.first().is_some_and(|f| f == "b") { Side::Black } else { Side::White }
    }

    /// Sets the side to move.
    pub fn set_turn(&mut self, side: Side) {
        self.field_mut(0).replace_range(.., if side == Side::White { "w" } else { "b" });
    }

    /// A field after the placement (0: side to move, 1: castling, 2: en passant, 3: half-move
    /// clock, 4: move number), `-` when the FEN did not have it.
    pub fn field(&self, i: usize) -> &str {
        self.fields.get(i).map_or("-", String::as_str)
    }

    /// Sets a field after the placement (an empty text is written `-`).
    pub fn set_field(&mut self, i: usize, text: &str) {
        let text = text.trim();
        let value = if text.is_empty() { "-" } else { text };
        self.field_mut(i).replace_range(.., value);
    }

    fn field_mut(&mut self, i: usize) -> &mut String {
        let defaults = ["w", "-", "-", "0", "1"];
        while self.fields.len() <= i {
            let n = self.fields.len();
            self.fields.push(defaults.get(n).unwrap_or(&"-").to_string());
        }
        &mut self.fields[i]
    }

    /// The fields after the fifth, as text (a variant's own: check counts).
    pub fn extra_fields(&self) -> String {
        self.fields.iter().skip(5).cloned().collect::<Vec<_>>().join(" ")
    }

    /// Sets the fields after the fifth.
    pub fn set_extra_fields(&mut self, text: &str) {
        self.field_mut(4);
        self.fields.truncate(5);
        self.fields.extend(text.split_whitespace().map(str::to_string));
    }

    /// The piece facts the position's pieces carry (`Hp`), by name; with the values a start
    /// gives its pieces, so a game whose presets give facts lists them even before one is set.
    pub fn fact_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.facts.keys().cloned().collect();
        for name in self.start_facts().into_keys() {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        names
    }

    /// The value of fact `name` of the piece on a square: as set, else as a start gives it.
    pub fn fact(&self, name: &str, file: u8, rank: u8) -> Option<i32> {
        let sq = self.square_name(file, rank);
        self.facts.get(name).and_then(|v| v.get(&sq)).copied().or_else(|| self.start_facts().get(name)?.get(&sq).copied())
    }

    /// Sets fact `name` of the piece on a square.
    pub fn set_fact(&mut self, name: &str, file: u8, rank: u8, value: i32) {
        if self.grid.at(file, rank).is_none() {
            return;
        }
        let sq = self.square_name(file, rank);
        self.facts.entry(name.to_string()).or_default().insert(sq, value);
    }

    /// The facts the game's presets give the pieces of this placement at a start: the position
    /// set up without its piece facts, read back.
    fn start_facts(&self) -> Facts {
        let bare = self.write(false);
        let mut cache = self.start_facts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((fen, facts)) = cache.as_ref()
            && *fen == bare
        {
            return facts.clone();
        }
        let mut out = BTreeMap::new();
        if let Ok(mut engine) = self.definition.start(Start::Given(&bare)) {
            let fen = engine.fen();
            for section in split_trailing(&fen).1.unwrap_or("").split(';') {
                if let Some((name, values)) = self.piece_fact(section) {
                    out.insert(name, values);
                }
            }
        }
        *cache = Some((bare, out.clone()));
        out
    }

    /// Every piece's facts: as set, else as a start gives them (fact name → square name →
    /// value; squares named as [`SetupBoard::square_name`] names them).
    pub fn piece_facts(&self) -> Facts {
        let mut facts = self.start_facts();
        for (name, values) in &self.facts {
            facts.entry(name.clone()).or_default().extend(values.iter().map(|(k, v)| (k.clone(), *v)));
        }
        facts
    }

    /// The position as FEN, with the facts of every piece: those set, and for the others the
    /// values a start gives them.
    pub fn fen(&self) -> String {
        let facts = self.piece_facts();
        // Only squares that hold a piece keep a fact.
        let (files, ranks) = self.size();
        let occupied: Vec<String> = (0..ranks)
            .flat_map(|r| (0..files).map(move |f| (f, r)))
            .filter(|&(f, r)| self.grid.at(f, r).is_some_and(|t| t != "*"))
            .map(|(f, r)| self.square_name(f, r))
            .collect();
        let mut sections: Vec<String> = facts
            .iter()
            .filter_map(|(name, values)| {
                let entries: Vec<String> = occupied.iter().filter_map(|sq| values.get(sq).map(|v| format!("{sq}:{v}"))).collect();
                (!entries.is_empty()).then(|| format!("{name}={}", entries.join(",")))
            })
            .collect();
        sections.extend(self.other.iter().cloned());
        let base = self.write(false);
        if sections.is_empty() { base } else { format!("{base} {{{}}}", sections.join(";")) }
    }

    /// The placement, pockets and fields, with the other trailing sections when `other`.
    fn write(&self, other: bool) -> String {
        let placement = self.grid.fen();
        let placement = placement.split_once(' ').map_or(placement.as_str(), |p| p.0);
        let mut fen = format!("{placement} {}", self.fields.join(" "));
        if other && !self.other.is_empty() {
            fen.push_str(&format!(" {{{}}}", self.other.join(";")));
        }
        fen.trim_end().to_string()
    }

    /// Reads a whole FEN typed or pasted in place of the position.
    ///
    /// # Errors
    /// A placement that does not fit the board: nothing changes.
    pub fn set_fen(&mut self, fen: &str) -> Result<(), String> {
        *self = SetupBoard::new(self.definition.clone(), fen)?;
        Ok(())
    }

    /// The position checked as a game would start from it: the game, or the problem with the
    /// FEN reader's code (`[castling] castling rights (field 3): …`) or the presets' refusal.
    ///
    /// # Errors
    /// The position cannot start a game.
    pub fn check(&self) -> Result<Engine, String> {
        let fen = self.fen();
        let (standard, _) = split_trailing(&fen);
        let coded = |e: crate::rules::FenError| format!("[{}] {}: {}", e.code.as_str(), e.field, e.message);
        parse_fen(&self.definition.variant, standard).map_err(coded)?;
        self.definition.start(Start::Given(&fen)).map_err(|refused| {
            // The same problem as the rules alone find it, with its code, when it is one.
            match Engine::from_fen_shared(self.definition.variant.clone(), standard) {
                Err(e) if refused.contains(&e.message) => coded(e),
                _ => refused,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(variant: &str, presets: &[&str], fen: &str) -> SetupBoard {
        let v = crate::variants::builtin(variant).unwrap();
        let ids: Vec<String> = presets.iter().map(|s| s.to_string()).collect();
        let definition = GameDefinition::new(v).unwrap().with_preset_ids(&ids).unwrap();
        SetupBoard::new(definition, fen).unwrap()
    }

    #[test]
    fn pieces_side_and_rights_make_a_position_the_rules_check() {
        let mut b = board("chess", &[], "8/8/8/8/8/8/8/8 w - - 0 1");
        assert!(b.check().unwrap_err().starts_with("[E_FEN_ROYAL_COUNT]"), "{}", b.check().unwrap_err());
        b.set(4, 0, Some("K"));
        b.set(4, 7, Some("k"));
        b.set(7, 0, Some("R"));
        b.set(0, 6, Some("P"));
        b.set_field(1, "K");
        assert_eq!(b.fen(), "4k3/P7/8/8/8/8/8/4K2R w K - 0 1");
        let mut game = b.check().unwrap();
        assert!(game.legal_moves().iter().any(|m| matches!(m.kind, crate::rules::MoveKind::Castle { .. })));
        // Castling with a rook that is not there, then Black to move in check: refused, coded.
        b.set_field(1, "KQ");
        let e = b.check().unwrap_err();
        assert!(e.starts_with("[E_FEN_CASTLING]") && e.contains("castling rights (field 3)"), "{e}");
        b.set_field(1, "-");
        b.set(4, 6, Some("R"));
        b.set_turn(Side::White);
        assert!(b.check().is_err(), "black in check with White to move");
        b.set_turn(Side::Black);
        assert!(b.check().is_ok());
        assert_eq!(b.turn(), Side::Black);
    }

    #[test]
    fn pockets_fill_and_empty() {
        let mut b = board("crazyhouse", &[], "4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
        assert_eq!(b.pocket(), vec![]);
        assert!(b.has_hands());
        b.set_in_hand('Q', 1);
        b.set_in_hand('p', 3);
        assert_eq!(b.pocket(), vec![('Q', 1), ('p', 3)]);
        assert_eq!(b.fen(), "4k3/8/8/8/8/8/8/4K3[Qppp] w - - 0 1");
        let mut game = b.check().unwrap();
        assert!(game.legal_moves().iter().any(|m| game.to_uci(m) == "Q@d5"));
        b.set_in_hand('p', 0);
        assert_eq!(b.in_hand('p'), 0);
        assert!(!board("chess", &[], "4k3/8/8/8/8/8/8/4K3 w - - 0 1").has_hands());
    }

    /// Hit points: a placed piece gets a start's value; a set value is written and played;
    /// a removed piece takes its value with it.
    #[test]
    fn piece_facts_follow_the_pieces() {
        let mut b = board("chess", &["piece-hp"], "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        assert_eq!(b.fact_names(), vec!["Hp".to_string()]);
        assert_eq!(b.fact("Hp", 4, 1), Some(2), "a start's value");
        b.set_fact("Hp", 4, 1, 5);
        b.set(3, 3, Some("n"));
        assert_eq!(b.fact("Hp", 3, 3), Some(2));
        assert_eq!(b.fen(), "4k3/8/8/8/3n4/8/4P3/4K3 w - - 0 1 {Hp=e1:2,e2:5,d4:2,e8:2}");
        let mut game = b.check().unwrap();
        assert!(game.fen().contains("e2:5"), "{}", game.fen());
        b.set(4, 1, None);
        b.set(4, 1, Some("P"));
        assert_eq!(b.fact("Hp", 4, 1), Some(2), "the new pawn starts afresh");
        // A FEN read back keeps its facts and its other sections.
        let mut c = board("chess", &["piece-hp"], "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 {Hp=e1:1,e2:3,e8:4}");
        assert_eq!(c.fact("Hp", 4, 7), Some(4));
        c.set_fen("4k3/8/8/8/8/8/8/4K3 b - - 0 1").unwrap();
        assert_eq!(c.turn(), Side::Black);
        assert!(c.set_fen("9/8 w - - 0 1").is_err());
        assert_eq!(c.turn(), Side::Black, "a FEN that does not fit changes nothing");
    }
}
