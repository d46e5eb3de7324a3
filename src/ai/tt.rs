//! The transposition table: one entry per slot, keyed by the full position hash (pieces,
//! hands, game-level facts, preset facts and state), replaced when the new entry is deeper or
//! the old one is from an earlier search.

use super::eval::Score;
use crate::rules::Move;

/// What a stored score says.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact score.
    Exact,
    /// At least this.
    Lower,
    /// At most this.
    Upper,
}

/// One stored result.
#[derive(Copy, Clone, Debug)]
pub struct Entry {
    /// The full hash.
    pub key: u64,
    /// The best move found, if any.
    pub mv: Option<Move>,
    /// The score (mate scores relative to this node).
    pub score: Score,
    /// The depth searched.
    pub depth: i32,
    /// What the score says.
    pub bound: Bound,
    age: u8,
}

/// A fixed-size table.
pub struct Tt {
    slots: Vec<Option<Entry>>,
    age: u8,
}

impl Tt {
    /// A table of about `megabytes` (at least 1024 slots, a power of two).
    pub fn new(megabytes: usize) -> Tt {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<Option<Entry>>()).max(1024).next_power_of_two() / 2;
        Tt { slots: vec![None; n.max(1024)], age: 0 }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
        self.age = 0;
    }

    /// Marks the start of a new search: older entries give way first.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    /// How full the table is, in thousandths, as UCI's `hashfull` says it: the share of the
    /// first thousand slots written by this search.
    pub fn hashfull(&self) -> u32 {
        let sample = &self.slots[..self.slots.len().min(1000)];
        let used = sample.iter().flatten().filter(|e| e.age == self.age).count();
        (used * 1000 / sample.len()) as u32
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[self.slot(key)].filter(|e| e.key == key)
    }

    /// Stores a result.
    pub fn store(&mut self, key: u64, mv: Option<Move>, score: Score, depth: i32, bound: Bound) {
        let i = self.slot(key);
        let age = self.age;
        let replace = match &self.slots[i] {
            None => true,
            Some(old) => old.age != age || old.key != key || depth >= old.depth || bound == Bound::Exact,
        };
        if replace {
            // Keep the old best move when the new result has none for the same position.
            let mv = mv.or_else(|| self.slots[i].filter(|e| e.key == key).and_then(|e| e.mv));
            self.slots[i] = Some(Entry { key, mv, score, depth, bound, age });
        }
    }
}
