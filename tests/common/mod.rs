//! Helpers shared by the integration tests that need them (`crate::common`).
// Each test module uses its own part of this module.
#![allow(dead_code)]

use std::sync::OnceLock;

/// SplitMix64: a small seeded generator, the same on every machine, so that a failure replays
/// from its seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// One of `items`, which must not be empty.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The seed of a randomised test (issue 31: seeds move, so each commit checks new positions).
///
/// `var` (such as `CHIMERA_FUZZ_SEED`) replays a run: decimal or `0x` hex. Without it, the seed
/// is derived from the checked-out commit and `purpose`, so that CI on a new commit plays new
/// games and a rerun on the same commit replays them; outside a git checkout it is `purpose`'s
/// salt alone. The seed is printed with the line that replays it; a failing test's output
/// shows it.
pub fn seed(var: &str, purpose: &str) -> u64 {
    let given = std::env::var(var).ok().filter(|t| !t.trim().is_empty());
    let seed = match &given {
        Some(text) => parse_seed(text).unwrap_or_else(|| panic!("{var}={text:?} is not a seed (decimal or 0x hex)")),
        None => salt(purpose) ^ commit_salt(),
    };
    let from = if given.is_some() { "given" } else { "from the commit" };
    println!("seed {purpose}: {seed:#018x} ({from}; replay: {var}={seed:#018x})");
    seed
}

/// A seed as written by `seed`: decimal or `0x` hex.
pub fn parse_seed(text: &str) -> Option<u64> {
    let t = text.trim().replace('_', "");
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => t.parse().ok(),
    }
}

/// The salt of `git rev-parse HEAD` in the crate's directory (0 outside a checkout).
fn commit_salt() -> u64 {
    static SALT: OnceLock<u64> = OnceLock::new();
    *SALT.get_or_init(|| {
        std::process::Command::new("git")
            .args(["rev-parse", "HEAD"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map_or(0, |o| salt(String::from_utf8_lossy(&o.stdout).trim()))
    })
}

/// FNV-1a of `text`: a seed salt from a name.
pub fn salt(text: &str) -> u64 {
    text.bytes().fold(0xCBF2_9CE4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3))
}

/// Up to two presets beside the variant's own, each for a random scope, with random
/// parameters, and sometimes for a few turns only. Combinations the preset rules refuse are drawn again (at most a few times;
/// then none).
pub fn random_presets(rng: &mut Rng, variant: &chimera::rules::Variant) -> (chimera::rules::Variant, String) {
    for _ in 0..8 {
        let mut v = variant.clone();
        if rng.below(3) == 0 {
            return (v, String::new());
        }
        for _ in 0..1 + rng.below(2) {
            let def = chimera::presets::ALL[rng.below(chimera::presets::ALL.len())];
            let sides = [[true, true], [true, false], [false, true]][rng.below(3)];
            let turns = (rng.below(4) == 0).then(|| 1 + rng.below(12) as u32);
            // Half the parameters get a value of their own (a few steps above the least).
            let mut params = std::collections::BTreeMap::new();
            for spec in def.params {
                if rng.below(2) == 0 {
                    let span = (spec.max - spec.min).clamp(0, 8) as usize;
                    params.insert(spec.name.to_string(), f64::from(spec.min) + rng.below(span + 1) as f64);
                }
            }
            v.presets.push(chimera::rules::PresetRequest { id: def.id.to_string(), sides, turns, params });
        }
        if chimera::presets::new_game(v.clone(), "startpos").is_ok() {
            let names = v.presets[variant.presets.len()..]
                .iter()
                .map(|r| format!("{}{:?}{:?}{}", r.id, r.params, r.sides, r.turns.map(|t| format!(" for {t} turns")).unwrap_or_default()))
                .collect::<Vec<_>>()
                .join(", ");
            return (v, names);
        }
    }
    (variant.clone(), String::new())
}

/// The Python of the virtual environment `scripts/setup.sh` makes (pyffish and python-chess):
/// `$CHIMERA_PYTHON`, by default `$HOME/.cache/chimera-venv/bin/python`.
pub fn python() -> std::path::PathBuf {
    match std::env::var("CHIMERA_PYTHON") {
        Ok(p) if !p.is_empty() => std::path::PathBuf::from(p),
        _ => std::path::PathBuf::from(std::env::var("HOME").expect("HOME or CHIMERA_PYTHON is set")).join(".cache/chimera-venv/bin/python"),
    }
}
