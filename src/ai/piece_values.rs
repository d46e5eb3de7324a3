//! Piece values from play (issue 35), in pawns, two ways: the evaluator's estimate from each
//! type's moves ([`super::eval`]), and imbalance play, H. G. Muller's method.
//!
//! # Imbalance play
//!
//! A type is measured by games from the start position in which one side lacks one of its
//! pieces and the other lacks material of known value, chosen near the piece's estimate so that
//! the games stay close and their score says most: pawns (at most four), or, for a piece
//! worth more, a type already measured plus pawns. The games come in pairs, one with each
//! colour short of the piece, so White's first-move advantage cancels; the two games of a pair
//! draw their openings with the same seed (the same opening cannot be played in both, as the
//! two starts differ). Pawn odds whose interval reaches even give no unit, and no values. The score of the side that keeps the piece gives an
//! Elo difference, and pawn-odds games at the same settings (one side two pawns short, also
//! in colour pairs) say how many Elo a pawn is worth:
//!
//! `value = compensation + Elo(score) / (Elo of the pawn odds / 2)`.
//!
//! A score of 0 or 1 has no finite Elo; it is taken as half a game from the end (1/(2n)). The
//! 95 % interval combines, by the delta method, the interval of the score, the pawn odds'
//! interval, and the interval of a measured type used as compensation. Types are measured from
//! the cheapest estimate up, so a compensating type is measured first.
//!
//! Departures, written down: the pawn odds use two pawns, not one, because one pawn's few
//! tens of Elo are lost in the noise of a few hundred games; the side short of pawns loses its
//! edge pawns first (a and h files, then b and g, ...), and the side short of a type loses the
//! piece of that type nearest the a-file on its back-most rank, so the two colours lose mirror
//! pieces in a mirrored start. A type the start position does not hold (one that comes only
//! by promotion or from a hand) is not measured, nor are royal types, whose loss ends games.
//! The pawn is the commonest type flagged as one, or else the commonest that promotes (Shogi's),
//! or else the commonest of all when White has three or more of it (Xiangqi's soldiers). A type
//! one side's army lacks (Orda's, Shatranj-like asymmetric starts) is not measured either.

use std::sync::atomic::AtomicBool;

use super::Evaluator;
use super::balance::{self, GameRecord, Settings, Z95};
use crate::presets::{GameDefinition, Start};
use crate::rules::{Cell, PieceType, Side, Square, Variant, parse_fen, write_castling, write_placement};

/// Pawns the pawn-odds games take from one side.
pub const PAWN_ODDS: usize = 2;

/// The most pawns taken as compensation.
const MAX_PAWNS: usize = 4;

/// What a set of imbalance games gave.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Measured {
    /// Games played.
    pub games: usize,
    /// The score of the side that keeps the piece (or, in the pawn odds, the pawns).
    pub score: f64,
    /// Its 95 % interval.
    pub score_interval: (f64, f64),
    /// The Elo difference the score stands for, with its interval.
    pub elo: (f64, (f64, f64)),
}

/// A value measured by play.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Played {
    /// In pawns.
    pub value: f64,
    /// Its 95 % interval.
    pub interval: (f64, f64),
    /// What the piece was played against, in words ("3 pawns", "a rook and 4 pawns").
    pub against: String,
    /// The games.
    pub measured: Measured,
}

/// One type's value, both ways.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PieceValue {
    /// The type's letter.
    pub letter: char,
    /// Its name.
    pub name: String,
    /// The evaluator's estimate from its moves, in pawns (its centipawns / 100).
    pub estimate: f64,
    /// From imbalance play, or why it was not measured.
    pub played: Result<Played, String>,
}

/// Every type's value.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PieceValues {
    /// The type counted as the pawn, when the start holds one.
    pub pawn: Option<char>,
    /// The pawn-odds games, when they were played.
    pub pawn_odds: Option<Measured>,
    /// The Elo a pawn is worth, with its interval, when the pawn odds showed one.
    pub elo_per_pawn: Option<(f64, (f64, f64))>,
    /// Each non-royal type, pawn first, then by estimate.
    pub pieces: Vec<PieceValue>,
    /// The strength both sides played at, in words.
    pub strength: String,
    /// Whether the same seed gives the same games (not with a time a move).
    pub reproducible: bool,
}

/// Material one side starts without: the types, one piece each (pawns counted as several).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Short {
    pieces: Vec<PieceType>,
    pawns: usize,
}

/// The start and what the measurements can take from it.
pub struct Plan {
    variant: Variant,
    /// The start's FEN.
    fen: String,
    eval: Evaluator,
    pawn: Option<PieceType>,
    /// White's pawns on the board.
    pawns: usize,
    /// Non-royal types White has on the board at the start, by estimate (pawn left out).
    types: Vec<PieceType>,
    /// Non-royal types not on the board at the start (pawn left out).
    absent: Vec<PieceType>,
}

impl Plan {
    /// The plan for `definition`'s start.
    ///
    /// # Errors
    /// The variant does not start, or its start does not read back.
    pub fn new(definition: &GameDefinition) -> Result<Plan, String> {
        let mut engine = definition.start(Start::Given("startpos"))?;
        let fen = engine.fen();
        let variant = engine.variant().clone();
        let eval = Evaluator::new(&variant);
        let setup = parse_fen(&variant, &fen).map_err(|e| e.to_string())?;
        let reg = &variant.registry;
        let on_board = |k: PieceType| setup.pieces.iter().filter(|p| p.1 == k && p.2 == Side::White).count();
        // The pawn: the commonest type flagged as a pawn, or else the commonest that promotes,
        // or else the commonest of all when there are three or more.
        let commonest =
            |f: &dyn Fn(PieceType) -> bool| reg.ids().filter(|&k| f(k) && on_board(k) >= 2).max_by_key(|&k| (on_board(k), -i32::from(k.0)));
        let plain = |k: PieceType| !reg.def(k).royal;
        let promotes = |k: PieceType| reg.def(k).promotes || reg.def(k).promotes_to.is_some();
        let pawn = commonest(&|k| reg.def(k).pawn && plain(k))
            .or_else(|| commonest(&|k| promotes(k) && plain(k)))
            // (Xiangqi's and Janggi's soldiers: the commonest type, three or more.)
            .or_else(|| commonest(&plain).filter(|&k| on_board(k) >= 3));
        let mut types: Vec<PieceType> = reg.ids().filter(|&k| !reg.def(k).royal && Some(k) != pawn).collect();
        types.sort_by_key(|&k| (eval.value(k), k.0));
        let (types, absent) = types.into_iter().partition(|&k| on_board(k) > 0);
        Ok(Plan { pawns: pawn.map_or(0, on_board), variant, fen, eval, pawn, types, absent })
    }

    /// The position `fen` without `short` for `side`, as a FEN.
    fn without(&self, fen: &str, side: Side, short: &Short) -> Result<String, String> {
        let v = &self.variant;
        let (g, reg) = (v.geometry, &v.registry);
        if v.switches.fixed_gating {
            return Err("not with gate rows beyond the board".into());
        }
        let setup = parse_fen(v, fen).map_err(|e| e.to_string())?;
        let mut cells = vec![Cell::EMPTY; g.len()];
        for &w in &setup.walls {
            cells[w.index()] = Cell::WALL;
        }
        for &(sq, k, s) in &setup.pieces {
            cells[sq.index()] = Cell::piece(k, s);
        }
        // The back-most piece of a type nearest the a-file; pawns edge files first.
        let mine = |cells: &[Cell], k: PieceType| -> Vec<Square> {
            let mut found: Vec<Square> = g.squares().filter(|s| cells[s.index()] == Cell::piece(k, side)).collect();
            found.sort_by_key(|&s| (g.relative_rank(s, side), g.file(s)));
            found
        };
        let mut rights = setup.castling;
        let mut gates = setup.gates;
        let back = v.castling_rank(side);
        let mut emptied = Vec::new();
        for &k in &short.pieces {
            let sq = *mine(&cells, k).first().ok_or_else(|| format!("no {} to take", reg.def(k).name))?;
            cells[sq.index()] = Cell::EMPTY;
            emptied.push(sq);
            // A castling piece gone (a king that is not royal, in Giveaway): no castling.
            if reg.def(k).castles {
                rights.rooks[side.index()] = [None, None];
            }
        }
        if short.pawns > 0 {
            let pawn = self.pawn.ok_or("no pawns")?;
            let mut pawns = mine(&cells, pawn);
            let edge = |s: Square| {
                let f = g.file(s);
                f.min(g.files - 1 - f)
            };
            pawns.sort_by_key(|&s| (edge(s), g.file(s) >= g.files.div_ceil(2), g.relative_rank(s, side)));
            if pawns.len() < short.pawns {
                return Err(format!("only {} pawns to take", pawns.len()));
            }
            for s in &pawns[..short.pawns] {
                cells[s.index()] = Cell::EMPTY;
                emptied.push(*s);
            }
        }
        // Castling rights whose rook is gone go with it, and gates (Seirawan's) behind an
        // emptied square.
        for wing in 0..2 {
            if let Some(file) = rights.rooks[side.index()][wing] {
                let sq = Square(back * g.files + file);
                if !cells[sq.index()].is_piece() {
                    rights.rooks[side.index()][wing] = None;
                }
            }
        }
        for sq in emptied.into_iter().filter(|&sq| g.rank(sq) == back) {
            gates[side.index()] &= !(1 << g.file(sq));
        }
        let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
        let pocket = fields[0].find('[').map(|i| fields[0][i..].to_string()).unwrap_or_default();
        fields[0] = write_placement(g, reg, &cells, &setup.promoted) + &pocket;
        if fields.len() > 2 {
            fields[2] = write_castling(v, &cells, &rights, gates);
        }
        let fen = fields.join(" ");
        parse_fen(v, &fen).map_err(|e| e.to_string())?;
        Ok(fen)
    }

    /// The starts of `games` games in colour pairs: even games White short of `short`, odd
    /// games Black; the other side short of `other`.
    fn pairs(&self, games: usize, short: &Short, other: &Short) -> Result<Vec<String>, String> {
        let both = |a: Side, b: Side| self.without(&self.without(&self.fen, a, short)?, b, other);
        let (white_short, black_short) = (both(Side::White, Side::Black)?, both(Side::Black, Side::White)?);
        Ok((0..games).map(|i| if i % 2 == 0 { white_short.clone() } else { black_short.clone() }).collect())
    }

    /// The starts every measurement plays from, by what they measure ("pawn odds", then each
    /// type's letter), or why a type cannot be measured: for tests and for the curious.
    pub fn starts(&self) -> Vec<(String, Result<[String; 2], String>)> {
        let pair = |short: &Short, other: &Short| self.pairs(2, short, other).map(|f| [f[0].clone(), f[1].clone()]);
        let mut out = Vec::new();
        if self.pawn.is_some() {
            out.push(("pawn odds".to_string(), pair(&Short { pieces: vec![], pawns: PAWN_ODDS }, &Short { pieces: vec![], pawns: 0 })));
        }
        for (i, &k) in self.types.iter().enumerate() {
            let def = self.variant.registry.def(k);
            let against = self.compensation(k, &self.types[..i]);
            out.push((def.letter.to_string(), against.and_then(|c| pair(&Short { pieces: vec![k], pawns: 0 }, &c))));
        }
        out
    }

    /// The evaluator's estimate of a type, in pawns.
    fn estimate(&self, k: PieceType) -> f64 {
        f64::from(self.eval.value(k)) / 100.0
    }

    /// What `k` is played against: pawns near its estimate, or, when it is worth more than
    /// `MAX_PAWNS`, the type of `measured` whose estimate is dearest below it, plus pawns for
    /// the difference. (Chosen by the estimates, which are steady; the measured value of that
    /// type is what counts in the result.)
    fn compensation(&self, k: PieceType, measured: &[PieceType]) -> Result<Short, String> {
        if self.pawn.is_none() {
            return Err("the start has fewer than two pawns to measure against".into());
        }
        let estimate = self.estimate(k);
        if estimate.round() as usize <= MAX_PAWNS || measured.is_empty() {
            let pawns = (estimate.round().max(1.0) as usize).min(self.pawns).min(MAX_PAWNS);
            return Ok(Short { pieces: vec![], pawns });
        }
        let piece = measured
            .iter()
            .copied()
            .filter(|&p| self.estimate(p) <= estimate - 0.5)
            .max_by(|&a, &b| self.estimate(a).total_cmp(&self.estimate(b)))
            .ok_or("no cheaper type to measure against")?;
        let rest = ((estimate - self.estimate(piece)).round().max(0.0) as usize).min(MAX_PAWNS).min(self.pawns);
        Ok(Short { pieces: vec![piece], pawns: rest })
    }
}

/// The score of the side that keeps the material in colour-paired games (White short in even
/// games, Black in odd ones).
pub fn measure(records: &[GameRecord]) -> Measured {
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for (i, r) in records.iter().enumerate() {
        // The side that keeps the material: Black in even games, White in odd ones.
        let keeper = if i % 2 == 0 { Side::Black } else { Side::White };
        match r.winner {
            None => draws += 1,
            Some(s) if s == keeper => wins += 1,
            Some(_) => losses += 1,
        }
    }
    let (score, interval) = balance::score_interval(wins, draws, losses);
    let n = records.len().max(1) as f64;
    let elo = |s: f64| balance::elo_from_score(s.clamp(0.5 / n, 1.0 - 0.5 / n)).unwrap_or(0.0);
    Measured { games: records.len(), score, score_interval: interval, elo: (elo(score), (elo(interval.0), elo(interval.1))) }
}

/// A value in pawns and its 95 % interval from the compensation's worth (in pawns, with its
/// standard error), the games' Elo, and the Elo a pawn is worth (with its interval), by the
/// delta method (see the module docs).
pub fn value_of(worth: (f64, f64), m: &Measured, per_pawn: (f64, (f64, f64))) -> (f64, (f64, f64)) {
    let (per, per_interval) = per_pawn;
    let value = worth.0 + m.elo.0 / per;
    let s = (worth.1.powi(2) + (sigma(m.elo.1) / per).powi(2) + (m.elo.0 * sigma(per_interval) / (per * per)).powi(2)).sqrt();
    (value, (value - Z95 * s, value + Z95 * s))
}

/// The standard error of an interval's value (its half-width over z).
fn sigma(interval: (f64, f64)) -> f64 {
    (interval.1 - interval.0) / (2.0 * Z95)
}

/// "3 pawns", "a rook and 2 pawns".
fn words(variant: &Variant, short: &Short) -> String {
    let mut parts: Vec<String> = short.pieces.iter().map(|&k| format!("a {}", variant.registry.def(k).name)).collect();
    match short.pawns {
        0 => {}
        1 => parts.push("a pawn".into()),
        n => parts.push(format!("{n} pawns")),
    }
    parts.join(" and ")
}

/// Measures every type's value (see the module docs): `settings.games` games (rounded up to
/// pairs) for the pawn odds and for each type. `progress` hears games done and games planned.
///
/// # Errors
/// The variant does not start.
pub fn measure_values(
    definition: &GameDefinition,
    settings: &Settings,
    stop: &AtomicBool,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<PieceValues, String> {
    let plan = Plan::new(definition)?;
    let games = settings.games.div_ceil(2) * 2;
    let measured_types = if plan.pawn.is_some() { plan.types.len() } else { 0 };
    let planned = if plan.pawn.is_some() { games * (1 + measured_types) } else { 0 };
    progress(0, planned);
    let offset = std::sync::atomic::AtomicUsize::new(0);
    let play = |fens: Vec<String>| -> Result<Vec<GameRecord>, String> {
        let drawn = balance::draw_games(definition, &plan.eval, &fens, 2, settings, stop)?;
        let base = offset.load(std::sync::atomic::Ordering::Relaxed);
        let records = balance::play_games(definition, &plan.eval, &drawn, settings, stop, &|done| progress(base + done, planned))?;
        offset.fetch_add(fens.len(), std::sync::atomic::Ordering::Relaxed);
        // A stopped set is not measured: a stop leaves games out, and their pairs.
        if records.len() < fens.len() { Err("stopped".into()) } else { Ok(records) }
    };
    let stopped = || stop.load(std::sync::atomic::Ordering::Relaxed);
    let name = |k: PieceType| plan.variant.registry.def(k);
    let mut out = PieceValues {
        pawn: plan.pawn.map(|k| name(k).letter),
        pawn_odds: None,
        elo_per_pawn: None,
        pieces: Vec::new(),
        strength: settings.strength.words(),
        reproducible: settings.strength.reproducible(),
    };
    if let Some(p) = plan.pawn {
        out.pieces.push(PieceValue {
            letter: name(p).letter,
            name: name(p).name.clone(),
            estimate: plan.estimate(p),
            played: Err("the unit: 1 by definition".into()),
        });
    }
    let mut odds_problem = "no pawn odds were played".to_string();
    match plan.pawn.map(|_| plan.pairs(games, &Short { pieces: vec![], pawns: PAWN_ODDS }, &Short { pieces: vec![], pawns: 0 })) {
        None => {}
        Some(Err(e)) => odds_problem = format!("no pawn odds: {e}"),
        Some(Ok(fens)) => {
            if let Ok(records) = play(fens) {
                let m = measure(&records);
                let per = PAWN_ODDS as f64;
                // Only odds that show a worth (their interval above even) give a unit: one that
                // might be nothing makes any value possible.
                if m.elo.1.0 > 0.0 {
                    out.elo_per_pawn = Some((m.elo.0 / per, (m.elo.1.0 / per, m.elo.1.1 / per)));
                } else {
                    odds_problem = format!(
                        "the pawn odds did not show a pawn's worth (score {:.2}, interval {:.2}–{:.2}): more games or nodes",
                        m.score, m.score_interval.0, m.score_interval.1
                    );
                }
                out.pawn_odds = Some(m);
            }
        }
    }
    // The types measured so far, with their values and standard errors, for compensation.
    let mut known: Vec<(PieceType, f64, f64)> = Vec::new();
    for &k in &plan.types {
        let estimate = plan.estimate(k);
        let played = (|| -> Result<Played, String> {
            let short = plan.compensation(k, &known.iter().map(|m| m.0).collect::<Vec<_>>())?;
            let fens = plan.pairs(games, &Short { pieces: vec![k], pawns: 0 }, &short)?;
            let against = words(&plan.variant, &short);
            let (per, per_interval) = out.elo_per_pawn.ok_or_else(|| odds_problem.clone())?;
            if stopped() {
                return Err("stopped".into());
            }
            let records = play(fens)?;
            let m = measure(&records);
            let (worth, worth_sigma) =
                short.pieces.first().and_then(|p| known.iter().find(|m| m.0 == *p)).map_or((0.0, 0.0), |m| (m.1, m.2));
            let (value, interval) = value_of((worth + short.pawns as f64, worth_sigma), &m, (per, per_interval));
            Ok(Played { value, interval, against, measured: m })
        })();
        if let Ok(p) = &played {
            known.push((k, p.value, sigma(p.interval)));
        }
        out.pieces.push(PieceValue { letter: name(k).letter, name: name(k).name.clone(), estimate, played });
    }
    for &k in &plan.absent {
        out.pieces.push(PieceValue {
            letter: name(k).letter,
            name: name(k).name.clone(),
            estimate: plan.estimate(k),
            played: Err("not in the start position (it comes by promotion or from a hand)".into()),
        });
    }
    Ok(out)
}

impl PieceValues {
    /// The values in words, for the command line.
    pub fn text(&self) -> String {
        let mut out = format!("piece values in pawns ({}):\n", self.strength);
        if !self.reproducible {
            out += "(a time a move: this run is not reproducible, the same seed may give other games)\n";
        }
        if let (Some(o), Some(p)) = (&self.pawn_odds, self.pawn) {
            out += &format!(
                "  pawn odds ({} pawns, {} games): the side with them scores {:.1} % ({:.1}–{:.1} %)",
                PAWN_ODDS,
                o.games,
                o.score * 100.0,
                o.score_interval.0 * 100.0,
                o.score_interval.1 * 100.0
            );
            match self.elo_per_pawn {
                Some((e, (lo, hi))) => out += &format!(", a pawn ({p}) ≈ {e:.0} Elo ({lo:.0} to {hi:.0})\n"),
                None => out += ", no pawn's worth shown\n",
            }
        }
        for piece in &self.pieces {
            out += &format!("  {} {:<12} estimate {:>5.2}", piece.letter, piece.name, piece.estimate);
            match &piece.played {
                Ok(p) => {
                    out += &format!(
                        "  played {:>5.2} ({:.2}–{:.2}), {} games against {}\n",
                        p.value, p.interval.0, p.interval.1, p.measured.games, p.against
                    );
                }
                Err(why) => out += &format!("  ({why})\n"),
            }
        }
        out
    }

    /// Every figure as JSON, for scripts.
    pub fn json(&self) -> serde_json::Value {
        let measured = |m: &Measured| {
            serde_json::json!({
                "games": m.games,
                "score": m.score,
                "score_interval": [m.score_interval.0, m.score_interval.1],
                "elo": m.elo.0,
                "elo_interval": [m.elo.1.0, m.elo.1.1],
            })
        };
        serde_json::json!({
            "strength": self.strength,
            "reproducible": self.reproducible,
            "pawn": self.pawn.map(|c| c.to_string()),
            "pawn_odds": self.pawn_odds.as_ref().map(measured),
            "elo_per_pawn": self.elo_per_pawn.map(|(e, (lo, hi))| serde_json::json!({"elo": e, "interval": [lo, hi]})),
            "pieces": self.pieces.iter().map(|p| serde_json::json!({
                "letter": p.letter.to_string(),
                "name": p.name,
                "estimate": p.estimate,
                "played": p.played.as_ref().ok().map(|v| serde_json::json!({
                    "value": v.value,
                    "interval": [v.interval.0, v.interval.1],
                    "against": v.against,
                    "games": measured(&v.measured),
                })),
                "not_played": p.played.as_ref().err(),
            })).collect::<Vec<_>>(),
        })
    }
}
