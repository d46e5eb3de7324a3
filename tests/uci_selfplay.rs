//! `chimera uci` plays itself over the protocol: one game per catalogue variant, to its end or
//! 60 plies at `go nodes 1000` from a seeded random first move, every `bestmove` checked
//! against pyffish's legal moves where pyffish knows the variant (Orda and Orda Mirror through
//! `tests/data/orda.ini`), after a round of malformed input the engine must survive. The first
//! moves and Chess960's starts come from a seed derived from the commit
//! (`CHIMERA_SELFPLAY_SEED` replays one). The games are played by `scripts/uci_selfplay.py`
//! (Python with pyffish, made by `scripts/setup.sh`); the test fails, never skips, when that
//! Python is missing.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

#[test]
fn the_uci_engine_plays_every_catalogue_variant_against_itself_legally() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let engine = format!("{} uci", env!("CARGO_BIN_EXE_chimera"));
    let python = common::python();
    // (The script takes a decimal seed; the printed line gives the variable to replay it.)
    let seed = common::seed("CHIMERA_SELFPLAY_SEED", "uci-selfplay");
    let output = Command::new(&python)
        .arg(root.join("scripts/uci_selfplay.py"))
        .args([
            "--engine",
            &engine,
            "--games",
            "1",
            "--random-first",
            "--max-plies",
            "60",
            "--go",
            "nodes 1000",
            "--seed",
            &seed.to_string(),
        ])
        .arg("--ffish-ini")
        .arg(root.join("tests/data/orda.ini"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {} ({e}); run `bash scripts/setup.sh` (or set CHIMERA_PYTHON)", python.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    assert!(output.status.success(), "self-play found problems:\n{stdout}\n{stderr}");
    let variants = chimera::variants::builtin_ids().count();
    let played = stdout.lines().filter(|l| l.ends_with(" ok") && !l.starts_with('(')).count();
    assert!(played >= variants, "every catalogue variant is played ({played} of {variants} reported ok):\n{stdout}");
}
