//! Native runs on every core: `augur replay`'s tests, and `augur inject`'s verification
//! and measuring builds, run independent inputs one or two runs each. Results come back
//! in input order, so what is printed or tallied from them is what runs one input after
//! the other give.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// `f` of each of `items`, in their order, computed by one worker per core. An item for
/// which `may_stop` holds is not started at or past `deadline`, and neither is any item
/// after it: the result is `f` of the items before the first such one (as a loop that
/// breaks there gives).
pub fn map_in_order<T, R>(
    items: &[T],
    deadline: Option<Instant>,
    may_stop: impl Fn(&T) -> bool + Sync,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R>
where
    T: Sync,
    R: Send,
{
    let next = AtomicUsize::new(0);
    // The first item not to be started; only ever lowered.
    let end = AtomicUsize::new(items.len());
    let slots: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len());
    let work = || loop {
        let i = next.fetch_add(1, Ordering::SeqCst);
        if i >= end.load(Ordering::SeqCst) {
            break;
        }
        if may_stop(&items[i]) && deadline.is_some_and(|d| Instant::now() >= d) {
            end.fetch_min(i, Ordering::SeqCst);
            break;
        }
        let r = f(&items[i]);
        *slots[i].lock().expect("a worker panicked") = Some(r);
    };
    std::thread::scope(|s| {
        for _ in 1..workers {
            s.spawn(work);
        }
        work();
    });
    // Every item before `end` was taken (items are taken in order) and, not stopped, run.
    let end = end.into_inner();
    slots
        .into_iter()
        .take(end)
        .map(|m| {
            m.into_inner()
                .expect("a worker panicked")
                .expect("every item before the end ran")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn results_come_in_the_items_order() {
        let items: Vec<u64> = (0..200).collect();
        let out = map_in_order(
            &items,
            None,
            |_| true,
            |&i| {
                // Later items finish first.
                std::thread::sleep(Duration::from_micros(200 - i));
                i * i
            },
        );
        assert_eq!(out, items.iter().map(|i| i * i).collect::<Vec<_>>());
    }

    #[test]
    fn past_the_deadline_the_first_stoppable_item_and_all_after_it_are_left_out() {
        let items: Vec<u32> = (0..50).collect();
        let past = Some(Instant::now());
        // Items below 10 run whatever the time; 10 is the first that may stop.
        let out = map_in_order(&items, past, |&i| i >= 10, |&i| i);
        assert_eq!(out, (0..10).collect::<Vec<_>>());
        let none = map_in_order(&items, past, |_| true, |&i| i);
        assert!(none.is_empty());
        let all = map_in_order(&items, None, |_| true, |&i| i);
        assert_eq!(all.len(), 50);
    }
}
