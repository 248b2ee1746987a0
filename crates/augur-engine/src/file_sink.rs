//! The output directory's tests: `testNNNNNN.json` and `testNNNNNN.ktest` for each path,
//! numbered in the order paths end, written by a thread of their own.
//!
//! Creating two files per test costs the kernel more than finding the test costs the
//! engine on path-heavy programs, so the engine hands each test to a writer thread through
//! a bounded queue and goes on exploring: the two overlap on a second core, and the queue's
//! bound keeps memory flat when the disk is slower than the search. Nothing is lost on the
//! way: [`TestsOnDisk::wait`], and dropping the sink, return once every test handed over
//! is on disk (a run stopped by Ctrl-C or a limit writes everything it found).

use crate::ktest::KTest;
use crate::output::{test_json, write_file};
use crate::testcase::{TestCase, TestSink};
use std::fs;
use std::path::Path;
use std::sync::mpsc::{self, Receiver, SyncSender};

/// Tests waiting for the writer at most; the engine waits when the queue is full.
const QUEUE: usize = 256;

/// What the writer thread is asked to do, in order.
enum Job {
    /// Write this test under this number.
    Test(u64, TestCase),
    /// Answer once every test queued before is written.
    Flush(mpsc::Sender<()>),
}

/// Writes tests into a directory as they are found (on a writer thread).
pub struct FileSink {
    count: u64,
    queue: SyncSender<Job>,
}

/// Waits for a [`FileSink`]'s writer, for a driver whose executor owns the sink: after
/// [`TestsOnDisk::wait`] every test the sink received is a complete file.
#[derive(Clone)]
pub struct TestsOnDisk(SyncSender<Job>);

impl FileSink {
    /// A sink writing into `dir` (created if missing); `args` are recorded in `.ktest` files.
    pub fn new(dir: &Path, args: Vec<String>) -> std::io::Result<Self> {
        fs::create_dir_all(dir)?;
        let (queue, jobs) = mpsc::sync_channel(QUEUE);
        let dir = dir.to_path_buf();
        std::thread::Builder::new()
            .name("augur-tests".into())
            .spawn(move || write_tests(&dir, args, jobs))?;
        Ok(FileSink { count: 0, queue })
    }

    /// A handle to wait for this sink's tests to be on disk.
    pub fn on_disk(&self) -> TestsOnDisk {
        TestsOnDisk(self.queue.clone())
    }
}

impl TestsOnDisk {
    /// Return once every test handed to the sink so far is written (or failed to be,
    /// which the writer logged).
    pub fn wait(&self) {
        let (done, answer) = mpsc::channel();
        if self.0.send(Job::Flush(done)).is_ok() {
            // An error here means the writer is gone, having logged why.
            let _ = answer.recv();
        }
    }
}

impl TestSink for FileSink {
    fn write(&mut self, t: &TestCase) {
        self.count += 1;
        if self.queue.send(Job::Test(self.count, t.clone())).is_err() {
            tracing::error!("cannot write test{:06}: the writer thread died", self.count);
        }
    }
}

impl Drop for FileSink {
    fn drop(&mut self) {
        self.on_disk().wait();
    }
}

/// The writer thread: each queued test as its two files in `dir`, until every sender is
/// gone.
fn write_tests(dir: &Path, args: Vec<String>, jobs: Receiver<Job>) {
    let mut ktest = KTest {
        args,
        ..KTest::default()
    };
    for job in jobs {
        match job {
            Job::Test(n, t) => {
                let stem = dir.join(format!("test{n:06}"));
                let json = serde_json::to_vec_pretty(&test_json(&t)).expect("test serialises");
                ktest.objects = t.objects;
                let res = write_file(&stem.with_extension("json"), &json)
                    .and_then(|_| write_file(&stem.with_extension("ktest"), &ktest.to_bytes()));
                if let Err(e) = res {
                    tracing::error!("cannot write test {}: {e}", stem.display());
                }
            }
            Job::Flush(done) => {
                let _ = done.send(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Outcome;
    use std::path::PathBuf;

    /// The path of test `n`'s file with extension `ext` in `dir`.
    fn test_path(dir: &Path, n: u64, ext: &str) -> PathBuf {
        dir.join(format!("test{n:06}.{ext}"))
    }

    fn test(i: u8) -> TestCase {
        TestCase {
            objects: vec![("x".into(), vec![i, 2, 3])],
            stdout: vec![i],
            stderr: vec![],
            outcome: Outcome::Exit(i as i64),
            instructions: 7,
            havocked: vec![],
        }
    }

    #[test]
    fn every_test_is_on_disk_after_wait_and_after_drop() {
        let dir = tempfile::tempdir().unwrap();
        let mut sink = FileSink::new(dir.path(), vec!["prog".into()]).unwrap();
        let on_disk = sink.on_disk();
        for i in 0..1000u16 {
            sink.write(&test(i as u8));
        }
        on_disk.wait();
        for n in 1..=1000 {
            assert!(test_path(dir.path(), n, "json").exists(), "test{n:06}.json");
        }
        let t = test(42);
        sink.write(&t);
        drop(sink);
        let kt = fs::read(test_path(dir.path(), 1001, "ktest")).unwrap();
        let want = KTest {
            args: vec!["prog".into()],
            objects: t.objects.clone(),
            ..KTest::default()
        };
        assert_eq!(kt, want.to_bytes(), "the .ktest is byte-identical");
        let json = fs::read(test_path(dir.path(), 1001, "json")).unwrap();
        assert_eq!(
            json,
            serde_json::to_vec_pretty(&test_json(&t)).unwrap(),
            "the JSON is byte-identical"
        );
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2002);
    }
}
