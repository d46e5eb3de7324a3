//! Seeded fuzzing of every parser a player's input reaches, and of the engine behind them
//! (issue "Hardening"): FEN, Betza, variant files, PGN, UCI and SAN moves, preset lists.
//!
//! Each target mutates valid inputs (every catalogue variant's start and positions of random
//! games, the catalogue's files and Betza strings, PGN of random games) with character edits
//! and "interesting" tokens (huge and negative numbers, brackets, promotion marks), and checks
//! a property beyond "no panic": an accepted FEN writes back to a FEN that loads to the same
//! FEN and hash and plays a move and takes it back exactly; a parsed move is one of the legal
//! moves; a compiled variant file starts a game that plays.
//!
//! CI runs a sample (`CHIMERA_FUZZ_CASES`, default 400 a target) with a seed derived from the
//! commit (`CHIMERA_FUZZ_SEED` replays one; see `common::seed`). `scripts/fuzz.sh` runs a million inputs a target. A
//! failing input is printed with its target, seed and case number, so it can be replayed.

use crate::common;
use common::Rng;

use std::panic::{AssertUnwindSafe, catch_unwind};

use chimera::pgn::{parse_pgn, replay, write_pgn};
use chimera::rules::{Board, Engine, Variant, atom_set, parse_betza, write_betza};
use chimera::variants::{self, compile, parse_variant_file, resolve};

fn cases() -> usize {
    std::env::var("CHIMERA_FUZZ_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(400)
}

fn seed() -> u64 {
    common::seed("CHIMERA_FUZZ_SEED", "fuzz")
}

/// Tokens that broke parsers before, or sit on a limit.
const TOKENS: &[&str] = &[
    "0",
    "1",
    "-1",
    "9",
    "10",
    "16",
    "17",
    "99",
    "255",
    "256",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999",
    "1e309",
    "NaN",
    "inf",
    "+",
    "~",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    "/",
    "-",
    "@",
    "=",
    "*",
    ",",
    ";",
    "\"",
    "\\",
    " ",
    "\n",
    "\u{0}",
    "é",
    "\u{202e}",
    "KQkq",
    "+3+3",
    "0+0",
    "{Hp=e1:9}",
    "{state=x:1}",
    "a1",
    "p16",
    "z99",
];

/// One to four edits of `text`: a character from `alphabet` inserted or replacing one, a
/// span deleted, duplicated or moved, a token inserted, the text cut short.
fn mutate(rng: &mut Rng, text: &str, alphabet: &[char]) -> String {
    let mut s: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(s.len() + 1);
        match rng.below(8) {
            0 => s.insert(at, *rng.pick(alphabet)),
            1 if at < s.len() => s[at] = *rng.pick(alphabet),
            2 => {
                let end = (at + 1 + rng.below(4)).min(s.len());
                s.drain(at.min(end)..end);
            }
            3 => {
                let end = (at + 1 + rng.below(8)).min(s.len());
                let span: Vec<char> = s[at.min(end)..end].to_vec();
                let to = rng.below(s.len() + 1);
                s.splice(to..to, span);
            }
            4 | 5 => {
                let token: Vec<char> = rng.pick(TOKENS).chars().collect();
                s.splice(at..at, token);
            }
            6 if at < s.len() => {
                let token: Vec<char> = rng.pick(TOKENS).chars().collect();
                let end = (at + 1 + rng.below(3)).min(s.len());
                s.splice(at..end, token);
            }
            _ => s.truncate(at),
        }
    }
    s.into_iter().collect()
}

/// Runs `cases` cases of a target; a panic is reported with the input that caused it.
fn run(target: &str, mut case: impl FnMut(&mut Rng) -> String) {
    let (n, seed) = (cases(), seed());
    let started = std::time::Instant::now();
    let mut rng = Rng(seed ^ common::salt(target));
    let mut last = String::new();
    for i in 0..n {
        let outcome = catch_unwind(AssertUnwindSafe(|| case(&mut rng)));
        match outcome {
            Ok(input) => last = input,
            Err(e) => {
                let why = e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()));
                panic!("fuzz target {target}, seed {seed}, case {i} (after input {last:?}): {}", why.unwrap_or_default());
            }
        }
    }
    println!("fuzz {target}: {n} inputs, seed {seed}, no failure ({:.0} s)", started.elapsed().as_secs_f64());
}

fn catalogue() -> Vec<Variant> {
    variants::builtin_ids().map(|id| variants::builtin(id).unwrap_or_else(|e| panic!("{id}: {e}"))).collect()
}

/// Positions of random games in `variant`: its start and a few plies on.
fn positions(rng: &mut Rng, variant: &Variant, games: usize) -> Vec<String> {
    let mut out = vec![variant.start_fen.clone()];
    for _ in 0..games {
        let mut e = Engine::new(variant.clone());
        for _ in 0..rng.below(60) {
            let moves = e.legal_moves();
            if moves.is_empty() || e.outcome().is_some() {
                break;
            }
            e.apply(moves[rng.below(moves.len())]).expect("a legal move applies");
        }
        out.push(e.fen());
    }
    out
}

fn hash(e: &Engine) -> u64 {
    e.world().resource::<Board>().hash
}

const FEN_CHARS: &str = "0123456789/ +-~[]{}=:;,@wbKQRBNPkqrbnpACEGHJLMSTUVWXYZacdeghijlmostuvxyz";

#[test]
fn fen() {
    let variants = catalogue();
    let mut setup_rng = Rng(seed());
    let pool: Vec<(usize, String)> =
        variants.iter().enumerate().flat_map(|(i, v)| positions(&mut setup_rng, v, 3).into_iter().map(move |f| (i, f))).collect();
    let alphabet: Vec<char> = FEN_CHARS.chars().collect();
    let mut accepted = 0;
    run("fen", |rng| {
        let (i, seed_fen) = rng.pick(&pool).clone();
        // Now and then a FEN of another variant: board size and letters do not match.
        let text = if rng.below(10) == 0 { rng.pick(&pool).1.clone() } else { mutate(rng, &seed_fen, &alphabet) };
        let variant = &variants[i];
        if let Ok(mut e) = Engine::from_fen(variant.clone(), &text) {
            accepted += 1;
            let written = e.fen();
            let mut again = Engine::from_fen(variant.clone(), &written)
                .unwrap_or_else(|err| panic!("{}: {text:?} loaded, but its FEN {written:?} does not: {err}", variant.id));
            assert_eq!(again.fen(), written, "{}: {text:?}", variant.id);
            assert_eq!(hash(&again), hash(&e), "{}: {text:?} and {written:?} hash differently", variant.id);
            // (Legal moves are the generator's; a game already over, by the fifty-move rule say,
            // refuses them.)
            let moves = e.legal_moves();
            if !moves.is_empty() && e.outcome().is_none() {
                let m = moves[rng.below(moves.len())];
                e.apply(m).unwrap_or_else(|err| panic!("{}: {written}: legal {m:?} refused: {err}", variant.id));
                let _ = e.fen();
                e.undo();
                assert_eq!(e.fen(), written, "{}: undo after {}", variant.id, e.to_uci(&m));
                assert_eq!(hash(&e), hash(&again));
            }
        }
        text
    });
    // The edits are small enough that some mutated FENs still load: the round trip was tested.
    assert!(accepted * 100 >= cases(), "only {accepted} of {} mutated FENs loaded", cases());
}

const BETZA_CHARS: &str = "WFDNAHCZGLJKQRBSOmcnjflrvsbhiapgxyzdeu0123456789()[]-.,' ";

#[test]
fn betza() {
    let chess = variants::builtin_file("chess").expect("chess");
    let mut seeds: Vec<String> =
        variants::builtin_ids().filter_map(variants::builtin_file).flat_map(|f| f.pieces.unwrap_or_default()).map(|p| p.betza).collect();
    seeds.retain(|b| !b.is_empty());
    let alphabet: Vec<char> = BETZA_CHARS.chars().collect();
    let mut compiled = 0;
    let mut round_trips = 0;
    run("betza", |rng| {
        let text = if rng.below(5) == 0 {
            (0..1 + rng.below(10)).map(|_| *rng.pick(&alphabet)).collect()
        } else {
            {
                let seed = rng.pick(&seeds).clone();
                mutate(rng, &seed, &alphabet)
            }
        };
        // What reads writes back to a text that reads as the same moves.
        let atoms = parse_betza(&text).ok();
        if let Some(atoms) = &atoms {
            let written = write_betza(atoms);
            let back = parse_betza(&written).unwrap_or_else(|e| panic!("{text:?} was written as {written:?}, which does not read: {e}"));
            assert_eq!(atom_set(&back), atom_set(atoms), "{text:?} was written as {written:?}");
            round_trips += 1;
        }
        if atoms.is_some() && rng.below(4) == 0 {
            // The knight moves as the text says: the variant compiles or names the problem, and
            // a game with it plays.
            let mut file = chess.clone();
            file.id = "fuzz".into();
            if let Some(pieces) = file.pieces.as_mut() {
                for p in pieces.iter_mut().filter(|p| p.letter == 'N') {
                    p.betza = text.clone();
                }
            }
            // As the loader does: compiled, then started (a start position the new moves make
            // illegal is refused there).
            if let Ok(v) = compile(&file)
                && let Ok(mut e) = chimera::presets::new_game(v, "startpos")
            {
                compiled += 1;
                assert!(e.perft(2) > 0, "{text:?}");
            }
        }
        text
    });
    assert!(compiled > 0, "no mutated Betza compiled: the compile path was not tested");
    assert!(round_trips > 0, "no mutated Betza read: the writer was not tested");
}

#[test]
fn variant_files() {
    let texts: Vec<&str> = variants::BUILTIN.iter().map(|(_, t)| *t).collect();
    let mut alphabet: Vec<char> = "()[]{}:,\"'0123456789-_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ ".chars().collect();
    alphabet.push('\n');
    let mut started = 0;
    run("variant_files", |rng| {
        let seed = *rng.pick(&texts);
        let text = mutate(rng, seed, &alphabet);
        if let Ok(file) = parse_variant_file(&text)
            && let Ok(v) = resolve(file, &variants::builtin_file).and_then(|f| compile(&f))
            && let Ok(mut e) = chimera::presets::new_game(v, "startpos")
        {
            started += 1;
            for _ in 0..8 {
                let moves = e.legal_moves();
                if moves.is_empty() || e.outcome().is_some() {
                    break;
                }
                e.apply(moves[rng.below(moves.len())]).expect("a legal move applies");
            }
        }
        text
    });
    assert!(started > 0, "no mutated variant file started a game");
}

/// The moves of a game so far, as its log records them.
fn moves_played(e: &Engine) -> Vec<String> {
    e.move_log().0.iter().map(|r| format!("{:?}", r.mv)).collect()
}

const PGN_CHARS: &str = "[]\"{}();.$*-/=+#!?0123456789 abcdefghxKQRBNPO@\n";

#[test]
fn pgn() {
    // Games of a few variants, presets among them, written as the game writes them.
    let mut setup_rng = Rng(seed());
    let mut seeds = Vec::new();
    for (id, presets) in [("chess", ""), ("crazyhouse", ""), ("atomic", "piece-hp"), ("xiangqi", ""), ("shogi", ""), ("seirawan", "")] {
        let mut variant = variants::builtin(id).expect("variant");
        if !presets.is_empty() {
            variant.presets = chimera::uci::parse_presets(presets).expect("presets");
        }
        let mut e = chimera::presets::new_game(variant, "startpos").expect("game");
        let mut moves = Vec::new();
        for _ in 0..30 + setup_rng.below(30) {
            let legal = e.legal_moves();
            if legal.is_empty() || e.outcome().is_some() {
                break;
            }
            let m = legal[setup_rng.below(legal.len())];
            moves.push(e.to_san(&m));
            e.apply(m).expect("legal");
        }
        let mut text = format!("[Event \"fuzz\"]\n[Variant \"{id}\"]\n");
        if !presets.is_empty() {
            text.push_str(&format!("[Presets \"{presets}\"]\n"));
        }
        text.push('\n');
        for (i, san) in moves.iter().enumerate() {
            if i % 2 == 0 {
                text.push_str(&format!("{}. ", i / 2 + 1));
            }
            text.push_str(san);
            text.push(' ');
        }
        text.push('*');
        let game = parse_pgn(&text).expect("the seed reads");
        replay(&game).unwrap_or_else(|e| panic!("the seed game replays: {e}\n{text}"));
        seeds.push(text);
    }
    let alphabet: Vec<char> = PGN_CHARS.chars().collect();
    let mut replayed = 0;
    run("pgn", |rng| {
        let seed = rng.pick(&seeds).clone();
        let text = mutate(rng, &seed, &alphabet);
        if let Ok(game) = parse_pgn(&text)
            && let Ok((mut e, id, presets)) = replay(&game)
        {
            replayed += 1;
            // What replays writes back as PGN that replays to the same game: PGN → game → PGN →
            // game, the same moves and position.
            // The start, as the window keeps it: the position before the first move.
            let head = chimera::pgn::PgnGame { tags: game.tags.clone(), moves: Vec::new() };
            let start = replay(&head).map(|(mut s, _, _)| s.fen()).expect("the game's start replays");
            let written = write_pgn(e.world_mut(), &id, &presets, &start, "2026.01.01", &chimera::pgn::player_names([None, None]));
            let again = parse_pgn(&written).unwrap_or_else(|err| panic!("{text}\nwas written as\n{written}\nwhich does not read: {err}"));
            let (mut back, _, _) =
                replay(&again).unwrap_or_else(|err| panic!("{text}\nwas written as\n{written}\nwhich does not replay: {err}"));
            assert_eq!(back.fen(), e.fen(), "{text}\nwas written as\n{written}");
            assert_eq!(moves_played(&back), moves_played(&e), "{text}\nwas written as\n{written}");
            let _ = e.outcome();
        }
        text
    });
    assert!(replayed > 0, "no mutated PGN replayed");
}

const MOVE_CHARS: &str = "abcdefghijklmnop0123456789@+=#x-KQRBNPkqrbnpO,/ ";

#[test]
fn moves() {
    let variants = catalogue();
    let mut setup_rng = Rng(seed());
    let mut pool = Vec::new();
    for v in &variants {
        for fen in positions(&mut setup_rng, v, 2) {
            let mut e =
                Engine::from_fen(v.clone(), &fen).unwrap_or_else(|err| panic!("{}: {fen}: a played position does not load: {err}", v.id));
            let legal = e.legal_moves();
            // Every legal move's UCI and SAN read back to that move.
            for m in &legal {
                let (uci, san) = (e.to_uci(m), e.to_san(m));
                assert_eq!(e.parse_uci(&uci).as_ref(), Ok(m), "{}: {fen}: UCI {uci}", v.id);
                assert_eq!(e.parse_san(&san).as_ref(), Ok(m), "{}: {fen}: SAN {san}", v.id);
            }
            let words: Vec<String> = legal.iter().flat_map(|m| [e.to_uci(m), e.to_san(m)]).collect();
            pool.push((e, legal, words));
        }
    }
    let alphabet: Vec<char> = MOVE_CHARS.chars().collect();
    run("moves", |rng| {
        let i = rng.below(pool.len());
        let (e, legal, words) = &mut pool[i];
        let text = match words.is_empty() || rng.below(6) == 0 {
            true => (0..1 + rng.below(7)).map(|_| *rng.pick(&alphabet)).collect(),
            false => {
                let seed = rng.pick(words).clone();
                mutate(rng, &seed, &alphabet)
            }
        };
        for m in [e.parse_uci(&text), e.parse_san(&text)].into_iter().flatten() {
            assert!(legal.contains(&m), "{text:?} parsed to {m:?}, which is not legal");
        }
        text
    });
}

#[test]
fn preset_lists() {
    let seeds: Vec<String> = chimera::presets::ALL
        .iter()
        .map(|p| p.id.to_string())
        .chain(["piece-hp(hp=3,scope=white,turns=6),piece-shield".into(), "stamina(max=2),double-move".into()])
        .collect();
    let alphabet: Vec<char> = "abcdefghijklmnopqrstuvwxyz-(),=0123456789. ".chars().collect();
    let chess = variants::builtin("chess").expect("chess");
    let mut played = 0;
    run("preset_lists", |rng| {
        let seed = rng.pick(&seeds).clone();
        let text = mutate(rng, &seed, &alphabet);
        if let Ok(requests) = chimera::uci::parse_presets(&text) {
            let mut v = chess.clone();
            v.presets = requests;
            if let Ok(mut e) = chimera::presets::new_game(v, "startpos") {
                played += 1;
                let moves = e.legal_moves();
                if let Some(&m) = moves.first() {
                    e.apply(m).expect("legal");
                }
            }
        }
        text
    });
    assert!(played > 0, "no mutated preset list started a game");
}
