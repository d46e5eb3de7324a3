//! Compiling rules as data: [`ActionSpec`]s and [`FactSpec`]s as written into the engine's
//! [`Action`]s and [`FactDecl`]s, against a variant's piece types and regions, with every
//! problem named by a stable code and a key path (the loader turns them into its own problems;
//! a data preset's are a bug in the file, which a test reads against every catalogue variant).

use super::action_spec::{
    ActionSpec, CampSpec, CompareSpec, ConditionSpec, DamageKindSpec, EffectSpec, EventSpec, FactSpec, LookSpec, PlaceSpec, ShowSpec,
    SideSpec, WhoSpec,
};
use crate::rules::{
    Action, ActionEffect, Camp, Compare, Condition, DamageKind, EffectKind, Event, FactDecl, FactShow, PieceType, Place, Side, SquareSet,
    Who, intern,
};

/// At most this many facts in one game (a variant's own and its data presets' together).
pub const MAX_FACTS: usize = 4;

/// What went wrong, as the loader's codes say it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ActionCode {
    /// `E_ACTION_NAME`: an empty or repeated name.
    Name,
    /// `E_ACTION_PIECE`: no such piece type, or `pieces` where the event has no piece to attach.
    Piece,
    /// `E_ACTION_EFFECT`: no effect, or an effect its event cannot have.
    Effect,
    /// `E_ACTION_DAMAGE`: an amount or area out of range.
    Damage,
    /// `E_ACTION_FACT`: a fact not declared, declared twice, badly named or out of its limits,
    /// or too many facts.
    Fact,
    /// `E_ACTION_WHO`: a piece the event does not have (`Hit` outside `Damaged`, `This`
    /// without `pieces`).
    Who,
    /// `E_UNKNOWN_REGION`: no region of that name (a data preset's; a variant's loader reports
    /// its own).
    Region,
    /// `E_ACTION_CYCLE`: actions answering pieces appearing and leaving feed one another in a
    /// loop where pieces both appear and leave, which nothing bounds.
    Cycle,
    /// `E_ACTION_STATE`: a state value of a preset not in the game, or a badly named one.
    State,
}

/// One problem.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionProblem {
    /// Its code.
    pub code: ActionCode,
    /// Where, as a key path (`actions[2].then[0]`).
    pub path: String,
    /// What, in words.
    pub message: String,
}

/// What actions are compiled against: piece types by name or letter, and regions by name.
pub trait Names {
    /// The type of this name, or of this letter (one upper-case letter).
    fn piece(&self, name: &str) -> Option<PieceType>;
    /// Every type's name, for the message when one is not found.
    fn piece_names(&self) -> Vec<String>;
    /// The royal types (what `pieces: ["royal"]` attaches to).
    fn royal(&self) -> Vec<PieceType>;
    /// Every type (what `pieces: ["all"]` attaches to).
    fn all(&self) -> Vec<PieceType>;
    /// Whether a name in a list (the types an area spares, the royal types) that no type has
    /// is passed over rather than refused: so for a data preset, which is played in variants
    /// it was not written for, as a Rust preset looks types up by name and skips the missing.
    fn lenient_lists(&self) -> bool {
        false
    }
    /// The region of this name, `[white's, black's]`; `None` for an unknown one (which the
    /// implementor may have reported itself, at `path`).
    fn region(&mut self, name: &str, path: &str) -> Option<[SquareSet; 2]>;
    /// Whether the variant has hands (pieces go to and come from them).
    fn hands(&self) -> bool;
    /// Whether a preset of this id is in the game (whose state an action may read).
    fn preset(&self, id: &str) -> bool;
}

/// The declared facts, checked: names a letter then letters and digits, unique (also against
/// `taken`, names already declared elsewhere in the game), `min <= start <= max`, at most
/// [`MAX_FACTS`] in all.
pub fn compile_facts(specs: &[FactSpec], taken: &[&str], problems: &mut Vec<ActionProblem>) -> Vec<FactDecl> {
    let mut out: Vec<FactDecl> = Vec::new();
    for (i, f) in specs.iter().enumerate() {
        let path = format!("facts[{i}]");
        let mut bad = |message: String| problems.push(ActionProblem { code: ActionCode::Fact, path: path.clone(), message });
        let named = f.name.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) && f.name.chars().all(|c| c.is_ascii_alphanumeric());
        if !named || f.name.len() > 16 {
            bad(format!("'{}' is not a fact's name: a letter, then letters and digits, at most 16", f.name));
            continue;
        }
        if f.name == crate::rules::CROWNED_FACT {
            bad(format!("'{}' is dual-king's, which the FEN reader knows: name it otherwise", f.name));
            continue;
        }
        if out.iter().any(|d| d.name == f.name) || taken.contains(&f.name.as_str()) {
            bad(format!("'{}' is declared twice", f.name));
            continue;
        }
        if !(f.min <= f.start && f.start <= f.max) {
            bad(format!("starts at {} outside its limits {}..={}", f.start, f.min, f.max));
            continue;
        }
        if out.len() + taken.len() >= MAX_FACTS {
            bad(format!("at most {MAX_FACTS} facts in a game"));
            continue;
        }
        let look = match f.look {
            None => FactShow::Hidden,
            Some(LookSpec::Pips(r, g, b)) => FactShow::Pips { top: false, colour: [r, g, b] },
            Some(LookSpec::TopPips(r, g, b)) => FactShow::Pips { top: true, colour: [r, g, b] },
            Some(LookSpec::Ring(r, g, b, a)) => FactShow::Ring { colour: [r, g, b, a] },
        };
        out.push(FactDecl { name: intern(&f.name), start: f.start, min: f.min, max: f.max, look });
    }
    out
}

/// The actions, compiled; `facts` are the fact names they may use. An action with a problem is
/// left out (the problem says why).
pub fn compile_actions(
    specs: &[ActionSpec],
    facts: &[&'static str],
    names: &mut dyn Names,
    problems: &mut Vec<ActionProblem>,
) -> Vec<Action> {
    let mut out = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let at = format!("actions[{i}]");
        let before = problems.len();
        if spec.name.trim().is_empty() || specs[..i].iter().any(|s| s.name == spec.name) {
            problems.push(ActionProblem {
                code: ActionCode::Name,
                path: format!("{at}.name"),
                message: format!("'{}' is empty or the name of an earlier action", spec.name),
            });
        }
        let Some(when) = event(&spec.when, names, &format!("{at}.when"), problems) else { continue };
        let mut cx = Cx { names, facts, problems, when, spec: &spec.when, attached: !spec.pieces.is_empty() || when.is_chained() };
        if !spec.pieces.is_empty() && !matches!(spec.when, EventSpec::TurnStart | EventSpec::TurnEnd) && !when.is_chained() {
            let message = "only TurnStart and TurnEnd actions are attached to pieces (and Spawned and Removed ones answer types)".into();
            cx.problem(ActionCode::Piece, format!("{at}.pieces"), message);
        }
        // (`royal`: every royal type; `all`: every type.)
        let pieces: Vec<Option<PieceType>> = spec
            .pieces
            .iter()
            .enumerate()
            .flat_map(|(j, n)| match n.as_str() {
                "royal" => cx.names.royal().into_iter().map(Some).collect(),
                "all" => cx.names.all().into_iter().map(Some).collect(),
                _ => vec![cx.piece(n, &format!("{at}.pieces[{j}]"))],
            })
            .collect();
        let conditions: Vec<Option<Condition>> =
            spec.conditions.iter().enumerate().map(|(j, c)| cx.condition(c, &format!("{at}.if[{j}]"))).collect();
        if spec.then.is_empty() {
            cx.problem(ActionCode::Effect, format!("{at}.then"), "no effect: say what happens".into());
        }
        let effects: Vec<Option<ActionEffect>> =
            spec.then.iter().enumerate().map(|(j, e)| cx.effect(e, &format!("{at}.then[{j}]"))).collect();
        let lifts = effects.iter().any(|e| matches!(e, Some(ActionEffect::AllowCheck)));
        if lifts && (!spec.conditions.is_empty() || spec.then.len() > 1) {
            let message = "AllowCheck stands alone, without conditions: check is lifted for the whole game".into();
            cx.problem(ActionCode::Effect, format!("{at}.then"), message);
        }
        if spec.when == EventSpec::Royalty && !spec.conditions.is_empty() {
            cx.problem(ActionCode::Effect, format!("{at}.if"), "royalty holds for the whole game: no conditions".into());
        }
        if problems.len() > before {
            continue;
        }
        // (`pieces` that name no type of this variant — "royal" where nothing is — leave the
        // action out: an empty list would mean once, or every type.)
        if !spec.pieces.is_empty() && pieces.is_empty() {
            continue;
        }
        let (Some(conditions), Some(effects), Some(pieces)) = (
            conditions.into_iter().collect::<Option<Vec<_>>>(),
            effects.into_iter().collect::<Option<Vec<_>>>(),
            pieces.into_iter().collect::<Option<Vec<_>>>(),
        ) else {
            continue;
        };
        let sides = spec.sides.unwrap_or_default().sides();
        out.push(Action { name: intern(&spec.name), when, conditions, effects, sides, pieces });
    }
    if let Some(message) = endless_chain(&out) {
        problems.push(ActionProblem { code: ActionCode::Cycle, path: "actions".into(), message });
        out.retain(|a| !a.when.is_chained());
    }
    out
}

fn event(e: &EventSpec, names: &mut dyn Names, path: &str, problems: &mut Vec<ActionProblem>) -> Option<Event> {
    Some(match e {
        EventSpec::BeforeMove => Event::BeforeMove,
        EventSpec::Capture => Event::Capture,
        EventSpec::Damaged => Event::Damaged,
        EventSpec::TurnEnd => Event::TurnEnd,
        EventSpec::Moved => Event::Moved,
        EventSpec::TurnStart => Event::TurnStart,
        EventSpec::Result => Event::Result,
        EventSpec::Listing => Event::Listing,
        EventSpec::Royalty => Event::Royalty,
        EventSpec::Arrives(region) | EventSpec::Leaves(region) => {
            let Some(sets) = names.region(region, path) else {
                problems.push(ActionProblem { code: ActionCode::Region, path: path.into(), message: format!("no region '{region}'") });
                return None;
            };
            if matches!(e, EventSpec::Arrives(_)) { Event::Arrives(sets) } else { Event::Leaves(sets) }
        }
        EventSpec::Check => Event::Check,
        EventSpec::Promotion => Event::Promotion,
        EventSpec::Drop => Event::Drop,
        EventSpec::Spawned => Event::Spawned,
        EventSpec::Removed => Event::Removed,
        EventSpec::Every(n) => {
            if *n == 0 {
                problems.push(ActionProblem {
                    code: ActionCode::Effect,
                    path: path.into(),
                    message: "every 0 half-moves: at least 1".into(),
                });
                return None;
            }
            Event::Every(*n)
        }
    })
}

/// What an action's effects may make happen again: pieces appearing (a spawn, a piece from a
/// hand: it may leave again), pieces leaving
/// (a removal, damage, a strike, a piece sent to a hand).
fn causes(a: &Action) -> (bool, bool) {
    let spawns = a.effects.iter().any(|e| matches!(e, ActionEffect::Spawn(..) | ActionEffect::FromHand(..)));
    let removes = a
        .effects
        .iter()
        .any(|e| matches!(e, ActionEffect::Remove(_) | ActionEffect::Damage { .. } | ActionEffect::Strike(_) | ActionEffect::ToHand(..)));
    (spawns, removes)
}

/// A loop the actions can be seen to make, if any: actions answering pieces appearing or
/// leaving (`Spawned`, `Removed`) whose effects make pieces appear or leave again, round a
/// cycle on which pieces both appear (a spawn, a piece from a hand) and leave. (A chain of
/// removals alone ends, for each takes a piece away; so does a chain of spawns alone, for each
/// fills a square. A loop of both may not, so it is refused; a chain that is finite but deep,
/// or a loop through another preset's actions, stops at run time, at
/// [`crate::rules::CHAIN_LIMIT`].)
pub fn endless_chain(actions: &[Action]) -> Option<String> {
    let chained: Vec<&Action> = actions.iter().filter(|a| a.when.is_chained()).collect();
    let n = chained.len();
    // a → b when a's effects raise b's event.
    let feeds = |a: &Action, b: &Action| {
        let (spawns, removes) = causes(a);
        (b.when == Event::Spawned && spawns) || (b.when == Event::Removed && removes)
    };
    for start in 0..n {
        // Searched depth first from `start`: (action, some action on the way makes pieces
        // appear, some makes them leave), each state seen once.
        let (sp0, rm0) = causes(chained[start]);
        let mut seen = vec![[false; 4]; n];
        let mut stack = vec![(start, sp0, rm0)];
        while let Some((i, sp, rm)) = stack.pop() {
            for j in (0..n).filter(|&j| feeds(chained[i], chained[j])) {
                if j == start && sp && rm {
                    return Some(format!(
                        "'{}' makes pieces appear and leave in a loop that nothing stops: answering a piece that appears or leaves, it makes another appear or leave",
                        chained[start].name
                    ));
                }
                let (s2, r2) = causes(chained[j]);
                let (sp, rm) = (sp || s2, rm || r2);
                let k = usize::from(sp) * 2 + usize::from(rm);
                if !seen[j][k] {
                    seen[j][k] = true;
                    stack.push((j, sp, rm));
                }
            }
        }
    }
    None
}

fn camp_of(c: CampSpec) -> Camp {
    match c {
        CampSpec::Mover => Camp::Mover,
        CampSpec::Other => Camp::Other,
    }
}

fn compare(c: CompareSpec) -> Compare {
    match c {
        CompareSpec::AtLeast(n) => Compare::AtLeast(n),
        CompareSpec::AtMost(n) => Compare::AtMost(n),
        CompareSpec::Exactly(n) => Compare::Exactly(n),
    }
}

/// Whether a `Damaged` action may have this effect: a hit is being dealt, so it takes or
/// soaks the hit, changes facts, shows and notes; no hit, piece or move is made inside it.
pub fn allowed_inside_a_hit(e: &EffectSpec) -> bool {
    matches!(
        e,
        EffectSpec::Absorb(_)
            | EffectSpec::Soak(_)
            | EffectSpec::AddFact(..)
            | EffectSpec::SetFact(..)
            | EffectSpec::Show(..)
            | EffectSpec::Note(_)
    )
}

/// Whether an action on `event` may ask this condition: whether a capture is listed only on
/// `Listing`, whether the side to move is stuck only on `Result` (for the compiler and the
/// editor's pickers alike).
pub fn condition_fits(c: &ConditionSpec, event: &EventSpec) -> bool {
    match c {
        ConditionSpec::CaptureListed => *event == EventSpec::Listing,
        ConditionSpec::NoLegalMove => *event == EventSpec::Result,
        ConditionSpec::Not(inner) => condition_fits(inner, event),
        ConditionSpec::Any(list) => list.iter().all(|c| condition_fits(c, event)),
        _ => true,
    }
}

/// One action's compiling: its event, and where problems go.
struct Cx<'a> {
    names: &'a mut dyn Names,
    facts: &'a [&'static str],
    problems: &'a mut Vec<ActionProblem>,
    when: Event,
    spec: &'a EventSpec,
    attached: bool,
}

impl Cx<'_> {
    fn problem(&mut self, code: ActionCode, path: String, message: String) {
        self.problems.push(ActionProblem { code, path, message });
    }

    fn piece(&mut self, name: &str, path: &str) -> Option<PieceType> {
        let found = self.names.piece(name);
        if found.is_none() {
            let message = format!("no piece type '{name}' (there are: {})", self.names.piece_names().join(", "));
            self.problem(ActionCode::Piece, path.into(), message);
        }
        found
    }

    /// The types a list names (see [`Names::lenient_lists`]).
    fn pieces_listed(&mut self, names: &[String], path: &str) -> Vec<Option<PieceType>> {
        if self.names.lenient_lists() {
            return names.iter().filter_map(|n| self.names.piece(n)).map(Some).collect();
        }
        names.iter().map(|n| self.piece(n, path)).collect()
    }

    fn fact(&mut self, name: &str, path: &str) -> Option<&'static str> {
        let found = self.facts.iter().copied().find(|f| *f == name);
        if found.is_none() {
            let known = if self.facts.is_empty() { "none is declared".to_string() } else { format!("declared: {}", self.facts.join(", ")) };
            self.problem(ActionCode::Fact, path.into(), format!("no fact '{name}' ({known})"));
        }
        found
    }

    /// The piece, if the event has it.
    fn who(&mut self, w: WhoSpec, path: &str) -> Option<Who> {
        let (who, ok, why) = match w {
            WhoSpec::Mover => (Who::Mover, true, ""),
            WhoSpec::Victim => (Who::Victim, true, ""),
            WhoSpec::Hit => (Who::Hit, self.when == Event::Damaged, "only a Damaged action has a piece hit"),
            WhoSpec::This => (
                Who::This,
                self.attached,
                "This is the piece an action is attached to (name the types in `pieces`) or the piece that appears or leaves",
            ),
        };
        if !ok {
            self.problem(ActionCode::Who, path.into(), why.into());
            return None;
        }
        Some(who)
    }

    fn condition(&mut self, c: &ConditionSpec, path: &str) -> Option<Condition> {
        Some(match c {
            ConditionSpec::Captures => Condition::Captures,
            ConditionSpec::Promotes => Condition::Promotes,
            ConditionSpec::Is(w, name) => {
                let who = self.who(*w, path);
                Condition::Is(who?, self.piece(name, path)?)
            }
            ConditionSpec::Royal(w) => Condition::Royal(self.who(*w, path)?),
            ConditionSpec::Side(w, s) => Condition::Side(
                self.who(*w, path)?,
                match s {
                    SideSpec::White => Side::White,
                    SideSpec::Black => Side::Black,
                },
            ),
            ConditionSpec::In(w, region) => {
                let who = self.who(*w, path);
                let Some(sets) = self.names.region(region, path) else {
                    self.problem(ActionCode::Region, path.into(), format!("no region '{region}'"));
                    return None;
                };
                Condition::On(who?, sets)
            }
            ConditionSpec::Fact(w, name, c) => {
                let who = self.who(*w, path);
                Condition::Fact(who?, self.fact(name, path)?, compare(*c))
            }
            ConditionSpec::MovesThisTurn(c) => Condition::MovesThisTurn(compare(*c)),
            ConditionSpec::PiecesOf(camp, c) => Condition::PiecesOf(camp_of(*camp), compare(*c)),
            ConditionSpec::ToMove(camp) => Condition::ToMove(camp_of(*camp)),
            ConditionSpec::NoLegalMove => {
                if !condition_fits(c, self.spec) {
                    self.problem(ActionCode::Who, path.into(), "only a Result action asks whether the side to move can move".into());
                    return None;
                }
                Condition::NoLegalMove
            }
            ConditionSpec::CaptureListed => {
                if !condition_fits(c, self.spec) {
                    self.problem(ActionCode::Who, path.into(), "only a Listing action sees the moves listed".into());
                    return None;
                }
                Condition::CaptureListed
            }
            ConditionSpec::Drops => Condition::Drops,
            ConditionSpec::Castles => Condition::Castles,
            ConditionSpec::Count(camp, types, c) => {
                // (Each type as `Is` names it: one the variant lacks leaves the action out.)
                let types: Option<Vec<PieceType>> = types.iter().map(|n| self.piece(n, path)).collect();
                Condition::Count(camp_of(*camp), types?, compare(*c))
            }
            ConditionSpec::InHand(camp, types, c) => {
                if !self.names.hands() {
                    self.problem(ActionCode::Effect, path.into(), "this variant has no hands: nothing is ever in hand".into());
                    return None;
                }
                let types: Option<Vec<PieceType>> = types.iter().map(|n| self.piece(n, path)).collect();
                Condition::InHand(camp_of(*camp), types?, compare(*c))
            }
            ConditionSpec::InCheck(camp) => Condition::InCheck(camp_of(*camp)),
            ConditionSpec::Turn(c) => Condition::Turn(compare(*c)),
            ConditionSpec::Rank(w, c) => Condition::Rank(self.who(*w, path)?, compare(*c)),
            ConditionSpec::File(w, c) => Condition::File(self.who(*w, path)?, compare(*c)),
            ConditionSpec::State(name, c) => {
                let (preset, key) = self.state_name(name, path, true)?;
                Condition::State { preset, key, is: compare(*c) }
            }
            ConditionSpec::Not(inner) => Condition::Not(Box::new(self.condition(inner, path)?)),
            ConditionSpec::Any(list) => {
                let all: Vec<Option<Condition>> =
                    list.iter().enumerate().map(|(k, c)| self.condition(c, &format!("{path}[{k}]"))).collect();
                Condition::Any(all.into_iter().collect::<Option<Vec<_>>>()?)
            }
        })
    }

    /// A state value's name: `key` (the preset's own) or `preset/key` (another's, only to
    /// read: `others`), each a letter then letters, digits, `-` and `_`.
    fn state_name(&mut self, name: &str, path: &str, others: bool) -> Option<(&'static str, &'static str)> {
        let (preset, key) = name.split_once('/').unwrap_or(("", name));
        let word = |w: &str| {
            w.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && w.len() <= 24
                && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        };
        let why = if !word(key) || (!preset.is_empty() && !word(preset)) {
            Some(format!("'{name}' is not a state value's name: key or preset/key, each a letter, then letters, digits, - or _"))
        } else if !preset.is_empty() && !others {
            Some(format!("'{name}': an action changes only its own state"))
        } else if !preset.is_empty() && !self.names.preset(preset) {
            Some(format!("'{name}': no preset '{preset}' in this game"))
        } else {
            None
        };
        if let Some(message) = why {
            self.problem(ActionCode::State, path.into(), message);
            return None;
        }
        Some((intern(preset), intern(key)))
    }

    /// The event an effect needs, if it needs one.
    fn only(&mut self, path: &str, event: Event, what: &str) -> Option<()> {
        if self.when != event {
            self.problem(ActionCode::Effect, path.into(), format!("{what} only when: {event:?}"));
            return None;
        }
        Some(())
    }

    fn place(&mut self, place: &PlaceSpec, path: &str) -> Option<Place> {
        Some(match place {
            PlaceSpec::From => Place::From,
            PlaceSpec::To => Place::To,
            PlaceSpec::At(w) => Place::At(self.who(*w, path)?),
        })
    }

    fn effect(&mut self, e: &EffectSpec, path: &str) -> Option<ActionEffect> {
        // Listing judges moves: it changes nothing.
        if self.when == Event::Listing && !matches!(e, EffectSpec::Forbid | EffectSpec::AllowCheck) {
            self.problem(ActionCode::Effect, path.into(), "a Listing action only forbids moves or lifts check".into());
            return None;
        }
        // The royal pieces are being gathered: nothing else is done then.
        if (self.when == Event::Royalty) != matches!(e, EffectSpec::Royal(_)) {
            self.problem(ActionCode::Effect, path.into(), "a Royalty action says which types are royal, and only it does".into());
            return None;
        }
        if self.when == Event::Damaged && !allowed_inside_a_hit(e) {
            let message =
                "a Damaged action takes or soaks the hit, changes facts, shows or notes: nothing else happens inside a hit".into();
            self.problem(ActionCode::Effect, path.into(), message);
            return None;
        }
        Some(match e {
            EffectSpec::TakeCapture => {
                self.only(path, Event::Capture, "a capture is taken over")?;
                ActionEffect::TakeCapture
            }
            EffectSpec::Strike(w) => {
                self.only(path, Event::Capture, "a piece is struck as a capture strikes")?;
                ActionEffect::Strike(self.who(*w, path)?)
            }
            EffectSpec::Damage(d) => {
                if d.amount < 1 || d.around > 8 {
                    let message = format!("{} points over {} squares round it: at least 1 point, at most 8 squares", d.amount, d.around);
                    self.problem(ActionCode::Damage, path.into(), message);
                }
                let at = self.who(d.at, path);
                let spare: Vec<Option<PieceType>> = self.pieces_listed(&d.spare, &format!("{path}.spare"));
                let kind = match d.kind {
                    DamageKindSpec::Explosion => DamageKind::Explosion,
                    DamageKindSpec::Poison => DamageKind::Poison,
                };
                ActionEffect::Damage { at: at?, around: d.around, amount: d.amount, kind, spare: spare.into_iter().collect::<Option<_>>()? }
            }
            EffectSpec::Absorb(fact) => {
                self.only(path, Event::Damaged, "a hit is absorbed")?;
                ActionEffect::Absorb(self.fact(fact, path)?)
            }
            EffectSpec::Soak(n) => {
                self.only(path, Event::Damaged, "a hit is soaked")?;
                if *n < 1 {
                    self.problem(ActionCode::Damage, path.into(), format!("soaks {n}: at least 1"));
                    return None;
                }
                ActionEffect::Soak(*n)
            }
            EffectSpec::AddFact(w, fact, n) => {
                let who = self.who(*w, path);
                ActionEffect::AddFact(who?, self.fact(fact, path)?, *n)
            }
            EffectSpec::SetFact(w, fact, n) => {
                let who = self.who(*w, path);
                ActionEffect::SetFact(who?, self.fact(fact, path)?, *n)
            }
            EffectSpec::Remove(w) => ActionEffect::Remove(self.who(*w, path)?),
            EffectSpec::Transform(w, name) => {
                let who = self.who(*w, path);
                ActionEffect::Transform(who?, self.piece(name, path)?)
            }
            EffectSpec::ChangeSide(w) => ActionEffect::ChangeSide(self.who(*w, path)?),
            EffectSpec::Spawn(name, place) => {
                let kind = self.piece(name, path);
                ActionEffect::Spawn(kind?, self.place(place, path)?)
            }
            EffectSpec::Forbid => {
                self.only(path, Event::Listing, "a move is forbidden")?;
                ActionEffect::Forbid
            }
            EffectSpec::AllowCheck => {
                self.only(path, Event::Listing, "check is lifted")?;
                ActionEffect::AllowCheck
            }
            EffectSpec::Royal(names) => {
                let types: Vec<Option<PieceType>> = self.pieces_listed(names, path);
                ActionEffect::Royal(types.into_iter().collect::<Option<Vec<_>>>()?)
            }
            EffectSpec::ExtraMove => {
                self.only(path, Event::TurnEnd, "an extra move is granted")?;
                ActionEffect::ExtraMove
            }
            EffectSpec::Cancel(reason) => {
                self.only(path, Event::BeforeMove, "a move is cancelled")?;
                ActionEffect::Cancel(reason.clone())
            }
            EffectSpec::Win(w, reason) => {
                self.only(path, Event::Result, "a win is declared")?;
                ActionEffect::Win(self.who(*w, path)?, reason.clone())
            }
            EffectSpec::Lose(w, reason) => {
                self.only(path, Event::Result, "a loss is declared")?;
                ActionEffect::Lose(self.who(*w, path)?, reason.clone())
            }
            EffectSpec::Draw(reason) => {
                self.only(path, Event::Result, "a draw is declared")?;
                ActionEffect::Draw(reason.clone())
            }
            EffectSpec::Show(kind, w) => {
                let kind = match kind {
                    ShowSpec::Explosion => EffectKind::Explosion,
                    ShowSpec::Poison => EffectKind::Poison,
                    ShowSpec::Sparkle => EffectKind::Other("sparkle"),
                    ShowSpec::Heal => EffectKind::Heal,
                    ShowSpec::Fission => EffectKind::Fission,
                    ShowSpec::ShieldBroken => EffectKind::ShieldBroken,
                    ShowSpec::Spawn => EffectKind::Spawn,
                    ShowSpec::Tired => EffectKind::Tired,
                };
                ActionEffect::Show(kind, self.who(*w, path)?)
            }
            EffectSpec::Note(text) => ActionEffect::Note(text.clone()),
            EffectSpec::ToHand(w, camp) => {
                let who = self.who(*w, path);
                if !self.names.hands() {
                    self.problem(ActionCode::Effect, path.into(), "this variant has no hands to send a piece to".into());
                    return None;
                }
                ActionEffect::ToHand(who?, camp_of(*camp))
            }
            EffectSpec::FromHand(name, place) => {
                let kind = self.piece(name, path);
                if !self.names.hands() {
                    self.problem(ActionCode::Effect, path.into(), "this variant has no hands to take a piece from".into());
                    return None;
                }
                ActionEffect::FromHand(kind?, self.place(place, path)?)
            }
            EffectSpec::SetState(name, n) => ActionEffect::SetState(self.state_name(name, path, false)?.1, *n),
            EffectSpec::AddState(name, n) => ActionEffect::AddState(self.state_name(name, path, false)?.1, *n),
        })
    }
}

/// Why an action can never run, when its conditions contradict one another or its facts'
/// limits: a piece of two types or two sides at once, a condition with its negation, no
/// capture for a capture's event or a captured piece, a fact compared beyond its limits, or an
/// effect on a piece that has left the board. (A design warning: the file loads.)
pub fn never_runs(action: &Action, facts: &[FactDecl]) -> Option<String> {
    let cs = &action.conditions;
    for (i, a) in cs.iter().enumerate() {
        for b in &cs[i + 1..] {
            match (a, b) {
                (Condition::Is(w, x), Condition::Is(v, y)) if w == v && x != y => {
                    return Some(format!("{w:?} cannot be of two types at once"));
                }
                (Condition::Side(w, x), Condition::Side(v, y)) if w == v && x != y => {
                    return Some(format!("{w:?} cannot be of both sides"));
                }
                (x, Condition::Not(y)) | (Condition::Not(y), x) if x == &**y => {
                    return Some("a condition and its negation are both asked for".into());
                }
                _ => {}
            }
        }
    }
    // The piece that left is no longer on the board: what would change it there does nothing.
    let puts_back = action.effects.iter().any(|e| matches!(e, ActionEffect::FromHand(..)));
    if action.when == Event::Removed
        && !puts_back
        && let Some(e) = action.effects.iter().find(|e| {
            matches!(
                e,
                ActionEffect::Strike(Who::This)
                    | ActionEffect::Remove(Who::This)
                    | ActionEffect::Transform(Who::This, _)
                    | ActionEffect::ChangeSide(Who::This)
                    | ActionEffect::ToHand(Who::This, _)
                    | ActionEffect::Damage { at: Who::This, around: 0, .. }
            )
        })
    {
        return Some(format!("the piece that left is off the board: {e:?} does nothing to it"));
    }
    let no_capture = cs.contains(&Condition::Not(Box::new(Condition::Captures)));
    if no_capture && action.when == Event::Capture {
        return Some("a capture's action asks for a move that captures nothing".into());
    }
    if no_capture
        && cs.iter().any(|c| {
            matches!(
                c,
                Condition::Is(Who::Victim, _)
                    | Condition::Royal(Who::Victim)
                    | Condition::Side(Who::Victim, _)
                    | Condition::On(Who::Victim, _)
                    | Condition::Fact(Who::Victim, ..)
            )
        })
    {
        return Some("it asks for no capture, and about the captured piece".into());
    }
    for c in cs {
        if let Condition::Fact(_, name, compare) = c
            && let Some(d) = facts.iter().find(|d| d.name == *name)
            && !match *compare {
                Compare::AtLeast(n) => n <= d.max,
                Compare::AtMost(n) => n >= d.min,
                Compare::Exactly(n) => (d.min..=d.max).contains(&n),
            }
        {
            return Some(format!("{name} stays within {}..={}: no value passes", d.min, d.max));
        }
    }
    None
}
