//! Measured rarity as the selection criterion: the candidate bugs synthesized for one
//! bug number are embedded together into one measuring build (each outputs its number
//! instead of failing, [`crate::embed::embed_marked`]), which runs once on each of the
//! program's own tests, random inputs, mutations of the program's own inputs and
//! mutations of each candidate's trigger; the share of each kind that reaches a
//! candidate's final state is its fire rate, and a candidate is kept only if its trigger
//! fires it and none of the gating kinds (pool, random, mutated) fires it more often
//! than `--max-fire-rate`. The trigger's mutations are reported, never gating: a bug
//! fires on every one that misses the bytes its predicates read, whereas a tester or a
//! fuzzer starts from the program's ordinary inputs, not from the trigger.

use crate::builds::Build;
use crate::embed::MARK;
use crate::measure;
use crate::verify::{Objects, Source, Tally, Verification};
use augur_engine::Rng;
use std::time::Instant;

/// How often one bug fired, per kind of measuring input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rates {
    /// Did its own trigger fire it?
    pub trigger_fires: bool,
    /// Per kind (pool, random, mutated, near its trigger): inputs tried and fired.
    pub tallies: Vec<(Source, Tally)>,
    /// In one program with bugs chosen before (`--one-program`): how a trigger would fire
    /// the other bug.
    pub interference: Interference,
}

/// How a candidate and the bugs chosen before it in one program share an input: in one
/// program the first bug to reach its final state ends the run, so either way one
/// trigger would fire the other bug.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Interference {
    /// On an earlier bug's trigger it reaches its final state first.
    pub takes_a_trigger: bool,
    /// On its own trigger an earlier bug reaches its final state first.
    pub loses_its_trigger: bool,
}

impl Interference {
    /// Either way.
    fn any(self) -> bool {
        self.takes_a_trigger || self.loses_its_trigger
    }
}

/// The kinds of input whose fire rate decides, in report order.
const GATING: [Source; 3] = [Source::Mutated, Source::Random, Source::Pool];
/// Every kind measured, in report order: the gating ones, then the trigger's mutations.
const MEASURED: [Source; 4] = [
    Source::Mutated,
    Source::Random,
    Source::Pool,
    Source::NearTrigger,
];

impl Rates {
    /// The rates a verification measured on the pool, random, mutated and near-trigger
    /// inputs (and whether the trigger fired on augur replay's build).
    pub fn of(v: &Verification) -> Rates {
        Rates {
            trigger_fires: v.trigger_fires,
            tallies: MEASURED.iter().map(|&s| (s, v.tally(s))).collect(),
            interference: Interference::default(),
        }
    }

    /// May it be picked at all: its trigger fires it, and in one program no other bug
    /// first?
    fn usable(&self) -> bool {
        self.trigger_fires && !self.interference.any()
    }

    /// The counts of kind `s`, creating them.
    fn tally_mut(&mut self, s: Source) -> &mut Tally {
        if let Some(i) = self.tallies.iter().position(|(x, _)| *x == s) {
            return &mut self.tallies[i].1;
        }
        self.tallies.push((s, Tally::default()));
        &mut self.tallies.last_mut().expect("just pushed").1
    }

    /// The fire rate of kind `s`, if any of it was tried.
    fn rate(&self, s: Source) -> Option<f64> {
        let t = self.tallies.iter().find(|(x, _)| *x == s)?.1;
        (t.tried > 0).then(|| t.fired as f64 / t.tried as f64)
    }

    /// The highest fire rate over the gating kinds tried (0 when none was).
    pub fn worst(&self) -> f64 {
        GATING
            .iter()
            .filter_map(|&s| self.rate(s))
            .fold(0.0, f64::max)
    }

    /// The fire rate on mutations of the trigger (0 when none was tried).
    pub fn near_trigger(&self) -> f64 {
        self.rate(Source::NearTrigger).unwrap_or(0.0)
    }

    /// Does every gating kind fire it on at most `max` of its inputs?
    pub fn rare(&self, max: f64) -> bool {
        self.worst() <= max
    }

    /// Rarer than `other`: by the gating kinds' worst rate, then near its trigger.
    fn cmp_rarity(&self, other: &Rates) -> std::cmp::Ordering {
        self.worst()
            .total_cmp(&other.worst())
            .then(self.near_trigger().total_cmp(&other.near_trigger()))
    }

    /// How often it fired, the kinds tried only, the non-gating one marked: `12/250
    /// mutated (4.8%), 0/250 random (0.0%), 40/250 near-trigger (16.0%, not gating)`.
    pub fn describe(&self) -> String {
        let kinds: Vec<String> = MEASURED
            .iter()
            .filter_map(|&s| {
                let t = self.tallies.iter().find(|(x, _)| *x == s)?.1;
                (t.tried > 0).then(|| {
                    let pct = 100.0 * t.fired as f64 / t.tried as f64;
                    let kind = s.name().trim_end_matches('s').replace('_', "-");
                    let gating = if GATING.contains(&s) {
                        ""
                    } else {
                        ", not gating"
                    };
                    format!("{}/{} {kind} ({pct:.1}%{gating})", t.fired, t.tried)
                })
            })
            .collect();
        kinds.join(", ")
    }
}

/// The bug numbers a run of a measuring build reported reaching their final state, in
/// the order they reached it.
fn marks(run: &augur_env::NativeRun) -> Vec<usize> {
    run.outputs
        .iter()
        .filter(|(name, bytes)| name == MARK && bytes.len() == 4)
        .map(|(_, b)| i32::from_ne_bytes([b[0], b[1], b[2], b[3]]) as usize)
        .collect()
}

/// Of the bugs `a` and `b`, which reached its final state first in a run that reported
/// `fired` (in order); in one program, that one fails and ends the run.
fn first_of(fired: &[usize], a: usize, b: usize) -> Option<usize> {
    fired.iter().copied().find(|&m| m == a || m == b)
}

/// One candidate bug in a measuring build: its number there and its trigger.
pub struct Candidate<'a> {
    /// Its number (the mark it outputs).
    pub mark: usize,
    /// Its triggering input.
    pub trigger: &'a Objects,
}

/// What a measuring build runs on besides the candidates' triggers.
pub struct Inputs<'a> {
    /// The program's own tests (`--pool`).
    pub pool: &'a [Objects],
    /// The program's own inputs to mutate ([`measure::own_inputs`]).
    pub own: &'a [Objects],
    /// Random and mutated inputs (`--measure`): half random, half mutations of `own`,
    /// and as many mutations of each trigger.
    pub n: usize,
    /// The bugs chosen before that share the program (`--one-program`), embedded in the
    /// measuring build too, with their triggers.
    pub others: &'a [Candidate<'a>],
    /// Run the mutations of each trigger too (reported, not gating)?
    pub near_trigger: bool,
}

/// An input of a measuring run: its kind (none: a trigger) and the trigger it is or
/// mutates.
type Measuring = (Objects, Option<Source>, Option<usize>);

/// Run the measuring `build` on each candidate's trigger, the pool tests, `n / 2`
/// random inputs (shaped as the first trigger), `n - n / 2` mutations of the program's
/// own inputs and as many of each distinct trigger (from `rng`), until `deadline`; each
/// candidate's rates count the pool, the random inputs, the mutations of the own inputs
/// and those of its own trigger.
pub fn measure(
    build: &Build,
    cands: &[Candidate],
    given: &Inputs,
    rng: &mut Rng,
    deadline: Option<Instant>,
) -> Vec<Rates> {
    let mut rates = vec![Rates::default(); cands.len()];
    let Some(first) = cands.first() else {
        return rates;
    };
    let mut triggers: Vec<&Objects> = Vec::new();
    for c in cands {
        if !triggers.contains(&c.trigger) {
            triggers.push(c.trigger);
        }
    }
    let n = given.n;
    let mut inputs: Vec<Measuring> = Vec::new();
    for (i, t) in triggers.iter().enumerate() {
        inputs.push(((*t).clone(), None, Some(i)));
    }
    let mut add = |kind: Source, tests: Vec<Objects>| {
        inputs.extend(tests.into_iter().map(|t| (t, Some(kind), None)));
    };
    add(Source::Pool, given.pool.to_vec());
    add(Source::Random, measure::random(first.trigger, n / 2, rng));
    add(
        Source::Mutated,
        measure::mutated_among(given.own, n - n / 2, rng),
    );
    for (i, t) in triggers.iter().enumerate().filter(|_| given.near_trigger) {
        let near = measure::mutated(t, n - n / 2, rng);
        inputs.extend(
            near.into_iter()
                .map(|m| (m, Some(Source::NearTrigger), Some(i))),
        );
    }
    // In one program the first bug to reach its final state ends the run: a candidate
    // reached before another bug on that bug's trigger, or after one on its own, would
    // take or lose a trigger.
    let overtaken = |fired: &[usize], c: usize| {
        given
            .others
            .iter()
            .any(|o| first_of(fired, c, o.mark).is_some_and(|m| m != c))
    };
    for other in given.others {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let Ok(run) = build.run(other.trigger) else {
            continue;
        };
        let fired = marks(&run);
        for (c, r) in cands.iter().zip(rates.iter_mut()) {
            r.interference.takes_a_trigger |= first_of(&fired, c.mark, other.mark) == Some(c.mark);
        }
    }
    let runs = augur_env::map_in_order(
        &inputs,
        deadline,
        |_| true,
        |(input, _, _)| build.run(input).ok().map(|run| marks(&run)),
    );
    for ((_, source, of), fired) in inputs.iter().zip(runs) {
        let Some(fired) = fired else {
            continue;
        };
        for (c, r) in cands.iter().zip(rates.iter_mut()) {
            let own = of.is_some_and(|i| triggers[i] == c.trigger);
            let hit = fired.contains(&c.mark);
            match source {
                None if own => {
                    r.trigger_fires = hit;
                    r.interference.loses_its_trigger |= overtaken(&fired, c.mark);
                }
                Some(Source::NearTrigger) if !own => {}
                Some(s) => {
                    let t = r.tally_mut(*s);
                    t.tried += 1;
                    t.fired += usize::from(hit);
                }
                None => {}
            }
        }
    }
    rates
}

/// Why no candidate was picked: the rarest one whose trigger fires it, if any, and
/// the reason, with its rates.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The rarest candidate whose trigger fires it.
    pub rarest: Option<usize>,
    /// Why none was picked.
    pub why: String,
}

/// Candidates measured again, at most, before a bug number gives up on its group.
pub const CONFIRMATIONS: usize = 3;

/// The candidates fit to emit, best first: those whose trigger fires them and that fire
/// on at most `max` of each gating kind of input, the ones whose last point is in a file
/// no earlier bug's is (`fresh`) first; then by their gating fire rate, then their rate
/// near their trigger (then their order). None rare enough: why not, with the rarest
/// candidate's rates.
pub fn ranked(rates: &[Rates], fresh: &[bool], max: f64) -> Result<Vec<usize>, Refusal> {
    let mut ok: Vec<usize> = (0..rates.len())
        .filter(|&i| rates[i].usable() && rates[i].rare(max))
        .collect();
    ok.sort_by(|&a, &b| {
        fresh[b]
            .cmp(&fresh[a])
            .then(rates[a].cmp_rarity(&rates[b]))
            .then(a.cmp(&b))
    });
    if !ok.is_empty() {
        return Ok(ok);
    }
    let usable = (0..rates.len()).filter(|&i| rates[i].usable());
    let Some(best) = usable.min_by(|&a, &b| rates[a].cmp_rarity(&rates[b])) else {
        let firing: Vec<&Rates> = rates.iter().filter(|r| r.trigger_fires).collect();
        let why = if !firing.is_empty() {
            let count =
                |f: fn(&Interference) -> bool| firing.iter().filter(|r| f(&r.interference)).count();
            format!(
                "every candidate whose trigger fires it ({} of {}) shares an input with \
                 a bug chosen before: {} fire on an earlier bug's trigger before it, on \
                 the triggers of {} an earlier bug fires first",
                firing.len(),
                rates.len(),
                count(|i| i.takes_a_trigger),
                count(|i| i.loses_its_trigger),
            )
        } else {
            format!(
                "no candidate's trigger fires it on the measuring build ({} candidate(s))",
                rates.len()
            )
        };
        return Err(Refusal { rarest: None, why });
    };
    Err(Refusal {
        rarest: Some(best),
        why: format!(
            "too common: the rarest of {} candidate(s) fires on {} (--max-fire-rate {})",
            rates.len(),
            rates[best].describe(),
            max
        ),
    })
}

/// The first of `ranked` (at most [`CONFIRMATIONS`] of them) that stays usable and rare
/// (at most `max`) when measured again (`again`: its rates on fresh inputs): the rarest
/// of many candidates on one measurement is favoured by the luck of that measurement (a
/// candidate firing on 0.4% of inputs misses all of 500 one time in seven), so the pick
/// is measured once more before it is kept. Err: the last one tried, with its second
/// rates.
pub fn confirmed(
    ranked: &[usize],
    max: f64,
    mut again: impl FnMut(usize) -> Rates,
) -> Result<usize, (usize, Rates)> {
    let mut last = None;
    for &i in ranked.iter().take(CONFIRMATIONS) {
        let rates = again(i);
        if rates.usable() && rates.rare(max) {
            return Ok(i);
        }
        last = Some((i, rates));
    }
    Err(last.expect("a candidate to confirm"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The candidate [`ranked`] puts first.
    fn pick(rates: &[Rates], fresh: &[bool], max: f64) -> Result<usize, Refusal> {
        ranked(rates, fresh, max).map(|r| r[0])
    }

    fn tally((fired, tried): (usize, usize)) -> Tally {
        Tally {
            tried,
            fired,
            same: tried - fired,
            ..Tally::default()
        }
    }

    /// Rates on mutations of the own inputs, random inputs and mutations of the trigger.
    fn rates(fires: bool, mutated: (usize, usize), random: (usize, usize)) -> Rates {
        near(fires, mutated, random, (0, 0))
    }

    fn near(
        fires: bool,
        mutated: (usize, usize),
        random: (usize, usize),
        near: (usize, usize),
    ) -> Rates {
        Rates {
            trigger_fires: fires,
            interference: Interference::default(),
            tallies: vec![
                (Source::Mutated, tally(mutated)),
                (Source::Random, tally(random)),
                (Source::NearTrigger, tally(near)),
            ],
        }
    }

    #[test]
    fn a_common_candidate_is_never_picked() {
        let common = rates(true, (300, 500), (0, 500));
        let rare = rates(true, (0, 500), (0, 500));
        let silent = rates(false, (0, 500), (0, 500));
        let max = 0.001;
        assert_eq!(
            pick(&[common.clone(), rare.clone()], &[true, true], max),
            Ok(1)
        );
        assert_eq!(
            pick(&[silent.clone(), common.clone()], &[true, true], max),
            Err(Refusal {
                rarest: Some(1),
                why: "too common: the rarest of 2 candidate(s) fires on 300/500 mutated (60.0%), 0/500 random (0.0%) (--max-fire-rate 0.001)".into()
            })
        );
        let none = pick(&[silent], &[true], max).unwrap_err();
        assert_eq!(none.rarest, None);
        assert!(none.why.starts_with("no candidate's trigger fires it"));
        // One mutation in 500 is 0.2%: too common at 0.1%, rare enough at 1%.
        let once = rates(true, (1, 500), (0, 500));
        assert!(pick(std::slice::from_ref(&once), &[true], max).is_err());
        assert_eq!(pick(&[once], &[true], 0.01), Ok(0));
    }

    #[test]
    fn mutations_of_the_own_inputs_gate_and_those_of_the_trigger_do_not() {
        let max = 0.001;
        // Common near its trigger (60%), rare on mutations of the program's own inputs:
        // picked.
        let near_only = near(true, (0, 500), (0, 500), (300, 500));
        assert_eq!(pick(std::slice::from_ref(&near_only), &[true], max), Ok(0));
        assert!(near_only.rare(max));
        assert_eq!(near_only.worst(), 0.0);
        // Common on mutations of the own inputs, rare near its trigger: refused, with
        // both rates in the reason.
        let own_common = near(true, (40, 500), (0, 500), (0, 500));
        assert_eq!(
            pick(std::slice::from_ref(&own_common), &[true], max),
            Err(Refusal {
                rarest: Some(0),
                why: "too common: the rarest of 1 candidate(s) fires on 40/500 mutated (8.0%), 0/500 random (0.0%), 0/500 near-trigger (0.0%, not gating) (--max-fire-rate 0.001)".into()
            })
        );
        // Both rare enough: the one rarer near its trigger, whatever the order.
        let nearer = near(true, (0, 500), (0, 500), (100, 500));
        assert_eq!(
            pick(&[near_only.clone(), nearer.clone()], &[true, true], max),
            Ok(1)
        );
        assert_eq!(pick(&[nearer, near_only], &[true, true], max), Ok(0));
        // None rare enough: the rarest by the gating kinds is named, whatever its rate
        // near the trigger.
        let worse = near(true, (50, 500), (0, 500), (0, 500));
        let better = near(true, (5, 500), (0, 500), (450, 500));
        assert_eq!(
            pick(&[worse, better], &[true, true], max)
                .unwrap_err()
                .rarest,
            Some(1)
        );
    }

    #[test]
    fn a_pick_is_kept_only_if_rare_when_measured_again() {
        let rare = rates(true, (0, 500), (0, 500));
        let common = rates(true, (3, 500), (0, 500));
        let second = [common.clone(), rare.clone(), rare.clone(), rare];
        let mut asked = Vec::new();
        let mut again = |i: usize| {
            asked.push(i);
            second[i].clone()
        };
        assert_eq!(confirmed(&[0, 2, 1], 0.001, &mut again), Ok(2));
        assert_eq!(
            asked,
            [0, 2],
            "measured again in rank order, until one stays rare"
        );
        let failing = |_| common.clone();
        assert_eq!(
            confirmed(&[3, 1, 0, 2], 0.001, failing),
            Err((0, common.clone())),
            "three at most"
        );
    }

    #[test]
    fn in_one_program_a_candidate_sharing_a_trigger_with_a_chosen_bug_is_not_picked() {
        let rare = rates(true, (0, 500), (0, 500));
        let shared = Rates {
            interference: Interference {
                takes_a_trigger: true,
                loses_its_trigger: false,
            },
            ..rare.clone()
        };
        assert_eq!(
            pick(&[shared.clone(), rare.clone()], &[true, true], 0.001),
            Ok(1)
        );
        let overtaken = Rates {
            interference: Interference {
                takes_a_trigger: false,
                loses_its_trigger: true,
            },
            ..rare.clone()
        };
        assert_eq!(
            pick(&[overtaken.clone(), rare], &[true, true], 0.001),
            Ok(1)
        );
        let refusal = pick(&[shared.clone(), shared, overtaken], &[true; 3], 0.001).unwrap_err();
        assert_eq!(refusal.rarest, None);
        assert_eq!(
            refusal.why,
            "every candidate whose trigger fires it (3 of 3) shares an input with a bug \
             chosen before: 2 fire on an earlier bug's trigger before it, on the triggers of \
             1 an earlier bug fires first"
        );
    }

    #[test]
    fn a_fresh_file_comes_first_then_the_rarest() {
        let a = rates(true, (0, 500), (0, 500));
        let b = rates(true, (0, 500), (0, 500));
        let c = rates(true, (0, 900), (0, 500));
        assert_eq!(pick(&[a.clone(), b.clone()], &[false, true], 0.0), Ok(1));
        assert_eq!(pick(&[a, b, c], &[false, false, false], 0.0), Ok(0));
        let worse = rates(true, (2, 1000), (0, 500));
        let better = rates(true, (1, 1000), (0, 500));
        assert_eq!(pick(&[worse, better], &[true, true], 0.01), Ok(1));
    }

    #[test]
    fn rates_describe_the_kinds_tried() {
        let r = rates(true, (3, 200), (0, 0));
        assert_eq!(r.describe(), "3/200 mutated (1.5%)");
        assert!((r.worst() - 0.015).abs() < 1e-12);
        assert!(r.rare(0.015) && !r.rare(0.01));
        let n = near(true, (0, 200), (0, 0), (150, 200));
        assert_eq!(
            n.describe(),
            "0/200 mutated (0.0%), 150/200 near-trigger (75.0%, not gating)"
        );
        assert_eq!((n.worst(), n.near_trigger()), (0.0, 0.75));
    }
}
