//! Helpers shared by the integration tests that need them (`mod common;`).
// Each test binary uses its own part of this module.
#![allow(dead_code)]

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
