//! Embeds the libc models listed in `runtime/libc/models.txt` (the one list of them):
//! writes `libc_models.rs` into OUT_DIR, a slice of (runtime-relative path, contents).

use std::path::Path;

fn main() {
    let libc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../runtime/libc");
    let list = libc.join("models.txt");
    println!("cargo:rerun-if-changed={}", list.display());
    let text = std::fs::read_to_string(&list).expect("runtime/libc/models.txt");
    let mut out = String::from("&[\n");
    for line in text.lines() {
        let Some(name) = line
            .split_whitespace()
            .next()
            .filter(|w| !w.starts_with('#'))
        else {
            continue;
        };
        let file = libc.join(format!("{name}.c"));
        let file = file.canonicalize().expect("a listed libc model exists");
        println!("cargo:rerun-if-changed={}", file.display());
        out.push_str(&format!(
            "    (\"libc/{name}.c\", include_str!({:?})),\n",
            file.display().to_string()
        ));
    }
    out.push_str("]\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("libc_models.rs");
    std::fs::write(dest, out).expect("write libc_models.rs");
}
