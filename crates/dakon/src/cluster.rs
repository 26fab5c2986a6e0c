//! The ranks of an MPI job (feature `mpi`): rsmpi over the system's MPI.
//! A [`Cluster`] is made once per process; a process started without
//! mpirun is a job of one rank.

use mpi::traits::{Communicator, CommunicatorCollectives};

/// Why the job's MPI could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// MPI was initialised already (or could not be).
    #[error("MPI could not be initialised (it may have been initialised already)")]
    Init,
    /// The job has more ranks than the work can use yet.
    #[error(
        "this build joins MPI jobs but does not yet partition the count: run it with one \
         rank (mpirun -np 1), not {0}"
    )]
    NotPartitioned(usize),
}

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
    /// Join the job as the openings count does today: the count is not yet
    /// partitioned across ranks (issue 22), so a job of more than one rank
    /// is refused rather than run K times over.
    pub fn join_openings() -> Result<Cluster, ClusterError> {
        let cluster = Cluster::join()?;
        if cluster.size() > 1 {
            return Err(ClusterError::NotPartitioned(cluster.size()));
        }
        Ok(cluster)
    }

    /// Join the job (MPI_Init); once per process.
    pub fn join() -> Result<Cluster, ClusterError> {
        let universe = mpi::initialize().ok_or(ClusterError::Init)?;
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

    /// The sum of `value` over every rank, on every rank.
    pub fn sum(&self, value: u64) -> u64 {
        let mut total = 0u64;
        self.world
            .all_reduce_into(&value, &mut total, mpi::collective::SystemOperation::sum());
        total
    }
}
