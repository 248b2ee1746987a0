//! The directed searcher: prefers states closest to a chain of goals over the
//! interprocedural control-flow graph (BugRedux, SymCrash's ReExecution). A goal is a
//! source line, optionally inside a named function; a chain lists the frames of a crash's
//! stack from the outermost (`main`'s call site) to the crash site. A state has passed
//! goal k when its k-th frame (from the outermost) is stopped at that goal's line with a
//! deeper frame running; it is ranked by the first goal it has not passed (deeper goals
//! first), then by its distance to that goal, then by its [`SearchPenalty`].
//!
//! Distances count basic blocks; entering a callee costs one plus the callee's distance
//! from its entry, leaving the current function costs [`RETURN_COST`] and continues in
//! the caller after its call.

use crate::searcher::{Buckets, Searcher, StateInfo, Ticket};
use augur_expr::Rng;
use augur_ir::{block_containing, successors};
use augur_ir::{BlockId, Callee, FuncId, Inst, Program};
use std::rc::Rc;

/// One goal: a line of a file, optionally only inside one function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Goal {
    /// The file, as the program names it or a path ending with it (`prog.c`, `src/a.c`).
    pub file: String,
    /// The 1-based line.
    pub line: u32,
    /// The function the line must be in (None: any).
    pub function: Option<String>,
}

impl Goal {
    /// Parse `FILE:LINE` (as `--search directed:FILE:LINE` gives it).
    pub fn parse(s: &str) -> Option<Goal> {
        let (file, line) = s.rsplit_once(':')?;
        Some(Goal {
            file: file.to_string(),
            line: line.parse().ok().filter(|l| *l > 0)?,
            function: None,
        })
    }
}

impl std::fmt::Display for Goal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.function {
            Some(func) => write!(f, "{func} at {}:{}", self.file, self.line),
            None => write!(f, "{}:{}", self.file, self.line),
        }
    }
}

/// Per-path priority a driver sets in [`crate::State::ext`]: a directed search runs
/// states with a higher penalty only when none with a lower one is left (deprioritised,
/// never dropped).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchPenalty(pub u32);

/// Cost of leaving a function towards its caller.
pub const RETURN_COST: u32 = 1;
const FAR: u32 = u32::MAX / 4;

/// Does the program's file path `path` name `file` (the same path, or one ends with the
/// other at a `/`)?
pub fn same_file(path: &str, file: &str) -> bool {
    let (a, b) = if path.len() >= file.len() {
        (path, file)
    } else {
        (file, path)
    };
    a == b || (a.ends_with(b) && a[..a.len() - b.len()].ends_with('/'))
}

/// Block distances to one goal in every function.
struct GoalDistances {
    /// Per function, per block: blocks to the goal from the block's start.
    blocks: Vec<Vec<u32>>,
    /// Per function: the goal's instructions in it.
    targets: Vec<Vec<u32>>,
    /// Per function: is it the goal's function (or any function, for a goal without one)?
    in_goal: Vec<bool>,
}

impl GoalDistances {
    fn compute(prog: &Program, goal: &Goal) -> Self {
        let n = prog.functions.len();
        let mut targets = vec![Vec::new(); n];
        let mut in_goal = vec![false; n];
        for (i, f) in prog.functions.iter().enumerate() {
            if goal.function.as_ref().is_some_and(|g| *g != f.name) {
                continue;
            }
            in_goal[i] = goal.function.is_some();
            for (pc, l) in f.locs.iter().enumerate() {
                if let Some(s) = prog.loc(*l) {
                    if s.line == goal.line && same_file(prog.file(s.file), &goal.file) {
                        targets[i].push(pc as u32);
                    }
                }
            }
            if goal.function.is_none() && !targets[i].is_empty() {
                in_goal[i] = true;
            }
        }
        let mut d = GoalDistances {
            blocks: prog
                .functions
                .iter()
                .map(|f| vec![FAR; f.blocks.len()])
                .collect(),
            targets,
            in_goal,
        };
        // Fixed point: distances only shrink.
        let mut changed = true;
        while changed {
            changed = false;
            for (i, f) in prog.functions.iter().enumerate() {
                for b in (0..f.blocks.len()).rev() {
                    let start = f.blocks[b].start;
                    let new = d.from(prog, FuncId(i as u32), BlockId(b as u32), start);
                    if new < d.blocks[i][b] {
                        d.blocks[i][b] = new;
                        changed = true;
                    }
                }
            }
        }
        d
    }

    /// Distance from instruction `pc` of block `b` of `func`.
    fn from(&self, prog: &Program, func: FuncId, b: BlockId, pc: u32) -> u32 {
        let f = prog.func(func);
        let fi = func.0 as usize;
        let block = &f.blocks[b.0 as usize];
        let mut best = FAR;
        if self.targets[fi].iter().any(|t| *t >= pc && *t < block.end) {
            return 0;
        }
        for inst in &f.insts[pc as usize..block.end as usize] {
            if let Inst::Call {
                callee: Callee::Direct(g),
                ..
            } = inst
            {
                let entry = self.blocks[g.0 as usize].first().copied().unwrap_or(FAR);
                best = best.min(entry.saturating_add(1));
            }
        }
        for s in successors(f, b) {
            best = best.min(self.blocks[fi][s.0 as usize].saturating_add(1));
        }
        best
    }

    /// Distance from a frame of `func` about to run instruction `pc`.
    fn at(&self, prog: &Program, func: FuncId, pc: u32) -> u32 {
        let f = prog.func(func);
        if !f.is_defined() || pc as usize >= f.insts.len() {
            return FAR;
        }
        self.from(prog, func, block_containing(f, pc), pc)
    }
}

/// The directed searcher over a chain of goals.
pub struct Directed {
    prog: Rc<Program>,
    goals: Vec<(Goal, GoalDistances)>,
    queue: Buckets,
}

impl Directed {
    /// A searcher towards `goals` (outermost first) in `prog`.
    pub fn new(prog: Rc<Program>, goals: &[Goal]) -> Self {
        let goals = goals
            .iter()
            .map(|g| (g.clone(), GoalDistances::compute(&prog, g)))
            .collect();
        Directed {
            prog,
            goals,
            queue: Buckets::default(),
        }
    }

    /// The first goal of the chain `frames` (outermost first: function and next
    /// instruction) has not passed.
    pub fn goal_index(&self, frames: &[(FuncId, u32)]) -> usize {
        let last = self.goals.len() - 1;
        let mut k = 0;
        while k < last && k + 1 < frames.len() {
            let (func, pc) = frames[k];
            let (goal, d) = &self.goals[k];
            let f = self.prog.func(func);
            let here = f
                .locs
                .get(pc.saturating_sub(1) as usize)
                .and_then(|l| self.prog.loc(*l));
            if !d.in_goal[func.0 as usize] || here.is_none_or(|l| l.line != goal.line) {
                break;
            }
            k += 1;
        }
        k
    }

    /// Distance of a state with `frames` to goal `k`, from its frames at depth k and below.
    fn distance(&self, frames: &[(FuncId, u32)], k: usize) -> u32 {
        let d = &self.goals[k].1;
        let mut acc = 0u32;
        for &(func, pc) in frames[k.min(frames.len())..].iter().rev() {
            let here = d.at(&self.prog, func, pc);
            if here < FAR {
                return acc.saturating_add(here);
            }
            acc = acc.saturating_add(RETURN_COST);
        }
        FAR
    }

    /// A state's rank: lower runs first.
    fn score(&self, info: &StateInfo) -> u64 {
        let k = self.goal_index(&info.frames);
        let left = (self.goals.len() - 1 - k) as u64;
        let dist = self.distance(&info.frames, k).min(FAR) as u64;
        ((info.penalty as u64) << 48) | (left << 32) | dist
    }
}

impl Searcher for Directed {
    fn add(&mut self, t: Ticket, info: &StateInfo) {
        let s = self.score(info);
        self.queue.add(s, t);
    }
    fn next(&mut self, rng: &mut Rng) -> Option<Ticket> {
        let best = self.queue.lowest()?;
        self.queue.take(best, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use augur_ir::{Block, FileId, Function, LocId, SrcLoc, TyId};

    /// One-block function `name` whose instructions are at `lines` of prog.c.
    fn func(name: &str, insts: Vec<Inst>, lines: &[u32]) -> Function {
        Function {
            name: name.into(),
            params: Vec::new(),
            ret_ty: TyId(0),
            is_var_arg: false,
            num_regs: 1,
            locs: lines.iter().map(|l| LocId(*l)).collect(),
            blocks: vec![Block {
                name: "entry".into(),
                start: 0,
                end: insts.len() as u32,
            }],
            insts,
            loc: LocId(0),
        }
    }

    /// `main` calls `f` at line 2; `f` crashes at line 5 (location ids are line numbers).
    fn program() -> Program {
        let call = Inst::Call {
            dst: None,
            callee: Callee::Direct(FuncId(1)),
            args: Vec::new(),
            ret_ty: TyId(0),
        };
        let ret = Inst::Ret { val: None };
        Program {
            functions: vec![
                func("main", vec![call, ret.clone()], &[2, 3]),
                func("f", vec![Inst::Unreachable, ret], &[5, 6]),
            ],
            locs: (0..8)
                .map(|line| SrcLoc {
                    file: FileId(0),
                    line,
                    col: 0,
                })
                .collect(),
            files: vec!["/src/prog.c".into()],
            ..Program::default()
        }
    }

    fn info(frames: Vec<(FuncId, u32)>, penalty: u32) -> StateInfo {
        StateInfo {
            frames,
            penalty,
            ..StateInfo::default()
        }
    }

    #[test]
    fn deeper_goals_first_and_penalties_last() {
        let goal = |function: &str, line| Goal {
            file: "prog.c".into(),
            line,
            function: Some(function.into()),
        };
        let mut d = Directed::new(Rc::new(program()), &[goal("main", 2), goal("f", 5)]);
        let in_f = vec![(FuncId(0), 1), (FuncId(1), 0)];
        let in_main = vec![(FuncId(0), 0)];
        assert_eq!(d.goal_index(&in_f), 1);
        assert_eq!(d.goal_index(&in_main), 0);
        // Past main's call: at the crash line (distance 0); before it: one goal left.
        assert_eq!(d.score(&info(in_f.clone(), 0)), 0);
        assert_eq!(d.score(&info(in_main.clone(), 0)), 1 << 32);
        let mut rng = Rng::new(1);
        let t = |id| Ticket { id, epoch: 0 };
        d.add(t(1), &info(in_main.clone(), 0));
        d.add(t(2), &info(in_f.clone(), 1));
        d.add(t(3), &info(in_f, 0));
        let order: Vec<u64> = std::iter::from_fn(|| d.next(&mut rng).map(|t| t.id)).collect();
        assert_eq!(order, [3, 1, 2]);
    }

    #[test]
    fn goals_parse_and_files_match() {
        let g = Goal::parse("src/prog.c:12").unwrap();
        assert_eq!((g.file.as_str(), g.line), ("src/prog.c", 12));
        assert!(Goal::parse("prog.c").is_none());
        assert!(Goal::parse("prog.c:0").is_none());
        assert!(same_file("/tmp/x/src/prog.c", "src/prog.c"));
        assert!(same_file("prog.c", "/tmp/prog.c"));
        assert!(!same_file("/tmp/x/myprog.c", "prog.c"));
    }
}
