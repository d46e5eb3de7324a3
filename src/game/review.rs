//! The game review in the window: on request (the panel's "Review", or the result card's),
//! every position of the game is searched on a thread of its own at
//! [`crate::ai::review::Budget`]'s node count, with a progress bar and a cancel. The finished
//! review draws White's expected score over the game as a graph (the evaluation bar's scale),
//! marks inaccuracies, mistakes and blunders on the graph and in the move list (the thresholds
//! are [`crate::ai::review`]'s), and says each side's count and average centipawn loss. A click
//! on the graph shows the position at that move; the reviewed game can be copied or saved as
//! PGN with `[%eval]` comments and `?!`/`?`/`??` marks.
//!
//! The review is of the game and the moves it searched: a game that goes on or is taken back
//! shows it as out of date, another game does not show it, and a review under way stops when
//! another game is put on the board.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use bevy::prelude::*;
use bevy_egui::egui;
use egui_plot::{HLine, HoverPosition, Line, Plot, PlotPoints, Points, VLine};

use super::files::GameAction;
use super::shared::{BrowseTo, GameReview, GameSetup, GameSystems, ReviewRun};
use crate::ai::review::{Budget, Judgement, Review};
use crate::rules::{MoveLog, Side};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<GameReview>();
    app.add_systems(Update, run_review.in_set(GameSystems::Respond));
}

/// Starts, follows and cancels the review; another game stops it.
fn run_review(world: &mut World) {
    let serial = world.resource::<GameSetup>().serial;
    let (requested, cancel) = {
        let mut r = world.resource_mut::<GameReview>();
        (std::mem::take(&mut r.requested), std::mem::take(&mut r.cancel))
    };
    if cancel || world.resource::<GameReview>().run.as_ref().is_some_and(|run| run.serial != serial) {
        let mut r = world.resource_mut::<GameReview>();
        (r.run, r.progress) = (None, None);
    }
    if requested {
        // The game replayed from its save: a review takes its moves back one by one, which a
        // fork cannot.
        let mut engine = match super::files::replayed_game(world) {
            Ok(e) => e,
            Err(e) => {
                world.resource_mut::<super::shared::Notice>().show(super::shared::Tone::Problem, format!("cannot review — {e}"), 4.0);
                return;
            }
        };
        let moves: Vec<crate::rules::Move> = world.resource::<MoveLog>().0.iter().map(|r| r.mv).collect();
        let total = moves.len() + 1;
        let (stop, done, result) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(0)), Arc::new(Mutex::new(None)));
        let (flag, counter, sink) = (stop.clone(), done.clone(), result.clone());
        std::thread::spawn(move || {
            super::computer::behind_the_window();
            let found = crate::ai::review::review(&mut engine, Budget::default(), &flag, |n, _| counter.store(n, Ordering::Relaxed));
            *sink.lock().expect("not poisoned") = Some(found);
        });
        let mut r = world.resource_mut::<GameReview>();
        r.progress = Some((0, total));
        r.run = Some(ReviewRun { stop, done, total, result, serial, moves });
        return;
    }
    let mut r = world.resource_mut::<GameReview>();
    let Some(run) = r.run.as_ref() else { return };
    let progress = (run.done.load(Ordering::Relaxed), run.total);
    let finished = run.result.lock().expect("not poisoned").take();
    match finished {
        Some(found) => {
            let run = r.run.take().expect("a run");
            r.progress = None;
            if let Some(review) = found {
                r.done = Some((run.serial, run.moves.clone(), review));
            }
        }
        None if r.progress != Some(progress) => r.progress = Some(progress),
        None => {}
    }
}

/// The colour of a mark.
pub(super) fn mark_colour(j: Judgement) -> egui::Color32 {
    match j {
        Judgement::Inaccuracy => egui::Color32::from_rgb(230, 200, 80),
        Judgement::Mistake => egui::Color32::from_rgb(235, 140, 50),
        Judgement::Blunder => egui::Color32::from_rgb(225, 70, 60),
    }
}

/// The words shown when a marked move is pointed at: "Mistake (−1.20). Nf3 was best."
pub(super) fn mark_words(review: &Review, i: usize) -> Option<String> {
    let note = review.moves.get(i)?;
    let j = note.judgement?;
    let after = review.positions.get(i + 1)?;
    let better = note.better.as_ref().map_or(String::new(), |b| format!(" {b} was best."));
    Some(format!("{} (evaluation {}).{better}", j.word(), after.pgn_eval()))
}

/// The review's card in the panel: start it, follow it, or show its graph, marks and figures.
pub(super) fn review_card(
    ui: &mut egui::Ui,
    (serial, log): (u64, &MoveLog),
    browsed: Option<usize>,
    review: &mut GameReview,
    browse_to: &mut MessageWriter<BrowseTo>,
    actions: &mut MessageWriter<GameAction>,
) {
    egui::Frame::new().fill(egui::Color32::from_rgb(34, 34, 40)).corner_radius(6).inner_margin(egui::Margin::same(8)).show(ui, |ui| {
        ui.set_width(ui.available_width());
        if let Some((done, total)) = review.progress {
            ui.label(egui::RichText::new("Reviewing the game").strong());
            ui.add(egui::ProgressBar::new(done as f32 / total.max(1) as f32).text(format!("{done} of {total} positions")));
            if ui.button("Cancel").clicked() {
                review.cancel = true;
            }
            return;
        }
        let Some(found) = review.of(serial, log) else {
            let words = if review.kept_for(serial) {
                "The game has changed since it was reviewed."
            } else {
                "The computer searches every position of the game, then marks the inaccuracies (?!), mistakes (?) and blunders (??)."
            };
            ui.label(words);
            if ui.add_enabled(!log.0.is_empty(), egui::Button::new("Review the game")).clicked() {
                review.requested = true;
            }
            return;
        };
        for side in [Side::White, Side::Black] {
            let acpl = found.average_cp_loss(side).map_or(String::new(), |a| format!(" · average loss {a:.0} cp"));
            ui.label(egui::RichText::new(format!("{side:?}: {}{acpl}", found.marks_in_words(side))).small());
        }
        let plies = found.positions.len().saturating_sub(1);
        let curve: Vec<[f64; 2]> = found.positions.iter().enumerate().map(|(i, p)| [i as f64, p.expected * 100.0]).collect();
        let shown = browsed.unwrap_or(plies);
        let response = Plot::new("review-graph")
            .height(120.0)
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false)
            .allow_boxed_zoom(false)
            .include_x(0.0)
            .include_x(plies.max(1) as f64)
            .include_y(0.0)
            .include_y(100.0)
            .y_axis_formatter(|m, _| format!("{:.0}", m.value))
            .show_axes([false, true])
            .label_formatter(|hover| {
                let (HoverPosition::NearDataPoint { position, .. } | HoverPosition::Elsewhere { position }) = *hover;
                let i = (position.x.round().max(0.0) as usize).min(plies);
                let mark = i.checked_sub(1).and_then(|m| mark_words(found, m)).map_or(String::new(), |w| format!("\n{w}"));
                Some(format!("after {i} moves: White {:.0} %{mark}", found.positions[i].expected * 100.0))
            })
            .show(ui, |plot| {
                plot.hline(HLine::new("", 50.0).color(egui::Color32::from_gray(90)));
                plot.vline(VLine::new("", shown as f64).color(egui::Color32::from_rgb(120, 180, 240)));
                plot.line(Line::new("White's expected score", PlotPoints::new(curve)).color(egui::Color32::from_gray(230)).width(2.0));
                for j in [Judgement::Inaccuracy, Judgement::Mistake, Judgement::Blunder] {
                    let dots: Vec<[f64; 2]> = found
                        .moves
                        .iter()
                        .enumerate()
                        .filter(|(_, m)| m.judgement == Some(j))
                        .map(|(i, _)| [(i + 1) as f64, found.positions[i + 1].expected * 100.0])
                        .collect();
                    plot.points(Points::new(j.word(), PlotPoints::new(dots)).radius(4.0).color(mark_colour(j)));
                }
                plot.pointer_coordinate()
            });
        if response.response.clicked()
            && let Some(at) = response.inner
        {
            let ply = (at.x.round().max(0.0) as usize).min(plies);
            browse_to.write(if ply == plies { BrowseTo::Live } else { BrowseTo::Ply(ply) });
        }
        ui.label(egui::RichText::new("White's expected score over the game; click to go to a move").weak().small());
        ui.horizontal(|ui| {
            if ui.button("Copy PGN").on_hover_text("The reviewed game, with [%eval] comments and ?! ? ?? marks").clicked() {
                actions.write(GameAction::CopyReview);
            }
            if ui.button("Save PGN").on_hover_text("Save the reviewed game in the games folder").clicked() {
                actions.write(GameAction::SaveReview);
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::shared::BoardInput;
    use crate::rules::Square;

    fn sq(name: &str) -> Square {
        crate::rules::Variant::chess().geometry.parse_square(name).unwrap()
    }

    fn play(app: &mut App, moves: &[(&str, &str)]) {
        for (from, to) in moves {
            app.world_mut().write_message(BoardInput::Press(sq(from)));
            app.world_mut().write_message(BoardInput::Release(sq(to)));
            app.update();
        }
    }

    /// Updates until `done` holds (the review runs on its own thread), at most about a minute.
    fn run_until(app: &mut App, done: impl Fn(&World) -> bool) {
        for _ in 0..6000 {
            app.update();
            if done(app.world()) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        panic!("the review did not finish in time");
    }

    /// A review asked for runs to its end, marks the blunder of the game on the board, and
    /// stays the game's only while the game has the moves it reviewed.
    #[test]
    fn a_review_marks_the_game_and_goes_out_of_date_when_the_game_changes() {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        crate::game::shared::start_game(app.world_mut(), "chess", &[]).unwrap();
        app.add_plugins((super::super::play::plugin, plugin));
        play(&mut app, &[("e2", "e4"), ("e7", "e5"), ("d1", "h5"), ("b8", "c6"), ("f1", "c4"), ("g8", "f6")]);
        assert_eq!(app.world().resource::<MoveLog>().0.len(), 6);
        app.world_mut().resource_mut::<GameReview>().requested = true;
        app.update();
        assert_eq!(app.world().resource::<GameReview>().progress.map(|p| p.1), Some(7), "seven positions to search");
        run_until(&mut app, |w| w.resource::<GameReview>().progress.is_none());
        let serial = app.world().resource::<GameSetup>().serial;
        let log = app.world().resource::<MoveLog>().clone();
        let review = app.world().resource::<GameReview>().of(serial, &log).expect("a review of the game").clone();
        assert_eq!(review.moves[5].judgement, Some(Judgement::Blunder), "3… Nf6 allows mate: {review:?}");
        assert_eq!(review.positions[6].white_mate(), Some(1));
        // A takeback: the review is kept but no longer the game's.
        app.world_mut().write_message(BoardInput::Takeback);
        app.update();
        let log = app.world().resource::<MoveLog>().clone();
        let r = app.world().resource::<GameReview>();
        assert!(log.0.len() < 6 && r.of(serial, &log).is_none() && r.kept_for(serial));
        // Another game: not kept for it.
        crate::game::shared::start_game(app.world_mut(), "chess", &[]).unwrap();
        let serial = app.world().resource::<GameSetup>().serial;
        assert!(!app.world().resource::<GameReview>().kept_for(serial));
    }
}
