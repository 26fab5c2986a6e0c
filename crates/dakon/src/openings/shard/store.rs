//! The files of a partitioned count in its working folder:
//!
//! - `job`: the last checkpoint every rank finished (written by rank 0
//!   once all ranks have written theirs): the number of ranks, the pass
//!   and the layer, and the checksum of its text;
//! - `rank-RRR-of-KKK/`: one folder per rank of a job of K ranks, holding
//!   its part in the single-process count's files (64-byte header with a
//!   checksum: `layer-*.bin`, `pending-*-after-*.bin`, `winners-*.bin`) and
//!   one state per checkpoint (`state-CCC`, the single-process `state`
//!   text, its counts this rank's).
//!
//! A rank's state for checkpoint C is written before `job` names C, and
//! the files of earlier checkpoints are removed only after, so whenever
//! the job is killed, `job` names a checkpoint every rank holds whole.

use std::path::{Path, PathBuf};

use dalkon_store::atomic;
use dalkon_store::checksum::fnv1a64;
use dalkon_store::header::u64_at;

use crate::openings::layer_store::HEADER_LEN;
use crate::openings::layer_store::{header, Checkpoint, FileRecord, Header, Kind, LayerTag};
use crate::openings::{OpeningsError, Pass};

/// The name of the job's checkpoint file.
pub(crate) const JOB: &str = "job";
const JOB_MAGIC: &str = "dalkon openings partitioned job 1";

/// The last checkpoint of a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Job {
    /// Ranks of the job that wrote it.
    pub(crate) ranks: usize,
    pub(crate) pass: Pass,
    pub(crate) layer: u32,
}

impl Job {
    /// The checkpoint's number: increasing along the count (forward
    /// layers up, then backward layers down).
    pub(crate) fn number(&self, layers: usize) -> u32 {
        match self.pass {
            Pass::Forward => self.layer,
            Pass::Backward => 2 * layers as u32 - self.layer,
        }
    }
}

/// One rank's files, and the job's.
#[derive(Debug)]
pub(crate) struct ShardFiles {
    pub(crate) root: PathBuf,
    pub(crate) tag: LayerTag,
    pub(crate) rank: usize,
    pub(crate) ranks: usize,
    pub(crate) disk_bytes: u64,
}

fn io(path: &Path, source: std::io::Error) -> OpeningsError {
    OpeningsError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl ShardFiles {
    /// The folder of rank `rank` of a job of `ranks`.
    pub(crate) fn dir_of(&self, rank: usize, ranks: usize) -> PathBuf {
        self.root.join(format!("rank-{rank:03}-of-{ranks:03}"))
    }

    fn dir(&self) -> PathBuf {
        self.dir_of(self.rank, self.ranks)
    }

    fn corrupt(&self, path: &Path, why: impl Into<String>) -> OpeningsError {
        OpeningsError::CorruptLayer {
            dir: self.root.clone(),
            path: path.to_path_buf(),
            why: why.into(),
        }
    }

    fn name(kind: Kind, layer: u32, checkpoint: u32) -> String {
        match kind {
            Kind::Pending => format!("pending-{layer:03}-after-{checkpoint:03}.bin"),
            _ => format!("{}-{layer:03}.bin", kind.prefix()),
        }
    }

    /// Write this rank's file of `kind` for `layer`; returns its record.
    pub(crate) fn write(
        &mut self,
        kind: Kind,
        layer: usize,
        count: u64,
        checkpoint: u32,
        payload: &[u8],
    ) -> Result<FileRecord, OpeningsError> {
        let dir = self.dir();
        std::fs::create_dir_all(&dir).map_err(|e| io(&dir, e))?;
        let path = dir.join(Self::name(kind, layer as u32, checkpoint));
        let h = Header {
            tag: self.tag,
            layer: layer as u32,
            count,
            kind,
            checkpoint,
        };
        let head = header(&h, payload);
        atomic::write_parts(&path, &[&head, payload]).map_err(|e| io(&path, e))?;
        self.disk_bytes += (HEADER_LEN + payload.len()) as u64;
        Ok(FileRecord {
            layer: layer as u32,
            count,
            hash: u64_at(&head, 48),
        })
    }

    /// The payload of the file of `r` in the folder `dir`, checked against
    /// the record (header, length, checksum).
    pub(crate) fn read(
        &self,
        dir: &Path,
        kind: Kind,
        r: &FileRecord,
        checkpoint: u32,
    ) -> Result<Vec<u8>, OpeningsError> {
        let path = dir.join(Self::name(kind, r.layer, checkpoint));
        let mut bytes = std::fs::read(&path).map_err(|e| io(&path, e))?;
        if bytes.len() < HEADER_LEN {
            return Err(self.corrupt(&path, "shorter than its header"));
        }
        let payload = bytes.split_off(HEADER_LEN);
        let h = Header {
            tag: self.tag,
            layer: r.layer,
            count: r.count,
            kind,
            checkpoint,
        };
        if fnv1a64(&payload) != r.hash || bytes[..] != header(&h, &payload)[..] {
            return Err(self.corrupt(
                &path,
                "header or checksum does not match its checkpoint (truncated, changed, stale \
                 or foreign)",
            ));
        }
        Ok(payload)
    }

    /// Write this rank's state of checkpoint `number`.
    pub(crate) fn write_state(
        &mut self,
        number: u32,
        cp: &Checkpoint,
    ) -> Result<(), OpeningsError> {
        let dir = self.dir();
        std::fs::create_dir_all(&dir).map_err(|e| io(&dir, e))?;
        let path = dir.join(format!("state-{number:03}"));
        atomic::write(&path, cp.to_text(self.tag).as_bytes()).map_err(|e| io(&path, e))
    }

    /// The state of checkpoint `number` in the folder `dir`, checked
    /// against the count and against `layers`.
    pub(crate) fn read_state(
        &self,
        dir: &Path,
        number: u32,
        layers: usize,
    ) -> Result<Checkpoint, OpeningsError> {
        let path = dir.join(format!("state-{number:03}"));
        let text = std::fs::read(&path).map_err(|e| io(&path, e))?;
        let text = String::from_utf8(text).map_err(|_| self.corrupt(&path, "not UTF-8 text"))?;
        let cp = Checkpoint::parse(&text, self.tag).map_err(|why| self.corrupt(&path, why))?;
        let in_range = |r: &FileRecord| (r.layer as usize) < layers;
        if cp.counts.len() != layers
            || !cp
                .finished
                .iter()
                .chain(&cp.pending)
                .chain(&cp.winners)
                .all(in_range)
        {
            return Err(self.corrupt(&path, "a layer out of range"));
        }
        Ok(cp)
    }

    /// Record (rank 0) that every rank holds checkpoint `job`.
    pub(crate) fn write_job(&self, job: Job) -> Result<(), OpeningsError> {
        let body = format!(
            "{JOB_MAGIC}\nranks {}\npass {}\nlayer {}\n",
            job.ranks,
            match job.pass {
                Pass::Forward => "forward",
                Pass::Backward => "backward",
            },
            job.layer
        );
        let text = format!("{body}checksum {:016x}\n", fnv1a64(body.as_bytes()));
        let path = self.root.join(JOB);
        atomic::write(&path, text.as_bytes()).map_err(|e| io(&path, e))
    }

    /// The job's last checkpoint (`None`: the working folder does not
    /// exist, the count starts afresh).
    pub(crate) fn read_job(&self) -> Result<Option<Job>, OpeningsError> {
        if !self.root.exists() {
            return Ok(None);
        }
        let path = self.root.join(JOB);
        if !path.is_file() {
            if self.root.join("state").is_file() {
                return Err(OpeningsError::SingleProcessCheckpoint {
                    dir: self.root.clone(),
                });
            }
            return Err(OpeningsError::NotACheckpoint {
                dir: self.root.clone(),
            });
        }
        let text = std::fs::read_to_string(&path).map_err(|e| io(&path, e))?;
        parse_job(&text)
            .ok_or_else(|| self.corrupt(&path, "not a checkpoint of this version"))
            .map(Some)
    }

    /// After `job` is recorded: remove this rank's files of earlier
    /// checkpoints, and (rank 0) the folders of jobs of another number of
    /// ranks. Best effort: what is left is never read.
    pub(crate) fn tidy(&self, number: u32) {
        if let Ok(entries) = std::fs::read_dir(self.dir()) {
            for e in entries.flatten() {
                let name = e.file_name();
                let Some(name) = name.to_str() else { continue };
                let old_state = name
                    .strip_prefix("state-")
                    .is_some_and(|c| c.parse() != Ok(number));
                let old_pending = name.starts_with("pending-")
                    && !name.ends_with(&format!("-after-{number:03}.bin"));
                if old_state || old_pending {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
        if self.rank == 0 {
            let own = format!("-of-{:03}", self.ranks);
            if let Ok(entries) = std::fs::read_dir(&self.root) {
                for e in entries.flatten() {
                    let name = e.file_name();
                    let Some(name) = name.to_str() else { continue };
                    if name.starts_with("rank-") && !name.ends_with(&own) {
                        let _ = std::fs::remove_dir_all(e.path());
                    }
                }
            }
        }
    }

    /// The count is complete: remove this rank's folder (and, rank 0, once
    /// every rank has, the working folder).
    pub(crate) fn remove_own(&self) {
        let _ = std::fs::remove_dir_all(self.dir());
    }
}

fn parse_job(text: &str) -> Option<Job> {
    let at = text.rfind("checksum ")?;
    let (body, last) = text.split_at(at);
    let sum = u64::from_str_radix(last.strip_prefix("checksum ")?.trim_end(), 16).ok()?;
    if sum != fnv1a64(body.as_bytes()) {
        return None;
    }
    let mut lines = body.lines();
    if lines.next()? != JOB_MAGIC {
        return None;
    }
    let mut field = |name: &str| lines.next()?.strip_prefix(name)?.strip_prefix(' ');
    let ranks = field("ranks")?.parse().ok().filter(|&k| k >= 1)?;
    let pass = match field("pass")? {
        "forward" => Pass::Forward,
        "backward" => Pass::Backward,
        _ => return None,
    };
    let layer = field("layer")?.parse().ok()?;
    Some(Job { ranks, pass, layer })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_job_file_round_trips_and_damage_is_refused() {
        let root = std::env::temp_dir().join(format!("dalkon-shard-job-{}", std::process::id()));
        std::fs::create_dir_all(&root).unwrap();
        let files = ShardFiles {
            root: root.clone(),
            tag: LayerTag {
                holes: 3,
                rules: 0,
                seeds: 18,
                opp_store: 0,
                root: (0, 17),
            },
            rank: 0,
            ranks: 2,
            disk_bytes: 0,
        };
        let job = Job {
            ranks: 2,
            pass: Pass::Backward,
            layer: 7,
        };
        files.write_job(job).unwrap();
        assert_eq!(files.read_job().unwrap(), Some(job));
        assert_eq!(job.number(19), 31);
        let text = std::fs::read_to_string(root.join(JOB)).unwrap();
        std::fs::write(root.join(JOB), text.replace("layer 7", "layer 8")).unwrap();
        assert!(matches!(
            files.read_job(),
            Err(OpeningsError::CorruptLayer { .. })
        ));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
