//! Betza notation: every example of the Bishop reference, the error messages, and diagrams.

use chimera::rules::{Atom, Hop, Mode, diagram, parse_betza};

/// The atoms of a Betza string as a sorted list, for comparing two spellings.
fn set(betza: &str) -> Vec<String> {
    let mut v: Vec<String> = parse_betza(betza).unwrap_or_else(|e| panic!("{betza}: {e}")).iter().map(|a| format!("{a:?}")).collect();
    v.sort();
    v.dedup();
    v
}

fn vectors(betza: &str) -> Vec<(i8, i8)> {
    let mut v: Vec<(i8, i8)> = parse_betza(betza).unwrap().iter().map(|a| (a.dx, a.dy)).collect();
    v.sort();
    v
}

fn picture(betza: &str, size: u8) -> String {
    diagram(&parse_betza(betza).unwrap(), size).to_string()
}

#[test]
fn atoms_and_shorthands() {
    for (letter, step) in [
        ("W", (1, 0)),
        ("F", (1, 1)),
        ("D", (2, 0)),
        ("N", (2, 1)),
        ("A", (2, 2)),
        ("C", (3, 1)),
        ("Z", (3, 2)),
        ("H", (3, 0)),
        ("G", (3, 3)),
    ] {
        let atoms = parse_betza(letter).unwrap();
        let expected = if step.0 == step.1 || step.1 == 0 { 4 } else { 8 };
        assert_eq!(atoms.len(), expected, "{letter}");
        assert!(atoms.iter().all(|a| a.range == 1 && a.mode == Mode::Both));
        assert!(atoms.iter().any(|a| (a.dx, a.dy) == step), "{letter}");
    }
    assert_eq!(set("K"), set("WF"));
    assert_eq!(set("R"), set("W0"));
    assert_eq!(set("B"), set("F0"));
    assert_eq!(set("Q"), set("W0F0"));
    assert_eq!(set("Q"), set("RB"));
    assert_eq!(set("W"), set("W1"));
}

#[test]
fn bishop_reference_examples() {
    // Amazon, unicorn, knibis, fortress.
    assert_eq!(set("QN").len(), 16);
    assert_eq!(
        set("NC"),
        [set("N"), set("C")].concat().into_iter().collect::<std::collections::BTreeSet<_>>().into_iter().collect::<Vec<_>>()
    );
    let knibis = parse_betza("mNcB").unwrap();
    assert!(knibis.iter().filter(|a| a.dx.abs() + a.dy.abs() == 3).all(|a| a.mode == Mode::Move && a.range == 1));
    assert!(knibis.iter().filter(|a| a.dx.abs() == a.dy.abs()).all(|a| a.mode == Mode::Capture && a.range == 0));
    let fortress = parse_betza("B3vND").unwrap();
    assert!(fortress.iter().filter(|a| a.dx.abs() == a.dy.abs()).all(|a| a.range == 3));
    assert_eq!(fortress.iter().filter(|a| a.dx.abs() + a.dy.abs() == 3).count(), 4, "vN is the four vertical knight moves");
    assert!(fortress.iter().filter(|a| a.dx.abs() + a.dy.abs() == 3).all(|a| a.dy.abs() == 2));
    // (x,y) atoms: the giraffe, and the knight three ways.
    assert_eq!(vectors("(4,1)").len(), 8);
    assert_eq!(set("(2,1)"), set("N"));
    assert_eq!(set("(1,2)"), set("N"));
    assert!(parse_betza("(4,1)2").unwrap().iter().all(|a| a.range == 2));
    // The duck: moves to any empty square.
    let duck = parse_betza("m*").unwrap();
    assert_eq!(duck.len(), 1);
    assert!(duck[0].any_square && duck[0].mode == Mode::Move);
    // Ranges.
    assert!(parse_betza("F2").unwrap().iter().all(|a| a.range == 2));
    assert!(parse_betza("N0").unwrap().iter().all(|a| a.range == 0));
    assert_eq!(set("NN"), set("N0"), "a doubled atom is its rider");
    assert_eq!(set("WW"), set("R"));
}

#[test]
fn directions() {
    assert_eq!(vectors("fN"), [(-1, 2), (1, 2)], "the Shogi knight");
    assert_eq!(vectors("sR"), [(-1, 0), (1, 0)]);
    assert!(parse_betza("sR").unwrap().iter().all(|a| a.range == 0));
    assert_eq!(vectors("rB"), [(1, -1), (1, 1)]);
    assert_eq!(vectors("fsN"), [(-2, 1), (2, 1)], "forward, the horizontal ones");
    assert_eq!(vectors("rbN"), [(1, -2)], "from d4 to e2");
    assert_eq!(vectors("vN"), [(-1, -2), (-1, 2), (1, -2), (1, 2)]);
    assert_eq!(vectors("fhN"), [(-2, 1), (-1, 2), (1, 2), (2, 1)]);
    assert_eq!(vectors("flF"), [(-1, 1)]);
    assert_eq!(vectors("fF"), [(-1, 1), (1, 1)]);
    assert_eq!(vectors("fW"), [(0, 1)]);
    assert_eq!(vectors("vW"), [(0, -1), (0, 1)]);
    assert_eq!(vectors("fsW"), [(-1, 0), (0, 1), (1, 0)]);
    assert_eq!(vectors("bR"), [(0, -1)]);
}

#[test]
fn functional_modifiers() {
    let xiangqi_horse = parse_betza("nN").unwrap();
    assert!(xiangqi_horse.iter().all(|a| a.lame && a.range == 1));
    let cannon = parse_betza("mRcpR").unwrap();
    assert_eq!(cannon.iter().filter(|a| a.mode == Mode::Move && a.hop == Hop::None).count(), 4);
    assert_eq!(cannon.iter().filter(|a| a.mode == Mode::Capture && a.hop == Hop::Any).count(), 4);
    assert!(parse_betza("gQ").unwrap().iter().all(|a| a.hop == Hop::Adjacent && a.range == 0));
    let pawn = parse_betza("fmWfceFifmnD").unwrap();
    let find = |dx: i8, dy: i8| -> Atom { *pawn.iter().find(|a| (a.dx, a.dy) == (dx, dy)).unwrap() };
    assert_eq!(pawn.len(), 4);
    assert!(find(0, 1).mode == Mode::Move && !find(0, 1).initial);
    assert!(find(1, 1).mode == Mode::Capture && find(1, 1).en_passant);
    assert!(find(-1, 1).mode == Mode::Capture && find(-1, 1).en_passant);
    let double = find(0, 2);
    assert!(double.mode == Mode::Move && double.lame && double.initial);
    assert_eq!(set("igfrR"), set("gfriR"), "modifier order does not matter");
}

#[test]
fn errors_name_the_position() {
    let cases = [
        ("", 1, "empty"),
        ("fX", 2, "'X' is not an atom"),
        ("Nq", 2, "modifier 'q'"),
        ("fm", 3, "followed by an atom"),
        ("(4,", 1, "without ')'"),
        ("(a,1)", 1, "not a leap"),
        ("mcN", 3, "both 'm' and 'c'"),
        ("pN", 2, "hop"),
        ("nR", 2, "leapers only"),
        ("N99", 2, "too large"),
        ("aN", 1, "multi-leg"),
    ];
    for (text, position, needle) in cases {
        let e = parse_betza(text).unwrap_err();
        assert_eq!(e.position, position, "{text}: {e}");
        assert!(e.to_string().contains(needle), "{text}: '{e}' should mention {needle}");
    }
}

#[test]
fn diagrams() {
    assert_eq!(picture("fN", 5), ".*.*.\n.....\n..@..\n.....\n.....");
    assert_eq!(picture("fmWfceFifmnD", 5), "..m..\n.cmc.\n..@..\n.....\n.....");
    assert_eq!(picture("K", 3), "***\n*@*\n***");
    assert_eq!(picture("mRcpR", 7), "...+...\n...+...\n...m...\n++m@m++\n...m...\n...+...\n...+...");
    assert_eq!(picture("gQ", 5), "p.p.p\n.....\np.@.p\n.....\np.p.p");
    assert_eq!(picture("m*", 3), "mmm\nm@m\nmmm");
}

/// Every piece type of the catalogue: its compiled move table, walked from the centre of an
/// empty 15×15 board, reaches exactly the squares its diagram shows (hopping moves aside,
/// which need a screen), both for quiet moves and, with one enemy piece at a time, captures.
#[test]
fn every_catalogue_piece_moves_as_its_diagram_shows() {
    use chimera::rules::{Cell, Geometry, MoveTable, PieceType, Side, Square, walk_ray};
    let g = Geometry { files: 15, ranks: 15 };
    let centre = g.square(7, 7).unwrap();
    let mut checked = 0;
    for id in chimera::variants::builtin_ids() {
        let variant = chimera::variants::builtin(id).unwrap();
        for def in &variant.registry.types {
            let atoms: Vec<Atom> = def.atoms.iter().copied().filter(|a| a.hop == Hop::None).collect();
            let picture = diagram(&atoms, 15);
            // Initial-only atoms count as on their initial rank: put the centre's rank there.
            let table = MoveTable::compile(g, &atoms, &[7], false);
            let rays = table.rays(g.len(), Side::White, centre);
            let reach = |cells: &[Cell], capture: bool| -> Vec<Square> {
                let mut out = Vec::new();
                for ray in rays {
                    walk_ray(&table, ray, cells, Side::White, |to, c, _| {
                        if c == capture {
                            out.push(to);
                        }
                    });
                }
                out
            };
            let empty = vec![Cell::EMPTY; g.len()];
            let moves = reach(&empty, false);
            for sq in g.squares() {
                let (x, y) = (g.file(sq) as usize, g.rank(sq) as usize);
                let cell = picture.rows[14 - y][x];
                assert_eq!(moves.contains(&sq), cell.moves, "{id} {}: quiet move to {} ({})", def.name, g.name(sq), def.betza);
                let mut one_enemy = empty.clone();
                one_enemy[sq.index()] = Cell::piece(PieceType(0), Side::Black);
                let captures = if sq == centre { false } else { reach(&one_enemy, true).contains(&sq) };
                assert_eq!(captures, cell.captures, "{id} {}: capture on {} ({})", def.name, g.name(sq), def.betza);
            }
            checked += 1;
        }
    }
    assert!(checked > 150, "{checked}");
}

use crate::common;

/// Writing Betza (the editor's move painter writes what it paints): every catalogue piece and
/// every example above reads back to the same atoms; so do random sets of atoms of every kind
/// the parser makes (any leap up to (4,4), each single direction, riders, ranges, modes, lame,
/// hop, initial and en passant flags).
#[test]
fn written_betza_reads_back_to_the_same_atoms() {
    use chimera::rules::{atom_set, write_betza};
    let round_trip = |atoms: &[Atom], what: &str| {
        let text = write_betza(atoms);
        let back = parse_betza(&text).unwrap_or_else(|e| panic!("{what}: wrote '{text}', which does not read: {e}"));
        assert_eq!(atom_set(&back), atom_set(atoms), "{what}: wrote '{text}'");
        text
    };
    let mut pieces = 0;
    for id in chimera::variants::builtin_ids() {
        for def in &chimera::variants::builtin(id).unwrap().registry.types {
            if !def.betza.is_empty() {
                round_trip(&parse_betza(&def.betza).unwrap(), &format!("{id} {} ({})", def.name, def.betza));
                pieces += 1;
            }
        }
    }
    assert!(pieces > 150, "{pieces}");
    // Familiar pieces come back in familiar spelling.
    for (betza, written) in
        [("K", "K"), ("Q", "Q"), ("WF", "K"), ("RB", "Q"), ("N", "N"), ("fmWfceFifmnD", "fmWfceFifmnD"), ("mRcpR", "mRcpR"), ("NN", "N0")]
    {
        assert_eq!(round_trip(&parse_betza(betza).unwrap(), betza), written, "{betza}");
    }
    // Random sets.
    let mut rng = common::Rng(7);
    for case in 0..3000 {
        let mut atoms = Vec::new();
        for _ in 0..1 + rng.below(5) {
            let (x, y) = (rng.below(5) as i8, rng.below(5) as i8);
            if (x, y) == (0, 0) {
                continue;
            }
            let range = [1u8, 0, 2, 3][rng.below(4)];
            let mode = [Mode::Both, Mode::Move, Mode::Capture][rng.below(3)];
            let hop = if range != 1 { [Hop::None, Hop::None, Hop::Any, Hop::Adjacent][rng.below(4)] } else { Hop::None };
            let lame = range == 1 && rng.below(4) == 0;
            let (initial, en_passant) = (rng.below(5) == 0, rng.below(6) == 0);
            // One random direction of the leap, or all of them.
            let all = parse_betza(&format!("({x},{y})")).unwrap();
            let chosen: Vec<Atom> = if rng.below(2) == 0 { all } else { vec![all[rng.below(all.len())]] };
            for a in chosen {
                atoms.push(Atom { range, mode, hop, lame, initial, en_passant, ..a });
            }
        }
        if rng.below(10) == 0 {
            atoms.push(Atom { any_square: true, dx: 0, dy: 0, ..Atom::new(0, 0, 1, Mode::Both) });
        }
        if !atoms.is_empty() {
            round_trip(&atoms, &format!("random case {case}: {atoms:?}"));
        }
    }
}
