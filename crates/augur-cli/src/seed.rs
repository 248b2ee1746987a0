//! Reading a test (augur's JSON or KLEE's `.ktest`) as the input of a seeded run.

use augur_engine::KTest;
use augur_engine::SeedInput;
use std::path::Path;

/// Load the objects of a test file.
pub fn load(path: &Path) -> Result<SeedInput, String> {
    let data = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let objects = if data.starts_with(b"KTEST") || data.starts_with(b"BOUT\n") {
        KTest::from_bytes(&data)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .objects
    } else {
        let json: serde_json::Value = serde_json::from_slice(&data)
            .map_err(|e| format!("{}: not a test file: {e}", path.display()))?;
        let objs = json["objects"]
            .as_array()
            .ok_or_else(|| format!("{}: not a test file: no \"objects\" list", path.display()))?;
        objs.iter()
            .map(|o| {
                let name = o["name"].as_str().unwrap_or("").to_string();
                let bytes = o["bytes"]
                    .as_array()
                    .ok_or_else(|| format!("{}: object `{name}` has no \"bytes\"", path.display()))?
                    .iter()
                    .map(|b| b.as_u64().filter(|v| *v < 256).map(|v| v as u8))
                    .collect::<Option<Vec<u8>>>()
                    .ok_or_else(|| {
                        format!(
                            "{}: object `{name}` has a byte out of range",
                            path.display()
                        )
                    })?;
                Ok((name, bytes))
            })
            .collect::<Result<_, String>>()?
    };
    Ok(SeedInput { objects })
}
