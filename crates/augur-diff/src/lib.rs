//! augur-diff: tell N revisions of a program apart (Psychic). The revisions (whole files,
//! or unified diffs over a base materialised by [`patch`]) are merged into one meta program
//! ([`meta`]) and explored once; pairs of halted paths of different revisions give
//! differential tests ([`difftest`]); every test runs on every revision ([`rerun`]); the
//! revisions are clustered and the tests arranged into a decision tree of minimal height
//! ([`tree`]). [`driver`] runs it all, [`report`] writes the results.

#![warn(missing_docs)]

pub mod blocks;
pub mod constness;
pub mod difftest;
pub mod driver;
pub mod extension;
pub mod halts;
pub mod handwritten;
pub mod instmap;
pub mod meta;
pub mod pairs;
pub mod patch;
pub mod remap;
pub mod report;
pub mod rerun;
pub mod stubs;
pub mod tree;
