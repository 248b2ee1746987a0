//! Measured rarity as the selection criterion: the candidate bugs synthesized for one
//! bug number are embedded together into one measuring build (each outputs its number
//! instead of failing, [`crate::embed::embed_marked`]), which runs once on each of the
//! program's own tests, random inputs and mutations of each candidate's trigger; the
//! share of each kind that reaches a candidate's final state is its fire rate, and a
//! candidate is kept only if its trigger fires it and no kind fires it more often than
//! `--max-fire-rate`.

use crate::builds::Build;
use crate::embed::MARK;
use crate::measure;
use crate::verify::{Objects, Source, Tally, Verification};
use augur_engine::Rng;
use rustc_hash::FxHashSet;
use std::time::Instant;

/// How often one bug fired, per kind of measuring input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rates {
    /// Did its own trigger fire it?
    pub trigger_fires: bool,
    /// Per kind (pool, random, mutated): inputs tried and fired.
    pub tallies: Vec<(Source, Tally)>,
}

/// The kinds of input rarity is measured on, in report order.
const MEASURED: [Source; 3] = [Source::Mutated, Source::Random, Source::Pool];

impl Rates {
    /// The rates a verification measured on the pool, random and mutated inputs (and
    /// whether the trigger fired on augur replay's build).
    pub fn of(v: &Verification) -> Rates {
        Rates {
            trigger_fires: v.trigger_fires,
            tallies: MEASURED.iter().map(|&s| (s, v.tally(s))).collect(),
        }
    }

    /// The counts of kind `s`, creating them.
    fn tally_mut(&mut self, s: Source) -> &mut Tally {
        if let Some(i) = self.tallies.iter().position(|(x, _)| *x == s) {
            return &mut self.tallies[i].1;
        }
        self.tallies.push((s, Tally::default()));
        &mut self.tallies.last_mut().expect("just pushed").1
    }

    /// The highest fire rate over the kinds tried (0 when none was).
    pub fn worst(&self) -> f64 {
        self.tallies
            .iter()
            .filter(|(_, t)| t.tried > 0)
            .map(|(_, t)| t.fired as f64 / t.tried as f64)
            .fold(0.0, f64::max)
    }

    /// Does every kind fire it on at most `max` of its inputs?
    pub fn rare(&self, max: f64) -> bool {
        self.worst() <= max
    }

    /// How often it fired: `12/250 mutated (4.8%), 0/250 random`, the kinds tried only.
    pub fn describe(&self) -> String {
        let kinds: Vec<String> = MEASURED
            .iter()
            .filter_map(|&s| {
                let t = self.tallies.iter().find(|(x, _)| *x == s)?.1;
                (t.tried > 0).then(|| {
                    let pct = 100.0 * t.fired as f64 / t.tried as f64;
                    let kind = s.name().trim_end_matches('s');
                    format!("{}/{} {kind} ({pct:.1}%)", t.fired, t.tried)
                })
            })
            .collect();
        kinds.join(", ")
    }
}

/// The bug numbers a run of a measuring build reported reaching their final state.
fn marks(run: &augur_env::NativeRun) -> FxHashSet<usize> {
    run.outputs
        .iter()
        .filter(|(name, bytes)| name == MARK && bytes.len() == 4)
        .map(|(_, b)| i32::from_ne_bytes([b[0], b[1], b[2], b[3]]) as usize)
        .collect()
}

/// One candidate bug in a measuring build: its number there and its trigger.
pub struct Candidate<'a> {
    /// Its number (the mark it outputs).
    pub mark: usize,
    /// Its triggering input.
    pub trigger: &'a Objects,
}

/// Run the measuring `build` on each candidate's trigger, the `pool` tests, `n / 2`
/// random inputs (shaped as the first trigger) and `n - n / 2` mutations of each
/// distinct trigger (from `rng`), until `deadline`; each candidate's rates count the
/// pool, the random inputs and the mutations of its own trigger.
pub fn measure(
    build: &Build,
    cands: &[Candidate],
    pool: &[Objects],
    n: usize,
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
    // (input, its kind (none: a trigger), the trigger it is or mutates)
    let mut inputs: Vec<(Objects, Option<Source>, Option<usize>)> = Vec::new();
    for (i, t) in triggers.iter().enumerate() {
        inputs.push(((*t).clone(), None, Some(i)));
    }
    inputs.extend(pool.iter().map(|t| (t.clone(), Some(Source::Pool), None)));
    let random = measure::random(first.trigger, n / 2, rng);
    inputs.extend(random.into_iter().map(|t| (t, Some(Source::Random), None)));
    for (i, t) in triggers.iter().enumerate() {
        let mutants = measure::mutated(t, n - n / 2, rng);
        inputs.extend(
            mutants
                .into_iter()
                .map(|m| (m, Some(Source::Mutated), Some(i))),
        );
    }
    for (input, source, of) in &inputs {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let Ok(run) = build.run(input) else {
            continue;
        };
        let fired = marks(&run);
        for (c, r) in cands.iter().zip(rates.iter_mut()) {
            let own = of.is_some_and(|i| triggers[i] == c.trigger);
            let hit = fired.contains(&c.mark);
            match source {
                None if own => r.trigger_fires = hit,
                Some(Source::Mutated) if !own => {}
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

/// Which candidate to emit: among those whose trigger fires them and that fire on at
/// most `max` of each kind of input, the first whose last point is in a file no earlier
/// bug's is (`fresh`), else the first; the rest by their fire rate (then their order).
/// None rare enough: why not, with the rarest candidate's rates.
pub fn pick(rates: &[Rates], fresh: &[bool], max: f64) -> Result<usize, Refusal> {
    let mut ok: Vec<usize> = (0..rates.len())
        .filter(|&i| rates[i].trigger_fires && rates[i].rare(max))
        .collect();
    ok.sort_by(|&a, &b| {
        (!fresh[a], rates[a].worst())
            .partial_cmp(&(!fresh[b], rates[b].worst()))
            .expect("rates are numbers")
            .then(a.cmp(&b))
    });
    if let Some(&i) = ok.first() {
        return Ok(i);
    }
    let firing: Vec<usize> = (0..rates.len())
        .filter(|&i| rates[i].trigger_fires)
        .collect();
    let Some(&best) = firing
        .iter()
        .min_by(|&&a, &&b| rates[a].worst().total_cmp(&rates[b].worst()))
    else {
        return Err(Refusal {
            rarest: None,
            why: format!(
                "no candidate's trigger fires it on the measuring build ({} candidate(s))",
                rates.len()
            ),
        });
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

#[cfg(test)]
mod tests {
    use super::*;

    fn rates(fires: bool, mutated: (usize, usize), random: (usize, usize)) -> Rates {
        let t = |(fired, tried)| Tally {
            tried,
            fired,
            same: tried - fired,
            differed: 0,
        };
        Rates {
            trigger_fires: fires,
            tallies: vec![(Source::Mutated, t(mutated)), (Source::Random, t(random))],
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
    }
}
