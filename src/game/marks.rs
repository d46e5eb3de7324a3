//! Arrows and circles to think with, as on lichess: a right-drag from one square to another
//! draws an arrow, a right-click a circle. Plain marks are green; with Shift (or Ctrl) red,
//! with Alt blue, with Shift and Alt yellow. Drawing a mark again in the same colour removes
//! it (in another colour it takes that colour); a left click on an empty square, with no piece
//! selected, clears them all (a click that picks up a piece keeps them: they leave with its
//! move).
//!
//! Marks belong to the position they were drawn on (its hash): a move takes them off the
//! board, and they come back whenever that position is on the board again (a takeback, a
//! click in the move list, a repetition).

use bevy::gizmos::config::{GizmoConfig, GizmoConfigGroup, GizmoLineConfig, GizmoLineJoint};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::shared::{BoardView, Browse, GameSystems, SQUARE, Selection, square_at, square_centre};
use crate::rules::{Board, Rules, Square};

/// A mark's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Brush {
    /// No modifier key.
    Green,
    /// Shift or Ctrl.
    Red,
    /// Alt.
    Blue,
    /// Shift and Alt.
    Yellow,
}

impl Brush {
    /// The brush for the modifier keys held: `shift` (or Ctrl) and `alt`.
    pub fn of(shift: bool, alt: bool) -> Brush {
        match (shift, alt) {
            (false, false) => Brush::Green,
            (true, false) => Brush::Red,
            (false, true) => Brush::Blue,
            (true, true) => Brush::Yellow,
        }
    }

    fn colour(self) -> Color {
        match self {
            Brush::Green => Color::srgba(0.08, 0.47, 0.11, 0.8),
            Brush::Red => Color::srgba(0.53, 0.13, 0.13, 0.8),
            Brush::Blue => Color::srgba(0.0, 0.19, 0.53, 0.8),
            Brush::Yellow => Color::srgba(0.90, 0.62, 0.0, 0.8),
        }
    }
}

/// An arrow or a circle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// From one square to another.
    Arrow(Square, Square),
    /// Around a square.
    Circle(Square),
}

/// The marks of every position they were drawn on, and a right-drag under way.
#[derive(Resource, Default)]
pub struct Marks {
    by_position: HashMap<u64, Vec<(Shape, Brush)>>,
    /// A right-drag under way: the square it started on, and the square under the cursor.
    drag: Option<(Square, Option<Square>)>,
}

impl Marks {
    /// Draws `shape` in `brush` on the position `at`, or removes it when it is there in that
    /// brush already (in another brush it is repainted).
    pub fn toggle(&mut self, at: u64, shape: Shape, brush: Brush) {
        let marks = self.by_position.entry(at).or_default();
        match marks.iter().position(|(s, _)| *s == shape) {
            Some(i) if marks[i].1 == brush => {
                marks.remove(i);
            }
            Some(i) => marks[i].1 = brush,
            None => marks.push((shape, brush)),
        }
        if marks.is_empty() {
            self.by_position.remove(&at);
        }
    }

    /// Removes every mark of the position `at`.
    pub fn clear(&mut self, at: u64) {
        self.by_position.remove(&at);
    }

    /// The marks of the position `at`, in the order drawn.
    pub fn on(&self, at: u64) -> &[(Shape, Brush)] {
        self.by_position.get(&at).map_or(&[], Vec::as_slice)
    }
}

/// The shape a right-drag from `from` to `to` draws.
pub fn shape_of(from: Square, to: Square) -> Shape {
    if from == to { Shape::Circle(from) } else { Shape::Arrow(from, to) }
}

/// The brush of the modifier keys held now.
fn current_brush(keys: &ButtonInput<KeyCode>) -> Brush {
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight, KeyCode::ControlLeft, KeyCode::ControlRight]);
    Brush::of(shift, keys.any_pressed([KeyCode::AltLeft, KeyCode::AltRight]))
}

/// Lines of the marks: thick, as arrows to think with should be.
#[derive(Default, Reflect, GizmoConfigGroup)]
struct MarkGizmos;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Marks>();
    let line = GizmoLineConfig { width: 11.0, joints: GizmoLineJoint::Round(6), ..default() };
    app.insert_gizmo_config(MarkGizmos, GizmoConfig { line, ..default() });
    app.add_systems(Update, mouse_to_marks.in_set(GameSystems::Input));
    app.add_systems(Update, draw_marks.in_set(GameSystems::Present));
}

/// Right-button presses and releases over the board draw marks; a left press on an empty
/// square with nothing selected clears them.
#[allow(clippy::too_many_arguments)]
fn mouse_to_marks(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    board: Res<Board>,
    view: Res<BoardView>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
    selection: Res<Selection>,
    mut marks: ResMut<Marks>,
    browse: Option<Res<Browse>>,
) {
    // The position shown: the game's, or an earlier one viewed.
    let hash = browse.as_ref().and_then(|b| b.shown()).map_or(board.hash, |p| p.hash);
    let right_pressed = buttons.just_pressed(MouseButton::Right);
    let right_released = buttons.just_released(MouseButton::Right);
    let left_pressed = buttons.just_pressed(MouseButton::Left);
    let dragging = buttons.pressed(MouseButton::Right) && marks.drag.is_some();
    if !(right_pressed || right_released || left_pressed || dragging) {
        return;
    }
    let over_window = egui_input.is_some_and(|e| e.is_pointer_over_area());
    let square = (|| {
        let window = windows.single().ok()?;
        let (camera, transform) = cameras.single().ok()?;
        let at = camera.viewport_to_world_2d(transform, window.cursor_position()?).ok()?;
        square_at(board.geometry, *view, at)
    })();
    if right_pressed {
        marks.drag = square.filter(|_| !over_window).map(|sq| (sq, Some(sq)));
    } else if dragging
        && let Some((from, to)) = marks.drag
        && to != square
    {
        marks.drag = Some((from, square));
    }
    if right_released && let Some((from, _)) = marks.drag.take() {
        // Released off the board: nothing is drawn.
        if let Some(to) = square {
            marks.toggle(hash, shape_of(from, to), current_brush(&keys));
        }
    }
    if left_pressed && !over_window && selection.origin.is_none() && square.is_some_and(|sq| !board.cell(sq).is_piece()) {
        marks.clear(hash);
    }
}

/// The marks of the position on the board, and the mark a right-drag under way would draw.
fn draw_marks(
    mut gizmos: Gizmos<MarkGizmos>,
    marks: Res<Marks>,
    board: Res<Board>,
    rules: Res<Rules>,
    view: Res<BoardView>,
    keys: Res<ButtonInput<KeyCode>>,
    browse: Option<Res<Browse>>,
) {
    let hash = browse.as_ref().and_then(|b| b.shown()).map_or(board.hash, |p| p.hash);
    let g = rules.0.geometry;
    let square = SQUARE;
    let brush = current_brush(&keys);
    let preview = marks.drag.and_then(|(from, to)| to.map(|to| (shape_of(from, to), brush)));
    for (shape, brush) in marks.on(hash).iter().copied().chain(preview) {
        let colour = brush.colour();
        match shape {
            Shape::Circle(sq) => {
                gizmos.circle_2d(square_centre(g, *view, sq), square * 0.45, colour).resolution(48);
            }
            Shape::Arrow(from, to) => {
                let (a, b) = (square_centre(g, *view, from), square_centre(g, *view, to));
                // The tip stops a little short of the centre, as on lichess.
                let end = b - (b - a).normalize_or_zero() * square * 0.2;
                gizmos.arrow_2d(a, end, colour).with_tip_length(square * 0.35);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RulesWorld;

    fn sq(name: &str) -> Square {
        crate::rules::Variant::chess().geometry.parse_square(name).unwrap()
    }

    #[test]
    fn drawing_again_removes_or_repaints() {
        let mut marks = Marks::default();
        let arrow = shape_of(sq("e2"), sq("e4"));
        assert_eq!(arrow, Shape::Arrow(sq("e2"), sq("e4")));
        assert_eq!(shape_of(sq("d5"), sq("d5")), Shape::Circle(sq("d5")));
        marks.toggle(1, arrow, Brush::Green);
        marks.toggle(1, Shape::Circle(sq("d5")), Brush::of(true, false));
        assert_eq!(marks.on(1), [(arrow, Brush::Green), (Shape::Circle(sq("d5")), Brush::Red)]);
        marks.toggle(1, arrow, Brush::of(false, true));
        assert_eq!(marks.on(1)[0], (arrow, Brush::Blue), "another colour repaints");
        marks.toggle(1, arrow, Brush::Blue);
        assert_eq!(marks.on(1), [(Shape::Circle(sq("d5")), Brush::Red)], "the same colour removes");
        assert_eq!(Brush::of(true, true), Brush::Yellow);
        marks.clear(1);
        assert!(marks.on(1).is_empty());
    }

    #[test]
    fn marks_leave_with_a_move_and_come_back_with_the_position() {
        let mut world = World::new();
        crate::game::shared::start_game(&mut world, "chess", &[]).unwrap();
        let mut marks = Marks::default();
        let start = world.resource::<Board>().hash;
        marks.toggle(start, shape_of(sq("e2"), sq("e4")), Brush::Green);
        let legal = world.legal_moves().to_vec();
        let m = *legal.iter().find(|m| m.from == sq("g1") && m.to == sq("f3")).unwrap();
        world.apply_move(m).unwrap();
        assert!(marks.on(world.resource::<Board>().hash).is_empty(), "a move takes them off");
        world.undo_move();
        assert_eq!(marks.on(world.resource::<Board>().hash).len(), 1, "the position brings them back");
    }
}
