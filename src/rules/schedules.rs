//! The built schedules of the two pipelines and running them: a leaf that move application,
//! the query and the services call, apart from the builder (`pipeline.rs`) that depends on them.

use bevy::prelude::*;

/// One of the two pipelines.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pipeline {
    /// The legal-move query ([`LegalMoveQuery`](super::LegalMoveQuery)).
    Query,
    /// Move application ([`MoveApplication`](super::MoveApplication)).
    Apply,
}

/// The built schedules of the two pipelines. They are kept here rather than in Bevy's
/// `Schedules`, which a search or perft would pay for at every node (interning the label,
/// taking the schedule out of a map and putting it back); [`run_pipeline`] runs them.
#[derive(Resource, Default)]
pub struct Pipelines {
    query: Option<Box<Schedule>>,
    apply: Option<Box<Schedule>>,
    generation: u64,
}

impl Pipelines {
    /// Puts newly built schedules in place (the builder, `pipeline.rs`, calls it).
    pub fn install(&mut self, query: Schedule, apply: Schedule) {
        self.query = Some(Box::new(query));
        self.apply = Some(Box::new(apply));
        self.generation += 1;
    }

    /// How many times schedules were put in place: it changes whenever the rules' hooks or
    /// layers may have.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    fn slot(&mut self, which: Pipeline) -> &mut Option<Box<Schedule>> {
        match which {
            Pipeline::Query => &mut self.query,
            Pipeline::Apply => &mut self.apply,
        }
    }
}

/// Runs one of the two pipelines on `world`. Returns false, running nothing, when the rules are
/// not installed or that pipeline is already running (a legal-move query asked from inside
/// the query, a trial application from inside a move). A pipeline rebuilt while it ran is
/// kept; the schedule that ran is dropped.
pub fn run_pipeline(world: &mut World, which: Pipeline) -> bool {
    let Some(mut schedule) = world.get_resource_mut::<Pipelines>().and_then(|mut p| p.slot(which).take()) else { return false };
    schedule.run(world);
    let mut pipelines = world.resource_mut::<Pipelines>();
    let slot = pipelines.slot(which);
    if slot.is_none() {
        *slot = Some(schedule);
    }
    true
}
