//! Drawing only when something changes: the window updates on input and window events, and
//! asks for the next frame only while something moves on it (effects, glides, the computer
//! thinking or due to move, a scripted move still to play, another screen asked for, and one
//! frame after a click or a key so that what it changed is drawn). Otherwise it sleeps, so an idle
//! board costs next to nothing. Automation (`--screenshot`, `--bench-frames`, `--moves`) runs
//! continuously, as it counts frames.
//!
//! At start-up the renderer compiles its pipelines (shaders) over several frames, and sprites are
//! not drawn until theirs are ready: while any is still compiling the window asks for frames too
//! (it once went to sleep before the board's were ready, and showed a blank board until the
//! mouse moved).
//!
//! Bevy 0.19's `reactive_low_power` ignores device events (mouse motion outside the window);
//! egui asks for a frame itself when its widgets animate, and the text cursor does not blink,
//! so a focused text field does not keep the window awake. bevy_egui 0.42 reports the modifier
//! keys to egui every frame as an input event, which egui answers with another frame: that
//! event is dropped while the modifiers stay the same.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy::winit::{UpdateMode, WinitSettings};
use bevy_egui::{EguiContexts, egui};

use super::GameOptions;
use super::shared::{ComputerPlay, PanelData, Screen, Script, playing};

/// How long an idle window sleeps between updates when nothing wakes it.
const IDLE_WAIT: Duration = Duration::from_secs(10);

pub(super) fn plugin(app: &mut App) {
    let automated = {
        let o = app.world().resource::<GameOptions>();
        o.screenshot.is_some() || o.bench_frames.is_some() || !o.moves.is_empty()
    };
    app.insert_resource(if automated { continuous() } else { reactive() });
    // The renderer tells the window whether it still compiles pipelines.
    if let Some(render) = app.get_sub_app_mut(bevy::render::RenderApp) {
        let warming = Warming(Arc::new(AtomicBool::new(true)));
        render.insert_resource(warming.clone());
        render.add_systems(bevy::render::Render, note_warming.in_set(bevy::render::RenderSystems::Cleanup));
        app.insert_resource(warming);
    }
    app.add_systems(bevy_egui::EguiPrimaryContextPass, (window_style, settle_after_input));
    app.add_systems(PostUpdate, keep_awake_while_moving);
    app.add_systems(
        PreUpdate,
        drop_unchanged_modifiers.after(bevy_egui::EguiPreUpdateSet::ProcessInput).before(bevy_egui::EguiPreUpdateSet::BeginPass),
    );
}

/// Settings for play: update on input and when asked.
pub(super) fn reactive() -> WinitSettings {
    WinitSettings { focused_mode: UpdateMode::reactive_low_power(IDLE_WAIT), unfocused_mode: UpdateMode::reactive_low_power(IDLE_WAIT * 6) }
}

/// Settings for automation: every frame.
fn continuous() -> WinitSettings {
    WinitSettings { focused_mode: UpdateMode::Continuous, unfocused_mode: UpdateMode::Continuous }
}

fn window_style(mut contexts: EguiContexts, mut done: Local<bool>) {
    if *done {
        return;
    }
    if let Ok(ctx) = contexts.ctx_mut() {
        ctx.all_styles_mut(|s| {
            s.visuals.text_cursor.blink = false;
            // Scroll bars always shown, so that a list says it goes on.
            s.spacing.scroll = egui::style::ScrollStyle::solid();
        });
        *done = true;
    }
}

/// A click or a key can change what the window shows after the part it changed was drawn (a
/// piece added below the list that shows it, a popup that egui lays out unseen on its first
/// frame): one more frame after each settles it, which the window would otherwise draw only at
/// the next event (a click then seemed to do nothing until the pointer moved).
fn settle_after_input(mut contexts: EguiContexts, mut redraw: MessageWriter<RequestRedraw>) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let acted = ctx.input(|i| {
        i.events.iter().any(|e| matches!(e, egui::Event::PointerButton { .. } | egui::Event::Key { .. } | egui::Event::Text(_)))
    });
    if acted {
        redraw.write(RequestRedraw);
    }
}

/// Whether the renderer still compiles pipelines, shared by the main and the render world.
#[derive(Resource, Clone, Default)]
pub(super) struct Warming(Arc<AtomicBool>);

impl Warming {
    /// Whether pipelines are still compiling.
    pub(super) fn busy(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

fn note_warming(cache: Res<bevy::render::render_resource::PipelineCache>, warming: Res<Warming>) {
    warming.0.store(cache.waiting_pipelines().next().is_some(), Ordering::Relaxed);
}

/// Whether anything on the window moves this frame, or the renderer is not ready: then the
/// next frame is asked for.
pub(super) fn keep_awake_while_moving(
    animating: Query<(), Or<(With<super::effects::Particle>, With<super::board::Glide>, With<super::effects::PopIn>)>>,
    computer: Res<ComputerPlay>,
    panel: Res<PanelData>,
    state: Res<crate::rules::GameState>,
    script: Res<Script>,
    screen: Option<Res<State<Screen>>>,
    next_screen: Option<Res<NextState<Screen>>>,
    warming: Option<Res<Warming>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    // Another screen asked for: the next frame shows it (it once waited for the next event, so
    // keys typed into a new variant's name went to the screen before it).
    let switching = next_screen.is_some_and(|n| !matches!(*n, NextState::Unchanged));
    if switching || warming.is_some_and(|w| w.busy()) {
        redraw.write(RequestRedraw);
        return;
    }
    // The computer waits while another screen shows: nothing to wake for then.
    let playing = playing(screen);
    let computer_due = playing && computer.plays(state.turn) && panel.outcome.is_none();
    if !animating.is_empty() || (playing && computer.busy()) || computer_due || !script.0.is_empty() {
        redraw.write(RequestRedraw);
    }
}

/// bevy_egui 0.42 tells egui the modifier keys every frame, as an input event; egui answers any
/// input event by asking for another frame, so the window would never sleep. The event is kept
/// only when the modifiers changed.
fn drop_unchanged_modifiers(mut inputs: Query<(Entity, &mut bevy_egui::EguiInput)>, mut last: Local<HashMap<Entity, egui::Modifiers>>) {
    for (entity, mut input) in &mut inputs {
        input.0.events.retain(|e| match e {
            egui::Event::ModifiersChanged(m) => last.insert(entity, *m) != Some(*m),
            _ => true,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app() -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        app.add_message::<RequestRedraw>();
        app.init_resource::<ComputerPlay>();
        app.init_resource::<super::super::shared::PanelData>();
        app.init_resource::<crate::rules::GameState>();
        app.insert_resource(Script::default());
        app.add_systems(PostUpdate, keep_awake_while_moving);
        app
    }

    fn redraws(app: &mut App) -> usize {
        app.update();
        app.world_mut().resource_mut::<Messages<RequestRedraw>>().drain().count()
    }

    #[test]
    fn a_still_board_asks_for_no_frame_and_a_moving_one_does() {
        let mut app = app();
        assert_eq!(redraws(&mut app), 0);
        let spark = super::super::effects::Particle { velocity: Vec2::ZERO, gravity: 0.0, life: 1.0, max_life: 1.0, grow: 0.0 };
        let e = app.world_mut().spawn(spark).id();
        assert_eq!(redraws(&mut app), 1);
        app.world_mut().despawn(e);
        assert_eq!(redraws(&mut app), 0);
        // The computer to move keeps the window awake until its move is played.
        app.world_mut().resource_mut::<ComputerPlay>().sides = [Some(1), None];
        assert_eq!(redraws(&mut app), 1);
        app.world_mut().resource_mut::<super::super::shared::PanelData>().outcome = Some("white wins".into());
        assert_eq!(redraws(&mut app), 0);
        app.world_mut().resource_mut::<Script>().0.push_back("e2e4".into());
        assert_eq!(redraws(&mut app), 1);
        app.world_mut().resource_mut::<Script>().0.clear();
        // While the renderer compiles pipelines, the board may not be drawn yet: frames go on.
        let warming = Warming(Arc::new(AtomicBool::new(true)));
        app.insert_resource(warming.clone());
        assert_eq!(redraws(&mut app), 1);
        warming.0.store(false, Ordering::Relaxed);
        assert_eq!(redraws(&mut app), 0);
        // Another screen asked for is shown at once.
        app.insert_resource(NextState::Pending(Screen::Start));
        assert_eq!(redraws(&mut app), 1);
        app.insert_resource(NextState::<Screen>::Unchanged);
        assert_eq!(redraws(&mut app), 0);
    }

    #[test]
    fn the_modifier_keys_reach_egui_only_when_they_change() {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        app.add_systems(Update, drop_unchanged_modifiers);
        let e = app.world_mut().spawn(bevy_egui::EguiInput::default()).id();
        let events = |app: &mut App, m: egui::Modifiers| {
            app.world_mut().get_mut::<bevy_egui::EguiInput>(e).unwrap().0.events = vec![egui::Event::ModifiersChanged(m)];
            app.update();
            app.world_mut().get_mut::<bevy_egui::EguiInput>(e).unwrap().0.events.len()
        };
        assert_eq!(events(&mut app, egui::Modifiers::NONE), 1);
        assert_eq!(events(&mut app, egui::Modifiers::NONE), 0);
        assert_eq!(events(&mut app, egui::Modifiers::SHIFT), 1);
        assert_eq!(events(&mut app, egui::Modifiers::SHIFT), 0);
        assert_eq!(events(&mut app, egui::Modifiers::NONE), 1);
    }
}
