//! The window's screens, the order of the game's systems, and the messages any part of the
//! window may send.

use std::collections::VecDeque;

use bevy::prelude::*;

use crate::rules::Square;

/// Start a new game: another variant, other presets, or the same again (a rematch). While a
/// game is in progress it waits for the player's yes first (see `files::Replacing`).
#[derive(Message, Clone, Debug, Default, PartialEq)]
pub struct NewGame {
    /// Variant id or path; `None` keeps the current one.
    pub variant: Option<String>,
    /// Preset ids; `None` keeps the current ones.
    pub presets: Option<Vec<&'static str>>,
    /// Who plays the new game, and its clocks; `None` keeps them.
    pub seating: Option<Seating>,
    /// The player agreed to replace the game in progress.
    pub confirmed: bool,
}

/// Who plays a new game and with what clocks, as the start screen sets them.
#[derive(Clone, Debug, PartialEq)]
pub struct Seating {
    /// The computer's level for each side it plays (`[white, black]`).
    pub computer: [Option<u8>; 2],
    /// Seconds between moves when the computer plays both sides.
    pub pace: f32,
    /// The side at the bottom of the board (`None`: as it is).
    pub bottom: Option<crate::rules::Side>,
    /// The clocks' control, or none.
    pub clock: Option<crate::clock::TimeControl>,
    /// An analysis board: nobody's computer, no clocks, the analysis on.
    pub analyse: bool,
    /// Open the position set-up board on the new game's start.
    pub set_up: bool,
}

/// The position set-up board is asked for, on the game on the board (the panel's "Set up…",
/// or the start screen's after its new game).
#[derive(Resource, Default)]
pub struct SetUpRequested(pub bool);

/// The screen shown: the game (the board and its panel), the start screen (a new game, over
/// the board), or the variant editor (over the whole window). The game's input, moves, computer
/// and clocks run only on the game's screen ([`playing`]); its clocks stand still elsewhere.
#[derive(States, Default, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Screen {
    /// The board and its panel.
    #[default]
    Game,
    /// The start screen.
    Start,
    /// The variant editor.
    Editor,
}

/// Whether the game's screen is shown (true in a bare app without screens, as tests build).
pub fn playing(screen: Option<Res<State<Screen>>>) -> bool {
    screen.is_none_or(|s| *s.get() == Screen::Game)
}

/// The game's `Update` systems, in this order (chained once, by [`order`]): a plugin puts its
/// systems in the step they belong to instead of naming another module's systems.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameSystems {
    /// What a person or a script asks for before a move is made: keys, the mouse on the board
    /// and on the marks, typed moves, file actions, new games, `--moves`; and the clocks' tick
    /// (a flag falls before a late move). (Test games, settings and profile requests come
    /// before it, on every screen.)
    Input,
    /// The board's inputs made into moves (the play plugin's `handle_input`): after it, the position is
    /// the game's for this frame.
    Play,
    /// Replies to the position: the computer's move, a premove played.
    Respond,
    /// What follows the position: the clocks follow the turn, a look at an earlier position
    /// returns to the game after a move, the autosave, the position's facts for the panel, the
    /// list of typed moves.
    Follow,
    /// Drawing and sound, of the position as it now is: the board laid out and dressed, pieces
    /// placed and gliding, effects, marks, hints, badges, the window's title.
    Present,
}

/// Chains [`GameSystems`] in `Update`, the game's steps running only while it is shown (every
/// plugin with systems in it calls this; chaining again adds nothing).
pub fn order(app: &mut App) {
    app.configure_sets(
        Update,
        (GameSystems::Input, GameSystems::Play, GameSystems::Respond, GameSystems::Follow, GameSystems::Present).chain(),
    );
    app.configure_sets(Update, (GameSystems::Input, GameSystems::Play, GameSystems::Respond, GameSystems::Follow).run_if(playing));
}

/// Switches the window between fullscreen and a window.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct ToggleFullscreen;

/// Royal squares of the side to move that are attacked (drawn with a red glow).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckSquares(pub Vec<Square>);

/// UCI moves still to play through the input path (`--moves`).
#[derive(Resource, Clone, Debug, Default)]
pub struct Script(pub VecDeque<String>);

/// The user's own variants changed on disk (the editor saved, renamed or deleted one): lists of
/// variants read them again, and show the file saved, if one was.
#[derive(Message, Clone, Debug, Default)]
pub struct VariantsChanged(pub Option<std::path::PathBuf>);
