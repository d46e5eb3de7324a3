//! The move painter: a piece's movement as painted squares around it, kept in step with Betza.
//!
//! Each painted square is a *step* (an atom's vector, seen from white: forward is up): a click
//! cycles what the piece does there — moves and captures, moves only, captures only, nothing.
//! How it gets there is said in a chess player's words ([`Reach`]): one step or a jump, a slide
//! of any length or up to some squares, a jump over a piece to any square beyond (a cannon) or
//! just beyond it (a grasshopper), or a jump that a piece on the way blocks; and whether it is
//! only a first move (Betza `i`) or also captures en passant (`e`). An edit applies to the
//! step's images under the chosen [`Symmetry`] too, which starts as the symmetry the piece's
//! moves already have ([`Symmetry::of`]). "Like a …" starting points ([`LIKE`]) put a known
//! piece's moves in place of the piece's, or add them.
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

/// Which images of a step an edit also applies to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Symmetry {
    /// The step alone.
    #[default]
    One,
    /// Left and right alike.
    Sideways,
    /// Mirrored both ways: left and right, forward and backward.
    Mirrored,
    /// Every turn and mirror image of the step: the four orthogonal or diagonal steps, or a
    /// knight's eight.
    Turns,
    /// As `Turns`, and orthogonal and diagonal steps alike: all eight directions of a king or
    /// a queen.
    Everything,
}

impl Symmetry {
    /// Every choice, from the narrowest.
    pub const ALL: [Symmetry; 5] = [Symmetry::One, Symmetry::Sideways, Symmetry::Mirrored, Symmetry::Turns, Symmetry::Everything];

    /// Its name in the painter.
    pub fn label(self) -> &'static str {
        match self {
            Symmetry::One => "this square only",
            Symmetry::Sideways => "left and right alike",
            Symmetry::Mirrored => "forward, backward, left and right alike",
            Symmetry::Turns => "every turn alike (a knight's eight)",
            Symmetry::Everything => "all directions alike (a king's or a queen's eight)",
        }
    }

    /// The steps an edit of `(dx, dy)` reaches: the step and its images.
    pub fn images(self, dx: i8, dy: i8) -> Vec<(i8, i8)> {
        let mut out = vec![(dx, dy)];
        let mut add = |v: (i8, i8)| {
            if !out.contains(&v) {
                out.push(v);
            }
        };
        match self {
            Symmetry::One => {}
            Symmetry::Sideways => add((-dx, dy)),
            Symmetry::Mirrored => {
                for (sx, sy) in [(-1, 1), (1, -1), (-1, -1)] {
                    add((dx * sx, dy * sy));
                }
            }
            Symmetry::Turns | Symmetry::Everything => {
                let line = dx == 0 || dy == 0 || dx.abs() == dy.abs();
                let n = dx.abs().max(dy.abs());
                let seeds = if self == Symmetry::Everything && line { vec![(0, n), (n, n)] } else { vec![(dx, dy), (dy, dx)] };
                for (x, y) in seeds.into_iter().flat_map(|(x, y)| [(x, y), (y, x)]) {
                    for (sx, sy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                        add((x * sx, y * sy));
                    }
                }
            }
        }
        out
    }

    /// The widest symmetry the painted moves already have: what an edit should keep. A piece
    /// with moves both along ranks or files and along diagonals, all alike, gets
    /// `Everything`; otherwise the widest of the others under which it is unchanged.
    pub fn of(p: &Painter) -> Symmetry {
        let unchanged = |sym: Symmetry| {
            p.steps.iter().all(|(&(dx, dy), strokes)| sym.images(dx, dy).iter().all(|v| p.steps.get(v).is_some_and(|s| same(s, strokes))))
        };
        let orth = p.steps.keys().any(|&(x, y)| x == 0 || y == 0);
        let diag = p.steps.keys().any(|&(x, y)| x.abs() == y.abs());
        if p.steps.is_empty() || orth && diag && unchanged(Symmetry::Everything) {
            return Symmetry::Everything;
        }
        [Symmetry::Turns, Symmetry::Mirrored, Symmetry::Sideways].into_iter().find(|&s| unchanged(s)).unwrap_or(Symmetry::One)
    }
}

/// Two steps' strokes, the same whatever their order.
fn same(a: &[Stroke], b: &[Stroke]) -> bool {
    a.len() == b.len() && a.iter().all(|s| b.contains(s))
}

/// How a move gets to its square, in a chess player's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// One step, or a jump straight there over anything (a knight's).
    Jump,
    /// Straight there, but a piece on the way blocks it (Xiangqi's horse and elephant).
    Blocked,
    /// Slides any distance, step after step, until something is in the way.
    Slide,
    /// Slides up to this many steps (2 or more).
    SlideUpTo(u8),
    /// Jumps over exactly one piece on its line, to any square beyond it (a cannon).
    OverAny,
    /// Jumps over the first piece on its line, landing just beyond it (a grasshopper).
    OverJustBeyond,
}

impl Reach {
    /// How a stroke gets there.
    pub fn of(s: Stroke) -> Reach {
        match (s.hop, s.range, s.lame) {
            (Hop::Any, ..) => Reach::OverAny,
            (Hop::Adjacent, ..) => Reach::OverJustBeyond,
            (_, 1, true) => Reach::Blocked,
            (_, 1, false) => Reach::Jump,
            (_, 0, _) => Reach::Slide,
            (_, r, _) => Reach::SlideUpTo(r),
        }
    }

    /// The choices for a step (a blocked jump only where something can be in the way), with
    /// their names: "one step" or "jumps" for a leap, whichever the step is.
    pub fn choices(dx: i8, dy: i8, up_to: u8) -> Vec<(Reach, &'static str)> {
        let unit = dx.abs() <= 1 && dy.abs() <= 1;
        let mut out = vec![(Reach::Jump, if unit { "one step" } else { "jumps (like a knight)" })];
        if !unit {
            out.push((Reach::Blocked, "goes there, but a piece on\nthe way blocks it"));
        }
        out.push((Reach::Slide, "slides any distance"));
        out.push((Reach::SlideUpTo(up_to.max(2)), "slides up to"));
        out.push((Reach::OverAny, "jumps over a piece, on to any\nsquare beyond (like a cannon)"));
        out.push((Reach::OverJustBeyond, "jumps over a piece, landing just\nbeyond it (like a grasshopper)"));
        out
    }

    /// The stroke `s` made this way (its mode and conditions kept).
    fn apply(self, s: &mut Stroke) {
        let (range, hop, lame) = match self {
            Reach::Jump => (1, Hop::None, false),
            Reach::Blocked => (1, Hop::None, true),
            Reach::Slide => (0, Hop::None, false),
            Reach::SlideUpTo(n) => (n.clamp(2, 16), Hop::None, false),
            Reach::OverAny => (0, Hop::Any, false),
            Reach::OverJustBeyond => (0, Hop::Adjacent, false),
        };
        s.range = range;
        s.hop = hop;
        s.lame = lame;
    }
}

/// Starting points a designer picks by picture: a known piece's name and moves.
pub const LIKE: &[(&str, &str)] = &[
    ("king", "K"),
    ("queen", "Q"),
    ("rook", "R"),
    ("bishop", "B"),
    ("knight", "N"),
    ("pawn", "fmWfceFifmnD"),
    ("camel", "C"),
    ("zebra", "Z"),
    ("cannon", "mRcpR"),
    ("grasshopper", "gQ"),
];

/// Two movements together: the moves of both, as Betza.
///
/// # Errors
/// Either is not Betza, or has multi-leg moves (which the painter does not draw).
pub fn together(a: &str, b: &str) -> Result<String, BetzaError> {
    let mut atoms = if a.is_empty() { Vec::new() } else { parse_betza(a)? };
    atoms.extend(parse_betza(b)?);
    Ok(write_betza(&atom_set(&atoms)))
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

    /// The any-square move (`*`): on with a mode, or off.
    pub fn set_any_square(&mut self, mode: Option<Mode>) {
        self.any_square = mode.map(|m| (m, false));
    }

    /// How a painted step (and its images) gets there.
    pub fn set_reach(&mut self, dx: i8, dy: i8, reach: Reach) {
        self.edit(dx, dy, |s| reach.apply(s));
    }

    /// What a painted step (and its images) may do: move and capture, only move, only capture.
    /// A step that no longer captures no longer captures en passant.
    pub fn set_mode(&mut self, dx: i8, dy: i8, mode: Mode) {
        self.edit(dx, dy, |s| {
            s.mode = mode;
            if !mode.captures() {
                s.en_passant = false;
            }
        });
    }

    /// Whether a painted step (and its images) is only a first move.
    pub fn set_first_move(&mut self, dx: i8, dy: i8, on: bool) {
        self.edit(dx, dy, |s| s.initial = on);
    }

    /// Whether a painted step (and its images) also captures en passant.
    pub fn set_en_passant(&mut self, dx: i8, dy: i8, on: bool) {
        self.edit(dx, dy, |s| s.en_passant = on && s.mode.captures());
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
        let mut p = Painter { symmetry: Symmetry::Turns, ..Painter::default() };
        p.cycle(1, 2);
        assert_eq!(p.betza(), "N");
        p.symmetry = Symmetry::One;
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
        let mut p = Painter { symmetry: Symmetry::Mirrored, ..Painter::default() };
        p.cycle(1, 0);
        p.cycle(0, 1);
        assert_eq!(p.betza(), "W");
        p.set_reach(1, 0, Reach::Slide);
        p.set_reach(0, 1, Reach::Slide);
        assert_eq!(p.betza(), "R");
        // A grasshopper's rook half: hopping, landing just beyond.
        p.set_reach(1, 0, Reach::OverJustBeyond);
        p.set_reach(0, 1, Reach::OverJustBeyond);
        assert_eq!(p.betza(), "gR");
        // Blocked makes it a leap again, and stops the hop.
        p.set_reach(1, 0, Reach::Blocked);
        assert_eq!(p.at(1, 0).map(|s| (s.range, s.hop, s.lame)), Some((1, Hop::None, true)));
        assert_eq!(Painter::from_betza(&p.betza()).unwrap().atoms(), p.atoms());
        p.set_range(0, 1, 3);
        assert_eq!(p.at(0, -1).map(|s| (s.range, s.hop)), Some((3, Hop::Adjacent)));
    }

    /// Every piece of the catalogue painted click by click (what it does, then how it gets there)
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
                    // How it gets there, in the painter's words (a hop within some squares, which
                    // the words do not offer, by its range).
                    p.set_reach(a.dx, a.dy, Reach::of(stroke));
                    if a.hop != Hop::None && a.range != 0 {
                        p.set_range(a.dx, a.dy, a.range);
                    }
                    p.set_first_move(a.dx, a.dy, a.initial);
                    p.set_en_passant(a.dx, a.dy, a.en_passant);
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

    /// The plain-words choices write the Betza a designer would have typed, and read back as
    /// the same choices.
    #[test]
    fn plain_words_write_betza() {
        // The painting's moves, written as the Betza they equal.
        let betza = |start: &str, step: (i8, i8), edit: &dyn Fn(&mut Painter, i8, i8)| {
            let mut p = Painter::from_betza(start).unwrap();
            p.symmetry = Symmetry::of(&p);
            edit(&mut p, step.0, step.1);
            p.atoms()
        };
        let moves = |b: &str| atom_set(&parse_betza(b).unwrap());
        for (reach, want) in
            [(Reach::Jump, "W"), (Reach::Slide, "R"), (Reach::SlideUpTo(3), "R3"), (Reach::OverAny, "pR"), (Reach::OverJustBeyond, "gR")]
        {
            assert_eq!(betza("W", (1, 0), &|p, x, y| p.set_reach(x, y, reach)), moves(want), "{reach:?}");
            let mut p = Painter::from_betza(want).unwrap();
            assert_eq!(p.at(0, -1).map(Reach::of), Some(reach), "{want} reads back");
            p.symmetry = Symmetry::Turns;
            p.set_reach(0, 1, reach);
            assert_eq!(p.atoms(), moves(want));
        }
        assert_eq!(betza("N", (1, 2), &|p, x, y| p.set_reach(x, y, Reach::Blocked)), moves("nN"));
        assert_eq!(betza("N", (1, 2), &|p, x, y| p.set_reach(x, y, Reach::Slide)), moves("NN"));
        assert_eq!(betza("Q", (1, 1), &|p, x, y| p.set_mode(x, y, Mode::Move)), moves("mQ"));
        assert_eq!(betza("R", (0, 1), &|p, x, y| p.set_mode(x, y, Mode::Capture)), moves("cR"));
        assert_eq!(betza("N", (2, 1), &|p, x, y| p.set_first_move(x, y, true)), moves("iN"));
        // A pawn's step: only forward (its symmetry is left and right), captures only.
        assert_eq!(betza("fF", (1, 1), &|p, x, y| p.set_mode(x, y, Mode::Capture)), moves("fcF"));
        let mut p = Painter::from_betza("fcF").unwrap();
        p.set_en_passant(1, 1, true);
        p.set_mode(1, 1, Mode::Move);
        assert_eq!(p.at(1, 1).map(|s| s.en_passant), Some(false), "a step that does not capture has no en passant");
        // Every choice offered for a step is one it can take, and reads back as itself.
        for step in [(1, 0), (1, 1), (1, 2), (0, 2)] {
            for (reach, _) in Reach::choices(step.0, step.1, 3) {
                let mut p = Painter::default();
                p.cycle(step.0, step.1);
                p.set_reach(step.0, step.1, reach);
                assert_eq!(p.at(step.0, step.1).map(Reach::of), Some(reach), "{step:?} {reach:?}");
                assert_eq!(Painter::from_betza(&p.betza()).unwrap().atoms(), p.atoms(), "{step:?} {reach:?}");
            }
        }
    }

    /// The symmetry an edit starts with is the one the piece has: a queen's or a king's eight
    /// directions, a rook's or a knight's turns, a pawn's left and right.
    #[test]
    fn symmetry_starts_as_the_pieces_own() {
        let of = |b: &str| Symmetry::of(&Painter::from_betza(b).unwrap());
        assert_eq!(of("Q"), Symmetry::Everything);
        assert_eq!(of("K"), Symmetry::Everything);
        assert_eq!(of("R"), Symmetry::Turns);
        assert_eq!(of("N"), Symmetry::Turns);
        assert_eq!(of("NK"), Symmetry::Everything);
        assert_eq!(of("fmWfceFifmnD"), Symmetry::Sideways);
        assert_eq!(of("WfF"), Symmetry::Sideways);
        assert_eq!(of("vWsN"), Symmetry::Mirrored);
        assert_eq!(of("flW"), Symmetry::One);
        assert_eq!(Symmetry::of(&Painter::default()), Symmetry::Everything, "a new piece starts with all eight");
        // With all eight, one click on a neighbour paints a king; on a knight's square, a knight.
        let mut p = Painter { symmetry: Symmetry::Everything, ..Painter::default() };
        p.cycle(0, 1);
        assert_eq!(p.betza(), "K");
        p.cycle(2, 1);
        assert_eq!(atom_set(&parse_betza(&p.betza()).unwrap()), atom_set(&parse_betza("KN").unwrap()));
        // A queen made to slide only two squares stays a queen's shape.
        let mut p = Painter::from_betza("Q").unwrap();
        p.symmetry = Symmetry::of(&p);
        p.set_reach(1, 0, Reach::SlideUpTo(2));
        assert_eq!(p.atoms(), atom_set(&parse_betza("W2F2").unwrap()));
    }

    #[test]
    fn like_a_known_piece() {
        for (name, betza) in LIKE {
            assert!(parse_betza(betza).is_ok(), "{name}");
        }
        let knight_king = together("N", "K").unwrap();
        assert_eq!(atom_set(&parse_betza(&knight_king).unwrap()), atom_set(&parse_betza("NK").unwrap()));
        assert_eq!(together("", "R").unwrap(), "R");
        assert!(together("R", "x").is_err());
    }
}
