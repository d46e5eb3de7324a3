//! The move painter: a piece's movement as painted squares around it, kept in step with Betza.
//!
//! Each painted square is a *step* (an atom's vector, seen from white: forward is up): a click
//! cycles what the piece does there — moves and captures, moves only, captures only, nothing —
//! and toggles on the step set how far it goes (one leap, a few steps, or riding to the edge),
//! whether it hops a screen (`p`, or `g` landing just beyond), is blocked on its path (lame,
//! `n`), may only be made from the piece's first ranks (`i`), or may capture en passant (`e`).
//! With symmetry on, an edit applies to the mirror images of the square too (left and right,
//! forward and backward, or all eight of a leap).
//!
//! The painter holds exactly a set of atoms, so it converts both ways without loss: painting
//! writes Betza ([`write_betza`]), and Betza typed redraws the painter. "In step" means the same
//! compiled moves ([`atom_set`]), not the same text. A step keeps the constraints Betza has:
//! hopping only on riders, lame only on leaps.

use std::collections::BTreeMap;

use crate::rules::{Atom, BetzaError, Hop, Mode, atom_set, parse_betza, write_betza};

/// The longest step Betza writes (`(15,15)`).
pub const MAX_STEP: i8 = 15;

fn within(dx: i8, dy: i8) -> bool {
    dx.abs() <= MAX_STEP && dy.abs() <= MAX_STEP
}

/// What a piece does on one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stroke {
    /// Moves, captures, or both.
    pub mode: Mode,
    /// 1: a single leap; 0: rides to the edge; n: up to n steps.
    pub range: u8,
    /// Hops a screen (riders only).
    pub hop: Hop,
    /// Blocked on its path (leaps only).
    pub lame: bool,
    /// Only from the piece's first ranks.
    pub initial: bool,
    /// May capture en passant.
    pub en_passant: bool,
}

impl Default for Stroke {
    fn default() -> Stroke {
        Stroke { mode: Mode::Both, range: 1, hop: Hop::None, lame: false, initial: false, en_passant: false }
    }
}

/// Which mirror images an edit also applies to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Symmetry {
    /// Left and right.
    pub sideways: bool,
    /// Forward and backward.
    pub forward_backward: bool,
    /// All eight images of the leap (with the steps' axes swapped): the leap's full star.
    pub all: bool,
}

impl Symmetry {
    /// The steps an edit of `(dx, dy)` reaches: the step and its images.
    pub fn images(self, dx: i8, dy: i8) -> Vec<(i8, i8)> {
        let mut out = vec![(dx, dy)];
        let mut add = |v: (i8, i8)| {
            if !out.contains(&v) {
                out.push(v);
            }
        };
        if self.all {
            for (x, y) in [(dx, dy), (dy, dx)] {
                for (sx, sy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                    add((x * sx, y * sy));
                }
            }
            return out;
        }
        if self.sideways {
            add((-dx, dy));
        }
        if self.forward_backward {
            add((dx, -dy));
        }
        if self.sideways && self.forward_backward {
            add((-dx, -dy));
        }
        out
    }
}

/// A toggle on a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Toggle {
    /// Rides to the edge, or back to a single leap.
    Ride,
    /// Hops a screen and lands anywhere beyond (`p`).
    Hop,
    /// Hops a screen and lands just beyond it (`g`).
    Grasshop,
    /// Blocked on its path (`n`).
    Lame,
    /// Only from the first ranks (`i`).
    Initial,
    /// Captures en passant (`e`).
    EnPassant,
}

/// The painted steps of one piece.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Painter {
    /// What each step does (several strokes on one step are several atoms, e.g. a move-only
    /// rider and a capturing leap the same way).
    steps: BTreeMap<(i8, i8), Vec<Stroke>>,
    /// The any-square move (`*`): its mode and whether it is initial-only.
    any_square: Option<(Mode, bool)>,
    /// Which images an edit also applies to.
    pub symmetry: Symmetry,
}

impl Painter {
    /// The painter showing `atoms`.
    pub fn from_atoms(atoms: &[Atom]) -> Painter {
        let mut p = Painter::default();
        for a in atom_set(atoms) {
            if a.any_square {
                p.any_square = Some((a.mode, a.initial));
                continue;
            }
            let stroke = Stroke { mode: a.mode, range: a.range, hop: a.hop, lame: a.lame, initial: a.initial, en_passant: a.en_passant };
            let list = p.steps.entry((a.dx, a.dy)).or_default();
            if !list.contains(&stroke) {
                list.push(stroke);
            }
        }
        p
    }

    /// The painter showing a Betza string.
    ///
    /// # Errors
    /// The text is not Betza (the error names the character).
    pub fn from_betza(text: &str) -> Result<Painter, BetzaError> {
        Ok(Painter::from_atoms(&parse_betza(text)?))
    }

    /// The atoms painted.
    pub fn atoms(&self) -> Vec<Atom> {
        let mut out = Vec::new();
        for (&(dx, dy), strokes) in &self.steps {
            for s in strokes {
                out.push(Atom {
                    dx,
                    dy,
                    range: s.range,
                    mode: s.mode,
                    lame: s.lame,
                    hop: s.hop,
                    initial: s.initial,
                    en_passant: s.en_passant,
                    any_square: false,
                });
            }
        }
        if let Some((mode, initial)) = self.any_square {
            out.push(Atom { initial, any_square: true, ..Atom::new(0, 0, 1, mode) });
        }
        atom_set(&out)
    }

    /// The painting as Betza.
    pub fn betza(&self) -> String {
        write_betza(&self.atoms())
    }

    /// Whether nothing is painted.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty() && self.any_square.is_none()
    }

    /// What the piece does on a step (its first stroke), if anything.
    pub fn at(&self, dx: i8, dy: i8) -> Option<Stroke> {
        self.steps.get(&(dx, dy)).and_then(|s| s.first().copied())
    }

    /// A click on a step: moves and captures → moves only → captures only → nothing → moves
    /// and captures (a new step is a single leap), on the step and its images.
    pub fn cycle(&mut self, dx: i8, dy: i8) {
        if (dx, dy) == (0, 0) || !within(dx, dy) {
            return;
        }
        let next = match self.at(dx, dy).map(|s| s.mode) {
            None => Some(Mode::Both),
            Some(Mode::Both) => Some(Mode::Move),
            Some(Mode::Move) => Some(Mode::Capture),
            Some(Mode::Capture) => None,
        };
        let template = self.at(dx, dy).unwrap_or_default();
        for v in self.symmetry.images(dx, dy) {
            match next {
                Some(mode) => {
                    let list = self.steps.entry(v).or_default();
                    let stroke = Stroke { mode, ..list.first().copied().unwrap_or(template) };
                    *list = vec![stroke];
                }
                None => {
                    self.steps.remove(&v);
                }
            }
        }
    }

    /// Sets the range of a painted step (and its images): 1 a leap, 0 riding, n steps. Lame
    /// steps become plain when they ride; hopping steps stop hopping when they become leaps.
    pub fn set_range(&mut self, dx: i8, dy: i8, range: u8) {
        self.edit(dx, dy, |s| {
            s.range = range.min(16);
            if s.range != 1 {
                s.lame = false;
            } else {
                s.hop = Hop::None;
            }
        });
    }

    /// Flips a toggle on a painted step (and its images), keeping what Betza can say: hopping
    /// makes a leap ride, lame makes a rider leap.
    pub fn toggle(&mut self, dx: i8, dy: i8, toggle: Toggle) {
        self.edit(dx, dy, |s| match toggle {
            Toggle::Ride => {
                s.range = if s.range == 1 { 0 } else { 1 };
                if s.range == 1 {
                    s.hop = Hop::None;
                } else {
                    s.lame = false;
                }
            }
            Toggle::Hop | Toggle::Grasshop => {
                let kind = if toggle == Toggle::Hop { Hop::Any } else { Hop::Adjacent };
                s.hop = if s.hop == kind { Hop::None } else { kind };
                if s.hop != Hop::None && s.range == 1 {
                    s.range = 0;
                    s.lame = false;
                }
            }
            Toggle::Lame => {
                s.lame = !s.lame;
                if s.lame {
                    s.range = 1;
                    s.hop = Hop::None;
                }
            }
            Toggle::Initial => s.initial = !s.initial,
            Toggle::EnPassant => s.en_passant = !s.en_passant,
        });
    }

    /// The any-square move (`*`): on with a mode, or off.
    pub fn set_any_square(&mut self, mode: Option<Mode>) {
        self.any_square = mode.map(|m| (m, false));
    }

    fn edit(&mut self, dx: i8, dy: i8, f: impl Fn(&mut Stroke)) {
        for v in self.symmetry.images(dx, dy) {
            if let Some(list) = self.steps.get_mut(&v) {
                for s in list.iter_mut() {
                    f(s);
                }
                list.dedup();
            }
        }
    }

    /// Adds one stroke on a step as it is (no images): how the painter reads several atoms on
    /// one step, and how a test paints a piece stroke by stroke.
    pub fn add(&mut self, dx: i8, dy: i8, stroke: Stroke) {
        if (dx, dy) == (0, 0) || !within(dx, dy) {
            return;
        }
        let list = self.steps.entry((dx, dy)).or_default();
        if !list.contains(&stroke) {
            list.push(stroke);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clicks_cycle_and_symmetry_paints_the_images() {
        let mut p = Painter { symmetry: Symmetry { all: true, ..Symmetry::default() }, ..Painter::default() };
        p.cycle(1, 2);
        assert_eq!(p.betza(), "N");
        p.symmetry = Symmetry::default();
        p.cycle(1, 2);
        // One knight step now moves only: the others still move and capture.
        assert_eq!(atom_set(&parse_betza(&p.betza()).unwrap()), p.atoms());
        assert_eq!(p.at(1, 2).map(|s| s.mode), Some(Mode::Move));
        p.cycle(1, 2);
        p.cycle(1, 2);
        assert_eq!(p.at(1, 2), None, "the fourth click clears it");
        assert_eq!(p.atoms().len(), 7);
    }

    #[test]
    fn riding_hopping_and_lame_stay_expressible() {
        let mut p = Painter { symmetry: Symmetry { sideways: true, forward_backward: true, all: false }, ..Painter::default() };
        p.cycle(1, 0);
        p.cycle(0, 1);
        assert_eq!(p.betza(), "W");
        p.toggle(1, 0, Toggle::Ride);
        p.toggle(0, 1, Toggle::Ride);
        assert_eq!(p.betza(), "R");
        // A grasshopper's rook half: hopping, landing just beyond.
        p.toggle(1, 0, Toggle::Grasshop);
        p.toggle(0, 1, Toggle::Grasshop);
        assert_eq!(p.betza(), "gR");
        // Lame makes it a leap again, and stops the hop.
        p.toggle(1, 0, Toggle::Lame);
        assert_eq!(p.at(1, 0).map(|s| (s.range, s.hop, s.lame)), Some((1, Hop::None, true)));
        assert_eq!(Painter::from_betza(&p.betza()).unwrap().atoms(), p.atoms());
        p.set_range(0, 1, 3);
        assert_eq!(p.at(0, -1).map(|s| (s.range, s.hop)), Some((3, Hop::Adjacent)));
    }

    /// Every piece of the catalogue painted click by click (modality, then range and toggles)
    /// gives Betza that compiles to the same moves, and the same diagram.
    #[test]
    fn every_catalogue_piece_can_be_painted() {
        let mut painted = 0;
        for id in crate::variants::builtin_ids() {
            for def in &crate::variants::builtin(id).unwrap().registry.types {
                if def.betza.is_empty() {
                    continue;
                }
                let want = atom_set(&parse_betza(&def.betza).unwrap());
                let mut p = Painter::default();
                for a in &want {
                    if a.any_square {
                        p.set_any_square(Some(a.mode));
                        assert!(!a.initial, "{id} {}: an initial-only any-square move", def.name);
                        continue;
                    }
                    let stroke =
                        Stroke { mode: a.mode, range: a.range, hop: a.hop, lame: a.lame, initial: a.initial, en_passant: a.en_passant };
                    if p.at(a.dx, a.dy).is_some() {
                        // A second stroke on one step (e.g. a move-only rider and a capturing leap).
                        p.add(a.dx, a.dy, stroke);
                        continue;
                    }
                    let clicks = match a.mode {
                        Mode::Both => 1,
                        Mode::Move => 2,
                        Mode::Capture => 3,
                    };
                    for _ in 0..clicks {
                        p.cycle(a.dx, a.dy);
                    }
                    if a.range != 1 {
                        p.set_range(a.dx, a.dy, a.range);
                    }
                    match a.hop {
                        Hop::None => {}
                        Hop::Any => p.toggle(a.dx, a.dy, Toggle::Hop),
                        Hop::Adjacent => p.toggle(a.dx, a.dy, Toggle::Grasshop),
                    }
                    for (on, toggle) in [(a.lame, Toggle::Lame), (a.initial, Toggle::Initial), (a.en_passant, Toggle::EnPassant)] {
                        if on {
                            p.toggle(a.dx, a.dy, toggle);
                        }
                    }
                }
                let what = format!("{id} {} ({})", def.name, def.betza);
                assert_eq!(p.atoms(), want, "{what}: painted");
                let written = p.betza();
                let back = parse_betza(&written).unwrap_or_else(|e| panic!("{what}: wrote {written}: {e}"));
                assert_eq!(atom_set(&back), want, "{what}: wrote {written}");
                assert_eq!(crate::rules::diagram(&back, 9), crate::rules::diagram(&want, 9), "{what}");
                assert_eq!(Painter::from_betza(&written).unwrap().atoms(), want, "{what}: redrawn from its Betza");
                painted += 1;
            }
        }
        assert!(painted > 150, "{painted}");
    }

    #[test]
    fn betza_typed_redraws_the_painter() {
        let p = Painter::from_betza("fmWfceFifmnD").unwrap();
        assert_eq!(p.at(0, 1).map(|s| s.mode), Some(Mode::Move));
        assert_eq!(p.at(1, 1).map(|s| (s.mode, s.en_passant)), Some((Mode::Capture, true)));
        assert_eq!(p.at(0, 2).map(|s| (s.initial, s.lame)), Some((true, true)));
        assert_eq!(p.at(0, -1), None);
        let err = Painter::from_betza("fmWx").unwrap_err();
        assert_eq!(err.position, 4);
    }
}
