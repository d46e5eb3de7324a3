//! Undo restores every fact exactly: random games played forward and taken back compare
//! equal, entity for entity, at every ply.

use bevy::prelude::*;
use chimera::rules::{Board, Engine, GameState, History, Location, MoveLog, Owner, PieceType, Variant};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

#[derive(Debug, PartialEq)]
struct Snapshot {
    fen: String,
    state: GameState,
    hash: u64,
    pieces: Vec<(Entity, PieceType, Owner, Location)>,
    history: usize,
    log: usize,
}

fn snapshot(e: &mut Engine) -> Snapshot {
    let fen = e.fen();
    let world = e.world_mut();
    let mut pieces: Vec<_> =
        world.query::<(Entity, &PieceType, &Owner, &Location)>().iter(world).map(|(a, b, c, d)| (a, *b, *c, *d)).collect();
    pieces.sort_by_key(|p| p.0);
    Snapshot {
        fen,
        state: *world.resource::<GameState>(),
        hash: world.resource::<Board>().hash,
        pieces,
        history: world.resource::<History>().0.len(),
        log: world.resource::<MoveLog>().0.len(),
    }
}

#[test]
fn random_games_undo_exactly() {
    for (seed, fen) in [
        (1u64, "startpos"),
        (2, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        (3, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
        (4, "startpos"),
    ] {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut e = Engine::from_fen(Variant::chess(), fen).unwrap();
        let mut snapshots = vec![snapshot(&mut e)];
        for _ in 0..150 {
            let moves = e.legal_moves();
            if moves.is_empty() || e.outcome().is_some() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            e.apply(m).unwrap();
            snapshots.push(snapshot(&mut e));
        }
        assert!(snapshots.len() > 20, "seed {seed}: the game was too short to test");
        while snapshots.len() > 1 {
            snapshots.pop();
            assert!(e.undo().is_some());
            assert_eq!(&snapshot(&mut e), snapshots.last().unwrap(), "seed {seed}");
        }
        assert_eq!(e.undo(), None, "nothing left to undo");
    }
}

#[test]
fn random_crazyhouse_games_undo_exactly() {
    // Drops, captures into the hand and demotion of promoted pieces are undone too.
    for seed in [11u64, 12, 13] {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut e = Engine::new(chimera::variants::builtin("crazyhouse").unwrap());
        let mut snapshots = vec![snapshot(&mut e)];
        for _ in 0..200 {
            let moves = e.legal_moves();
            if moves.is_empty() || e.outcome().is_some() {
                break;
            }
            // Prefer drops and captures so that hands fill and empty.
            let interesting: Vec<_> = moves.iter().filter(|m| m.capture || m.dropped().is_some()).copied().collect();
            let pool = if !interesting.is_empty() && rng.random_bool(0.7) { interesting } else { moves };
            e.apply(pool[rng.random_range(0..pool.len())]).unwrap();
            snapshots.push(snapshot(&mut e));
        }
        assert!(snapshots.len() > 40, "seed {seed}: too short");
        while snapshots.len() > 1 {
            snapshots.pop();
            e.undo();
            assert_eq!(&snapshot(&mut e), snapshots.last().unwrap(), "seed {seed}");
        }
    }
}

#[test]
fn the_board_index_mirrors_the_components() {
    let mut rng = StdRng::seed_from_u64(9);
    let mut e = Engine::new(Variant::chess());
    for _ in 0..80 {
        let moves = e.legal_moves();
        if moves.is_empty() {
            break;
        }
        e.apply(moves[rng.random_range(0..moves.len())]).unwrap();
        let world = e.world_mut();
        let pieces: Vec<_> =
            world.query::<(Entity, &PieceType, &Owner, &Location)>().iter(world).map(|(a, b, c, d)| (a, *b, *c, *d)).collect();
        let board = world.resource::<Board>();
        let on_board = pieces.iter().filter(|p| p.3.square().is_some()).count();
        assert_eq!(on_board, board.cells.iter().filter(|c| c.is_piece()).count());
        for (entity, kind, owner, loc) in pieces {
            if let Some(sq) = loc.square() {
                assert_eq!(board.entity(sq), Some(entity));
                assert_eq!(board.cell(sq).kind(), kind);
                assert_eq!(board.cell(sq).side(), owner.0);
            }
        }
    }
}
