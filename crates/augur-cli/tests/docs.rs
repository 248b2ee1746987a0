//! The documentation holds together: README.md stays short, every relative link of
//! README.md and docs/*.md reaches a file (and, for `#anchor` links into Markdown, one of
//! its headings), every page of docs/ is linked from README.md, and every subcommand's
//! `--help` names its page of docs/.

mod common;
use common::*;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// README.md and every docs/*.md.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The lines of a Markdown text outside fenced code blocks.
fn prose_lines(text: &str) -> Vec<&str> {
    let mut in_fence = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if !in_fence {
            lines.push(line);
        }
    }
    lines
}

/// `line` without its inline code spans.
fn without_code(line: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code {
            out.push(c);
        }
    }
    out
}

/// GitHub's anchor of a heading's text: the rendered text (links by their text, no code
/// marks), lower case, without punctuation other than `-` and `_`, spaces as `-`.
fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    // [text](target) -> text
    while let Some(open) = rest.find('[') {
        text.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match (after.find("]("), after.find(')')) {
            (Some(close), Some(end)) if close < end => {
                text.push_str(&after[..close]);
                rest = &after[end + 1..];
            }
            _ => {
                text.push('[');
                rest = after;
            }
        }
    }
    text.push_str(rest);
    text.trim()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
        .flat_map(char::to_lowercase)
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings (repeated headings get `-1`, `-2`, ...).
fn anchors(path: &Path) -> HashSet<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut seen = HashSet::new();
    for line in prose_lines(&text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes..]);
        let mut anchor = base.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

/// The targets of the inline links `[text](target)` of a Markdown text, outside code.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    for line in prose_lines(text) {
        let line = without_code(line);
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            let target = after[..end].split_whitespace().next().unwrap_or("");
            targets.push(target.to_string());
            rest = &after[end..];
        }
    }
    targets
}

/// Checks one relative link of `page`; an error message if it leads nowhere.
fn check_link(page: &Path, target: &str) -> Result<(), String> {
    let (file, anchor) = match target.split_once('#') {
        Some((f, a)) => (f, Some(a)),
        None => (target, None),
    };
    let path = if file.is_empty() {
        page.to_path_buf()
    } else {
        page.parent().unwrap().join(file)
    };
    if !path.exists() {
        return Err(format!(
            "{}: link to {target}: no such file",
            page.display()
        ));
    }
    let markdown = path.extension().is_some_and(|e| e == "md");
    if anchor.is_some_and(|a| markdown && !anchors(&path).contains(a)) {
        return Err(format!(
            "{}: link to {target}: no heading with that anchor in {}",
            page.display(),
            path.display()
        ));
    }
    Ok(())
}

#[test]
fn readme_is_at_most_260_lines() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 260,
        "README.md has {lines} lines: move detail into docs/"
    );
}

#[test]
fn relative_links_reach_files_and_headings() {
    let mut errors = Vec::new();
    let mut links = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            links += 1;
            if let Err(e) = check_link(&page, &target) {
                errors.push(e);
            }
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(
        links > 20,
        "only {links} relative links found: is the parser right?"
    );
}

#[test]
fn every_docs_page_is_linked_from_the_readme() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let linked: HashSet<String> = link_targets(&readme)
        .into_iter()
        .map(|t| t.split('#').next().unwrap().to_string())
        .collect();
    for page in pages().into_iter().skip(1) {
        let name = format!("docs/{}", page.file_name().unwrap().to_str().unwrap());
        assert!(linked.contains(&name), "README.md does not link {name}");
    }
}

#[test]
fn every_subcommand_help_names_its_docs_page() {
    let o = augur().arg("--help").output().unwrap();
    assert!(o.status.success());
    let help = String::from_utf8_lossy(&o.stdout).to_string();
    let commands: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect();
    assert!(commands.len() >= 8, "commands found: {commands:?}\n{help}");
    let readme = root().join("README.md");
    for command in &commands {
        let o = augur().args([command.as_str(), "--help"]).output().unwrap();
        assert!(o.status.success(), "augur {command} --help");
        let help = String::from_utf8_lossy(&o.stdout).to_string();
        let page = help
            .lines()
            .find_map(|l| l.strip_prefix("Documentation: "))
            .unwrap_or_else(|| panic!("augur {command} --help names no page:\n{help}"));
        assert!(page.starts_with("docs/"), "augur {command}: {page}");
        // Relative to the repository's root, as README.md's links are.
        check_link(&readme, page.trim()).unwrap();
    }
}

#[test]
fn slugs_follow_github() {
    assert_eq!(
        slug(" All cores, many machines: shards"),
        "all-cores-many-machines-shards"
    );
    assert_eq!(
        slug(" `augur record` / `repro`: `bench/repro.sh`"),
        "augur-record--repro-benchreprosh"
    );
    assert_eq!(
        slug(" Where `sort.c`'s time goes"),
        "where-sortcs-time-goes"
    );
    assert_eq!(slug(" See [the page](x.md)"), "see-the-page");
}
