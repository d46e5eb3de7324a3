//! The side panel (bevy_egui): the game's status and result, the move list in SAN with preset
//! annotations, takeback / redo / flip / new game, the variant and preset pickers, the rules in
//! plain words (in zen mode only the result, in the window's corner); and beside it, each its
//! own system, the promotion (or gating) chooser, the replace question and notices for refused
//! moves.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::files::{ClipboardOut, GameAction, saved_games};
use super::pictures::rules_in_words;
use super::pieces::PieceTextures;
use super::profile_panel::{ProfileLocal, ProfileRequest, ProfileView, section};
use super::screens::StartScreen;
use super::settings::EffectsLevel;
use super::settings::{BoardTheme, PieceSet, Settings};
use super::shared::{
    Analysis, BoardInput, BoardView, Browse, BrowseTo, CheckSquares, Clocks, ComputerPlay, FoulWarning, GameReview, GameSetup, GameSystems,
    NewGame, Notice, PANEL_WIDTH, PanelData, PendingChoice, PositionVersion, Screen, Selection, ToggleFullscreen, Tone, side_width,
};
use crate::presets::{ActivePresets, by_id};
use crate::rules::{GameState, MoveLog, Rules, RulesWorld, Side};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PanelData>();
    app.add_systems(Update, refresh_position_facts.in_set(GameSystems::Follow));
    panel_systems(app);
}

/// After each change of position, asks the rules once for what the screen shows of it: the
/// result (panel, banner, end sound) and the royal squares in check (glow, check sound).
fn refresh_position_facts(world: &mut World, mut seen: Local<Option<u64>>) {
    let version = world.resource::<PositionVersion>().0;
    if *seen == Some(version) {
        return;
    }
    *seen = Some(version);
    let in_check = world.is_check();
    let royals = world.resource::<crate::rules::MoveQuery>().royals.clone();
    let squares = if in_check { royals } else { Vec::new() };
    if world.resource::<CheckSquares>().0 != squares {
        world.resource_mut::<CheckSquares>().0 = squares;
    }
    let outcome = world.outcome();
    let mut data = world.resource_mut::<PanelData>();
    data.headline = outcome.as_ref().map(headline);
    data.outcome = outcome.map(|o| o.to_string());
}

/// How a game ended, in a player's words: who won and what happened, the side named where the
/// rule's words allow it ("Black's king was blown up: White wins").
pub fn headline(outcome: &crate::rules::Outcome) -> String {
    use crate::rules::Reason;
    let name = |side: Side| if side == Side::White { "White" } else { "Black" };
    let Some(winner) = outcome.winner else {
        return match &outcome.reason {
            Reason::Stalemate => "Stalemate: a draw".into(),
            Reason::FiftyMoves => "A draw by the fifty-move rule".into(),
            Reason::Repetition => "A draw by threefold repetition".into(),
            Reason::InsufficientMaterial => "A draw: neither side can mate".into(),
            Reason::Checkmate => "Checkmate: a draw".into(),
            Reason::Rule(why) => format!("A draw: {why}"),
        };
    };
    let (w, l) = (name(winner), name(winner.opponent()));
    match &outcome.reason {
        Reason::Checkmate => format!("Checkmate: {w} wins"),
        Reason::Stalemate => format!("Stalemate: {w} wins"),
        Reason::FiftyMoves => format!("{w} wins by the fifty-move rule"),
        Reason::Repetition => format!("{w} wins: {l} repeated the position"),
        Reason::InsufficientMaterial => format!("{w} wins: {l} cannot mate"),
        Reason::Rule(why) => {
            let why = why.as_str();
            if let Some(piece) = why.strip_suffix(" exploded") {
                format!("{l}'s {piece} was blown up: {w} wins")
            } else if let Some(piece) = why.strip_suffix(" captured") {
                format!("{l}'s {piece} was captured: {w} wins")
            } else if let Some(piece) = why.strip_suffix(" killed") {
                format!("{l}'s {piece} was killed: {w} wins")
            } else if why.starts_with("reached the goal") || why == "held the goal" {
                format!("{w} {why} and wins")
            } else if why == "time forfeit" {
                format!("{l} ran out of time: {w} wins")
            } else {
                format!("{w} wins: {why}")
            }
        }
    }
}

/// The shortcuts, as the panel lists them (letters act only while no text field has the
/// keyboard, so typing `Rf3` never flips the board).
const KEYS: &[(&str, &str)] = &[
    ("U", "take back a move"),
    ("R", "replay it"),
    ("Left / Right", "look back / on through the game"),
    ("Home / End", "the start / back to the game"),
    ("F", "flip the board"),
    ("Z", "zen mode: the board alone (Z again: back)"),
    ("F11", "fullscreen"),
    ("Esc", "cancel a selection"),
    ("Enter", "play the typed move"),
    ("click or drag", "move a piece"),
    ("the same, on the computer's turn", "premove (Esc drops it)"),
    ("king two squares, or onto its rook", "castle (O-O typed)"),
    ("right-drag", "draw an arrow"),
    ("right-click", "circle (again: remove)"),
    ("with Shift / Ctrl", "red"),
    ("with Alt", "blue (with both: yellow)"),
    ("click empty square", "clear arrows, circles"),
];

/// Said on entering zen mode.
pub(super) const ZEN_NOTICE: &str = "Zen mode: press Z to bring the panel back";

/// The window's overlays and panel, each its own system, drawn in this order: the clipboard
/// handed to the window, the clocks' column in zen mode, the side panel (in zen mode only its
/// result card), the promotion (or gating) chooser, the foul warning, the replace question, the
/// notice. The side panel is one egui panel (a panel is laid out once a frame), drawn from one
/// function per section, each given only what it shows and changes.
fn panel_systems(app: &mut App) {
    app.add_systems(
        bevy_egui::EguiPrimaryContextPass,
        (copy_to_clipboard, zen_clocks, side_panel, choice_window, foul_window, replace_window, notice_toast).chain(),
    );
}

/// Text a file action copied goes to the window's clipboard.
fn copy_to_clipboard(mut contexts: EguiContexts, mut clipboard: ResMut<ClipboardOut>) -> Result {
    if let Some(text) = clipboard.0.take() {
        contexts.ctx_mut()?.copy_text(text);
    }
    Ok(())
}

/// A layout root over the whole window, for panels.
fn root(ctx: &egui::Context, id: &'static str) -> egui::Ui {
    egui::Ui::new(ctx.clone(), id.into(), egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()))
}

/// Zen mode: the board alone, and the clocks beside it when the game has them.
fn zen_clocks(mut contexts: EguiContexts, view: Res<BoardView>, clocks: Res<Clocks>) -> Result {
    let (true, Some(clock)) = (view.zen, &clocks.clock) else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let side = side_width(&view, true);
    let now = clocks.now();
    egui::Panel::right("zen")
        .exact_size(side)
        .resizable(false)
        .show(&mut root(ctx, "zen-root"), |ui| super::clocks::faces(ui, clock, view.bottom, now));
    Ok(())
}

/// What the side panel reads of the game.
#[derive(bevy::ecs::system::SystemParam)]
struct GameView<'w> {
    rules: Res<'w, Rules>,
    state: Res<'w, GameState>,
    log: Res<'w, MoveLog>,
    data: Res<'w, PanelData>,
    check: Res<'w, CheckSquares>,
    active: Res<'w, ActivePresets>,
    setup: Res<'w, GameSetup>,
    textures: Res<'w, PieceTextures>,
    clocks: Res<'w, Clocks>,
    browse: Res<'w, Browse>,
    branching: Res<'w, super::files::Branching>,
    typing: Res<'w, super::typing::TypingMoves>,
    editor: Res<'w, super::editor_screen::EditorScreen>,
    time: Res<'w, Time>,
    shown: Res<'w, State<Screen>>,
}

/// What the side panel sends and changes.
#[derive(bevy::ecs::system::SystemParam)]
struct PanelOut<'w> {
    inputs: MessageWriter<'w, BoardInput>,
    new_game: MessageWriter<'w, NewGame>,
    actions: MessageWriter<'w, GameAction>,
    typed: MessageWriter<'w, super::typing::TypedMove>,
    browse_to: MessageWriter<'w, BrowseTo>,
    fullscreen: MessageWriter<'w, ToggleFullscreen>,
    start: ResMut<'w, StartScreen>,
    next: ResMut<'w, NextState<Screen>>,
    computer: ResMut<'w, ComputerPlay>,
    analysis: ResMut<'w, Analysis>,
    review: ResMut<'w, GameReview>,
    set_up: ResMut<'w, super::shared::SetUpRequested>,
    view: ResMut<'w, BoardView>,
    notice: ResMut<'w, Notice>,
    settings: ResMut<'w, Settings>,
}

/// The modifier profile's section reads these.
#[derive(bevy::ecs::system::SystemParam)]
struct ProfileParts<'w> {
    profile: Option<Res<'w, crate::presets::ActiveProfile>>,
    swap: Option<Res<'w, crate::presets::PendingSwap>>,
    requests: MessageWriter<'w, ProfileRequest>,
    board: Res<'w, crate::rules::Board>,
    homes: Option<Res<'w, crate::rules::Homes>>,
    selection: Res<'w, Selection>,
}

/// The panel's own state: the paste box, the move being typed, the list of saved games (with
/// when it was read), the profile section's.
#[derive(Default)]
struct PanelLocal {
    paste: String,
    typed: String,
    saved: Option<(f32, Vec<std::path::PathBuf>)>,
    profile: ProfileLocal,
}

/// The side panel: its sections top to bottom.
fn side_panel(
    mut contexts: EguiContexts,
    game: GameView,
    mut out: PanelOut,
    mut parts: ProfileParts,
    mut local: Local<PanelLocal>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if out.view.zen {
        // The result in zen mode: the same card, opaque, in the window's top right corner,
        // beside the board rather than over it.
        if let (Some(headline), Screen::Game) = (&game.data.headline, game.shown.get()) {
            egui::Area::new(egui::Id::new("game-over")).anchor(egui::Align2::RIGHT_TOP, [-10.0, 10.0]).show(ctx, |ui| {
                ui.set_max_width(240.0);
                result_card(ui, headline, &game, &mut out);
            });
        }
        return Ok(());
    }
    let local = &mut *local;
    egui::Panel::right("game").exact_size(PANEL_WIDTH).resizable(false).show(&mut root(ctx, "panel-root"), |ui| {
        // Beside the start screen the panel shows the game but takes no clicks: the game waits.
        if *game.shown.get() != Screen::Game {
            ui.disable();
        }
        // The clocks, each beside the board's edge where its side plays.
        if let Some(clock) = &game.clocks.clock {
            super::clocks::faces(ui, clock, out.view.bottom, game.clocks.now());
            ui.add_space(4.0);
        }
        ui.heading(&game.rules.0.name);
        ui.label(egui::RichText::new(&game.rules.0.description).italics());
        ui.separator();
        status(ui, &game, &mut out);
        controls(ui, &game, &mut out);
        // Dimmed once the game is over rather than gone, so that the list below stays put.
        ui.add_enabled_ui(game.data.outcome.is_none(), |ui| typed_move(ui, &game, &mut local.typed, &mut out.typed));
        ui.separator();
        move_list(ui, &game, &out.review, &mut out.browse_to, &mut out.actions);
        ui.separator();
        game_buttons(ui, &game, &mut out);
        ui.separator();
        // The sections scroll in the room left below the game (the window may be short).
        egui::ScrollArea::vertical().id_salt("sections").auto_shrink([false, false]).show(ui, |ui| {
            egui::CollapsingHeader::new("Game")
                .default_open(false)
                .show(ui, |ui| game_files(ui, &game, &mut out.actions, &mut out.analysis, local));
            egui::CollapsingHeader::new("Keys and mouse").default_open(false).show(ui, keys);
            egui::CollapsingHeader::new("Settings").default_open(false).show(ui, |ui| settings_section(ui, &mut out));
            egui::CollapsingHeader::new("Rules").default_open(false).show(ui, |ui| rules_of_the_game(ui, &game));
            egui::CollapsingHeader::new("Modifier profile").default_open(parts.profile.is_some()).show(ui, |ui| {
                let view = ProfileView {
                    active: parts.profile.as_deref(),
                    swap: parts.swap.as_deref(),
                    variant: &game.rules.0,
                    board: &parts.board,
                    homes: parts.homes.as_deref(),
                    selection: &parts.selection,
                };
                section(ui, view, &mut parts.requests, &mut local.profile);
            });
        });
    });
    Ok(())
}

/// The status card's least height: the same whether the game runs or is over, so that nothing
/// below it moves when the game ends.
const STATUS_HEIGHT: f32 = 54.0;

/// A card of the panel's width and at least [`STATUS_HEIGHT`] high.
fn card(ui: &mut egui::Ui, fill: egui::Color32, contents: impl FnOnce(&mut egui::Ui)) {
    egui::Frame::new().fill(fill).corner_radius(6).inner_margin(egui::Margin::same(8)).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.set_min_height(STATUS_HEIGHT);
        contents(ui);
    });
}

/// Who is to move, with a hint or what the computer is doing; or, the game over, the result
/// card. Below it, who plays which side.
fn status(ui: &mut egui::Ui, game: &GameView, out: &mut PanelOut) {
    let state = &game.state;
    if let Some(headline) = &game.data.headline {
        // The result beside the board, never over it: the deciding squares stay in sight.
        result_card(ui, headline, game, out);
    } else {
        card(ui, egui::Color32::from_rgb(40, 40, 40), |ui| {
            let to_move = if state.turn == Side::White { "White" } else { "Black" };
            let check = if game.check.0.is_empty() { "" } else { " — check!" };
            let extra = if state.half_moves_this_turn > 0 { " (again)" } else { "" };
            ui.label(egui::RichText::new(format!("{to_move} to move{extra}{check}")).strong().size(18.0));
            let computer = &mut *out.computer;
            if let Some(status) = &computer.status {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(status);
                });
            } else if computer.sides.iter().any(Option::is_some)
                && !computer.plays(state.turn)
                && ui.button("Hint").on_hover_text("Show the computer's best move for you as an arrow").clicked()
            {
                computer.hint_requested = true;
            }
        });
    }
    let computer = &out.computer;
    if computer.sides.iter().any(Option::is_some) {
        let who = |side: Side| match computer.sides[side.index()] {
            Some(level) => format!("computer (level {level})"),
            None => "you".to_string(),
        };
        ui.label(format!("White: {} · Black: {}", who(Side::White), who(Side::Black)));
    }
}

/// Takeback, redo, flip, and a pass where the variant has one.
fn controls(ui: &mut egui::Ui, game: &GameView, out: &mut PanelOut) {
    ui.horizontal(|ui| {
        if ui.button("⟲ Takeback").clicked() {
            out.inputs.write(BoardInput::Takeback);
        }
        if ui.button("Redo ⟳").clicked() {
            out.inputs.write(BoardInput::Redo);
        }
        if ui.button("Flip").clicked() {
            out.view.bottom = out.view.bottom.opponent();
        }
        if game.rules.0.switches.pass
            && game.data.outcome.is_none()
            && ui.button("Pass").on_hover_text("Pass the turn (not while in check)").clicked()
        {
            out.inputs.write(BoardInput::Pass);
        }
        let on = out.analysis.on;
        if ui
            .selectable_label(on, "Analyse")
            .on_hover_text(
                "The computer studies the position on the board: an evaluation bar, its best lines, the best move as a green arrow",
            )
            .clicked()
        {
            out.analysis.on = !on;
        }
        let open = out.review.open;
        // A branch is not the game: its review would replace the game's.
        let branch = game.branching.of(game.setup.serial).is_some();
        if !branch
            && ui
                .selectable_label(open, "Review")
                .on_hover_text("The computer searches every position of the game and marks the inaccuracies, mistakes and blunders")
                .clicked()
        {
            out.review.open = !open;
        }
    });
    if out.analysis.on {
        analysis_card(ui, game, &mut out.analysis);
    }
    if out.review.open && game.branching.of(game.setup.serial).is_none() {
        super::review::review_card(
            ui,
            (game.setup.serial, &game.log),
            game.browse.ply,
            &mut out.review,
            &mut out.browse_to,
            &mut out.actions,
        );
    }
}

/// The analysis: the evaluation bar (White's share, a mate said as such), then the best lines
/// with their depth and score, and how many lines to show.
fn analysis_card(ui: &mut egui::Ui, game: &GameView, analysis: &mut Analysis) {
    card(ui, egui::Color32::from_rgb(34, 38, 34), |ui| {
        if game.data.outcome.is_some() && game.browse.ply.is_none() {
            ui.label("The game is over. Click a move in the list to analyse the position after it.");
            return;
        }
        let best = analysis.shown.first();
        // White's expected score from the evaluation (400 centipawns: 10 to 1), as the bar's
        // white part; a mate fills it.
        let share = match best {
            Some(l) => match l.white_mate {
                Some(n) => f32::from(u8::from(n > 0)),
                None => crate::ai::review::expected_score(l.white_cp) as f32,
            },
            None => 0.5,
        };
        let (rect, _) = ui.allocate_exact_size(egui::vec2(ui.available_width(), 14.0), egui::Sense::hover());
        let painter = ui.painter();
        painter.rect_filled(rect, 3.0, egui::Color32::from_rgb(50, 50, 55));
        let mut white = rect;
        white.set_width(rect.width() * share);
        painter.rect_filled(white, 3.0, egui::Color32::from_rgb(235, 235, 225));
        painter.vline(rect.center().x, rect.y_range(), egui::Stroke::new(1.0, egui::Color32::from_rgb(200, 80, 80)));
        let words = |l: &super::shared::AnalysisLine| match l.white_mate {
            Some(n) if n > 0 => format!("White mates in {n}"),
            Some(n) => format!("Black mates in {}", -n),
            None => format!("{:+.2}", f64::from(l.white_cp) / 100.0),
        };
        match best {
            Some(l) => ui.label(egui::RichText::new(format!("{}   depth {}, {} nodes", words(l), l.depth, l.nodes)).strong()),
            None => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("Thinking…");
                })
                .response
            }
        };
        for (i, l) in analysis.shown.iter().enumerate() {
            ui.label(egui::RichText::new(format!("{}. {}  {}", i + 1, words(l), l.san)).small());
        }
        ui.horizontal(|ui| {
            ui.label("Lines");
            for n in 1..=3 {
                ui.selectable_value(&mut analysis.lines, n, n.to_string());
            }
        });
    });
}

/// A move typed on the keyboard, completed from the legal moves.
fn typed_move(ui: &mut egui::Ui, game: &GameView, typed: &mut String, typed_out: &mut MessageWriter<super::typing::TypedMove>) {
    let field =
        ui.add(egui::TextEdit::singleline(typed).hint_text("Type a move: Nf3, e2e4, P@d5 — Enter plays it").desired_width(f32::INFINITY));
    let hits = super::typing::completions(&game.typing.0, typed);
    if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) && !typed.trim().is_empty() {
        // The one move the text begins, or the text itself (the rules read it, and say why
        // when they cannot, naming the moves it could be); a text several moves begin stays to
        // be finished.
        let exact = hits.iter().any(|(san, uci)| san.eq_ignore_ascii_case(typed.trim()) || uci == typed.trim());
        let send = match hits.as_slice() {
            [(_, uci)] => uci.clone(),
            _ => typed.clone(),
        };
        typed_out.write(super::typing::TypedMove(send));
        if hits.len() == 1 || exact {
            typed.clear();
        }
        field.request_focus();
    }
    if !typed.trim().is_empty() {
        match hits.len() {
            0 => ui.label(egui::RichText::new("no legal move begins so").weak()),
            1 => ui.label(egui::RichText::new("Enter plays it").weak()),
            _ => ui.label(egui::RichText::new("several moves begin so:").weak()),
        };
        ui.horizontal_wrapped(|ui| {
            for (san, uci) in hits.iter().take(12) {
                if ui.small_button(san.as_str()).on_hover_text(uci.as_str()).clicked() {
                    typed_out.write(super::typing::TypedMove(uci.clone()));
                    typed.clear();
                }
            }
        });
    }
}

/// The room the panel keeps below the move list: the game buttons and the sections' headers.
const BELOW_THE_MOVES: f32 = 200.0;

/// The move list; a click shows the position after a move (view only).
fn move_list(
    ui: &mut egui::Ui,
    game: &GameView,
    review: &GameReview,
    browse_to: &mut MessageWriter<BrowseTo>,
    actions: &mut MessageWriter<GameAction>,
) {
    let log = &game.log;
    let review = review.of(game.setup.serial, log);
    ui.label(egui::RichText::new("Moves").strong());
    // The browsing line is always there (its buttons dimmed while not browsing) and the list
    // keeps its height, so that the buttons below never move.
    let ply = game.browse.ply;
    // Moves being tried from a position of the game: the way back to it.
    if let Some(branch) = game.branching.of(game.setup.serial) {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(format!("A branch after {} moves", branch.ply)).color(egui::Color32::from_rgb(150, 210, 140)));
            if ui.button("Return to the game").on_hover_text("The game as it was, at the move the branch left from").clicked() {
                actions.write(GameAction::LeaveBranch);
            }
        });
    }
    let line = match ply {
        Some(ply) => egui::RichText::new(format!("Viewing the position after {ply} of {} moves", log.0.len()))
            .color(egui::Color32::from_rgb(120, 180, 240)),
        None => egui::RichText::new("Click a move to see its position").weak(),
    };
    ui.label(line);
    ui.horizontal(|ui| {
        if ui.add_enabled(ply.is_some(), egui::Button::new("Back to the game")).on_hover_text("End").clicked() {
            browse_to.write(BrowseTo::Live);
        }
        let play_here = ui
            .add_enabled(ply.is_some(), egui::Button::new("Play from here"))
            .on_hover_text("Take the game back to this position (the moves after it can be redone)");
        if let (true, Some(ply)) = (play_here.clicked(), ply) {
            actions.write(GameAction::GoTo(ply));
        }
        let try_here = ui
            .add_enabled(ply.is_some(), egui::Button::new("Try moves"))
            .on_hover_text("Play other moves from this position; the game is kept to return to");
        if let (true, Some(ply)) = (try_here.clicked(), ply) {
            actions.write(GameAction::Branch(ply));
        }
    });
    // As tall as the window leaves room for above the buttons and sections below it (so taller
    // in a taller window, the same height all game long).
    let height = (ui.available_height() - BELOW_THE_MOVES).clamp(160.0, 640.0);
    egui::ScrollArea::vertical().auto_shrink([false, false]).max_height(height).stick_to_bottom(true).show(ui, |ui| {
        egui::Grid::new("moves").num_columns(3).striped(true).show(ui, |ui| {
            let mut number = 1;
            let mut column = 0;
            for (i, record) in log.0.iter().enumerate() {
                if column == 0 {
                    ui.label(format!("{number}."));
                    if record.mover == Side::Black {
                        ui.label("…");
                        column = 1;
                    }
                }
                let san = record.san.clone().unwrap_or_else(|| "?".into());
                let mut text = if record.effects.is_empty() { san } else { format!("{san} *") };
                // The review's mark, in its colour.
                let mark = review.and_then(|r| r.moves.get(i)).and_then(|m| m.judgement);
                if let Some(j) = mark {
                    text.push_str(j.suffix());
                }
                let current = game.browse.ply.unwrap_or(log.0.len()) == i + 1;
                let rich = match mark {
                    Some(j) => egui::RichText::new(text).color(super::review::mark_colour(j)),
                    None => egui::RichText::new(text),
                };
                let label = ui.selectable_label(current, rich);
                if label.clicked() {
                    browse_to.write(BrowseTo::Ply(i + 1));
                }
                let mut hover: Vec<String> = record.effects.clone();
                hover.extend(review.and_then(|r| super::review::mark_words(r, i)));
                if !hover.is_empty() {
                    label.on_hover_text(hover.join("\n"));
                }
                column += 1;
                let next_is_same_side = log.0.get(i + 1).is_some_and(|n| n.mover == record.mover);
                if column == 2 || next_is_same_side {
                    ui.end_row();
                    column = 0;
                    if record.mover == Side::Black || next_is_same_side {
                        number += 1;
                    }
                }
            }
        });
    });
}

/// The game's result with what to do next: a rematch or another game (a move back is the
/// takeback below, or U).
fn result_card(ui: &mut egui::Ui, headline: &str, game: &GameView, out: &mut PanelOut) {
    card(ui, egui::Color32::from_rgb(52, 46, 34), |ui| {
        ui.label(egui::RichText::new(headline).size(18.0).strong().color(egui::Color32::from_rgb(240, 190, 70)));
        ui.horizontal(|ui| {
            if ui.button("Rematch").on_hover_text("The same game again, from its start").clicked() {
                out.new_game.write(NewGame::default());
            }
            if ui.button("New game…").clicked() {
                open_new_game(game, out);
            }
            let branch = game.branching.of(game.setup.serial).is_some();
            if !game.log.0.is_empty()
                && !branch
                && ui.button("Review").on_hover_text("Find where the game turned: every move searched").clicked()
            {
                out.review.open = true;
                if out.review.of(game.setup.serial, &game.log).is_none() && out.review.progress.is_none() {
                    out.review.requested = true;
                }
            }
        });
    });
}

/// The new-game window, on this game's variant and presets.
fn open_new_game(game: &GameView, out: &mut PanelOut) {
    out.next.set(Screen::Start);
    out.start.selected = Some(game.setup.variant_id.clone());
    out.start.presets = game.active.0.iter().map(|a| a.id).collect();
}

/// New game, rematch, and back to the editor after a test game.
fn game_buttons(ui: &mut egui::Ui, game: &GameView, out: &mut PanelOut) {
    ui.horizontal(|ui| {
        if ui.button("New game…").clicked() {
            open_new_game(game, out);
        }
        if ui.button("Rematch").clicked() {
            out.new_game.write(NewGame::default());
        }
        if ui.button("Set up…").on_hover_text("Place pieces to make a position of this game, then play or analyse it").clicked() {
            out.set_up.0 = true;
        }
        if game.editor.editor.is_some() && ui.button("Back to the editor").clicked() {
            out.next.set(Screen::Editor);
        }
    });
}

/// FEN and PGN out, a FEN or PGN pasted in, saving, and the saved games.
fn game_files(
    ui: &mut egui::Ui,
    game: &GameView,
    actions: &mut MessageWriter<GameAction>,
    analysis: &mut Analysis,
    local: &mut PanelLocal,
) {
    ui.horizontal(|ui| {
        if ui.button("Copy FEN").clicked() {
            actions.write(GameAction::CopyFen);
        }
        if ui.button("Copy PGN").clicked() {
            actions.write(GameAction::CopyPgn);
        }
        if ui.button("Save game").clicked() {
            actions.write(GameAction::Save);
            local.saved = None;
        }
    });
    ui.add(egui::TextEdit::multiline(&mut local.paste).hint_text("Paste a FEN or a PGN game").desired_rows(3).desired_width(f32::INFINITY));
    ui.horizontal(|ui| {
        if ui.button("Load").clicked() {
            actions.write(GameAction::LoadText(local.paste.clone()));
        }
        if ui.button("Load and analyse").on_hover_text("Load it with the analysis on, to study the position").clicked() {
            actions.write(GameAction::LoadText(local.paste.clone()));
            analysis.on = true;
        }
    });
    // Saved games, listed again every few seconds.
    let now = game.time.elapsed_secs();
    if local.saved.as_ref().is_none_or(|(at, _)| now - at > 3.0) {
        local.saved = Some((now, saved_games()));
    }
    if let Some((_, files)) = local.saved.as_ref()
        && !files.is_empty()
    {
        ui.label("Saved games:");
        egui::ScrollArea::vertical().id_salt("saved").max_height(90.0).show(ui, |ui| {
            for f in files.iter().take(30) {
                let name = f.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
                if ui.link(name).clicked() {
                    actions.write(GameAction::LoadFile(f.clone()));
                }
            }
        });
    }
}

/// Every key and mouse action.
fn keys(ui: &mut egui::Ui) {
    // Two columns that wrap within the panel (long entries were cut off at its edge).
    let half = (ui.available_width() / 2.0 - 8.0).max(60.0);
    egui::Grid::new("keys").num_columns(2).max_col_width(half).show(ui, |ui| {
        for (key, what) in KEYS {
            ui.add(egui::Label::new(egui::RichText::new(*key).strong()).wrap());
            ui.add(egui::Label::new(*what).wrap());
            ui.end_row();
        }
    });
}

/// Board colours, piece set, effects, sound, coordinates, animation speed, zen and fullscreen.
fn settings_section(ui: &mut egui::Ui, out: &mut PanelOut) {
    let mut s = out.settings.clone();
    egui::ComboBox::from_label("Board").selected_text(format!("{:?}", s.theme)).show_ui(ui, |ui| {
        for t in BoardTheme::ALL {
            ui.selectable_value(&mut s.theme, t, format!("{t:?}"));
        }
    });
    egui::ComboBox::from_label("Pieces").selected_text(format!("{:?}", s.pieces)).show_ui(ui, |ui| {
        ui.selectable_value(&mut s.pieces, PieceSet::Glyphs, "Glyphs");
        ui.selectable_value(&mut s.pieces, PieceSet::Flat, "Flat");
        ui.selectable_value(&mut s.pieces, PieceSet::Letters, "Letters");
    });
    egui::ComboBox::from_label("Effects").selected_text(format!("{:?}", s.effects)).show_ui(ui, |ui| {
        for level in [EffectsLevel::Off, EffectsLevel::Normal, EffectsLevel::Arcade] {
            ui.selectable_value(&mut s.effects, level, format!("{level:?}"));
        }
    });
    ui.add(egui::Slider::new(&mut s.volume, 0.0..=1.0).text("Volume"));
    ui.checkbox(&mut s.muted, "Mute");
    ui.checkbox(&mut s.coordinates, "Coordinates");
    ui.add(
        egui::Slider::new(&mut s.animation_speed, super::settings::ANIMATION_SPEEDS).logarithmic(true).text("Animation speed").suffix("×"),
    )
    .on_hover_text("How fast pieces glide and effects play");
    ui.horizontal(|ui| {
        if ui.button("Zen mode").on_hover_text("The board alone (Z)").clicked() {
            out.view.zen = true;
            out.notice.show(Tone::Info, ZEN_NOTICE, 3.0);
        }
        if ui.button("Fullscreen").on_hover_text("F11").clicked() {
            out.fullscreen.write(ToggleFullscreen);
        }
    });
    if s != *out.settings {
        *out.settings = s;
    }
}

/// The rules in words, the pieces with their sentences and move diagrams, the presets.
fn rules_of_the_game(ui: &mut egui::Ui, game: &GameView) {
    let v = &game.rules.0;
    if !v.rules_summary.is_empty() {
        ui.label(&v.rules_summary);
    }
    rules_in_words(ui, v, &game.textures);
    for a in &game.active.0 {
        if let Some(def) = by_id(a.id) {
            ui.label(egui::RichText::new(def.name).strong());
            ui.label(def.description);
        }
    }
}

/// The question before a drop that mates where that is a foul (Shogi's pawn-drop mate).
fn foul_window(
    mut contexts: EguiContexts,
    warning: Res<FoulWarning>,
    rules: Res<Rules>,
    view: Res<BoardView>,
    clocks: Res<Clocks>,
    mut inputs: MessageWriter<BoardInput>,
) -> Result {
    let Some(kind) = warning.0.and_then(|m| m.dropped()) else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let name = &rules.0.registry.def(kind).name;
    let side = side_width(&view, clocks.clock.is_some());
    egui::Window::new("A foul").collapsible(false).resizable(false).anchor(egui::Align2::CENTER_CENTER, [-(side / 2.0), 0.0]).show(
        ctx,
        |ui| {
            ui.label(egui::RichText::new(format!("This {name} drop mates, which is a foul: you lose.")).size(16.0));
            ui.label("Play it?");
            ui.horizontal(|ui| {
                if ui.button(egui::RichText::new("Play it").size(16.0)).clicked() {
                    inputs.write(BoardInput::ConfirmFoul);
                }
                if ui.button(egui::RichText::new("Cancel").size(16.0)).clicked() {
                    inputs.write(BoardInput::Cancel);
                }
            });
        },
    );
    Ok(())
}

/// The promotion (or gating) chooser, while a move waits for a choice.
fn choice_window(
    mut contexts: EguiContexts,
    pending: Res<PendingChoice>,
    rules: Res<Rules>,
    state: Res<GameState>,
    board: Res<crate::rules::Board>,
    textures: Res<PieceTextures>,
    view: Res<BoardView>,
    clocks: Res<Clocks>,
    mut inputs: MessageWriter<BoardInput>,
) -> Result {
    if pending.0.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let v = &rules.0;
    let side = side_width(&view, clocks.clock.is_some());
    egui::Window::new("Choose").collapsible(false).resizable(false).anchor(egui::Align2::CENTER_CENTER, [-(side / 2.0), 0.0]).show(
        ctx,
        |ui| {
            ui.horizontal(|ui| {
                for (i, m) in pending.0.iter().enumerate() {
                    let (name, kind) = match (m.promotion, m.gate) {
                        (Some(p), _) => (v.registry.def(p).name.clone(), Some(p)),
                        (None, Some(g)) => (format!("gate {}", v.registry.def(g.kind).name), Some(g.kind)),
                        (None, None) if pending.0.iter().any(|c| c.gate.is_some()) => ("no gate".into(), None),
                        // The piece as it is, pictured beside what it may become.
                        (None, None) => {
                            let cell = board.cell(m.from);
                            let kind = cell.is_piece().then(|| cell.kind());
                            (kind.map_or("no promotion".into(), |k| format!("stay a {}", v.registry.def(k).name)), kind)
                        }
                    };
                    let texture = kind.and_then(|k| textures.of(v.registry.def(k), state.turn));
                    let clicked = match texture {
                        Some(tex) => ui.add(egui::Button::image_and_text(egui::load::SizedTexture::new(tex, [56.0, 56.0]), name)).clicked(),
                        None => ui.button(egui::RichText::new(name).size(18.0)).clicked(),
                    };
                    if clicked {
                        inputs.write(BoardInput::Choose(i));
                    }
                }
                if ui.button("Cancel").clicked() {
                    inputs.write(BoardInput::Cancel);
                }
            });
        },
    );
    Ok(())
}

/// Asks before a new or loaded game replaces the game in progress, which stays among the
/// unfinished games either way.
fn replace_window(
    mut contexts: EguiContexts,
    mut replacing: ResMut<super::files::Replacing>,
    rules: Res<crate::rules::Rules>,
    log: Res<crate::rules::MoveLog>,
    view: Res<BoardView>,
    clocks: Res<Clocks>,
    mut new_game: MessageWriter<NewGame>,
    mut actions: MessageWriter<GameAction>,
) -> Result {
    let Some(waiting) = replacing.0.clone() else { return Ok(()) };
    // Over the board's middle, where the new-game window was.
    let side = side_width(&view, clocks.clock.is_some());
    let ctx = contexts.ctx_mut()?;
    let what = match &waiting {
        super::files::Replacement::New(_) => "Start a new game?",
        super::files::Replacement::Load(_) => "Load another game?",
    };
    let moves = super::files::moves_text(log.0.len());
    let mut answer = None;
    egui::Window::new(what).collapsible(false).resizable(false).anchor(egui::Align2::CENTER_CENTER, [-(side / 2.0), 0.0]).show(ctx, |ui| {
        ui.label(format!("The {} game in progress ({moves}) will be put away.", rules.0.name));
        ui.label("It stays among your unfinished games: New game… lists the last five to resume.");
        ui.horizontal(|ui| {
            if ui.button(egui::RichText::new("Put it away and go on").size(15.0)).clicked() {
                answer = Some(true);
            }
            if ui.button(egui::RichText::new("Keep playing").size(15.0)).clicked() {
                answer = Some(false);
            }
        });
    });
    match answer {
        Some(true) => {
            replacing.0 = None;
            match waiting.confirmed() {
                super::files::Replacement::New(request) => {
                    new_game.write(request);
                }
                super::files::Replacement::Load(action) => {
                    actions.write(action);
                }
            }
        }
        Some(false) => replacing.0 = None,
        None => {}
    }
    Ok(())
}

/// A notice (a refused move, a flag) at the top of the board for a few seconds.
fn notice_toast(
    mut contexts: EguiContexts,
    mut notice: ResMut<Notice>,
    view: Res<BoardView>,
    clocks: Res<Clocks>,
    time: Res<Time>,
) -> Result {
    let Some((text, left)) = notice.0.clone() else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let side = side_width(&view, clocks.clock.is_some());
    egui::Area::new(egui::Id::new("notice")).anchor(egui::Align2::CENTER_TOP, [-(side / 2.0), 16.0]).show(ctx, |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            let colour = match notice.1 {
                Tone::Info => egui::Color32::from_rgb(235, 228, 212),
                Tone::Done => egui::Color32::from_rgb(130, 215, 120),
                Tone::Problem => egui::Color32::from_rgb(240, 120, 90),
            };
            ui.label(egui::RichText::new(&text).size(16.0).color(colour));
        });
    });
    let left = left - time.delta_secs();
    notice.0 = (left > 0.0).then_some((text, left));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Outcome, Reason};

    #[test]
    fn results_are_said_in_a_players_words() {
        let say = |o: Outcome| headline(&o);
        assert_eq!(say(Outcome::win(Side::White, Reason::Checkmate)), "Checkmate: White wins");
        assert_eq!(say(Outcome::win(Side::White, Reason::Rule("king exploded".into()))), "Black's king was blown up: White wins");
        assert_eq!(say(Outcome::win(Side::Black, Reason::Rule("reached the goal".into()))), "Black reached the goal and wins");
        assert_eq!(say(Outcome::win(Side::Black, Reason::Rule("time forfeit".into()))), "White ran out of time: Black wins");
        assert_eq!(say(Outcome::draw(Reason::InsufficientMaterial)), "A draw: neither side can mate");
        assert_eq!(say(Outcome::draw(Reason::Stalemate)), "Stalemate: a draw");
    }
}
