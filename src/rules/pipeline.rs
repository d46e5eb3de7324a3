//! Building the two pipelines: the default systems of each step plus the hook systems of the
//! active presets, in activation order. The schedules are rebuilt whenever the hook list
//! changes, so the order inside every set is exactly the active-set order.

use std::sync::Arc;

use bevy::ecs::schedule::{ScheduleConfigs, ScheduleLabel, SingleThreadedExecutor};
use bevy::ecs::system::ScheduleSystem;
use bevy::prelude::*;

use super::apply::{self, ApplyPart, ApplyParts, ApplySystems, MoveApplication};
use super::damage::{DamagePipeline, DamageRequest, DamageSystems};
use super::lifecycle::{LifecycleSystems, RetractPipeline, SpawnPipeline};
use super::query::{self, LegalMoveQuery, QueryPart, QueryParts, QuerySystems};
use super::schedules::Pipelines;
use super::variant::{EndCondition, RuleSwitches, Rules, Variant};

/// A step of either pipeline.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// A step of the legal-move query.
    Query(QuerySystems),
    /// A step of move application.
    Apply(ApplySystems),
    /// The damage pipeline (on-damage hooks).
    Damage,
    /// on-piece-spawn, run by [`spawn_piece`](super::spawn_piece).
    Spawn,
    /// on-piece-retract, run for every piece that leaves the board.
    Retract,
}

impl From<QuerySystems> for Step {
    fn from(s: QuerySystems) -> Step {
        Step::Query(s)
    }
}

impl From<ApplySystems> for Step {
    fn from(s: ApplySystems) -> Step {
        Step::Apply(s)
    }
}

/// Makes a fresh hook system each time the pipelines are built.
pub type SystemFactory = Arc<dyn Fn() -> ScheduleConfigs<ScheduleSystem> + Send + Sync>;

/// One hook system: whose it is, which step it belongs to, the sides it applies to, and how to
/// make it.
#[derive(Clone)]
pub struct Hook {
    /// The preset id (or any owner name for tests and tools).
    pub owner: &'static str,
    /// The step whose set it runs in.
    pub step: Step,
    /// The sides it applies to, `[white, black]` (`None`: both). The pipeline enforces it in the
    /// scope-aware steps of `preset-api.md`'s table — damage (by the target's side), before-move
    /// and before-capture (by the mover), turn start (by the new side to move), the per-piece
    /// query steps (by the pieces' side), spawn and retract (by the piece's side) — and ignores
    /// it in the unscoped ones, where a hook decides for itself.
    pub scope: Option<[bool; 2]>,
    /// Whether it may change the position from on-piece-spawn or on-piece-retract (a rule
    /// written as data answering pieces appearing and leaving): captures are then judged by a
    /// full trial application, as a capture consumer's are.
    pub changes_position: bool,
    /// Its factory.
    pub make: SystemFactory,
}

impl std::fmt::Debug for Hook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hook").field("owner", &self.owner).field("step", &self.step).finish()
    }
}

impl Hook {
    /// A hook from any system.
    pub fn new<M>(
        owner: &'static str,
        step: impl Into<Step>,
        system: impl IntoScheduleConfigs<ScheduleSystem, M> + Clone + Send + Sync + 'static,
    ) -> Hook {
        Hook { owner, step: step.into(), scope: None, changes_position: false, make: Arc::new(move || system.clone().into_configs()) }
    }

    /// The hook, marked as one that may change the position ([`Hook::changes_position`]).
    pub fn changing_position(self) -> Hook {
        Hook { changes_position: true, ..self }
    }

    /// The hook restricted to `sides` (`[white, black]`).
    pub fn scoped(self, sides: [bool; 2]) -> Hook {
        Hook { scope: Some(sides), ..self }
    }

    /// The hook's system, gated on its scope where its step is scope-aware.
    fn system(&self) -> ScheduleConfigs<ScheduleSystem> {
        use super::apply::PendingMove;
        use super::damage::DamageRequest;
        use super::lifecycle::PieceEvent;
        use super::query::MoveQuery;
        use super::state::GameState;
        let system = (self.make)();
        let Some(sides) = self.scope.filter(|s| *s != [true, true]) else { return system };
        match self.step {
            Step::Damage => system.run_if(move |r: Res<DamageRequest>| sides[r.target_side.index()]),
            Step::Apply(ApplySystems::BeforeMove | ApplySystems::BeforeCapture) => {
                system.run_if(move |p: Res<PendingMove>| sides[p.mover.index()])
            }
            Step::Apply(ApplySystems::TurnStart) => system.run_if(move |s: Res<GameState>| sides[s.turn.index()]),
            Step::Query(QuerySystems::Override | QuerySystems::Transform | QuerySystems::Extra | QuerySystems::PieceFilter) => {
                system.run_if(move |q: Res<MoveQuery>| sides[q.side.index()])
            }
            Step::Spawn | Step::Retract => system.run_if(move |e: Res<PieceEvent>| sides[e.side.index()]),
            _ => system,
        }
    }
}

/// The hook systems of the active presets, in activation order.
#[derive(Resource, Clone, Debug, Default)]
pub struct Hooks(pub Vec<Hook>);

/// One position inside a step: every system in a step gets its own slot, and slots are
/// chained, so the order inside a step is exactly the list order.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Slot(Step, u16);

/// Steps 2 to 11 of move application, gated on the move not being cancelled.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Committed;

/// Which optional default systems the variant needs; the others are left out of the
/// schedules, so a variant pays per node only for the rules it has.
#[derive(Copy, Clone, Debug, Default)]
struct Needs {
    /// The variant's rule switches (those of [`query::SWITCHED_FILTERS`] add their filter).
    switches: RuleSwitches,
    count_checks: bool,
    shak_series: bool,
    check_streak: bool,
    immediate_results: bool,
    flag_reply: bool,
    drops: bool,
    must_drop: bool,
    blast: bool,
    gating: bool,
    duck: bool,
    trail_walls: bool,
    makpong: bool,
    cambodian_moves: bool,
    mutually_immune: bool,
    piece_promotion: bool,
    drop_checks: bool,
    pass: bool,
    bikjang: bool,
    damage_hooks: bool,
    retract_hooks: bool,
    /// Hooks change what a capture does (consumers, damage absorbers): captures are judged
    /// by a full trial application.
    applied_captures: bool,
    /// Hooks change the position during or after the mutations: every move is.
    applied_moves: bool,
    /// A royal piece may leave the board in play (damage, explosions, no self-check filter,
    /// a side moving again): a side that loses its last one loses the game.
    royal_loss: bool,
    /// Presets register extra facts for the position hash.
    extra_hash: bool,
    /// Presets registered movement layers.
    layers: bool,
}

impl Needs {
    fn of(variant: Option<&Variant>, hooks: &[Hook]) -> Needs {
        let damage_hooks = hooks.iter().any(|h| h.step == Step::Damage);
        let retract_hooks = hooks.iter().any(|h| h.step == Step::Retract);
        let applied_moves = hooks.iter().any(|h| matches!(h.step, Step::Apply(ApplySystems::Mutate | ApplySystems::AfterMove)));
        let applied_captures = applied_moves
            || hooks.iter().any(|h| {
                matches!(h.step, Step::Damage | Step::Apply(ApplySystems::BeforeCapture))
                    || (matches!(h.step, Step::Spawn | Step::Retract) && h.changes_position)
            });
        // (A variant's own blasts end the game through its extinction rule.)
        // A side that moves again (double moves, a berserker's follow-up) may take a king its
        // first move left in check.
        let royal_loss = applied_captures
            || hooks.iter().any(|h| h.step == Step::Query(QuerySystems::SelfCheckPoll) || h.step == Step::Apply(ApplySystems::AdvanceTurn));
        let base = Needs { damage_hooks, retract_hooks, applied_captures, applied_moves, royal_loss, ..Needs::default() };
        let Some(v) = variant else { return base };
        Needs {
            switches: v.switches,
            count_checks: v.check_limit().is_some(),
            shak_series: v.shak_types().is_some(),
            check_streak: v.switches.perpetual_check_loses,
            immediate_results: v.end.iter().any(EndCondition::is_immediate),
            flag_reply: v.end.iter().any(|e| matches!(e, EndCondition::RegionReached { reply: true, .. })),
            drops: v.drops.is_some(),
            must_drop: v.drops.as_ref().is_some_and(|d| d.must_drop),
            blast: v.blast.is_some(),
            gating: v.switches.gating || v.switches.fixed_gating,
            duck: v.switches.duck,
            trail_walls: v.switches.trail_walls,
            makpong: v.switches.makpong,
            cambodian_moves: v.switches.cambodian_moves,
            mutually_immune: v.mutually_immune != 0,
            piece_promotion: v.piece_promotion.is_some() || !v.immobile.is_empty(),
            drop_checks: v.drops.as_ref().is_some_and(|d| d.no_checks),
            pass: v.switches.pass,
            bikjang: v.end.contains(&EndCondition::Bikjang),
            ..base
        }
    }
}

/// A default system of a step: a part of its pipeline ([`QueryPart`], [`ApplyPart`]), fused
/// with the parts next to it into one system, or a system of its own (exclusive systems, and
/// every hook).
enum Entry<P> {
    Part(P),
    System(ScheduleConfigs<ScheduleSystem>),
}

/// The default systems of a step: those before its hooks and those after them.
type Defaults<P> = (Vec<Entry<P>>, Vec<Entry<P>>);

fn query_defaults(step: QuerySystems, needs: Needs) -> Defaults<QueryPart> {
    use Entry::Part;
    use QuerySystems as Q;
    match step {
        Q::Royalty => (vec![Part(query::begin_query), Part(query::resolve_royalty)], vec![]),
        Q::Override if needs.layers => (vec![Part(query::override_by_layers)], vec![]),
        Q::Extra if needs.layers => (vec![Part(query::extra_by_layers)], vec![]),
        Q::Generate => {
            let mut before = vec![Part(query::generate_piece_moves as QueryPart)];
            if needs.mutually_immune {
                before.push(Part(query::forbid_mutual_captures));
            }
            if needs.drops {
                before.push(Part(query::generate_drops));
            }
            if needs.pass {
                before.push(Part(query::generate_pass));
            }
            (before, vec![])
        }
        Q::Synthesize => {
            let mut before = vec![Part(query::synthesize_special_moves as QueryPart)];
            if needs.gating {
                before.push(Part(query::synthesize_gating));
            }
            if needs.cambodian_moves {
                before.push(Part(query::synthesize_cambodian_moves));
            }
            if needs.piece_promotion {
                before.push(Part(query::synthesize_piece_promotions));
            }
            (before, vec![])
        }
        Q::SelfCheck => {
            // The duck's squares first: each move is judged with its duck.
            let mut before: Vec<Entry<QueryPart>> = Vec::new();
            if needs.duck {
                before.push(Part(query::place_duck));
            }
            if needs.trail_walls {
                before.push(Part(query::leave_trail));
            }
            before.push(if needs.applied_captures {
                Entry::System(apply::filter_self_check_applied.into_configs())
            } else {
                Part(query::filter_self_check)
            });
            if needs.makpong {
                before.push(Part(query::makpong_king_takes_checker));
            }
            (before, vec![])
        }
        Q::LegalFilter => {
            let mut before: Vec<Entry<QueryPart>> = Vec::new();
            if needs.drop_checks {
                before.push(Part(query::forbid_drop_checks));
            }
            if needs.bikjang {
                before.push(Part(query::answer_bikjang));
            }
            for (on, part) in query::SWITCHED_FILTERS {
                if on(&needs.switches) {
                    before.push(Part(*part));
                }
            }
            if needs.must_drop {
                before.push(Part(query::enforce_must_drop));
            }
            (before, vec![])
        }
        _ => (vec![], vec![]),
    }
}

/// A part of move application, with the step whose gates it obeys.
type StepPart = (ApplySystems, ApplyPart);

fn apply_defaults(step: ApplySystems, needs: Needs) -> Defaults<StepPart> {
    use ApplySystems as A;
    let (before, after) = apply_rule_defaults(step, needs);
    let system = |s: fn(&mut World)| Entry::System(s.into_configs());
    let entry = |d: ApplyDefault| match d {
        ApplyDefault::Part(f) => Entry::Part((step, f)),
        ApplyDefault::Exclusive(s) => system(s),
    };
    let before: Vec<Entry<StepPart>> = before.into_iter().map(entry).collect();
    let mut after: Vec<Entry<StepPart>> = after.into_iter().map(entry).collect();
    // Pieces that left the board in a step are announced to the retract hooks at its end.
    if needs.retract_hooks && matches!(step, A::Damage | A::Mutate | A::AfterMove | A::TurnStart) {
        after.push(system(super::lifecycle::announce_retractions));
    }
    (before, after)
}

/// A default of move application: a part of a fused run, or an exclusive system.
enum ApplyDefault {
    Part(ApplyPart),
    Exclusive(fn(&mut World)),
}

fn apply_rule_defaults(step: ApplySystems, needs: Needs) -> (Vec<ApplyDefault>, Vec<ApplyDefault>) {
    use ApplyDefault::{Exclusive, Part};
    use ApplySystems as A;
    match step {
        A::BeforeMove if needs.royal_loss => (vec![Part(apply::prepare_move), Part(apply::note_royals)], vec![]),
        A::BeforeMove => (vec![Part(apply::prepare_move)], vec![]),
        A::Damage if needs.damage_hooks => (vec![], vec![Exclusive(apply::damage_the_victim), Part(apply::resolve_capture)]),
        A::Damage => (vec![], vec![Part(apply::resolve_capture)]),
        A::Mutate => {
            let mut before: Vec<ApplyDefault> = vec![Part(apply::mutate_position)];
            if needs.blast {
                before.push(Exclusive(apply::explode));
            }
            let mut after: Vec<ApplyDefault> = if needs.count_checks { vec![Part(apply::count_checks)] } else { vec![] };
            if needs.shak_series {
                after.push(Part(apply::track_shak_series));
            }
            if needs.check_streak {
                after.push(Part(apply::track_check_streak));
            }
            (before, after)
        }
        A::CountHalfMove => (vec![Part(apply::count_half_move)], vec![]),
        A::AdvanceTurn => (vec![], vec![Part(apply::advance_turn)]),
        A::GameResult => {
            let mut after: Vec<ApplyDefault> = Vec::new();
            if needs.immediate_results {
                after.push(Part(apply::decide_variant_results));
            }
            if needs.flag_reply {
                after.push(Exclusive(apply::decide_flag_reply));
            }
            if needs.royal_loss {
                after.push(Part(apply::decide_royal_loss));
            }
            (vec![], after)
        }
        A::Describe if needs.extra_hash => (vec![], vec![Part(apply::record_move), Exclusive(apply::record_full_hash)]),
        A::Describe => (vec![], vec![Part(apply::record_move)]),
        _ => (vec![], vec![]),
    }
}

/// Adds the systems of a pipeline's steps in order — each step's defaults before its hooks,
/// its hooks in activation order, its defaults after them — giving every system its own
/// slot, chained, so the order inside a step is exactly the list order. Each run of parts that
/// no other system separates becomes one system (`fuse`), placed in the step of its first part,
/// as long as the conditions on that step's set also hold for the later parts' steps (`joins`):
/// a variant pays per node for one parameter fetch per run instead of one per default.
fn add_steps<S: SystemSet + Copy, P>(
    schedule: &mut Schedule,
    steps: impl IntoIterator<Item = (S, Step, Defaults<P>)>,
    hooks: &[Hook],
    joins: impl Fn(Step, Step) -> bool,
    fuse: impl Fn(Vec<P>) -> ScheduleConfigs<ScheduleSystem>,
) {
    let mut next: std::collections::HashMap<Step, u16> = std::collections::HashMap::new();
    let mut place = |schedule: &mut Schedule, set: S, step: Step, system: ScheduleConfigs<ScheduleSystem>| {
        let i = next.entry(step).or_insert(0);
        let slot = Slot(step, *i);
        if *i == 0 {
            schedule.configure_sets(slot.in_set(set));
        } else {
            schedule.configure_sets(slot.in_set(set).after(Slot(step, *i - 1)));
        }
        *i += 1;
        schedule.add_systems(system.in_set(slot));
    };
    let mut run: Vec<P> = Vec::new();
    let mut run_at: Option<(S, Step)> = None;
    for (set, step, (before, after)) in steps {
        let hook_systems = hooks.iter().filter(|h| h.step == step).map(|h| Entry::System(h.system()));
        for entry in before.into_iter().chain(hook_systems).chain(after) {
            match entry {
                Entry::Part(p) => {
                    // A fused system obeys the conditions of the set it is placed in: a part
                    // joins the run only where those conditions hold for its own step too.
                    if let Some((at_set, at_step)) = run_at
                        && !joins(at_step, step)
                    {
                        place(schedule, at_set, at_step, fuse(std::mem::take(&mut run)));
                        run_at = None;
                    }
                    run_at.get_or_insert((set, step));
                    run.push(p);
                }
                Entry::System(system) => {
                    if let Some((at_set, at_step)) = run_at.take() {
                        place(schedule, at_set, at_step, fuse(std::mem::take(&mut run)));
                    }
                    place(schedule, set, step, system);
                }
            }
        }
    }
    if let Some((at_set, at_step)) = run_at {
        place(schedule, at_set, at_step, fuse(run));
    }
}

/// One system running `parts` of the query in order.
fn fused_query(parts: Vec<QueryPart>) -> ScheduleConfigs<ScheduleSystem> {
    (move |mut p: QueryParts| {
        for part in &parts {
            part(&mut p);
        }
    })
    .into_configs()
}

/// One system running `parts` of move application in order, each behind its step's gates.
fn fused_apply(parts: Vec<StepPart>, trial_gated: bool) -> ScheduleConfigs<ScheduleSystem> {
    use ApplySystems as A;
    if trial_gated && parts.iter().any(|(s, _)| matches!(s, A::DurationTick | A::GameResult)) {
        return (move |mut p: ApplyParts, trial: Res<apply::Trial>| {
            for &(step, part) in &parts {
                if p.gate_open(step, trial.0) {
                    part(&mut p);
                }
            }
        })
        .into_configs();
    }
    (move |mut p: ApplyParts| {
        for &(step, part) in &parts {
            if p.gate_open(step, false) {
                part(&mut p);
            }
        }
    })
    .into_configs()
}

fn chain_sets<S: SystemSet + Copy>(schedule: &mut Schedule, sets: &[S]) {
    for pair in sets.windows(2) {
        schedule.configure_sets(pair[1].after(pair[0]));
    }
}

/// Builds the legal-move query schedule for `hooks` and the rules of `variant`.
pub fn build_query_schedule(hooks: &[Hook], variant: Option<&Variant>, layers: bool) -> Schedule {
    let needs = Needs { layers, ..Needs::of(variant, hooks) };
    let mut schedule = Schedule::new(LegalMoveQuery);
    schedule.set_executor(SingleThreadedExecutor::new());
    chain_sets(&mut schedule, &QuerySystems::ALL);
    let steps = QuerySystems::ALL.map(|step| (step, Step::Query(step), query_defaults(step, needs)));
    add_steps(&mut schedule, steps, hooks, |_, _| true, fused_query);
    schedule
}

/// Builds the move-application schedule for `hooks` and the rules of `variant`; `royalty`:
/// presets decide which pieces are royal.
pub fn build_apply_schedule(hooks: &[Hook], variant: Option<&Variant>, extra_hash: bool, royalty: bool) -> Schedule {
    let needs = Needs::of(variant, hooks);
    // A variant's own blasts end the game through its extinction rule, which names the variant's
    // royal types; where presets make other pieces royal (knightmate rules in Atomic), a blast
    // that takes the last of those is a royal piece lost in play.
    let royal_loss = needs.royal_loss || (royalty && needs.blast);
    let needs = Needs { extra_hash, royal_loss, ..needs };
    let mut schedule = Schedule::new(MoveApplication);
    schedule.set_executor(SingleThreadedExecutor::new());
    chain_sets(&mut schedule, &ApplySystems::ALL);
    // Only a before-move hook can cancel, and only hooks run at turn start: without them the
    // gates would cost a resource fetch per move for nothing (fused defaults check their own).
    if hooks.iter().any(|h| h.step == Step::Apply(ApplySystems::BeforeMove)) {
        schedule.configure_sets(Committed.run_if(apply::move_not_cancelled));
        for step in &ApplySystems::ALL[1..] {
            schedule.configure_sets(step.in_set(Committed));
        }
    }
    if hooks.iter().any(|h| h.step == Step::Apply(ApplySystems::TurnStart)) {
        schedule.configure_sets(ApplySystems::TurnStart.run_if(apply::turn_advanced));
    }
    // A trial application asks about the position only: no expiry, no game result. (Trials
    // happen only where hooks change what moves do; elsewhere the gate would only cost time.)
    let trial_gated = needs.applied_captures;
    if trial_gated {
        schedule.configure_sets(ApplySystems::DurationTick.run_if(apply::not_in_trial));
        schedule.configure_sets(ApplySystems::GameResult.run_if(apply::not_in_trial));
    }
    let steps = ApplySystems::ALL.map(|step| (step, Step::Apply(step), apply_defaults(step, needs)));
    // The conditions on each step's set: not cancelled after step 1, the turn flipped for turn
    // start, not in a trial for the duration and game-result steps where trials happen.
    let gates = move |step: Step| -> u8 {
        match step {
            Step::Apply(ApplySystems::BeforeMove) => 0,
            Step::Apply(ApplySystems::TurnStart) => 0b011,
            Step::Apply(ApplySystems::DurationTick | ApplySystems::GameResult) if trial_gated => 0b101,
            _ => 0b001,
        }
    };
    let joins = move |first: Step, next: Step| gates(first) & !gates(next) == 0;
    add_steps(&mut schedule, steps, hooks, joins, |parts| fused_apply(parts, trial_gated));
    schedule
}

/// Builds the spawn or retract pipeline for `hooks`, or `None` when no hook is in that step.
fn build_lifecycle_schedule(hooks: &[Hook], step: Step) -> Option<Schedule> {
    if !hooks.iter().any(|h| h.step == step) {
        return None;
    }
    let (mut schedule, set) = match step {
        Step::Spawn => (Schedule::new(SpawnPipeline), LifecycleSystems::OnSpawn),
        _ => (Schedule::new(RetractPipeline), LifecycleSystems::OnRetract),
    };
    schedule.set_executor(SingleThreadedExecutor::new());
    add_steps(&mut schedule, [(set, step, (vec![], vec![]))], hooks, |_, _| true, fused_query);
    Some(schedule)
}

fn damage_not_consumed(request: Res<DamageRequest>) -> bool {
    request.consumed_by.is_none()
}

/// Builds the damage pipeline for `hooks`, or `None` when no hook takes damage.
pub fn build_damage_schedule(hooks: &[Hook]) -> Option<Schedule> {
    if !hooks.iter().any(|h| h.step == Step::Damage) {
        return None;
    }
    let mut schedule = Schedule::new(DamagePipeline);
    schedule.set_executor(SingleThreadedExecutor::new());
    // First consumer wins: once a hook has consumed the damage, the rest are not consulted.
    let gated: Vec<Hook> = hooks
        .iter()
        .filter(|h| h.step == Step::Damage)
        .map(|h| {
            let make = h.make.clone();
            Hook { make: std::sync::Arc::new(move || make().run_if(damage_not_consumed)), ..h.clone() }
        })
        .collect();
    add_steps(&mut schedule, [(DamageSystems::OnDamage, Step::Damage, (vec![], vec![]))], &gated, |_, _| true, fused_query);
    Some(schedule)
}

/// (Re)builds both pipelines from the world's [`Hooks`] and [`Rules`] and stores them in its
/// schedules. Call it again whenever either changes.
pub fn rebuild_pipelines(world: &mut World) {
    let hooks = world.get_resource::<Hooks>().map(|h| h.0.clone()).unwrap_or_default();
    let variant = world.get_resource::<Rules>().map(|r| r.0.clone());
    let needs = Needs::of(variant.as_deref(), &hooks);
    world.insert_resource(apply::AppliedTrials { every_move: needs.applied_moves });
    let extra_hash = world.get_resource::<apply::HashExtras>().is_some_and(|x| !x.0.is_empty());
    let fns = world.get_resource::<super::layers::RuleFns>();
    let layers = fns.is_some_and(|f| !f.layers.is_empty());
    let royalty = fns.is_some_and(|f| !f.royalty.is_empty());
    let mut query = build_query_schedule(&hooks, variant.as_deref(), layers);
    let mut apply = build_apply_schedule(&hooks, variant.as_deref(), extra_hash, royalty);
    // Initialise now, so that a bad system configuration fails here and not mid-game.
    query.initialize(world).unwrap_or_else(|e| panic!("legal-move query does not build: {e:?}"));
    apply.initialize(world).unwrap_or_else(|e| panic!("move application does not build: {e:?}"));
    let mut optional = |schedule: Option<Schedule>, label: &dyn Fn() -> bevy::ecs::intern::Interned<dyn ScheduleLabel>| {
        let built = schedule.map(|mut s| {
            s.initialize(world).unwrap_or_else(|e| panic!("{:?} does not build: {e:?}", label()));
            s
        });
        let mut schedules = world.get_resource_or_init::<Schedules>();
        match built {
            Some(s) => {
                schedules.insert(s);
            }
            None => {
                schedules.remove(label());
            }
        }
    };
    optional(build_damage_schedule(&hooks), &|| DamagePipeline.intern());
    optional(build_lifecycle_schedule(&hooks, Step::Spawn), &|| SpawnPipeline.intern());
    optional(build_lifecycle_schedule(&hooks, Step::Retract), &|| RetractPipeline.intern());
    world.get_resource_or_init::<Pipelines>().install(query, apply);
}
