//! Backward dynamic slices over a dependence [`Graph`].

use crate::deps::Graph;

/// Which dependences a slice follows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Follow {
    /// Data and control dependences: the full dynamic slice.
    All,
    /// Data dependences only: what computed a value.
    Data,
}

/// The entries reachable backwards from `roots`, as a membership vector.
pub fn backward(graph: &Graph, roots: &[u32], follow: Follow) -> Vec<bool> {
    let mut seen = vec![false; graph.data.len()];
    let mut stack: Vec<u32> = roots.to_vec();
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut seen[i as usize], true) {
            continue;
        }
        stack.extend(graph.data[i as usize].iter().copied());
        if follow == Follow::All {
            stack.extend(graph.control[i as usize]);
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_slice_skips_control_parents() {
        // 0: input; 1: branch on 0; 2 = f(0) under 1; 3: unrelated
        let g = Graph {
            data: vec![vec![], vec![0], vec![0], vec![]],
            control: vec![None, None, Some(1), None],
            output: Vec::new(),
            probes: Vec::new(),
            operands: Vec::new(),
        };
        assert_eq!(
            backward(&g, &[2], Follow::All),
            vec![true, true, true, false]
        );
        assert_eq!(
            backward(&g, &[2], Follow::Data),
            vec![true, false, true, false]
        );
    }
}
