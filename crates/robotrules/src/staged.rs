//! Buffers that keep their first items in place, so that a small
//! matcher's rules and text each get one allocation of the size they
//! need, and no reallocation.
//!
//! Getting a small file's matcher ready is a few dozen lines of work;
//! growing and then shrinking two heap buffers was a large share of it.

use alloc::vec::Vec;

/// What [`push_parts`](crate::matcher::push_parts) appends to: a `Vec`, or a
/// [`Staged`] buffer.
pub(crate) trait Buffer<T> {
    /// The items so far.
    fn as_slice(&self) -> &[T];
    /// Appends `items`.
    fn extend_from_slice(&mut self, items: &[T]);
    /// The number of items so far.
    fn len(&self) -> usize {
        self.as_slice().len()
    }
}

impl<T: Copy> Buffer<T> for Vec<T> {
    fn as_slice(&self) -> &[T] {
        self
    }

    #[inline]
    fn extend_from_slice(&mut self, items: &[T]) {
        Vec::extend_from_slice(self, items);
    }
}

/// A buffer that holds up to `N` items in place, and moves them to the
/// heap, reserving room for `spill` items at least, once they do not fit.
pub(crate) struct Staged<T: Copy + Default, const N: usize> {
    inline: [T; N],
    /// The items in `inline`; 0 once they have moved to `heap`.
    len: usize,
    heap: Vec<T>,
    spill: usize,
}

impl<T: Copy + Default, const N: usize> Staged<T, N> {
    /// An empty buffer that reserves room for `spill` items when it
    /// moves to the heap.
    pub(crate) fn new(spill: usize) -> Self {
        Staged { inline: [T::default(); N], len: 0, heap: Vec::new(), spill }
    }

    fn on_heap(&self) -> bool {
        self.heap.capacity() > 0
    }

    /// Drops the items.
    pub(crate) fn clear(&mut self) {
        self.heap = Vec::new();
        self.len = 0;
    }

    /// Takes the items, in a `Vec` whose capacity is their number.
    pub(crate) fn take_vec(&mut self) -> Vec<T> {
        if self.on_heap() {
            let mut heap = core::mem::take(&mut self.heap);
            heap.shrink_to_fit();
            heap
        } else {
            let items = self.inline[..self.len].to_vec();
            self.len = 0;
            items
        }
    }
}

impl<T: Copy + Default, const N: usize> Buffer<T> for Staged<T, N> {
    #[inline]
    fn as_slice(&self) -> &[T] {
        if self.on_heap() {
            &self.heap
        } else {
            &self.inline[..self.len]
        }
    }

    #[inline]
    fn extend_from_slice(&mut self, items: &[T]) {
        if !self.on_heap() {
            let end = self.len + items.len();
            if let Some(room) = self.inline.get_mut(self.len..end) {
                room.copy_from_slice(items);
                self.len = end;
                return;
            }
            // `end > N`, so the reservation is not empty.
            self.heap.reserve(self.spill.max(2 * end));
            self.heap.extend_from_slice(&self.inline[..self.len]);
            self.len = 0;
        }
        self.heap.extend_from_slice(items);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_what_a_vec_holds() {
        for spill in [0, 1, 5, 100] {
            for sizes in [
                &[][..],
                &[1, 2, 3],
                &[4, 4],
                &[0, 9, 1],
                &[3, 0, 3],
                &[4, 0],
                &[3, 1, 1],
                &[4, 1],
            ] {
                let mut staged: Staged<u8, 4> = Staged::new(spill);
                let mut vec = Vec::new();
                for (i, &n) in sizes.iter().enumerate() {
                    let items: Vec<u8> =
                        (0..n).map(|k| (i * 16 + k) as u8).collect();
                    Buffer::extend_from_slice(&mut staged, &items);
                    vec.extend_from_slice(&items);
                    assert_eq!(staged.as_slice(), &vec[..]);
                    assert_eq!(Buffer::len(&staged), vec.len());
                    if staged.on_heap() {
                        // Reserved once, at the spill, and not past it.
                        let most = spill.max(2 * vec.len()).max(8);
                        assert!(staged.heap.capacity() <= most);
                    }
                }
                let out = staged.take_vec();
                assert_eq!(out, vec);
                assert_eq!(out.capacity(), out.len());
                assert!(staged.take_vec().is_empty());
                // Used again after a take and after a clear.
                for fill in [3, 9] {
                    Buffer::extend_from_slice(
                        &mut staged,
                        &alloc::vec![7; fill],
                    );
                    assert_eq!(staged.as_slice(), &alloc::vec![7; fill][..]);
                    staged.clear();
                    assert!(staged.as_slice().is_empty());
                    Buffer::extend_from_slice(&mut staged, &[1, 2]);
                    assert_eq!(staged.take_vec(), [1, 2]);
                }
            }
        }
    }
}
