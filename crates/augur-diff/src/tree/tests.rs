use super::*;
use augur_engine::Rng;

/// A test labelling revision r with `labels[r]`, class k described as `out k`.
fn split(name: &str, labels: &[usize]) -> TestSplit {
    let classes = labels.iter().max().map_or(0, |m| m + 1);
    TestSplit {
        name: name.to_string(),
        labels: labels.to_vec(),
        describe: (0..classes).map(|k| format!("out {k}")).collect(),
    }
}

/// Revision names `r0`, `r1`, ...
fn names(n: usize) -> Vec<String> {
    (0..n).map(|r| format!("r{r}")).collect()
}

/// Tests whose greedy tree has height 3 while the optimum is 2. The greedy rule ties tests 0
/// and 2 (largest part 3, three parts) and takes test 0, leaving {0,2,4} that no single test
/// cuts into singletons; test 1 first ({0,4} | {1,2,3}) allows height 2. No such instance
/// exists with 4 revisions for this greedy rule (checked exhaustively), hence 5.
fn greedy_trap() -> Vec<TestSplit> {
    vec![
        split("t0", &[0, 1, 0, 2, 0]),
        split("t1", &[0, 1, 1, 1, 0]),
        split("t2", &[0, 1, 0, 0, 2]),
    ]
}

/// The tests on every root-to-leaf path, counted over the whole tree (internal nodes).
fn tests_in(node: &Node) -> usize {
    match node {
        Node::Leaf { .. } => 0,
        Node::Split { children, .. } => {
            1 + children.iter().map(|e| tests_in(&e.node)).sum::<usize>()
        }
    }
}

/// Every test index used anywhere in the tree.
fn used_tests(node: &Node, used: &mut Vec<usize>) {
    if let Node::Split { test, children, .. } = node {
        used.push(*test);
        children.iter().for_each(|e| used_tests(&e.node, used));
    }
}

/// Checks that `node` is a well-formed tree over `revisions`: each edge holds exactly the
/// revisions with its label and description, splits have two or more children, and the leaves
/// are collected into `leaves`.
fn check_node(node: &Node, revisions: &[usize], tests: &[TestSplit], leaves: &mut Vec<Vec<usize>>) {
    match node {
        Node::Leaf { revisions: leaf } => {
            assert_eq!(leaf, revisions);
            leaves.push(leaf.clone());
        }
        Node::Split {
            test,
            name,
            children,
        } => {
            let t = &tests[*test];
            assert_eq!(name, &t.name);
            assert!(children.len() >= 2, "a split must separate something");
            let mut covered = Vec::new();
            for edge in children {
                assert_eq!(edge.output, t.describe[edge.label]);
                let below: Vec<usize> = revisions
                    .iter()
                    .copied()
                    .filter(|&r| t.labels[r] == edge.label)
                    .collect();
                assert!(!below.is_empty());
                covered.extend(below.iter().copied());
                check_node(&edge.node, &below, tests, leaves);
            }
            covered.sort();
            assert_eq!(covered, revisions, "edges must cover the node's revisions");
        }
    }
}

/// Checks the tree separates exactly the final classes.
fn check_tree(tree: &DecisionTree, tests: &[TestSplit]) {
    let n = tree.revisions.len();
    let mut leaves = Vec::new();
    check_node(&tree.root, &(0..n).collect::<Vec<_>>(), tests, &mut leaves);
    leaves.sort();
    assert_eq!(leaves, classes(n, tests));
}

/// Minimal height by plain recursion over revision lists, without memo or bounds.
fn brute_height(tests: &[TestSplit], set: &[usize]) -> usize {
    tests
        .iter()
        .filter_map(|t| {
            let mut labels: Vec<usize> = set.iter().map(|&r| t.labels[r]).collect();
            labels.sort();
            labels.dedup();
            (labels.len() > 1).then(|| {
                let parts = labels.iter().map(|&l| {
                    set.iter()
                        .copied()
                        .filter(|&r| t.labels[r] == l)
                        .collect::<Vec<_>>()
                });
                1 + parts.map(|p| brute_height(tests, &p)).max().unwrap_or(0)
            })
        })
        .min()
        .unwrap_or(0)
}

#[test]
fn classes_group_revisions_equal_on_every_test() {
    let tests = [split("a", &[0, 1, 0, 1, 0]), split("b", &[0, 0, 0, 1, 2])];
    assert_eq!(
        classes(5, &tests),
        vec![vec![0, 2], vec![1], vec![3], vec![4]]
    );
    assert_eq!(classes(3, &[]), vec![vec![0, 1, 2]]);
}

#[test]
fn from_outputs_labels_by_first_occurrence() {
    let t = TestSplit::from_outputs("t", &["x", "y", "x"], |o| format!("stdout {o:?}"));
    assert_eq!(t.labels, vec![0, 1, 0]);
    assert_eq!(t.describe, vec!["stdout \"x\"", "stdout \"y\""]);
}

#[test]
fn exact_search_beats_the_greedy_trap() {
    let tests = greedy_trap();
    let exact = build(names(5), &tests, DEFAULT_BUDGET);
    assert!(exact.exact);
    assert_eq!(exact.height(), 2);
    assert!(matches!(exact.root, Node::Split { test: 1, .. }));
    check_tree(&exact, &tests);

    let greedy = build(names(5), &tests, 0);
    assert!(!greedy.exact);
    assert_eq!(greedy.height(), 3);
    assert!(matches!(greedy.root, Node::Split { test: 0, .. }));
    check_tree(&greedy, &tests);
}

#[test]
fn equal_revisions_are_never_split() {
    let tests = [split("a", &[0, 1, 0, 1]), split("b", &[0, 0, 0, 1])];
    let tree = build(names(4), &tests, DEFAULT_BUDGET);
    check_tree(&tree, &tests);
    assert!(tree.to_text().contains("=> r0, r2\n"), "{}", tree.to_text());
}

#[test]
fn a_test_splitting_nothing_is_never_used() {
    let tests = [
        split("constant", &[0, 0, 0, 0]),
        split("a", &[0, 1, 0, 1]),
        split("b", &[0, 0, 1, 1]),
    ];
    for budget in [DEFAULT_BUDGET, 0] {
        let tree = build(names(4), &tests, budget);
        let mut used = Vec::new();
        used_tests(&tree.root, &mut used);
        assert!(!used.contains(&0), "{used:?}");
        assert_eq!(tree.height(), 2);
    }
}

#[test]
fn no_distinguishing_test_gives_a_single_leaf() {
    let tests = [split("constant", &[0, 0, 0])];
    let tree = build(names(3), &tests, DEFAULT_BUDGET);
    assert_eq!(
        tree.root,
        Node::Leaf {
            revisions: vec![0, 1, 2]
        }
    );
    assert_eq!(tree.height(), 0);
    assert!(tree
        .to_text()
        .contains("no test tells these apart: r0, r1, r2"));
}

#[test]
fn equal_heights_prefer_fewer_tests() {
    // t0 first needs t1 and t2 below it (3 tests); t1 first needs only t2 (2 tests).
    let tests = [
        split("t0", &[0, 0, 1, 1]),
        split("t1", &[0, 1, 2, 2]),
        split("t2", &[0, 0, 0, 1]),
    ];
    let tree = build(names(4), &tests, DEFAULT_BUDGET);
    assert_eq!(tree.height(), 2);
    assert!(matches!(tree.root, Node::Split { test: 1, .. }));
    assert_eq!(tests_in(&tree.root), 2);
}

#[test]
fn height_is_minimal_on_random_instances() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    for _ in 0..400 {
        let n = 1 + rng.below(7) as usize;
        let tests: Vec<TestSplit> = (0..rng.below(5) as usize)
            .map(|i| {
                split(
                    &format!("t{i}"),
                    &(0..n).map(|_| rng.below(3) as usize).collect::<Vec<_>>(),
                )
            })
            .collect();
        let optimum = brute_height(&tests, &(0..n).collect::<Vec<_>>());
        let exact = build(names(n), &tests, DEFAULT_BUDGET);
        assert!(exact.exact);
        assert_eq!(exact.height(), optimum, "{tests:?}");
        check_tree(&exact, &tests);
        let greedy = build(names(n), &tests, 0);
        assert!(greedy.height() >= optimum);
        check_tree(&greedy, &tests);
    }
}

#[test]
fn many_revisions_use_several_mask_words() {
    // 150 revisions in 150 classes: test k tells bit k of the revision number.
    let n = 150;
    let tests: Vec<TestSplit> = (0..8)
        .map(|k| {
            split(
                &format!("bit{k}"),
                &(0..n).map(|r| r >> k & 1).collect::<Vec<_>>(),
            )
        })
        .collect();
    let tree = build(names(n), &tests, DEFAULT_BUDGET);
    check_tree(&tree, &tests);
    assert!(tree.exact);
    assert_eq!(tree.height(), 8);
}

#[test]
fn json_has_tests_outputs_and_revision_names() {
    let tests = greedy_trap();
    let tree = build(names(5), &tests, DEFAULT_BUDGET);
    let json = tree.to_json();
    assert_eq!(json["height"], 2);
    assert_eq!(json["exact"], true);
    let root = &json["root"];
    assert_eq!(root["test"], "t1");
    assert_eq!(root["children"][0]["output"], "out 0");
    let left = &root["children"][0]["node"];
    assert_eq!(left["test"], "t2");
    assert_eq!(left["children"][0]["node"]["revisions"], json!(["r0"]));
    assert_eq!(left["children"][1]["node"]["revisions"], json!(["r4"]));
}

#[test]
fn dot_is_one_graph_with_escaped_labels() {
    let tests = [TestSplit {
        name: "test \"1\"".to_string(),
        labels: vec![0, 1, 1],
        describe: vec!["stdout \"3\\n\"".to_string(), "exit 1".to_string()],
    }];
    let tree = build(names(3), &tests, DEFAULT_BUDGET);
    let dot = tree.to_dot();
    assert!(dot.starts_with("digraph decision_tree {\n"));
    assert!(dot.ends_with("}\n"));
    assert_eq!(dot.matches(" -> ").count(), 2);
    assert!(dot.contains("n0 [label=\"test \\\"1\\\"\"];"), "{dot}");
    assert!(
        dot.contains("n0 -> n1 [label=\"stdout \\\"3\\\\n\\\"\"];"),
        "{dot}"
    );
    assert!(
        dot.contains("n2 [shape=ellipse, label=\"r1\\nr2\"];"),
        "{dot}"
    );
}

#[test]
fn text_indents_one_line_per_edge() {
    let tests = greedy_trap();
    let text = build(names(5), &tests, DEFAULT_BUDGET).to_text();
    let expected = "decision tree: height 2 (minimal)\n\
                    t1: out 0\n\
                    \x20 t2: out 0 => r0\n\
                    \x20 t2: out 2 => r4\n\
                    t1: out 1\n\
                    \x20 t0: out 1 => r1\n\
                    \x20 t0: out 0 => r2\n\
                    \x20 t0: out 2 => r3\n";
    assert_eq!(text, expected);
}
