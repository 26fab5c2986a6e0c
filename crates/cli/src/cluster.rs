//! The ranks of an MPI job (feature `mpi`): rsmpi over the system's MPI.
//! A [`Cluster`] is made once per process; a process started without
//! mpirun is a job of one rank. It is the [`Exchange`] of the partitioned
//! openings count and of the partitioned Daldøs tables.

use mpi::datatype::{Partition, PartitionMut};
use mpi::traits::{Communicator, CommunicatorCollectives, Root};
use mpi::Count;

use dalkon_cluster::Exchange;

/// The job: this process's rank among `size` ranks.
pub struct Cluster {
    _universe: mpi::environment::Universe,
    world: mpi::topology::SimpleCommunicator,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster")
            .field("rank", &self.rank())
            .field("size", &self.size())
            .finish()
    }
}

impl Cluster {
    /// Join the job (MPI_Init); once per process.
    pub fn join() -> anyhow::Result<Cluster> {
        let universe = mpi::initialize().ok_or_else(|| {
            anyhow::anyhow!("MPI could not be initialised (it may have been initialised already)")
        })?;
        let world = universe.world();
        Ok(Cluster {
            _universe: universe,
            world,
        })
    }

    /// This process's rank, from 0.
    pub fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    /// Ranks in the job.
    pub fn size(&self) -> usize {
        self.world.size() as usize
    }

    /// Whether this rank prints the job's answer.
    pub fn is_root(&self) -> bool {
        self.rank() == 0
    }

    fn reduce(&self, values: &[u64], op: mpi::collective::SystemOperation) -> Vec<u64> {
        let mut out = vec![0u64; values.len()];
        self.world.all_reduce_into(values, &mut out[..], op);
        out
    }
}

/// A count of bytes as MPI takes it (a C int): the exchanges of the count
/// are rounds of at most a few megabytes a rank.
fn count(n: usize) -> Count {
    Count::try_from(n).expect("an exchange of less than 2 GiB")
}

/// Where each part starts in the concatenation of parts of `counts` bytes.
fn displacements(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0, |at, &c| {
            let d = *at;
            *at += c;
            Some(d)
        })
        .collect()
}

impl Exchange for Cluster {
    fn rank(&self) -> usize {
        Cluster::rank(self)
    }

    fn size(&self) -> usize {
        Cluster::size(self)
    }

    fn all_to_all(&self, parts: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        let k = Cluster::size(self);
        assert_eq!(parts.len(), k, "one part per rank");
        let send_counts: Vec<Count> = parts.iter().map(|p| count(p.len())).collect();
        let mut recv_counts = vec![0 as Count; k];
        self.world
            .all_to_all_into(&send_counts[..], &mut recv_counts[..]);
        // Never an empty buffer: Open MPI refuses the dangling pointer of
        // an empty vector (MPI_ERR_ARG); the counts say what is sent.
        let mut send: Vec<u8> = parts.concat();
        send.push(0);
        let send_displs = displacements(&send_counts);
        let recv_displs = displacements(&recv_counts);
        let total: usize = recv_counts.iter().map(|&c| c as usize).sum();
        count(total);
        let mut recv = vec![0u8; total + 1];
        {
            let sendbuf = Partition::new(&send[..], &send_counts[..], &send_displs[..]);
            let mut recvbuf = PartitionMut::new(&mut recv[..], &recv_counts[..], &recv_displs[..]);
            self.world.all_to_all_varcount_into(&sendbuf, &mut recvbuf);
        }
        recv_displs
            .iter()
            .zip(&recv_counts)
            .map(|(&d, &c)| recv[d as usize..(d + c) as usize].to_vec())
            .collect()
    }

    fn sum(&self, values: &[u64]) -> Vec<u64> {
        self.reduce(values, mpi::collective::SystemOperation::sum())
    }

    fn max(&self, values: &[u64]) -> Vec<u64> {
        self.reduce(values, mpi::collective::SystemOperation::max())
    }

    fn broadcast(&self, root: usize, bytes: Vec<u8>) -> Vec<u8> {
        let process = self.world.process_at_rank(root as mpi::Rank);
        let mut len = bytes.len() as u64;
        process.broadcast_into(&mut len);
        let mut buf = if Cluster::rank(self) == root {
            bytes
        } else {
            vec![0u8; len as usize]
        };
        if len > 0 {
            // (an empty buffer is refused, as in `all_to_all`)
            process.broadcast_into(&mut buf[..]);
        }
        buf
    }
}
