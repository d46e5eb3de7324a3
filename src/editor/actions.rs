//! The Actions section's model: a variant's own rules as data (`actions`) and the piece facts
//! they use (`facts`), built with pickers rather than typed. Each kind of event, condition and
//! effect has a name in plain words and a ready-made value to start from; the lists are edited
//! whole ([`super::Edit::Actions`], [`super::Edit::Facts`]), so that every change is one step of
//! undo. The sentences the section shows are the rules panel's ([`crate::rules::describe_action`]).

use crate::presets::action_spec::{
    ActionSpec, CampSpec, CompareSpec, ConditionSpec, DamageKindSpec, DamageSpec, EffectSpec, EventSpec, FactSpec, LookSpec, PlaceSpec,
    ShowSpec, SideSpec, WhoSpec,
};

/// The events, in the order a move meets them, with their words: each with a value to start
/// from (a region's events are offered when the file has a region).
pub fn events(v: &Vocabulary) -> Vec<(EventSpec, &'static str)> {
    let mut out = vec![
        (EventSpec::BeforeMove, "before a move is made"),
        (EventSpec::Capture, "a piece captures"),
        (EventSpec::Damaged, "a piece takes damage"),
        (EventSpec::TurnEnd, "a move is made, before the turn passes"),
        (EventSpec::Moved, "a move has been made"),
        (EventSpec::Check, "a move gives check"),
        (EventSpec::Promotion, "a piece promotes"),
        (EventSpec::Drop, "a piece is dropped"),
        (EventSpec::Spawned, "a piece appears"),
        (EventSpec::Removed, "a piece leaves the board"),
        (EventSpec::TurnStart, "a turn starts"),
        (EventSpec::Every(10), "every few turns"),
        (EventSpec::Result, "the result is judged after a move"),
        (EventSpec::Listing, "moves are listed (to forbid some)"),
        (EventSpec::Royalty, "the royal pieces are named"),
    ];
    if !v.hands {
        out.retain(|(e, _)| *e != EventSpec::Drop);
    }
    if let Some(region) = v.regions.first() {
        out.insert(5, (EventSpec::Arrives(region.clone()), "a piece arrives in a region"));
        out.insert(6, (EventSpec::Leaves(region.clone()), "a piece leaves a region"));
    }
    out
}

/// The words of an event (of its kind: any region, any count).
pub fn event_words(e: &EventSpec) -> &'static str {
    match e {
        EventSpec::Arrives(_) => "a piece arrives in a region",
        EventSpec::Leaves(_) => "a piece leaves a region",
        EventSpec::Every(_) => "every few turns",
        e => {
            let v = Vocabulary { hands: true, ..Vocabulary::default() };
            events(&v).into_iter().find(|(x, _)| x == e).map_or("", |(_, w)| w)
        }
    }
}

/// The pieces an action may speak of, with their words.
pub const WHO: [(WhoSpec, &str); 4] = [
    (WhoSpec::Mover, "the moving piece"),
    (WhoSpec::Victim, "the captured piece"),
    (WhoSpec::Hit, "the piece hit"),
    (WhoSpec::This, "each attached piece"),
];

/// The words of a piece spoken of.
pub fn who_words(w: WhoSpec) -> &'static str {
    WHO.iter().find(|(x, _)| *x == w).map_or("", |(_, s)| s)
}

/// The pieces an event has (the `Hit` of damage, the `This` of attached actions).
pub fn who_for(event: &EventSpec, attached: bool) -> Vec<WhoSpec> {
    let mut out = vec![WhoSpec::Mover, WhoSpec::Victim];
    if *event == EventSpec::Damaged {
        out.push(WhoSpec::Hit);
    }
    if attached || chained(event) {
        out.push(WhoSpec::This);
    }
    out
}

/// Whether the event answers one piece appearing or leaving (which `This` names).
pub fn chained(event: &EventSpec) -> bool {
    matches!(event, EventSpec::Spawned | EventSpec::Removed)
}

/// Whether actions on the event may name piece types in `pieces` (attached to them, or the
/// types a piece appearing or leaving must be of).
pub fn takes_pieces(event: &EventSpec) -> bool {
    matches!(event, EventSpec::TurnStart | EventSpec::TurnEnd) || chained(event)
}

/// What names and numbers the pickers offer: the file's piece types (by name), regions and
/// declared facts.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    /// Piece type names.
    pub pieces: Vec<String>,
    /// Region names.
    pub regions: Vec<String>,
    /// Fact names.
    pub facts: Vec<String>,
    /// Whether the variant has hands.
    pub hands: bool,
}

impl Vocabulary {
    fn piece(&self) -> String {
        self.pieces.first().cloned().unwrap_or_else(|| "pawn".into())
    }

    fn fact(&self) -> String {
        self.facts.first().cloned().unwrap_or_else(|| "Hp".into())
    }
}

/// The kinds of condition an event may have, each with its words and a value to start from.
pub fn condition_kinds(event: &EventSpec, v: &Vocabulary) -> Vec<(&'static str, ConditionSpec)> {
    if *event == EventSpec::Royalty {
        return Vec::new();
    }
    let mut out = vec![
        ("it captures", ConditionSpec::Captures),
        ("it promotes", ConditionSpec::Promotes),
        ("a piece is of a type", ConditionSpec::Is(WhoSpec::Mover, v.piece())),
        ("a piece is royal", ConditionSpec::Royal(WhoSpec::Mover)),
        ("a piece is a side's", ConditionSpec::Side(WhoSpec::Mover, SideSpec::White)),
        ("a piece stands in a region", ConditionSpec::In(WhoSpec::Mover, v.regions.first().cloned().unwrap_or_default())),
        ("a piece's fact", ConditionSpec::Fact(WhoSpec::Mover, v.fact(), CompareSpec::AtLeast(1))),
        ("moves made this turn", ConditionSpec::MovesThisTurn(CompareSpec::AtMost(1))),
        ("pieces left to a side", ConditionSpec::PiecesOf(CampSpec::Other, CompareSpec::AtMost(0))),
        ("a capture is possible", ConditionSpec::CaptureListed),
        ("who moves next", ConditionSpec::ToMove(CampSpec::Other)),
        ("the side to move is stuck", ConditionSpec::NoLegalMove),
        ("it drops a piece", ConditionSpec::Drops),
        ("it castles", ConditionSpec::Castles),
        ("pieces of a type on the board", ConditionSpec::Count(CampSpec::Other, vec![v.piece()], CompareSpec::AtMost(0))),
        ("pieces in hand", ConditionSpec::InHand(CampSpec::Mover, Vec::new(), CompareSpec::AtLeast(1))),
        ("a side is in check", ConditionSpec::InCheck(CampSpec::Other)),
        ("the move number", ConditionSpec::Turn(CompareSpec::AtLeast(10))),
        ("a piece's rank", ConditionSpec::Rank(WhoSpec::Mover, CompareSpec::AtLeast(5))),
        ("a piece's file", ConditionSpec::File(WhoSpec::Mover, CompareSpec::Exactly(1))),
        ("a count", ConditionSpec::State("count".into(), CompareSpec::AtLeast(1))),
        ("one of several", ConditionSpec::Any(vec![ConditionSpec::Captures, ConditionSpec::Promotes])),
    ];
    if !v.hands {
        out.retain(|(_, c)| !matches!(c, ConditionSpec::InHand(..) | ConditionSpec::Drops));
    }
    if v.regions.is_empty() {
        out.retain(|(_, c)| !matches!(c, ConditionSpec::In(..)));
    }
    if v.facts.is_empty() {
        out.retain(|(_, c)| !matches!(c, ConditionSpec::Fact(..)));
    }
    out.retain(|(_, c)| crate::presets::action_compile::condition_fits(c, event));
    out
}

/// The kind of a condition (its words), looking through `Not`.
pub fn condition_kind(c: &ConditionSpec) -> &'static str {
    match c {
        ConditionSpec::Captures => "it captures",
        ConditionSpec::Promotes => "it promotes",
        ConditionSpec::Is(..) => "a piece is of a type",
        ConditionSpec::Royal(_) => "a piece is royal",
        ConditionSpec::Side(..) => "a piece is a side's",
        ConditionSpec::In(..) => "a piece stands in a region",
        ConditionSpec::Fact(..) => "a piece's fact",
        ConditionSpec::MovesThisTurn(_) => "moves made this turn",
        ConditionSpec::PiecesOf(..) => "pieces left to a side",
        ConditionSpec::CaptureListed => "a capture is possible",
        ConditionSpec::ToMove(_) => "who moves next",
        ConditionSpec::NoLegalMove => "the side to move is stuck",
        ConditionSpec::Drops => "it drops a piece",
        ConditionSpec::Castles => "it castles",
        ConditionSpec::Count(..) => "pieces of a type on the board",
        ConditionSpec::InHand(..) => "pieces in hand",
        ConditionSpec::InCheck(_) => "a side is in check",
        ConditionSpec::Turn(_) => "the move number",
        ConditionSpec::Rank(..) => "a piece's rank",
        ConditionSpec::File(..) => "a piece's file",
        ConditionSpec::State(..) => "a count",
        ConditionSpec::Not(inner) => condition_kind(inner),
        ConditionSpec::Any(_) => "one of several",
    }
}

/// The kinds of effect an event may have, each with its words and a value to start from.
pub fn effect_kinds(event: &EventSpec, v: &Vocabulary) -> Vec<(&'static str, EffectSpec)> {
    // (The piece that left the board is off it: effects start on the moving piece.)
    let who = match event {
        EventSpec::Damaged => WhoSpec::Hit,
        EventSpec::Spawned => WhoSpec::This,
        _ => WhoSpec::Mover,
    };
    let mut out: Vec<(&'static str, EffectSpec)> = match event {
        EventSpec::Listing => {
            return vec![("forbid the move", EffectSpec::Forbid), ("check does not restrict moves", EffectSpec::AllowCheck)];
        }
        EventSpec::Royalty => return vec![("these types are royal", EffectSpec::Royal(Vec::new()))],
        EventSpec::Capture => {
            vec![("take the capture over", EffectSpec::TakeCapture), ("strike as a capture does", EffectSpec::Strike(WhoSpec::Victim))]
        }
        EventSpec::Damaged => vec![("a fact takes the hit", EffectSpec::Absorb(v.fact())), ("stop points of the hit", EffectSpec::Soak(1))],
        EventSpec::TurnEnd => vec![("the side moves again", EffectSpec::ExtraMove)],
        EventSpec::BeforeMove => vec![("cancel the move", EffectSpec::Cancel("not allowed".into()))],
        EventSpec::Result => vec![
            ("a side wins", EffectSpec::Win(WhoSpec::Mover, "a rule of the variant".into())),
            ("a side loses", EffectSpec::Lose(WhoSpec::Mover, "a rule of the variant".into())),
            ("the game is drawn", EffectSpec::Draw("a rule of the variant".into())),
        ],
        EventSpec::Moved
        | EventSpec::TurnStart
        | EventSpec::Arrives(_)
        | EventSpec::Leaves(_)
        | EventSpec::Check
        | EventSpec::Promotion
        | EventSpec::Drop
        | EventSpec::Spawned
        | EventSpec::Removed
        | EventSpec::Every(_) => Vec::new(),
    };
    out.extend([
        (
            "deal damage",
            EffectSpec::Damage(DamageSpec { at: who, around: 0, amount: 1, kind: DamageKindSpec::Explosion, spare: Vec::new() }),
        ),
        ("remove a piece", EffectSpec::Remove(who)),
        ("a piece becomes another type", EffectSpec::Transform(who, v.piece())),
        ("a piece changes sides", EffectSpec::ChangeSide(who)),
        ("a piece appears", EffectSpec::Spawn(v.piece(), PlaceSpec::From)),
        ("add to a fact", EffectSpec::AddFact(who, v.fact(), 1)),
        ("set a fact", EffectSpec::SetFact(who, v.fact(), 0)),
        ("play an animation", EffectSpec::Show(ShowSpec::Sparkle, who)),
        ("note on the move", EffectSpec::Note("…".into())),
        ("send a piece to a hand", EffectSpec::ToHand(who, CampSpec::Mover)),
        ("put a piece from the hand", EffectSpec::FromHand(v.piece(), PlaceSpec::From)),
        ("set a count", EffectSpec::SetState("count".into(), 0)),
        ("add to a count", EffectSpec::AddState("count".into(), 1)),
    ]);
    if !v.hands {
        out.retain(|(_, e)| !matches!(e, EffectSpec::ToHand(..) | EffectSpec::FromHand(..)));
    }
    if v.facts.is_empty() {
        out.retain(|(_, e)| !matches!(e, EffectSpec::Absorb(_) | EffectSpec::AddFact(..) | EffectSpec::SetFact(..)));
    }
    // Nothing but facts, soaking, animations and notes happens inside a hit.
    if *event == EventSpec::Damaged {
        out.retain(|(_, e)| crate::presets::action_compile::allowed_inside_a_hit(e));
    }
    out
}

/// The kind of an effect (its words).
pub fn effect_kind(e: &EffectSpec) -> &'static str {
    match e {
        EffectSpec::TakeCapture => "take the capture over",
        EffectSpec::Strike(_) => "strike as a capture does",
        EffectSpec::Damage(_) => "deal damage",
        EffectSpec::Absorb(_) => "a fact takes the hit",
        EffectSpec::Soak(_) => "stop points of the hit",
        EffectSpec::AddFact(..) => "add to a fact",
        EffectSpec::SetFact(..) => "set a fact",
        EffectSpec::Remove(_) => "remove a piece",
        EffectSpec::Transform(..) => "a piece becomes another type",
        EffectSpec::ChangeSide(_) => "a piece changes sides",
        EffectSpec::Spawn(..) => "a piece appears",
        EffectSpec::Forbid => "forbid the move",
        EffectSpec::AllowCheck => "check does not restrict moves",
        EffectSpec::Royal(_) => "these types are royal",
        EffectSpec::ExtraMove => "the side moves again",
        EffectSpec::Cancel(_) => "cancel the move",
        EffectSpec::Win(..) => "a side wins",
        EffectSpec::Lose(..) => "a side loses",
        EffectSpec::Draw(_) => "the game is drawn",
        EffectSpec::Show(..) => "play an animation",
        EffectSpec::Note(_) => "note on the move",
        EffectSpec::ToHand(..) => "send a piece to a hand",
        EffectSpec::FromHand(..) => "put a piece from the hand",
        EffectSpec::SetState(..) => "set a count",
        EffectSpec::AddState(..) => "add to a count",
    }
}

/// The action answering `event` instead: the effects the event cannot have are left out (the
/// event's first kind of effect stands in when none is left), and royalty keeps no condition.
pub fn with_event(a: &ActionSpec, event: EventSpec, v: &Vocabulary) -> ActionSpec {
    let kinds = effect_kinds(&event, v);
    let conditions = condition_kinds(&event, v);
    let keeps_pieces = takes_pieces(&event);
    let mut out = ActionSpec { when: event, ..a.clone() };
    out.then.retain(|e| kinds.iter().any(|(w, _)| *w == effect_kind(e)));
    if out.then.is_empty()
        && let Some((_, first)) = kinds.first()
    {
        out.then.push(first.clone());
    }
    out.conditions.retain(|c| conditions.iter().any(|(w, _)| *w == condition_kind(c)));
    if !keeps_pieces {
        out.pieces.clear();
    }
    out
}

/// A new action to start from: when a piece captures, sparkles (a name no other action has).
pub fn new_action(existing: &[ActionSpec]) -> ActionSpec {
    ActionSpec {
        name: free_name(existing, "rule"),
        when: EventSpec::Capture,
        conditions: Vec::new(),
        then: vec![EffectSpec::Show(ShowSpec::Sparkle, WhoSpec::Mover)],
        sides: None,
        pieces: Vec::new(),
    }
}

/// `base`, or `base 2`, `base 3`… : the first name no action has.
pub fn free_name(existing: &[ActionSpec], base: &str) -> String {
    let taken = |n: &str| existing.iter().any(|a| a.name == n);
    if !taken(base) {
        return base.to_string();
    }
    (2..).map(|i| format!("{base} {i}")).find(|n| !taken(n)).expect("a free name")
}

/// The list with action `i` copied after it, under a free name.
pub fn duplicated(list: &[ActionSpec], i: usize) -> Vec<ActionSpec> {
    let mut out = list.to_vec();
    if let Some(a) = list.get(i) {
        let base = a.name.trim_end_matches(|c: char| c.is_ascii_digit()).trim_end().to_string();
        out.insert(i + 1, ActionSpec { name: free_name(list, &base), ..a.clone() });
    }
    out
}

/// The list with action `i` moved one place up (`up`) or down.
pub fn moved(list: &[ActionSpec], i: usize, up: bool) -> Vec<ActionSpec> {
    let mut out = list.to_vec();
    let j = if up { i.checked_sub(1) } else { Some(i + 1).filter(|&j| j < list.len()) };
    if let Some(j) = j.filter(|_| i < list.len()) {
        out.swap(i, j);
    }
    out
}

/// A new fact to start from: hit points, or `Fact2`… when taken.
pub fn new_fact(existing: &[FactSpec]) -> FactSpec {
    let taken = |n: &str| existing.iter().any(|f| f.name == n);
    let name = if taken("Hp") { (2..).map(|i| format!("Fact{i}")).find(|n| !taken(n)).expect("a free name") } else { "Hp".into() };
    FactSpec { name, start: 2, min: 0, max: 99, look: Some(LookSpec::Pips(230, 38, 38)) }
}

/// The regions a list of conditions names, with where (for renaming and removing regions).
pub fn regions_named_mut(actions: &mut [ActionSpec]) -> Vec<(String, &mut String)> {
    fn walk<'a>(c: &'a mut ConditionSpec, path: &str, out: &mut Vec<(String, &'a mut String)>) {
        match c {
            ConditionSpec::In(_, region) => out.push((path.to_string(), region)),
            ConditionSpec::Not(inner) => walk(inner, path, out),
            ConditionSpec::Any(list) => list.iter_mut().for_each(|c| walk(c, path, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (i, a) in actions.iter_mut().enumerate() {
        if let EventSpec::Arrives(region) | EventSpec::Leaves(region) = &mut a.when {
            out.push((format!("actions[{i}].when"), region));
        }
        for (j, c) in a.conditions.iter_mut().enumerate() {
            walk(c, &format!("actions[{i}].if[{j}]"), &mut out);
        }
    }
    out
}
