//! The balance lab (issue 35): its statistics against known values and a simulation of their
//! coverage, and a seeded run that gives the same report whatever the number of threads.

use std::sync::atomic::AtomicBool;

use chimera::ai::balance::{self, Settings, elo_from_score, score_interval, verdict, wilson};
use chimera::presets::GameDefinition;

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
    let settings = Settings { games: 4, nodes: 150, openings: 4, jobs: 1, seed: 7, ply_cap: 60, ..Settings::default() };
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
    assert_eq!(one.reasons.values().sum::<usize>(), 4);
    assert!(!one.verdict.is_empty());
    let json = one.json();
    for key in
        ["games", "score", "score_interval", "elo", "elo_interval", "mean_plies", "median_plies", "reasons", "decisive_share", "verdict"]
    {
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
    let settings = Settings { games: 2, nodes: 100, openings: 2, jobs: 2, seed: 3, ply_cap: 24, ..Settings::default() };
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
        ran += 1;
    }
    assert!(ran >= 100, "{ran}");
}
