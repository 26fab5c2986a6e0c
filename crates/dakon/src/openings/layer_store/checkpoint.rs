//! The checkpoint (`state`): a short text that records where the count
//! stopped and every file it relies on, ends with the checksum of its
//! text, and is parsed, then validated against the count, before a count
//! resumes from it.

use dalkon_store::checksum::fnv1a64;

use super::format::LayerTag;
use super::STATE_MAGIC;

use crate::openings::Pass;

/// What a checkpoint records of one file it relies on, taken when the file
/// was written: its layer, its number of entries and the FNV-1a 64 of its
/// payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileRecord {
    pub(crate) layer: u32,
    pub(crate) count: u64,
    pub(crate) hash: u64,
}

/// A consistent point of a count: everything needed to go on from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Checkpoint {
    /// The pass that was running.
    pub(crate) pass: Pass,
    /// Forward: every layer up to this one is finished (and in a file),
    /// the higher ones pending (in files). Backward: every layer from this
    /// one up is evaluated (its winners in files).
    pub(crate) layer: u32,
    /// Positions of each finished layer (all layers).
    pub(crate) counts: Vec<u64>,
    /// The finished layer files the checkpoint relies on (count: as in
    /// `counts`).
    pub(crate) finished: Vec<FileRecord>,
    /// The pending files (forward only).
    pub(crate) pending: Vec<FileRecord>,
    /// The winners files (backward only).
    pub(crate) winners: Vec<FileRecord>,
}

/// `layer:count:hash` items of one line.
pub(super) fn records_text(records: &[FileRecord], with_count: bool) -> String {
    records
        .iter()
        .map(|r| {
            if with_count {
                format!("{}:{}:{:016x}", r.layer, r.count, r.hash)
            } else {
                format!("{}:{:016x}", r.layer, r.hash)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl Checkpoint {
    pub(crate) fn to_text(&self, tag: LayerTag) -> String {
        let counts = self
            .counts
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        let body = format!(
            "{STATE_MAGIC}\nholes {}\nrules {}\nseeds {}\nopp_store {}\nroot {} {}\npass {}\nlayer {}\ncounts {counts}\nlayers {}\npending {}\nwinners {}\n",
            tag.holes,
            tag.rules,
            tag.seeds,
            tag.opp_store,
            tag.root.0,
            tag.root.1,
            match self.pass {
                Pass::Forward => "forward",
                Pass::Backward => "backward",
            },
            self.layer,
            records_text(&self.finished, false),
            records_text(&self.pending, true),
            records_text(&self.winners, true),
        );
        format!("{body}checksum {:016x}\n", fnv1a64(body.as_bytes()))
    }

    /// Parse `text` (the fields, each number in its type; the checksum),
    /// then [`Checkpoint::validate`] it against the count of `tag`.
    pub(super) fn from_text(text: &str, tag: LayerTag) -> Result<Checkpoint, String> {
        let cp = Checkpoint::parse(text, tag)?;
        cp.validate(tag)?;
        Ok(cp)
    }

    pub(crate) fn parse(text: &str, tag: LayerTag) -> Result<Checkpoint, String> {
        if text.lines().next() != Some(STATE_MAGIC) {
            return Err("not a checkpoint of this version".into());
        }
        let at = text
            .rfind("checksum ")
            .filter(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n')
            .ok_or("no 'checksum' line")?;
        let (body, last) = text.split_at(at);
        let recorded = last
            .strip_prefix("checksum ")
            .and_then(|h| h.strip_suffix('\n'))
            .and_then(|h| u64::from_str_radix(h, 16).ok())
            .ok_or_else(|| format!("bad checksum line '{}'", last.trim_end()))?;
        if recorded != fnv1a64(body.as_bytes()) {
            return Err(
                "its checksum does not match its text (the file was edited or damaged)".into(),
            );
        }
        let mut lines = body.lines().skip(1);
        let mut field = |name: &str| -> Result<&str, String> {
            let line = lines.next().ok_or(format!("no '{name}' line"))?;
            let rest = line
                .strip_prefix(name)
                .filter(|r| r.is_empty() || r.starts_with(' '))
                .ok_or(format!("'{name}' expected, found '{line}'"))?;
            Ok(rest.trim())
        };
        fn num<T: std::str::FromStr>(s: &str) -> Result<T, String> {
            s.parse::<T>().map_err(|_| format!("bad number '{s}'"))
        }
        let found = LayerTag {
            holes: num(field("holes")?)?,
            rules: num(field("rules")?)?,
            seeds: num(field("seeds")?)?,
            opp_store: num(field("opp_store")?)?,
            root: {
                let r = field("root")?;
                let (l, k) = r.split_once(' ').ok_or(format!("bad root '{r}'"))?;
                (num(l)?, num(k)?)
            },
        };
        if found != tag {
            return Err(format!(
                "it belongs to another count ({} holes, rules {}, {} seeds, opponent's store {}, \
                 first position {} {})",
                found.holes, found.rules, found.seeds, found.opp_store, found.root.0, found.root.1
            ));
        }
        let pass = match field("pass")? {
            "forward" => Pass::Forward,
            "backward" => Pass::Backward,
            other => return Err(format!("unknown pass '{other}'")),
        };
        let layer = num(field("layer")?)?;
        let counts = field("counts")?
            .split_whitespace()
            .map(num)
            .collect::<Result<Vec<u64>, _>>()?;
        let records = |line: &str, with_count: bool| -> Result<Vec<FileRecord>, String> {
            line.split_whitespace()
                .map(|item| {
                    let bad = || format!("bad file record '{item}'");
                    let parts: Vec<&str> = item.split(':').collect();
                    let (layer, count, hash) = match (with_count, parts.as_slice()) {
                        (false, [l, h]) => (*l, None, *h),
                        (true, [l, c, h]) => (*l, Some(*c), *h),
                        _ => return Err(bad()),
                    };
                    Ok(FileRecord {
                        layer: layer.parse().map_err(|_| bad())?,
                        count: match count {
                            Some(c) => c.parse().map_err(|_| bad())?,
                            None => 0,
                        },
                        hash: u64::from_str_radix(hash, 16).map_err(|_| bad())?,
                    })
                })
                .collect()
        };
        let mut finished = records(field("layers")?, false)?;
        let pending = records(field("pending")?, true)?;
        let winners = records(field("winners")?, true)?;
        if let Some(line) = lines.next() {
            return Err(format!("unexpected line '{line}'"));
        }
        for r in &mut finished {
            // The count of a finished layer is the one `counts` gives (a
            // layer out of range is refused by the validation).
            r.count = counts.get(r.layer as usize).copied().unwrap_or(0);
        }
        Ok(Checkpoint {
            pass,
            layer,
            counts,
            finished,
            pending,
            winners,
        })
    }

    /// Check the fields against each other and against the count of
    /// `tag`: every number that is used as an index is in range, and the
    /// files listed are exactly the ones the pass leaves.
    /// The layers of `range` that hold positions, as the state lists them.
    pub(super) fn non_empty(&self, range: std::ops::Range<usize>) -> Vec<u32> {
        range
            .filter(|&l| self.counts[l] > 0)
            .map(|l| l as u32)
            .collect()
    }

    pub(super) fn validate(&self, tag: LayerTag) -> Result<(), String> {
        let layers = tag.seeds as usize + 1;
        let root = tag.root.0 as usize;
        let top = self.layer as usize;
        if self.counts.len() != layers {
            return Err(format!(
                "{} layer counts, the count has {layers} layers",
                self.counts.len()
            ));
        }
        let lowest = match self.pass {
            Pass::Forward => root,
            // A backward checkpoint is written only above the root's layer.
            Pass::Backward => root + 1,
        };
        if top < lowest || top >= layers {
            return Err(format!(
                "layer {top} is out of range: a {} checkpoint of this count has a layer from \
                 {lowest} to {}",
                match self.pass {
                    Pass::Forward => "forward",
                    Pass::Backward => "backward",
                },
                layers - 1
            ));
        }
        if let Some(l) = (0..root).find(|&l| self.counts[l] != 0) {
            return Err(format!(
                "layer {l} has {} positions, but no position of the turn lies below the first \
                 position's layer {root}",
                self.counts[l]
            ));
        }
        if self.counts[root] != 1 {
            return Err(format!(
                "layer {root} has {} positions, but it holds only the first position",
                self.counts[root]
            ));
        }
        // Finished layers: forward, those up to `layer`; backward, all.
        let finished_to = match self.pass {
            Pass::Forward => top + 1,
            Pass::Backward => layers,
        };
        if let Some(l) = (finished_to..layers).find(|&l| self.counts[l] != 0) {
            return Err(format!(
                "layer {l} has {} positions, but the forward pass only finished the layers up \
                 to {top}",
                self.counts[l]
            ));
        }
        // Layer files: every non-empty layer still to be expanded or
        // evaluated (forward: up to `layer`; backward: below it).
        let files_to = match self.pass {
            Pass::Forward => top + 1,
            Pass::Backward => top,
        };
        let want = self.non_empty(0..files_to);
        let have: Vec<u32> = self.finished.iter().map(|r| r.layer).collect();
        if have != want {
            return Err(format!(
                "the layer files listed ({}) are not the non-empty layers of the checkpoint ({})",
                list(&have),
                list(&want)
            ));
        }
        match self.pass {
            Pass::Forward => {
                if !self.winners.is_empty() {
                    return Err("a forward checkpoint lists winners files".into());
                }
                let mut last = top;
                for r in &self.pending {
                    let l = r.layer as usize;
                    if l <= last || l >= layers {
                        return Err(format!(
                            "pending layer {l} is out of order or out of range (the pending \
                             layers lie above layer {top}, below {layers}, ascending)"
                        ));
                    }
                    if r.count == 0 {
                        return Err(format!("pending layer {l} has no positions"));
                    }
                    last = l;
                }
            }
            Pass::Backward => {
                if !self.pending.is_empty() {
                    return Err("a backward checkpoint lists pending files".into());
                }
                let want = self.non_empty(top..layers);
                let have: Vec<u32> = self.winners.iter().map(|r| r.layer).collect();
                if have != want {
                    return Err(format!(
                        "the winners files listed ({}) are not the evaluated non-empty layers \
                         ({})",
                        list(&have),
                        list(&want)
                    ));
                }
                if let Some(r) = self
                    .winners
                    .iter()
                    .find(|r| r.count > self.counts[r.layer as usize])
                {
                    return Err(format!(
                        "layer {} has {} winning positions among only {} positions",
                        r.layer, r.count, self.counts[r.layer as usize]
                    ));
                }
            }
        }
        Ok(())
    }
}

pub(super) fn list(v: &[u32]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::layer_store::testing::{meter, tag};
    use crate::openings::layer_store::LayerStore;
    use crate::openings::OpeningsError;

    #[test]
    fn checkpoints_round_trip_and_belong_to_one_count() {
        let dir = std::env::temp_dir().join(format!("dalkon-layer-cp-{}", std::process::id()));
        let mut meter = meter();
        let (mut store, _) = LayerStore::open(tag(), 19, Some(dir.clone()), 1 << 20).unwrap();
        store.put(0, vec![0], 1, &mut meter).unwrap();
        store.put(1, vec![4, 0], 2, &mut meter).unwrap();
        let record = store.write_pending(1, 3, &[7], 1).unwrap();
        store
            .checkpoint(Pass::Forward, 1, vec![record], &mut meter)
            .unwrap();
        assert_eq!(meter.used, 0, "a checkpoint puts every layer on disk");
        drop(store);
        assert!(dir.join("state").exists(), "a checkpoint keeps the folder");

        // A write killed before its rename left a temporary (no process has
        // this id: Linux pids stop at 2^22); resuming removes it.
        let stale = dir.join("layer-002.bin.999999999.tmp");
        std::fs::write(&stale, b"half a layer").unwrap();
        let (mut again, cp) = LayerStore::open(tag(), 19, Some(dir.clone()), 0).unwrap();
        assert!(!stale.exists());
        let cp = cp.unwrap();
        assert_eq!(
            (cp.pass, cp.layer, cp.pending.clone()),
            (Pass::Forward, 1, vec![record])
        );
        assert_eq!(again.pending(&cp, &record).unwrap(), vec![7]);
        assert_eq!(again.take(1, &mut meter).unwrap(), (vec![4, 0], true));
        drop(again);

        // A run killed while writing the next checkpoint's pending files
        // (before its state was renamed into place) leaves the checkpoint
        // named by the state usable: the new files have other names.
        let (mut killed, _) = LayerStore::open(tag(), 19, Some(dir.clone()), 0).unwrap();
        killed.write_pending(2, 3, &[7, 1], 2).unwrap();
        drop(killed);
        let (again, cp) = LayerStore::open(tag(), 19, Some(dir.clone()), 0).unwrap();
        assert_eq!(again.pending(&cp.unwrap(), &record).unwrap(), vec![7]);
        drop(again);
        std::fs::remove_file(dir.join("pending-003-after-002.bin")).unwrap();

        // Another board's count, or another position's, refuses the folder.
        for other in [
            LayerTag { holes: 4, ..tag() },
            LayerTag {
                root: (0, 18),
                ..tag()
            },
        ] {
            assert!(matches!(
                LayerStore::open(other, 19, Some(dir.clone()), 0),
                Err(OpeningsError::CorruptLayer { .. })
            ));
        }
        // A damaged checkpoint cannot be resumed: the error names the
        // folder and says to delete it, not to run the count again.
        let state = dir.join("state");
        let kept = std::fs::read(&state).unwrap();
        std::fs::write(&state, b"dalkon openings checkpoint 3\nholes x\n").unwrap();
        let err = LayerStore::open(tag(), 19, Some(dir.clone()), 0).unwrap_err();
        assert!(matches!(err, OpeningsError::CorruptLayer { .. }), "{err}");
        assert!(!err.resumable());
        let text = err.to_string();
        assert!(text.contains("delete that folder"), "{text}");
        assert!(text.contains(&dir.display().to_string()), "{text}");
        std::fs::write(&state, kept).unwrap();

        let (mut last, _) = LayerStore::open(tag(), 19, Some(dir.clone()), 0).unwrap();
        last.finish();
        assert!(!dir.exists(), "a finished count removes its folder");
    }
}
