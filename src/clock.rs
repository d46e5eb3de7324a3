//! Game clocks: time controls, the two clocks of one game, and what a flag fall means.
//!
//! # Time controls
//!
//! | kind | text | what happens |
//! |---|---|---|
//! | sudden death | `5` | 5 minutes each for the whole game |
//! | Fischer increment | `5+3` | 5 minutes, and 3 seconds added after each move |
//! | delay | `5d3` | 5 minutes; each move's first 3 seconds are free (the US "simple" delay) |
//! | byo-yomi | `10b30x3` | 10 minutes, then 3 periods of 30 seconds: a move made within a period keeps it; a period that runs out is used up; the last one running out loses |
//!
//! Minutes may be fractional (`0.5+1` is 30 seconds plus 1), or the main time given in seconds
//! (`20s+1`). The text form is what the command line's `--clock` takes and what a save carries.
//! Time banked by increments stops at a day ([`MAX_BANK`]).
//!
//! With a double move (a preset's extra move), a turn is timed as one: the increment, the delay
//! and a byo-yomi period's fresh start come once, when the turn passes.
//!
//! # One game's clocks
//!
//! [`GameClock`] holds both sides' time at every position the game has reached, so a takeback
//! gives back the time of the position it returns to. Time is read from the caller (a
//! [`Duration`] since any fixed instant), so the rules of the clock are tested without waiting.
//! The clocks start with the game's first move: as on lichess, the side that makes it is not
//! timed for it (nor given its increment), so a game never begins with a clock already running
//! while the players sit down. A flag fall ([`flag_outcome`]) loses, unless the other side has
//! too little material to win by the variant's own rule: then it is a draw.
//!
//! Layer: uses `rules` to `ai`.

use std::fmt;
use std::time::Duration;

use crate::rules::{Board, EndCondition, Outcome, Reason, Side, Variant, cannot_win, has_insufficient_material};

/// The longest main time a control may give, and the longest increment, delay or period.
pub const MAX_BASE: Duration = Duration::from_secs(10 * 3600);
/// See [`MAX_BASE`].
pub const MAX_EXTRA: Duration = Duration::from_secs(10 * 60);
/// The most byo-yomi periods.
pub const MAX_PERIODS: u32 = 10;
/// The most time a side can have: increments stop adding beyond it.
pub const MAX_BANK: Duration = Duration::from_secs(24 * 3600);

/// A time control: how much time each side has and how it is given back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A fixed time for the whole game.
    SuddenDeath {
        /// Time for the game.
        base: Duration,
    },
    /// Time for the game, and an increment added after each move.
    Fischer {
        /// Time for the game.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// Time for the game; each move's first `delay` does not count.
    Delay {
        /// Time for the game.
        base: Duration,
        /// Free time per move.
        delay: Duration,
    },
    /// Main time, then `periods` periods of `period` each (Japanese byo-yomi).
    ByoYomi {
        /// The main time.
        base: Duration,
        /// One period's length.
        period: Duration,
        /// How many periods.
        periods: u32,
    },
}

/// The kinds of time control, for pickers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// See [`TimeControl::SuddenDeath`].
    SuddenDeath,
    /// See [`TimeControl::Fischer`].
    Fischer,
    /// See [`TimeControl::Delay`].
    Delay,
    /// See [`TimeControl::ByoYomi`].
    ByoYomi,
}

impl Kind {
    /// Every kind, in the order pickers list them.
    pub const ALL: [Kind; 4] = [Kind::SuddenDeath, Kind::Fischer, Kind::Delay, Kind::ByoYomi];

    /// Its name in words.
    pub fn name(self) -> &'static str {
        match self {
            Kind::SuddenDeath => "Sudden death",
            Kind::Fischer => "Increment",
            Kind::Delay => "Delay",
            Kind::ByoYomi => "Byo-yomi",
        }
    }
}

impl TimeControl {
    /// Its kind.
    pub fn kind(&self) -> Kind {
        match self {
            TimeControl::SuddenDeath { .. } => Kind::SuddenDeath,
            TimeControl::Fischer { .. } => Kind::Fischer,
            TimeControl::Delay { .. } => Kind::Delay,
            TimeControl::ByoYomi { .. } => Kind::ByoYomi,
        }
    }

    /// The main time.
    pub fn base(&self) -> Duration {
        match *self {
            TimeControl::SuddenDeath { base }
            | TimeControl::Fischer { base, .. }
            | TimeControl::Delay { base, .. }
            | TimeControl::ByoYomi { base, .. } => base,
        }
    }

    /// The second figure: increment, delay or period (zero for sudden death).
    pub fn extra(&self) -> Duration {
        match *self {
            TimeControl::SuddenDeath { .. } => Duration::ZERO,
            TimeControl::Fischer { increment, .. } => increment,
            TimeControl::Delay { delay, .. } => delay,
            TimeControl::ByoYomi { period, .. } => period,
        }
    }

    /// Byo-yomi periods (zero for the other kinds).
    pub fn periods(&self) -> u32 {
        match *self {
            TimeControl::ByoYomi { periods, .. } => periods,
            _ => 0,
        }
    }

    /// A control of `kind` from its figures (`extra` and `periods` are ignored where the kind
    /// has none).
    pub fn of(kind: Kind, base: Duration, extra: Duration, periods: u32) -> TimeControl {
        match kind {
            Kind::SuddenDeath => TimeControl::SuddenDeath { base },
            Kind::Fischer => TimeControl::Fischer { base, increment: extra },
            Kind::Delay => TimeControl::Delay { base, delay: extra },
            Kind::ByoYomi => TimeControl::ByoYomi { base, period: extra, periods },
        }
    }

    /// Checks the figures: within the limits, and some time to play with.
    ///
    /// # Errors
    /// What is wrong, in words.
    pub fn validate(&self) -> Result<(), String> {
        if self.base() > MAX_BASE {
            return Err(format!("a main time of at most {} minutes", MAX_BASE.as_secs() / 60));
        }
        if self.extra() > MAX_EXTRA {
            return Err(format!("an increment, delay or period of at most {} minutes", MAX_EXTRA.as_secs() / 60));
        }
        if let TimeControl::ByoYomi { period, periods, .. } = *self {
            if !(1..=MAX_PERIODS).contains(&periods) {
                return Err(format!("1 to {MAX_PERIODS} byo-yomi periods"));
            }
            if period.is_zero() {
                return Err("a byo-yomi period longer than nothing".into());
            }
        }
        // An increment comes after a move: the first timed move needs main time.
        let free = matches!(self, TimeControl::SuddenDeath { .. } | TimeControl::Fischer { .. }) || self.extra().is_zero();
        if self.base().is_zero() && free {
            return Err("some main time (without a delay or byo-yomi, the first move needs it)".into());
        }
        Ok(())
    }

    /// The starting time of one side.
    pub fn start(&self) -> SideTime {
        SideTime { main: self.base(), periods: self.periods() }
    }

    /// Reads the text form (see the module docs).
    ///
    /// # Errors
    /// Text that is not a control, or figures out of range.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let text = text.trim();
        let bad = || format!("'{text}' is not a time control (5 minutes: 5; with a 3 s increment: 5+3; delay: 5d3; byo-yomi: 10b30x3)");
        // The main time in minutes, or in seconds with an `s`.
        let minutes = |t: &str| match t.trim().strip_suffix('s') {
            Some(secs) => parse_amount(secs, 1.0).ok_or_else(bad),
            None => parse_amount(t, 60.0).ok_or_else(bad),
        };
        let seconds = |t: &str| parse_amount(t, 1.0).ok_or_else(bad);
        let control = if let Some((base, inc)) = text.split_once('+') {
            TimeControl::Fischer { base: minutes(base)?, increment: seconds(inc)? }
        } else if let Some((base, delay)) = text.split_once('d') {
            TimeControl::Delay { base: minutes(base)?, delay: seconds(delay)? }
        } else if let Some((base, rest)) = text.split_once('b') {
            let (period, periods) = rest.split_once('x').ok_or_else(bad)?;
            let periods = periods.parse::<u32>().map_err(|_| bad())?;
            TimeControl::ByoYomi { base: minutes(base)?, period: seconds(period)?, periods }
        } else {
            TimeControl::SuddenDeath { base: minutes(text)? }
        };
        control.validate().map_err(|why| format!("'{text}' needs {why}"))?;
        Ok(control)
    }

    /// The one-line words for pickers and the panel: "5 min + 3 s", "10 min, then 3 × 30 s".
    pub fn words(&self) -> String {
        let base = format!("{} min", figure(self.base(), 60.0));
        match *self {
            TimeControl::SuddenDeath { .. } => base,
            TimeControl::Fischer { increment, .. } => format!("{base} + {} s a move", figure(increment, 1.0)),
            TimeControl::Delay { delay, .. } => format!("{base}, {} s delay", figure(delay, 1.0)),
            TimeControl::ByoYomi { period, periods, .. } => format!("{base}, then {periods} × {} s", figure(period, 1.0)),
        }
    }

    /// The PGN `TimeControl` tag's value (seconds), for the kinds PGN has: sudden death
    /// (`300`) and increment (`300+3`).
    pub fn pgn_tag(&self) -> Option<String> {
        match *self {
            TimeControl::SuddenDeath { base } => Some(figure(base, 1.0)),
            TimeControl::Fischer { base, increment } => Some(format!("{}+{}", figure(base, 1.0), figure(increment, 1.0))),
            _ => None,
        }
    }

    /// How long a side with `time` may still think before its flag falls.
    pub fn time_to_flag(&self, time: SideTime) -> Duration {
        match *self {
            TimeControl::SuddenDeath { .. } | TimeControl::Fischer { .. } => time.main,
            TimeControl::Delay { delay, .. } => time.main + delay,
            TimeControl::ByoYomi { period, .. } => time.main + period * time.periods,
        }
    }

    /// A side's time after thinking for `spent` (before anything a move gives back), or
    /// `None` when its flag has fallen. A clock at zero has fallen.
    pub fn spend(&self, time: SideTime, spent: Duration) -> Option<SideTime> {
        if spent >= self.time_to_flag(time) {
            return None;
        }
        Some(match *self {
            TimeControl::SuddenDeath { .. } | TimeControl::Fischer { .. } => SideTime { main: time.main - spent, ..time },
            TimeControl::Delay { delay, .. } => SideTime { main: time.main - spent.saturating_sub(delay), ..time },
            TimeControl::ByoYomi { period, .. } => match spent.checked_sub(time.main) {
                None => SideTime { main: time.main - spent, ..time },
                Some(over) => {
                    let used = (over.as_nanos() / period.as_nanos()) as u32;
                    SideTime { main: Duration::ZERO, periods: time.periods - used }
                }
            },
        })
    }

    /// A side's time after a move that took `spent`: [`TimeControl::spend`], then the increment
    /// (a byo-yomi period the move was made in starts afresh by itself). `None`: the flag fell
    /// first.
    pub fn after_move(&self, time: SideTime, spent: Duration) -> Option<SideTime> {
        let left = self.spend(time, spent)?;
        Some(match *self {
            TimeControl::Fischer { increment, .. } => SideTime { main: (left.main + increment).min(MAX_BANK), ..left },
            _ => left,
        })
    }

    /// What a side's clock shows after thinking `spent` this turn (`spent` is zero for the side
    /// not to move).
    pub fn reading(&self, time: SideTime, spent: Duration) -> Reading {
        let Some(left) = self.spend(time, spent) else {
            return Reading { main: Duration::ZERO, overtime: None, periods: 0, delay: None, flagged: true };
        };
        match *self {
            TimeControl::ByoYomi { period, .. } if left.main.is_zero() => {
                // In the periods: the one running, counted down.
                let over = spent.saturating_sub(time.main);
                let into = Duration::from_nanos((over.as_nanos() % period.as_nanos()) as u64);
                Reading { main: Duration::ZERO, overtime: Some(period - into), periods: left.periods, delay: None, flagged: false }
            }
            TimeControl::Delay { delay, .. } => {
                let free = delay.checked_sub(spent).filter(|d| !d.is_zero() && !spent.is_zero());
                Reading { main: left.main, overtime: None, periods: 0, delay: free, flagged: false }
            }
            _ => Reading { main: left.main, overtime: None, periods: left.periods, delay: None, flagged: false },
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Minutes when three decimals say it exactly, else seconds (`20s`): the text reads back
        // to the same control.
        let ms = self.base().as_millis();
        let base = if ms.is_multiple_of(60) { figure(self.base(), 60.0) } else { format!("{}s", figure(self.base(), 1.0)) };
        match *self {
            TimeControl::SuddenDeath { .. } => write!(f, "{base}"),
            TimeControl::Fischer { increment, .. } => write!(f, "{base}+{}", figure(increment, 1.0)),
            TimeControl::Delay { delay, .. } => write!(f, "{base}d{}", figure(delay, 1.0)),
            TimeControl::ByoYomi { period, periods, .. } => write!(f, "{base}b{}x{periods}", figure(period, 1.0)),
        }
    }
}

/// A non-negative decimal number of `unit` seconds, to the millisecond.
fn parse_amount(text: &str, unit: f64) -> Option<Duration> {
    let text = text.trim();
    if text.is_empty() || !text.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return None;
    }
    let value: f64 = text.parse().ok()?;
    let ms = (value * unit * 1000.0).round();
    (ms.is_finite() && ms <= 1e12).then(|| Duration::from_millis(ms as u64))
}

/// `d` in units of `unit` seconds, without needless decimals: `5`, `0.5`, `2.25`.
fn figure(d: Duration, unit: f64) -> String {
    let value = d.as_millis() as f64 / 1000.0 / unit;
    let text = format!("{value:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// One side's time: the main time left, and byo-yomi periods left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SideTime {
    /// The main time left.
    pub main: Duration,
    /// Byo-yomi periods left (zero for the other kinds).
    pub periods: u32,
}

/// What a clock shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The main time left.
    pub main: Duration,
    /// In byo-yomi, once the main time is spent: the time left in the running period.
    pub overtime: Option<Duration>,
    /// Byo-yomi periods left.
    pub periods: u32,
    /// With a delay, while the delay of the move being thought runs: what is left of it.
    pub delay: Option<Duration>,
    /// The flag has fallen.
    pub flagged: bool,
}

impl Reading {
    /// The time counted down now: the period's in overtime, else the main time.
    pub fn counting(&self) -> Duration {
        self.overtime.unwrap_or(self.main)
    }

    /// Whether time is short: under ten seconds of what counts down, or under a tenth of the
    /// main time when that is shorter (a one-minute game warns at six seconds).
    pub fn low(&self, control: &TimeControl) -> bool {
        let threshold = Duration::from_secs(10).min(control.base() / 10).max(Duration::from_secs(3));
        self.flagged || (self.counting() < threshold && (self.overtime.is_some() || self.periods == 0))
    }

    /// The digits a clock face shows: `1:05:00`, `4:59`, `0:09.4` (tenths under ten seconds).
    pub fn digits(&self) -> String {
        show(self.counting())
    }
}

/// A time as a clock face shows it: `h:mm:ss` from an hour, `m:ss`, and `0:ss.t` under ten
/// seconds, rounded down (as a countdown shows it).
pub fn show(d: Duration) -> String {
    let ms = d.as_millis();
    let (h, m, s) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else if ms < 10_000 {
        format!("0:{s:02}.{}", ms / 100 % 10)
    } else {
        format!("{m}:{s:02}")
    }
}

/// How long until the digits [`show`] gives for a clock counting down from `d` change.
pub fn until_digits_change(d: Duration) -> Duration {
    let ms = d.as_millis() as u64;
    let step = if ms < 10_000 { 100 } else { 1000 };
    // Counting down, the shown (rounded-down) figure changes just after the time crosses the
    // multiple of the step below it.
    Duration::from_millis(ms % step + 1)
}

/// The clocks of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameClock {
    control: TimeControl,
    /// Both sides' time when each position of the game was reached: the first is the start,
    /// the last the current position's.
    history: Vec<[SideTime; 2]>,
    /// The side to move (whose clock runs).
    turn: Side,
    /// When the running clock started, in the caller's time; `None` while stopped.
    since: Option<Duration>,
    /// Thinking this turn before `since` (a turn saved and resumed).
    carried: Duration,
    /// The side whose flag fell.
    flagged: Option<Side>,
}

impl GameClock {
    /// Clocks for a game under `control` where `turn` moves first (not running yet: the first
    /// move starts them).
    pub fn new(control: TimeControl, turn: Side) -> GameClock {
        GameClock { control, history: vec![[control.start(); 2]], turn, since: None, carried: Duration::ZERO, flagged: None }
    }

    /// Clocks set from a save: the time at every position (`history`, the start first), the
    /// side to move, and how long it has thought this turn (`spent`, so a delay or a byo-yomi
    /// period goes on where it was); they run from `now` unless the game has had no move yet
    /// or a flag has fallen.
    ///
    /// # Errors
    /// An empty history.
    pub fn restore(
        control: TimeControl,
        history: Vec<[SideTime; 2]>,
        turn: Side,
        spent: Duration,
        flagged: Option<Side>,
        now: Duration,
    ) -> Result<GameClock, String> {
        if history.is_empty() {
            return Err("a clock history with no position".into());
        }
        let mut clock = GameClock { control, history, turn, since: None, carried: Duration::ZERO, flagged };
        if clock.flagged.is_none() && clock.moves() > 0 {
            clock.since = Some(now);
            clock.carried = spent;
        }
        Ok(clock)
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Moves made since the clocks were set.
    pub fn moves(&self) -> usize {
        self.history.len() - 1
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// Whether the clock of the side to move runs.
    pub fn running(&self) -> bool {
        self.since.is_some()
    }

    /// The side whose flag fell.
    pub fn flagged(&self) -> Option<Side> {
        self.flagged
    }

    /// Both sides' time at every position reached, the start first (the current position's
    /// entry is its time when it was reached).
    pub fn history(&self) -> &[[SideTime; 2]] {
        &self.history
    }

    /// How long the side to move has thought this turn.
    pub fn spent(&self, now: Duration) -> Duration {
        self.since.map_or(Duration::ZERO, |s| now.saturating_sub(s) + self.carried)
    }

    /// A side's time left at `now`, the running side's thinking deducted (zero once flagged).
    pub fn left(&self, side: Side, now: Duration) -> SideTime {
        let time = self.history.last().expect("a position")[side.index()];
        if self.flagged == Some(side) {
            return SideTime { main: Duration::ZERO, periods: 0 };
        }
        if side != self.turn {
            return time;
        }
        self.control.spend(time, self.spent(now)).unwrap_or_default()
    }

    /// What `side`'s clock shows at `now`.
    pub fn reading(&self, side: Side, now: Duration) -> Reading {
        if self.flagged == Some(side) {
            return self.control.reading(SideTime::default(), Duration::MAX);
        }
        let time = self.history.last().expect("a position")[side.index()];
        let spent = if side == self.turn { self.spent(now) } else { Duration::ZERO };
        self.control.reading(time, spent)
    }

    /// Checks the running clock at `now`: the side whose flag has just fallen, once (the
    /// clocks then stop).
    pub fn tick(&mut self, now: Duration) -> Option<Side> {
        if self.flagged.is_some() || !self.running() {
            return None;
        }
        let time = self.history.last().expect("a position")[self.turn.index()];
        if self.control.spend(time, self.spent(now)).is_none() {
            self.flagged = Some(self.turn);
            self.since = None;
            self.carried = Duration::ZERO;
            return self.flagged;
        }
        None
    }

    /// The side to move has moved at `now` and `next` is to move (the same side again after a
    /// double move's first half). Returns the side whose flag fell instead, if it fell first
    /// (the move then does not count).
    pub fn moved(&mut self, now: Duration, next: Side) -> Result<(), Side> {
        if let Some(side) = self.flagged.or_else(|| self.tick(now)) {
            return Err(side);
        }
        let mut times = *self.history.last().expect("a position");
        if next == self.turn {
            // The first half of a double move: the turn, and its clock, go on.
            self.history.push(times);
            return Ok(());
        }
        let mover = self.turn.index();
        if self.running() {
            // The flag has not fallen (just checked).
            times[mover] = self.control.after_move(times[mover], self.spent(now)).unwrap_or_default();
        }
        self.history.push(times);
        self.turn = next;
        self.since = Some(now);
        self.carried = Duration::ZERO;
        Ok(())
    }

    /// A move is taken back at `now`: both clocks go back to what they showed when the
    /// position returned to was reached, `turn` is to move, and a fallen flag is lifted. The
    /// clocks stop when the game is back at its start.
    pub fn take_back(&mut self, now: Duration, turn: Side) {
        if self.history.len() > 1 {
            self.history.pop();
        }
        self.turn = turn;
        self.flagged = None;
        self.since = (self.moves() > 0).then_some(now);
        self.carried = Duration::ZERO;
    }

    /// Stops the running clock at `now` (the game is over), keeping what it shows.
    pub fn stop(&mut self, now: Duration) {
        if self.running() {
            let left = self.left(self.turn, now);
            self.history.last_mut().expect("a position")[self.turn.index()] = left;
            self.since = None;
            self.carried = Duration::ZERO;
        }
    }

    /// How long until the running clock's face changes (or its flag falls) — when a window
    /// that sleeps between changes must wake. `None` while stopped.
    pub fn next_change(&self, now: Duration) -> Option<Duration> {
        if !self.running() || self.flagged.is_some() {
            return None;
        }
        let reading = self.reading(self.turn, now);
        let face = until_digits_change(reading.counting());
        let delay = reading.delay.map(until_digits_change);
        let time = self.history.last().expect("a position")[self.turn.index()];
        let flag = self.control.time_to_flag(time).saturating_sub(self.spent(now));
        Some(face.min(delay.unwrap_or(Duration::MAX)).min(flag.max(Duration::from_millis(1))))
    }
}

/// A game's clocks as a save keeps them: the control, both sides' time at each position, the
/// side to move's time at the moment of saving, and a fallen flag.
#[derive(Clone, Debug, PartialEq)]
pub struct ClockSnapshot {
    /// The time control.
    pub control: TimeControl,
    /// Both sides' time when each position was reached, the start first.
    pub history: Vec<[SideTime; 2]>,
    /// How long the side to move had thought this turn when saved.
    pub spent: Duration,
    /// The side whose flag fell.
    pub flagged: Option<Side>,
}

impl GameClock {
    /// The clocks at `now`, as a save keeps them.
    pub fn snapshot(&self, now: Duration) -> ClockSnapshot {
        ClockSnapshot { control: self.control, history: self.history.clone(), spent: self.spent(now), flagged: self.flagged }
    }
}

fn write_time(t: SideTime, periods: bool) -> String {
    if periods { format!("{}:{}", t.main.as_millis(), t.periods) } else { t.main.as_millis().to_string() }
}

fn read_time(text: &str, control: &TimeControl) -> Result<SideTime, String> {
    let (ms, periods) = match text.split_once(':') {
        Some((ms, p)) => (ms, p.parse::<u32>().map_err(|_| format!("'{text}' has no period count"))?),
        None => (text, 0),
    };
    let ms = ms.parse::<u64>().map_err(|_| format!("'{text}' is not a time in milliseconds"))?;
    // Increments bank time up to a day (MAX_BANK).
    if ms > MAX_BANK.as_millis() as u64 || periods > control.periods() {
        return Err(format!("'{text}' is more time than a {control} control gives"));
    }
    Ok(SideTime { main: Duration::from_millis(ms), periods })
}

impl ClockSnapshot {
    /// The times at each position: `white/black` in milliseconds (`ms:periods` in byo-yomi),
    /// positions separated by spaces.
    pub fn times_text(&self) -> String {
        let p = matches!(self.control, TimeControl::ByoYomi { .. });
        self.history.iter().map(|[w, b]| format!("{}/{}", write_time(*w, p), write_time(*b, p))).collect::<Vec<_>>().join(" ")
    }

    /// How long the side to move had thought this turn (`spent 1500`, milliseconds), or
    /// `flag` and the side whose flag fell.
    pub fn now_text(&self) -> String {
        match self.flagged {
            Some(side) => format!("flag {}", if side == Side::White { "white" } else { "black" }),
            None => format!("spent {}", self.spent.as_millis()),
        }
    }

    /// Reads the three texts a save holds (control, times, now).
    ///
    /// # Errors
    /// What does not read, in words.
    pub fn read(control: &str, times: &str, now: &str) -> Result<ClockSnapshot, String> {
        let control = TimeControl::parse(control)?;
        let history = times
            .split_whitespace()
            .map(|pair| {
                let (w, b) = pair.split_once('/').ok_or_else(|| format!("'{pair}' is not white/black"))?;
                Ok([read_time(w, &control)?, read_time(b, &control)?])
            })
            .collect::<Result<Vec<_>, String>>()?;
        if history.is_empty() {
            return Err("no times".into());
        }
        let (spent, flagged) = match (now.strip_prefix("flag "), now.strip_prefix("spent ")) {
            (Some("white"), _) => (Duration::ZERO, Some(Side::White)),
            (Some("black"), _) => (Duration::ZERO, Some(Side::Black)),
            (Some(other), _) => return Err(format!("'{other}' is not a side")),
            (None, Some(ms)) => {
                let ms = ms.parse::<u64>().ok().filter(|&ms| ms <= MAX_BANK.as_millis() as u64 * 2);
                (Duration::from_millis(ms.ok_or_else(|| format!("'{now}' is not a thinking time in milliseconds"))?), None)
            }
            (None, None) => return Err(format!("'{now}' is neither 'spent <ms>' nor 'flag <side>'")),
        };
        Ok(ClockSnapshot { control, history, spent, flagged })
    }

    /// The clocks again, `turn` to move, running from `now` (see [`GameClock::restore`]).
    ///
    /// # Errors
    /// An empty history.
    pub fn resume(&self, turn: Side, now: Duration) -> Result<GameClock, String> {
        GameClock::restore(self.control, self.history.clone(), turn, self.spent, self.flagged, now)
    }
}

/// Ends the game in `world` on time: `flagged` ran out. The result is decided in the position
/// as a rule's would be (see [`flag_outcome`]), so moves stop, the result shows everywhere the
/// game's result does, and a takeback (which restores the position before the last move)
/// lifts it with the clocks.
pub fn declare_flag(world: &mut bevy::prelude::World, flagged: Side) {
    let variant = world.resource::<crate::rules::Rules>().0.clone();
    let outcome = flag_outcome(&variant, world.resource::<Board>(), flagged);
    crate::rules::decide(&mut world.resource_mut::<crate::rules::DecidedOutcome>(), outcome);
}

/// The end of a game whose `flagged` side ran out of time in `board`: a loss, or a draw when
/// the other side has too little material to win in `variant` (its own rule: lichess's for the
/// variants that name one, [`cannot_win`]; otherwise as [`has_insufficient_material`] judges
/// it).
pub fn flag_outcome(variant: &Variant, board: &Board, flagged: Side) -> Outcome {
    let other = flagged.opponent();
    let lichess = variant.end.iter().find_map(|e| match e {
        EndCondition::InsufficientMaterialAs(rule) => Some(*rule),
        _ => None,
    });
    let short = match lichess {
        // (The flagged side was to move.)
        Some(rule) => cannot_win(rule, board, &variant.registry, other, flagged),
        None => has_insufficient_material(variant, board, other),
    };
    if short {
        Outcome::draw(Reason::Rule("time forfeit against insufficient material".into()))
    } else {
        Outcome::win(other, Reason::Rule("time forfeit".into()))
    }
}

/// The time control a variant is usually played with, for pickers to start from: byo-yomi in
/// the shogi and Janggi families (their tradition), a longer Fischer control on large boards,
/// and 5 + 3 elsewhere.
pub fn suggested(variant: &Variant) -> TimeControl {
    let id = variant.id.to_lowercase();
    let g = variant.geometry;
    if id.contains("janggi") {
        TimeControl::ByoYomi { base: Duration::from_secs(10 * 60), period: Duration::from_secs(30), periods: 3 }
    } else if id.contains("shogi") || variant.drops.as_ref().is_some_and(|d| d.captures_to_hand) && g.files == g.ranks && g.files != 8 {
        TimeControl::ByoYomi { base: Duration::from_secs(10 * 60), period: Duration::from_secs(30), periods: 1 }
    } else if u32::from(g.files) * u32::from(g.ranks) > 64 {
        TimeControl::Fischer { base: Duration::from_secs(10 * 60), increment: Duration::from_secs(5) }
    } else {
        TimeControl::Fischer { base: Duration::from_secs(5 * 60), increment: Duration::from_secs(3) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(secs: u64) -> Duration {
        Duration::from_secs(secs)
    }

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    #[test]
    fn text_forms_read_and_write_back() {
        for (text, control) in [
            ("5", TimeControl::SuddenDeath { base: s(300) }),
            ("5+3", TimeControl::Fischer { base: s(300), increment: s(3) }),
            ("0.5+0", TimeControl::Fischer { base: s(30), increment: s(0) }),
            ("5d3", TimeControl::Delay { base: s(300), delay: s(3) }),
            ("10b30x3", TimeControl::ByoYomi { base: s(600), period: s(30), periods: 3 }),
            ("0b10x1", TimeControl::ByoYomi { base: s(0), period: s(10), periods: 1 }),
            ("0d5", TimeControl::Delay { base: s(0), delay: s(5) }),
        ] {
            assert_eq!(TimeControl::parse(text), Ok(control), "{text}");
            assert_eq!(control.to_string(), text);
        }
        for bad in
            ["", "0", "0+0", "0+2", "0d0", "five", "5+", "-5", "5+3+1", "10b30", "10b30x0", "10b30x11", "10b0x3", "601", "5+601", "1e3"]
        {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(TimeControl::parse("5+3").unwrap().pgn_tag().as_deref(), Some("300+3"));
        assert_eq!(TimeControl::parse("10b30x3").unwrap().words(), "10 min, then 3 × 30 s");
    }

    #[test]
    fn the_first_move_is_free_then_increments_are_added() {
        let control = TimeControl::parse("1+2").unwrap();
        let mut clock = GameClock::new(control, Side::White);
        assert!(!clock.running());
        // White thinks 30 s over the first move: not counted, no increment.
        clock.moved(s(30), Side::Black).unwrap();
        assert_eq!(clock.left(Side::White, s(30)).main, s(60));
        // Black thinks 10 s: 60 − 10 + 2.
        assert_eq!(clock.left(Side::Black, s(40)).main, s(50));
        clock.moved(s(40), Side::White).unwrap();
        assert_eq!(clock.left(Side::Black, s(40)).main, s(52));
        // White's clock runs now.
        assert_eq!(clock.reading(Side::White, s(45)).main, s(55));
        assert_eq!(clock.next_change(ms(45_300)), Some(ms(701)));
        clock.moved(s(45), Side::Black).unwrap();
        assert_eq!(clock.left(Side::White, s(99)).main, s(57), "60 − 5 + 2");
    }

    #[test]
    fn a_flag_falls_at_zero_once_and_a_takeback_restores_the_clocks() {
        let control = TimeControl::parse("0.5").unwrap();
        let mut clock = GameClock::new(control, Side::White);
        clock.moved(s(0), Side::Black).unwrap();
        clock.moved(s(10), Side::White).unwrap();
        assert_eq!(clock.left(Side::Black, s(10)).main, s(20));
        assert_eq!(clock.tick(ms(39_999)), None);
        assert_eq!(clock.reading(Side::White, ms(39_999)).digits(), "0:00.0");
        assert_eq!(clock.tick(s(40)), Some(Side::White));
        assert_eq!(clock.tick(s(41)), None, "reported once");
        assert!(clock.reading(Side::White, s(41)).flagged);
        // A move after the fall does not count.
        assert_eq!(clock.moved(s(41), Side::Black), Err(Side::White));
        // Taking back Black's move: Black's clock shows 30 s again and runs; the flag is lifted.
        clock.take_back(s(50), Side::Black);
        assert_eq!(clock.flagged(), None);
        assert_eq!(clock.left(Side::Black, s(50)).main, s(30));
        assert_eq!(clock.left(Side::Black, s(55)).main, s(25));
        assert_eq!(clock.left(Side::White, s(55)).main, s(30));
        // Back at the start: stopped.
        clock.take_back(s(56), Side::White);
        assert!(!clock.running());
        assert_eq!(clock.moves(), 0);
    }

    #[test]
    fn byo_yomi_keeps_a_period_used_in_time_and_loses_one_run_out() {
        let control = TimeControl::parse("0.5b10x3").unwrap();
        let mut clock = GameClock::new(control, Side::White);
        clock.moved(s(0), Side::Black).unwrap();
        // Black: 30 s main, then 3 × 10 s. Thinking 35 s: 5 s into the first period.
        let r = clock.reading(Side::Black, s(35));
        assert_eq!((r.main, r.overtime, r.periods), (s(0), Some(s(5)), 3));
        assert_eq!(r.digits(), "0:05.0");
        assert!(!r.low(&control), "warned at 3 s in a 30 s game");
        assert!(clock.reading(Side::Black, s(38)).low(&control));
        assert!(!clock.reading(Side::Black, s(20)).low(&control), "main time with periods to come is not short");
        clock.moved(s(35), Side::White).unwrap();
        // The period was kept and starts afresh.
        assert_eq!(clock.left(Side::Black, s(35)), SideTime { main: s(0), periods: 3 });
        clock.moved(s(36), Side::Black).unwrap();
        // 25 s: two periods run out, the third is 5 s in.
        let r = clock.reading(Side::Black, s(61));
        assert_eq!((r.overtime, r.periods), (Some(s(5)), 1));
        clock.moved(s(61), Side::White).unwrap();
        assert_eq!(clock.left(Side::Black, s(61)), SideTime { main: s(0), periods: 1 });
        clock.moved(s(62), Side::Black).unwrap();
        assert_eq!(clock.tick(ms(71_999)), None);
        assert_eq!(clock.tick(s(72)), Some(Side::Black));
    }

    #[test]
    fn a_delay_is_free_time_that_is_not_banked() {
        let control = TimeControl::parse("1d5").unwrap();
        let mut clock = GameClock::new(control, Side::White);
        clock.moved(s(0), Side::Black).unwrap();
        let r = clock.reading(Side::Black, s(2));
        assert_eq!((r.main, r.delay), (s(60), Some(s(3))));
        clock.moved(s(3), Side::White).unwrap();
        assert_eq!(clock.left(Side::Black, s(3)).main, s(60), "3 s within the delay cost nothing, and nothing is banked");
        clock.moved(s(11), Side::Black).unwrap();
        assert_eq!(clock.left(Side::White, s(11)).main, s(57));
        assert_eq!(control.time_to_flag(SideTime { main: s(57), periods: 0 }), s(62));
    }

    #[test]
    fn restored_clocks_run_on_from_the_saved_time() {
        let control = TimeControl::parse("3+2").unwrap();
        let mut clock = GameClock::new(control, Side::White);
        clock.moved(s(1), Side::Black).unwrap();
        clock.moved(s(21), Side::White).unwrap();
        // White has thought 10 s when the game is saved.
        let spent = clock.spent(s(31));
        assert_eq!(spent, s(10));
        let back = GameClock::restore(control, clock.history().to_vec(), Side::White, spent, None, s(1000)).unwrap();
        assert_eq!(back.left(Side::White, s(1000)).main, s(170));
        assert_eq!(back.left(Side::White, s(1004)).main, s(166));
        assert_eq!(back.left(Side::Black, s(1004)).main, s(162));
        assert!(GameClock::restore(control, vec![], Side::White, spent, None, s(0)).is_err());
        // Through the save's text.
        let snap = clock.snapshot(s(31));
        assert_eq!((snap.times_text().as_str(), snap.now_text().as_str()), ("180000/180000 180000/180000 180000/162000", "spent 10000"));
        let read = ClockSnapshot::read(&control.to_string(), &snap.times_text(), &snap.now_text()).unwrap();
        assert_eq!(read, snap);
        assert_eq!(read.resume(Side::White, s(7)).unwrap().left(Side::White, s(8)).main, s(169));
        // In byo-yomi, a period half used stays half used.
        let byo = TimeControl::parse("0.5b30x2").unwrap();
        let mut c = GameClock::new(byo, Side::White);
        c.moved(s(0), Side::Black).unwrap();
        let snap = c.snapshot(s(55));
        assert_eq!(c.reading(Side::Black, s(55)).overtime, Some(s(5)));
        let back = snap.resume(Side::Black, s(500)).unwrap();
        assert_eq!(back.reading(Side::Black, s(500)).overtime, Some(s(5)), "not a fresh period");
        assert_eq!(back.clone().tick(s(505)), None);
        let mut flagged = back;
        assert_eq!(flagged.tick(s(535)), Some(Side::Black), "the second period runs out 30 s later");
        let byo = TimeControl::parse("1b10x2").unwrap();
        let mut c = GameClock::new(byo, Side::White);
        c.moved(s(0), Side::Black).unwrap();
        c.tick(s(100));
        let snap = c.snapshot(s(100));
        assert_eq!((snap.times_text().as_str(), snap.now_text().as_str()), ("60000:2/60000:2 60000:2/60000:2", "flag black"));
        assert_eq!(ClockSnapshot::read("1b10x2", &snap.times_text(), &snap.now_text()).unwrap(), snap);
        for (times, now) in [
            ("", "spent 1"),
            ("60000/60000", "x"),
            ("60000/60000", "1"),
            ("60000:3/60000:2", "spent 1"),
            ("60000", "spent 1"),
            ("60000/60000", "flag grey"),
            ("99999999999/1", "spent 1"),
            ("60000/60000", "spent -4"),
        ] {
            assert!(ClockSnapshot::read("1b10x2", times, now).is_err(), "{times} {now}");
        }
    }

    #[test]
    fn a_double_move_is_one_turn_on_the_clock() {
        let control = TimeControl::parse("1+5").unwrap();
        let mut clock = GameClock::new(control, Side::White);
        clock.moved(s(0), Side::Black).unwrap();
        // Black moves twice in one turn (4 s and 6 s): one increment, the turn's 10 s charged.
        clock.moved(s(4), Side::Black).unwrap();
        assert!(clock.running() && clock.turn() == Side::Black);
        clock.moved(s(10), Side::White).unwrap();
        assert_eq!(clock.left(Side::Black, s(10)).main, s(55));
        // Taking back the turn's second half: Black thinks on, from the turn's start.
        clock.take_back(s(11), Side::Black);
        assert_eq!(clock.left(Side::Black, s(11)).main, s(60));
    }

    #[test]
    fn increments_bank_up_to_a_day_and_texts_stay_exact() {
        let control = TimeControl::parse("600+600").unwrap();
        let mut t = control.start();
        for _ in 0..200 {
            t = control.after_move(t, Duration::from_millis(1)).unwrap();
        }
        assert_eq!(t.main, MAX_BANK);
        for text in ["20s+1", "0.333s", "0.5", "1.25+0.5", "10b30x3"] {
            let c = TimeControl::parse(text).unwrap();
            assert_eq!(TimeControl::parse(&c.to_string()), Ok(c), "{text} wrote {c}");
        }
        assert_eq!(TimeControl::parse("20s+1").unwrap().to_string(), "20s+1");
        assert_eq!(TimeControl::parse("0.5").unwrap().to_string(), "0.5");
    }

    #[test]
    fn faces_show_tenths_only_near_the_end() {
        assert_eq!(show(s(3900)), "1:05:00");
        assert_eq!(show(ms(299_999)), "4:59");
        assert_eq!(show(ms(10_000)), "0:10");
        assert_eq!(show(ms(9_999)), "0:09.9");
        assert_eq!(until_digits_change(ms(12_345)), ms(346));
        assert_eq!(until_digits_change(ms(9_950)), ms(51));
        assert_eq!(until_digits_change(ms(20_000)), ms(1));
        assert_eq!(show(ms(20_000) - until_digits_change(ms(20_000))), "0:19");
    }

    #[test]
    fn a_flag_against_bare_material_draws() {
        let chess = crate::variants::builtin("chess").unwrap();
        let engine = crate::rules::Engine::from_fen(chess.clone(), "4k3/8/8/8/8/8/8/4KQ2 w - - 0 1").unwrap();
        let board = engine.world().resource::<Board>();
        // White (a queen) flags: Black has a bare king and cannot win: a draw.
        let o = flag_outcome(&chess, board, Side::White);
        assert_eq!(o.winner, None);
        assert_eq!(o.to_string(), "draw by time forfeit against insufficient material");
        // Black flags: White wins.
        assert_eq!(flag_outcome(&chess, board, Side::Black).to_string(), "white wins by time forfeit");
        // Horde, by lichess's rule: two knights of the horde cannot mate a lone king, so the
        // king's side flagging draws; the horde flagging loses (the king can take it all).
        let horde = crate::variants::builtin("horde").unwrap();
        let engine = crate::rules::Engine::from_fen(horde.clone(), "8/5k2/8/8/8/4NN2/8/8 w - - 0 1").unwrap();
        let board = engine.world().resource::<Board>();
        assert_eq!(flag_outcome(&horde, board, Side::Black).winner, None);
        assert_eq!(flag_outcome(&horde, board, Side::White).winner, Some(Side::Black));
    }

    #[test]
    fn variants_suggest_their_traditional_controls() {
        let kind = |id: &str| suggested(&crate::variants::builtin(id).unwrap()).kind();
        assert_eq!(kind("shogi"), Kind::ByoYomi);
        assert_eq!(kind("janggi"), Kind::ByoYomi);
        assert_eq!(kind("chess"), Kind::Fischer);
        assert_eq!(suggested(&crate::variants::builtin("capablanca").unwrap()).to_string(), "10+5");
        assert_eq!(suggested(&crate::variants::builtin("chess").unwrap()).to_string(), "5+3");
    }
}
