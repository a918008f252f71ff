//! A global allocator that counts the allocations of one thread while it
//! asks to, and otherwise only passes through to the system allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting [`alloc`](GlobalAlloc::alloc),
/// `alloc_zeroed` and `realloc` calls made inside [`count`].
pub struct Counting;

thread_local! {
    // Const-initialised and without destructors: safe to touch from inside
    // the allocator, which must not allocate itself.
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
    static REALLOCS: Cell<u64> = const { Cell::new(0) };
}

fn note(counter: &'static std::thread::LocalKey<Cell<u64>>) {
    let active = ACTIVE.try_with(Cell::get).unwrap_or(false);
    if active {
        let _ = counter.try_with(|c| c.set(c.get() + 1));
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments;
// the bookkeeping touches only thread-local cells and never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(&ALLOCS);
        // SAFETY: the caller's contract is `System.alloc`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(&ALLOCS);
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(&REALLOCS);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// What the calling thread asked of the allocator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    /// `alloc` and `alloc_zeroed` calls.
    pub allocs: u64,
    /// `realloc` calls (a buffer growing; it may move).
    pub reallocs: u64,
}

impl Counts {
    /// Every call that may obtain memory.
    pub fn total(&self) -> u64 {
        self.allocs + self.reallocs
    }
}

/// Runs `f`, counting the allocations this thread makes meanwhile.
pub fn count<R>(f: impl FnOnce() -> R) -> (R, Counts) {
    let before = (ALLOCS.get(), REALLOCS.get());
    ACTIVE.set(true);
    let result = f();
    ACTIVE.set(false);
    let counts = Counts {
        allocs: ALLOCS.get() - before.0,
        reallocs: REALLOCS.get() - before.1,
    };
    (result, counts)
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn counts_this_threads_allocations_only_inside() {
        let mut outside: Vec<u8> = Vec::with_capacity(1);
        let (kept, counts) = count(|| {
            let mut v: Vec<u64> = Vec::with_capacity(4);
            v.extend([1, 2, 3, 4, 5]); // grows: one realloc
            std::hint::black_box(&v);
            let b = std::hint::black_box(Box::new(7u32));
            *b
        });
        outside.push(1);
        assert_eq!(kept, 7);
        // The Vec and the Box; `outside` is not counted.
        assert_eq!(counts.allocs, 2, "{counts:?}");
        assert_eq!(counts.reallocs, 1, "{counts:?}");
        let ((), none) = count(|| ());
        assert_eq!(none.total(), 0);
    }
}
