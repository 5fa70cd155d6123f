//! Stable sorting through one compiled sort.
//!
//! Every `sort_by` with its own comparator closure is a new copy of std's
//! stable sort in the app's wasm, about 4.5 KB each: 27 of them were
//! 138 KB of its 2.4 MB (docs/benchmarks/browser.md, "What holds the
//! wasm's bytes"). Here std's sort is compiled once, over `u32` positions
//! with the comparison behind `dyn`; each caller adds only its comparator
//! and, for [`sort_by`], a move of its items into the order found. The
//! price is an indirect call per comparison and the positions' memory,
//! which the callers (tables, lists and a pool's ids at load) can afford;
//! ranking's hot sorts keep their own.
//!
//! Equal items keep their order, as with `slice::sort_by`.

use std::cmp::Ordering;

/// The positions `0..n` in the stable order `cmp` gives them.
pub fn stable_order(n: usize, cmp: &dyn Fn(u32, u32) -> Ordering) -> Vec<u32> {
    let n = u32::try_from(n).expect("at most u32::MAX items to sort");
    let mut order: Vec<u32> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

/// Sorts `items` by `cmp`, stably: `slice::sort_by`'s result.
pub fn sort_by<T>(items: &mut Vec<T>, cmp: impl Fn(&T, &T) -> Ordering) {
    let order = stable_order(items.len(), &|a, b| {
        cmp(&items[a as usize], &items[b as usize])
    });
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(
        order
            .into_iter()
            .filter_map(|i| slots.get_mut(i as usize).and_then(Option::take)),
    );
}

/// Sorts `items` in their natural order, stably: `slice::sort`'s result.
pub fn sort<T: Ord>(items: &mut Vec<T>) {
    sort_by(items, Ord::cmp);
}

/// Sorts `items` by `key`, stably: `slice::sort_by_key`'s result.
pub fn sort_by_key<T, K: Ord>(items: &mut Vec<T>, key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seeded generator, so that the check covers many shapes of input.
    fn numbers(seed: u64, n: usize, range: u64) -> Vec<u64> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 33) % range
            })
            .collect()
    }

    #[test]
    fn equals_std_stable_sort_with_many_ties() {
        for (seed, n) in [(1, 0), (2, 1), (3, 7), (4, 40), (5, 1000), (6, 5000)] {
            // (key, position): ties on key show whether order is kept.
            let items: Vec<(u64, usize)> = numbers(seed, n, 13)
                .into_iter()
                .enumerate()
                .map(|(i, k)| (k, i))
                .collect();
            let mut ours = items.clone();
            sort_by(&mut ours, |a, b| b.0.cmp(&a.0));
            let mut theirs = items.clone();
            theirs.sort_by_key(|p| std::cmp::Reverse(p.0));
            assert_eq!(ours, theirs, "seed {seed}, {n} items");
            let mut by_key = items.clone();
            sort_by_key(&mut by_key, |p| p.0);
            let mut theirs = items;
            theirs.sort_by_key(|p| p.0);
            assert_eq!(by_key, theirs);
        }
    }

    #[test]
    fn the_order_of_positions_is_std_argsort() {
        let keys = numbers(9, 300, 5);
        let order = stable_order(keys.len(), &|a, b| keys[a as usize].cmp(&keys[b as usize]));
        let mut theirs: Vec<u32> = (0..keys.len() as u32).collect();
        theirs.sort_by_key(|&i| keys[i as usize]);
        assert_eq!(order, theirs);
    }
}
