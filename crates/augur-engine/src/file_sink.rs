//! The output directory's tests: `testNNNNNN.json` and `testNNNNNN.ktest` for each path,
//! numbered in the order paths end, written by a thread of their own.
//!
//! Creating two files per test costs the kernel more than finding the test costs the
//! engine on path-heavy programs, so the engine hands each test to a writer thread through
//! a bounded queue and goes on exploring: the two overlap on a second core, and the queue's
//! bound keeps memory flat when the disk is slower than the search. Nothing is lost on the
//! way: [`TestsOnDisk::wait`], and dropping the sink, return once every test handed over
//! is on disk (a run stopped by Ctrl-C or a limit writes everything it found).

use crate::complete_file::write_file;
use crate::ktest::KTest;
use crate::output::test_json;
use crate::testcase::{TestCase, TestSink};
use std::fs;
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// Tests waiting for the writer at most; the engine waits when this many wait.
const QUEUE: usize = 256;

/// Writes tests into a directory as they are found (on a writer thread).
pub struct FileSink {
    shared: Arc<Shared>,
}

/// Waits for a [`FileSink`]'s writer, for a driver whose executor owns the sink: after
/// [`TestsOnDisk::wait`] every test the sink received is a complete file.
#[derive(Clone)]
pub struct TestsOnDisk(Arc<Shared>);

/// The queue between the engine and the writer. The writer takes every waiting test at
/// once, so both sides block, and wake each other, once per batch rather than per test.
struct Shared {
    queue: Mutex<Queue>,
    /// Signalled when tests arrive or the sink is dropped (the writer waits on it).
    arrived: Condvar,
    /// Signalled when the writer takes or finishes a batch (the engine and flushes wait).
    taken: Condvar,
}

#[derive(Default)]
struct Queue {
    /// Tests not yet taken by the writer, with their numbers.
    tests: Vec<(u64, TestCase)>,
    /// Tests handed to the sink (the last number given).
    received: u64,
    /// Tests written (or failed to be, logged).
    written: u64,
    /// Whether the writer waits for tests (so that a new test must wake it).
    writer_idle: bool,
    /// Engine or flushes waiting on `taken`.
    waiting: usize,
    /// The sink is gone: the writer ends once the queue is empty.
    closed: bool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        // The lock is never held across anything that can panic, but a poisoned queue is
        // still a consistent one.
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wait on `taken` (counted, so that the writer signals only when someone waits).
    fn wait_taken<'a>(&self, mut q: MutexGuard<'a, Queue>) -> MutexGuard<'a, Queue> {
        q.waiting += 1;
        let mut q = self.taken.wait(q).unwrap_or_else(|e| e.into_inner());
        q.waiting -= 1;
        q
    }

    /// Wake the writer if it waits.
    fn wake_writer(&self, q: &Queue) {
        if q.writer_idle {
            self.arrived.notify_one();
        }
    }

    /// Wake whoever waits on `taken`.
    fn wake_waiting(&self, q: &Queue) {
        if q.waiting > 0 {
            self.taken.notify_all();
        }
    }
}

impl FileSink {
    /// A sink writing into `dir` (created if missing); `args` are recorded in `.ktest` files.
    pub fn new(dir: &Path, args: Vec<String>) -> std::io::Result<Self> {
        fs::create_dir_all(dir)?;
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            arrived: Condvar::new(),
            taken: Condvar::new(),
        });
        let writer = shared.clone();
        let dir = dir.to_path_buf();
        std::thread::Builder::new()
            .name("augur-tests".into())
            .spawn(move || write_tests(&dir, args, &writer))?;
        Ok(FileSink { shared })
    }

    /// A handle to wait for this sink's tests to be on disk.
    pub fn on_disk(&self) -> TestsOnDisk {
        TestsOnDisk(self.shared.clone())
    }
}

impl TestsOnDisk {
    /// Return once every test handed to the sink so far is written (or failed to be,
    /// which the writer logged).
    pub fn wait(&self) {
        let s = &self.0;
        let mut q = s.lock();
        let target = q.received;
        while q.written < target {
            q = s.wait_taken(q);
        }
    }
}

impl TestSink for FileSink {
    fn write(&mut self, t: &TestCase) {
        let s = &self.shared;
        let mut q = s.lock();
        while q.tests.len() >= QUEUE {
            q = s.wait_taken(q);
        }
        q.received += 1;
        let n = q.received;
        q.tests.push((n, t.clone()));
        s.wake_writer(&q);
    }
}

impl Drop for FileSink {
    fn drop(&mut self) {
        self.on_disk().wait();
        let mut q = self.shared.lock();
        q.closed = true;
        self.shared.wake_writer(&q);
    }
}

/// The writer thread: each queued test as its two files in `dir`, until the sink is gone.
fn write_tests(dir: &Path, args: Vec<String>, s: &Shared) {
    let mut ktest = KTest {
        args,
        ..KTest::default()
    };
    let mut q = s.lock();
    loop {
        if q.tests.is_empty() {
            if q.closed {
                return;
            }
            q.writer_idle = true;
            q = s.arrived.wait(q).unwrap_or_else(|e| e.into_inner());
            q.writer_idle = false;
            continue;
        }
        let batch = std::mem::take(&mut q.tests);
        s.wake_waiting(&q);
        drop(q);
        let n = batch.len() as u64;
        for (number, t) in batch {
            write_test(dir, number, t, &mut ktest);
        }
        q = s.lock();
        q.written += n;
        s.wake_waiting(&q);
    }
}

/// Write test `number` as `testNNNNNN.json` and `.ktest` (`ktest` holds the arguments).
fn write_test(dir: &Path, number: u64, t: TestCase, ktest: &mut KTest) {
    let stem = dir.join(format!("test{number:06}"));
    let json = serde_json::to_vec_pretty(&test_json(&t)).expect("test serialises");
    ktest.objects = t.objects;
    let res = write_file(&stem.with_extension("json"), &json)
        .and_then(|_| write_file(&stem.with_extension("ktest"), &ktest.to_bytes()));
    if let Err(e) = res {
        tracing::error!("cannot write test {}: {e}", stem.display());
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
            dropped: (0, 0),
            outcome: Outcome::Exit(i as i64),
            instructions: 7,
            havocked: vec![],
            prefix: None,
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
