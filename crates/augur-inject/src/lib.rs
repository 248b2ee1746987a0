//! augur-inject: rare, deep, verified bugs with their triggers (Apocalypse, seeds/003).
//!
//! The driver ([`inject`]): seed paths from the user's tests or a bounded exploration
//! ([`seeds`]), each run in seeded mode while an observer records the integer source
//! variables at the start of line visits ([`seeded`]), locals only where every path
//! has assigned them ([`assigned`]); transition points chosen on the
//! path ([`points`]); one predicate per point synthesized by hill climbing over
//! near-uniform samples of the path condition, drawn from the bytes' possible values,
//! and the mutations of the seed input the predicates let through ([`synth`],
//! [`sample`], [`space`], [`predicate`], [`mutants`]); the candidates of a bug measured
//! together on one native build and the one rare enough chosen ([`rarity`]);
//! the error transition system embedded into the C source ([`embed`]) and verified
//! natively on several independent builds ([`builds`], [`verify`]), its rarity measured
//! on the program's own tests and random and mutated inputs ([`measure`]); the corpus
//! written by [`report`]. A program given as a source tree is built, patched and rebuilt
//! by its own build command ([`project`]).

mod assigned;
mod builds;
mod driver;
mod embed;
mod indexed;
mod measure;
mod mutants;
mod names;
mod points;
mod predicate;
mod project;
mod rarity;
mod report;
mod sample;
mod sanitizer_reports;
mod seeded;
mod seeds;
mod setup;
mod space;
mod string_args;
mod synth;
mod verify;
mod word_bounds;

pub use driver::{driver, Bug, Config, InjectOptions, Outcome};
pub use embed::Kind;
pub use project::{Built, Project};
pub use report::{summary_json, table};
pub use setup::Setup;
pub use verify::Objects;
