//! End-to-end tests of [`SolverChain`] against Z3.

use crate::test_util::var;
use crate::{Layer, Layers, SatResult, Solver, SolverChain, SolverConfig, SolverError};
use augur_expr::{ArrayId, Assignment, ExprId, ExprPool};
use std::time::Duration;

/// Two one-byte inputs x, y with `x + y == 10` and `x < 3`.
fn sum_setup() -> (ExprPool, [ArrayId; 2], [ExprId; 2], Vec<ExprId>) {
    let mut p = ExprPool::new();
    let (ax, x) = var(&mut p, "x", 1);
    let (ay, y) = var(&mut p, "y", 1);
    let sum = p.add(x, y);
    let ten = p.constant(10, 8);
    let three = p.constant(3, 8);
    let cs = vec![p.eq(sum, ten), p.ult(x, three)];
    (p, [ax, ay], [x, y], cs)
}

fn holds(p: &ExprPool, cs: &[ExprId], m: &Assignment) -> bool {
    cs.iter().all(|&c| p.eval(c, m) == 1)
}

/// The queries decided below the caches: by trying every value of their bytes, or by Z3.
fn decided(chain: &SolverChain) -> u64 {
    let stats = chain.stats();
    stats.exhaustive + stats.solver_calls
}

#[test]
fn satisfiable_query_yields_a_model() {
    let (mut p, arrays, _, cs) = sum_setup();
    let mut chain = SolverChain::new(SolverConfig::default());
    let m = chain.model(&mut p, &cs, &arrays).unwrap();
    assert!(holds(&p, &cs, &m));
    assert!(arrays.iter().all(|&a| m.get(a).map(<[u8]>::len) == Some(1)));
}

#[test]
fn contradictions_are_unsat() {
    let (mut p, arrays, [x, _], cs) = sum_setup();
    let five = p.constant(5, 8);
    let big = p.ugt(x, five);
    let mut chain = SolverChain::new(SolverConfig::default());
    assert!(!chain.may_be_true(&mut p, &cs, big).unwrap());
    let small = p.not(big);
    assert!(chain.must_be_true(&mut p, &cs, small).unwrap());
    let mut all = cs.clone();
    all.push(big);
    assert_eq!(chain.check(&p, &all), Ok(SatResult::Unsat));
    assert!(matches!(
        chain.model(&mut p, &all, &arrays),
        Err(SolverError::Unknown(_))
    ));
}

#[test]
fn independent_groups_merge_into_one_model() {
    let mut p = ExprPool::new();
    let (ax, x) = var(&mut p, "x", 2);
    let (ay, y) = var(&mut p, "y", 1);
    let (az, _) = var(&mut p, "z", 3);
    let c1 = p.constant(0x1234, 16);
    let c2 = p.constant(7, 8);
    let cs = [p.eq(x, c1), p.eq(y, c2)];
    let mut chain = SolverChain::new(SolverConfig::default());
    let m = chain.model(&mut p, &cs, &[ax, ay, az]).unwrap();
    assert!(holds(&p, &cs, &m));
    assert_eq!(m.get(az), Some(&[0u8, 0, 0][..]));
    assert_eq!(decided(&chain), 2, "one query per group");
}

#[test]
fn repeated_queries_hit_the_cache() {
    let (mut p, _, [x, _], cs) = sum_setup();
    let one = p.constant(1, 8);
    let q = p.eq(x, one);
    let mut chain = SolverChain::new(SolverConfig::default());
    assert!(chain.may_be_true(&mut p, &cs, q).unwrap());
    assert_eq!(decided(&chain), 1);
    assert!(chain.may_be_true(&mut p, &cs, q).unwrap());
    assert_eq!(decided(&chain), 1);
    let stats = chain.stats();
    assert_eq!(stats.cache_hits, 1);
    assert_eq!(stats.queries, 2);
}

#[test]
fn constant_conditions_take_the_fast_path() {
    let (mut p, _, _, cs) = sum_setup();
    let (t, f) = (p.bool_const(true), p.bool_const(false));
    let mut chain = SolverChain::new(SolverConfig::default());
    assert!(chain.may_be_true(&mut p, &cs, t).unwrap());
    assert!(!chain.may_be_true(&mut p, &cs, f).unwrap());
    assert_eq!(
        chain.branch_feasibility(&mut p, &cs, t).unwrap(),
        (true, false)
    );
    let stats = chain.stats();
    assert_eq!(stats.solver_calls, 0);
    assert_eq!(stats.fast_path, stats.queries);
}

#[test]
fn branch_feasibility_reports_both_sides() {
    let (mut p, _, [x, y], cs) = sum_setup();
    let (one, five, seven) = (p.constant(1, 8), p.constant(5, 8), p.constant(7, 8));
    let x_is_1 = p.eq(x, one);
    let x_lt_5 = p.ult(x, five);
    let y_lt_7 = p.ult(y, seven);
    let mut chain = SolverChain::new(SolverConfig::default());
    assert_eq!(
        chain.branch_feasibility(&mut p, &cs, x_is_1).unwrap(),
        (true, true)
    );
    assert_eq!(
        chain.branch_feasibility(&mut p, &cs, x_lt_5).unwrap(),
        (true, false)
    );
    assert_eq!(
        chain.branch_feasibility(&mut p, &cs, y_lt_7).unwrap(),
        (false, true)
    );
    // one model of the path settles a side each time: at most 2 Z3 calls per branch
    assert!(chain.stats().solver_calls <= 4, "{:?}", chain.stats());
}

#[test]
fn value_is_feasible() {
    let (mut p, _, [x, y], cs) = sum_setup();
    let two = p.constant(2, 8);
    let mut chain = SolverChain::new(SolverConfig::default());
    let mut path = cs.clone();
    let one = p.constant(1, 8);
    path.push(p.ugt(x, one));
    assert_eq!(chain.value(&mut p, &path, y).unwrap(), 8);
    assert_eq!(chain.value(&mut p, &path, two).unwrap(), 2);
}

#[test]
fn wide_multiplication_agrees_with_eval() {
    let mut p = ExprPool::new();
    let (ax, x) = var(&mut p, "x", 16);
    let k: u128 = 0x0123_4567_89ab_cdef_0fed_cba9_8765_4321;
    let square = p.mul(x, x);
    let target = p.constant(k.wrapping_mul(k), 128);
    let cs = [p.eq(square, target)];
    let mut chain = SolverChain::new(SolverConfig::default());
    let m = chain.model(&mut p, &cs, &[ax]).unwrap();
    assert_eq!(p.eval(square, &m), k.wrapping_mul(k));
    assert_eq!(m.get(ax).map(<[u8]>::len), Some(16));
}

#[test]
fn timeouts_are_reported_as_such() {
    let mut p = ExprPool::new();
    let (_, x) = var(&mut p, "x", 16);
    let (_, y) = var(&mut p, "y", 16);
    let product = p.mul(x, y);
    let target = p.constant(0xd1a5_4c3b_2a19_0817_f6e5_d4c3_b2a1_9087, 128);
    let one = p.constant(1, 128);
    let cs = [p.eq(product, target), p.ugt(x, one), p.ugt(y, one)];
    let mut chain = SolverChain::new(SolverConfig::with_timeout(Some(Duration::from_millis(1))));
    // bit-blasting a 128-bit multiplier alone takes far longer than 1 ms
    assert_eq!(chain.check(&p, &cs), Err(SolverError::Timeout));
    assert_eq!(chain.stats().timeouts, 1);
    // a timeout is not cached as an answer
    assert_eq!(chain.check(&p, &cs), Err(SolverError::Timeout));
    assert_eq!(chain.stats().solver_calls, 2);
}

#[test]
fn a_new_pool_starts_fresh_caches() {
    let mut chain = SolverChain::new(SolverConfig::default());
    let (mut p1, _, [x, _], cs) = sum_setup();
    let nine = p1.constant(9, 8);
    let q = p1.ugt(x, nine);
    assert!(!chain.may_be_true(&mut p1, &cs, q).unwrap());
    // the same ids in a second pool mean something else
    let (mut p2, _, [x2, _], _) = sum_setup();
    let cs2: Vec<ExprId> = Vec::new();
    let nine2 = p2.constant(9, 8);
    let q2 = p2.ugt(x2, nine2);
    assert_eq!(q2, q);
    assert!(chain.may_be_true(&mut p2, &cs2, q2).unwrap());
    let c200 = p2.constant(200, 8);
    let loose = [p2.ult(x2, c200)];
    assert!(chain.may_be_true(&mut p2, &loose, q2).unwrap());
}

#[test]
fn smtlib_scripts_replay_in_z3() {
    let (mut p, _, [x, _], mut cs) = sum_setup();
    let z3_answer = |p: &ExprPool, cs: &[ExprId]| {
        let solver = z3::Solver::new();
        solver.from_string(p.to_smtlib2(cs));
        solver.check()
    };
    assert_eq!(z3_answer(&p, &cs), z3::SatResult::Sat);
    let five = p.constant(5, 8);
    cs.push(p.ugt(x, five));
    assert_eq!(z3_answer(&p, &cs), z3::SatResult::Unsat);
}

/// Conditions over inputs x (2 bytes), y (1 byte) and a 4-byte table t read at a symbolic
/// index, with constants and repetitions: independent groups, cache hits and fast paths.
fn conditions(p: &mut ExprPool) -> (Vec<ExprId>, [ArrayId; 3]) {
    let (ax, x) = var(p, "x", 2);
    let (ay, y) = var(p, "y", 1);
    let (at, _) = var(p, "t", 4);
    let k = |p: &mut ExprPool, v: u128, w: u32| p.constant(v, w);
    let (k100, k7, k3, k2) = (k(p, 100, 16), k(p, 7, 8), k(p, 3, 8), k(p, 2, 8));
    let table = p.array_sym(at);
    let y3 = p.and(y, k3);
    let index = p.zext(y3, 64);
    let entry = p.select(table, index);
    let x_lo = p.extract(x, 0, 8);
    let sum = p.add(x_lo, y);
    let conds = vec![
        p.ult(x, k100),
        p.eq(entry, k7),
        p.bool_const(true),
        p.ult(y, k2),
        p.eq(sum, k7),
        p.bool_const(false),
        p.ult(entry, k3),
        p.ult(x, k100),
        p.eq(x_lo, entry),
    ];
    (conds, [ax, ay, at])
}

/// Everything a chain answers along one exploration of `conditions` (each branch taken
/// on its feasible side, true first): feasibilities, validity answers, whether a value
/// and a model are right.
fn explore(config: SolverConfig) -> (Vec<String>, crate::SolverStats) {
    let mut p = ExprPool::new();
    let (conds, arrays) = conditions(&mut p);
    let mut chain = SolverChain::new(config);
    let mut path = Vec::new();
    let mut answers = Vec::new();
    for &c in &conds {
        let (t, f) = chain.branch_feasibility(&mut p, &path, c).unwrap();
        let may = chain.may_be_true(&mut p, &path, c).unwrap();
        let must = chain.must_be_true(&mut p, &path, c).unwrap();
        let w = p.width(c);
        let v = chain.value(&mut p, &path, c).unwrap();
        let kv = p.constant(v, w);
        let is_v = p.eq(c, kv);
        let value_ok = chain.may_be_true(&mut p, &path, is_v).unwrap();
        path.push(if t { c } else { p.not(c) });
        let model = chain.model(&mut p, &path, &arrays).unwrap();
        let model_ok = holds(&p, &path, &model);
        answers.push(format!(
            "feasible {t}/{f} may {may} must {must} value ok {value_ok} model ok {model_ok}"
        ));
    }
    (answers, chain.stats())
}

#[test]
fn every_layer_set_gives_the_same_answers() {
    let (full, stats) = explore(SolverConfig::default());
    assert!(
        full.iter()
            .all(|a| a.ends_with("value ok true model ok true")),
        "{full:?}"
    );
    assert!(full.iter().any(|a| a.starts_with("feasible true/true")));
    assert!(full.iter().any(|a| a.starts_with("feasible true/false")));
    assert!(full.iter().any(|a| a.starts_with("feasible false/true")));
    assert!(stats.cache_hits > 0 && stats.fast_path > 0, "{stats:?}");
    let mut sets = vec![Layers::NONE];
    sets.extend(Layer::ALL.map(|l| Layers::ALL.without(l)));
    sets.extend(Layer::ALL.map(|l| Layers::NONE.with(l)));
    for layers in sets {
        let config = SolverConfig {
            layers,
            ..SolverConfig::default()
        };
        let (answers, stats) = explore(config);
        assert_eq!(answers, full, "layers {layers}");
        if !layers.contains(Layer::FastPath) {
            assert_eq!(stats.fast_path, 0, "layers {layers}");
        }
        if !layers.contains(Layer::QueryCache) && !layers.contains(Layer::CexCache) {
            assert_eq!(stats.cache_hits, 0, "layers {layers}");
        }
        if layers == Layers::NONE {
            assert_eq!(stats.solver_calls, stats.queries, "every query reaches Z3");
        }
    }
}

#[test]
fn the_cross_check_agrees_with_a_sound_chain() {
    let (full, _) = explore(SolverConfig::default());
    for layers in [Layers::ALL, Layers::NONE] {
        let config = SolverConfig {
            layers,
            cross_check: true,
            ..SolverConfig::default()
        };
        let (answers, stats) = explore(config);
        assert_eq!(answers, full);
        assert_eq!(stats.cross_checks, stats.queries, "every answer is checked");
        assert_eq!(stats.cross_check_mismatches, 0);
    }
}

#[test]
fn the_query_log_holds_every_z3_call() {
    let dir = tempfile::tempdir().unwrap();
    let config = SolverConfig {
        log_queries: Some(dir.path().to_path_buf()),
        ..SolverConfig::default()
    };
    let (_, stats) = explore(config);
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len() as u64, stats.solver_calls);
    assert_eq!(names.first().map(String::as_str), Some("query-000001.smt2"));
}
