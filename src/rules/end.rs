//! How a game ends: every end condition of a variant judged by one function, called at the
//! three moments a game can be decided.
//!
//! - **After a move** ([`Moment::Moved`], move application's game-result step): the conditions
//!   that end a game at once — a goal reached or held, a king bared, the n-th check, the last
//!   piece of a kind gone, bikjang, two passes — and, where royal pieces can leave the board in
//!   play, the loss of the last one ([`royal_loss`]).
//! - **At set-up** ([`Moment::SetUp`], a position read from a FEN or a start, or changed by
//!   presets as they start): only what the position itself shows — a third check given, a side
//!   without pieces, a goal held safely or through the other side's move. A goal reached and
//!   a bare king are left to play: a position loaded with a king already there is a question,
//!   not a result.
//! - **When asked** ([`Moment::Asked`], [`outcome`]): the position as it stands, with the
//!   side to move's legal moves known — mate and stalemate in their forms, the move rule,
//!   repetition (perpetual check included), material; a claim is such a question.
//!
//! [`judge`] dispatches each [`EndCondition`] to its one function; [`decided`] asks every
//! condition of a variant in its order, the first decision standing. Racing Kings' reply
//! rule needs black's legal moves after white's move, so [`reply_denied`] judges that part
//! from the query the caller ran. The results are written by the callers: move application
//! into [`DecidedOutcome`](super::DecidedOutcome), set-up likewise, and
//! [`RulesWorld::outcome`](super::RulesWorld::outcome) returns what [`outcome`] says.
//!
//! **How to add an end condition**: a variant of [`EndCondition`], one function here that
//! judges it from an [`EndView`] at the moments it applies (returning `None` at the others),
//! an arm in [`judge`], and [`EndCondition::is_immediate`] if it ends a game right after a
//! move.

use super::board::Board;
use super::geometry::{Side, Square, SquareSet};
use super::layers::{Attacks, RuleFns};
use super::material::{MaterialRule, dead_position};
use super::outcome::{Outcome, Reason, has_insufficient_material, perpetual_checker, repetition_span, scored};
use super::piece::{Cell, PieceType};
use super::state::GameState;
use super::variant::{EndCondition, Variant, Verdict};

/// A position as the end rules see it.
#[derive(Clone, Copy)]
pub struct EndView<'a> {
    /// The variant.
    pub variant: &'a Variant,
    /// Movement layers and royalty rules.
    pub fns: &'a RuleFns,
    /// The pieces.
    pub board: &'a Board,
    /// Game-level facts.
    pub state: &'a GameState,
}

/// What the side to move can do, known when the game is asked how it stands.
#[derive(Clone, Copy)]
pub struct Replies<'a> {
    /// The side to move has no legal move.
    pub none: bool,
    /// A royal piece of the side to move is attacked.
    pub in_check: bool,
    /// The royal pieces of the side to move.
    pub royals: &'a [Square],
    /// The position hashes of the game so far, this one last.
    pub history: &'a [u64],
}

/// When an end condition is judged.
#[derive(Clone, Copy)]
pub enum Moment<'a> {
    /// Right after this side's move (or half-move, where a side moves twice).
    Moved(Side),
    /// A position just set up.
    SetUp,
    /// The position as it stands, with the side to move's replies.
    Asked(Replies<'a>),
}

/// Judges one end condition at `moment`: the outcome it decides, if any.
pub fn judge(condition: &EndCondition, at: &EndView, moment: Moment) -> Option<Outcome> {
    use EndCondition as E;
    match condition {
        E::Checkmate | E::Checkmated(_) | E::ShatarMate { .. } => mate(condition, at, moment),
        E::Stalemate(_) | E::StalemateByCount => stalemate(condition, at, moment),
        E::MoveRule(n) => move_rule(*n, at, moment),
        E::Repetition(_) | E::RepetitionScored { .. } => repetition(condition, at, moment),
        E::InsufficientMaterial => insufficient_material(at, moment),
        E::InsufficientMaterialAs(rule) => lichess_material(*rule, at, moment),
        E::NCheck(n) => n_check(*n, at, moment),
        E::Extinction { .. } => extinction(condition, at, moment),
        E::RegionReached { .. } => region_reached(condition, at, moment),
        E::RegionHeld { types, regions } => region_held(*types, regions, at, moment),
        E::BareKing(verdict) => bare_king(*verdict, at, moment),
        E::Bikjang => counted_end(at.state.facing_streak, "bikjang", at, moment),
        E::DoublePass => counted_end(at.state.pass_streak, "both sides passed", at, moment),
    }
}

/// The first of the variant's end conditions, in its order, that decides the game at `moment`.
pub fn decided(at: &EndView, moment: Moment) -> Option<Outcome> {
    at.variant.end.iter().find_map(|condition| judge(condition, at, moment))
}

/// How the game stands when asked, before draw odds: the first end condition that decides it,
/// or a draw when the side to move has no move and no condition says otherwise (the game
/// cannot go on).
pub fn outcome(at: &EndView, replies: Replies) -> Option<Outcome> {
    decided(at, Moment::Asked(replies)).or_else(|| replies.none.then(|| Outcome::draw(Reason::Rule("no legal moves".into()))))
}

/// The sides an immediate condition is judged for, in order: after a move its victim first,
/// then the mover; otherwise the side to move first.
fn sides(at: &EndView, moment: Moment) -> [Side; 2] {
    match moment {
        Moment::Moved(mover) => [mover.opponent(), mover],
        _ => [at.state.turn, at.state.turn.opponent()],
    }
}

/// The side to move's replies when asked, unless a game-result hook switched the default end
/// rules (mate, stalemate) off for this position.
fn replies_for_default<'a>(at: &EndView, moment: Moment<'a>) -> Option<Replies<'a>> {
    match moment {
        Moment::Asked(r) if !at.state.default_end_suppressed => Some(r),
        _ => None,
    }
}

/// No legal move while in check: checkmate (the mated side loses), or the variant's verdict
/// for the mated side, or Shatar's mate (a win only after a shak in the mating side's series
/// of checks, a draw otherwise, a loss when knights alone gave it).
fn mate(condition: &EndCondition, at: &EndView, moment: Moment) -> Option<Outcome> {
    let r = replies_for_default(at, moment)?;
    if !(r.none && r.in_check) {
        return None;
    }
    let turn = at.state.turn;
    let mater = turn.opponent();
    // A mate by a drop that may not mate (Shogi's uchifuzume) is played, and loses for the
    // dropper (as Fairy-Stockfish and tournament shogi score an illegal move).
    if at.state.foul_drop {
        return Some(Outcome::win(turn, Reason::Rule(FOUL_DROP.into())));
    }
    Some(match condition {
        EndCondition::Checkmated(v) => scored(*v, turn, Reason::Checkmate),
        EndCondition::ShatarMate { knights, .. } => {
            let checkers = checker_types(at.variant, &at.board.cells, r.royals, mater);
            if checkers != 0 && checkers & !knights == 0 {
                Outcome::win(turn, Reason::Rule("mate by knights alone".into()))
            } else if at.state.shak_series[mater.index()] {
                Outcome::win(mater, Reason::Checkmate)
            } else {
                Outcome::draw(Reason::Rule("mate without a shak (niol)".into()))
            }
        }
        _ => Outcome::win(mater, Reason::Checkmate),
    })
}

/// The reason of a mate by a drop that may not mate: the mated side wins.
pub const FOUL_DROP: &str = "a foul: a drop that mated (uchifuzume)";

/// No legal move while not in check: the variant's verdict for the side to move, or (by count)
/// a win for the side with fewer pieces on the board, a draw on equal numbers.
fn stalemate(condition: &EndCondition, at: &EndView, moment: Moment) -> Option<Outcome> {
    let r = replies_for_default(at, moment)?;
    if !r.none || r.in_check {
        return None;
    }
    let turn = at.state.turn;
    Some(match condition {
        EndCondition::Stalemate(v) => scored(*v, turn, Reason::Stalemate),
        _ => {
            let count = |s: Side| at.board.cells.iter().filter(|c| c.is_piece() && c.side() == s).count();
            match count(turn).cmp(&count(turn.opponent())) {
                std::cmp::Ordering::Less => Outcome::win(turn, Reason::Stalemate),
                std::cmp::Ordering::Greater => Outcome::win(turn.opponent(), Reason::Stalemate),
                std::cmp::Ordering::Equal => Outcome::draw(Reason::Stalemate),
            }
        }
    })
}

/// `n` half-moves without a capture or a pawn move: a draw.
fn move_rule(n: u32, at: &EndView, moment: Moment) -> Option<Outcome> {
    let Moment::Asked(_) = moment else { return None };
    (at.state.halfmove_clock >= n).then(|| Outcome::draw(Reason::FiftyMoves))
}

/// The same position the given number of times: a draw, or the variant's verdict for the side
/// to move (or for white); where perpetual check loses, a repetition a side reached by checking
/// with every move is lost by that side. Where the variant counts material (Janggi), a drawn
/// repetition is scored by the count.
fn repetition(condition: &EndCondition, at: &EndView, moment: Moment) -> Option<Outcome> {
    let Moment::Asked(r) = moment else { return None };
    let state = at.state;
    let count = match condition {
        EndCondition::Repetition(n) => usize::from(*n),
        EndCondition::RepetitionScored { count, .. } => usize::from(*count),
        _ => return None,
    };
    let span = repetition_span(r.history, state.halfmove_clock, count)?;
    let perpetual = at.variant.switches.perpetual_check_loses.then(|| perpetual_checker(state.check_streak, state.turn, span)).flatten();
    let outcome = match (perpetual, condition) {
        (Some(Some(side)), _) => Outcome::win(side, Reason::Rule("perpetual check".into())),
        (Some(None), _) => Outcome::draw(Reason::Rule("perpetual check".into())),
        (None, EndCondition::RepetitionScored { verdict, for_white, .. }) => {
            scored(*verdict, if *for_white { Side::White } else { state.turn }, Reason::Repetition)
        }
        (None, _) => Outcome::draw(Reason::Repetition),
    };
    // Where the variant counts material (Janggi), a drawn repetition is scored by it, as
    // Fairy-Stockfish scores every draw there (`materialCounting`).
    Some(match outcome.winner {
        None => material_outcome(at, "repetition").unwrap_or(outcome),
        Some(_) => outcome,
    })
}

/// Neither side can mate: a draw. With drops (lichess' rule), bare kings with empty hands are
/// dead; otherwise neither side may have the material to win (Fairy-Stockfish's rule, which
/// knows about hills, hands and other ways to win).
fn insufficient_material(at: &EndView, moment: Moment) -> Option<Outcome> {
    let Moment::Asked(_) = moment else { return None };
    let (variant, board) = (at.variant, at.board);
    let dead = if variant.drops.is_some() {
        board.hand.iter().all(Vec::is_empty)
            && board.cells.iter().all(|c| !c.is_piece() || variant.registry.royal_mask & (1u64 << c.kind().0) != 0)
    } else {
        Side::BOTH.iter().all(|&s| has_insufficient_material(variant, board, s))
    };
    dead.then(|| Outcome::draw(Reason::InsufficientMaterial))
}

/// Neither side can win by the variant's lichess rule (`material`): a draw.
fn lichess_material(rule: MaterialRule, at: &EndView, moment: Moment) -> Option<Outcome> {
    let Moment::Asked(_) = moment else { return None };
    dead_position(rule, at.board, &at.variant.registry, at.state.turn).then(|| Outcome::draw(Reason::InsufficientMaterial))
}

/// The side that has given `n` checks wins (after a move, only the mover can have).
fn n_check(n: u8, at: &EndView, moment: Moment) -> Option<Outcome> {
    let gave = |s: &Side| at.state.checks[s.index()] >= n;
    let winner = match moment {
        Moment::Moved(mover) => Some(mover).filter(gave),
        _ => Side::BOTH.into_iter().find(gave),
    };
    winner.map(|s| Outcome::win(s, Reason::Rule(format!("{n} checks"))))
}

/// A side with fewer than the given number of pieces of the types (each type on its own, or
/// all together), on the board and in hand as Fairy-Stockfish counts them, gets the verdict.
/// Pseudo-royal pieces are not taken (the last ones are royal): their side loses by checkmate,
/// and a type that is gone (promoted away, or never there) ends nothing, as Fairy-Stockfish
/// judges it, unless a blast can take them.
fn extinction(condition: &EndCondition, at: &EndView, moment: Moment) -> Option<Outcome> {
    let EndCondition::Extinction { types, per_type, fewer_than, verdict, pseudo_royal } = condition else { return None };
    let (variant, board) = (at.variant, at.board);
    if *pseudo_royal && variant.blast.is_none() {
        return None;
    }
    let all = if *types == 0 { u64::MAX } else { *types };
    let n = usize::from(*fewer_than);
    sides(at, moment).into_iter().find_map(|side| {
        let in_hand =
            |mask: u64| (0..64).filter(|t| mask & (1u64 << t) != 0).map(|t| usize::from(board.hand_counts[side.index()][t])).sum::<usize>();
        let short = |mask: &u64| board.find(side, *mask).take(n).count() + in_hand(*mask) < n;
        let gone = if *per_type { (0..64).map(|t| 1u64 << t).filter(|m| all & m != 0).find(short) } else { Some(all).filter(short) };
        gone.map(|mask| scored(*verdict, side, Reason::Rule(extinction_reason(variant, mask, *types == 0))))
    })
}

/// Words for a side losing its last pieces of `mask`: "no pieces left", "king exploded",
/// "king captured", "no knights left".
fn extinction_reason(variant: &Variant, mask: u64, any: bool) -> String {
    if any {
        return "no pieces left".into();
    }
    let reg = &variant.registry;
    let kinds: Vec<PieceType> = reg.ids().filter(|k| mask & (1u64 << k.0) != 0).collect();
    match kinds.as_slice() {
        [one] if reg.def(*one).royal => {
            let name = &reg.def(*one).name;
            if variant.blast.is_some() { format!("{name} exploded") } else { format!("{name} captured") }
        }
        [one] => format!("no {}s left", reg.def(*one).name),
        _ => format!("no {} left", kinds.iter().map(|k| reg.def(*k).name.as_str()).collect::<Vec<_>>().join(" or ")),
    }
}

/// A piece of the types on its side's region (as many as the count asks) wins at once; both
/// sides there: a draw. With the reply rule, white getting there first lets black reply
/// (judged by [`reply_denied`] once black's moves are known). Safe goals (Dobutsu's try) count
/// only where the opponent does not attack the piece: the mover's at once, the other side's
/// when the mover leaves it alone — which a position just set up shows too.
fn region_reached(condition: &EndCondition, at: &EndView, moment: Moment) -> Option<Outcome> {
    let EndCondition::RegionReached { types, regions, reply, safe, count } = condition else { return None };
    if *safe {
        let first = match moment {
            Moment::Moved(mover) => mover,
            Moment::SetUp => at.state.turn.opponent(),
            Moment::Asked(_) => return None,
        };
        return safe_goal(at, *types, regions, first);
    }
    let Moment::Moved(mover) = moment else { return None };
    let inside = |side: Side| {
        let region = &regions[side.index()];
        at.board.find(side, *types).filter(|&sq| region.contains(sq)).take(usize::from(*count)).count() >= usize::from(*count)
    };
    let reason = || Reason::Rule("reached the goal".into());
    match (inside(Side::White), inside(Side::Black)) {
        (true, true) => Some(Outcome::draw(reason())),
        (false, false) => None,
        (true, false) if *reply && mover == Side::White => None,
        (true, false) => Some(Outcome::win(Side::White, reason())),
        (false, true) => Some(Outcome::win(Side::Black, reason())),
    }
}

/// The win of the first of `first` and its opponent with a piece of `types` on its goal that
/// the other side does not attack.
fn safe_goal(at: &EndView, types: u64, regions: &[SquareSet; 2], first: Side) -> Option<Outcome> {
    let attacks = Attacks { variant: at.variant, fns: at.fns, state: at.state };
    [first, first.opponent()].into_iter().find_map(|side| {
        at.board
            .find(side, types)
            .any(|sq| regions[side.index()].contains(sq) && !attacks.attacked(at.board, sq, side.opponent()))
            .then(|| Outcome::win(side, Reason::Rule("reached the goal safely".into())))
    })
}

/// Racing Kings' reply rule, judged after white's move once black's legal moves are known
/// (and only where [`reply_pending`]): white, on the goal, wins now if no black move brings a
/// piece of the types there. `cells` is the board the moves were generated on.
pub fn reply_denied(variant: &Variant, cells: &[Cell], black_moves: &[super::moves::Move]) -> Option<Outcome> {
    let (types, regions) = reply_goal(variant)?;
    let reaches = |m: &super::moves::Move| types & (1u64 << cells[m.from.index()].kind().0) != 0 && regions[1].contains(m.to);
    (!black_moves.iter().any(reaches)).then(|| Outcome::win(Side::White, Reason::Rule("reached the goal".into())))
}

/// Whether Racing Kings' reply rule may end the game after this move: white moved and has a
/// piece of the types on its goal (black's moves then decide, see [`reply_denied`]).
pub fn reply_pending(variant: &Variant, board: &Board, mover: Side) -> bool {
    reply_goal(variant)
        .is_some_and(|(types, regions)| mover == Side::White && board.find(Side::White, types).any(|sq| regions[0].contains(sq)))
}

/// The types and regions of a goal with the reply rule.
fn reply_goal(variant: &Variant) -> Option<(u64, [SquareSet; 2])> {
    variant.end.iter().find_map(|e| match e {
        EndCondition::RegionReached { types, regions, reply: true, .. } => Some((*types, *regions)),
        _ => None,
    })
}

/// A side that starts its turn with a piece of the types on its region wins: the piece got
/// there and survived the opponent's reply (Jeson Mor). After a move it is the mover's
/// opponent; in a position set up at the start of a turn, the side to move (mid-turn the game
/// went on, so nothing was decided).
fn region_held(types: u64, regions: &[SquareSet; 2], at: &EndView, moment: Moment) -> Option<Outcome> {
    let side = match moment {
        Moment::Moved(mover) => mover.opponent(),
        Moment::SetUp if at.state.half_moves_this_turn == 0 => at.state.turn,
        _ => return None,
    };
    at.board
        .find(side, types)
        .any(|sq| regions[side.index()].contains(sq))
        .then(|| Outcome::win(side, Reason::Rule("held the goal".into())))
}

/// The mover's opponent bared (royal pieces only left) while the mover is not: the verdict
/// for the bared side. (A draw would need the reply, which the bared side gets when it can
/// bare back at once.)
fn bare_king(verdict: Verdict, at: &EndView, moment: Moment) -> Option<Outcome> {
    let Moment::Moved(mover) = moment else { return None };
    let bare = |side: Side| at.board.find(side, !at.variant.registry.royal_mask).next().is_none();
    let victim = mover.opponent();
    (bare(victim) && !bare(mover)).then(|| scored(verdict, victim, Reason::Rule("bare king".into())))
}

/// A game ended by two moves in a row of a kind (`streak`: bikjang's facing kings, two passes),
/// judged after a move: the side with more points by the variant's material count wins;
/// without a count, or on equal points, a draw.
fn counted_end(streak: u8, why: &str, at: &EndView, moment: Moment) -> Option<Outcome> {
    let Moment::Moved(_) = moment else { return None };
    if streak < 2 {
        return None;
    }
    Some(material_outcome(at, why).unwrap_or_else(|| Outcome::draw(Reason::Rule(why.into()))))
}

/// The game ended by `why`, scored by the variant's material count: the side with more points
/// wins, equal points draw. `None` when the variant has no count.
fn material_outcome(at: &EndView, why: &str) -> Option<Outcome> {
    let count = at.variant.material_count.as_ref()?;
    let board = at.board;
    let total = |side: Side| -> f64 { count.points.iter().map(|&(t, p)| p * board.find(side, 1u64 << t.0).count() as f64).sum() };
    let (white, black) = (total(Side::White), total(Side::Black) + count.black_bonus);
    let reason = Reason::Rule(format!("{why}, {white} to {black} points"));
    Some(match white.partial_cmp(&black) {
        Some(std::cmp::Ordering::Greater) => Outcome::win(Side::White, reason),
        Some(std::cmp::Ordering::Less) => Outcome::win(Side::Black, reason),
        _ => Outcome::draw(reason),
    })
}

/// Where royal pieces can leave the board in play (hit points, blasts, a side that moves
/// again), the end of a game a side lost by losing its last royal piece: `lost` per side, both
/// a draw. Judged after a move from the royal pieces before it, and at set-up from the royal
/// types the variant's start gives.
pub fn royal_loss(variant: &Variant, lost: [bool; 2]) -> Option<Outcome> {
    let reason = || Reason::Rule(royal_loss_words(variant));
    match lost {
        [true, true] => Some(Outcome::draw(reason())),
        [true, false] => Some(Outcome::win(Side::Black, reason())),
        [false, true] => Some(Outcome::win(Side::White, reason())),
        [false, false] => None,
    }
}

/// Words for a side losing its last royal piece in play: "king killed" and the like.
fn royal_loss_words(variant: &Variant) -> String {
    let reg = &variant.registry;
    match reg.ids().find(|&k| reg.def(k).royal) {
        Some(k) => format!("{} killed", reg.def(k).name),
        None => "last royal piece lost".into(),
    }
}

/// The types of `by`'s pieces that attack one of `royals` on `cells` (Shatar's shak, and the
/// knights that may not mate alone).
pub fn checker_types(variant: &Variant, cells: &[Cell], royals: &[Square], by: Side) -> u64 {
    let reg = &variant.registry;
    let mut types = 0;
    for (i, c) in cells.iter().enumerate() {
        if c.is_piece() && c.side() == by && royals.iter().any(|&r| reg.piece_attacks(cells, c.kind(), by, Square(i as u8), r)) {
            types |= 1u64 << c.kind().0;
        }
    }
    types
}
