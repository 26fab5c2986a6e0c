//! The ranks of a job and the collectives between them ([`Exchange`]), for
//! the computations that partition each layer across processes: the Dakon
//! openings count and the Daldøs tables. A job is one process ([`Solo`]),
//! ranks simulated by threads ([`simulate`], for tests), or the ranks of an
//! MPI job (the CLI's `Cluster`, with its feature `mpi`: MPI stays out of
//! the engines, so that building with it compiles only the CLI again).

mod exchange;

pub use exchange::{simulate, Exchange, Solo};
