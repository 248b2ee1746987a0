//! What a solver chain is made of: which optional layers are on, Z3's time limit, the
//! query log and the cross-check.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

/// An optional layer of the chain (Z3, at the end, is always there).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Layer {
    /// Decides constant constraints without solving.
    FastPath,
    /// Drops constraints unrelated to the query and solves independent groups apart.
    Independence,
    /// Answers repeated constraint sets.
    QueryCache,
    /// Refutes constraint sets whose comparisons contradict each other as orders.
    Order,
    /// Reuses recent models and known-unsatisfiable subsets.
    CexCache,
    /// Decides queries over at most two input bytes by trying every value of them.
    Exhaustive,
}

impl Layer {
    /// Every optional layer, front to back.
    pub const ALL: [Layer; 6] = [
        Layer::FastPath,
        Layer::Independence,
        Layer::QueryCache,
        Layer::Order,
        Layer::CexCache,
        Layer::Exhaustive,
    ];

    /// The layer's name in a layer list.
    pub fn name(self) -> &'static str {
        match self {
            Layer::FastPath => "fast",
            Layer::Independence => "independence",
            Layer::QueryCache => "query-cache",
            Layer::Order => "order",
            Layer::CexCache => "cex-cache",
            Layer::Exhaustive => "exhaustive",
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A set of optional layers. As text: a comma-separated list of layer names
/// (`fast,independence,query-cache,order,cex-cache,exhaustive`), `all` or `none`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layers(u8);

impl Layers {
    /// Every optional layer (the default chain).
    pub const ALL: Layers = Layers(0b11_1111);
    /// No optional layer: every query goes straight to Z3.
    pub const NONE: Layers = Layers(0);

    /// Whether `layer` is on.
    pub fn contains(self, layer: Layer) -> bool {
        self.0 & layer.bit() != 0
    }

    /// This set with `layer` switched off.
    pub fn without(self, layer: Layer) -> Layers {
        Layers(self.0 & !layer.bit())
    }

    /// This set with `layer` switched on.
    pub fn with(self, layer: Layer) -> Layers {
        Layers(self.0 | layer.bit())
    }
}

impl Default for Layers {
    fn default() -> Self {
        Layers::ALL
    }
}

impl FromStr for Layers {
    type Err = String;

    /// Parses a layer list; `all` and `none` stand alone.
    fn from_str(list: &str) -> Result<Layers, String> {
        let names: Vec<&str> = list.split(',').map(str::trim).collect();
        match names.as_slice() {
            ["all"] => return Ok(Layers::ALL),
            ["none"] => return Ok(Layers::NONE),
            [""] => return Err("empty solver layer list (`none` switches every layer off)".into()),
            _ => {}
        }
        names.iter().try_fold(Layers::NONE, |set, name| {
            let known = Layer::ALL.iter().find(|l| l.name() == *name);
            match (known, *name) {
                (Some(&layer), _) => Ok(set.with(layer)),
                (None, "all" | "none") => Err(format!(
                    "solver layer list `{list}`: `{name}` cannot be combined with other layers"
                )),
                (None, _) => Err(format!(
                    "unknown solver layer `{name}` (known: {}, all, none)",
                    Layer::ALL.map(Layer::name).join(", ")
                )),
            }
        })
    }
}

impl fmt::Display for Layers {
    /// The set as a layer list (`none` when empty).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Layer::ALL
            .iter()
            .filter(|l| self.contains(**l))
            .map(|l| l.name())
            .collect();
        if names.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&names.join(","))
        }
    }
}

/// How to assemble a [`crate::SolverChain`]. The default is the full chain with no time
/// limit, no query log and no cross-check.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SolverConfig {
    /// The optional layers switched on.
    pub layers: Layers,
    /// Time limit of each Z3 call (None: no limit).
    pub timeout: Option<Duration>,
    /// Write every query reaching Z3 as an SMT-LIB2 file `query-NNNNNN.smt2` into this
    /// (existing) directory, numbered after the files already there.
    pub log_queries: Option<PathBuf>,
    /// Re-ask a fresh Z3 solver for every answer of the chain and count disagreements
    /// (a debugging aid: every query is solved at least twice).
    pub cross_check: bool,
    /// How long Z3 works alone on a query before a model search joins it (None: 50 ms).
    pub search_after: Option<Duration>,
    /// No Z3 check runs past this instant (a command's `--max-time`; None: only the
    /// per-call timeout); see [`crate::SolverChain::set_deadline`].
    pub deadline: Option<std::time::Instant>,
}

impl SolverConfig {
    /// The default chain with Z3 calls limited to `timeout`.
    pub fn with_timeout(timeout: Option<Duration>) -> Self {
        SolverConfig {
            timeout,
            ..SolverConfig::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_layer_lists() {
        assert_eq!("all".parse(), Ok(Layers::ALL));
        assert_eq!("none".parse(), Ok(Layers::NONE));
        assert_eq!(
            " cex-cache , fast".parse(),
            Ok(Layers::NONE.with(Layer::FastPath).with(Layer::CexCache))
        );
        assert_eq!(
            "fast,independence,query-cache,order,cex-cache,exhaustive".parse(),
            Ok(Layers::ALL)
        );
        for layer in Layer::ALL {
            let without = Layers::ALL.without(layer);
            assert!(!without.contains(layer));
            assert_eq!(without.to_string().parse(), Ok(without));
        }
        assert_eq!(Layers::NONE.to_string(), "none");
        assert_eq!(Layers::default(), Layers::ALL);
    }

    #[test]
    fn rejects_unknown_names_clearly() {
        let err = "fast,cache".parse::<Layers>().unwrap_err();
        assert_eq!(
            err,
            "unknown solver layer `cache` (known: fast, independence, query-cache, order, cex-cache, exhaustive, all, none)"
        );
        assert!("".parse::<Layers>().unwrap_err().contains("empty"));
        assert!("fast,,cex-cache".parse::<Layers>().is_err());
        assert!("none,fast"
            .parse::<Layers>()
            .unwrap_err()
            .contains("`none` cannot be combined"));
    }
}
