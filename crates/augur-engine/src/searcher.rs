//! Searchers: which state runs next. States live in the executor; searchers hold
//! (id, epoch) tickets and the executor skips tickets whose state has moved on, so
//! several searchers can be interleaved without removal bookkeeping.

use crate::options::SearchKind;
use crate::state::StateId;
use augur_expr::Rng;
use augur_ir::{FuncId, Program};
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

/// A state's entry in a searcher: valid while the state's epoch is unchanged.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ticket {
    /// The state.
    pub id: StateId,
    /// The state's epoch when the ticket was issued.
    pub epoch: u64,
}

/// What a searcher may know about a state when it is added.
#[derive(Clone, Debug, Default)]
pub struct StateInfo {
    /// Forks on its path.
    pub depth: u32,
    /// Coverage generation of its last new coverage.
    pub cov_gen: u64,
    /// Its call stack, outermost first: each frame's function and next instruction (empty
    /// unless a searcher reads it, see [`Interleaved::reads_frames`]).
    pub frames: Vec<(FuncId, u32)>,
    /// Its [`crate::directed::SearchPenalty`] (0 when none was set).
    pub penalty: u32,
}

/// A state-selection strategy.
pub trait Searcher {
    /// A state became runnable.
    fn add(&mut self, t: Ticket, info: &StateInfo);
    /// Propose a ticket (removed from the searcher); None when empty.
    fn next(&mut self, rng: &mut Rng) -> Option<Ticket>;
}

/// Depth-first: the newest state.
#[derive(Default)]
pub struct Dfs(Vec<Ticket>);

impl Searcher for Dfs {
    fn add(&mut self, t: Ticket, _: &StateInfo) {
        self.0.push(t)
    }
    fn next(&mut self, _: &mut Rng) -> Option<Ticket> {
        self.0.pop()
    }
}

/// Breadth-first: the oldest state.
#[derive(Default)]
pub struct Bfs(VecDeque<Ticket>);

impl Searcher for Bfs {
    fn add(&mut self, t: Ticket, _: &StateInfo) {
        self.0.push_back(t)
    }
    fn next(&mut self, _: &mut Rng) -> Option<Ticket> {
        self.0.pop_front()
    }
}

/// States in buckets keyed by a score; picks a random state of a chosen bucket.
#[derive(Default)]
pub(crate) struct Buckets(BTreeMap<u64, Vec<Ticket>>);

impl Buckets {
    /// The lowest key holding a state.
    pub(crate) fn lowest(&self) -> Option<u64> {
        self.0.keys().next().copied()
    }
    pub(crate) fn add(&mut self, key: u64, t: Ticket) {
        self.0.entry(key).or_default().push(t);
    }
    pub(crate) fn take(&mut self, key: u64, rng: &mut Rng) -> Option<Ticket> {
        let v = self.0.get_mut(&key)?;
        let i = rng.below(v.len() as u64) as usize;
        let t = v.swap_remove(i);
        if v.is_empty() {
            self.0.remove(&key);
        }
        Some(t)
    }
}

/// Random path: like walking KLEE's fork tree from the root choosing children at random,
/// a state at fork depth d is chosen with probability proportional to 2^-d.
#[derive(Default)]
pub struct RandomPath(Buckets);

impl Searcher for RandomPath {
    fn add(&mut self, t: Ticket, info: &StateInfo) {
        self.0.add(info.depth as u64, t)
    }
    fn next(&mut self, rng: &mut Rng) -> Option<Ticket> {
        let min = *self.0 .0.keys().next()?;
        // Weight of bucket d relative to the shallowest: count * 2^-(d-min).
        let weights: Vec<(u64, f64)> = self
            .0
             .0
            .iter()
            .map(|(&d, v)| (d, v.len() as f64 * 0.5f64.powi((d - min).min(1000) as i32)))
            .collect();
        let total: f64 = weights.iter().map(|w| w.1).sum();
        let mut x = rng.unit() * total;
        let mut chosen = weights[0].0;
        for (d, w) in weights {
            chosen = d;
            if x < w {
                break;
            }
            x -= w;
        }
        self.0.take(chosen, rng)
    }
}

/// Coverage-new: a random state among those that covered new code most recently.
#[derive(Default)]
pub struct CovNew(Buckets);

impl Searcher for CovNew {
    fn add(&mut self, t: Ticket, info: &StateInfo) {
        self.0.add(info.cov_gen, t)
    }
    fn next(&mut self, rng: &mut Rng) -> Option<Ticket> {
        let newest = *self.0 .0.keys().next_back()?;
        self.0.take(newest, rng)
    }
}

/// Several searchers taking turns.
pub struct Interleaved {
    parts: Vec<Box<dyn Searcher>>,
    turn: usize,
    /// Whether a part reads states' call stacks (only the directed searcher does).
    pub reads_frames: bool,
}

impl Interleaved {
    /// Build the searchers named by `kinds` (at least one) for `prog`.
    pub fn new(kinds: &[SearchKind], prog: &Rc<Program>) -> Self {
        let parts = kinds
            .iter()
            .map(|k| -> Box<dyn Searcher> {
                match k {
                    SearchKind::Directed(goals) => {
                        Box::new(crate::directed::Directed::new(prog.clone(), goals))
                    }
                    SearchKind::Dfs => Box::<Dfs>::default(),
                    SearchKind::Bfs => Box::<Bfs>::default(),
                    SearchKind::RandomPath => Box::<RandomPath>::default(),
                    SearchKind::CovNew => Box::<CovNew>::default(),
                }
            })
            .collect::<Vec<_>>();
        assert!(!parts.is_empty(), "at least one searcher");
        let reads_frames = kinds.iter().any(|k| matches!(k, SearchKind::Directed(_)));
        Interleaved {
            parts,
            turn: 0,
            reads_frames,
        }
    }
}

impl Searcher for Interleaved {
    fn add(&mut self, t: Ticket, info: &StateInfo) {
        for p in &mut self.parts {
            p.add(t, info);
        }
    }
    fn next(&mut self, rng: &mut Rng) -> Option<Ticket> {
        self.turn = (self.turn + 1) % self.parts.len();
        self.parts[self.turn].next(rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(depth: u32, cov_gen: u64) -> StateInfo {
        StateInfo {
            depth,
            cov_gen,
            ..StateInfo::default()
        }
    }

    #[test]
    fn dfs_and_bfs_orders() {
        let mut rng = Rng::new(1);
        let mut d = Dfs::default();
        let mut b = Bfs::default();
        for id in 0..3 {
            d.add(Ticket { id, epoch: 0 }, &info(0, 0));
            b.add(Ticket { id, epoch: 0 }, &info(0, 0));
        }
        assert_eq!(d.next(&mut rng).unwrap().id, 2);
        assert_eq!(b.next(&mut rng).unwrap().id, 0);
    }

    #[test]
    fn random_path_prefers_shallow_states() {
        let mut rng = Rng::new(7);
        let mut shallow = 0;
        for _ in 0..200 {
            let mut r = RandomPath::default();
            r.add(Ticket { id: 1, epoch: 0 }, &info(1, 0));
            r.add(Ticket { id: 2, epoch: 0 }, &info(8, 0));
            if r.next(&mut rng).unwrap().id == 1 {
                shallow += 1;
            }
        }
        assert!(shallow > 180, "{shallow}");
    }

    #[test]
    fn covnew_prefers_recent_coverage() {
        let mut rng = Rng::new(3);
        let mut c = CovNew::default();
        c.add(Ticket { id: 1, epoch: 0 }, &info(0, 5));
        c.add(Ticket { id: 2, epoch: 0 }, &info(0, 9));
        assert_eq!(c.next(&mut rng).unwrap().id, 2);
        assert_eq!(c.next(&mut rng).unwrap().id, 1);
        assert!(c.next(&mut rng).is_none());
    }
}
