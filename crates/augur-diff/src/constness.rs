//! Which pointer parameters of a C file's functions point to `const` data, read from the
//! source with tree-sitter's C grammar (the IR augur reads has no `const`). Psychic observes
//! the pointees of non-const pointer arguments only.

use rustc_hash::FxHashMap;
use tree_sitter::{Node, Parser};

/// For each function defined in `source`: per parameter, whether it is a pointer to const
/// data (`const char *s`, `char const *s`; not `char *const p` nor `const char **pp`).
pub fn const_pointer_params(source: &str) -> FxHashMap<String, Vec<bool>> {
    let mut parser = Parser::new();
    let mut out = FxHashMap::default();
    if parser
        .set_language(&tree_sitter_c::LANGUAGE.into())
        .is_err()
    {
        return out;
    }
    let Some(tree) = parser.parse(source, None) else {
        return out;
    };
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.kind() == "function_declarator" {
            if let (Some(name), Some(params)) = (
                n.child_by_field_name("declarator"),
                n.child_by_field_name("parameters"),
            ) {
                if name.kind() == "identifier" {
                    let text = &source[name.byte_range()];
                    out.insert(text.to_string(), params_const(params, source));
                }
            }
        }
        let mut cursor = n.walk();
        stack.extend(n.children(&mut cursor));
    }
    out
}

/// Per parameter of a `parameter_list`, whether it points to const data.
fn params_const(params: Node, source: &str) -> Vec<bool> {
    let mut cursor = params.walk();
    params
        .named_children(&mut cursor)
        .filter(|p| p.kind() == "parameter_declaration")
        .map(|p| points_to_const(p, source))
        .collect()
}

/// `const T *x` or `T const *x`: a `const` qualifying the base type, and exactly one level
/// of pointer in the declarator.
fn points_to_const(p: Node, source: &str) -> bool {
    let mut cursor = p.walk();
    let base_const = p
        .children(&mut cursor)
        .any(|c| c.kind() == "type_qualifier" && &source[c.byte_range()] == "const");
    let Some(decl) = p.child_by_field_name("declarator") else {
        return false;
    };
    if decl.kind() != "pointer_declarator" && decl.kind() != "abstract_pointer_declarator" {
        return false;
    }
    let inner_is_pointer = decl
        .child_by_field_name("declarator")
        .is_some_and(|d| d.kind().ends_with("pointer_declarator"));
    base_const && !inner_is_pointer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_to_const_data_are_told_from_the_others() {
        let src = "int f(const char *a, char const *b, char *c, char *const d, \
                   const char **e, int n) { return 0; }\n\
                   static void g(const int *p);\nvoid h(void) {}\n";
        let m = const_pointer_params(src);
        assert_eq!(m["f"], vec![true, true, false, false, false, false]);
        assert_eq!(m["g"], vec![true]);
        assert!(m["h"].is_empty() || m["h"] == vec![false]);
    }
}
