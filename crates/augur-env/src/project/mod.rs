//! A project's own build to one bitcode: `augur cc` as its C compiler (cc.rs, reading
//! command lines with args.rs, recording in ELF sections with sections.rs) and `augur
//! extract-bc` (extract.rs).

mod args;
mod cc;
mod extract;
mod sections;

pub use cc::run as cc;
pub use extract::{extract, libs_of, Extracted};
