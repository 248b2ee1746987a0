//! A place where the two computations part, as an unexplained finding of the buggy
//! program.

use super::run::{Known, Run};
use super::{Origin, Why};
use crate::compare::Unexplained;
use crate::rank::weight;
use crate::wp::Kind;
use crate::{Execution, SrcLine, Which};
use std::collections::BTreeSet;

/// A value for people: signed decimal at its width.
fn show(v: Known) -> String {
    match v {
        Some((bits, width)) if width > 0 && width <= 128 => {
            augur_expr::bits::to_signed(bits, width).to_string()
        }
        _ => "?".into(),
    }
}

/// The finding of one origin.
pub(super) fn finding(
    golden: &Execution,
    buggy: &Execution,
    o: &Origin,
    context: &BTreeSet<SrcLine>,
) -> Unexplained {
    let (g, b) = (o.pair.g.def, o.pair.b.def);
    let (gr, br) = (Run { x: golden }, Run { x: buggy });
    let global = match o.why {
        Why::InitialMemory => gr.global_read(g).zip(br.global_read(b)),
        _ => None,
    };
    let (gv, bv) = match &global {
        Some(((_, gi), (_, bi))) => (o.pair.gv.or(*gi), o.pair.bv.or(*bi)),
        None => (o.pair.gv, o.pair.bv),
    };
    let mut lines: BTreeSet<SrcLine> = buggy.line(b).into_iter().collect();
    lines.extend(golden.line(g));
    let value = format!(
        "value at {} is {}, {} is {}",
        buggy.line_text(b),
        show(bv),
        golden.line_text(g),
        show(gv)
    );
    let constraint = match o.why {
        Why::Constant => format!("{value} (another constant)"),
        Why::Operation => format!("{value} (another operation)"),
        Why::InitialMemory => match global {
            Some(((gn, _), (bn, _))) if gn == bn => {
                format!("{value} (read from global `{bn}`, initialised differently)")
            }
            _ => format!("{value} (read from memory the programs initialise differently)"),
        },
        Why::Divergence => {
            let last = o.parent.map(|p| {
                lines.extend(buggy.line(p.b.def));
                lines.extend(golden.line(p.g.def));
                format!(
                    "; last matching step: {} / {}",
                    buggy.line_text(p.b.def),
                    golden.line_text(p.g.def)
                )
            });
            format!("{value} (computed differently{})", last.unwrap_or_default())
        }
        Why::Control => {
            let branches: BTreeSet<SrcLine> = [
                gr.deciding_branch(g).and_then(|i| golden.line(i)),
                br.deciding_branch(b).and_then(|i| buggy.line(i)),
            ]
            .into_iter()
            .flatten()
            .collect();
            if !branches.is_empty() {
                lines = branches;
            }
            format!(
                "{value} (defined on lines that are not versions of one line; decided at {})",
                lines
                    .iter()
                    .map(|l| format!("{}:{}", l.file, l.line))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    };
    Unexplained {
        side: Which::Buggy,
        short: constraint.clone(),
        constraint,
        kind: Kind::Value,
        context: context.union(&lines).cloned().collect(),
        lines,
        weight: match o.why {
            Why::Divergence => weight::DIVERGENCE,
            Why::Control => weight::BRANCH,
            _ => weight::VALUE_ORIGIN,
        },
        entry: None,
        missing_at: BTreeSet::new(),
    }
}
