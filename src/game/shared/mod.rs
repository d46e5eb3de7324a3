//! What the window's plugins share: the resources and messages more than one of them reads or
//! writes, the screen state and the order of the game's systems, and setting a game up. It
//! sits below every plugin of [`crate::game`] and uses none of them: a plugin talks to another
//! through these, never by naming the other's systems or types.
//!
//! - [`screen`]: the screens ([`Screen`]), the steps of a frame ([`GameSystems`]), and the
//!   window-wide messages ([`NewGame`], [`ToggleFullscreen`], [`VariantsChanged`]);
//! - [`input`]: what a person does on the board ([`BoardInput`]) and the move being made
//!   ([`Selection`], [`PendingChoice`], [`Premove`]), with [`PositionVersion`], which every
//!   view follows;
//! - [`view`]: how the board is seen ([`BoardView`], square geometry, [`Browse`]) and the
//!   panel's facts of the position ([`PanelData`]);
//! - [`seats`]: who plays each side ([`ComputerPlay`]) and the clocks ([`Clocks`]);
//! - [`setup`]: the game being played ([`GameSetup`]) and [`start_game`].
//!
//! Layer: inside [`crate::game`], the lowest; uses every layer below `game`.

mod input;
mod screen;
mod seats;
mod setup;
mod view;

use bevy::prelude::*;

pub use input::{
    BoardInput, FoulWarning, Notice, Origin, PendingChoice, PositionVersion, Premove, RedoStack, Selection, Tone, castle_landing,
    inputs_for,
};
pub use screen::{
    CheckSquares, GameSystems, NewGame, Screen, Script, Seating, SetUpRequested, ToggleFullscreen, VariantsChanged, order, playing,
};
pub(in crate::game) use seats::Running;
pub use seats::{Analysis, AnalysisLine, Clocks, ComputerPlay, GameReview, LowTime, fresh, resume};
pub(in crate::game) use seats::{AnalysisRun, ReviewRun};
pub use setup::{GameSetup, start_definition, start_game};
pub(in crate::game) use setup::{after_new_game, definition_for};
pub use view::{BoardView, Browse, BrowseTo, LayoutVersion, PANEL_WIDTH, PanelData, Past, SQUARE, side_width, square_at, square_centre};

/// The window-wide messages and resources, and the order of the game's steps.
pub fn plugin(app: &mut App) {
    app.add_message::<NewGame>();
    app.add_message::<ToggleFullscreen>();
    app.add_message::<VariantsChanged>();
    app.init_resource::<CheckSquares>();
    app.init_resource::<SetUpRequested>();
    order(app);
}
