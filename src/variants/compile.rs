//! Validating a resolved variant file and compiling it into the engine's [`Variant`]: one
//! checker per section of the file, each reporting its problems and returning what it compiled.
//! [`compile`] runs them in the order their problems are reported.

use std::collections::BTreeMap;

use crate::rules::{
    BlastRule, BoardLook, CODE_PIECES, CastlingRule, DropRule, EndCondition, Geometry, MAX_FILES, MAX_RANKS, MaterialCount, PiecePromotion,
    PieceType, PieceTypeDef, PieceTypeRegistry, PresetRequest, PromotionRule, RegistryError, Side, Square, SquareSet, Variant, Verdict,
    code_piece, code_piece_betza, code_piece_confinable, leg_end, parse_betza, parse_fen, parse_movement,
};

use super::format::{BoardStyle, CastlingSpec, EndSpec, PieceSpec, RegionSpec, ShuffleSpec, VariantFile};
use super::problem::{LoadError, Problem, ProblemCode};

/// Validates a resolved file and compiles it.
///
/// # Errors
/// [`LoadError::Invalid`] with every problem found.
pub fn compile(file: &VariantFile) -> Result<Variant, LoadError> {
    let mut ck = Checker::default();
    check_id(file, &mut ck);
    let name = check_name(file, &mut ck);
    let (geometry, look, walls) = check_board(file, &mut ck);
    let cx = Context::new(file, geometry);
    let registry = check_pieces(file, &cx, &mut ck);
    let (castling, chess960) = check_castling(file, &cx, &mut ck);
    let promotion = check_promotion(file, &cx, &mut ck);
    check_regions(&cx, &mut ck);
    let end = check_end(file, &cx, &mut ck);
    let presets = check_presets(file, &mut ck);
    let drops = check_drops(file, &cx, &mut ck);
    let blast = check_blast(file, &cx, &mut ck);
    let shuffle = match file.shuffle {
        Some(ShuffleSpec::Shuffled(s)) => Some(s),
        _ => None,
    };
    check_rule_conflicts(file, &mut ck);
    let piece_promotion = check_piece_promotion(file, &cx, &mut ck);
    let material_count = check_material_count(file, &cx, &mut ck);
    let lines = check_diagonal_lines(file, &cx, &mut ck);
    // The start position can only be read with every piece type compiled.
    let Some(mut registry) = registry else { return Err(LoadError::Invalid(ck.problems)) };
    if let Some(lines) = lines {
        registry.lines = lines;
    }
    let immobile = if file.no_immobile_pieces.unwrap_or(false) { immobile_squares(&registry, geometry) } else { Vec::new() };
    let variant = Variant {
        id: file.id.clone(),
        name,
        description: file.description.clone().unwrap_or_default(),
        rules_summary: file.rules_summary.clone().unwrap_or_default(),
        geometry,
        walls,
        switches: super::format::compile_switches(file),
        draw_odds: file.draw_odds,
        mutually_immune: file.mutually_immune.as_ref().map_or(0, |l| cx.letters(l, "mutually_immune", &mut ck)),
        registry,
        start_fen: file.start.clone().unwrap_or_default(),
        castling,
        promotion,
        piece_promotion,
        immobile,
        chess960,
        shuffle,
        end,
        drops,
        blast,
        material_count,
        look,
        presets,
        actions: Vec::new(),
        facts: Vec::new(),
        profile: None,
        layouts: Some(super::catalogue_layout),
    };
    let (profile, profile_hp) = check_profile(file, &variant, &mut ck);
    let variant = check_actions(file, &cx, &mut ck, Variant { profile, ..variant }, profile_hp);
    check_start(file, &variant, &mut ck);
    if ck.problems.is_empty() { Ok(variant) } else { Err(LoadError::Invalid(ck.problems)) }
}

/// The problems found so far, in the order they were found.
#[derive(Default)]
struct Checker {
    problems: Vec<Problem>,
}

impl Checker {
    fn add(&mut self, code: ProblemCode, path: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem::new(code, path, message));
    }
}

/// What the sections after `board` look things up in.
struct Context<'f> {
    /// The board (chess's when `board` is missing or wrong, so later checks still run).
    geometry: Geometry,
    /// The named regions.
    regions: &'f BTreeMap<String, RegionSpec>,
    /// The piece types as listed; a letter's index is its type even when another type failed
    /// to compile.
    specs: &'f [PieceSpec],
    /// Regions already worked out (with their problems reported), so that each region is
    /// computed and reported once however often it is named.
    region_cache: std::cell::RefCell<BTreeMap<String, [SquareSet; 2]>>,
}

/// The regions of a file that names none.
static NO_REGIONS: BTreeMap<String, RegionSpec> = BTreeMap::new();

impl<'f> Context<'f> {
    /// What the sections after `board` look things up in, for `file` on a board of `geometry`.
    fn new(file: &'f VariantFile, geometry: Geometry) -> Context<'f> {
        Context {
            geometry,
            regions: file.regions.as_ref().unwrap_or(&NO_REGIONS),
            specs: file.pieces.as_deref().unwrap_or_default(),
            region_cache: Default::default(),
        }
    }

    /// The type with this letter.
    fn letter(&self, c: char) -> Option<PieceType> {
        self.specs.iter().position(|p| p.letter == c).map(|i| PieceType(i as u8))
    }

    /// The bit set of the types named by `letters`, reporting unknown letters at `path`.
    fn letters(&self, letters: &str, path: &str, ck: &mut Checker) -> u64 {
        let mut types = 0u64;
        for c in letters.chars() {
            match self.letter(c) {
                Some(t) => types |= 1 << t.0,
                None => ck.add(ProblemCode::UnknownLetter, path, format!("'{c}' is not the letter of a piece type")),
            }
        }
        types
    }

    /// Whether 1-based `rank` is on the board.
    fn has_rank(&self, rank: u8) -> bool {
        rank != 0 && rank <= self.geometry.ranks
    }

    /// Reports a 1-based rank off the board at `path`.
    fn rank_off_board(&self, path: impl Into<String>, rank: u8, ck: &mut Checker) {
        ck.add(ProblemCode::RankOffBoard, path, format!("rank {rank} is not between 1 and {}", self.geometry.ranks));
    }

    /// The squares of the region `name`, for white and for black.
    fn region(&self, name: &str, ck: &mut Checker) -> [SquareSet; 2] {
        let mut walk =
            RegionWalk { specs: self.regions, geometry: self.geometry, done: &mut self.region_cache.borrow_mut(), path: Vec::new() };
        walk.squares(name, ck)
    }
}

/// `id`: lower-case letters, digits and '-'.
fn check_id(file: &VariantFile, ck: &mut Checker) {
    let is_id = !file.id.is_empty() && file.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !is_id {
        ck.add(ProblemCode::IdInvalid, "id", format!("'{}' is not an id; use lower-case letters, digits and '-'", file.id));
    }
}

/// `name`, or the id when it is missing.
fn check_name(file: &VariantFile, ck: &mut Checker) -> String {
    file.name.clone().unwrap_or_else(|| {
        ck.add(ProblemCode::NameMissing, "name", "missing; give the variant a display name");
        file.id.clone()
    })
}

/// `board`: its geometry (chess's when missing or wrong) and how it is drawn.
fn check_board(file: &VariantFile, ck: &mut Checker) -> (Geometry, BoardLook, Vec<Square>) {
    let geometry = match &file.board {
        Some(b) if (3..=MAX_FILES).contains(&b.files) && (3..=MAX_RANKS).contains(&b.ranks) => Geometry { files: b.files, ranks: b.ranks },
        Some(b) => {
            ck.add(ProblemCode::BoardSize, "board", format!("{}×{} is outside 3×3 to 16×16", b.files, b.ranks));
            Geometry::CHESS
        }
        None => {
            ck.add(ProblemCode::BoardMissing, "board", "missing; say the size, e.g. board: (files: 8, ranks: 8)");
            Geometry::CHESS
        }
    };
    let Some(b) = &file.board else { return (geometry, BoardLook::default(), Vec::new()) };
    if let Some(r) = b.river
        && (r == 0 || r >= geometry.ranks)
    {
        ck.add(ProblemCode::BoardRiver, "board.river", format!("a river after rank {r} is not inside a board of {} ranks", geometry.ranks));
    }
    let mut walls: Vec<Square> = Vec::new();
    for (i, w) in b.walls.iter().enumerate() {
        match geometry.parse_square(w) {
            None => {
                let message = format!("'{w}' is not a square of the {}×{} board", geometry.files, geometry.ranks);
                ck.add(ProblemCode::SquareOffBoard, format!("board.walls[{i}]"), message);
            }
            Some(sq) if walls.contains(&sq) => {
                ck.add(ProblemCode::SquareOffBoard, format!("board.walls[{i}]"), format!("'{w}' is listed twice"));
            }
            Some(sq) => walls.push(sq),
        }
    }
    walls.sort();
    (geometry, BoardLook { intersections: b.style == BoardStyle::Intersections, river_after: b.river }, walls)
}

/// `pieces`: the registry, when every type compiled.
fn check_pieces(file: &VariantFile, cx: &Context, ck: &mut Checker) -> Option<PieceTypeRegistry> {
    let specs = cx.specs;
    if specs.is_empty() {
        ck.add(ProblemCode::PiecesEmpty, "pieces", "no piece types; list at least one");
    }
    let defs: Vec<PieceTypeDef> = specs.iter().enumerate().filter_map(|(i, p)| check_piece(file, cx, i, p, ck)).collect();
    if defs.len() != specs.len() || defs.is_empty() {
        return None;
    }
    PieceTypeRegistry::compile(cx.geometry, defs)
        .map_err(|e| {
            let code = match e {
                RegistryError::TooManyTypes(_) => ProblemCode::PiecesTooMany,
                RegistryError::DuplicateLetter(_) => ProblemCode::PieceLetterDuplicate,
            };
            ck.add(code, "pieces", e.to_string());
        })
        .ok()
}

/// `pieces[X]`, the `i`-th piece type: its definition, when its moves parse.
fn check_piece(file: &VariantFile, cx: &Context, i: usize, p: &PieceSpec, ck: &mut Checker) -> Option<PieceTypeDef> {
    let specs = cx.specs;
    let path = format!("pieces[{}]", p.letter);
    if !p.letter.is_ascii_uppercase() {
        ck.add(ProblemCode::PieceLetter, format!("{path}.letter"), format!("'{}' is not an upper-case letter A-Z", p.letter));
    }
    if specs[..i].iter().any(|q| q.letter == p.letter) {
        ck.add(ProblemCode::PieceLetterDuplicate, format!("{path}.letter"), format!("'{}' is used by an earlier piece type", p.letter));
    }
    if p.name.is_empty() || specs[..i].iter().any(|q| q.name == p.name) {
        ck.add(ProblemCode::PieceName, format!("{path}.name"), format!("'{}' is empty or used by an earlier piece type", p.name));
    }
    if let Some(ranks) = &p.initial_ranks
        && let Some(&r) = ranks.iter().find(|&&r| !cx.has_rank(r))
    {
        cx.rank_off_board(format!("{path}.initial_ranks"), r, ck);
    }
    let mut def = piece_def(p, &format!("{path}.betza"), ck)?;
    def.pictures = super::pictures::keys(p, file);
    if let Some(name) = &p.code {
        match code_piece(name) {
            Some((generator, probe)) if (p.confined.is_none() || code_piece_confinable(name)) && p.region_moves.is_none() => {
                def.generator = generator;
                def.attack_probe = probe;
                if let Some(betza) = code_piece_betza(name) {
                    def.atoms = parse_betza(betza).expect("a code piece's own Betza string reads");
                }
            }
            Some(_) => ck.add(ProblemCode::CodePieceZones, format!("{path}.code"), "a code piece cannot be confined or have region moves"),
            None => {
                let message = format!("no code piece '{name}' (there are: {})", CODE_PIECES.join(", "));
                ck.add(ProblemCode::UnknownCodePiece, format!("{path}.code"), message);
            }
        }
    }
    if let Some(to) = p.promotes_to {
        match cx.letter(to) {
            Some(t) if to != p.letter => def.promotes_to = Some(t),
            _ => ck.add(
                ProblemCode::PiecePromotesTo,
                format!("{path}.promotes_to"),
                format!("'{to}' is not the letter of another piece type"),
            ),
        }
        if file.piece_promotion.is_none() {
            ck.add(ProblemCode::PromotionZoneMissing, format!("{path}.promotes_to"), "needs a zone; add piece_promotion: (zone: 7)");
        }
    }
    if let Some(region) = &p.confined {
        def.zones.confinement = Some(cx.region(region, ck));
    }
    if let Some(rm) = &p.region_moves {
        if !def.legs.is_empty() {
            ck.add(ProblemCode::Betza, format!("{path}.region_moves"), "a piece with multi-leg moves cannot move otherwise in a region");
        }
        match parse_betza(&rm.betza) {
            Ok(atoms) => def.zones.region_atoms = Some((cx.region(&rm.region, ck), atoms)),
            Err(e) => {
                let message = format!("'{}' at character {}: {}", rm.betza, e.position, e.message);
                ck.add(ProblemCode::Betza, format!("{path}.region_moves.betza"), message);
            }
        }
    }
    Some(def)
}

/// A piece type's definition from its spec, when its Betza string parses.
fn piece_def(p: &PieceSpec, betza_path: &str, ck: &mut Checker) -> Option<PieceTypeDef> {
    match parse_movement(&p.betza) {
        Ok(movement) => {
            let mut def = PieceTypeDef::new(&p.name, p.letter, p.value, movement.atoms);
            def.legs = movement.legs;
            def.betza = p.betza.clone();
            def.royal = p.royal;
            def.pawn = p.pawn;
            def.promotes = p.promotes;
            def.initial_ranks =
                p.initial_ranks.as_ref().map(|r| r.iter().map(|x| x.saturating_sub(1)).collect()).unwrap_or_else(|| vec![1]);
            def.castles = p.castles;
            def.castling_partner = p.castling_partner;
            def.glyph = p.glyph.clone();
            Some(def)
        }
        Err(e) => {
            ck.add(ProblemCode::Betza, betza_path, format!("'{}' at character {}: {}", p.betza, e.position, e.message));
            None
        }
    }
}

/// `castling`: the rule, if any, and whether the king takes the rook to castle (Chess960).
fn check_castling(file: &VariantFile, cx: &Context, ck: &mut Checker) -> (Option<CastlingRule>, bool) {
    let geometry = cx.geometry;
    let chess960 = matches!(file.castling, Some(CastlingSpec::On { king_takes_rook: true, .. }));
    let Some(CastlingSpec::On { king, rook, rank, rook_start, .. }) = &file.castling else { return (None, chess960) };
    let files = [king.0, king.1, rook.0, rook.1].map(|c| file_of(c, geometry));
    if files.iter().any(Option::is_none) {
        ck.add(ProblemCode::CastlingFile, "castling", format!("a landing file is not on a board with {} files", geometry.files));
    }
    if !cx.specs.iter().any(|p| p.castles) || !cx.specs.iter().any(|p| p.castling_partner) {
        let message = "castling needs a piece type with `castles: true` and one with `castling_partner: true`";
        ck.add(ProblemCode::CastlingPieces, "castling", message);
    }
    let f = files.map(|x| x.unwrap_or(0));
    if !cx.has_rank(*rank) {
        cx.rank_off_board("castling.rank", *rank, ck);
    }
    let rook_start = rook_start.map(|(a, b)| [file_of(a, geometry).unwrap_or(0), file_of(b, geometry).unwrap_or(0)]);
    let rule = CastlingRule { king_files: [f[0], f[1]], rook_files: [f[2], f[3]], rank: rank.saturating_sub(1), rook_start };
    (Some(rule), chess960)
}

/// The 0-based file named by the letter `c`, if it is on the board.
fn file_of(c: char, g: Geometry) -> Option<u8> {
    let f = (c as u32).checked_sub('a' as u32)? as u8;
    (f < g.files).then_some(f)
}

/// `promotion`: the rule (none on the last rank when missing).
fn check_promotion(file: &VariantFile, cx: &Context, ck: &mut Checker) -> PromotionRule {
    let promotes = cx.specs.iter().any(|p| p.promotes);
    let Some(p) = &file.promotion else {
        if promotes {
            let message = "a piece type promotes but there is no promotion rule; add promotion: (rank: 8, choices: \"QRBN\")";
            ck.add(ProblemCode::PromotionMissing, "promotion", message);
        }
        return PromotionRule {
            rank: cx.geometry.ranks - 1,
            choices: Vec::new(),
            black_choices: None,
            optional_from: None,
            limits: Vec::new(),
            squares: None,
        };
    };
    if !cx.has_rank(p.rank) {
        cx.rank_off_board("promotion.rank", p.rank, ck);
    }
    let mut letters = |key: &str, text: &str| -> Vec<PieceType> {
        let mut types = Vec::new();
        for c in text.chars() {
            match cx.letter(c) {
                Some(t) => types.push(t),
                None => ck.add(ProblemCode::UnknownLetter, key, format!("'{c}' is not the letter of a piece type")),
            }
        }
        types
    };
    let choices = letters("promotion.choices", &p.choices);
    let black_choices = p.black_choices.as_ref().map(|text| letters("promotion.black_choices", text));
    let mut limits = Vec::new();
    for (c, max) in &p.limits {
        match cx.letter(*c) {
            Some(t) => limits.push((t, *max)),
            None => ck.add(ProblemCode::UnknownLetter, format!("promotion.limits.{c}"), format!("'{c}' is not the letter of a piece type")),
        }
    }
    if let Some(from) = p.optional_from
        && (from == 0 || from > p.rank)
    {
        let message = format!("rank {from} is not between 1 and the promotion rank {}", p.rank);
        ck.add(ProblemCode::PromotionOptionalFrom, "promotion.optional_from", message);
    }
    if promotes && choices.is_empty() {
        ck.add(ProblemCode::PromotionChoicesEmpty, "promotion.choices", "empty; list the letters a piece may promote to");
    }
    if promotes && black_choices.as_ref().is_some_and(Vec::is_empty) {
        ck.add(
            ProblemCode::PromotionChoicesEmpty,
            "promotion.black_choices",
            "empty; list the letters black's pieces may promote to, or leave it out",
        );
    }
    // Promotion to the only royal type makes a second king; where several types are royal
    // (Coregal's queen beside the king), promoting to one of the others is a rule.
    let royal_types: Vec<char> = cx.specs.iter().filter(|s| s.royal).map(|s| s.letter).collect();
    if let [only] = royal_types.as_slice()
        && (p.choices.contains(*only) || p.black_choices.as_ref().is_some_and(|b| b.contains(*only)))
    {
        let message = format!("'{only}' is the only royal type: promoting to it would make a second one; leave it out");
        ck.add(ProblemCode::PromotionRoyal, "promotion.choices", message);
    }
    let squares = p.region.as_ref().map(|name| cx.region(name, ck));
    if squares.is_some() && p.optional_from.is_some() {
        ck.add(ProblemCode::PromotionOptionalFrom, "promotion.optional_from", "optional promotion needs ranks; a region has none");
    }
    PromotionRule {
        rank: p.rank.saturating_sub(1),
        choices,
        black_choices,
        optional_from: p.optional_from.map(|r| r.saturating_sub(1)),
        limits,
        squares,
    }
}

/// `regions`: every region, whether used or not.
fn check_regions(cx: &Context, ck: &mut Checker) {
    for name in cx.regions.keys() {
        cx.region(name, ck);
    }
}

/// Works out named regions: each once (`done`), following the names a region is made of, with
/// the names on the way (`path`) to find loops.
struct RegionWalk<'a> {
    specs: &'a BTreeMap<String, RegionSpec>,
    geometry: Geometry,
    done: &'a mut BTreeMap<String, [SquareSet; 2]>,
    path: Vec<String>,
}

impl RegionWalk<'_> {
    /// The squares of the region `name` for white and for black, reporting problems at
    /// `regions.<name>` the first time it is worked out. A region that names itself, directly
    /// or through others, is a loop, reported once; it counts as empty inside itself. Linear in
    /// the size of the regions, however they nest.
    fn squares(&mut self, name: &str, ck: &mut Checker) -> [SquareSet; 2] {
        if let Some(done) = self.done.get(name) {
            return *done;
        }
        let path = format!("regions.{name}");
        if self.path.iter().any(|n| n == name) {
            let mut cycle: Vec<&str> = self.path.iter().skip_while(|n| *n != name).map(String::as_str).collect();
            cycle.push(name);
            ck.add(ProblemCode::RegionLoop, path, format!("regions refer to each other in a loop: {}", cycle.join(" → ")));
            self.done.insert(name.to_string(), [SquareSet::EMPTY; 2]);
            return [SquareSet::EMPTY; 2];
        }
        let Some(spec) = self.specs.get(name) else {
            ck.add(ProblemCode::UnknownRegion, path, format!("no region named '{name}'"));
            self.done.insert(name.to_string(), [SquareSet::EMPTY; 2]);
            return [SquareSet::EMPTY; 2];
        };
        self.path.push(name.to_string());
        let squares = self.compute(spec, &path, ck);
        self.path.pop();
        self.done.insert(name.to_string(), squares);
        squares
    }

    fn compute(&mut self, spec: &RegionSpec, path: &str, ck: &mut Checker) -> [SquareSet; 2] {
        let g = self.geometry;
        let mut set = SquareSet::EMPTY;
        let mut put = |sq: Square| set.insert(sq);
        match spec {
            RegionSpec::Rect(a, b) => match (g.parse_square(a), g.parse_square(b)) {
                (Some(a), Some(b)) => {
                    let (f0, f1) = (g.file(a).min(g.file(b)), g.file(a).max(g.file(b)));
                    let (r0, r1) = (g.rank(a).min(g.rank(b)), g.rank(a).max(g.rank(b)));
                    for r in r0..=r1 {
                        for f in f0..=f1 {
                            put(Square(r * g.files + f));
                        }
                    }
                }
                _ => {
                    let message = format!("Rect(\"{a}\", \"{b}\") has a corner off the {}×{} board", g.files, g.ranks);
                    ck.add(ProblemCode::SquareOffBoard, path, message);
                }
            },
            RegionSpec::Squares(list) => {
                for s in list {
                    match g.parse_square(s) {
                        Some(sq) => put(sq),
                        None => {
                            let message = format!("'{s}' is not a square of the {}×{} board", g.files, g.ranks);
                            ck.add(ProblemCode::SquareOffBoard, path, message);
                        }
                    }
                }
            }
            RegionSpec::Union(names) | RegionSpec::Intersection(names) => {
                let union = matches!(spec, RegionSpec::Union(_));
                if names.is_empty() {
                    return [SquareSet::EMPTY; 2];
                }
                let mut out = if union { [SquareSet::EMPTY; 2] } else { [SquareSet([u64::MAX; 4]); 2] };
                for n in names {
                    let p = self.squares(n, ck);
                    for (out, p) in out.iter_mut().zip(&p) {
                        if union { out.union_with(p) } else { out.intersect_with(p) }
                    }
                }
                return out;
            }
            RegionSpec::PerSide { white, black } => {
                let w = self.squares(white, ck)[0];
                let b = self.squares(black, ck)[1];
                return [w, b];
            }
        }
        [set, set]
    }
}

/// The end conditions of a file that does not list them: chess's (checkmate wins, stalemate
/// draws, the fifty-move rule, threefold repetition, insufficient material).
pub fn default_end() -> Vec<EndSpec> {
    vec![
        EndSpec::Checkmate,
        EndSpec::Stalemate(Verdict::Draw),
        EndSpec::MoveRule(100),
        EndSpec::Repetition(3),
        EndSpec::InsufficientMaterial,
    ]
}

/// The squares (file, rank, from 0) of the region `name` of a resolved file, for white and
/// for black, as the loader works them out; a region that does not work out (an unknown name,
/// a loop, a square off the board) counts what it can, and its problems are the loader's.
pub fn region_squares(file: &VariantFile, name: &str) -> [Vec<(u8, u8)>; 2] {
    let mut ck = Checker::default();
    let (geometry, _, _) = check_board(file, &mut ck);
    let cx = Context::new(file, geometry);
    cx.region(name, &mut ck).map(|set| {
        (0..geometry.ranks)
            .flat_map(|r| (0..geometry.files).map(move |f| (f, r)))
            .filter(|&(f, r)| set.contains(Square(r * geometry.files + f)))
            .collect()
    })
}

/// `end`: the end conditions in order (chess's when missing), and a check that something wins.
fn check_end(file: &VariantFile, cx: &Context, ck: &mut Checker) -> Vec<EndCondition> {
    let chess = default_end();
    let specs = file.end.as_deref().unwrap_or(&chess);
    if specs.is_empty() {
        ck.add(ProblemCode::EndEmpty, "end", "empty: nothing would end the game; list the conditions, or leave `end` out for chess's");
    }
    let mut end = Vec::new();
    for (i, e) in specs.iter().enumerate() {
        let pieces_path = format!("end[{i}].pieces");
        let count = |ck: &mut Checker, n: u32, min: u32, what: &str| {
            if n < min {
                ck.add(ProblemCode::EndCount, format!("end[{i}]"), format!("{what} {n}; it must be at least {min}"));
            }
        };
        match e {
            EndSpec::MoveRule(n) => count(ck, *n, 1, "a move rule of"),
            EndSpec::NCheck(n) => count(ck, u32::from(*n), 1, "a check count of"),
            EndSpec::Repetition(n) | EndSpec::RepetitionScored { count: n, .. } => count(ck, u32::from(*n), 2, "a repetition count of"),
            _ => {}
        }
        end.push(match e {
            EndSpec::Checkmate => EndCondition::Checkmate,
            EndSpec::Stalemate(v) => EndCondition::Stalemate(*v),
            EndSpec::BareKing(v) => EndCondition::BareKing(*v),
            EndSpec::Extinction { pieces, per_type, fewer_than, verdict, pseudo_royal } => {
                let types = cx.letters(pieces, &pieces_path, ck);
                let fewer_than = (*fewer_than).max(1);
                EndCondition::Extinction { types, per_type: *per_type, fewer_than, verdict: *verdict, pseudo_royal: *pseudo_royal }
            }
            EndSpec::Checkmated(v) => EndCondition::Checkmated(*v),
            EndSpec::ShatarMate { shak, knights } => EndCondition::ShatarMate {
                shak: cx.letters(shak, &format!("end[{i}].shak"), ck),
                knights: cx.letters(knights, &format!("end[{i}].knights"), ck),
            },
            EndSpec::MoveRule(n) => EndCondition::MoveRule(*n),
            EndSpec::NCheck(n) => EndCondition::NCheck(*n),
            EndSpec::Repetition(n) => EndCondition::Repetition(*n),
            EndSpec::RepetitionScored { count, verdict, for_white } => {
                EndCondition::RepetitionScored { count: *count, verdict: *verdict, for_white: *for_white }
            }
            EndSpec::InsufficientMaterial => EndCondition::InsufficientMaterial,
            EndSpec::InsufficientMaterialAs(rule) => EndCondition::InsufficientMaterialAs(*rule),
            EndSpec::Bikjang => EndCondition::Bikjang,
            EndSpec::DoublePass => EndCondition::DoublePass,
            EndSpec::StalemateByCount => EndCondition::StalemateByCount,
            EndSpec::RegionHeld { pieces, region } => {
                let types = cx.letters(pieces, &pieces_path, ck);
                EndCondition::RegionHeld { types, regions: cx.region(region, ck) }
            }
            EndSpec::RegionReached { pieces, region, reply, safe, count } => {
                if *count > 1 && (*reply || *safe) {
                    ck.add(ProblemCode::EndCount, format!("end[{i}].count"), "several pieces on the goal only without reply or safe");
                }
                let types = cx.letters(pieces, &pieces_path, ck);
                EndCondition::RegionReached { types, regions: cx.region(region, ck), reply: *reply, safe: *safe, count: (*count).max(1) }
            }
        });
    }
    let has_royal = cx.specs.iter().any(|p| p.royal);
    // (A side left without a move may lose or win: Joust's knights, Suicide's count.)
    let other_win = end.iter().any(|e| {
        e.is_immediate()
            || matches!(
                e,
                EndCondition::Checkmated(_) | EndCondition::StalemateByCount | EndCondition::Stalemate(Verdict::Loss | Verdict::Win)
            )
    });
    if !has_royal && !other_win {
        let message = "no piece type is royal and no other condition wins the game; mark the king `royal: true` or add a win condition";
        ck.add(ProblemCode::EndNoWin, "end", message);
    }
    end
}

/// `presets`: known ids, and a set that can be active together.
fn check_presets(file: &VariantFile, ck: &mut Checker) -> Vec<PresetRequest> {
    let mut presets = Vec::new();
    let mut activations = Vec::new();
    for (i, p) in file.presets.iter().flatten().enumerate() {
        match crate::presets::by_id(&p.id) {
            Some(def) => {
                let scope = p.scope.unwrap_or_default();
                presets.push(PresetRequest {
                    id: p.id.clone(),
                    params: p.params.clone(),
                    sides: [scope.covers(Side::White), scope.covers(Side::Black)],
                    turns: p.duration,
                });
                activations.push(crate::presets::Activation { id: def.id, params: p.params.clone(), scope, turns_left: p.duration });
            }
            None => {
                let known: Vec<&str> = crate::presets::every().map(|d| d.id).collect();
                ck.add(
                    ProblemCode::UnknownPreset,
                    format!("presets[{i}].id"),
                    format!("no preset '{}'; known: {}", p.id, known.join(", ")),
                );
            }
        }
    }
    if let Err(e) = crate::presets::validate(&activations) {
        use crate::presets::PresetError;
        let code = match &e {
            PresetError::Unknown(_) => ProblemCode::UnknownPreset,
            PresetError::Incompatible(..) => ProblemCode::PresetConflict,
            PresetError::Missing { .. } => ProblemCode::PresetRequires,
            PresetError::Duplicate(_) => ProblemCode::PresetDuplicate,
            PresetError::BadParam { .. } => ProblemCode::PresetParam,
            PresetError::Facts(_) => ProblemCode::ActionFact,
        };
        ck.add(code, "presets", e.to_string());
    }
    presets
}

/// `profile`: a built-in profile's id or a profile written out, read against the variant
/// (every entry's modifier, piece and value; orphaned per-instance entries warn). The profile's
/// checks against a game (ADR-6) run when the game starts.
fn check_profile(file: &VariantFile, variant: &Variant, ck: &mut Checker) -> (Option<String>, bool) {
    let Some(used) = file.profile.as_ref() else { return (None, false) };
    let profile = match used {
        super::format::ProfileUse::Id(id) => match crate::modifiers::builtin(id) {
            Some(p) => p,
            None => {
                let known: Vec<&str> = crate::modifiers::BUILTIN.iter().map(|(id, _)| *id).collect();
                ck.add(ProblemCode::UnknownProfile, "profile", format!("no modifier profile '{id}'; there are {}", known.join(", ")));
                return (None, false);
            }
        },
        super::format::ProfileUse::Inline(p) => p.clone(),
    };
    match crate::modifiers::compile(&profile, variant) {
        Ok(compiled) => {
            let hp = compiled.gives_hp();
            for w in compiled.warnings {
                ck.add(ProblemCode::ProfileOrphan, "profile.instances", w.message);
            }
            (Some(profile.to_ron()), hp)
        }
        Err(problems) => {
            for p in problems {
                ck.add(ProblemCode::ProfileEntry, "profile", p.message);
            }
            (None, false)
        }
    }
}

/// `drops`: the rule, if any.
fn check_drops(file: &VariantFile, cx: &Context, ck: &mut Checker) -> Option<DropRule> {
    let d = file.drops.as_ref()?;
    let mut forbidden_ranks = Vec::new();
    for (c, ranks) in &d.forbidden_ranks {
        let path = format!("drops.forbidden_ranks.{c}");
        match cx.letter(*c) {
            Some(t) => {
                if let Some(&r) = ranks.iter().find(|&&r| !cx.has_rank(r)) {
                    cx.rank_off_board(path, r, ck);
                }
                forbidden_ranks.push((t, ranks.iter().map(|r| r.saturating_sub(1)).collect()));
            }
            None => ck.add(ProblemCode::UnknownLetter, path, format!("'{c}' is not the letter of a piece type")),
        }
    }
    if let Some(&r) = d.ranks.iter().find(|&&r| !cx.has_rank(r)) {
        cx.rank_off_board("drops.ranks", r, ck);
    }
    let no_doubled = cx.letters(&d.no_doubled, "drops.no_doubled", ck);
    let no_drop_mate = cx.letters(&d.no_drop_mate, "drops.no_drop_mate", ck);
    Some(DropRule {
        captures_to_hand: d.captures_to_hand,
        forbidden_ranks,
        ranks: d.ranks.iter().map(|r| r.saturating_sub(1)).collect(),
        must_drop: d.must_drop,
        opposite_bishops: d.opposite_bishops,
        castling_on_drop: d.castling_on_drop,
        no_doubled,
        no_doubled_count: d.no_doubled_count,
        no_checks: d.no_checks,
        no_drop_mate,
        keep_promoted: d.keep_promoted,
    })
}

/// Rules that cannot be played together.
fn check_rule_conflicts(file: &VariantFile, ck: &mut Checker) {
    let on = |v: Option<bool>| v == Some(true);
    if on(file.fixed_gating) {
        let shuffled = matches!(file.shuffle, Some(ShuffleSpec::Shuffled(_)));
        for (clash, with) in [(file.drops.is_some(), "drops"), (on(file.gating), "gating"), (on(file.pass), "pass"), (shuffled, "shuffle")]
        {
            if clash {
                ck.add(ProblemCode::RulesConflict, "fixed_gating", format!("fixed gating does not go with {with}"));
            }
        }
    }
    if on(file.trail_walls) && on(file.duck) {
        ck.add(ProblemCode::RulesConflict, "trail_walls", "a trail of walls does not go with the duck");
    }
    if on(file.cambodian_moves) && on(file.gating) {
        ck.add(ProblemCode::RulesConflict, "cambodian_moves", "Cambodian moves keep their rights as gates: not with gating");
    }
}

/// `blast`: the rule, if any.
fn check_blast(file: &VariantFile, cx: &Context, ck: &mut Checker) -> Option<BlastRule> {
    file.blast
        .as_ref()
        .map(|b| BlastRule { immune: cx.letters(&b.immune, "blast.immune", ck), unharmed: cx.letters(&b.unharmed, "blast.unharmed", ck) })
}

/// `piece_promotion`: the zone rule, if any.
fn check_piece_promotion(file: &VariantFile, cx: &Context, ck: &mut Checker) -> Option<PiecePromotion> {
    let p = file.piece_promotion.as_ref()?;
    if !cx.has_rank(p.zone) {
        cx.rank_off_board("piece_promotion.zone", p.zone, ck);
    }
    Some(PiecePromotion { zone: p.zone.saturating_sub(1), mandatory: p.mandatory })
}

/// `material_count`: points per type, if given.
fn check_material_count(file: &VariantFile, cx: &Context, ck: &mut Checker) -> Option<MaterialCount> {
    let m = file.material_count.as_ref()?;
    let mut points = Vec::new();
    for (c, p) in &m.points {
        match cx.letter(*c) {
            Some(t) => points.push((t, *p)),
            None => {
                ck.add(ProblemCode::UnknownLetter, format!("material_count.points.{c}"), format!("'{c}' is not the letter of a piece type"))
            }
        }
    }
    Some(MaterialCount { points, black_bonus: m.black_bonus })
}

/// `diagonal_lines`: the squares of the region, if named.
fn check_diagonal_lines(file: &VariantFile, cx: &Context, ck: &mut Checker) -> Option<SquareSet> {
    file.diagonal_lines.as_ref().map(|r| cx.region(r, ck)[0])
}

/// Per type and side, the squares from which it could never move (on an empty board): along
/// its rays or its multi-leg paths. A type that never moves at all (`betza: ""`) is exempt, as
/// Fairy-Stockfish's immobile piece is (a Mandala pawn still promotes into one).
fn immobile_squares(registry: &PieceTypeRegistry, geometry: Geometry) -> Vec<[SquareSet; 2]> {
    registry
        .ids()
        .map(|t| {
            let mut sets = [SquareSet::EMPTY; 2];
            let def = registry.def(t);
            if def.never_moves() {
                return sets;
            }
            for side in Side::BOTH {
                for sq in geometry.squares() {
                    let legs = def.legs.iter().any(|path| leg_end(geometry, path, side, sq).is_some());
                    if registry.tables[t.0 as usize].rays(geometry.len(), side, sq).is_empty() && !legs {
                        sets[side.index()].insert(sq);
                    }
                }
            }
            sets
        })
        .collect()
}

/// `start`: present, and a FEN the compiled variant reads.
fn check_start(file: &VariantFile, variant: &Variant, ck: &mut Checker) {
    match &file.start {
        None => ck.add(ProblemCode::StartMissing, "start", "missing; give the start position as FEN"),
        Some(fen) => {
            if let Err(e) = parse_fen(variant, fen) {
                ck.add(ProblemCode::StartFen, "start", e.to_string());
            }
        }
    }
}

/// `format` and `actions`: each action compiled (piece types by name or letter, regions by
/// name), and the `actions` preset asked for (after the presets the file lists, unless it
/// lists it itself) so that they run.
fn check_actions(file: &VariantFile, cx: &Context, ck: &mut Checker, mut variant: Variant, profile_hp: bool) -> Variant {
    use crate::presets::action_compile::{ActionCode, Names, compile_actions, compile_facts};
    use crate::presets::action_spec::FORMAT;
    let format = file.format.unwrap_or(1);
    if format > FORMAT {
        ck.add(ProblemCode::FormatNewer, "format", format!("format {format} is newer than this build reads (up to {FORMAT})"));
    }
    let (specs, fact_specs) = (file.actions.as_deref().unwrap_or_default(), file.facts.as_deref().unwrap_or_default());
    if specs.is_empty() && fact_specs.is_empty() {
        return variant;
    }
    if format < 2 {
        ck.add(ProblemCode::ActionFormat, "format", "a file with actions or facts says `format: 2`");
    }
    /// The file's piece types and regions.
    struct FileNames<'a, 'f> {
        cx: &'a Context<'f>,
        ck: &'a mut Checker,
        hands: bool,
        presets: Vec<String>,
    }
    impl Names for FileNames<'_, '_> {
        fn piece(&self, name: &str) -> Option<PieceType> {
            let by_letter = name.chars().count() == 1 && name.chars().all(|c| c.is_ascii_uppercase());
            if by_letter { name.chars().next().and_then(|c| self.cx.letter(c)) } else { None }
                .or_else(|| self.cx.specs.iter().position(|p| p.name == name).map(|i| PieceType(i as u8)))
        }
        fn piece_names(&self) -> Vec<String> {
            self.cx.specs.iter().map(|p| p.name.clone()).collect()
        }
        fn all(&self) -> Vec<PieceType> {
            (0..self.cx.specs.len()).map(|i| PieceType(i as u8)).collect()
        }
        fn royal(&self) -> Vec<PieceType> {
            self.cx.specs.iter().enumerate().filter(|(_, p)| p.royal).map(|(i, _)| PieceType(i as u8)).collect()
        }
        fn region(&mut self, name: &str, _path: &str) -> Option<[crate::rules::SquareSet; 2]> {
            // (An unknown region is reported by the region walk, at `regions.<name>`.)
            Some(self.cx.region(name, self.ck))
        }
        fn hands(&self) -> bool {
            self.hands
        }
        fn preset(&self, id: &str) -> bool {
            self.presets.iter().any(|p| p == id)
        }
    }
    let mut problems = Vec::new();
    variant.facts = compile_facts(fact_specs, &[], &mut problems);
    let facts: Vec<&'static str> = variant.facts.iter().map(|d| d.name).collect();
    let (hands, presets) = (variant.drops.is_some(), variant.presets.iter().map(|p| p.id.clone()).collect());
    variant.actions = compile_actions(specs, &facts, &mut FileNames { cx, ck, hands, presets }, &mut problems);
    // The facts of the data presets the file lists share the game with its own.
    let set: Vec<crate::presets::Activation> =
        variant.presets.iter().filter_map(|p| crate::presets::by_id(&p.id)).map(|d| crate::presets::Activation::of(d.id)).collect();
    if let Err(e) = crate::presets::check_facts(&set, &variant.facts, profile_hp) {
        ck.add(ProblemCode::ActionFact, if variant.facts.is_empty() { "presets" } else { "facts" }, e.to_string());
    }
    for p in problems {
        let code = match p.code {
            ActionCode::Name => ProblemCode::ActionName,
            ActionCode::Piece => ProblemCode::ActionPiece,
            ActionCode::Effect => ProblemCode::ActionEffect,
            ActionCode::Damage => ProblemCode::ActionDamage,
            ActionCode::Fact => ProblemCode::ActionFact,
            ActionCode::Who => ProblemCode::ActionWho,
            ActionCode::Cycle => ProblemCode::ActionCycle,
            ActionCode::State => ProblemCode::ActionState,
            ActionCode::Region => ProblemCode::UnknownRegion,
        };
        ck.add(code, p.path, p.message);
    }
    crate::presets::ask_for_actions(&mut variant);
    variant
}
