//! The balance lab (issue 35): its statistics against known values and a simulation of their
//! coverage, and a seeded run that gives the same report whatever the number of threads.

use std::sync::atomic::AtomicBool;

use chimera::ai::balance::{self, Settings, elo_from_score, score_interval, verdict, wilson};
use chimera::ai::piece_values;
use chimera::presets::GameDefinition;
use chimera::rules::Side;

use crate::common::Rng;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 5e-4
}

#[test]
fn statistics_match_known_values() {
    // Wilson: 8 of 10 gives 0.4902–0.9433 (the textbook figures at z = 1.96).
    let (lo, hi) = wilson(8, 10);
    assert!(close(lo, 0.4902) && close(hi, 0.9433), "{lo} {hi}");
    let (lo, hi) = wilson(0, 10);
    assert!(close(lo, 0.0) && close(hi, 0.2775), "{lo} {hi}");
    // Elo from score: 0.64 is +100 (to a rounding), 0.5 is 0, 0.24 is −200; 1 is unbounded.
    assert!((elo_from_score(0.64).unwrap() - 99.95).abs() < 0.1);
    assert!(close(elo_from_score(0.5).unwrap(), 0.0));
    assert!((elo_from_score(0.24).unwrap() + 200.0).abs() < 1.0);
    assert_eq!(elo_from_score(1.0), None);
    // The score's interval from the per-game variance: 60 wins, 20 draws, 20 losses: 0.7 ±
    // 1.96 × sqrt(var / 100), var = (60·0.09 + 20·0.04 + 20·0.49) / 99 = 0.16162.
    let (s, (lo, hi)) = score_interval(60, 20, 20);
    let half = 1.959_964 * (0.161_616_f64 / 100.0).sqrt();
    assert!(close(s, 0.7) && close(lo, 0.7 - half) && close(hi, 0.7 + half), "{s} {lo} {hi}");
    // Every game won: no variance to go by, so the Wilson interval (20 of 20: 0.8389–1).
    let (s, (lo, hi)) = score_interval(20, 0, 0);
    assert!(close(s, 1.0) && close(lo, 0.8389) && close(hi, 1.0), "{s} {lo} {hi}");
    // Near the end the interval is at least the score's Wilson interval: 19 wins and a draw
    // reach lower than 20 wins, not higher as the bare normal approximation would.
    let (_, (lo19, hi19)) = score_interval(19, 1, 0);
    assert!(lo19 < lo && hi19 == 1.0, "{lo19} {lo}");
    let (_, (lo1, _)) = score_interval(1, 1, 18);
    assert!(lo1 == 0.0, "{lo1}");
    // Verdicts.
    assert!(verdict((0.45, 0.55), (0.4, 0.6)).starts_with("fair"));
    assert!(verdict((0.85, 0.95), (0.4, 0.6)).starts_with("unfair: White"));
    assert!(verdict((0.05, 0.3), (0.4, 0.6)).starts_with("unfair: Black"));
    assert!(verdict((0.5, 0.7), (0.4, 0.6)).starts_with("not enough games"));
}

/// 1,000 simulated runs of 200 games from known win, draw and loss rates: the 95 % interval
/// holds the true score 93–97 % of the time.
#[test]
fn the_score_interval_covers_the_true_score() {
    let mut rng = Rng(0xBA1A_17CE);
    for (win, draw) in [(0.40, 0.30), (0.55, 0.10), (0.30, 0.60)] {
        let truth = win + draw / 2.0;
        let mut covered = 0;
        for _ in 0..1000 {
            let (mut w, mut d, mut l) = (0, 0, 0);
            for _ in 0..200 {
                let x = rng.next() as f64 / u64::MAX as f64;
                if x < win {
                    w += 1;
                } else if x < win + draw {
                    d += 1;
                } else {
                    l += 1;
                }
            }
            let (_, (lo, hi)) = score_interval(w, d, l);
            covered += usize::from(lo <= truth && truth <= hi);
        }
        assert!((930..=970).contains(&covered), "win {win}, draw {draw}: covered {covered} of 1000");
    }
}

/// A seeded run gives the same games on one thread and on two, every game counted once, and
/// every figure of the report filled in.
#[test]
fn a_seeded_run_is_reproducible_whatever_the_threads() {
    let definition = GameDefinition::new(chimera::variants::builtin("chess").unwrap()).unwrap();
    let settings =
        Settings { games: 4, strength: balance::Strength::Nodes(150), openings: 4, jobs: 1, seed: 7, ply_cap: 60, ..Settings::default() };
    let stop = AtomicBool::new(false);
    let one = balance::run(&definition, &settings, &stop, &|_, _| {}).unwrap();
    let two = balance::run(&definition, &Settings { jobs: 2, ..settings.clone() }, &stop, &|_, _| {}).unwrap();
    assert_eq!(one, two);
    assert_eq!(one.games, 4);
    assert_eq!(one.white_wins + one.black_wins + one.draws, 4);
    let openings: std::collections::HashSet<_> = one.records.iter().map(|r| r.opening.clone()).collect();
    assert_eq!(openings.len(), 4, "each opening is used once");
    assert!(one.records.iter().all(|r| r.opening.len() == 4 && r.plies >= 4));
    assert_eq!(
        one.distinct_after[0],
        one.records.iter().filter_map(|r| r.after[0].clone()).collect::<std::collections::HashSet<_>>().len()
    );
    assert!(one.distinct_after[0] >= 1);
    assert_eq!((one.distinct_openings, one.distinct_games), (4, 4));
    assert!(one.records.iter().all(|r| r.moves.len() == r.plies && r.moves.starts_with(&r.opening)));
    assert_eq!(one.reasons.values().sum::<usize>(), 4);
    assert!(!one.verdict.is_empty());
    let json = one.json();
    for key in [
        "games",
        "score",
        "score_interval",
        "elo",
        "elo_interval",
        "mean_plies",
        "median_plies",
        "reasons",
        "decisive_share",
        "distinct_openings",
        "distinct_games",
        "verdict",
    ] {
        assert!(json.get(key).is_some(), "{key}");
    }
    // Another seed, other openings.
    let other = balance::run(&definition, &Settings { seed: 8, ..settings }, &stop, &|_, _| {}).unwrap();
    assert_ne!(other.records.iter().map(|r| &r.opening).collect::<Vec<_>>(), one.records.iter().map(|r| &r.opening).collect::<Vec<_>>());
}

/// Every catalogue variant runs a balance: 2 games at 100 nodes a move (capped at 24 plies to
/// keep CI short), every figure of the report filled in.
#[test]
fn every_catalogue_variant_runs_a_balance() {
    let settings =
        Settings { games: 2, strength: balance::Strength::Nodes(100), openings: 2, jobs: 2, seed: 3, ply_cap: 24, ..Settings::default() };
    let stop = AtomicBool::new(false);
    let mut ran = 0;
    for id in chimera::variants::builtin_ids() {
        let definition = GameDefinition::new(chimera::variants::builtin(id).unwrap()).unwrap_or_else(|e| panic!("{id}: {e}"));
        let r = balance::run(&definition, &settings, &stop, &|_, _| {}).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(r.games, 2, "{id}");
        assert_eq!(r.white_wins + r.black_wins + r.draws, 2, "{id}");
        assert_eq!(r.reasons.values().sum::<usize>(), 2, "{id}");
        assert!(r.capped <= r.draws, "{id}");
        assert!((0.0..=1.0).contains(&r.score) && r.score_interval.0 <= r.score && r.score <= r.score_interval.1, "{id}: {r:?}");
        assert!(r.mean_plies >= 1.0 && r.median_plies >= 1.0, "{id}");
        assert!((0.0..=1.0).contains(&r.decisive_share), "{id}");
        assert_eq!(r.decisive_white.is_some(), r.white_wins + r.black_wins > 0, "{id}");
        assert!(r.records.iter().all(|g| g.plies <= 24 && !g.reason.is_empty()), "{id}");
        assert!(!r.verdict.is_empty(), "{id}");
        // The Elo follows the score; the distinct counts, the games.
        let elo = |s: f64| chimera::ai::balance::elo_from_score(s);
        assert_eq!((r.elo.0, r.elo.1), (elo(r.score), (elo(r.score_interval.0), elo(r.score_interval.1))), "{id}");
        assert!((1..=2).contains(&r.distinct_openings) && (1..=2).contains(&r.distinct_games), "{id}");
        assert!(r.distinct_after.iter().all(|&d| d <= 2), "{id}");
        assert!(r.records.iter().all(|g| g.moves.len() == g.plies && g.moves.starts_with(&g.opening)), "{id}");
        let json = r.json();
        assert_eq!(json["games_played"].as_array().map(Vec::len), Some(2), "{id}");
        assert_eq!(json["reproducible"], true, "{id}");
        ran += 1;
    }
    assert!(ran >= 100, "{ran}");
}

/// The starts of the imbalance games in chess: the pawn odds take the a- and h-pawns; a knight
/// or a bishop is played against three pawns, a rook against a bishop and two pawns, a queen
/// against a rook and four (the estimates: 3.02, 3.11, 4.86, 8.90); the piece nearest the
/// a-file goes, castling rights with a rook; each pair swaps colours.
#[test]
fn piece_value_games_start_from_the_right_imbalances() {
    let definition = GameDefinition::new(chimera::variants::builtin("chess").unwrap()).unwrap();
    let plan = piece_values::Plan::new(&definition).unwrap();
    let starts = plan.starts();
    let find = |what: &str| starts.iter().find(|(w, _)| w == what).unwrap_or_else(|| panic!("{what}")).1.clone().unwrap();
    assert_eq!(
        find("pawn odds"),
        [
            "rnbqkbnr/pppppppp/8/8/8/8/1PPPPPP1/RNBQKBNR w KQkq - 0 1".to_string(),
            "rnbqkbnr/1pppppp1/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string()
        ]
    );
    assert_eq!(find("N")[0], "rnbqkbnr/2ppppp1/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1");
    assert_eq!(find("B")[0], "rnbqkbnr/2ppppp1/8/8/8/8/PPPPPPPP/RN1QKBNR w KQkq - 0 1");
    assert_eq!(find("R")[0], "rn1qkbnr/1pppppp1/8/8/8/8/PPPPPPPP/1NBQKBNR w Kkq - 0 1");
    assert_eq!(
        find("Q"),
        [
            "1nbqkbnr/2pppp2/8/8/8/8/PPPPPPPP/RNB1KBNR w KQk - 0 1".to_string(),
            "rnb1kbnr/pppppppp/8/8/8/8/2PPPP2/1NBQKBNR w Kkq - 0 1".to_string()
        ]
    );
    assert_eq!(starts.iter().map(|(w, _)| w.as_str()).collect::<Vec<_>>(), ["pawn odds", "N", "B", "R", "Q"]);
}

/// Every catalogue variant's imbalance starts are positions the variant starts from, or say
/// why a piece cannot be measured.
#[test]
fn every_catalogue_variant_has_imbalance_starts() {
    let (mut playable, mut refused) = (0, Vec::new());
    for id in chimera::variants::builtin_ids() {
        let definition = GameDefinition::new(chimera::variants::builtin(id).unwrap()).unwrap();
        let plan = piece_values::Plan::new(&definition).unwrap_or_else(|e| panic!("{id}: {e}"));
        for (what, start) in plan.starts() {
            match start {
                Ok(fens) => {
                    for fen in &fens {
                        definition.start(chimera::presets::Start::Given(fen)).unwrap_or_else(|e| panic!("{id} {what}: {fen}: {e}"));
                    }
                    playable += 1;
                }
                Err(why) => {
                    assert!(!why.is_empty());
                    refused.push(format!("{id} {what}: {why}"));
                }
            }
        }
    }
    // Refused only where the armies differ, where there are not two pawns to count in, or
    // where pieces wait in gate rows beyond the board (Musketeer).
    let understood = |r: &String| r.contains("to take") || r.contains("two pawns") || r.contains("gate rows");
    assert!(refused.iter().all(understood), "{refused:#?}");
    assert!(playable >= 350 && refused.len() * 10 < playable, "{playable} playable, refused: {refused:#?}");
}

/// The score of the side that keeps the material follows the colours in pairs, and a value
/// comes from the compensation, the Elo and the Elo of a pawn.
#[test]
fn piece_values_count_the_side_that_keeps_the_piece() {
    let game = |winner| balance::GameRecord {
        winner,
        reason: "checkmate".into(),
        plies: 40,
        capped: false,
        opening: vec![],
        moves: vec![],
        after: [None, None],
    };
    // Even games White is short (Black keeps the piece), odd games Black is.
    let m = piece_values::measure(&[game(Some(Side::Black)), game(None), game(Some(Side::White)), game(Some(Side::White))]);
    assert_eq!(m.games, 4);
    assert!((m.score - 0.625).abs() < 1e-12, "{m:?}");
    assert!(m.elo.0 > 0.0 && m.elo.1.0 < m.elo.0 && m.elo.0 < m.elo.1.1);
    // An even score against three pawns: three pawns, give or take the score's interval in
    // pawns (50 Elo each).
    let even = piece_values::Measured { games: 100, score: 0.5, score_interval: (0.43, 0.57), elo: (0.0, (-50.0, 50.0)) };
    let (v, (lo, hi)) = piece_values::value_of((3.0, 0.0), &even, (50.0, (30.0, 70.0)));
    assert!((v - 3.0).abs() < 1e-12);
    assert!((lo - 2.0).abs() < 1e-9 && (hi - 4.0).abs() < 1e-9, "{lo} {hi}");
    // 100 Elo ahead is two pawns more; the pawn's own uncertainty widens the interval.
    let ahead = piece_values::Measured { elo: (100.0, (50.0, 150.0)), ..even };
    let (v, (lo, hi)) = piece_values::value_of((3.0, 0.0), &ahead, (50.0, (30.0, 70.0)));
    assert!((v - 5.0).abs() < 1e-12);
    assert!(hi - lo > 2.0 * 1.0 + 0.5, "{lo} {hi}");
}

/// A short run of piece values in chess: every type listed, the pawn first, each measured
/// with its games or saying why not.
#[test]
fn a_piece_value_run_lists_every_type() {
    let definition = GameDefinition::new(chimera::variants::builtin("chess").unwrap()).unwrap();
    let settings =
        Settings { games: 2, strength: balance::Strength::Nodes(100), openings: 2, jobs: 2, seed: 5, ply_cap: 30, ..Settings::default() };
    let stop = AtomicBool::new(false);
    let v = piece_values::measure_values(&definition, &settings, &stop, &|_, _| {}).unwrap();
    assert_eq!(v.pawn, Some('P'));
    assert_eq!(v.pieces.iter().map(|p| p.letter).collect::<String>(), "PNBRQ");
    assert_eq!(v.pawn_odds.as_ref().unwrap().games, 2);
    for p in &v.pieces[1..] {
        assert!(p.estimate > 2.0, "{p:?}");
        match &p.played {
            Ok(played) => {
                assert_eq!(played.measured.games, 2);
                assert!(played.interval.0 <= played.value && played.value <= played.interval.1);
            }
            Err(why) => assert!(why.contains("pawn"), "{why}"),
        }
    }
    let json = v.json();
    assert_eq!(json["pieces"].as_array().unwrap().len(), 5);
    assert!(v.text().contains("queen"));
}

/// `chimera balance` runs a preset combination, a variant file and a Fairy-Stockfish ini
/// section, fairness and piece values, and a level run is reproducible on any number of threads.
#[test]
fn balance_runs_presets_files_ini_sections_and_levels() {
    let settings =
        Settings { games: 2, strength: balance::Strength::Nodes(100), openings: 2, jobs: 1, seed: 4, ply_cap: 24, ..Settings::default() };
    let presets = ["piece-hp".to_string(), "piece-shield".to_string()];
    for (variant, presets) in
        [("chess", &presets[..]), ("rule-examples/pawn-domino.ron", &[][..]), ("tests/data/orda.ini:ordamirror", &[][..])]
    {
        let mut out = Vec::new();
        chimera::cli::run_balance(variant, presets, &settings, true, false, &mut out).unwrap_or_else(|e| panic!("{variant}: {e}"));
        let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(json["games"], 2, "{variant}");
        assert_eq!(json["strength"], "100 nodes a move");
        let mut out = Vec::new();
        chimera::cli::run_balance(variant, presets, &settings, false, true, &mut out).unwrap_or_else(|e| panic!("{variant}: {e}"));
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("piece values in pawns (100 nodes a move)"), "{variant}: {text}");
    }
    // A level's picks are seeded by the run: the same games on one thread and two.
    let definition = GameDefinition::new(chimera::variants::builtin("chess").unwrap()).unwrap();
    let level = Settings { strength: balance::Strength::Level(2), games: 4, ply_cap: 40, ..settings };
    let stop = AtomicBool::new(false);
    let one = balance::run(&definition, &level, &stop, &|_, _| {}).unwrap();
    let two = balance::run(&definition, &Settings { jobs: 2, ..level }, &stop, &|_, _| {}).unwrap();
    assert_eq!(one, two);
    assert_eq!((one.strength.as_str(), one.reproducible), ("level 2", true));
}
