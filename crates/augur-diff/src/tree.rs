//! Clustering revisions by their differential tests, and arranging those tests as a decision
//! tree of minimal height (Psychic, "Decision tree construction").
//!
//! Every differential test cuts the revisions into classes of equal observed outputs; laid over
//! each other, the tests give the final partition ([`classes`]). The decision tree asks one test
//! per internal node and follows the edge of the observed output class, down to a leaf: one
//! final class. [`build`] searches exactly for a tree of minimal height over subsets of final
//! classes, memoised on the subset as a bitset, within a work budget; beyond the budget it falls
//! back to a greedy tree and says so ([`DecisionTree::exact`]).

use serde_json::{json, Value};
use std::cmp::Reverse;
use std::collections::HashMap;

/// Work budget of the exact search used when the caller has no better figure: the number of
/// (subset, test) evaluations, a fraction of a second of work (about 0.3 s when it runs out on
/// 64 revisions and 60 tests in a debug build).
pub const DEFAULT_BUDGET: usize = 1_000_000;

/// How one differential test splits the revisions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestSplit {
    /// The test's name as shown in the tree, e.g. `difftest 3`.
    pub name: String,
    /// `labels[r]` is the class of revision r's observed outputs: revisions with equal outputs
    /// have equal labels.
    pub labels: Vec<usize>,
    /// `describe[label]` is a short human text of that class's outputs, e.g. `stdout "3\n", exit 0`.
    pub describe: Vec<String>,
}

impl TestSplit {
    /// Labels the revisions by their observed `outputs` (one per revision): equal outputs share
    /// a label, numbered in order of first occurrence and described by `describe`.
    pub fn from_outputs<T: PartialEq>(
        name: impl Into<String>,
        outputs: &[T],
        describe: impl Fn(&T) -> String,
    ) -> Self {
        let mut firsts: Vec<&T> = Vec::new();
        let labels = outputs
            .iter()
            .map(
                |output| match firsts.iter().position(|first| *first == output) {
                    Some(label) => label,
                    None => {
                        firsts.push(output);
                        firsts.len() - 1
                    }
                },
            )
            .collect();
        TestSplit {
            name: name.into(),
            labels,
            describe: firsts.into_iter().map(describe).collect(),
        }
    }
}

/// The final partition of revisions `0..n` by all `tests` together: revisions equal on every
/// test share a class. Classes are ordered by their smallest member, members ascending.
///
/// # Panics
/// If a test does not label exactly `n` revisions or labels one beyond its descriptions.
pub fn classes(n: usize, tests: &[TestSplit]) -> Vec<Vec<usize>> {
    check_tests(n, tests);
    let mut index: HashMap<Vec<usize>, usize> = HashMap::new();
    let mut classes: Vec<Vec<usize>> = Vec::new();
    for revision in 0..n {
        let signature = tests.iter().map(|t| t.labels[revision]).collect();
        let class = *index.entry(signature).or_insert_with(|| {
            classes.push(Vec::new());
            classes.len() - 1
        });
        classes[class].push(revision);
    }
    classes
}

/// Panics with a clear message when `tests` are not label lists of `n` revisions.
fn check_tests(n: usize, tests: &[TestSplit]) {
    for test in tests {
        assert_eq!(
            test.labels.len(),
            n,
            "test {} labels {} revisions, not {n}",
            test.name,
            test.labels.len()
        );
        assert!(
            test.labels.iter().all(|&label| label < test.describe.len()),
            "test {} has a label without a description",
            test.name
        );
    }
}

/// A decision tree over the revisions: which test to run, and where each output class leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionTree {
    /// The revisions' names, revision 0 being the base.
    pub revisions: Vec<String>,
    /// The root: a leaf when no test tells any two revisions apart.
    pub root: Node,
    /// Whether the height is proven minimal by the exact search; `false` when the work budget
    /// ran out and the tree was built greedily (at each node, the test whose largest part is
    /// smallest, ties broken by most parts, then lowest test index).
    pub exact: bool,
}

/// A node of a [`DecisionTree`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// Revisions no remaining test separates: one final class, revision numbers ascending.
    Leaf {
        /// The class's revision numbers.
        revisions: Vec<usize>,
    },
    /// Run a test and follow the edge of the observed output class.
    Split {
        /// Index of the test in the list given to [`build`].
        test: usize,
        /// The test's name.
        name: String,
        /// One edge per output class present among the revisions here, ordered by their
        /// smallest revision.
        children: Vec<Edge>,
    },
}

/// An edge of a [`DecisionTree`]: one output class of the parent's test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    /// The class label in the test's [`TestSplit::labels`].
    pub label: usize,
    /// The class's description ([`TestSplit::describe`]).
    pub output: String,
    /// Where revisions with this output go.
    pub node: Node,
}

impl Node {
    /// Number of tests on the longest path from this node down to a leaf.
    pub fn height(&self) -> usize {
        match self {
            Node::Leaf { .. } => 0,
            Node::Split { children, .. } => {
                1 + children.iter().map(|e| e.node.height()).max().unwrap_or(0)
            }
        }
    }
}

/// Builds a decision tree separating exactly the final [`classes`] of `revisions` by `tests`,
/// of minimal height. Among trees of that height, each node prefers the test whose subtrees
/// have the fewest tests in total (a local tie-break, each subtree chosen the same way), then
/// the lowest test index. The exact search may evaluate `budget` (subset, test) pairs; past
/// that the whole tree is built greedily and [`DecisionTree::exact`] is `false`.
///
/// # Panics
/// As [`classes`], when a test does not label every revision.
pub fn build(revisions: Vec<String>, tests: &[TestSplit], budget: usize) -> DecisionTree {
    let problem = Problem::new(revisions.len(), tests);
    let all = problem.all_classes();
    let mut search = Exact::new(&problem, budget);
    let exact = search.solve(&all).is_ok();
    let root = if exact {
        problem.grow(&all, &mut |set| search.chosen[set].1)
    } else {
        problem.grow(&all, &mut |set| problem.greedy_choice(set))
    };
    DecisionTree {
        revisions,
        root,
        exact,
    }
}

/// A set of final classes, as a bitset of class indices (any number of classes).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct ClassSet(Vec<u64>);

impl ClassSet {
    /// The empty set over `n` classes.
    fn empty(n: usize) -> Self {
        ClassSet(vec![0; n.div_ceil(64)])
    }

    /// Adds class `c`.
    fn insert(&mut self, c: usize) {
        self.0[c / 64] |= 1 << (c % 64);
    }

    /// Number of classes in the set.
    fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The classes in the set, ascending.
    fn members(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &word)| {
            (0..64)
                .filter(move |bit| word >> bit & 1 == 1)
                .map(move |bit| k * 64 + bit)
        })
    }
}

/// The search problem: final classes, and how each test labels them.
struct Problem<'t> {
    tests: &'t [TestSplit],
    classes: Vec<Vec<usize>>,
    /// The most parts any test cuts the classes into (at least 2), for lower bounds.
    max_branch: usize,
}

/// A tree's cost, compared by height first, then number of tests (internal nodes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Cost {
    height: usize,
    nodes: usize,
}

impl<'t> Problem<'t> {
    /// The problem of separating revisions `0..n` by `tests`.
    fn new(n: usize, tests: &'t [TestSplit]) -> Self {
        let classes = classes(n, tests);
        let mut problem = Problem {
            tests,
            classes,
            max_branch: 2,
        };
        let all = problem.all_classes();
        problem.max_branch = (0..tests.len())
            .map(|t| problem.parts(t, &all).len())
            .fold(2, usize::max);
        problem
    }

    /// The set of every class.
    fn all_classes(&self) -> ClassSet {
        let mut all = ClassSet::empty(self.classes.len());
        (0..self.classes.len()).for_each(|c| all.insert(c));
        all
    }

    /// The parts test `t` cuts `set` into, as (label, part), ordered by smallest member.
    fn parts(&self, t: usize, set: &ClassSet) -> Vec<(usize, ClassSet)> {
        let mut parts: Vec<(usize, ClassSet)> = Vec::new();
        for class in set.members() {
            let label = self.tests[t].labels[self.classes[class][0]];
            match parts.iter_mut().find(|(l, _)| *l == label) {
                Some((_, part)) => part.insert(class),
                None => {
                    let mut part = ClassSet::empty(self.classes.len());
                    part.insert(class);
                    parts.push((label, part));
                }
            }
        }
        parts
    }

    /// A cost no tree separating `size` classes can beat: with at most `max_branch` children
    /// per test, height h reaches at most `max_branch^h` leaves, and every test adds at most
    /// `max_branch - 1` leaves.
    fn lower_bound(&self, size: usize) -> Cost {
        let mut height = 0;
        let mut reach = 1usize;
        while reach < size {
            reach = reach.saturating_mul(self.max_branch);
            height += 1;
        }
        Cost {
            height,
            nodes: (size.saturating_sub(1)).div_ceil(self.max_branch - 1),
        }
    }

    /// The greedy test for `set`: smallest largest part, then most parts, then lowest index.
    fn greedy_choice(&self, set: &ClassSet) -> usize {
        (0..self.tests.len())
            .filter_map(|t| {
                let parts = self.parts(t, set);
                let largest = parts.iter().map(|(_, p)| p.len()).max()?;
                (parts.len() > 1).then_some((largest, Reverse(parts.len()), t))
            })
            .min()
            .expect("distinct classes differ on some test")
            .2
    }

    /// The tree separating `set`, asking at each node the test `choose` picks for its set.
    fn grow(&self, set: &ClassSet, choose: &mut dyn FnMut(&ClassSet) -> usize) -> Node {
        if set.len() <= 1 {
            let revisions = set.members().flat_map(|c| self.classes[c].clone());
            return Node::Leaf {
                revisions: revisions.collect(),
            };
        }
        let test = choose(set);
        let children = self
            .parts(test, set)
            .into_iter()
            .map(|(label, part)| Edge {
                label,
                output: self.tests[test].describe[label].clone(),
                node: self.grow(&part, choose),
            })
            .collect();
        Node::Split {
            test,
            name: self.tests[test].name.clone(),
            children,
        }
    }
}

/// The exact search ran past its work budget.
#[derive(Debug)]
struct OutOfBudget;

/// Exact minimal-cost search over subsets of classes, memoised on the subset.
struct Exact<'p, 't> {
    problem: &'p Problem<'t>,
    /// For each solved set of two or more classes: its minimal cost and the test achieving it.
    chosen: HashMap<ClassSet, (Cost, usize)>,
    work: usize,
    budget: usize,
}

impl<'p, 't> Exact<'p, 't> {
    /// A search over `problem` allowed `budget` (subset, test) evaluations.
    fn new(problem: &'p Problem<'t>, budget: usize) -> Self {
        Exact {
            problem,
            chosen: HashMap::new(),
            work: 0,
            budget,
        }
    }

    /// The minimal cost of a tree separating `set`, recording the best test of every subset.
    fn solve(&mut self, set: &ClassSet) -> Result<Cost, OutOfBudget> {
        let size = set.len();
        if size <= 1 {
            return Ok(Cost {
                height: 0,
                nodes: 0,
            });
        }
        if let Some((cost, _)) = self.chosen.get(set) {
            return Ok(*cost);
        }
        let bound = self.problem.lower_bound(size);
        let mut best: Option<(Cost, usize)> = None;
        for test in 0..self.problem.tests.len() {
            self.work += 1;
            if self.work > self.budget {
                return Err(OutOfBudget);
            }
            let parts = self.problem.parts(test, set);
            if parts.len() < 2 {
                continue;
            }
            if let Some(cost) = self.split_cost(&parts, best.map(|(cost, _)| cost))? {
                best = Some((cost, test));
            }
            if best.is_some_and(|(cost, _)| cost == bound) {
                break;
            }
        }
        let best = best.expect("distinct classes differ on some test");
        self.chosen.insert(set.clone(), best);
        Ok(best.0)
    }

    /// The cost of a node splitting into `parts`, or `None` as soon as it cannot be strictly
    /// below `limit` (costs only grow as parts are added).
    fn split_cost(
        &mut self,
        parts: &[(usize, ClassSet)],
        limit: Option<Cost>,
    ) -> Result<Option<Cost>, OutOfBudget> {
        let mut cost = Cost {
            height: 1,
            nodes: 1,
        };
        for (_, part) in parts {
            let sub = self.solve(part)?;
            cost.height = cost.height.max(sub.height + 1);
            cost.nodes += sub.nodes;
            if limit.is_some_and(|limit| cost >= limit) {
                return Ok(None);
            }
        }
        Ok(Some(cost))
    }
}

impl DecisionTree {
    /// Number of tests on the longest root-to-leaf path.
    pub fn height(&self) -> usize {
        self.root.height()
    }

    /// The names of `revisions`.
    fn names(&self, revisions: &[usize]) -> Vec<&str> {
        revisions
            .iter()
            .map(|&r| self.revisions[r].as_str())
            .collect()
    }

    /// The tree as indented text: a heading, then one line per edge, `test: output`, indented
    /// by depth, ending in `=> revisions` at a leaf.
    pub fn to_text(&self) -> String {
        let search = if self.exact { "minimal" } else { "greedy" };
        let mut out = format!("decision tree: height {} ({search})\n", self.height());
        match &self.root {
            Node::Leaf { revisions } => {
                out.push_str(&format!(
                    "no test tells these apart: {}\n",
                    self.names(revisions).join(", ")
                ));
            }
            split => self.text_edges(split, 0, &mut out),
        }
        out
    }

    /// Appends the edges below `node`, at indentation `depth`, to `out`.
    fn text_edges(&self, node: &Node, depth: usize, out: &mut String) {
        let Node::Split { name, children, .. } = node else {
            return;
        };
        for edge in children {
            out.push_str(&format!("{:1$}{name}: {2}", "", 2 * depth, edge.output));
            match &edge.node {
                Node::Leaf { revisions } => {
                    out.push_str(&format!(" => {}\n", self.names(revisions).join(", ")));
                }
                split => {
                    out.push('\n');
                    self.text_edges(split, depth + 1, out);
                }
            }
        }
    }

    /// The tree as JSON: `{"height", "exact", "root"}`, where a node is
    /// `{"test", "children": [{"output", "node"}]}` and a leaf `{"revisions": [names]}`.
    pub fn to_json(&self) -> Value {
        json!({
            "height": self.height(),
            "exact": self.exact,
            "root": self.node_json(&self.root),
        })
    }

    /// One node of [`DecisionTree::to_json`].
    fn node_json(&self, node: &Node) -> Value {
        match node {
            Node::Leaf { revisions } => {
                json!({ "revisions": self.names(revisions) })
            }
            Node::Split { name, children, .. } => {
                let children: Vec<Value> = children
                    .iter()
                    .map(|e| json!({ "output": e.output, "node": self.node_json(&e.node) }))
                    .collect();
                json!({ "test": name, "children": children })
            }
        }
    }

    /// The tree in Graphviz DOT: tests as boxes, leaves as ellipses listing revision names one
    /// per line, edges labelled with the output class.
    pub fn to_dot(&self) -> String {
        let mut out = String::from("digraph decision_tree {\n  node [shape=box];\n");
        self.dot_node(&self.root, &mut 0, &mut out);
        out.push_str("}\n");
        out
    }

    /// Appends `node` and its subtree to `out`, numbering nodes from `next`; returns its number.
    fn dot_node(&self, node: &Node, next: &mut usize, out: &mut String) -> usize {
        let id = *next;
        *next += 1;
        match node {
            Node::Leaf { revisions } => {
                let label = dot_quote(&self.names(revisions).join("\n"));
                out.push_str(&format!("  n{id} [shape=ellipse, label={label}];\n"));
            }
            Node::Split { name, children, .. } => {
                out.push_str(&format!("  n{id} [label={}];\n", dot_quote(name)));
                for edge in children {
                    let child = self.dot_node(&edge.node, next, out);
                    let label = dot_quote(&edge.output);
                    out.push_str(&format!("  n{id} -> n{child} [label={label}];\n"));
                }
            }
        }
        id
    }
}

/// `text` as a DOT quoted string: backslashes and quotes escaped, newlines as `\n`.
fn dot_quote(text: &str) -> String {
    let mut quoted = String::from("\"");
    for ch in text.chars() {
        match ch {
            '\\' => quoted.push_str("\\\\"),
            '"' => quoted.push_str("\\\""),
            '\n' => quoted.push_str("\\n"),
            ch => quoted.push(ch),
        }
    }
    quoted.push('"');
    quoted
}

#[cfg(test)]
mod tests;
