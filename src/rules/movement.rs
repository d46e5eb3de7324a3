//! Movement as data: atoms (a step vector, a range and a mode) compiled into per-square
//! ray tables for generation and into one merged reverse table for attack detection.
//!
//! Every piece whose moves are "leap or slide along a vector until blocked" is described by
//! atoms; Betza notation compiles to the same atoms. A type with stranger moves (hoppers,
//! lame leapers) adds its own generator and attack probe in the registry.

use super::geometry::{Geometry, Side, Square, SquareSet};
use super::piece::{Cell, PieceType};

/// What a move along an atom may do on arrival.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Mode {
    /// Only to an empty square (Betza `m`).
    Move,
    /// Only to capture an enemy piece (Betza `c`).
    Capture,
    /// Either.
    Both,
}

impl Mode {
    /// Whether a quiet move is allowed.
    #[inline]
    pub fn moves(self) -> bool {
        !matches!(self, Mode::Capture)
    }

    /// Whether a capture is allowed.
    #[inline]
    pub fn captures(self) -> bool {
        !matches!(self, Mode::Move)
    }
}

/// How a slider treats pieces in its way.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Hop {
    /// Blocked by the first piece (an ordinary slider or leaper).
    #[default]
    None,
    /// Must jump exactly one piece (the screen), then lands anywhere beyond it up to and
    /// including the next piece (Betza `p`, the Xiangqi cannon's capture).
    Any,
    /// Must jump one piece and lands on the square right behind it (Betza `g`, grasshopper).
    Adjacent,
}

/// One step vector of a piece, written from white's point of view (`dy > 0` is forward).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Atom {
    /// File step.
    pub dx: i8,
    /// Rank step, forward for the piece's owner.
    pub dy: i8,
    /// How many steps at most; 0 means unlimited (a rider).
    pub range: u8,
    /// Quiet moves, captures or both.
    pub mode: Mode,
    /// A lame leap: blocked by a piece on its path (Betza `n`).
    pub lame: bool,
    /// Hopping (Betza `p`, `g`).
    pub hop: Hop,
    /// Only from the type's initial ranks (Betza `i`).
    pub initial: bool,
    /// Captures along it may be en passant (Betza `e`).
    pub en_passant: bool,
    /// Reaches any square of the board (Bishop's `*`); the vector is unused.
    pub any_square: bool,
}

impl Atom {
    /// A plain atom: leaper (`range` 1) or rider (`range` 0 or more than 1).
    pub fn new(dx: i8, dy: i8, range: u8, mode: Mode) -> Atom {
        Atom { dx, dy, range, mode, lame: false, hop: Hop::None, initial: false, en_passant: false, any_square: false }
    }

    /// The vector as seen by `side`: black's moves are white's turned half a turn, so its
    /// forward is down the board and its left is white's right (as Fairy-Stockfish reads a
    /// piece's Betza; it matters only to pieces that are not left-right symmetric, such as
    /// Legan's pawns, which advance diagonally towards the far corner on either side).
    #[inline]
    pub fn oriented(self, side: Side) -> (i32, i32) {
        match side {
            Side::White => (self.dx as i32, self.dy as i32),
            Side::Black => (-(self.dx as i32), -(self.dy as i32)),
        }
    }

    /// Whether check detection can read this atom from the merged reverse table: it
    /// captures, is blocked by the first piece, and is not lame, hopping or unbounded.
    pub fn is_simple(self) -> bool {
        !self.lame && self.hop == Hop::None && !self.any_square
    }
}

/// One leg of a multi-leg move (XBetza `a`): a step from where the previous leg ended, written
/// from white's point of view, and what it may do where it lands.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct LegStep {
    /// File step.
    pub dx: i8,
    /// Rank step, forward for the piece's owner.
    pub dy: i8,
    /// On a leg before the last: `Move` passes an empty square, `Capture` takes the enemy
    /// there and goes on (a locust capture). On the last leg, as for an atom.
    pub mode: Mode,
}

impl LegStep {
    /// The step as seen by `side` (black's is white's turned half a turn, as for atoms).
    #[inline]
    pub fn oriented(self, side: Side) -> (i32, i32) {
        match side {
            Side::White => (self.dx as i32, self.dy as i32),
            Side::Black => (-(self.dx as i32), -(self.dy as i32)),
        }
    }
}

/// A multi-leg move: its legs in order, each starting where the one before ended.
pub type LegPath = Vec<LegStep>;

/// The whole displacement of a multi-leg path, from white's point of view.
pub fn leg_displacement(path: &[LegStep]) -> (i32, i32) {
    path.iter().fold((0, 0), |(x, y), s| (x + i32::from(s.dx), y + i32::from(s.dy)))
}

/// Where the multi-leg `path` of a piece of `side` on `from` ends on an empty board, if every
/// leg stays on the board.
pub fn leg_end(g: Geometry, path: &[LegStep], side: Side, from: Square) -> Option<Square> {
    let (mut f, mut r) = (g.file(from) as i32, g.rank(from) as i32);
    let mut end = from;
    for step in path {
        let (dx, dy) = step.oriented(side);
        (f, r) = (f + dx, r + dy);
        end = g.square(f, r)?;
    }
    Some(end)
}

/// All eight (or four) symmetric images of the step `(x, y)`, each with `range` and `mode`.
pub fn symmetric(x: i8, y: i8, range: u8, mode: Mode) -> Vec<Atom> {
    let mut out: Vec<Atom> = Vec::with_capacity(8);
    for (a, b) in [(x, y), (y, x)] {
        for (sa, sb) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let atom = Atom::new(a * sa, b * sb, range, mode);
            if !out.iter().any(|o| o.dx == atom.dx && o.dy == atom.dy) {
                out.push(atom);
            }
        }
    }
    out
}

/// The squares a lame leap of `(dx, dy)` passes over, relative to its start: orthogonal
/// steps along the longer axis until the rest is diagonal, then diagonal steps (the Xiangqi
/// horse is blocked beside it, the Janggi elephant on both of its intermediate points, a
/// lame dabbaba on its middle square).
pub fn lame_path(dx: i32, dy: i32) -> Vec<(i32, i32)> {
    let (sx, sy) = (dx.signum(), dy.signum());
    let (mut x, mut y) = (0, 0);
    let mut path = Vec::new();
    loop {
        let (rx, ry) = (dx - x, dy - y);
        if rx.abs() == ry.abs() || rx == 0 || ry == 0 {
            // Diagonal or straight remainder: step along it.
            let (ux, uy) = (rx.signum(), ry.signum());
            while (x + ux, y + uy) != (dx, dy) {
                x += ux;
                y += uy;
                path.push((x, y));
            }
            return path;
        }
        if rx.abs() > ry.abs() {
            x += sx;
        } else {
            y += sy;
        }
        path.push((x, y));
    }
}

/// Where a type may go and where it moves differently, per side (`[white, black]`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Zones {
    /// The squares it may stand on (Xiangqi's palace for the general and advisors).
    pub confinement: Option<[SquareSet; 2]>,
    /// Inside this region it moves by these atoms instead (the Xiangqi soldier across the river).
    pub region_atoms: Option<([SquareSet; 2], Vec<Atom>)>,
}

/// The way a compiled ray is walked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RayKind {
    /// To the first piece.
    Slide,
    /// The first `path` squares must be empty; the last square is the destination.
    Lame {
        /// Number of path squares.
        path: u8,
    },
    /// Over a screen.
    Hop(Hop),
    /// Every square of the board.
    AnySquare,
}

/// A compiled ray: consecutive squares along one atom from one square.
#[derive(Copy, Clone, Debug)]
pub struct Ray {
    /// Index of the first square in [`MoveTable::squares`].
    pub start: u32,
    /// Number of squares.
    pub len: u8,
    /// The first square (a copy of `squares[start]`, so that a one-square ray is read without
    /// a second lookup; square 0 for an empty any-square ray).
    pub first: Square,
    /// What the moves along it may do.
    pub mode: Mode,
    /// How it is walked.
    pub kind: RayKind,
    /// Captures along it may be en passant.
    pub en_passant: bool,
    /// Quiet moves to this ray's squares from this index on are double steps that leave an
    /// en-passant square behind (`u8::MAX`: none are).
    pub double_from: u8,
}

/// Per side and square, the rays of one piece type.
#[derive(Clone, Debug, Default)]
pub struct MoveTable {
    /// For `side * len + square`: the range of [`Self::rays`] that belong to it.
    pub index: Vec<(u32, u32)>,
    /// All rays.
    pub rays: Vec<Ray>,
    /// The squares the rays run through.
    pub squares: Vec<Square>,
}

impl MoveTable {
    /// Compiles `atoms` for every square and both sides. Initial-only atoms exist only on
    /// the relative ranks in `initial_ranks`; `double_steps` says whether the type's straight
    /// initial moves from the furthest of those ranks leave en-passant squares.
    pub fn compile(geometry: Geometry, atoms: &[Atom], initial_ranks: &[u8], double_steps: bool) -> MoveTable {
        Self::compile_with(geometry, atoms, initial_ranks, double_steps, &Zones::default())
    }

    /// As [`MoveTable::compile`], with the confinement and region-dependent movement of `zones`.
    pub fn compile_with(geometry: Geometry, atoms: &[Atom], initial_ranks: &[u8], double_steps: bool, zones: &Zones) -> MoveTable {
        let mut table = MoveTable::default();
        for side in Side::BOTH {
            let allowed = |to: Square| zones.confinement.as_ref().is_none_or(|c| c[side.index()].contains(to));
            for sq in geometry.squares() {
                let atoms: &[Atom] = match &zones.region_atoms {
                    Some((region, alt)) if region[side.index()].contains(sq) => alt,
                    _ => atoms,
                };
                let first = table.rays.len() as u32;
                let (f, r) = (geometry.file(sq) as i32, geometry.rank(sq) as i32);
                let relative = geometry.relative_rank(sq, side);
                let on_initial = initial_ranks.contains(&relative);
                // Only a double step from the furthest initial rank leaves an en-passant square
                // (Horde's pawns on the first rank step twice without one, as on lichess).
                let ep_rank = initial_ranks.iter().max() == Some(&relative);
                for atom in atoms {
                    if atom.initial && !on_initial {
                        continue;
                    }
                    let start = table.squares.len() as u32;
                    let (dx, dy) = atom.oriented(side);
                    // Straight double steps, and the Berolina pawn's lame diagonal one.
                    let straight_or_diagonal = dx == 0 || (atom.lame && dx.abs() == dy.abs());
                    // A double step that is not an initial move (Torpedo's pawns step twice
                    // from any rank) leaves an en-passant square too, as in Fairy-Stockfish,
                    // when it is exactly two squares: a leap of two or the second square of
                    // a two-square slide.
                    let two_squares = match atom.range {
                        1 => dy.abs() == 2,
                        2 => dy.abs() == 1,
                        _ => false,
                    };
                    let leaves_ep = if atom.initial { ep_rank } else { two_squares && !atom.any_square && atom.hop == Hop::None };
                    let double_from = match double_steps && leaves_ep && straight_or_diagonal && atom.mode.moves() {
                        false => u8::MAX,
                        true if dy.abs() >= 2 => 0,
                        true => 1,
                    };
                    let kind = if atom.any_square {
                        RayKind::AnySquare
                    } else if atom.lame {
                        match geometry.square(f + dx, r + dy).filter(|&to| allowed(to)) {
                            Some(to) => {
                                let path = lame_path(dx, dy);
                                for (px, py) in &path {
                                    table.squares.push(geometry.square(f + px, r + py).expect("a lame path stays inside its leap"));
                                }
                                table.squares.push(to);
                                RayKind::Lame { path: path.len() as u8 }
                            }
                            None => continue,
                        }
                    } else {
                        let limit = if atom.range == 0 { u32::MAX } else { atom.range as u32 };
                        let mut k = 1;
                        while k <= limit {
                            // A confined piece stops at the edge of its region.
                            match geometry.square(f + dx * k as i32, r + dy * k as i32).filter(|&to| allowed(to)) {
                                Some(to) => table.squares.push(to),
                                None => break,
                            }
                            k += 1;
                        }
                        if atom.hop == Hop::None { RayKind::Slide } else { RayKind::Hop(atom.hop) }
                    };
                    let len = table.squares.len() as u32 - start;
                    if len > 0 || kind == RayKind::AnySquare {
                        let first = table.squares.get(start as usize).copied().filter(|_| len > 0).unwrap_or(Square(0));
                        table.rays.push(Ray {
                            start,
                            len: len as u8,
                            first,
                            mode: atom.mode,
                            kind,
                            en_passant: atom.en_passant,
                            double_from,
                        });
                    }
                }
                table.drop_covered_rays(first as usize);
                table.index.push((first, table.rays.len() as u32));
            }
        }
        table
    }

    /// Drops the rays from `from` on that another of them already walks with the same effect
    /// (Yari Shogi's gold, `WfFbR`: the backward step is the first square of the backward
    /// slide), so that no move is generated twice.
    fn drop_covered_rays(&mut self, from: usize) {
        let mut i = from;
        while i < self.rays.len() {
            let r = self.rays[i];
            let covered = (from..self.rays.len()).any(|j| {
                let s = self.rays[j];
                j != i
                    && r.kind == RayKind::Slide
                    && s.kind == RayKind::Slide
                    && r.mode == s.mode
                    && r.en_passant == s.en_passant
                    && (r.double_from == s.double_from || (r.double_from == u8::MAX && s.double_from >= r.len))
                    && self.ray_squares(&s).starts_with(self.ray_squares(&r))
                    // Of two equal rays the first stays.
                    && (r.len < s.len || j < i)
            });
            if covered {
                self.rays.remove(i);
            } else {
                i += 1;
            }
        }
    }

    /// The rays of a piece of `side` on `sq`.
    #[inline]
    pub fn rays(&self, geometry_len: usize, side: Side, sq: Square) -> &[Ray] {
        let (a, b) = self.index[side.index() * geometry_len + sq.index()];
        &self.rays[a as usize..b as usize]
    }

    /// The squares of one ray.
    #[inline]
    pub fn ray_squares(&self, ray: &Ray) -> &[Square] {
        &self.squares[ray.start as usize..ray.start as usize + ray.len as usize]
    }
}

/// Calls `emit(to, taken, capture)` for the move along the multi-leg `path` of a piece of
/// `side` on `from`, if the board lets it through: `taken` is the square of an enemy taken on
/// an earlier leg (a locust capture), `capture` whether the last leg captures on `to`. The
/// start square counts as empty once left, and so does a square taken on. `target`, when
/// given, counts as an enemy piece whatever stands there (the attack probe's question). A
/// path that captures nothing and ends where it began is no move.
pub fn walk_legs(
    g: Geometry,
    path: &[LegStep],
    cells: &[Cell],
    side: Side,
    from: Square,
    target: Option<Square>,
    mut emit: impl FnMut(Square, Option<Square>, bool),
) {
    let (mut f, mut r) = (g.file(from) as i32, g.rank(from) as i32);
    let mut taken: Option<Square> = None;
    let last = path.len() - 1;
    for (k, step) in path.iter().enumerate() {
        let (dx, dy) = step.oriented(side);
        (f, r) = (f + dx, r + dy);
        let Some(sq) = g.square(f, r) else { return };
        let cell = cells[sq.index()];
        let empty = sq == from || taken == Some(sq) || (cell.is_empty() && target != Some(sq));
        let enemy = !empty && (target == Some(sq) || (cell.is_piece() && cell.side() != side));
        if k < last {
            match (step.mode, empty, enemy) {
                (Mode::Capture, _, true) if taken.is_none() => taken = Some(sq),
                (Mode::Move | Mode::Both, true, _) => {}
                _ => return,
            }
            continue;
        }
        if empty && step.mode.moves() && (taken.is_some() || sq != from) {
            emit(sq, taken, false);
        } else if enemy && step.mode.captures() && taken.is_none() {
            emit(sq, None, true);
        }
    }
}

/// Calls `emit(to, capture, double_step)` for every move along `ray` from a piece of `side`
/// on `cells`: the one walk that generation and the attack probe of non-simple types share.
#[inline]
pub fn walk_ray(table: &MoveTable, ray: &Ray, cells: &[Cell], side: Side, mut emit: impl FnMut(Square, bool, bool)) {
    let enemy = |c: Cell| c.is_piece() && c.side() != side;
    let squares = table.ray_squares(ray);
    match ray.kind {
        RayKind::Slide => {
            for (k, &to) in squares.iter().enumerate() {
                let c = cells[to.index()];
                if c.is_empty() {
                    if ray.mode.moves() {
                        emit(to, false, k >= ray.double_from as usize);
                    }
                    continue;
                }
                if enemy(c) && ray.mode.captures() {
                    emit(to, true, false);
                }
                break;
            }
        }
        RayKind::Lame { path } => {
            let (path, to) = squares.split_at(path as usize);
            if path.iter().all(|s| cells[s.index()].is_empty()) {
                let to = to[0];
                let c = cells[to.index()];
                if c.is_empty() && ray.mode.moves() {
                    emit(to, false, ray.double_from != u8::MAX);
                } else if enemy(c) && ray.mode.captures() {
                    emit(to, true, false);
                }
            }
        }
        RayKind::Hop(hop) => {
            let Some(screen) = squares.iter().position(|s| !cells[s.index()].is_empty()) else { return };
            if !cells[squares[screen].index()].is_piece() {
                return;
            }
            let beyond = &squares[screen + 1..];
            let beyond = if hop == Hop::Adjacent { &beyond[..beyond.len().min(1)] } else { beyond };
            for &to in beyond {
                let c = cells[to.index()];
                if c.is_empty() {
                    if ray.mode.moves() {
                        emit(to, false, false);
                    }
                    continue;
                }
                if enemy(c) && ray.mode.captures() {
                    emit(to, true, false);
                }
                break;
            }
        }
        RayKind::AnySquare => {
            for (i, &c) in cells.iter().enumerate() {
                if c.is_empty() && ray.mode.moves() {
                    emit(Square(i as u8), false, false);
                } else if enemy(c) && ray.mode.captures() {
                    emit(Square(i as u8), true, false);
                }
            }
        }
    }
}

/// The reverse view of every table-driven piece type at once: from a target square, walk each
/// direction to the first piece and ask whether a piece of that type, at that distance,
/// attacks back along it. One scan answers "is this square attacked" for all such types.
#[derive(Clone, Debug, Default)]
pub struct AttackTable {
    /// Direction vectors from the target towards a potential attacker.
    pub dirs: Vec<(i8, i8)>,
    /// `masks[side][dir][k]`: bit `t` set when a piece of type `t` and `side` at distance `k`
    /// in direction `dir` from the target attacks it.
    pub masks: [Vec<Vec<u64>>; 2],
    /// For each side, the directions with any attacker, with the farthest useful distance.
    pub active: [Vec<(usize, u8)>; 2],
    /// For `square * dirs.len() + dir`: the range of [`Self::squares`] along that direction.
    pub rays: Vec<(u32, u8)>,
    /// Ray squares.
    pub squares: Vec<Square>,
}

impl AttackTable {
    /// Builds the table for `types` (atoms of each type by index; `None` for types with
    /// custom probes, which are checked separately).
    pub fn compile(geometry: Geometry, types: &[Option<&[Atom]>]) -> AttackTable {
        let max_dist = geometry.files.max(geometry.ranks) as usize;
        let mut table = AttackTable::default();
        for side in Side::BOTH {
            for (t, atoms) in types.iter().enumerate() {
                let Some(atoms) = atoms else { continue };
                for atom in atoms.iter().filter(|a| a.mode.captures() && a.is_simple()) {
                    let (dx, dy) = atom.oriented(side);
                    let dir = (-dx as i8, -dy as i8);
                    let d = match table.dirs.iter().position(|&x| x == dir) {
                        Some(d) => d,
                        None => {
                            table.dirs.push(dir);
                            for s in 0..2 {
                                table.masks[s].push(vec![0; max_dist + 1]);
                            }
                            table.dirs.len() - 1
                        }
                    };
                    let reach = if atom.range == 0 { max_dist } else { (atom.range as usize).min(max_dist) };
                    for k in 1..=reach {
                        table.masks[side.index()][d][k] |= 1u64 << t;
                    }
                }
            }
        }
        for side in 0..2 {
            for (d, masks) in table.masks[side].iter().enumerate() {
                if let Some(far) = masks.iter().rposition(|&m| m != 0) {
                    table.active[side].push((d, far as u8));
                }
            }
        }
        for sq in geometry.squares() {
            let (f, r) = (geometry.file(sq) as i32, geometry.rank(sq) as i32);
            for &(dx, dy) in &table.dirs {
                let start = table.squares.len() as u32;
                let mut k = 1;
                while let Some(s) = geometry.square(f + dx as i32 * k, r + dy as i32 * k) {
                    table.squares.push(s);
                    k += 1;
                }
                table.rays.push((start, (table.squares.len() as u32 - start) as u8));
            }
        }
        table
    }

    /// Whether a table-driven piece of `by` attacks `target` on `cells`.
    #[inline]
    pub fn attacked(&self, cells: &[Cell], target: Square, by: Side) -> bool {
        let ndirs = self.dirs.len();
        let masks = &self.masks[by.index()];
        for &(d, far) in &self.active[by.index()] {
            let (start, len) = self.rays[target.index() * ndirs + d];
            let lim = len.min(far) as usize;
            let squares = &self.squares[start as usize..start as usize + lim];
            for (k, s) in squares.iter().enumerate() {
                let c = cells[s.index()];
                if c.is_empty() {
                    continue;
                }
                if c.is_piece() && c.side() == by && masks[d][k + 1] & (1u64 << c.kind().0) != 0 {
                    return true;
                }
                break;
            }
        }
        false
    }

    /// Whether a piece of type `kind` and side `by` standing on `from` attacks `target`
    /// (the per-type attack probe for table-driven types).
    pub fn piece_attacks(&self, cells: &[Cell], kind: PieceType, by: Side, from: Square, target: Square) -> bool {
        let ndirs = self.dirs.len();
        for (d, masks) in self.masks[by.index()].iter().enumerate() {
            let (start, len) = self.rays[target.index() * ndirs + d];
            for k in 0..len as usize {
                let s = self.squares[start as usize + k];
                if s == from {
                    return masks[k + 1] & (1u64 << kind.0) != 0;
                }
                if !cells[s.index()].is_empty() {
                    break;
                }
            }
        }
        false
    }
}

/// What the squares between an attacker and its target must hold for a reverse entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Between {
    /// All empty (slides and lame leaps).
    Clear,
    /// Exactly one piece, anywhere (a hopper's screen, Betza `p`).
    Screen,
    /// Exactly one piece, right before the target (a grasshopper's screen, Betza `g`).
    ScreenAdjacent,
}

/// One way a piece may attack a square: the piece cell that must stand on `origin` and what
/// the squares between must hold.
#[derive(Copy, Clone, Debug)]
struct ReverseEntry {
    origin: Square,
    attacker: Cell,
    between: Between,
    start: u32,
    len: u8,
}

/// The reverse view of the capture rays the merged [`AttackTable`] cannot express: lame leaps,
/// hops, and the rays of confined or region-dependent types. For each side and target square,
/// every (origin, path) from which a piece of such a type would capture on the target, compiled
/// from the same [`MoveTable`] rays that generation walks, so that an attack probe reads a
/// short list instead of walking the rays of every piece on the board.
#[derive(Clone, Debug, Default)]
pub struct ReverseRays {
    /// Number of squares of the board.
    squares: usize,
    /// For `side * len + target`: the range of `entries` that can reach it.
    index: Vec<(u32, u32)>,
    entries: Vec<ReverseEntry>,
    path: Vec<Square>,
}

impl ReverseRays {
    /// Builds the reverse entries of the types in `types` (their compiled tables, by type
    /// index; `None` for types not in the table). Any-square rays are not reversible: a type
    /// with one must stay out of this table.
    pub fn compile(geometry: Geometry, tables: &[Option<&MoveTable>]) -> ReverseRays {
        let len = geometry.len();
        let mut by_target: Vec<Vec<(Square, Cell, Between, Vec<Square>)>> = vec![Vec::new(); 2 * len];
        for side in Side::BOTH {
            for (t, table) in tables.iter().enumerate() {
                let Some(table) = table else { continue };
                let attacker = Cell::piece(PieceType(t as u8), side);
                for origin in geometry.squares() {
                    for ray in table.rays(len, side, origin).iter().filter(|r| r.mode.captures()) {
                        let squares = table.ray_squares(ray);
                        let mut add = |k: usize, between: Between| {
                            by_target[side.index() * len + squares[k].index()].push((origin, attacker, between, squares[..k].to_vec()));
                        };
                        match ray.kind {
                            RayKind::Slide => (0..squares.len()).for_each(|k| add(k, Between::Clear)),
                            RayKind::Lame { path } => add(path as usize, Between::Clear),
                            RayKind::Hop(Hop::Adjacent) => (1..squares.len()).for_each(|k| add(k, Between::ScreenAdjacent)),
                            RayKind::Hop(_) => (1..squares.len()).for_each(|k| add(k, Between::Screen)),
                            RayKind::AnySquare => unreachable!("any-square rays are not reversible"),
                        }
                    }
                }
            }
        }
        let mut table = ReverseRays { squares: len, ..ReverseRays::default() };
        for list in by_target {
            let first = table.entries.len() as u32;
            for (origin, attacker, between, path) in list {
                let start = table.path.len() as u32;
                table.path.extend_from_slice(&path);
                table.entries.push(ReverseEntry { origin, attacker, between, start, len: path.len() as u8 });
            }
            table.index.push((first, table.entries.len() as u32));
        }
        table
    }

    /// Whether a piece of `by` in this table captures on `target` along one of its rays.
    #[inline]
    pub fn attacked(&self, cells: &[Cell], target: Square, by: Side) -> bool {
        let Some(&(a, b)) = self.index.get(by.index() * self.squares + target.index()) else { return false };
        self.entries[a as usize..b as usize].iter().any(|e| {
            if cells[e.origin.index()] != e.attacker {
                return false;
            }
            let path = &self.path[e.start as usize..e.start as usize + e.len as usize];
            match e.between {
                Between::Clear => path.iter().all(|s| cells[s.index()].is_empty()),
                Between::Screen => {
                    let mut screens = path.iter().map(|s| cells[s.index()]).filter(|c| !c.is_empty());
                    screens.next().is_some_and(Cell::is_piece) && screens.next().is_none()
                }
                Between::ScreenAdjacent => {
                    let (last, before) = path.split_last().expect("a screen stands between");
                    cells[last.index()].is_piece() && before.iter().all(|s| cells[s.index()].is_empty())
                }
            }
        })
    }
}

impl ReverseRays {
    /// Calls `mark` for every square between `target` and a piece of `by` that stands on the
    /// origin of one of `target`'s entries: the squares whose occupancy decides whether those
    /// pieces attack it. A move that changes none of them (and does not put a piece of `by`
    /// on an origin) leaves this table's verdict on `target` as it was.
    pub fn live_paths(&self, cells: &[Cell], target: Square, by: Side, mut mark: impl FnMut(Square)) {
        let Some(&(a, b)) = self.index.get(by.index() * self.squares + target.index()) else { return };
        for e in &self.entries[a as usize..b as usize] {
            if cells[e.origin.index()] == e.attacker {
                self.path[e.start as usize..e.start as usize + e.len as usize].iter().for_each(|&s| mark(s));
            }
        }
    }
}
