//! The editor's Balance section (issue 35): choose games, strength and openings, run the
//! computer against itself on worker threads (the window keeps a core), watch the progress,
//! cancel, and read the results as charts and words; or measure the pieces' values and copy
//! one into a piece's value field. Results are kept by the rules' hash
//! ([`crate::editor::balance`]), so an edit that changes the rules marks them stale.

use std::time::Duration;

use bevy_egui::egui;
use egui_plot::{Bar, BarChart, Legend, Line, Plot, PlotPoints, Points, Span};

use super::{DONE, ERROR, WARNING};
use crate::ai::balance::{Report, Settings, Strength};
use crate::ai::piece_values::PieceValues;
use crate::editor::balance::{Lab, Measure, Results, editor_jobs, load, results_dir, rules_key, save};
use crate::editor::{Edit, Editor};
use crate::variants::PieceSpec;

const WHITE_WINS: egui::Color32 = egui::Color32::from_rgb(235, 235, 225);
const DRAWS: egui::Color32 = egui::Color32::from_rgb(140, 140, 150);
const BLACK_WINS: egui::Color32 = egui::Color32::from_rgb(60, 60, 70);
const BLUE: egui::Color32 = egui::Color32::from_rgb(110, 150, 210);

/// The section's own state.
pub(super) struct BalanceState {
    measure: Measure,
    games: usize,
    by_level: bool,
    nodes: u64,
    level: u8,
    openings: usize,
    lab: Option<Lab>,
    /// The last results of each measure (fairness, piece values), fresh or stale.
    results: [Option<Results>; 2],
    /// The rules' key of the definition as it stands (when it compiles).
    key: Option<String>,
    error: Option<String>,
    /// A run cancelled before it measured anything, said until the next run.
    notice: Option<String>,
}

impl Default for BalanceState {
    fn default() -> BalanceState {
        BalanceState {
            measure: Measure::Fairness,
            games: 100,
            by_level: false,
            nodes: 5_000,
            level: 5,
            openings: 6,
            lab: None,
            results: [None, None],
            key: None,
            error: None,
            notice: None,
        }
    }
}

fn slot(measure: Measure) -> usize {
    usize::from(measure == Measure::PieceValues)
}

impl BalanceState {
    /// The definition changed: its rules' key is worked out again, and results kept for it
    /// (or, failing those, the latest for this variant: stale) are found.
    pub(super) fn rules_changed(&mut self, compiled: Option<&crate::rules::Variant>) {
        self.key = compiled.map(rules_key);
        let (Some(key), Some(dir), Some(v)) = (&self.key, results_dir(), compiled) else { return };
        for measure in [Measure::Fairness, Measure::PieceValues] {
            let shown = &mut self.results[slot(measure)];
            if shown.as_ref().is_some_and(|r| &r.key == key) {
                continue;
            }
            // Kept results for these rules replace the ones shown; stale ones only fill a gap.
            match load(&dir, key, &v.id, measure) {
                Some(r) if &r.key == key || shown.is_none() => *shown = Some(r),
                _ => {}
            }
        }
    }

    fn settings(&self) -> Settings {
        Settings {
            games: self.games,
            strength: if self.by_level { Strength::Level(self.level) } else { Strength::Nodes(self.nodes) },
            openings: self.openings,
            jobs: editor_jobs(),
            ..Settings::default()
        }
    }
}

/// A bar filled with `colour`, outlined so that a dark one shows on the dark background.
fn solid(bar: Bar, colour: egui::Color32) -> Bar {
    bar.fill(colour).stroke(egui::Stroke::new(1.0, egui::Color32::from_gray(150)))
}

fn minutes(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 60 { format!("{} min {:02} s", s / 60, s % 60) } else { format!("{s} s") }
}

/// The Balance section.
pub(super) fn balance_section(ui: &mut egui::Ui, editor: &mut Editor, state: &mut BalanceState, compiled: Option<&crate::rules::Variant>) {
    ui.label(
        "The computer plays your variant against itself, both sides alike, from seeded openings, and counts. \
         Fairness: is White's score within the band? Piece values: each piece's worth in pawns from games where one side lacks it.",
    );
    ui.add_space(4.0);
    // A finished run is taken in, and kept.
    if let Some(lab) = &mut state.lab
        && let Some(outcome) = lab.finished()
    {
        let measure = lab.measure;
        state.lab = None;
        match outcome {
            // Cancelled before a game finished: the earlier results stay.
            Ok(results) if results.cancelled && results.report.as_ref().is_some_and(|r| r.games == 0) => {
                state.notice = Some("Cancelled before a game finished: the results shown are the earlier ones.".into());
            }
            Ok(results) if results.cancelled && results.values.as_ref().is_some_and(|v| v.pawn_odds.is_none()) => {
                state.notice = Some("Cancelled before the pawn odds were played: the results shown are the earlier ones.".into());
            }
            Ok(results) => {
                if !results.cancelled
                    && let Some(dir) = results_dir()
                    && let Err(e) = save(&dir, &results)
                {
                    state.error = Some(format!("The results could not be kept: {e}"));
                }
                state.results[slot(measure)] = Some(results);
            }
            Err(e) => state.error = Some(e),
        }
    }
    let running = state.lab.is_some();
    ui.add_enabled_ui(!running, |ui| {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut state.measure, Measure::Fairness, "Fairness")
                .on_hover_text("White's score over many games, with its interval and a verdict against 40–60 %");
            ui.selectable_value(&mut state.measure, Measure::PieceValues, "Piece values")
                .on_hover_text("Games in colour pairs where one side lacks a piece and the other pawns (or a cheaper piece and pawns)");
        });
        ui.horizontal(|ui| {
            ui.add(egui::DragValue::new(&mut state.games).range(2..=10_000).speed(2.0));
            ui.label(if state.measure == Measure::Fairness { "games" } else { "games a measurement (the pawn odds, then each piece)" });
        });
        ui.horizontal(|ui| {
            ui.label("Strength");
            egui::ComboBox::from_id_salt("balance-strength")
                .selected_text(if state.by_level { "a level" } else { "nodes a move" })
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut state.by_level, false, "nodes a move");
                    ui.selectable_value(&mut state.by_level, true, "a level");
                });
            if state.by_level {
                ui.add(egui::Slider::new(&mut state.level, 1..=crate::ai::MAX_LEVEL));
            } else {
                ui.add(egui::DragValue::new(&mut state.nodes).range(100..=1_000_000).speed(50.0));
            }
            ui.label("(the same seed gives the same games)");
        });
        ui.horizontal(|ui| {
            ui.label("Openings of");
            ui.add(egui::DragValue::new(&mut state.openings).range(0..=20));
            ui.label("random plies, each used once");
        });
    });
    ui.horizontal(|ui| {
        if let Some(lab) = &state.lab {
            let (done, total, left) = lab.progress();
            let text = match (lab.cancelling(), left) {
                (true, _) => format!("{done}/{total} games: cancelling…"),
                (false, Some(left)) => format!("{done}/{total} games, about {} left", minutes(left)),
                (false, None) => format!("{done}/{total} games (the openings are drawn first)"),
            };
            ui.add(egui::ProgressBar::new(done as f32 / total.max(1) as f32).text(text).desired_width(360.0));
            if ui.add_enabled(!lab.cancelling(), egui::Button::new("Cancel")).clicked() {
                lab.cancel();
            }
            ui.ctx().request_repaint_after(Duration::from_millis(200));
        } else {
            let run = ui
                .add_enabled(compiled.is_some(), egui::Button::new("Run"))
                .on_disabled_hover_text("The variant has problems: it must play first");
            if run.clicked()
                && let Some(v) = compiled
            {
                state.error = None;
                state.notice = None;
                state.lab = Some(Lab::start(v.clone(), state.settings(), state.measure));
            }
            ui.label(format!("on {} worker thread{}", editor_jobs(), if editor_jobs() == 1 { "" } else { "s" }));
        }
    });
    if let Some(e) = &state.error {
        ui.colored_label(ERROR, e);
    }
    if let Some(n) = &state.notice {
        ui.colored_label(WARNING, n);
    }
    ui.separator();
    let Some(results) = state.results[slot(state.measure)].clone() else {
        ui.label(match state.measure {
            Measure::Fairness => "No run yet for these rules.",
            Measure::PieceValues => "No piece values measured yet for these rules.",
        });
        return;
    };
    let settings = &results.settings;
    ui.label(format!(
        "{} {} at {}, openings of {} plies, {} thread{}, in {}.",
        settings.games,
        if results.values.is_some() { "games a measurement" } else { "games" },
        settings.strength.words(),
        settings.openings,
        settings.jobs,
        if settings.jobs == 1 { "" } else { "s" },
        minutes(Duration::from_secs_f64(results.seconds)),
    ));
    if results.cancelled {
        let played = results.report.as_ref().map(|r| format!("after {} of {} games", r.games, settings.games)).unwrap_or_default();
        ui.colored_label(WARNING, format!("Cancelled {played}: the figures are of the games finished before, and are not kept."));
    }
    if state.key.as_ref() != Some(&results.key) {
        ui.colored_label(
            WARNING,
            "Stale: the rules have changed since these numbers were measured. Run again for the variant as it is now.",
        );
    }
    if let Some(report) = &results.report {
        fairness(ui, report, settings);
    }
    if let Some(values) = &results.values {
        piece_values(ui, editor, values);
    }
}

/// The verdict, the score bar, the lengths' histogram and the figures.
fn fairness(ui: &mut egui::Ui, r: &Report, settings: &Settings) {
    let colour = if r.verdict.starts_with("fair") {
        DONE
    } else if r.verdict.starts_with("unfair") {
        ERROR
    } else {
        WARNING
    };
    ui.label(egui::RichText::new(capitalised(&r.verdict)).color(colour).strong().size(16.0));
    if r.games == 0 {
        return;
    }
    let n = r.games as f64;
    let pct = |x: f64| x * 100.0;
    // One bar: White's wins, draws, Black's wins; below it White's score with its interval, and
    // the fairness band shaded.
    let part = |name: &str, count: usize, colour| {
        BarChart::new(name, vec![solid(Bar::new(1.0, pct(count as f64 / n)).width(0.6), colour)]).horizontal().color(colour)
    };
    let white = part("White wins", r.white_wins, WHITE_WINS);
    let draws = part("Draws", r.draws, DRAWS).stack_on(&[&white]);
    let black = part("Black wins", r.black_wins, BLACK_WINS).stack_on(&[&white, &draws]);
    ui.horizontal_wrapped(|ui| {
        for (name, count, colour) in
            [("White wins", r.white_wins, WHITE_WINS), ("draws", r.draws, DRAWS), ("Black wins", r.black_wins, BLACK_WINS)]
        {
            ui.label(egui::RichText::new("■").color(colour).size(16.0));
            ui.label(format!("{name} {:.0} %", pct(count as f64 / n)));
        }
        let (dot, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
        ui.painter().circle_filled(dot.center(), 5.0, WARNING);
        ui.label("White's score and its 95 % interval");
        ui.label(egui::RichText::new("■").color(egui::Color32::from_rgb(60, 110, 60)).size(16.0));
        ui.label(format!("the fair band, {}–{} %", settings.band.0, settings.band.1));
    });
    let (lo, hi) = r.score_interval;
    Plot::new("balance-score")
        .height(110.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .show_y(false)
        .include_x(0.0)
        .include_x(100.0)
        .include_y(-0.2)
        .include_y(1.6)
        .y_axis_formatter(|_, _| String::new())
        .x_axis_formatter(|m, _| format!("{:.0} %", m.value))
        .show(ui, |plot| {
            plot.span(
                Span::new("", f64::from(settings.band.0)..=f64::from(settings.band.1))
                    .fill(egui::Color32::from_rgba_unmultiplied(120, 200, 120, 40)),
            );
            plot.bar_chart(white);
            plot.bar_chart(draws);
            plot.bar_chart(black);
            plot.line(
                Line::new("White's score, 95 % interval", PlotPoints::new(vec![[pct(lo), 0.3], [pct(hi), 0.3]])).width(3.0).color(WARNING),
            );
            plot.points(Points::new("White's score", PlotPoints::new(vec![[pct(r.score), 0.3]])).radius(5.0).color(WARNING));
        });
    // Game lengths, by how the game ended.
    let longest = r.records.iter().map(|g| g.plies).max().unwrap_or(1).max(1);
    let bin = longest.div_ceil(24).max(1);
    let bins = longest / bin + 1;
    let mut counts = [vec![0usize; bins], vec![0; bins], vec![0; bins]];
    for g in &r.records {
        let which = match g.winner {
            Some(crate::rules::Side::White) => 0,
            None => 1,
            Some(crate::rules::Side::Black) => 2,
        };
        counts[which][g.plies / bin] += 1;
    }
    let chart = |name: &str, which: usize, colour| {
        let bars = (0..bins)
            .map(|i| solid(Bar::new((i * bin) as f64 + bin as f64 / 2.0, counts[which][i] as f64).width(bin as f64 * 0.9), colour))
            .collect();
        BarChart::new(name, bars).color(colour)
    };
    let (w, d) = (chart("White won", 0, WHITE_WINS), chart("Drawn", 1, DRAWS));
    let d = d.stack_on(&[&w]);
    let b = chart("Black won", 2, BLACK_WINS).stack_on(&[&w, &d]);
    ui.label(egui::RichText::new("Game lengths (plies)").strong());
    Plot::new("balance-lengths")
        .height(150.0)
        .legend(Legend::default())
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .include_x(0.0)
        .include_y(0.0)
        .show(ui, |plot| {
            plot.bar_chart(w);
            plot.bar_chart(d);
            plot.bar_chart(b);
        });
    let elo = |x: Option<f64>| x.map_or("unbounded".to_string(), |e| format!("{e:+.0}"));
    egui::Grid::new("balance-figures").num_columns(2).striped(true).show(ui, |ui| {
        let mut row = |k: &str, v: String| {
            ui.label(k);
            ui.label(v);
            ui.end_row();
        };
        row(
            "Games",
            format!(
                "{}: White {} wins, Black {} wins, {} draws ({} at the ply cap)",
                r.games, r.white_wins, r.black_wins, r.draws, r.capped
            ),
        );
        row("White's score", format!("{:.1} % (95 % interval {:.1}–{:.1} %)", pct(r.score), pct(lo), pct(hi)));
        if let Some((share, (a, b))) = r.decisive_white {
            row("White's share of decisive games", format!("{:.1} % (Wilson {:.1}–{:.1} %)", pct(share), pct(a), pct(b)));
        }
        row("First-move advantage", format!("{} Elo ({} to {})", elo(r.elo.0), elo(r.elo.1.0), elo(r.elo.1.1)));
        row("Decisive games", format!("{:.0} %", pct(r.decisive_share)));
        row("Length", format!("mean {:.1} plies, median {:.1}", r.mean_plies, r.median_plies));
        row("Distinct", format!("{} openings, {} games", r.distinct_openings, r.distinct_games));
        row("Distinct positions", format!("{} after 4 plies, {} after 8", r.distinct_after[0], r.distinct_after[1]));
    });
    ui.label(egui::RichText::new("How the games ended").strong());
    let mut reasons: Vec<(&String, &usize)> = r.reasons.iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (reason, count) in reasons {
        ui.label(format!("{count} × {reason}"));
    }
}

/// Each piece's value, from its moves and from play, with a button that saves the measured
/// value as the piece's value.
fn piece_values(ui: &mut egui::Ui, editor: &mut Editor, v: &PieceValues) {
    if let (Some(odds), Some((elo, (lo, hi)))) = (&v.pawn_odds, v.elo_per_pawn) {
        ui.label(format!(
            "Two pawns short, a side scored {:.1} % over {} games: a pawn is worth about {elo:.0} Elo ({lo:.0} to {hi:.0}).",
            (1.0 - odds.score) * 100.0,
            odds.games
        ));
    } else if let Some(odds) = &v.pawn_odds {
        ui.colored_label(
            WARNING,
            format!(
                "Two pawns short, a side scored {:.1} % over {} games: not a pawn's worth to count in. More games or nodes.",
                (1.0 - odds.score) * 100.0,
                odds.games
            ),
        );
    }
    // The values as bars with their intervals, the estimates from the moves as dots.
    let measured: Vec<(usize, &crate::ai::piece_values::PieceValue)> =
        v.pieces.iter().enumerate().filter(|(_, p)| p.played.is_ok()).collect();
    if !measured.is_empty() {
        // Twice the dearest estimate is room enough for any value worth reading.
        let top = 2.0 * v.pieces.iter().map(|p| p.estimate).fold(1.0, f64::max);
        Plot::new("balance-values")
            .height(150.0)
            .legend(Legend::default())
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false)
            .default_y_bounds(-top / 4.0, top)
            .x_axis_formatter({
                let letters: Vec<char> = v.pieces.iter().map(|p| p.letter).collect();
                move |m, _| {
                    let i = m.value.round();
                    if (m.value - i).abs() < 0.01 && i >= 0.0 {
                        letters.get(i as usize).map(|c| c.to_string()).unwrap_or_default()
                    } else {
                        String::new()
                    }
                }
            })
            .show(ui, |plot| {
                let bars = measured
                    .iter()
                    .filter_map(|&(i, p)| Some(solid(Bar::new(i as f64, p.played.as_ref().ok()?.value).width(0.5), BLUE)))
                    .collect();
                plot.bar_chart(BarChart::new("From play (pawns)", bars).color(BLUE));
                for &(i, p) in &measured {
                    if let Ok(played) = &p.played {
                        let x = i as f64;
                        // (Clipped to the chart's range: a few games give intervals of tens of pawns.)
                        let (lo, hi) = (played.interval.0.max(-top / 4.0), played.interval.1.min(top));
                        plot.line(Line::new("95 % interval", PlotPoints::new(vec![[x, lo], [x, hi]])).color(WARNING).width(2.0));
                    }
                }
                let dots = v.pieces.iter().enumerate().map(|(i, p)| [i as f64, p.estimate]).collect::<Vec<_>>();
                plot.points(Points::new("From its moves", PlotPoints::new(dots)).radius(4.0).color(DONE));
            });
    }
    let pieces: Vec<PieceSpec> = editor.file().pieces.iter().flatten().cloned().collect();
    egui::Grid::new("balance-values-table").num_columns(5).striped(true).show(ui, |ui| {
        for h in ["Piece", "From its moves", "From play", "Games, against", ""] {
            ui.label(egui::RichText::new(h).strong());
        }
        ui.end_row();
        for p in &v.pieces {
            ui.label(format!("{} {}", p.letter, p.name));
            ui.label(format!("{:.2}", p.estimate));
            match &p.played {
                Ok(played) => {
                    // An interval wider than two pawns says more games are needed.
                    let text = format!("{:.2} ({:.2}–{:.2})", played.value, played.interval.0, played.interval.1);
                    if played.interval.1 - played.interval.0 > 4.0 {
                        ui.colored_label(WARNING, text).on_hover_text("A wide interval: more games would narrow it");
                    } else {
                        ui.label(text);
                    }
                    ui.label(format!("{}, against {}", played.measured.games, played.against));
                    let centipawns = (played.value * 100.0).round().clamp(0.0, 5000.0) as i32;
                    match pieces.iter().find(|s| s.letter == p.letter) {
                        _ if played.value <= 0.0 => {
                            ui.label("");
                        }
                        Some(spec) if spec.value != centipawns => {
                            if ui.button(format!("Use {centipawns}")).on_hover_text("Save it as the piece's value (centipawns)").clicked() {
                                let _ = editor.apply(&Edit::Piece(PieceSpec { value: centipawns, ..spec.clone() }));
                            }
                        }
                        Some(_) => {
                            ui.label("its value");
                        }
                        None => {
                            ui.label("").on_hover_text("Not one of this file's own pieces");
                        }
                    }
                }
                Err(why) => {
                    ui.label("—");
                    ui.label(egui::RichText::new(why).small());
                    ui.label("");
                }
            }
            ui.end_row();
        }
    });
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}
