//! The command line, run as a player or a tool would.

use std::process::Command;

fn chimera(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chimera")).args(args).output().expect("the binary runs");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn perft_prints_nodes_searched_last() {
    let (ok, out, _) = chimera(&["perft", "--variant", "chess", "--fen", "startpos", "--depth", "3"]);
    assert!(ok);
    assert_eq!(out.lines().last(), Some("Nodes searched: 8902"));
}

#[test]
fn perft_divide_lists_every_first_move() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (ok, out, _) = chimera(&["perft", "--fen", fen, "--depth", "2", "--divide"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"Nodes searched: 2039"));
    assert_eq!(lines.iter().filter(|l| l.contains(": ") && !l.starts_with("Nodes")).count(), 48);
    assert!(lines.contains(&"e1g1: 43"));
}

#[test]
fn bad_input_fails_with_a_message() {
    let (ok, _, err) = chimera(&["perft", "--fen", "8/8/8 w - -", "--depth", "1"]);
    assert!(!ok);
    assert!(err.contains("piece placement"), "{err}");
    let (ok, _, err) = chimera(&["perft", "--variant", "nonesuch", "--depth", "1"]);
    assert!(!ok);
    assert!(err.contains("unknown variant 'nonesuch'"), "{err}");
    let (ok, _, err) = chimera(&["perft", "--depth", "x"]);
    assert!(!ok);
    assert!(err.contains("--depth 'x'"), "{err}");
}

#[test]
fn a_screenshot_that_cannot_be_saved_is_refused_before_the_window_opens() {
    // It once opened the window, failed to save, and exited 0.
    let (ok, _, err) = chimera(&["--variant", "chess", "--screenshot", "/no/such/folder/board.png"]);
    assert!(!ok);
    assert!(err.contains("the folder '/no/such/folder' does not exist"), "{err}");
    let (ok, _, err) = chimera(&["--variant", "chess", "--screenshot", "board.bmp"]);
    assert!(!ok);
    assert!(err.contains("ending in .png"), "{err}");
}

#[test]
fn list_variants() {
    let (ok, out, _) = chimera(&["list", "variants"]);
    assert!(ok);
    assert!(out.lines().any(|l| l == "chess"));
}

#[test]
fn list_presets() {
    let (ok, out, _) = chimera(&["list", "presets"]);
    assert!(ok);
    assert!(out.lines().any(|l| l == "piece-hp\tHit points"));
}

#[test]
fn list_profiles_and_perft_with_a_profile() {
    let (ok, out, _) = chimera(&["list", "profiles"]);
    assert!(ok);
    assert!(out.lines().any(|l| l == "sturdy-rooks\tSturdy rooks"), "{out}");
    // Long stride: pawns step three squares from their first rank and knights also step like
    // a wazir, so the tree is larger.
    let (ok, plain, _) = chimera(&["perft", "--depth", "2"]);
    assert!(ok);
    let (ok, out, err) = chimera(&["perft", "--depth", "2", "--profile", "long-stride"]);
    assert!(ok, "{err}");
    assert_ne!(out.lines().last(), plain.lines().last(), "{out}");
    let (ok, _, err) = chimera(&["perft", "--depth", "1", "--profile", "nonesuch"]);
    assert!(!ok && err.contains("no modifier profile 'nonesuch'"), "{err}");
}

#[test]
fn game_options_parse() {
    use chimera::cli::{Command, GameArgs, parse_args};
    let args: Vec<String> = [
        "--variant",
        "atomic",
        "--fen",
        "startpos",
        "--presets",
        "piece-hp, piece-shield",
        "--profile",
        "sturdy-rooks",
        "--moves",
        "e2e4 d7d5",
        "--screenshot",
        "x.png",
        "--screenshot-after",
        "5",
        "--bench-frames",
        "100",
        "--analyse",
        "--computer",
        "black",
        "--level",
        "4",
        "--pace",
        "0.5",
        "--until-ply",
        "12",
        "--clock",
        "10b30x3",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let expected = GameArgs {
        variant: Some("atomic".into()),
        fen: Some("startpos".into()),
        presets: vec!["piece-hp".into(), "piece-shield".into()],
        profile: Some("sturdy-rooks".into()),
        moves: vec!["e2e4".into(), "d7d5".into()],
        screenshot: Some("x.png".into()),
        screenshot_after: Some(5),
        bench_frames: Some(100),
        computer: [false, true],
        analyse: true,
        level: Some(4),
        pace_ms: Some(500),
        until_ply: Some(12),
        clock: chimera::clock::TimeControl::parse("10b30x3").ok(),
        editor: None,
    };
    assert_eq!(parse_args(&args), Ok(Command::Game(expected)));
    let bad: Vec<String> = ["--bench-frames", "many"].iter().map(|s| s.to_string()).collect();
    assert!(parse_args(&bad).unwrap_err().contains("--bench-frames needs a number"));
    let bad: Vec<String> = ["--level", "9"].iter().map(|s| s.to_string()).collect();
    assert!(parse_args(&bad).unwrap_err().contains("--level takes 1 to 8"));
    let editor = |args: &[&str]| match parse_args(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>()) {
        Ok(Command::Game(g)) => g.editor,
        other => panic!("{other:?}"),
    };
    assert_eq!(editor(&["--editor"]), Some(String::new()));
    assert_eq!(editor(&["--editor", "capablanca", "--screenshot", "x.png"]), Some("capablanca".into()));
    assert_eq!(editor(&["--editor", "--screenshot", "x.png"]), Some(String::new()));
    let bad: Vec<String> = ["--clock", "5+x"].iter().map(|s| s.to_string()).collect();
    assert!(parse_args(&bad).unwrap_err().contains("is not a time control"));
    let bad: Vec<String> = ["--computer", "red"].iter().map(|s| s.to_string()).collect();
    assert!(parse_args(&bad).unwrap_err().contains("--computer takes white, black, both or none"));
}

/// Without a display the game says so in one line and exits with an error (it panicked with
/// a backtrace).
#[cfg(feature = "gui")]
#[test]
fn without_a_display_the_window_says_so_in_one_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(["--variant", "chess"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .expect("the binary runs");
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("chimera:")).collect();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(
        lines,
        [
            "chimera: no display to open the game's window on (neither DISPLAY nor WAYLAND_DISPLAY is set); the commands perft, check, uci and list need none"
        ],
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// A reader that has gone (`chimera list variants | head -1`) ends the output quietly: no
/// panic, success. The pipe's reading end is closed before the program starts, so every write
/// meets the closed pipe.
#[test]
fn a_closed_pipe_ends_the_output_without_a_panic() {
    for args in [&["list", "variants"][..], &["list", "presets"], &["list", "profiles"], &["help"], &["--version"]] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_chimera")).args(args).stdout(writer).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && err.is_empty(), "{args:?}: {:?} {err}", out.status);
    }
}

#[test]
fn version_and_wrong_words_are_answered_as_a_unix_tool_would() {
    let (ok, out, _) = chimera(&["--version"]);
    assert!(ok);
    assert_eq!(out, "chimera 0.1.0\n");
    let code = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_chimera")).args(args).output().unwrap();
    for (args, names) in [
        (&["list", "presets", "bogus"][..], "unexpected 'bogus'"),
        (&["list"], "list what?"),
        (&["list", "pieces"], "'pieces'"),
        (&["help", "me"], "unexpected 'me'"),
        (&["uci", "now"], "unexpected 'now'"),
        (&["--version", "2"], "unexpected '2'"),
        (&["perft", "--depth", "4294967295"], "--depth takes 1 to 20"),
        (&["perft", "--depth", "100000"], "--depth takes 1 to 20"),
        (&["frobnicate"], "unknown command 'frobnicate'"),
    ] {
        let out = code(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(err.contains(names) && !err.contains("None"), "{args:?}: {err}");
    }
    // The help marks what is optional.
    let (_, usage, _) = chimera(&["help"]);
    assert!(usage.contains("chimera perft [--variant <id|file.ron|file.ini:section>] [--fen <FEN|startpos>] --depth <N>"), "{usage}");
}

#[test]
fn balance_options_parse() {
    use chimera::ai::balance::{Settings, Strength};
    use chimera::cli::{Command, parse_args};
    let parse = |args: &str| parse_args(&args.split(' ').map(str::to_string).collect::<Vec<_>>());
    let Ok(Command::Balance { variant, presets, settings, json, piece_values }) =
        parse("balance chess --presets piece-hp --games 50 --level 3 --jobs 2 --seed 9 --openings 4 --ply-cap 120 --band 45-55 --json")
    else {
        panic!()
    };
    assert_eq!((variant.as_str(), presets, json, piece_values), ("chess", vec!["piece-hp".to_string()], true, false));
    let expected = Settings { games: 50, strength: Strength::Level(3), openings: 4, jobs: 2, seed: 9, ply_cap: 120, band: (45, 55) };
    assert_eq!(settings, expected);
    let Ok(Command::Balance { settings, piece_values, .. }) = parse("balance chess --movetime 200 --piece-values") else { panic!() };
    assert_eq!((settings.strength, piece_values), (Strength::Movetime(200), true));
    assert!(!settings.strength.reproducible() && Strength::Level(3).reproducible());
    let Ok(Command::Balance { settings, .. }) = parse("balance chess") else { panic!() };
    assert_eq!((settings.strength, settings.jobs), (Strength::Nodes(5_000), 0), "the defaults (jobs 0: the cores)");
    assert!(parse("balance chess --nodes 100 --level 2").unwrap_err().contains("one of --level"));
    assert!(parse("balance chess --level 0").unwrap_err().contains("1 to 8"));
    assert!(parse("balance chess --level 9").unwrap_err().contains("at most 8"));
    assert!(parse("balance chess --band 60-40").unwrap_err().contains("--band"));
}
