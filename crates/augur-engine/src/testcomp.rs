//! Test-Comp's XML test-suite format: `metadata.xml` plus one `testNNNNNN.xml` per test,
//! whose `<input>` elements are the values returned by the `__VERIFIER_nondet_*` calls,
//! in order.

use crate::testcase::{TestCase, TestSink};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The name augur gives the objects of `__VERIFIER_nondet_*` calls.
pub const NONDET_OBJECT: &str = "nondet";

/// Writes each test in Test-Comp's format too, then hands it to the next sink.
pub struct TestCompSink {
    dir: PathBuf,
    count: u64,
    next: Box<dyn TestSink>,
}

/// The text of `metadata.xml`.
pub fn metadata_xml(program_file: &str, program_hash: &str, entry: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE test-metadata PUBLIC "+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN" "https://sosy-lab.org/test-format/test-metadata-1.1.dtd">
<test-metadata>
  <sourcecodelang>C</sourcecodelang>
  <producer>augur {}</producer>
  <specification>CHECK( init(main()), FQL(cover EDGES(@CALL(reach_error))) )</specification>
  <programfile>{}</programfile>
  <programhash>{}</programhash>
  <entryfunction>{}</entryfunction>
  <architecture>64bit</architecture>
</test-metadata>
"#,
        env!("CARGO_PKG_VERSION"),
        xml_escape(program_file),
        program_hash,
        xml_escape(entry)
    )
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The text of one test file.
pub fn testcase_xml(t: &TestCase) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<!DOCTYPE testcase PUBLIC \"+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN\" \"https://sosy-lab.org/test-format/testcase-1.1.dtd\">\n<testcase>\n",
    );
    for (name, bytes) in &t.objects {
        if name.starts_with(NONDET_OBJECT) {
            out.push_str(&format!(
                "  <input>{}</input>\n",
                crate::bytes::signed_le(bytes)
            ));
        }
    }
    out.push_str("</testcase>\n");
    out
}

impl TestCompSink {
    /// Write `metadata.xml` into `dir` (created if missing) and wrap `next`.
    pub fn new(dir: &Path, metadata: &str, next: Box<dyn TestSink>) -> io::Result<Self> {
        fs::create_dir_all(dir)?;
        fs::write(dir.join("metadata.xml"), metadata)?;
        Ok(TestCompSink {
            dir: dir.to_path_buf(),
            count: 0,
            next,
        })
    }
}

impl TestSink for TestCompSink {
    fn write(&mut self, t: &TestCase) {
        self.count += 1;
        let path = self.dir.join(format!("test{:06}.xml", self.count));
        if let Err(e) = fs::write(&path, testcase_xml(t)) {
            tracing::error!("cannot write {}: {e}", path.display());
        }
        self.next.write(t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Outcome;

    #[test]
    fn inputs_are_the_nondet_values_in_order() {
        let t = TestCase {
            objects: vec![
                ("nondet".into(), vec![0xff, 0xff, 0xff, 0xff]),
                ("x".into(), vec![1]),
                ("nondet_1".into(), vec![42, 0]),
            ],
            stdout: vec![],
            stderr: vec![],
            dropped: (0, 0),
            outcome: Outcome::Exit(0),
            havocked: Vec::new(),
            instructions: 0,
            prefix: None,
        };
        let xml = testcase_xml(&t);
        assert!(
            xml.contains("<input>-1</input>\n  <input>42</input>"),
            "{xml}"
        );
        assert!(!xml.contains("<input>1</input>"));
        assert!(metadata_xml("a<b.c", "00", "main").contains("<programfile>a&lt;b.c</programfile>"));
    }
}
