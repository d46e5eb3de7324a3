//! Fairy-Stockfish's variant configuration format: `chimera import` and `chimera export`.
//! The ini texts here are the tests' own. The comparison with Fairy-Stockfish itself is in
//! `tests/differential.rs` (exported sections loaded into pyffish) and, for the shared
//! `variants.ini`, `scripts/fairy_import_check.sh`.

use chimera::rules::Engine;
use chimera::variants::fairy::import::{Imported, import};
use chimera::variants::fairy::{BUILTIN_PARENTS, export, export_keys};
use chimera::variants::{self, CastlingSpec, EndSpec, VariantFile, compile};

const INI: &str = "\
# A test file: comments and blank lines are skipped.

[smallchess]
maxFile = 6
maxRank = 6
pawn = p
knight = n
rook = r
queen = q
king = k
startFen = rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1
doubleStep = false
castling = false
promotionPieceTypes = qrn
promotionRegionWhite = *6
promotionRegionBlack = *1

[smallhill:smallchess]
flagPiece = k
flagRegionWhite = c3 d3 c4 d4
flagRegionBlack = c3 d3 c4 d4

[wazirs:chess]
customPiece1 = w:WA
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RWBQKBWR w KQkq - 0 1

[arrows:chess]
wallingRule = arrow
stalemateValue = win

[orphan:nosuchparent]
maxRank = 6

[child-of-skipped:arrows]
maxFile = 9

[quack:chess]
wallingRule = duck
king = -
commoner = k
castlingKingPiece = k
extinctionValue = loss
extinctionPieceTypes = k
stalemateValue = win

[holes:chess]
maxFile = 10
startFen = arnbqkbnra/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/ARNBQKBNRA w KQkq - 0 1
amazon = a
castlingKingsideFile = h
castlingQueensideFile = d
";

fn by_name<'a>(all: &'a [Imported], name: &str) -> &'a Imported {
    all.iter().find(|i| i.name == name).unwrap_or_else(|| panic!("no section {name}"))
}

fn converted(all: &[Imported], name: &str) -> VariantFile {
    match &by_name(all, name).result {
        Ok(f) => f.clone(),
        Err(r) => panic!("{name} was skipped: {r:?}"),
    }
}

/// The legal moves of `variant` at `fen` in UCI, sorted and joined by spaces (as the pyffish
/// lists they are compared with).
fn legal_uci(variant: &chimera::rules::Variant, fen: &str) -> String {
    let mut e = Engine::from_fen(variant.clone(), fen).unwrap_or_else(|err| panic!("{fen}: {err}"));
    let mut moves: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).collect();
    moves.sort();
    moves.join(" ")
}

fn perft(file: &VariantFile, depth: u32) -> u64 {
    let v = compile(file).unwrap_or_else(|e| panic!("{}: {e}", file.id));
    Engine::from_fen(v, "startpos").unwrap_or_else(|e| panic!("{}: {e}", file.id)).perft(depth)
}

#[test]
fn sections_convert_with_their_parents_keys() {
    let all = import(INI).expect("reads");
    assert_eq!(all.len(), 8);
    let small = converted(&all, "smallchess");
    assert_eq!(small.id, "smallchess");
    assert_eq!(small.board.as_ref().map(|b| (b.files, b.ranks)), Some((6, 6)));
    assert_eq!(small.castling, Some(CastlingSpec::Off));
    let pawn = small.pieces.as_ref().unwrap().iter().find(|p| p.letter == 'P').unwrap();
    assert_eq!((pawn.betza.as_str(), pawn.pawn, pawn.promotes), ("fmWfceF", true, true));
    let promotion = small.promotion.as_ref().unwrap();
    assert_eq!((promotion.rank, promotion.choices.as_str()), (6, "QRN"));
    // Los Alamos chess by another name: the same tree as the catalogue's.
    let losalamos = variants::builtin("losalamos").unwrap();
    let ours = Engine::from_fen(losalamos, "startpos").unwrap().perft(3);
    assert_eq!(perft(&small, 3), ours);

    // The child keeps its parent's keys and adds a flag region.
    let hill = converted(&all, "smallhill");
    assert_eq!(hill.board, small.board);
    let ends = hill.end.as_ref().unwrap();
    assert!(
        ends.iter().any(|e| matches!(e, EndSpec::RegionReached { pieces, region, .. } if pieces == "K" && region == "flag")),
        "{ends:?}"
    );

    // A built-in parent: chess's keys, from the catalogue; a custom piece under its own letter.
    let wazirs = converted(&all, "wazirs");
    let w = wazirs.pieces.as_ref().unwrap().iter().find(|p| p.letter == 'W').unwrap();
    assert_eq!(w.betza, "WA");
    assert!(wazirs.pieces.as_ref().unwrap().iter().any(|p| p.letter == 'N'), "chess's knight is inherited");
    assert!(matches!(wazirs.castling, Some(CastlingSpec::On { king: ('g', 'c'), .. })));

    // The duck, and a board with walls (its start's `*`): the catalogue's Duck chess and
    // Gustav III, by other names.
    let quack = converted(&all, "quack");
    assert_eq!(quack.duck, Some(true));
    assert_eq!(perft(&quack, 2), Engine::from_fen(variants::builtin("duck").unwrap(), "startpos").unwrap().perft(2));
    let holes = converted(&all, "holes");
    let walls = &holes.board.as_ref().unwrap().walls;
    assert_eq!(walls.len(), 12, "{walls:?}");
    assert!(walls.contains(&"a2".to_string()) && walls.contains(&"j7".to_string()), "{walls:?}");
    assert_eq!(perft(&holes, 3), Engine::from_fen(variants::builtin("gustav3").unwrap(), "startpos").unwrap().perft(3));
}

#[test]
fn what_cannot_be_expressed_is_named_with_its_line() {
    let all = import(INI).expect("reads");
    let Err(why) = &by_name(&all, "arrows").result else { panic!("arrows converted") };
    let walls = why.iter().find(|r| r.key == "wallingRule").expect("the walling rule is named");
    assert_eq!(walls.line, Some(28), "{walls}");
    assert!(!why.iter().any(|r| r.key == "stalemateValue"), "a stalemate value is expressible: {why:?}");

    let Err(why) = &by_name(&all, "orphan").result else { panic!("orphan converted") };
    assert!(why[0].message.contains("nosuchparent"), "{why:?}");
    assert_eq!(why[0].line, Some(31));

    // A child of a skipped section is skipped too, for the key it inherits, on its line.
    let Err(why) = &by_name(&all, "child-of-skipped").result else { panic!("converted") };
    assert!(why.iter().any(|r| r.key == "wallingRule" && r.line == Some(28)), "{why:?}");
}

#[test]
fn unknown_keys_and_values_are_refused_not_guessed() {
    let text = "[a:chess]\nnoSuchKey = 3\n[b:chess]\ncastling = maybe\n[c:chess]\ncustomPiece1 = x:Wq\n[d:chess]\nnMoveRuleTypes = pn\n";
    let all = import(text).expect("reads");
    let keys: Vec<Vec<(String, Option<usize>)>> = all
        .iter()
        .map(|i| match &i.result {
            Ok(_) => panic!("{} converted", i.name),
            Err(r) => r.iter().map(|r| (r.key.clone(), r.line)).collect(),
        })
        .collect();
    assert_eq!(keys[0], vec![("noSuchKey".to_string(), Some(2))]);
    assert_eq!(keys[1], vec![("castling".to_string(), Some(4))]);
    assert_eq!(keys[2], vec![("customPiece1".to_string(), Some(6))]);
    assert_eq!(keys[3], vec![("nMoveRuleTypes".to_string(), Some(8))]);
    assert!(import("[x]\nthis is not a key\n").is_err(), "a line that is not an entry is an error");
}

/// Where Fairy-Stockfish loads a section with a default, the import takes the same default:
/// check counting without counts in the start FEN (one check wins), a "one-fold" repetition
/// (ended at the first repeat, as a twofold one), a region written `*` alone (no square), keys
/// at values that say what Chimera's rules already say, captures to hand without drops, initial
/// moves without double steps (dropped).
#[test]
fn fairy_stockfishs_defaults_are_taken_not_refused() {
    let text = "[onecheck:chess]\ncheckCounting = true\n[uneven:chess]\ncheckCounting = true\n\
                startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+2 0 1\n\
                [onefold:chess]\nnFoldRule = 1\n[nostep:chess]\ndoubleStepRegionWhite = *\ndoubleStepRegionBlack = *\n\
                [defaults:chess]\ntripleStepRegionWhite = -\nenPassantTypes = p\nenPassantRegion = *1 *2 *3 *4 *5 *6 *7 *8\n\
                promotionPawnTypesWhite = p\npromotionPawnTypesBlack = p\ncapturesToHand = true\n\
                [noinitial:chess]\ndoubleStep = false\ncustomPiece1 = a:fmWifmnD\nstartFen = 4k3/8/8/8/8/8/A7/4K3 w - - 0 1\n";
    let all = import(text).expect("reads");
    let ends = |name: &str| converted(&all, name).end.unwrap_or_default();
    assert!(ends("onecheck").contains(&EndSpec::NCheck(1)), "{:?}", ends("onecheck"));
    assert!(ends("uneven").contains(&EndSpec::NCheck(3)), "{:?}", ends("uneven"));
    assert!(ends("onefold").contains(&EndSpec::Repetition(2)), "{:?}", ends("onefold"));
    // One check wins at once (pyffish: after e2e4 f7f6 d1h5 the game is over).
    let mut e = Engine::from_fen(compile(&converted(&all, "onecheck")).unwrap(), "startpos").unwrap();
    for m in ["e2e4", "f7f6", "d1h5"] {
        e.play_uci(m).unwrap();
    }
    assert_eq!(e.outcome().map(|o| o.winner), Some(Some(chimera::rules::Side::White)));
    // White's pawns have no double step left: 12 moves, not 20.
    assert_eq!(perft(&converted(&all, "nostep"), 1), 12);
    // Keys at the values that change nothing (captures to hand without drops included) play chess.
    assert_eq!(perft(&converted(&all, "defaults"), 3), 8_902);
    // Without double steps a piece's initial moves go (pyffish: the A on a2 has only a2a3).
    let noinitial = compile(&converted(&all, "noinitial")).unwrap();
    assert_eq!(legal_uci(&noinitial, "4k3/8/8/8/8/8/A7/4K3 w - - 0 1"), "a2a3 e1d1 e1d2 e1e2 e1f1 e1f2");
}

/// Keys Fairy-Stockfish reads otherwise than they say are read as it reads them, with a note
/// (pyffish 0.0.90): a Betza after a predefined piece's letter is ignored, a custom piece
/// without a Betza cannot move, a letter of no piece in a set names nothing, blast-immune
/// pieces without blasts and the region of a piece the variant lacks change nothing.
#[test]
fn keys_fairy_stockfish_ignores_are_ignored_with_a_note() {
    let text = "[predefined:chess]\nknight = n:W\n\
                [immobile:chess]\ncustomPiece1 = a\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNA w Qkq - 0 1\n\
                [unknown:chess]\npromotionPieceTypes = qx\n\
                [nothing:chess]\nblastImmuneTypes = k\nmobilityRegionWhiteElephant = a1 b2\n";
    let all = import(text).expect("reads");
    let notes = |name: &str| by_name(&all, name).notes.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ");
    // The knight still leaps (pyffish: d5b4 d5b6 ... and the king's moves).
    let predefined = compile(&converted(&all, "predefined")).unwrap();
    assert_eq!(legal_uci(&predefined, "8/8/8/3N4/8/8/8/k6K w - - 0 1"), "d5b4 d5b6 d5c3 d5c7 d5e3 d5e7 d5f4 d5f6 h1g1 h1g2 h1h2");
    assert!(notes("predefined").contains("'W' is ignored"), "{}", notes("predefined"));
    // The A on h1 has no move: the start position has chess's 20 moves.
    assert_eq!(perft(&converted(&all, "immobile"), 1), 20);
    assert!(notes("immobile").contains("cannot move"), "{}", notes("immobile"));
    // Promotion to the queen only.
    let unknown = compile(&converted(&all, "unknown")).unwrap();
    assert_eq!(legal_uci(&unknown, "8/P7/8/8/8/8/8/k6K w - - 0 1"), "a7a8q h1g1 h1g2 h1h2");
    assert!(notes("unknown").contains("'x' is not one of the variant's pieces"), "{}", notes("unknown"));
    assert_eq!(perft(&converted(&all, "nothing"), 3), 8_902);
    assert_eq!(by_name(&all, "nothing").notes.len(), 2, "{}", notes("nothing"));
}

/// The catalogue variants Fairy-Stockfish's format cannot express, and the key that stops
/// each (the first one named).
const NOT_EXPORTED: &[(&str, &str)] = &[
    ("chess960", "shuffle"),
    ("torpedo", "pieces[0].pawn"),
    ("pawnsideways", "pieces[0].pawn"),
    ("pawnback", "pieces[0].region_moves"),
    ("coregal", "pieces[5].royal"),
    ("berolina", "pieces[0].pawn"),
    ("janggi", "pieces[0].code"),
    ("janggitraditional", "pieces[0].code"),
    ("janggicasual", "pieces[0].code"),
    ("caparandom", "shuffle"),
    ("shatranj", "end[2]"),
    ("losers", "end[1]"),
    ("jesonmor", "end[0]"),
    ("andernach", "captures_change_side"),
    ("musketeer", "fixed_gating"),
    ("legan", "pieces[0].pawn"),
    ("georgian", "pieces[0].pawn"),
];

/// End conditions as a sorted set, regions unnamed (the regions' squares are the tree's).
/// Insufficient material is left out: Fairy-Stockfish's keys do not say it (it reports
/// insufficient material in every variant), so the import decides it by the variant's kind
/// (and lichess's rules for its variants are Chimera's own).
fn end_set(ends: &[EndSpec]) -> Vec<String> {
    let mut out: Vec<String> = ends
        .iter()
        .filter(|e| !matches!(e, EndSpec::InsufficientMaterial | EndSpec::InsufficientMaterialAs(_)))
        .map(|e| {
            let text = format!("{e:?}");
            match text.find("region: \"") {
                Some(i) => {
                    let rest = &text[i + 9..];
                    let end = rest.find('"').map_or(text.len(), |j| i + 9 + j + 1);
                    format!("{}region{}", &text[..i], &text[end..])
                }
                None => text,
            }
        })
        .collect();
    out.sort();
    out
}

fn sorted_pockets(fen: &str) -> String {
    match (fen.find('['), fen.find(']')) {
        (Some(a), Some(b)) => {
            let mut pocket: Vec<char> = fen[a + 1..b].chars().collect();
            pocket.sort_unstable();
            format!("{}[{}]{}", &fen[..a], pocket.into_iter().collect::<String>(), &fen[b + 1..])
        }
        _ => fen.to_string(),
    }
}

fn resolved(id: &str) -> VariantFile {
    variants::builtin_resolved(id).unwrap()
}

#[test]
fn export_then_import_plays_the_same_game() {
    let mut refused = Vec::new();
    for id in variants::builtin_ids() {
        let file = resolved(id);
        let text = match export(&file, id) {
            Ok(t) => t,
            Err(why) => {
                refused.push((id, why[0].key.clone()));
                continue;
            }
        };
        let all = import(&text).unwrap_or_else(|e| panic!("{id}: {e:?}\n{text}"));
        let back = match &all[0].result {
            Ok(f) => f.clone(),
            Err(r) => panic!("{id}: its export does not import: {r:?}\n{text}"),
        };
        // The rules the tree does not show in three plies: ends, promotion, drops.
        let ours = file.end.clone().unwrap_or_else(variants::default_end);
        assert_eq!(end_set(back.end.as_ref().unwrap()), end_set(&ours), "{id}: the ends\n{text}");
        assert_eq!(back.drops, file.drops, "{id}: the drops\n{text}");
        if file.pieces.iter().flatten().any(|p| p.promotes) {
            let rule = |f: &VariantFile| f.promotion.as_ref().map(|p| (p.choices.clone(), p.limits.clone(), p.rank, p.optional_from));
            assert_eq!(rule(&back), rule(&file), "{id}: promotion\n{text}");
        }
        let depth = if id == "placement" { 2 } else { 3 };
        assert_eq!(perft(&back, depth), perft(&file, depth), "{id}: perft {depth} after export and import\n{text}");
        let mut a = Engine::from_fen(compile(&back).unwrap(), "startpos").unwrap();
        let mut b = Engine::from_fen(compile(&file).unwrap(), "startpos").unwrap();
        // Fairy-Stockfish's keys do not order the piece types, which order the pockets.
        assert_eq!(sorted_pockets(&a.fen()), sorted_pockets(&b.fen()), "{id}");
    }
    let expected: Vec<(&str, String)> = NOT_EXPORTED.iter().map(|(a, b)| (*a, (*b).to_string())).collect();
    assert_eq!(refused, expected, "the catalogue variants export refuses, with the first key");
}

#[test]
fn every_mapped_parent_is_a_catalogue_variant() {
    for (fs, id) in BUILTIN_PARENTS {
        let file = resolved(id);
        if NOT_EXPORTED.iter().any(|(n, _)| n == id) {
            continue;
        }
        export_keys(&file).unwrap_or_else(|e| panic!("{fs} -> {id}: {e:?}"));
    }
}

#[test]
fn the_command_line_writes_files_and_lists_what_it_skipped() {
    let dir = std::env::temp_dir().join(format!("chimera-import-test-{}", std::process::id()));
    let ini = dir.join("test.ini");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(&ini, INI).unwrap();
    let out_dir = dir.join("out");
    let mut out = Vec::new();
    let (converted, skipped) =
        chimera::cli::run_import(ini.to_str().unwrap(), out_dir.to_str().unwrap(), &mut out).unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8(out).unwrap();
    assert_eq!((converted, skipped), (5, 3), "{text}");
    assert!(text.contains("skipped [arrows] (line 27):\n    line 28: wallingRule:"), "{text}");
    // The files load as they are, by path.
    let mut report = Vec::new();
    let files: Vec<String> =
        ["smallchess", "smallhill", "wazirs"].iter().map(|n| out_dir.join(format!("{n}.ron")).display().to_string()).collect();
    assert!(chimera::cli::run_check(&files, &mut report), "{}", String::from_utf8_lossy(&report));

    // Export: a section for each variant, and the refusals on their own.
    let (mut sections, mut refused) = (Vec::new(), Vec::new());
    let n = chimera::cli::run_export(&["capablanca".into(), "janggi".into()], None, &mut sections, &mut refused).unwrap();
    assert_eq!(n, 1);
    let sections = String::from_utf8(sections).unwrap();
    assert!(sections.starts_with("[capablanca]\n") && sections.contains("archbishop = a\n"), "{sections}");
    assert!(String::from_utf8(refused).unwrap().starts_with("not exported: janggi: pieces[0].code:"));
    std::fs::remove_dir_all(&dir).ok();
}

/// Castling where the king moves one file (here to c6, beside d6) is written king-takes-rook,
/// as Fairy-Stockfish writes it, so that it is not the king's plain move to that square. The
/// 24 moves are pyffish 0.0.90's for the same section and position.
#[test]
fn castling_by_one_file_is_written_king_takes_rook() {
    let text = "[haynielike:chess]\nmaxRank = 6\nmaxFile = 6\nstartFen = rbqkbr/pppppp/6/6/PPPPPP/RBQKBR w KQkq - 0 1\n\
                doubleStep = false\npromotionPieceTypes = rbq\ncastlingQueensideFile = c\ncastlingKingsideFile = e\npromotionRegionWhite = *6\n";
    let all = import(text).expect("reads");
    let file = converted(&all, "haynielike");
    let moves = legal_uci(&compile(&file).unwrap(), "r2kbr/pp1ppp/2qb2/1P3R/PQP1P1/RB1KB1 b Qkq - 1 5");
    let pyffish = "a5a4 a6b6 a6c6 b5b4 c4a4 c4b3 c4b4 c4c2 c4c3 c4c5 c4c6 c4d3 c4e2 d4b2 d4b6 d4c3 d4c5 d4e3 d4f2 d6a6 d6c5 d6c6 e5e4 f5f4";
    assert_eq!(moves, pyffish);
}

fn refused_keys(text: &str) -> Vec<(String, Option<usize>)> {
    let all = import(text).expect("reads");
    match &all[0].result {
        Ok(_) => Vec::new(),
        Err(r) => r.iter().map(|r| (r.key.clone(), r.line)).collect(),
    }
}

/// What Fairy-Stockfish does with these keys, found with pyffish 0.0.90: each is converted as
/// it plays there, or refused.
#[test]
fn keys_read_as_fairy_stockfish_reads_them() {
    // A Betza after a predefined piece's letter is ignored by Fairy-Stockfish (the king's
    // aside): ignored with a note (see keys_fairy_stockfish_ignores_are_ignored_with_a_note).
    assert!(refused_keys("[x:chess]\nrook = r:N\n").is_empty());
    assert!(refused_keys("[x:chess]\nking = k:KN\n").is_empty());
    // Each listed type on its own; `*` all pieces together; without types, nothing.
    let all = import("[a:chess]\nextinctionValue = loss\nextinctionPieceTypes = kr\n[b:chess]\nextinctionValue = loss\nextinctionPieceTypes = *\n[c:chess]\nextinctionValue = loss\n").unwrap();
    let ext = |i: usize| -> Vec<EndSpec> {
        all[i].result.as_ref().unwrap().end.clone().unwrap().into_iter().filter(|e| matches!(e, EndSpec::Extinction { .. })).collect()
    };
    assert_eq!(
        ext(0),
        vec![EndSpec::Extinction {
            pieces: "KR".into(),
            per_type: true,
            fewer_than: 1,
            verdict: chimera::rules::Verdict::Loss,
            pseudo_royal: false
        }]
    );
    assert_eq!(
        ext(1),
        vec![EndSpec::Extinction {
            pieces: String::new(),
            per_type: false,
            fewer_than: 1,
            verdict: chimera::rules::Verdict::Loss,
            pseudo_royal: false
        }]
    );
    assert_eq!(ext(2), vec![]);
    // Pawns that would stay pawns on the last rank: refused.
    assert_eq!(refused_keys("[x:chess]\npromotionRegionWhite = -\npromotionRegionBlack = -\n")[0].0, "promotionRegionWhite");
    assert_eq!(refused_keys("[x:chess]\nmandatoryPawnPromotion = false\n"), vec![("mandatoryPawnPromotion".to_string(), Some(2))]);
    assert!(refused_keys("[x:chess]\nmandatoryPawnPromotion = false\nimmobilityIllegal = true\n").is_empty());
    // A child's promotedPieceType adds to its parent's: the rook still promotes.
    let all = import("[x:minishogi]\npromotedPieceType = p:s\n").expect("reads");
    let x = converted(&all, "x");
    let promotes_to = |l: char| x.pieces.as_ref().unwrap().iter().find(|p| p.letter == l).and_then(|p| p.promotes_to);
    assert_eq!((promotes_to('P'), promotes_to('R')), (Some('S'), Some('D')));
    // A start FEN without its castling and en-passant fields, as Shogi's are written.
    let all = import("[x:minishogi]\nstartFen = rbsgk/4p/5/P4/KGSBR[-] w 0 1\n").expect("reads");
    assert_eq!(converted(&all, "x").start.as_deref(), Some("rbsgk/4p/5/P4/KGSBR[-] w - - 0 1"));
    // A repetition that is not a draw, for the side to move or (absolute) for white.
    let all = import("[x:chess]\nnFoldRule = 4\nnFoldValue = loss\nnFoldValueAbsolute = true\n").expect("reads");
    let ends = converted(&all, "x").end.unwrap();
    assert!(ends.contains(&EndSpec::RepetitionScored { count: 4, verdict: chimera::rules::Verdict::Loss, for_white: true }), "{ends:?}");
    // Atomar's keys; a flying general with kings free to share a rank (judged along it too).
    let all = import("[x:atomic]\nblastImmuneTypes = k\nmutuallyImmuneTypes = k\n").expect("reads");
    let x = converted(&all, "x");
    assert_eq!((x.blast.as_ref().map(|b| b.unharmed.as_str()), x.mutually_immune.as_deref()), (Some("K"), Some("K")));
    assert!(refused_keys("[x:chess]\nflyingGeneral = true\n").is_empty());
    // Other pawn types are Chimera's pawns (no SAN letter, the move count starts again).
    let all = import("[x:chess]\ncustomPiece1 = s:fW\npawnTypes = ps\n").expect("reads");
    let x = converted(&all, "x");
    let mut pawns: Vec<char> = x.pieces.as_ref().unwrap().iter().filter(|p| p.pawn).map(|p| p.letter).collect();
    pawns.sort_unstable();
    assert_eq!(pawns, ['P', 'S']);
    // Each side's own promotion choices win over the common key.
    let all = import("[x:chess]\npromotionPieceTypes = qrbn\npromotionPieceTypesBlack = qr\n").expect("reads");
    let promotion = converted(&all, "x").promotion.unwrap();
    assert_eq!((promotion.choices.as_str(), promotion.black_choices.as_deref()), ("QRBN", Some("QR")));
    let all = import("[x:chess]\npromotionPieceTypesWhite = nbrq\npromotionPieceTypesBlack = qrbn\n").expect("reads");
    assert_eq!(converted(&all, "x").promotion.unwrap().black_choices, None, "the same set for both sides");
    // Pseudo-royal pieces: royal while they are the last, so checkmate applies to them.
    let text = "[x:chess]\nking = -\ncommoner = k\ncastlingKingPiece = k\nextinctionValue = loss\nextinctionPieceTypes = k\nextinctionPseudoRoyal = true\n";
    let ends = converted(&import(text).expect("reads"), "x").end.unwrap();
    assert!(ends.contains(&EndSpec::Checkmate), "{ends:?}");
    assert!(ends.iter().any(|e| matches!(e, EndSpec::Extinction { pseudo_royal: true, .. })), "{ends:?}");
    // Drops that may not check; a flag that needs several pieces; walls left behind; blasts
    // whose victims would go to the hand are refused.
    let all = import("[x:crazyhouse]\ndropChecks = false\n").expect("reads");
    assert!(converted(&all, "x").drops.unwrap().no_checks);
    let text = "[x:chess]\nflagPiece = n\nflagRegionWhite = *8\nflagRegionBlack = *1\nflagPieceCount = 2\n";
    let ends = converted(&import(text).expect("reads"), "x").end.unwrap();
    assert!(ends.iter().any(|e| matches!(e, EndSpec::RegionReached { count: 2, .. })), "{ends:?}");
    assert_eq!(converted(&import("[x:chess]\nwallingRule = past\n").expect("reads"), "x").trail_walls, Some(true));
    assert_eq!(refused_keys("[x:crazyhouse]\nblastOnCapture = true\n")[0].0, "blastOnCapture");
    // A type a side does not start with is extinct at once, as in Fairy-Stockfish (pyffish
    // 0.0.90: is_immediate_game_end gives white the win at the start); pseudo-royal pieces end
    // nothing by being gone (no end, and pyffish's 22 moves).
    let text = "[x:chess]\namazon = m\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR w KQkq - 0 1\nextinctionValue = loss\nextinctionPieceTypes = m\n[y:x]\nextinctionPseudoRoyal = true\n";
    let all = import(text).expect("reads");
    let mut x = Engine::new(compile(&converted(&all, "x")).unwrap());
    assert_eq!(x.outcome().map(|o| o.winner), Some(Some(chimera::rules::Side::White)));
    let mut y = Engine::new(compile(&converted(&all, "y")).unwrap());
    assert_eq!((y.outcome(), y.legal_moves().len()), (None, 22));
}

#[test]
fn odd_values_are_refused_without_panicking() {
    for (text, key) in [
        ("[x:chess]\nnMoveRule = 2147483648\n", "nMoveRule"),
        ("[x:chess]\nextinctionPieceTypes = q\nextinctionValue = loss\nextinctionPieceCount = 4294967295\n", "extinctionPieceCount"),
        ("[x:chess]\nflagRegionWhite = é\nflagRegionBlack = e8\n", "flagRegionWhite"),
        ("[x:chess]\nmaxRank = 0\n", "maxRank"),
        ("[x:chess]\nmaxFile = 40\n", "maxFile"),
        ("[x:chess]\ncastlingRank = 257\n", "castlingRank"),
        ("[x:chess]\ncustomPiece26 = a:W\n", "customPiece26"),
    ] {
        let keys = refused_keys(text);
        assert!(keys.iter().any(|(k, _)| k == key), "{text}: {keys:?}");
    }
    // A byte-order mark is not a line of its own.
    assert!(import("\u{feff}[x:chess]\nmaxRank = 8\n").is_ok());
}

#[test]
fn a_second_section_of_a_name_is_skipped_as_fairy_stockfish_does() {
    let all = import("[dup:chess]\nmaxFile = 8\n[dup:chess]\nmaxFile = 10\n[my_var:chess]\n[my-var:chess]\n").unwrap();
    assert!(all[0].result.is_ok());
    assert!(all[1].result.as_ref().is_err_and(|r| r[0].message.contains("keeps the first")), "{:?}", all[1].result);
    assert!(all[2].result.is_ok());
    assert!(all[3].result.as_ref().is_err_and(|r| r[0].message.contains("my-var.ron is taken")), "{:?}", all[3].result);
    // What a built-in parent brings along is said.
    let all = import("[xq:xiangqi]\nflyingGeneral = true\n").unwrap();
    assert!(all[0].known_differences().is_some_and(|d| d.contains("chasing")), "{:?}", all[0].builtin_parent);
}

/// Fairy-Stockfish's flying general looks along the rank as well as the file (pyffish 0.0.90,
/// `[fgtest:chess]` with `flyingGeneral = true` and `castling = false`).
#[test]
fn the_flying_general_looks_along_the_rank_too() {
    let all = import("[fgtest:chess]\nflyingGeneral = true\ncastling = false\n").expect("reads");
    let file = converted(&all, "fgtest");
    let variant = compile(&file).expect("compiles");
    for (fen, pyffish) in [
        // The knight between the kings on the rank is pinned; the king moves freely.
        ("8/8/8/k2N3K/8/8/8/8 w - - 0 1", "h5g4 h5g5 h5g6 h5h4 h5h6"),
        ("8/8/8/k2N2K1/8/8/8/8 w - - 0 1", "g5f4 g5f5 g5f6 g5g4 g5g6 g5h4 g5h5 g5h6"),
        // On the file as before: the king may not step to a1 or a2, facing the king on a8.
        ("k7/8/8/8/8/8/8/1K6 w - - 0 1", "b1b2 b1c1 b1c2"),
    ] {
        assert_eq!(legal_uci(&variant, fen), pyffish, "{fen}");
    }
}

/// Fairy-Stockfish's immobile piece (`immobile = o`) never moves and may be taken (pyffish 0.0.90,
/// `[immtest:chess]` with `immobile = o` and `castling = false`).
#[test]
fn an_immobile_piece_stands_and_may_be_taken() {
    let all = import("[immtest:chess]\nimmobile = o\ncastling = false\n").expect("reads");
    let file = converted(&all, "immtest");
    assert!(file.pieces.as_ref().unwrap().iter().any(|p| p.letter == 'O' && p.betza.is_empty()));
    let variant = compile(&file).expect("compiles");
    for (fen, pyffish) in
        [("4k3/8/8/8/8/8/3o4/4K3 w - - 0 1", "e1d1 e1d2 e1e2 e1f1 e1f2"), ("4k3/3O4/8/8/8/8/3o4/4K3 b - - 0 1", "e8d7 e8d8 e8e7 e8f7 e8f8")]
    {
        assert_eq!(legal_uci(&variant, fen), pyffish, "{fen}");
    }
}

/// Regions that differ by side: pawns promoting on ranks of their own side's choosing, and the
/// drop region of the only side that ever holds pieces (pyffish 0.0.90, these sections).
#[test]
fn regions_that_differ_by_side() {
    let text = "[ptest:chess]\npromotionRegionWhite = *6 *7 *8\npromotionRegionBlack = *1 *2 *3 *4 *5\ncastling = false\n\
                [dtest:chess]\npieceDrops = true\ncapturesToHand = false\ncastling = false\ndropRegionBlack = *5\n\
                startFen = 4k3/8/8/8/8/8/8/4K3[n] b - - 0 1\n";
    let all = import(text).expect("reads");
    let moves = |file: &VariantFile, fen: &str| legal_uci(&compile(file).expect("compiles"), fen);
    let p = converted(&all, "ptest");
    // White promotes from its sixth rank on, black from its fourth (the fifth rank).
    assert_eq!(moves(&p, "4k3/8/3p4/8/4P3/8/8/4K3 w - - 0 1"), "e1d1 e1d2 e1e2 e1f1 e1f2 e4e5");
    assert_eq!(moves(&p, "4k3/8/3p4/8/4P3/8/8/4K3 b - - 0 1"), "d6d5b d6d5n d6d5q d6d5r e8d7 e8d8 e8e7 e8f7 e8f8");
    let d = converted(&all, "dtest");
    assert_eq!(moves(&d, "4k3/8/8/8/8/8/8/4K3[n] b - - 0 1"), "N@a5 N@b5 N@c5 N@d5 N@e5 N@f5 N@g5 N@h5 e8d7 e8d8 e8e7 e8f7 e8f8");
}

/// `passOnStalemate`: a stalemated side's one move is the pass, and a mated side has none
/// (pyffish 0.0.90, `[passstale:chess]` with `passOnStalemate = true`: `h8h8`, then
/// `7k/5Q2/6K1/8/8/8/8/8 w - - 1 2`).
#[test]
fn a_stalemated_side_passes_where_the_variant_says_so() {
    let all = import("[passstale:chess]\npassOnStalemate = true\n").expect("reads");
    let file = converted(&all, "passstale");
    assert_eq!(file.pass_on_stalemate, Some(true));
    let variant = compile(&file).expect("compiles");
    for (fen, pyffish) in [("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "h8h8"), ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "")] {
        assert_eq!(legal_uci(&variant, fen), pyffish, "{fen}");
    }
    let mut e = Engine::from_fen(variant.clone(), "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert!(e.outcome().is_none(), "not stalemate: the side passes");
    e.play_uci("h8h8").unwrap();
    assert_eq!(e.fen(), "7k/5Q2/6K1/8/8/8/8/8 w - - 1 2");
    // Chess itself still stalemates there; the key goes back out on export.
    assert_eq!(legal_uci(&variants::builtin("chess").unwrap(), "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), "");
    assert_eq!(export_keys(&file).unwrap().get("passOnStalemate").map(String::as_str), Some("true"));
    // Without a royal piece the pass is written with the side's first piece (pyffish's
    // `[andersanti:antichess]` with `passOnStalemate = true`).
    let all = import("[andersanti:antichess]\npassOnStalemate = true\n").expect("reads");
    let anti = compile(&converted(&all, "andersanti")).expect("compiles");
    assert_eq!(legal_uci(&anti, "8/8/8/8/8/p6p/P6P/8 w - - 0 1"), "a2a2");
    // One side's passing alone is still refused.
    let refused = refused_keys("[onlywhite:chess]\npassOnStalemateWhite = true\n");
    assert!(refused.iter().any(|(k, _)| k == "passOnStalemateWhite"), "{refused:?}");
}
