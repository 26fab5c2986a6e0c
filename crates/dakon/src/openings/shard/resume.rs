//! Taking a partitioned count up from the checkpoint `job` names, with any
//! number of ranks: the old ranks' folders are shared out among the new
//! ranks (old rank r to new rank r mod K'), each reads and checks its
//! files, and every entry is sent to its owner among the new ranks, layer
//! by layer (with the same number of ranks, every entry stays).

use std::path::PathBuf;

use super::codec::{decode_keys, encode_keys, owner, push_summary, read_summary, SUMMARY_BYTES};
use super::store::Job;
use super::{over, Shard, Winners};
use crate::openings::count::{Ranks, WIN_ENTRY_BYTES};
use crate::openings::layer_set::{Encoder, LayerSet};
use crate::openings::layer_store::{decode_winners, Checkpoint, FileRecord, Kind};
use crate::openings::{OpeningsError, Pass};

/// An old rank's folder and its state of the checkpoint.
type OldShard = (PathBuf, Checkpoint);

impl Shard<'_> {
    /// Load checkpoint `job` into this rank's part (finished layers,
    /// pending sets, winners); returns where the passes take up the work.
    pub(super) fn load(
        &mut self,
        job: Job,
        pending: &mut [Option<LayerSet>],
        win: &mut Winners,
    ) -> Result<(usize, usize), OpeningsError> {
        let number = job.number(self.layers);
        let (me, k) = (self.ex.rank(), self.ex.size());
        let files = self.files.as_ref().expect("a job has a working folder");
        let olds: Result<Vec<OldShard>, OpeningsError> = (0..job.ranks)
            .filter(|r| r % k == me)
            .map(|r| {
                let dir = files.dir_of(r, job.ranks);
                let cp = files.read_state(&dir, number, self.layers)?;
                if cp.pass != job.pass || cp.layer != job.layer {
                    return Err(OpeningsError::CorruptLayer {
                        dir: files.root.clone(),
                        path: dir.clone(),
                        why: "its state is not of the checkpoint the job names".into(),
                    });
                }
                Ok((dir, cp))
            })
            .collect();
        let olds = self.agree_with(olds)?;
        let same = job.ranks == k;
        let top = job.layer as usize;
        let finished_to = match job.pass {
            Pass::Forward => top + 1,
            Pass::Backward => top,
        };
        for l in 0..self.layers {
            if l < finished_to {
                let ranks = self.share(&olds, Kind::Finished, l, number)?;
                let n = ranks.len() as u64;
                let mut enc = Encoder::default();
                ranks.iter().for_each(|&r| enc.push(r));
                let record = olds.first().and_then(|(_, cp)| record(&cp.finished, l));
                let kept = if same && record.is_some() {
                    self.counts[l] = n;
                    self.on_disk[l] = record;
                    Ok(())
                } else {
                    self.keep(l, enc.bytes, n)
                };
                self.note(kept);
            }
            if job.pass == Pass::Forward && l > top {
                let ranks = self.share(&olds, Kind::Pending, l, number)?;
                if !ranks.is_empty() {
                    let set = self.layer_set(l).and_then(|mut set| {
                        set.extend(&ranks, &mut self.meter)
                            .map_err(over(&self.meter))?;
                        Ok(set)
                    });
                    pending[l] = self.note(set);
                }
            }
            if job.pass == Pass::Backward && l >= top {
                let entries = self.share_winners(&olds, l)?;
                let charged = self
                    .meter
                    .charge(entries.len() as u64 * WIN_ENTRY_BYTES)
                    .map_err(over(&self.meter));
                self.note(charged);
                if same {
                    self.winners_on_disk[l] =
                        olds.first().and_then(|(_, cp)| record(&cp.winners, l));
                }
                win[l] = entries.into_iter().collect();
            }
        }
        // Every layer's positions, those evaluated already too (their
        // files are not needed any more).
        let old_positions: u64 = olds.iter().flat_map(|(_, cp)| &cp.counts).sum();
        self.positions = self.ex.sum(&[old_positions])[0];
        let winners: Vec<u64> = win.iter().map(|t| t.len() as u64).collect();
        self.winning_positions = self.ex.sum(&winners).iter().sum();
        self.agree()?;
        Ok(match job.pass {
            Pass::Forward => (top + 1, self.layers),
            Pass::Backward => (self.layers, top),
        })
    }

    /// The positions of layer `l` (finished or pending, as `kind` says)
    /// that this rank owns, gathered from the old ranks' files.
    fn share(
        &mut self,
        olds: &[OldShard],
        kind: Kind,
        l: usize,
        number: u32,
    ) -> Result<Vec<u128>, OpeningsError> {
        let k = self.ex.size();
        let parts = (|| {
            let files = self.files.as_ref().expect("a working folder");
            let mut buckets: Vec<Vec<(usize, u128)>> = vec![Vec::new(); k];
            for (dir, cp) in olds {
                let (list, checkpoint) = match kind {
                    Kind::Pending => (&cp.pending, number),
                    _ => (&cp.finished, 0),
                };
                let Some(r) = record(list, l) else { continue };
                let payload = files.read(dir, kind, &r, checkpoint)?;
                let mut ranks = Ranks::new(&payload, l, self.total(l)?, r.count);
                let mut chunk = Vec::new();
                while ranks.next_chunk_with(&mut chunk, Self::bad(l))? {
                    for &rank in &chunk {
                        buckets[owner(l, rank, k)].push((l, rank));
                    }
                }
            }
            Ok(buckets.iter_mut().map(encode_keys).collect::<Vec<_>>())
        })();
        let parts = self.agree_with(parts)?;
        let got = self.ex.all_to_all(parts);
        let mut all = Vec::new();
        for part in &got {
            match decode_keys(part) {
                Some(groups) => all.extend(groups.into_iter().flat_map(|(_, r)| r)),
                None => {
                    self.note::<()>(Err(Self::bad(l)("a shared layer does not decode")));
                }
            }
        }
        all.sort_unstable();
        all.dedup();
        Ok(all)
    }

    /// The winning positions of layer `l` that this rank owns, gathered
    /// from the old ranks' files.
    fn share_winners(
        &mut self,
        olds: &[OldShard],
        l: usize,
    ) -> Result<Vec<(u128, crate::openings::board::Summary)>, OpeningsError> {
        let k = self.ex.size();
        let parts = (|| {
            let files = self.files.as_ref().expect("a working folder");
            let mut parts: Vec<Vec<u8>> = vec![Vec::new(); k];
            for (dir, cp) in olds {
                let Some(r) = record(&cp.winners, l) else {
                    continue;
                };
                let payload = files.read(dir, Kind::Winners, &r, 0)?;
                let table = decode_winners(&payload, r.count)
                    .ok_or_else(|| Self::bad(l)("the winners are not whole entries"))?;
                for (rank, s) in table {
                    let part = &mut parts[owner(l, rank, k)];
                    part.extend_from_slice(&rank.to_le_bytes());
                    push_summary(part, &s);
                }
            }
            Ok(parts)
        })();
        let parts = self.agree_with(parts)?;
        let got = self.ex.all_to_all(parts);
        let mut out = Vec::new();
        for part in &got {
            for e in part.chunks(16 + SUMMARY_BYTES) {
                let rank = e
                    .get(..16)
                    .and_then(|b| b.try_into().ok())
                    .map(u128::from_le_bytes);
                match (rank, e.get(16..).and_then(read_summary)) {
                    (Some(rank), Some(s)) => out.push((rank, s)),
                    _ => {
                        self.note::<()>(Err(Self::bad(l)("shared winners do not decode")));
                    }
                }
            }
        }
        Ok(out)
    }
}

fn record(list: &[FileRecord], l: usize) -> Option<FileRecord> {
    list.iter().find(|r| r.layer as usize == l).copied()
}
