//! The editor's balance lab (issue 35), without the window: a run of [`crate::ai::balance`] or
//! of [`crate::ai::piece_values`] on a worker thread that the window polls and can cancel, and
//! the results kept in the user's data folder.
//!
//! Results are keyed by a hash of the compiled rules ([`rules_key`]): the variant compiled,
//! without what does not change play (its id, name, description and summary, its board's look,
//! the pieces' value hints and pictures). An edit that changes the rules changes the key, so
//! the numbers shown are marked stale; renaming the variant or copying a measured value into a
//! piece's value field does not. A built-in variant's results are kept the same way.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::ai::balance::{self, Report, Settings};
use crate::ai::piece_values::{self, PieceValues};
use crate::presets::GameDefinition;
use crate::rules::Variant;

/// What a run measures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Measure {
    /// White's score and the verdict.
    #[default]
    Fairness,
    /// Each piece's value from imbalance games.
    PieceValues,
}

/// A finished run, as kept.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Results {
    /// The rules' key ([`rules_key`]) the run was played under.
    pub key: String,
    /// The variant's id and name then.
    pub variant: String,
    /// Its name.
    pub name: String,
    /// How it was played.
    pub settings: Settings,
    /// The fairness run's figures.
    pub report: Option<Report>,
    /// The piece values.
    pub values: Option<PieceValues>,
    /// Seconds the run took.
    pub seconds: f64,
    /// The run was cancelled: the figures are of the games finished.
    pub cancelled: bool,
}

/// The hash of the rules `variant` plays by (see the module docs), as 16 hex digits.
pub fn rules_key(variant: &Variant) -> String {
    let mut v = variant.clone();
    v.id.clear();
    v.name.clear();
    v.description.clear();
    v.rules_summary.clear();
    v.look = Default::default();
    // (A function that finds catalogue layouts: the same in every build, written as an address.)
    v.layouts = None;
    for def in &mut v.registry.types {
        def.value = 0;
        def.glyph = None;
        def.pictures = [None, None];
    }
    // FNV-1a over the compiled form written out, stable from run to run: function pointers
    // (the catalogue's layout lookup, Janggi's attack probes) write addresses, which change
    // from launch to launch, and are written as `fn`.
    let text = without_addresses(&format!("{v:?}"));
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    format!("{hash:016x}")
}

/// `text` with every `0x…` hexadecimal address written as `fn`.
fn without_addresses(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("0x") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 2..];
        let digits = tail.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(tail.len());
        out.push_str("fn");
        rest = &tail[digits..];
    }
    out.push_str(rest);
    out
}

/// Where results are kept: `balance` in the data folder ([`crate::save::data_dir`]).
pub fn results_dir() -> Option<PathBuf> {
    crate::save::data_dir().map(|d| d.join("balance"))
}

fn file_name(key: &str, measure: Measure) -> String {
    match measure {
        Measure::Fairness => format!("{key}-fairness.json"),
        Measure::PieceValues => format!("{key}-values.json"),
    }
}

/// Keeps `results` in `dir` (one file per rules key and measure).
///
/// # Errors
/// The file cannot be written.
pub fn save(dir: &Path, results: &Results) -> Result<(), String> {
    let measure = if results.values.is_some() { Measure::PieceValues } else { Measure::Fairness };
    let text = serde_json::to_string_pretty(results).map_err(|e| e.to_string())?;
    crate::save::write_atomically(&dir.join(file_name(&results.key, measure)), &text).map_err(|e| e.to_string())
}

/// The results kept in `dir` for these rules, or else the latest kept for the variant `id`
/// (under other rules: stale), by measure.
pub fn load(dir: &Path, key: &str, id: &str, measure: Measure) -> Option<Results> {
    let read = |p: &Path| std::fs::read_to_string(p).ok().and_then(|t| serde_json::from_str::<Results>(&t).ok());
    if let Some(r) = read(&dir.join(file_name(key, measure))) {
        return Some(r);
    }
    let suffix = file_name("", measure);
    let mut older: Vec<(std::time::SystemTime, Results)> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(&suffix))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, read(&e.path())?)))
        .filter(|(_, r)| !id.is_empty() && r.variant == id)
        .collect();
    older.sort_by_key(|(t, _)| *t);
    older.pop().map(|(_, r)| r)
}

/// A run on a worker thread.
pub struct Lab {
    shared: Arc<Shared>,
    started: Instant,
    thread: Option<std::thread::JoinHandle<()>>,
    /// What it measures.
    pub measure: Measure,
}

struct Shared {
    stop: AtomicBool,
    done: AtomicUsize,
    total: AtomicUsize,
    outcome: Mutex<Option<Result<Results, String>>>,
}

impl Lab {
    /// Starts measuring `variant` (played with its presets) on a thread of its own, the games
    /// on `settings.jobs` threads.
    pub fn start(variant: Variant, settings: Settings, measure: Measure) -> Lab {
        let shared = Arc::new(Shared {
            stop: AtomicBool::new(false),
            done: AtomicUsize::new(0),
            total: AtomicUsize::new(settings.games),
            outcome: Mutex::new(None),
        });
        let started = Instant::now();
        let thread = {
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || {
                let key = rules_key(&variant);
                let (id, name) = (variant.id.clone(), variant.name.clone());
                let progress = |done: usize, total: usize| {
                    shared.done.store(done, Ordering::Relaxed);
                    shared.total.store(total, Ordering::Relaxed);
                };
                let outcome = GameDefinition::new(variant).and_then(|definition| {
                    let (report, values) = match measure {
                        Measure::Fairness => (Some(balance::run(&definition, &settings, &shared.stop, &progress)?), None),
                        Measure::PieceValues => {
                            (None, Some(piece_values::measure_values(&definition, &settings, &shared.stop, &progress)?))
                        }
                    };
                    // A cancel that came after the last game is no cancel.
                    let complete = match (&report, &values) {
                        (Some(r), _) => r.games == settings.games,
                        (_, Some(v)) => {
                            v.pieces.iter().all(|p| p.played.as_ref().err().is_none_or(|e| e != "stopped"))
                                && (v.pawn.is_none() || v.pawn_odds.is_some())
                        }
                        _ => true,
                    };
                    let cancelled = shared.stop.load(Ordering::Relaxed) && !complete;
                    Ok(Results { key, variant: id, name, settings, report, values, seconds: started.elapsed().as_secs_f64(), cancelled })
                });
                *shared.outcome.lock().expect("not poisoned") = Some(outcome);
            })
        };
        Lab { shared, started, thread: Some(thread), measure }
    }

    /// Games done, games planned, and an estimate of the time left (once a game is done).
    pub fn progress(&self) -> (usize, usize, Option<Duration>) {
        let (done, total) = (self.shared.done.load(Ordering::Relaxed), self.shared.total.load(Ordering::Relaxed));
        let left = (done > 0).then(|| self.started.elapsed().mul_f64(total.saturating_sub(done) as f64 / done as f64));
        (done, total, left)
    }

    /// Asks the run to stop: the games under way end at once, and the figures are of the
    /// games finished.
    pub fn cancel(&self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    /// Whether it was asked to stop.
    pub fn cancelling(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
    }

    /// The outcome, once the run has ended (taken: later calls give `None`).
    pub fn finished(&mut self) -> Option<Result<Results, String>> {
        let outcome = self.shared.outcome.lock().expect("not poisoned").take()?;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        Some(outcome)
    }
}

impl Drop for Lab {
    /// A lab dropped (the editor closed) stops its run; the thread ends on its own.
    fn drop(&mut self) {
        self.cancel();
    }
}

/// The worker threads the editor gives a run: the cores but one, so the window keeps one.
pub fn editor_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).saturating_sub(1).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess() -> Variant {
        crate::variants::builtin("chess").unwrap()
    }

    #[test]
    fn the_key_follows_the_rules_not_the_names() {
        let a = chess();
        assert_eq!(rules_key(&a), rules_key(&chess()), "the same rules, the same key");
        let mut renamed = chess();
        renamed.name = "My chess".into();
        renamed.description = "Another text".into();
        renamed.registry.types[1].value = 777;
        assert_eq!(rules_key(&a), rules_key(&renamed));
        let mut other = chess();
        other.start_fen = other.start_fen.replacen('Q', "N", 1);
        assert_ne!(rules_key(&a), rules_key(&other));
        assert_ne!(rules_key(&a), rules_key(&crate::variants::builtin("capablanca").unwrap()));
        // Addresses (function pointers: Janggi's probes) change from launch to launch; none is
        // hashed, in any catalogue variant.
        assert_eq!(without_addresses("a: Some(0x5615af), b: 0x1f]"), "a: Some(fn), b: fn]");
        for id in crate::variants::builtin_ids() {
            let v = crate::variants::builtin(id).unwrap();
            assert!(!without_addresses(&format!("{v:?}")).contains("0x"), "{id}");
        }
        let janggi = crate::variants::builtin("janggi").unwrap();
        assert!(format!("{janggi:?}").contains("0x"), "Janggi's probes are function pointers");
    }

    #[test]
    fn a_lab_runs_cancels_and_keeps_its_results() {
        let settings =
            Settings { games: 2, strength: balance::Strength::Nodes(100), openings: 2, jobs: 1, ply_cap: 20, ..Settings::default() };
        let mut lab = Lab::start(chess(), settings.clone(), Measure::Fairness);
        let results = loop {
            if let Some(r) = lab.finished() {
                break r.unwrap();
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        assert_eq!(results.report.as_ref().unwrap().games, 2);
        assert!(!results.cancelled);
        assert_eq!(results.key, rules_key(&chess()));
        assert_eq!(lab.progress().0, 2);
        // Kept, and found again by key; under other rules, found by id (stale).
        let dir = std::env::temp_dir().join(format!("chimera-balance-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        save(&dir, &results).unwrap();
        assert_eq!(load(&dir, &results.key, "", Measure::Fairness).as_ref(), Some(&results));
        let stale = load(&dir, "0000000000000000", "chess", Measure::Fairness).unwrap();
        assert_ne!(stale.key, "0000000000000000");
        assert!(load(&dir, "0000000000000000", "chess", Measure::PieceValues).is_none());
        assert!(load(&dir, "0000000000000000", "shogi", Measure::Fairness).is_none());
        let _ = std::fs::remove_dir_all(&dir);
        // A long run cancelled ends (the time it takes is measured by hand: a test does not
        // time), with the games it finished.
        let long = Settings { games: 4, strength: balance::Strength::Nodes(100_000_000), ..settings };
        let mut lab = Lab::start(chess(), long, Measure::Fairness);
        std::thread::sleep(Duration::from_millis(300));
        let asked = Instant::now();
        lab.cancel();
        let results = loop {
            if let Some(r) = lab.finished() {
                break r.unwrap();
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        // (Printed for the record, not asserted: speed is a benchmark's business.)
        eprintln!("cancelled in {:?}", asked.elapsed());
        assert!(results.cancelled);
        assert!(results.report.unwrap().games < 4);
    }
}
