//! FEN, UCI and SAN in and out, and the errors bad input gets.

use chimera::rules::{Engine, FenField, MoveError, Variant};

fn chess(fen: &str) -> Engine {
    Engine::from_fen(Variant::chess(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn fen_round_trips() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 7 42",
        // X-FEN: K and Q name the outermost rooks, files name inner ones.
        "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1",
        "r3k3/8/8/8/8/8/8/RR2K2R w KBq - 0 1",
    ] {
        assert_eq!(chess(fen).fen(), fen);
    }
}

#[test]
fn fen_reads_shredder_castling_and_epd() {
    let mut e = chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha -");
    assert_eq!(e.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

#[test]
fn fen_drops_an_en_passant_square_nobody_can_use() {
    let mut e = chess("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(e.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}

/// Invalid FENs from Fairy-Stockfish's test suite (facts about what FEN validation rejects).
const INVALID: [&str; 17] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 a",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - b 1",
    "rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq -6 0 3",
    "rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq .6 0 3",
    "rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d- 0 3",
    "rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq  0 3",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 123 - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR g KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNH w KQkq - 0 1",
    "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/9/7/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/RNBQKBNR/PPPPPPPP/8 w KQkq - 0 1",
    "8/pppppppp/rnbqkbnr/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
];

#[test]
fn invalid_fens_are_rejected_with_a_reason() {
    for fen in INVALID {
        match Engine::from_fen(Variant::chess(), fen) {
            Ok(_) => panic!("accepted an invalid FEN: {fen}"),
            Err(e) => assert!(!e.message.is_empty(), "{fen}: empty message"),
        }
    }
}

#[test]
fn fen_errors_name_the_field() {
    let cases = [
        ("", FenField::Board, "empty"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", FenField::Board, "7 ranks"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", FenField::Board, "unknown piece letter 'X'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", FenField::Turn, "'x'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1", FenField::Castling, "'z'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", FenField::EnPassant, "e9"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", FenField::EnPassant, "no pawn"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", FenField::HalfmoveClock, "'x'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", FenField::Fullmove, "extra"),
        ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", FenField::Position, "black has no king"),
        ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", FenField::Position, "in check"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", FenField::Position, "promotion rank"),
    ];
    for (fen, field, needle) in cases {
        let e = Engine::from_fen(Variant::chess(), fen).err().unwrap_or_else(|| panic!("accepted {fen}"));
        assert_eq!(e.field, field, "{fen}: {e}");
        assert!(e.to_string().contains(needle), "{fen}: '{e}' should mention {needle}");
    }
}

#[test]
fn uci_out_and_in() {
    let mut e = chess("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let mut ucis: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).collect();
    ucis.sort();
    assert!(ucis.contains(&"e1g1".to_string()) && ucis.contains(&"e1c1".to_string()));
    assert!(ucis.contains(&"b7a8q".to_string()) && ucis.contains(&"b7b8n".to_string()));
    // King-takes-rook is accepted for castling too.
    let a = e.parse_uci("e1g1").unwrap();
    let b = e.parse_uci("e1h1").unwrap();
    assert_eq!(a, b);
    assert!(a.is_castle());
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let mut e = Engine::from_fen(Variant::chess960(), "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1").unwrap();
    let m = e.parse_uci("g1h1").unwrap();
    assert!(m.is_castle());
    assert_eq!(e.to_uci(&m), "g1h1");
    assert_eq!(e.to_san(&m), "O-O");
    e.apply(m).unwrap();
    assert_eq!(e.fen(), "1r4kr/8/8/8/8/8/8/1R3RK1 b kq - 1 1");
    // Queen side: the king goes to c1 and the rook to d1.
    e.undo();
    e.play_uci("g1b1").unwrap();
    assert_eq!(e.fen(), "1r4kr/8/8/8/8/8/8/2KR3R b kq - 1 1");
}

#[test]
fn bad_uci_gets_a_typed_error() {
    let mut e = chess("startpos");
    assert!(matches!(e.play_uci("e2"), Err(MoveError::Unparsable { .. })));
    assert!(matches!(e.play_uci("z2z4"), Err(MoveError::Unparsable { .. })));
    assert!(matches!(e.play_uci("e2e4x"), Err(MoveError::Unparsable { .. })));
    let err = e.play_uci("e2e5").unwrap_err();
    assert_eq!(err.to_string(), "illegal move 'e2e5': the pawn on e2 cannot go to e5");
    let err = e.play_uci("e7e5").unwrap_err();
    assert!(err.to_string().contains("white's turn"), "{err}");
    let err = e.play_uci("e3e4").unwrap_err();
    assert!(err.to_string().contains("no piece on e3"), "{err}");
    let mut p = chess("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let err = p.play_uci("a7a8").unwrap_err();
    assert!(err.to_string().contains("must name the piece"), "{err}");
    assert_eq!(e.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "nothing changed");
}

fn san_of(fen: &str, uci: &str) -> String {
    let mut e = chess(fen);
    let m = e.parse_uci(uci).unwrap();
    e.to_san(&m)
}

#[test]
fn san_out() {
    assert_eq!(san_of("startpos", "g1f3"), "Nf3");
    assert_eq!(san_of("startpos", "e2e4"), "e4");
    // Disambiguation by file, by rank, by both.
    assert_eq!(san_of("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2"), "Nbd2");
    assert_eq!(san_of("4k3/8/8/8/8/R7/8/R3K3 w - - 0 1", "a1a2"), "R1a2");
    assert_eq!(san_of("7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "a4b3"), "Qa4b3");
    // Captures, en passant, promotion with check, castling, mate.
    assert_eq!(san_of("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6"), "exf6");
    assert_eq!(san_of("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), "b8=Q+");
    assert_eq!(san_of("r2k3r/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1"), "O-O-O+");
    assert_eq!(san_of("r2k3r/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1"), "O-O");
    assert_eq!(san_of("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4"), "Qh4#");
}

#[test]
fn san_in() {
    let mut e = chess("startpos");
    for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"] {
        e.play_san(san).unwrap_or_else(|err| panic!("{san}: {err}"));
    }
    let sans: Vec<String> = e.move_log().0.iter().filter_map(|r| r.san.clone()).collect();
    assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"]);
    // Over-specified and decorated forms are read too.
    let mut e = chess("startpos");
    e.play_san("Ng1f3!").unwrap();
    e.play_san("e7-e5").unwrap();
    let mut e = chess("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let m = e.parse_san("b8Q").unwrap();
    assert_eq!(e.to_uci(&m), "b7b8q");
    let mut e = chess("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    assert!(matches!(e.parse_san("Nd2"), Err(MoveError::Ambiguous { .. })));
    assert!(matches!(e.parse_san("Nd4"), Err(MoveError::Illegal { .. })));
    assert!(matches!(e.parse_san("hello"), Err(MoveError::Unparsable { .. })));
}

fn builtin_at(id: &str, fen: &str) -> Engine {
    let variant = chimera::variants::builtin(id).unwrap_or_else(|e| panic!("{id}: {e}"));
    Engine::from_fen(variant, fen).unwrap_or_else(|e| panic!("{id} {fen}: {e}"))
}

#[test]
fn a_drop_is_no_rival_for_disambiguation() {
    // A rook in hand could be dropped on a4 (a3) too; the pawn move still needs no file and
    // rank (Fairy-Stockfish: Pa4, Pa3). Chimera wrote P3a4 and P2a3 before.
    for (id, fen, uci, san) in
        [("shogi", "k8/9/9/9/9/9/P8/9/8K[R] w - - 0 1", "a3a4", "Pa4"), ("minishogi", "k4/5/5/P4/4K[R] w - - 0 1", "a2a3", "Pa3")]
    {
        let mut e = builtin_at(id, fen);
        let m = e.parse_uci(uci).unwrap();
        assert_eq!(e.to_san(&m), san, "{id}");
    }
}

#[test]
fn gating_rights_end_with_an_empty_hand() {
    // White gates both pieces of its hand: its gating files go, only the castling rights stay
    // (Fairy-Stockfish writes the same FEN).
    let mut e = builtin_at("seirawan", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1");
    for uci in ["g1f3h", "g8f6", "b1c3e"] {
        e.play_uci(uci).unwrap();
    }
    assert_eq!(e.fen(), "rnbqkb1r/pppppppp/5n2/8/8/2N2N2/PPPPPPPP/REBQKBHR[eh] b KQkqbcdf - 3 2");
    // A FEN with gating files but nothing in hand has none.
    assert_eq!(builtin_at("seirawan", "4k3/8/8/8/8/8/8/RN2K2R[] w KQB - 0 1").fen(), "4k3/8/8/8/8/8/8/RN2K2R[] w KQ - 0 1");
    assert_eq!(builtin_at("seirawan", "4k3/8/8/8/8/8/8/RN2K2R[H] w KQB - 0 1").fen(), "4k3/8/8/8/8/8/8/RN2K2R[H] w KQB - 0 1");
}

#[test]
fn castling_rights_go_with_a_captured_king() {
    // Where the king is an ordinary piece, taking it ends its side's castling rights.
    for (id, fen, after) in [
        ("giveaway", "4k3/p7/8/8/8/8/P7/R3K2r b Q - 0 1", "4k3/p7/8/8/8/8/P7/R3r3 w - - 0 2"),
        ("extinction", "nbq1k3/p7/8/8/8/8/P7/RNBQK2r b Q - 0 1", "nbq1k3/p7/8/8/8/8/P7/RNBQr3 w - - 0 2"),
    ] {
        let mut e = builtin_at(id, fen);
        e.play_uci("h1e1").unwrap();
        assert_eq!(e.fen(), after, "{id}");
    }
}

#[test]
fn a_move_that_promotes_has_no_rival_in_one_that_cannot() {
    // The other silver reaches d2 only without promoting: Fairy-Stockfish writes Sd2=G (Chimera
    // wrote Sed2=G before).
    let mut e = builtin_at("minishogi", "5/1+PG1k/1+b1sp/R3R/K1g+bs[] b - - 4 28");
    let m = e.parse_uci("e1d2+").unwrap();
    assert_eq!(e.to_san(&m), "Sd2=G");
}

#[test]
fn castling_squares_are_judged_with_the_king_on_its_square() {
    // The grasshopper on f8 hops over the king on e8 to d8, which the king would cross:
    // queenside castling is illegal (as Fairy-Stockfish rules). Chimera allowed it before.
    let mut e = builtin_at("grasshopper", "r3kG2/1qg5/1ppb4/pNP4p/G5G1/3PKP2/nG1BBg1r/1N4R1 b q - 3 46");
    assert!(e.parse_uci("e8c8").is_err());
    assert!(e.legal_moves().iter().all(|m| !m.is_castle()));
}
