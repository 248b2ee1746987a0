//! Merging several output directories of one exploration (the shards of a split, and
//! the split's own) into one: tests renumbered, summaries summed, coverage united, errors
//! deduplicated by kind and place as one run does. A part whose run was killed (no
//! summary.json) still gives every test it wrote; its counts then come from those tests.

use serde_json::{json, Value as Json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Whether `out` holds no augur run (no test, no summary): a directory to merge into.
pub fn is_empty_dir(out: &Path) -> bool {
    list_tests(out).is_empty() && !out.join("summary.json").exists()
}

/// How tests get into the merged directory.
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Transfer {
    /// Copied (the parts stay as they are).
    Copy,
    /// Moved (the parts are augur's own scratch).
    Move,
}

/// A merged run: its summary and coverage, not yet written.
pub struct Merged {
    /// summary.json.
    pub summary: Json,
    /// Per source file, each line with code and whether a part covered it.
    lcov: BTreeMap<String, BTreeMap<u32, bool>>,
}

impl Merged {
    /// Write summary.json and coverage.lcov into `dir`.
    pub fn write(&self, dir: &Path) -> Result<(), String> {
        let fail = |e: std::io::Error| format!("{}: cannot write summary: {e}", dir.display());
        let json = serde_json::to_vec_pretty(&self.summary).expect("summary serialises");
        augur_engine::write_file(&dir.join("summary.json"), &json).map_err(fail)?;
        let by_file: Vec<(String, Vec<(u32, bool)>)> = self
            .lcov
            .iter()
            .map(|(f, lines)| (f.clone(), lines.iter().map(|(l, h)| (*l, *h)).collect()))
            .collect();
        let lcov = augur_engine::lcov_text(&by_file);
        augur_engine::write_file(&dir.join("coverage.lcov"), lcov.as_bytes()).map_err(fail)
    }
}

/// Counters summed over the parts.
const SUMMED: [&str; 8] = [
    "paths_completed",
    "paths_partial",
    "partial_without_test",
    "tests_not_written",
    "instructions",
    "forks",
    "concretizations",
    "float_concretizations",
];

/// Solver counters summed over the parts.
const SOLVER_SUMMED: [&str; 13] = [
    "queries",
    "solver_calls",
    "cache_hits",
    "fast_path",
    "order_unsat",
    "exhaustive",
    "timeouts",
    "abandoned",
    "sampled",
    "wrong_models",
    "cross_checks",
    "cross_check_mismatches",
    "time_s",
];

/// Merge the output directories `parts` into `out` (which exists): the tests of each part
/// in order, renumbered from 1.
pub fn merge(parts: &[PathBuf], out: &Path, how: Transfer) -> Result<Merged, String> {
    let mut merger = Merger::new(out, how);
    for part in parts {
        merger.add(part)?;
    }
    Ok(merger.finish())
}

/// A merge in progress: parts are added one by one (as the shards of `--jobs` finish).
/// The summary's `time_s` is the longest part's (the wall time when the parts ran side by
/// side), `worker_time_s` their sum.
pub struct Merger {
    out: PathBuf,
    how: Transfer,
    parts: usize,
    sum: Summer,
}

impl Merger {
    /// A merge into `out` (which exists), transferring tests `how`.
    pub fn new(out: &Path, how: Transfer) -> Self {
        Merger {
            out: out.to_path_buf(),
            how,
            parts: 0,
            sum: Summer::default(),
        }
    }

    /// Add the output directory `part`: its tests get the next numbers.
    pub fn add(&mut self, part: &Path) -> Result<(), String> {
        if !part.is_dir() {
            return Err(format!("{}: not an output directory", part.display()));
        }
        let sum = &mut self.sum;
        let summary = read_summary(part)?;
        let mut numbers = BTreeMap::new();
        let mut tests = Vec::new();
        for (local, json) in list_tests(part) {
            sum.tests += 1;
            numbers.insert(local, sum.tests);
            let stem = self.out.join(format!("test{:06}", sum.tests));
            transfer_test(&json, &stem, self.how)?;
            tests.push((sum.tests, stem.with_extension("json")));
        }
        match summary {
            Some(s) => sum.add_summary(&s, &numbers),
            None => {
                sum.incomplete.push(part.display().to_string());
                for (n, json) in &tests {
                    sum.add_test(*n, json)?;
                }
            }
        }
        sum.add_lcov(&part.join("coverage.lcov"))?;
        self.parts += 1;
        Ok(())
    }

    /// The merged summary and coverage.
    pub fn finish(self) -> Merged {
        self.sum.finish(self.parts)
    }
}

/// The summary of a part, None if its run did not finish.
fn read_summary(part: &Path) -> Result<Option<Json>, String> {
    let path = part.join("summary.json");
    match std::fs::read(&path) {
        Ok(b) => serde_json::from_slice(&b)
            .map(Some)
            .map_err(|e| format!("{}: not a valid summary: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// The tests of an output directory: (number, path of its .json), by number.
fn list_tests(dir: &Path) -> Vec<(u64, PathBuf)> {
    let mut tests: Vec<(u64, PathBuf)> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path())
                .collect::<Vec<_>>()
        })
        .unwrap_or_default()
        .into_iter()
        .filter_map(|p: PathBuf| {
            let name = p.file_name()?.to_str()?;
            let n = name
                .strip_prefix("test")?
                .strip_suffix(".json")?
                .parse()
                .ok()?;
            Some((n, p))
        })
        .collect();
    tests.sort();
    tests
}

/// Copy or move a test's .json and .ktest (when there is one: a run killed between the
/// two writes left only the .json) to `stem`.json/.ktest.
fn transfer_test(json: &Path, stem: &Path, how: Transfer) -> Result<(), String> {
    for (from, to, required) in [
        (json.to_path_buf(), stem.with_extension("json"), true),
        (
            json.with_extension("ktest"),
            stem.with_extension("ktest"),
            false,
        ),
    ] {
        if how == Transfer::Move && std::fs::rename(&from, &to).is_ok() {
            continue;
        }
        match std::fs::copy(&from, &to) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !required => {}
            Err(e) => {
                let (from, to) = (from.display(), to.display());
                return Err(format!("{from}: cannot copy to {to}: {e}"));
            }
        }
    }
    Ok(())
}

/// The merge's running totals.
#[derive(Default)]
struct Summer {
    tests: u64,
    counts: BTreeMap<&'static str, f64>,
    solver: BTreeMap<&'static str, f64>,
    layers: Option<Json>,
    errors: Vec<Json>,
    seen_errors: BTreeSet<(String, String, u64)>,
    time_max: f64,
    time_sum: f64,
    peak_memory: u64,
    incomplete: Vec<String>,
    lcov: BTreeMap<String, BTreeMap<u32, bool>>,
}

impl Summer {
    /// Add a finished part's summary; `numbers` maps its test numbers to merged ones.
    fn add_summary(&mut self, s: &Json, numbers: &BTreeMap<u64, u64>) {
        for k in SUMMED {
            *self.counts.entry(k).or_default() += s[k].as_f64().unwrap_or(0.0);
        }
        for k in SOLVER_SUMMED {
            *self.solver.entry(k).or_default() += s["solver"][k].as_f64().unwrap_or(0.0);
        }
        self.layers
            .get_or_insert_with(|| s["solver"]["layers"].clone());
        let t = s["time_s"].as_f64().unwrap_or(0.0);
        self.time_max = self.time_max.max(t);
        self.time_sum += t;
        self.peak_memory = self
            .peak_memory
            .max(s["peak_memory_mib"].as_u64().unwrap_or(0));
        for e in s["errors"].as_array().into_iter().flatten() {
            let mut e = e.clone();
            let local = e["test"].as_u64().unwrap_or(0);
            e["test"] = json!(numbers.get(&local).copied().unwrap_or(0));
            self.add_error(e);
        }
    }

    /// Count a test of a part that did not finish: its path, and its error if new.
    fn add_test(&mut self, number: u64, path: &Path) -> Result<(), String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let t: Json = serde_json::from_slice(&bytes)
            .map_err(|e| format!("{}: not a valid test: {e}", path.display()))?;
        let o = &t["outcome"];
        let key = if o["kind"] == "partial" {
            "paths_partial"
        } else {
            "paths_completed"
        };
        *self.counts.entry(key).or_default() += 1.0;
        if o["kind"] == "error" {
            self.add_error(json!({
                "kind": o["error"], "file": o["file"], "line": o["line"],
                "message": o["message"], "test": number,
            }));
        }
        Ok(())
    }

    /// Keep an error if no earlier one has its kind and place.
    fn add_error(&mut self, e: Json) {
        let key = (
            e["kind"].as_str().unwrap_or_default().to_string(),
            e["file"].as_str().unwrap_or_default().to_string(),
            e["line"].as_u64().unwrap_or(0),
        );
        if self.seen_errors.insert(key) {
            self.errors.push(e);
        }
    }

    /// Unite a part's coverage.lcov (if it has one) into the merged coverage.
    fn add_lcov(&mut self, path: &Path) -> Result<(), String> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let mut file = None;
        for line in text.lines() {
            if let Some(f) = line.strip_prefix("SF:") {
                file = Some(f.to_string());
            } else if let (Some(da), Some(f)) = (line.strip_prefix("DA:"), &file) {
                let parsed = da
                    .split_once(',')
                    .and_then(|(l, h)| Some((l.parse::<u32>().ok()?, h.parse::<u64>().ok()?)));
                let (l, hits) =
                    parsed.ok_or_else(|| format!("{}: bad line `{line}`", path.display()))?;
                *self
                    .lcov
                    .entry(f.clone())
                    .or_default()
                    .entry(l)
                    .or_default() |= hits > 0;
            }
        }
        Ok(())
    }

    /// The merged summary of `parts` parts.
    fn finish(self, parts: usize) -> Merged {
        let count = |k: &str| self.counts.get(k).copied().unwrap_or(0.0) as u64;
        let solver = |k: &str| self.solver.get(k).copied().unwrap_or(0.0);
        let total: usize = self.lcov.values().map(BTreeMap::len).sum();
        let covered: usize = self
            .lcov
            .values()
            .map(|ls| ls.values().filter(|h| **h).count())
            .sum();
        let mut summary = json!({
            "tests": self.tests,
            "errors": self.errors,
            "time_s": self.time_max,
            "worker_time_s": self.time_sum,
            "peak_memory_mib": self.peak_memory,
            "solver": {"layers": self.layers.unwrap_or(Json::Null)},
            "coverage": {"lines_covered": covered, "lines_total": total},
            "parts": parts,
            "parts_incomplete": self.incomplete,
        });
        for k in SUMMED {
            summary[k] = json!(count(k));
        }
        for k in SOLVER_SUMMED {
            summary["solver"][k] = if k == "time_s" {
                json!(solver(k))
            } else {
                json!(solver(k) as u64)
            };
        }
        Merged {
            summary,
            lcov: self.lcov,
        }
    }
}
