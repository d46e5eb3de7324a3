//! Ways to win, ready-made: King of the Hill, a race to the far rank, capturing every piece of a
//! kind, a number of checks, bare king and extinction. Each one writes its end condition and the
//! region it needs in one edit (one step of undo), reusing a region that already has exactly
//! those squares, so a designer never has to name or paint a region for them.

use super::Editor;
use super::rules::square_name;
use crate::rules::Verdict;
use crate::variants::{EndSpec, RegionSpec};

/// A ready-made way to win (or lose).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WinTemplate {
    /// King of the Hill: a royal piece reaching the centre squares (the middle two files and
    /// ranks; one on an odd side) wins.
    Hill,
    /// A race: one of these pieces (letters) reaching its far rank wins; each side races to the
    /// other side's first rank.
    FarRank {
        /// The letters of the pieces that count.
        pieces: String,
    },
    /// A side that loses every piece of this kind loses (capture them all to win).
    CaptureAll {
        /// The piece's letter.
        letter: char,
    },
    /// The side that gives this many checks wins.
    Checks(u8),
    /// A side left with only its king (its royal pieces) loses.
    BareKing,
    /// A side that loses every piece of any one kind it started with loses (Extinction chess).
    Extinction,
}

impl WinTemplate {
    /// Its name in the editor.
    pub fn title(&self) -> String {
        match self {
            WinTemplate::Hill => "King of the Hill (the four centre squares)".into(),
            WinTemplate::FarRank { .. } => "Race to the last rank".into(),
            WinTemplate::CaptureAll { letter } => format!("Capture all of a kind ({letter})"),
            WinTemplate::Checks(n) => format!("{n} checks win"),
            WinTemplate::BareKing => "Bare king loses".into(),
            WinTemplate::Extinction => "Extinction: lose a whole kind, lose the game".into(),
        }
    }

    /// What it does and what its options mean, for a tooltip.
    pub fn explanation(&self) -> &'static str {
        match self {
            WinTemplate::Hill => {
                "A king that reaches one of the centre squares wins at once. Checkmate still wins too. The centre is a region the editor makes for you (Board → Regions shows it)."
            }
            WinTemplate::FarRank { .. } => {
                "The first piece of the kinds you pick to reach the far rank (the opponent's first rank) wins. It starts with the king; tick other pieces in the condition below."
            }
            WinTemplate::CaptureAll { .. } => "A side that has lost every piece of this kind (on the board and in hand) loses the game.",
            WinTemplate::Checks(_) => "The side that gives check this many times wins (Three-check is 3). Checkmate still wins too.",
            WinTemplate::BareKing => "A side left with nothing but its king loses at once (as in Shatranj).",
            WinTemplate::Extinction => {
                "A side that loses every piece of any one kind it has (all its knights, say, or its king) loses. Kings may then be taken like other pieces: check no longer matters."
            }
        }
    }
}

/// The middle of `n` lines: the two middle ones, or the one.
fn middle(n: u8) -> (u8, u8) {
    if n.is_multiple_of(2) { (n / 2 - 1, n / 2) } else { (n / 2, n / 2) }
}

impl Editor {
    /// The letters of the royal piece types (the king's).
    pub fn royal_letters(&self) -> String {
        self.file().pieces.iter().flatten().filter(|p| p.royal).map(|p| p.letter).collect()
    }

    /// A region with exactly these squares for white and black: one that has them already, or
    /// a new one named after `name` (with a number when the name is taken). Returns its name and
    /// the regions to add (none when it was found).
    fn region_for(&self, name: &str, white: &[(u8, u8)], black: &[(u8, u8)]) -> (String, Vec<(String, RegionSpec)>) {
        let sorted = |v: &[(u8, u8)]| {
            let mut v = v.to_vec();
            v.sort_unstable();
            v
        };
        let want = [sorted(white), sorted(black)];
        let regions: Vec<String> = self.file().regions.iter().flatten().map(|(n, _)| n.clone()).collect();
        for r in &regions {
            let [w, b] = self.region_squares(r);
            if [sorted(&w), sorted(&b)] == want {
                return (r.clone(), Vec::new());
            }
        }
        let free = |base: &str| free_region_name(base, &regions);
        let list = |v: &[(u8, u8)]| RegionSpec::Squares(v.iter().map(|&(f, r)| square_name(f, r)).collect());
        if want[0] == want[1] {
            let n = free(name);
            return (n.clone(), vec![(n, list(white))]);
        }
        let n = free(name);
        let (w, b) = (free(&format!("{n}-white")), free(&format!("{n}-black")));
        let per_side = RegionSpec::PerSide { white: w.clone(), black: b.clone() };
        (n.clone(), vec![(w, list(white)), (b, list(black)), (n, per_side)])
    }

    /// Adds a ready-made way to win, with the region it needs, as one edit: after checkmate
    /// (which stays), or in place of a condition of the same kind (a number of checks, a bare
    /// king). Returns whether anything changed.
    ///
    /// # Errors
    /// A template that cannot apply: no royal piece for King of the Hill, no piece picked for a
    /// race, an unknown letter.
    pub fn add_win(&mut self, template: &WinTemplate) -> Result<bool, String> {
        let (files, ranks) = self.board_size();
        let mut regions = Vec::new();
        let condition = match template {
            WinTemplate::Hill => {
                let kings = self.royal_letters();
                if kings.is_empty() {
                    return Err("King of the Hill needs a royal piece (tick 'royal' on the king in Pieces)".into());
                }
                let ((f0, f1), (r0, r1)) = (middle(files), middle(ranks));
                let mut squares = vec![(f0, r0), (f1, r0), (f0, r1), (f1, r1)];
                squares.sort_unstable();
                squares.dedup();
                let (region, add) = self.region_for("centre", &squares, &squares);
                regions = add;
                EndSpec::RegionReached { pieces: kings, region, reply: false, safe: false, count: 1 }
            }
            WinTemplate::FarRank { pieces } => {
                if pieces.is_empty() {
                    return Err("pick the pieces that race".into());
                }
                self.known_letters(pieces)?;
                let white: Vec<(u8, u8)> = (0..files).map(|f| (f, ranks - 1)).collect();
                let black: Vec<(u8, u8)> = (0..files).map(|f| (f, 0)).collect();
                let (region, add) = self.region_for("far-rank", &white, &black);
                regions = add;
                EndSpec::RegionReached { pieces: pieces.clone(), region, reply: false, safe: false, count: 1 }
            }
            WinTemplate::CaptureAll { letter } => {
                self.known_letters(&letter.to_string())?;
                EndSpec::Extinction {
                    pieces: letter.to_string(),
                    per_type: false,
                    fewer_than: 1,
                    verdict: Verdict::Loss,
                    pseudo_royal: false,
                }
            }
            WinTemplate::Checks(n) => EndSpec::NCheck((*n).max(1)),
            WinTemplate::BareKing => EndSpec::BareKing(Verdict::Loss),
            WinTemplate::Extinction => {
                // The kinds a side starts with (on the board or in hand): one that only comes by
                // promotion is not lost before it is there.
                let start = self.file().start.clone().unwrap_or_default();
                let placed = start.split_whitespace().next().unwrap_or_default();
                let all: String = self
                    .file()
                    .pieces
                    .iter()
                    .flatten()
                    .map(|p| p.letter)
                    .filter(|l| placed.contains([*l, l.to_ascii_lowercase()]))
                    .collect();
                EndSpec::Extinction { pieces: all, per_type: true, fewer_than: 1, verdict: Verdict::Loss, pseudo_royal: false }
            }
        };
        let mut end = self.end_conditions();
        if end.contains(&condition) {
            return Ok(false);
        }
        let same_kind = |e: &EndSpec| {
            matches!((e, &condition), (EndSpec::NCheck(_), EndSpec::NCheck(_)) | (EndSpec::BareKing(_), EndSpec::BareKing(_)))
        };
        if let Some(i) = end.iter().position(same_kind) {
            end[i] = condition.clone();
        } else {
            let at = usize::from(end.first() == Some(&EndSpec::Checkmate));
            end.insert(at, condition.clone());
        }
        if *template == WinTemplate::Extinction {
            // Kings are taken like any piece: checkmate and stalemate no longer end the game.
            end.retain(|e| !matches!(e, EndSpec::Checkmate));
        }
        Ok(self.edit(|f| {
            let list = f.regions.get_or_insert_with(Default::default);
            for (name, spec) in regions {
                list.insert(name, spec);
            }
            f.end = Some(end);
            if *template == WinTemplate::Extinction
                && let Some(pieces) = f.pieces.as_mut()
            {
                for p in pieces.iter_mut() {
                    p.royal = false;
                }
            }
        }))
    }

    /// Refuses letters that name no piece type.
    fn known_letters(&self, letters: &str) -> Result<(), String> {
        for c in letters.chars() {
            if !self.file().pieces.iter().flatten().any(|p| p.letter == c) {
                return Err(format!("no piece with the letter {c}"));
            }
        }
        Ok(())
    }
}

/// A region name not in `taken`: `base`, else `base-2`, `base-3`…
pub fn free_region_name(base: &str, taken: &[String]) -> String {
    (1..).map(|i| if i == 1 { base.to_string() } else { format!("{base}-{i}") }).find(|n| !taken.contains(n)).expect("some number is free")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::Edit;

    fn perft(e: &Editor, fen: &str, depth: u32) -> u64 {
        let v = crate::variants::compile(e.file()).unwrap();
        crate::presets::new_game(v, fen).unwrap().perft(depth)
    }

    fn builtin(id: &str) -> Editor {
        Editor::new(crate::variants::resolve(crate::variants::builtin_file(id).unwrap(), &crate::variants::builtin_file).unwrap())
    }

    /// Each template, applied to chess, plays as the built-in variant it names; applied twice it
    /// changes nothing, and it is one step of undo.
    #[test]
    fn templates_play_as_the_variants_they_name() {
        let mut e = Editor::copy_of("chess").unwrap();
        assert!(e.add_win(&WinTemplate::Hill).unwrap());
        assert_eq!(e.region_squares("centre")[0], vec![(3, 3), (4, 3), (3, 4), (4, 4)]);
        assert!(!e.add_win(&WinTemplate::Hill).unwrap(), "applied twice, it changes nothing");
        assert!(e.problems().is_empty(), "{:?}", e.problems());
        let fen = "rnbqkbnr/pppppppp/8/8/8/2K5/PPPPPPPP/RNBQ1BNR w kq - 0 1";
        assert_eq!(perft(&e, fen, 2), perft(&builtin("kingofthehill"), fen, 2));
        e.undo();
        assert_eq!(e.file().regions, Editor::copy_of("chess").unwrap().file().regions, "one step of undo");

        let mut e = Editor::copy_of("chess").unwrap();
        e.add_win(&WinTemplate::Checks(3)).unwrap();
        e.add_win(&WinTemplate::Checks(3)).unwrap();
        assert_eq!(e.end_conditions().iter().filter(|c| matches!(c, EndSpec::NCheck(_))).count(), 1);
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2 3+3";
        assert_eq!(perft(&e, fen, 3), perft(&builtin("3check"), fen, 3));

        // King of the Hill reuses a centre painted before it, whatever its name.
        let mut e = Editor::copy_of("chess").unwrap();
        e.apply(&Edit::PaintRegion { name: "middle".into(), squares: vec![(3, 3), (4, 3), (3, 4), (4, 4)], on: true }).unwrap();
        e.add_win(&WinTemplate::Hill).unwrap();
        assert!(matches!(&e.end_conditions()[1], EndSpec::RegionReached { region, .. } if region == "middle"));
        assert_eq!(e.file().regions.as_ref().unwrap().len(), 1);
    }

    #[test]
    fn races_captures_bare_kings_and_extinction() {
        let mut e = Editor::copy_of("chess").unwrap();
        e.add_win(&WinTemplate::FarRank { pieces: "K".into() }).unwrap();
        let region = match &e.end_conditions()[1] {
            EndSpec::RegionReached { region, .. } => region.clone(),
            other => panic!("{other:?}"),
        };
        let [white, black] = e.region_squares(&region);
        assert_eq!((white.len(), black.len()), (8, 8));
        assert!(white.iter().all(|&(_, r)| r == 7) && black.iter().all(|&(_, r)| r == 0));
        assert!(e.problems().is_empty(), "{:?}", e.problems());
        // A white king one step from the eighth rank has a winning move.
        let v = crate::variants::compile(e.file()).unwrap();
        let mut g = crate::presets::new_game(v, "4k3/8/K7/8/8/8/8/8 w - - 0 1").unwrap();
        g.play_uci("a6a7").unwrap();
        assert!(g.outcome().is_none(), "the seventh rank is not the last");
        g.play_uci("e8e7").unwrap();
        g.play_uci("a7a8").unwrap();
        assert_eq!(g.outcome().map(|o| o.winner), Some(Some(crate::rules::Side::White)), "the king reached the last rank");
        assert!(e.add_win(&WinTemplate::FarRank { pieces: String::new() }).is_err());

        let mut e = Editor::copy_of("chess").unwrap();
        e.add_win(&WinTemplate::CaptureAll { letter: 'N' }).unwrap();
        assert!(e.add_win(&WinTemplate::CaptureAll { letter: 'X' }).is_err());
        let v = crate::variants::compile(e.file()).unwrap();
        let mut g = crate::presets::new_game(v, "4k3/8/8/8/8/8/3n4/4K1N1 w - - 0 1").unwrap();
        g.play_uci("e1d2").unwrap();
        assert_eq!(g.outcome().map(|o| o.winner), Some(Some(crate::rules::Side::White)), "black lost its last knight");

        let mut e = Editor::copy_of("chess").unwrap();
        e.add_win(&WinTemplate::BareKing).unwrap();
        assert!(e.end_conditions().contains(&EndSpec::BareKing(Verdict::Loss)));
        e.add_win(&WinTemplate::Extinction).unwrap();
        assert!(!e.end_conditions().contains(&EndSpec::Checkmate));
        assert!(e.file().pieces.iter().flatten().all(|p| !p.royal));
        assert!(e.problems().is_empty(), "{:?}", e.problems());
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let mut ext = Editor::copy_of("chess").unwrap();
        ext.add_win(&WinTemplate::Extinction).unwrap();
        assert_eq!(perft(&ext, fen, 3), perft(&builtin("extinction"), fen, 3));
        // In Shogi, kinds that come only by promotion are not counted as lost from the start.
        let mut shogi = Editor::copy_of("shogi").unwrap();
        shogi.add_win(&WinTemplate::Extinction).unwrap();
        let v = crate::variants::compile(shogi.file()).unwrap();
        let mut g = crate::presets::new_game(v.clone(), &v.start_fen).unwrap();
        g.play_uci("c3c4").unwrap();
        assert!(g.outcome().is_none(), "{:?}", g.outcome());

        // On a board of odd ranks, the hill is two squares, and a second click changes nothing.
        let mut e = Editor::copy_of("chess").unwrap();
        e.apply(&crate::editor::Edit::Board { files: 8, ranks: 9 }).unwrap();
        assert!(e.add_win(&WinTemplate::Hill).unwrap());
        assert_eq!(e.region_squares("centre")[0], vec![(3, 4), (4, 4)]);
        assert!(!e.add_win(&WinTemplate::Hill).unwrap());
    }
}
