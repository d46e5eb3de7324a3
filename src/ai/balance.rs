//! The balance lab's first part (issue 35): a computer-against-computer run that measures how
//! fair a variant is, with honest statistics.
//!
//! Both sides are played by the same computer at the same fixed node count, so that a run is
//! reproducible; colours are not swapped, because White's advantage is what is measured. Each
//! game starts from its own seeded opening of a few plies, each move chosen among those a
//! shallow search scores within half a pawn of the best; the openings are drawn one after
//! another before any game is played, and an opening drawn twice is drawn again, so each is
//! used once. Games are then played on `jobs` threads, each game on its own, and gathered by
//! their number: the same seed gives the same report whatever the number of threads. A game
//! that reaches the ply cap is a draw, and is counted as capped.
//!
//! The statistics: White's score (a draw counts ½) with a 95 % interval from the per-game
//! variance; a Wilson interval for White's share of the decisive games; the first-move
//! advantage in Elo with its interval; game lengths, end reasons, decisive share and opening
//! diversity; and a verdict against a fairness band (40–60 % by default), which says "not
//! enough games to tell" when the interval straddles the band's edge.
//!
//! # Strength
//!
//! By default both sides search a fixed number of nodes a move. A level (1–8) plays with its
//! depth and its margin of error (the margin's picks seeded per game from the run's seed), its
//! time turned into nodes at a nominal 100 nodes a millisecond, so that level runs are
//! reproducible too. A fixed time a move (`--movetime`) is not: how far a search gets in that
//! time depends on the machine and its load, and the report says so.
//!
//! Piece values from play are in [`super::piece_values`]; the editor's Balance section runs
//! both on worker threads.

use std::collections::{BTreeMap, HashSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::Evaluator;
use super::search::{self, Limits, SearchMemory, Weakness};
use crate::presets::{GameDefinition, Start};
use crate::rules::{Engine, Side};

/// z for a two-sided 95 % interval.
pub(crate) const Z95: f64 = 1.959_964;

/// Nodes a millisecond that stand for a level's time a move (see the module docs).
pub const NOMINAL_NODES_PER_MS: u64 = 100;

/// How hard both sides think.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Strength {
    /// This many nodes a move (reproducible).
    Nodes(u64),
    /// A level, 1–8: its depth and margin, its time as nodes (reproducible).
    Level(u8),
    /// This many milliseconds a move (not reproducible).
    Movetime(u64),
}

impl Strength {
    /// The search limits of a move, the margin of error (centipawns) its picks allow, and
    /// among how many of the best moves it picks (0: any within the margin).
    pub fn limits(self) -> (Limits, super::Score, usize) {
        match self {
            Strength::Nodes(n) => (Limits { nodes: Some(n.max(1)), ..Limits::default() }, 0, 0),
            Strength::Level(l) => {
                let spec = super::level(l);
                let nodes = spec.movetime.as_millis() as u64 * NOMINAL_NODES_PER_MS;
                (Limits { depth: Some(spec.depth), nodes: Some(nodes), ..Limits::default() }, spec.margin, spec.choices)
            }
            Strength::Movetime(ms) => (Limits { movetime: Some(std::time::Duration::from_millis(ms.max(1))), ..Limits::default() }, 0, 0),
        }
    }

    /// Whether a seed gives the same games every time.
    pub fn reproducible(self) -> bool {
        !matches!(self, Strength::Movetime(_))
    }

    /// In words: "5000 nodes a move", "level 3", "200 ms a move".
    pub fn words(self) -> String {
        match self {
            Strength::Nodes(n) => format!("{n} nodes a move"),
            Strength::Level(l) => format!("level {}", l.clamp(1, super::MAX_LEVEL)),
            Strength::Movetime(ms) => format!("{ms} ms a move"),
        }
    }
}

/// How a run is played.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    /// Games to play.
    pub games: usize,
    /// How hard both sides think.
    pub strength: Strength,
    /// Plies of seeded opening before the computer plays.
    pub openings: usize,
    /// Worker threads.
    pub jobs: usize,
    /// The run's seed.
    pub seed: u64,
    /// A game still going after this many plies is a draw (counted as capped).
    pub ply_cap: usize,
    /// The fairness band for White's score, in per cent.
    pub band: (u8, u8),
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { games: 100, strength: Strength::Nodes(5_000), openings: 6, jobs: 1, seed: 1, ply_cap: 300, band: (40, 60) }
    }
}

/// How one game ended.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameRecord {
    /// The winner; `None`: a draw.
    pub winner: Option<Side>,
    /// Why it ended, in words (the variant's reason, or the ply cap).
    pub reason: String,
    /// Plies played, the opening's included.
    pub plies: usize,
    /// Whether the ply cap ended it.
    pub capped: bool,
    /// The opening, in UCI.
    pub opening: Vec<String>,
    /// Every move of the game, in UCI, the opening's first.
    pub moves: Vec<String>,
    /// The position (placement and side to move) after 4 and after 8 plies, when the game got
    /// that far.
    pub after: [Option<String>; 2],
}

/// A run's figures.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Report {
    /// Games played (fewer than asked when the run was stopped).
    pub games: usize,
    /// White's wins, Black's wins, draws.
    pub white_wins: usize,
    /// Black's wins.
    pub black_wins: usize,
    /// Draws (capped games included).
    pub draws: usize,
    /// Games the ply cap ended.
    pub capped: usize,
    /// White's score, a draw counting ½.
    pub score: f64,
    /// Its 95 % interval, from the per-game variance.
    pub score_interval: (f64, f64),
    /// White's share of the decisive games, with its Wilson interval (`None` without one).
    pub decisive_white: Option<(f64, (f64, f64))>,
    /// The first-move advantage in Elo, with its interval (`None` ends are unbounded).
    pub elo: (Option<f64>, (Option<f64>, Option<f64>)),
    /// Mean and median length in plies.
    pub mean_plies: f64,
    /// Median length.
    pub median_plies: f64,
    /// Each end reason, counted.
    pub reasons: BTreeMap<String, usize>,
    /// The share of decisive games.
    pub decisive_share: f64,
    /// Distinct positions after 4 and after 8 plies.
    pub distinct_after: [usize; 2],
    /// Distinct openings (fewer than the games when the game ends inside every opening).
    pub distinct_openings: usize,
    /// Distinct games, move for move.
    pub distinct_games: usize,
    /// The verdict against the band, in words.
    pub verdict: String,
    /// The strength both sides played at, in words.
    pub strength: String,
    /// Whether the same seed gives the same games (not with a time a move).
    pub reproducible: bool,
    /// Every game, by number.
    pub records: Vec<GameRecord>,
}

/// White's score and its 95 % interval from the per-game variance (normal approximation),
/// kept within 0–1; when every game ended alike, the Wilson interval of the score.
pub fn score_interval(white_wins: usize, draws: usize, black_wins: usize) -> (f64, (f64, f64)) {
    let n = (white_wins + draws + black_wins) as f64;
    if n == 0.0 {
        return (0.5, (0.0, 1.0));
    }
    let s = (white_wins as f64 + draws as f64 / 2.0) / n;
    if n < 2.0 {
        return (s, (0.0, 1.0));
    }
    let var = (white_wins as f64 * (1.0 - s).powi(2) + draws as f64 * (0.5 - s).powi(2) + black_wins as f64 * s.powi(2)) / (n - 1.0);
    // Every game alike (all won, all drawn): the sample shows no variance, and the normal
    // interval would have no width; the Wilson interval of the score says what so few games can.
    if var == 0.0 {
        let total = white_wins + draws + black_wins;
        return (s, wilson((s * total as f64).round() as usize, total));
    }
    let half = Z95 * (var / n).sqrt();
    let normal = ((s - half).max(0.0), (s + half).min(1.0));
    // Near 0 or 1 (fewer than five games' worth of score on the short side) the normal
    // approximation is too narrow: 19 wins and a draw would claim more than 20 wins. There
    // the interval is widened to the Wilson interval of the score.
    if n * s.min(1.0 - s) < 5.0 {
        let w = wilson_share(s, n);
        return (s, (normal.0.min(w.0), normal.1.max(w.1)));
    }
    (s, normal)
}

/// The Wilson 95 % interval of `k` successes in `n` trials.
pub fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    wilson_share(k as f64 / n as f64, n as f64)
}

/// The Wilson 95 % interval of a share `p` over `n` trials (a score, draws counting half).
fn wilson_share(p: f64, n: f64) -> (f64, f64) {
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The Elo difference a score stands for (`None` at 0 or 1, where it is unbounded).
pub fn elo_from_score(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10())
}

/// The verdict on a score's interval against a band.
pub fn verdict(interval: (f64, f64), band: (f64, f64)) -> String {
    let pct = |x: f64| format!("{:.0} %", x * 100.0);
    let (lo, hi) = interval;
    if lo >= band.0 && hi <= band.1 {
        format!("fair: White's score is within {}–{}", pct(band.0), pct(band.1))
    } else if lo > band.1 {
        format!("unfair: White is favoured (its score is above {})", pct(band.1))
    } else if hi < band.0 {
        format!("unfair: Black is favoured (White's score is below {})", pct(band.0))
    } else {
        format!("not enough games to tell: the interval {}–{} straddles the band's edge", pct(lo), pct(hi))
    }
}

/// "1 game", "2 games".
fn plural(n: usize, word: &str) -> String {
    if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") }
}

/// A 64-bit mix (splitmix64's finaliser), for seeds.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The opening of a game from `fen`: `plies` moves, each among those a depth-2 search (of at
/// most 4,000 nodes: drop variants branch widely) scores within half a pawn of the best, chosen
/// by the seed (fewer when the game ends first).
fn opening(
    definition: &GameDefinition,
    eval: &Evaluator,
    fen: &str,
    plies: usize,
    seed: u64,
    stop: &AtomicBool,
) -> Result<Vec<crate::rules::Move>, String> {
    let mut engine = definition.start(Start::Given(fen))?;
    let mut memory = SearchMemory::new(1);
    let limits = Limits { depth: Some(2), nodes: Some(4_000), ..Limits::default() };
    let mut moves = Vec::new();
    for ply in 0..plies {
        if engine.outcome().is_some() || stop.load(Ordering::Relaxed) {
            break;
        }
        let weakness = Weakness { margin: 50, choices: 0, seed: mix(seed ^ (ply as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) };
        let result = search::search(engine.world_mut(), eval, &mut memory, &limits, weakness, stop, |_| {});
        let Some(m) = result.best else { break };
        engine.apply(m).map_err(|e| e.to_string())?;
        moves.push(m);
    }
    Ok(moves)
}

/// The placement and side to move of a FEN.
fn position_of(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// One game to play: where it starts, its opening, and the seed of its level's picks.
pub(crate) struct Game {
    /// The start (a FEN, or `startpos`).
    pub fen: String,
    /// The opening's moves.
    pub opening: Vec<crate::rules::Move>,
    /// Seeds the margin's picks.
    pub seed: u64,
}

/// Plays a game from its opening to its end (or the cap).
fn play_game(
    definition: &GameDefinition,
    eval: &Evaluator,
    settings: &Settings,
    game: &Game,
    stop: &AtomicBool,
) -> Result<GameRecord, String> {
    let mut engine = definition.start(Start::Given(&game.fen))?;
    let start_plies = engine.move_log().0.len();
    let (limits, margin, choices) = settings.strength.limits();
    // (A small table: a few thousand nodes a move fill little of it, and a fresh one is
    // cleared for every game.)
    let mut memory = SearchMemory::new(2);
    let mut after = [None, None];
    let mut moves = Vec::new();
    let note = |engine: &mut Engine, after: &mut [Option<String>; 2]| {
        let plies = engine.move_log().0.len() - start_plies;
        if plies == 4 || plies == 8 {
            after[usize::from(plies == 8)] = Some(position_of(&engine.fen()));
        }
    };
    for &m in &game.opening {
        moves.push(engine.to_uci(&m));
        engine.apply(m).map_err(|e| e.to_string())?;
        note(&mut engine, &mut after);
    }
    let opening = moves.clone();
    let record = |winner, reason: String, capped, moves: Vec<String>, after| GameRecord {
        winner,
        reason,
        plies: moves.len(),
        capped,
        opening: opening.clone(),
        moves,
        after,
    };
    loop {
        let plies = engine.move_log().0.len() - start_plies;
        if let Some(outcome) = engine.outcome() {
            return Ok(record(outcome.winner, outcome.reason.words().to_string(), false, moves, after));
        }
        if plies >= settings.ply_cap || stop.load(Ordering::Relaxed) {
            return Ok(record(None, format!("the ply cap ({})", settings.ply_cap), true, moves, after));
        }
        let weakness = Weakness { margin, choices, seed: mix(game.seed ^ (plies as u64).wrapping_mul(0x9E37_79B9)) };
        let mut fork = engine.fork();
        let result = search::search(fork.world_mut(), eval, &mut memory, &limits, weakness, stop, |_| {});
        let Some(m) = result.best else {
            return Ok(record(None, "no move found".into(), false, moves, after));
        };
        moves.push(engine.to_uci(&m));
        engine.apply(m).map_err(|e| e.to_string())?;
        note(&mut engine, &mut after);
    }
}

/// The games of a run from the starts `fens` (one a game): each game's opening is drawn, in
/// order and before any game is played, from its start, and drawn again (up to 32 times) when
/// the same start already had it. Games come in groups of `group` (2: colour pairs) that share
/// their seeds.
pub(crate) fn draw_games(
    definition: &GameDefinition,
    eval: &Evaluator,
    fens: &[String],
    group: usize,
    settings: &Settings,
    stop: &AtomicBool,
) -> Result<Vec<Game>, String> {
    let mut games = Vec::with_capacity(fens.len());
    let mut seen = HashSet::new();
    for (number, fen) in fens.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let seed = mix(settings.seed ^ mix((number / group.max(1)) as u64 + 1));
        let mut drawn = Vec::new();
        for attempt in 0..32u64 {
            drawn = opening(definition, eval, fen, settings.openings, mix(seed ^ attempt.wrapping_mul(0xA5A5)), stop)?;
            if seen.insert((fen.clone(), drawn.clone())) {
                break;
            }
        }
        games.push(Game { fen: fen.clone(), opening: drawn, seed });
    }
    Ok(games)
}

/// Plays `games` on `settings.jobs` threads, gathered by number; `progress` hears each game
/// done (a count from 1). A stop ends the games under way, which are left out.
pub(crate) fn play_games(
    definition: &GameDefinition,
    eval: &Evaluator,
    games: &[Game],
    settings: &Settings,
    stop: &AtomicBool,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<GameRecord>, String> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let records: Mutex<Vec<Option<Result<GameRecord, String>>>> = Mutex::new(vec![None; games.len()]);
    std::thread::scope(|scope| {
        for _ in 0..settings.jobs.max(1) {
            scope.spawn(|| {
                loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let number = next.fetch_add(1, Ordering::Relaxed);
                    if number >= games.len() {
                        return;
                    }
                    let record = play_game(definition, eval, settings, &games[number], stop);
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    records.lock().expect("not poisoned")[number] = Some(record);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                }
            });
        }
    });
    records.into_inner().expect("not poisoned").into_iter().flatten().collect()
}

/// Plays a run (see the module's docs). `progress` hears the games done and the games asked
/// for after each game; `stop` ends the run after the games under way (a stopped run reports
/// the games it finished).
///
/// # Errors
/// The variant does not start.
pub fn run(
    definition: &GameDefinition,
    settings: &Settings,
    stop: &AtomicBool,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Report, String> {
    // The evaluation, computed once for the run.
    let eval = Evaluator::new(definition.start(Start::Given("startpos"))?.variant());
    let fens = vec!["startpos".to_string(); settings.games];
    let games = draw_games(definition, &eval, &fens, 1, settings, stop)?;
    let records = play_games(definition, &eval, &games, settings, stop, &|done| progress(done, settings.games))?;
    let mut report = report(records, (f64::from(settings.band.0) / 100.0, f64::from(settings.band.1) / 100.0));
    report.strength = settings.strength.words();
    report.reproducible = settings.strength.reproducible();
    Ok(report)
}

/// The figures of a run's games.
pub fn report(records: Vec<GameRecord>, band: (f64, f64)) -> Report {
    let n = records.len();
    let count = |w: Option<Side>| records.iter().filter(|r| r.winner == w).count();
    let (white_wins, black_wins, draws) = (count(Some(Side::White)), count(Some(Side::Black)), count(None));
    let (score, score_interval) = score_interval(white_wins, draws, black_wins);
    let decisive = white_wins + black_wins;
    let decisive_white = (decisive > 0).then(|| (white_wins as f64 / decisive as f64, wilson(white_wins, decisive)));
    let elo = (elo_from_score(score), (elo_from_score(score_interval.0), elo_from_score(score_interval.1)));
    let mut lengths: Vec<usize> = records.iter().map(|r| r.plies).collect();
    lengths.sort_unstable();
    let mean_plies = if n == 0 { 0.0 } else { lengths.iter().sum::<usize>() as f64 / n as f64 };
    let median_plies = match n {
        0 => 0.0,
        _ if n % 2 == 1 => lengths[n / 2] as f64,
        _ => (lengths[n / 2 - 1] + lengths[n / 2]) as f64 / 2.0,
    };
    let mut reasons = BTreeMap::new();
    for r in &records {
        *reasons.entry(r.reason.clone()).or_insert(0) += 1;
    }
    let distinct = |i: usize| records.iter().filter_map(|r| r.after[i].clone()).collect::<HashSet<_>>().len();
    Report {
        games: n,
        white_wins,
        black_wins,
        draws,
        capped: records.iter().filter(|r| r.capped).count(),
        score,
        score_interval,
        decisive_white,
        elo,
        mean_plies,
        median_plies,
        reasons,
        decisive_share: if n == 0 { 0.0 } else { decisive as f64 / n as f64 },
        distinct_after: [distinct(0), distinct(1)],
        distinct_openings: records.iter().map(|r| &r.opening).collect::<HashSet<_>>().len(),
        distinct_games: records.iter().map(|r| &r.moves).collect::<HashSet<_>>().len(),
        verdict: verdict(score_interval, band),
        strength: String::new(),
        reproducible: true,
        records,
    }
}

impl Report {
    /// The report in words, for the command line.
    pub fn text(&self) -> String {
        let pct = |x: f64| format!("{:.1} %", x * 100.0);
        let elo = |x: Option<f64>| x.map_or("unbounded".to_string(), |e| format!("{e:+.0}"));
        let mut out = if self.strength.is_empty() { String::new() } else { format!("strength: {}\n", self.strength) };
        if !self.reproducible {
            out += "(a time a move: this run is not reproducible, the same seed may give other games)\n";
        }
        out += &format!(
            "games {}: White {} wins, Black {} wins, {} draws ({} at the ply cap)\n\
             White's score {} (95 % interval {}–{})\n",
            self.games,
            self.white_wins,
            self.black_wins,
            self.draws,
            self.capped,
            pct(self.score),
            pct(self.score_interval.0),
            pct(self.score_interval.1)
        );
        if let Some((share, (lo, hi))) = self.decisive_white {
            out += &format!("White's share of decisive games {} (Wilson 95 % {}–{})\n", pct(share), pct(lo), pct(hi));
        }
        out += &format!(
            "first-move advantage {} Elo ({} to {})\n\
             length: mean {:.1} plies, median {:.1}; decisive {}\n\
             distinct: {}, {}; positions after 4 plies {}, after 8 plies {}\n",
            elo(self.elo.0),
            elo(self.elo.1.0),
            elo(self.elo.1.1),
            self.mean_plies,
            self.median_plies,
            pct(self.decisive_share),
            plural(self.distinct_openings, "opening"),
            plural(self.distinct_games, "game"),
            self.distinct_after[0],
            self.distinct_after[1]
        );
        for (reason, n) in &self.reasons {
            out += &format!("  {n} × {reason}\n");
        }
        out += &format!("verdict: {}\n", self.verdict);
        out
    }

    /// Every figure as JSON, for scripts.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "games": self.games,
            "white_wins": self.white_wins,
            "black_wins": self.black_wins,
            "draws": self.draws,
            "capped": self.capped,
            "score": self.score,
            "score_interval": [self.score_interval.0, self.score_interval.1],
            "decisive_white": self.decisive_white.map(|(s, (lo, hi))| serde_json::json!({"share": s, "wilson": [lo, hi]})),
            "elo": self.elo.0,
            "elo_interval": [self.elo.1.0, self.elo.1.1],
            "mean_plies": self.mean_plies,
            "median_plies": self.median_plies,
            "reasons": self.reasons,
            "decisive_share": self.decisive_share,
            "distinct_after_4": self.distinct_after[0],
            "distinct_after_8": self.distinct_after[1],
            "distinct_openings": self.distinct_openings,
            "distinct_games": self.distinct_games,
            "verdict": self.verdict,
            "strength": self.strength,
            "reproducible": self.reproducible,
            "games_played": self.records.iter().map(|r| serde_json::json!({
                "winner": r.winner.map(|s| s.to_string()),
                "reason": r.reason,
                "plies": r.plies,
                "capped": r.capped,
                "opening": r.opening,
                "moves": r.moves,
            })).collect::<Vec<_>>(),
        })
    }
}
