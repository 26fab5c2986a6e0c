//! The collective operations a computation partitioned across ranks needs
//! ([`Exchange`]), and a job of K ranks simulated in one process
//! ([`simulate`]), so that partitioned work is tested without MPI.
//! The MPI job is the CLI's `Cluster` (its feature `mpi`).
//!
//! Every rank calls the same operations in the same order (a collective
//! returns only when every rank has called it).

use std::sync::{Barrier, Mutex};

/// The ranks of one job, and the collectives between them.
pub trait Exchange {
    /// This rank, from 0.
    fn rank(&self) -> usize;
    /// Ranks in the job.
    fn size(&self) -> usize;
    /// Send `parts[j]` to rank `j` (one part per rank, this rank's own
    /// included); returns the part every rank sent to this one, by rank.
    fn all_to_all(&self, parts: Vec<Vec<u8>>) -> Vec<Vec<u8>>;
    /// The element-wise sums of `values` over every rank, on every rank.
    fn sum(&self, values: &[u64]) -> Vec<u64>;
    /// The element-wise maxima of `values` over every rank, on every rank.
    fn max(&self, values: &[u64]) -> Vec<u64>;
    /// The bytes of rank `root`, on every rank (the others' `bytes` are
    /// ignored).
    fn broadcast(&self, root: usize, bytes: Vec<u8>) -> Vec<u8>;
}

/// A job of one rank (the process alone).
#[derive(Debug, Clone, Copy, Default)]
pub struct Solo;

impl Exchange for Solo {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn all_to_all(&self, parts: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        parts
    }
    fn sum(&self, values: &[u64]) -> Vec<u64> {
        values.to_vec()
    }
    fn max(&self, values: &[u64]) -> Vec<u64> {
        values.to_vec()
    }
    fn broadcast(&self, _root: usize, bytes: Vec<u8>) -> Vec<u8> {
        bytes
    }
}

/// What the simulated ranks share: one mailbox per (sender, receiver).
struct Shared {
    size: usize,
    barrier: Barrier,
    boxes: Mutex<Vec<Vec<Vec<u8>>>>,
}

/// One rank of a job simulated by threads of one process.
struct SimRank<'a> {
    rank: usize,
    shared: &'a Shared,
}

impl SimRank<'_> {
    fn reduce(&self, values: &[u64], op: fn(u64, u64) -> u64) -> Vec<u64> {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let all = self.all_to_all(vec![bytes; self.shared.size]);
        let mut out = values.to_vec();
        for (j, part) in all.iter().enumerate() {
            if j == self.rank {
                continue;
            }
            for (o, c) in out.iter_mut().zip(part.chunks_exact(8)) {
                *o = op(*o, u64::from_le_bytes(c.try_into().expect("8 bytes")));
            }
        }
        out
    }
}

impl Exchange for SimRank<'_> {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.shared.size
    }
    fn all_to_all(&self, parts: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        let k = self.shared.size;
        assert_eq!(parts.len(), k, "one part per rank");
        self.shared.boxes.lock().expect("no rank panicked")[self.rank] = parts;
        self.shared.barrier.wait();
        let got: Vec<Vec<u8>> = {
            let mut boxes = self.shared.boxes.lock().expect("no rank panicked");
            (0..k)
                .map(|j| std::mem::take(&mut boxes[j][self.rank]))
                .collect()
        };
        // Nobody refills a mailbox before every rank has emptied its own.
        self.shared.barrier.wait();
        got
    }
    fn sum(&self, values: &[u64]) -> Vec<u64> {
        self.reduce(values, u64::wrapping_add)
    }
    fn max(&self, values: &[u64]) -> Vec<u64> {
        self.reduce(values, u64::max)
    }
    fn broadcast(&self, root: usize, bytes: Vec<u8>) -> Vec<u8> {
        let k = self.shared.size;
        let parts = if self.rank == root {
            vec![bytes; k]
        } else {
            vec![Vec::new(); k]
        };
        self.all_to_all(parts).swap_remove(root)
    }
}

/// Run `work` as a job of `ranks` ranks, each a thread of this process
/// with its own [`Exchange`]; returns every rank's result, by rank. A
/// rank that panics leaves the others waiting: `work` must report its
/// failures through the collectives (as the partitioned count does).
pub fn simulate<T: Send>(ranks: usize, work: impl Fn(&dyn Exchange) -> T + Sync) -> Vec<T> {
    assert!(ranks >= 1, "a job has at least one rank");
    let shared = Shared {
        size: ranks,
        barrier: Barrier::new(ranks),
        boxes: Mutex::new(vec![Vec::new(); ranks]),
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..ranks)
            .map(|rank| {
                let shared = &shared;
                let work = &work;
                s.spawn(move || work(&SimRank { rank, shared }))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a simulated rank panicked"))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collectives_of_a_simulated_job() {
        let out = simulate(3, |ex| {
            let me = ex.rank() as u8;
            let parts = (0..ex.size()).map(|j| vec![me, j as u8]).collect();
            let got = ex.all_to_all(parts);
            let sum = ex.sum(&[ex.rank() as u64, 1]);
            let max = ex.max(&[ex.rank() as u64 * 10]);
            let b = ex.broadcast(2, vec![me; 2]);
            (got, sum, max, b)
        });
        for (r, (got, sum, max, b)) in out.into_iter().enumerate() {
            let want: Vec<Vec<u8>> = (0..3u8).map(|j| vec![j, r as u8]).collect();
            assert_eq!(got, want);
            assert_eq!(sum, vec![3, 3]);
            assert_eq!(max, vec![20]);
            assert_eq!(b, vec![2, 2]);
        }
        let solo = Solo;
        assert_eq!(solo.all_to_all(vec![vec![7]]), vec![vec![7]]);
        assert_eq!(solo.sum(&[4]), vec![4]);
    }
}
