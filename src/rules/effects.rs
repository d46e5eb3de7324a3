//! Effects: what the rules did that a player should see (an explosion, damage, a heal, a
//! piece appearing), written as Bevy [`Message`]s for the presentation layer to animate.
//!
//! Effects are only written when a world has subscribed by adding the [`Messages<Effect>`]
//! resource (the game does, with `add_message`); without it emitting is a no-op, so search
//! and perft never pay for them. Effects never change the rules.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::geometry::{Side, Square};

/// What happened, for the animation to pick.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EffectKind {
    /// A blast centred on the square (Atomic, exploding rooks).
    Explosion,
    /// A piece took `amount` damage and survived.
    Damage,
    /// A piece took `amount` damage and died.
    Death,
    /// A piece regained `amount` points.
    Heal,
    /// A piece appeared.
    Spawn,
    /// A piece split into others (the square is where it stood).
    Fission,
    /// Poison hurt a piece.
    Poison,
    /// A shield broke.
    ShieldBroken,
    /// A piece is too tired to move.
    Tired,
    /// Anything else a preset names.
    Other(&'static str),
}

/// One visual effect.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Effect {
    /// What happened.
    pub kind: EffectKind,
    /// Where.
    pub square: Square,
    /// How long the animation should last, in seconds.
    pub ttl: f32,
    /// A number to show (damage, healing), or 0.
    pub amount: i32,
    /// The side of the piece concerned, if any.
    pub side: Option<Side>,
    /// Who emitted it: a preset id or `rules`.
    pub source: &'static str,
}

impl Effect {
    /// An effect of `kind` on `square` from `source`, with its default duration.
    pub fn new(kind: EffectKind, square: Square, source: &'static str) -> Effect {
        let ttl = match kind {
            EffectKind::Explosion | EffectKind::Fission => 0.9,
            EffectKind::Damage | EffectKind::Death | EffectKind::Heal | EffectKind::Poison => 1.0,
            _ => 0.6,
        };
        Effect { kind, square, ttl, amount: 0, side: None, source }
    }

    /// The same with a number to show.
    pub fn amount(mut self, amount: i32) -> Effect {
        self.amount = amount;
        self
    }

    /// The same with the side concerned.
    pub fn side(mut self, side: Side) -> Effect {
        self.side = Some(side);
        self
    }
}

/// Emits effects from a system; a no-op when nobody subscribed.
#[derive(SystemParam)]
pub struct Effects<'w> {
    messages: Option<ResMut<'w, Messages<Effect>>>,
}

impl Effects<'_> {
    /// Writes `effect` if anybody subscribed.
    pub fn emit(&mut self, effect: Effect) {
        if let Some(m) = self.messages.as_mut() {
            m.write(effect);
        }
    }
}

/// Emits an effect from exclusive code (services, exclusive hooks); a no-op when nobody
/// subscribed.
pub fn emit_effect(world: &mut World, effect: Effect) {
    if let Some(mut m) = world.get_resource_mut::<Messages<Effect>>() {
        m.write(effect);
    }
}

/// Subscribes `world` to effects (adds the message store). The game adds it through
/// `App::add_message`, which also clears old messages every frame; headless callers read
/// them with [`take_effects`].
pub fn subscribe_effects(world: &mut World) {
    world.init_resource::<Messages<Effect>>();
}

/// Takes every effect written since the last call (headless subscribers).
pub fn take_effects(world: &mut World) -> Vec<Effect> {
    world.get_resource_mut::<Messages<Effect>>().map(|mut m| m.drain().collect()).unwrap_or_default()
}
