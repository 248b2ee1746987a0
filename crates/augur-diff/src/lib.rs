//! augur-diff: tell N revisions of a program apart (Psychic). The revisions (whole files,
//! or unified diffs over a base materialised by [`patch`]) are merged into one meta program
//! ([`meta`]) and explored once; pairs of halted paths of different revisions give
//! differential tests ([`difftest`]); every test runs on every revision ([`rerun`]); the
//! revisions are clustered and the tests arranged into a decision tree of minimal height
//! ([`tree`]). [`driver`] runs it all, [`report`] writes the results. The modules are
//! private; what the command line uses is re-exported here.

#![warn(missing_docs)]

mod blocks;
mod constness;
mod difftest;
mod driver;
mod extension;
mod halts;
mod handwritten;
mod meta;
mod pairs;
mod patch;
mod remap;
mod report;
mod rerun;
mod revisions;
mod stubs;
mod tree;

pub use difftest::DiffInput;
pub use driver::{driver, Config, DiffTest, Outcome, EXIT_CODES};
pub use extension::{DiffExtension, DiffPath, NamedOutput, OutputKind, MAX_POINTEE_BYTES};
pub use halts::OutputSelection;
pub use handwritten::hand_written_revisions;
pub use meta::{
    merge, MetaProgram, RevisionProgram, Sites, Version, MAX_REVISIONS, META_DISPATCH, OBSERVE,
};
pub use patch::{apply_patch, base_files, PatchError};
pub use rerun::{show_output, LazyNative, NativeObservation, Natives, Observation, Start};
pub use tree::{DecisionTree, Edge, Node, TestSplit};
