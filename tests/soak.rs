//! Soak (issue "Hardening"): random games to their end in every catalogue variant, with random
//! presets (random scope and duration), checking after every move that
//! - the move's UCI and SAN, written before it was played, read back to that move;
//! - the FEN (with Chimera's facts field) loads, in a game with the same presets, to the same
//!   FEN and the same hash;
//!
//! and at the end that taking every move back restores each position's FEN, hash and legal
//! moves, all the way to the start.
//!
//! CI plays `CHIMERA_SOAK_GAMES` games a variant (default 2) of at most `CHIMERA_SOAK_PLIES`
//! plies (default 200), seed `CHIMERA_SOAK_SEED` (by default derived
//! from the commit, see `common::seed`); `scripts/soak.sh` plays 10,000
//! games a variant to their end.

use crate::common;
use common::{Rng, random_presets};

use chimera::rules::{Board, Engine, Variant};
use chimera::variants;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

fn hash(e: &Engine) -> u64 {
    e.world().resource::<Board>().hash
}

fn legal_uci(e: &mut Engine) -> Vec<String> {
    let mut moves: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).collect();
    moves.sort();
    moves
}

/// Plays one game; returns its length in plies.
fn soak_game(rng: &mut Rng, variant: &Variant, max_plies: u64, context: &str) -> usize {
    let (v, presets) = random_presets(rng, variant);
    let context = format!("{context}, presets [{presets}]");
    // A panic inside the engine is reported with the game that caused it.
    let played = std::cell::RefCell::new(Vec::new());
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| play_and_check(rng, &v, &presets, max_plies, &context, &played)));
    run.unwrap_or_else(|e| {
        let why = e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
        panic!("{context}, after {:?}: {why}", played.borrow())
    })
}

fn play_and_check(
    rng: &mut Rng,
    v: &Variant,
    presets: &str,
    max_plies: u64,
    context: &str,
    log: &std::cell::RefCell<Vec<String>>,
) -> usize {
    let mut e = chimera::presets::new_game(v.clone(), "startpos").unwrap_or_else(|err| panic!("{context}: {err}"));
    let mut seen = vec![(e.fen(), hash(&e), legal_uci(&mut e))];
    let mut played: Vec<String> = Vec::new();
    while (played.len() as u64) < max_plies {
        let moves = e.legal_moves();
        if moves.is_empty() || e.outcome().is_some() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        let (uci, san) = (e.to_uci(&m), e.to_san(&m));
        let at = format!("{context}, after {played:?}");
        assert_eq!(e.parse_uci(&uci).as_ref(), Ok(&m), "{at}: UCI {uci}");
        assert_eq!(e.parse_san(&san).as_ref(), Ok(&m), "{at}: SAN {san}");
        log.borrow_mut().push(uci.clone());
        e.apply(m).unwrap_or_else(|err| panic!("{at}: legal {uci} refused: {err}"));
        played.push(uci);
        let fen = e.fen();
        let mut again = chimera::presets::new_game(v.clone(), &fen)
            .unwrap_or_else(|err| panic!("{context}, after {played:?}: {fen} does not load: {err}"));
        assert_eq!(again.fen(), fen, "{context}, after {played:?}");
        assert_eq!(hash(&again), hash(&e), "{context}, after {played:?}: {fen} loads to another hash");
        // The legal moves are compared on reload now and then (they cost a generation each).
        let legal = legal_uci(&mut e);
        if rng.below(8) == 0 {
            assert_eq!(legal_uci(&mut again), legal, "{context}, after {played:?}: {fen} reloads with other legal moves");
        }
        seen.push((fen, hash(&e), legal));
    }
    let plies = played.len();
    // (A preset may end a game before its first move: Racing Kings with a wrapped board puts
    // the kings side by side across the edge.)
    assert!(plies > 0 || !presets.is_empty(), "{context}: the game ended before its first move ({:?})", e.outcome());
    seen.pop();
    while let Some((fen, h, legal)) = seen.pop() {
        let m = e.undo().unwrap_or_else(|| panic!("{context}: nothing to take back at ply {}", seen.len() + 1));
        let at = format!("{context}, taking back {} (ply {})", e.to_uci(&m), seen.len() + 1);
        assert_eq!(e.fen(), fen, "{at}");
        assert_eq!(hash(&e), h, "{at}");
        assert_eq!(legal_uci(&mut e), legal, "{at}");
    }
    assert!(e.undo().is_none(), "{context}: more to take back than was played");
    plies
}

#[test]
fn random_games_in_every_variant_reload_and_undo_exactly() {
    let (games, max_plies, seed) =
        (env("CHIMERA_SOAK_GAMES", 2), env("CHIMERA_SOAK_PLIES", 200), common::seed("CHIMERA_SOAK_SEED", "soak"));
    let only = std::env::var("CHIMERA_SOAK_VARIANT").ok();
    let catalogue: Vec<&str> = variants::builtin_ids().collect();
    if let Some(id) = &only {
        assert!(catalogue.contains(&id.as_str()), "CHIMERA_SOAK_VARIANT={id}: no built-in variant has that id");
    }
    let mut total = 0;
    let mut variants_played = 0;
    for id in variants::builtin_ids().filter(|id| only.as_deref().is_none_or(|o| o == *id)) {
        let variant = variants::builtin(id).unwrap_or_else(|e| panic!("{id}: {e}"));
        let mut plies = 0;
        for game in 0..games {
            // Each game's own generator, so that one game replays alone (CHIMERA_SOAK_VARIANT).
            let mut rng = Rng(seed ^ common::salt(id) ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            plies += soak_game(&mut rng, &variant, max_plies, &format!("{id}, seed {seed}, game {game}"));
        }
        total += plies;
        variants_played += 1;
        if games > 1 {
            println!("soak {id}: {games} games, {plies} plies");
        }
    }
    println!("soak: {variants_played} variants, {games} games each, {total} plies, seed {seed}");
    let expected = if only.is_some() { 1 } else { catalogue.len() as u64 };
    assert_eq!(variants_played, expected, "every variant asked for is played");
    assert!(total as u64 >= variants_played * games * 10, "{total} plies: the games were too short to test much");
}
