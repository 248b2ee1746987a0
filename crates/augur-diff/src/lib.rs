//! augur-diff: telling N revisions of one program apart, after Psychic. Revisions given as
//! unified diffs over a base are materialised by [`patch`]; the differential tests that split
//! them are arranged into a decision tree of minimal height by [`tree`].

#![warn(missing_docs)]

pub mod patch;
pub mod tree;
