//! The output directory of `augur diff`: `difftests/NNN.json` as tests are found, then
//! `clusters.json`, `tree.txt`, `tree.json`, `tree.dot` and `summary.json`.

use crate::driver::{DiffTest, Outcome};
use crate::meta::Sites;
use crate::tree::TestSplit;
use augur_engine::Executor;
use augur_engine::{summary_json, write_file};
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};

/// Writes a run's results.
pub struct Report {
    dir: PathBuf,
    names: Vec<String>,
    sites: Sites,
}

fn write_json(path: &Path, v: &Json) -> Result<(), String> {
    let bytes = serde_json::to_vec_pretty(v).expect("JSON serialises");
    write_file(path, &bytes).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

impl Report {
    /// A report into `dir` (its `difftests/` created) for revisions `names` of a meta
    /// program with these `sites`.
    pub fn new(dir: &Path, names: Vec<String>, sites: Sites) -> Result<Self, String> {
        let tests = dir.join("difftests");
        std::fs::create_dir_all(&tests)
            .map_err(|e| format!("{}: cannot create: {e}", tests.display()))?;
        Ok(Report {
            dir: dir.to_path_buf(),
            names,
            sites,
        })
    }

    fn pair_names(&self, (a, b): (u32, u32)) -> Json {
        json!([self.names[a as usize], self.names[b as usize]])
    }

    /// Write test number `k` (0-based) as `difftests/NNN.json` (1-based).
    pub fn write_test(&self, k: usize, t: &DiffTest) -> Result<(), String> {
        let observed: serde_json::Map<String, Json> = self
            .names
            .iter()
            .zip(&t.observed)
            .map(|(n, o)| (n.clone(), o.to_json()))
            .collect();
        let v = json!({
            "objects": t.input.objects.iter().map(|(n, b)| json!({"name": n, "bytes": b})).collect::<Vec<_>>(),
            "solved_for": self.pair_names(t.input.pair),
            "outputs_compared": t.input.outputs,
            "observed": observed,
        });
        write_json(
            &self
                .dir
                .join("difftests")
                .join(format!("{:03}.json", k + 1)),
            &v,
        )
    }

    fn class_names(&self, classes: &[Vec<usize>]) -> Json {
        json!(classes
            .iter()
            .map(|c| c.iter().map(|r| self.names[*r].clone()).collect::<Vec<_>>())
            .collect::<Vec<_>>())
    }

    /// Write the clusters, the tree and the summary.
    pub fn finish(&self, dir: &Path, o: &Outcome, splits: &[TestSplit]) -> Result<(), String> {
        let per_test: Vec<Json> = splits
            .iter()
            .map(|s| {
                let mut classes: Vec<Vec<usize>> = vec![Vec::new(); s.describe.len()];
                for (r, l) in s.labels.iter().enumerate() {
                    classes[*l].push(r);
                }
                let described: Vec<Json> = classes
                    .iter()
                    .zip(&s.describe)
                    .map(|(c, d)| json!({"output": d, "revisions": c.iter().map(|r| &self.names[*r]).collect::<Vec<_>>()}))
                    .collect();
                json!({"test": s.name, "classes": described})
            })
            .collect();
        write_json(
            &dir.join("clusters.json"),
            &json!({"classes": self.class_names(&o.classes), "tests": per_test}),
        )?;
        let io =
            |p: PathBuf| move |e: std::io::Error| format!("{}: cannot write: {e}", p.display());
        let text = o.tree.to_text();
        write_file(&dir.join("tree.txt"), text.as_bytes()).map_err(io(dir.join("tree.txt")))?;
        write_json(&dir.join("tree.json"), &o.tree.to_json())?;
        let dot = o.tree.to_dot();
        write_file(&dir.join("tree.dot"), dot.as_bytes()).map_err(io(dir.join("tree.dot")))?;
        write_json(&dir.join("summary.json"), &o.summary)
    }

    /// summary.json of the run of `ex`.
    pub fn summary(&self, o: &Outcome, ex: &Executor) -> Json {
        let n = self.names.len();
        let class_of = |r: usize| o.classes.iter().position(|c| c.contains(&r));
        let mut apart = Vec::new();
        let mut same = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let pair = self.pair_names((a as u32, b as u32));
                if class_of(a) == class_of(b) {
                    same.push(pair);
                } else {
                    apart.push(pair);
                }
            }
        }
        let thorough = o.complete && o.pairing_complete && o.pairs_with_other_inputs == 0;
        let equivalence = match (same.is_empty(), thorough) {
            (true, _) => "every pair of revisions is told apart".to_string(),
            (false, true) => "exploration was complete: revisions in one class behave the same \
                on every input within the explored bounds (a bounded proof of equivalence)"
                .to_string(),
            (false, false) => "exploration or pairing was cut short, or some paths created \
                different inputs: revisions in one class showed no difference on the paths \
                compared, which proves nothing about the rest"
                .to_string(),
        };
        let exploration = summary_json(ex);
        json!({
            "revisions": self.names,
            "classes": self.class_names(&o.classes),
            "pairs_distinguished": apart,
            "pairs_without_difference": same,
            "exploration_complete": o.complete,
            "pairing_complete": o.pairing_complete,
            "pairs_with_other_inputs": o.pairs_with_other_inputs,
            "equivalence": equivalence,
            "differential_tests": o.tests.len(),
            "native_disagreements": o.tests.iter().flat_map(|t| &t.observed).filter(|ob| ob.native.as_ref().is_some_and(|n| !n.agrees)).count(),
            "tree_height": o.tree.height(),
            "tree_exact": o.tree.exact,
            "dispatched_functions": self.sites.dispatched,
            "dispatched_inside": self.sites.dispatched_inside,
            "observed_functions": self.sites.observed,
            "instructions": exploration["instructions"],
            "paths_completed": exploration["paths_completed"],
            "paths_partial": exploration["paths_partial"],
            "solver": exploration["solver"],
            "time_s": exploration["time_s"],
            "peak_memory_mib": exploration["peak_memory_mib"],
        })
    }
}
