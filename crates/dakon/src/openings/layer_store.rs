//! Where finished layers of the first turn wait for the backward pass (in
//! memory while they fit, then in files of a working folder), and the
//! checkpoints from which an interrupted count resumes.
//!
//! Every file is a 64-byte header and a payload; all integers
//! little-endian:
//!
//! | offset | size | field                                               |
//! |-------:|-----:|-----------------------------------------------------|
//! | 0      | 8    | magic `DKOPENLY`                                    |
//! | 8      | 4    | format version (2)                                  |
//! | 12     | 4    | holes per row                                       |
//! | 16     | 4    | rules code (`Rules::code()`)                        |
//! | 20     | 4    | seeds in the game                                   |
//! | 24     | 4    | the opponent's store (fixed during the turn)        |
//! | 28     | 4    | layer (the mover's store)                           |
//! | 32     | 8    | number of entries                                   |
//! | 40     | 8    | payload length in bytes                             |
//! | 48     | 8    | FNV-1a 64 checksum of the payload                   |
//! | 56     | 4    | kind: 0 finished layer, 1 pending layer, 2 winners  |
//! | 60     | 4    | for a pending layer, the checkpoint it belongs to   |
//!
//! A finished or pending layer's payload is its encoded ranks (see
//! `layer_set.rs`); a winners payload is the layer's positions that can
//! still win, each a 16-byte rank and a 14-byte summary. A file read back
//! must match the count in every field and its checksum, so a truncated,
//! stale or foreign file is refused, never misread (and since the whole
//! header must be the one expected, the header needs no checksum of its
//! own). Files are written with [`dalkon_store::atomic`], and the
//! checkpoint (`state`, a short text) is renamed into place only after
//! every file it names is complete, so whatever moment a count is killed,
//! the folder holds a consistent checkpoint or none. Pending files carry
//! their checkpoint in their name, so writing the next checkpoint's never
//! replaces a file the current `state` still names.
//!
//! A checkpoint is trusted only once it agrees with itself and with the
//! files: `state` ends with the checksum of its text, and records the
//! count and the payload checksum of every file it relies on (taken when
//! the file was written); every field is parsed, then validated against
//! the count (layer numbers in range, counts where the pass allows them,
//! the right files listed), and every file's header is checked against
//! the record before the count resumes. A payload is checked against its
//! record again when it is read.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use dalkon_store::atomic;
use dalkon_store::checksum::{fnv1a64, Fnv1a64};
use dalkon_store::header::{self as store_header, u64_at};
use dalkon_store::FileError;
use hashbrown::HashMap;

use super::board::Summary;
use super::layer_set::Meter;
use super::{OpeningsError, Pass, WORK_DIR_FOR};

const MAGIC: [u8; 8] = *b"DKOPENLY";
const VERSION: u32 = 2;
const HEADER_LEN: usize = 64;
/// Where the payload's checksum sits in the header.
const CHECKSUM_AT: usize = 48;
const STATE: &str = "state";
const STATE_MAGIC: &str = "dalkon openings checkpoint 4";

/// What every file of one count must say in its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LayerTag {
    pub(crate) holes: u32,
    pub(crate) rules: u32,
    pub(crate) seeds: u32,
    pub(crate) opp_store: u32,
    /// The position whose turn is counted, as (layer, rank): checked by
    /// the checkpoint only (files of one count share it).
    pub(crate) root: (u32, u128),
}

/// The kinds of file in a working folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Finished = 0,
    Pending = 1,
    Winners = 2,
}

impl Kind {
    fn prefix(self) -> &'static str {
        match self {
            Kind::Finished => "layer",
            Kind::Pending => "pending",
            Kind::Winners => "winners",
        }
    }
}

struct Header {
    tag: LayerTag,
    layer: u32,
    count: u64,
    kind: Kind,
    checkpoint: u32,
}

fn header(h: &Header, payload: &[u8]) -> [u8; HEADER_LEN] {
    let mut b = store_header::Header::<HEADER_LEN>::new(MAGIC, VERSION);
    b.u32(12, h.tag.holes)
        .u32(16, h.tag.rules)
        .u32(20, h.tag.seeds)
        .u32(24, h.tag.opp_store)
        .u32(28, h.layer)
        .u64(32, h.count)
        .u64(40, payload.len() as u64)
        .u64(CHECKSUM_AT, fnv1a64(payload))
        .u32(56, h.kind as u32)
        .u32(60, h.checkpoint);
    b.to_bytes()
}

/// Bytes of one winning position in a winners file: its rank and summary.
const WINNER_BYTES: usize = 30;

/// A layer's winning positions as bytes, in rank order (so the file does
/// not depend on the hash table's order), with their number.
pub(super) fn encode_winners(table: &HashMap<u128, Summary>) -> (Vec<u8>, u64) {
    let mut entries: Vec<(&u128, &Summary)> = table.iter().collect();
    entries.sort_unstable_by_key(|e| *e.0);
    let mut out = Vec::with_capacity(entries.len() * WINNER_BYTES);
    for (r, s) in entries {
        out.extend_from_slice(&r.to_le_bytes());
        out.extend_from_slice(&s.count.to_le_bytes());
        out.extend_from_slice(&s.short_len.to_le_bytes());
        out.push(s.short_first);
        out.extend_from_slice(&s.best_margin.to_le_bytes());
        out.push(s.best_first);
    }
    (out, table.len() as u64)
}

/// The inverse of [`encode_winners`]; `None` when the bytes are not `n`
/// entries.
pub(super) fn decode_winners(bytes: &[u8], n: u64) -> Option<HashMap<u128, Summary>> {
    if bytes.len() as u64 != n * WINNER_BYTES as u64 {
        return None;
    }
    let mut table = HashMap::with_capacity(n as usize);
    for e in bytes.chunks_exact(WINNER_BYTES) {
        let r = u128::from_le_bytes(e[0..16].try_into().ok()?);
        let s = Summary {
            count: u64::from_le_bytes(e[16..24].try_into().ok()?),
            short_len: u16::from_le_bytes(e[24..26].try_into().ok()?),
            short_first: e[26],
            best_margin: i16::from_le_bytes(e[27..29].try_into().ok()?),
            best_first: e[29],
        };
        table.insert(r, s);
    }
    Some(table)
}

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
fn records_text(records: &[FileRecord], with_count: bool) -> String {
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
    fn to_text(&self, tag: LayerTag) -> String {
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
    fn from_text(text: &str, tag: LayerTag) -> Result<Checkpoint, String> {
        let cp = Checkpoint::parse(text, tag)?;
        cp.validate(tag)?;
        Ok(cp)
    }

    fn parse(text: &str, tag: LayerTag) -> Result<Checkpoint, String> {
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
    fn non_empty(&self, range: std::ops::Range<usize>) -> Vec<u32> {
        range
            .filter(|&l| self.counts[l] > 0)
            .map(|l| l as u32)
            .collect()
    }

    fn validate(&self, tag: LayerTag) -> Result<(), String> {
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

fn list(v: &[u32]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
}

/// The name of pending layer `layer`'s file saved by the forward
/// checkpoint after layer `checkpoint`.
fn pending_name(layer: usize, checkpoint: u32) -> String {
    format!("pending-{layer:03}-after-{checkpoint:03}.bin")
}

/// `(layer, checkpoint)` of a pending file's name.
fn parse_pending_name(name: &str) -> Option<(u32, u32)> {
    let (l, c) = name
        .strip_prefix("pending-")?
        .strip_suffix(".bin")?
        .split_once("-after-")?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(l) && digits(c)).then(|| Some((l.parse().ok()?, c.parse().ok()?)))?
}

/// The finished layers of one count, and its checkpoints.
#[derive(Debug)]
pub(crate) struct LayerStore {
    tag: LayerTag,
    /// The count's working folder.
    dir: Option<PathBuf>,
    /// Whether this run made the folder (and may remove it).
    created: bool,
    /// Whether the folder holds a checkpoint (it is then kept when the
    /// count stops early, to resume from).
    checkpointed: bool,
    /// Layers kept in memory, by layer.
    mem: Vec<Option<Vec<u8>>>,
    /// Positions of each layer.
    counts: Vec<u64>,
    /// The payload checksum of each layer in a file (`None`: not in a
    /// file), as written: a file read back must still have it.
    hashes: Vec<Option<u64>>,
    /// The winners files written (or found by the checkpoint resumed).
    winners: Vec<FileRecord>,
    /// Bytes of layers kept in memory.
    mem_bytes: u64,
    /// Keep layers in memory up to this many bytes.
    mem_cap: u64,
    /// Bytes written to files.
    pub(crate) disk_bytes: u64,
}

impl LayerStore {
    /// A store for layers `0..layers`. `dir`, when given, is the count's
    /// working folder: created when first needed, or, when it exists, it
    /// must hold a checkpoint of this same count (returned, to resume),
    /// which is checked against itself and its files first.
    pub(crate) fn open(
        tag: LayerTag,
        layers: usize,
        dir: Option<PathBuf>,
        mem_cap: u64,
    ) -> Result<(Self, Option<Checkpoint>), OpeningsError> {
        let mut store = LayerStore {
            tag,
            dir,
            created: false,
            checkpointed: false,
            mem: vec![None; layers],
            counts: vec![0; layers],
            hashes: vec![None; layers],
            winners: Vec::new(),
            mem_bytes: 0,
            mem_cap,
            disk_bytes: 0,
        };
        let Some(dir) = store.dir.clone() else {
            return Ok((store, None));
        };
        dalkon_store::error::check_folder(&dir, WORK_DIR_FOR)?;
        if !dir.exists() {
            return Ok((store, None));
        }
        let state = dir.join(STATE);
        let text = match std::fs::read(&state) {
            Ok(bytes) => {
                String::from_utf8(bytes).map_err(|_| store.corrupt(&state, "not UTF-8 text"))?
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(OpeningsError::NotACheckpoint { dir });
            }
            Err(e) => return Err(store.read_error(&state, e)),
        };
        let cp = Checkpoint::from_text(&text, tag).map_err(|why| store.corrupt(&state, why))?;
        // A run killed mid-write left its temporary; nothing will rename it.
        atomic::remove_stale(&dir, |_| true).map_err(|e| Self::io(&dir, e))?;
        store.check_files(&cp)?;
        store.counts.clone_from(&cp.counts);
        store.checkpointed = true;
        for r in &cp.finished {
            store.hashes[r.layer as usize] = Some(r.hash);
        }
        store.winners.clone_from(&cp.winners);
        Ok((store, Some(cp)))
    }

    /// Every file `cp` relies on is there, complete, and its header is
    /// the one recorded (count, checksum, checkpoint); and no pending file
    /// of this checkpoint is left out of it.
    fn check_files(&self, cp: &Checkpoint) -> Result<(), OpeningsError> {
        for r in &cp.finished {
            self.check_header(Kind::Finished, r, 0)?;
        }
        for r in &cp.pending {
            self.check_header(Kind::Pending, r, cp.layer)?;
        }
        for r in &cp.winners {
            self.check_header(Kind::Winners, r, 0)?;
        }
        if cp.pass == Pass::Forward {
            let dir = self.dir.as_ref().expect("a working folder");
            let entries = std::fs::read_dir(dir).map_err(|e| Self::io(dir, e))?;
            for entry in entries {
                let entry = entry.map_err(|e| Self::io(dir, e))?;
                let name = entry.file_name();
                let Some((l, c)) = name.to_str().and_then(parse_pending_name) else {
                    continue;
                };
                if c == cp.layer && !cp.pending.iter().any(|r| r.layer == l) {
                    return Err(self.corrupt(
                        &dir.join(STATE),
                        format!(
                            "{} belongs to this checkpoint but is not listed in its pending \
                             layers",
                            entry.path().display()
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The header of the file recorded by `r` against the record, and
    /// the file's length against its header.
    fn check_header(
        &self,
        kind: Kind,
        r: &FileRecord,
        checkpoint: u32,
    ) -> Result<(), OpeningsError> {
        let path = self.path(kind, r.layer as usize, checkpoint);
        let mut head = [0u8; HEADER_LEN];
        let len = File::open(&path)
            .and_then(|mut f| {
                f.read_exact(&mut head)?;
                Ok(f.metadata()?.len())
            })
            .map_err(|e| self.read_error(&path, e))?;
        let h = Header {
            tag: self.tag,
            layer: r.layer,
            count: r.count,
            kind,
            checkpoint,
        };
        // All but the payload length, which the record does not hold; the
        // length is then checked against the file's size.
        let want = header(&h, &[]);
        let payload_len = u64_at(&head, 40);
        let want = store_header::Header::<HEADER_LEN>::from_bytes(want)
            .u64(40, payload_len)
            .u64(CHECKSUM_AT, r.hash)
            .to_bytes();
        if head != want || Some(len) != payload_len.checked_add(HEADER_LEN as u64) {
            return Err(self.corrupt(
                &path,
                "its header, length or checksum is not the one the checkpoint recorded",
            ));
        }
        Ok(())
    }

    fn path(&self, kind: Kind, layer: usize, checkpoint: u32) -> PathBuf {
        let dir = self.dir.as_ref().expect("a working folder");
        match kind {
            Kind::Pending => dir.join(pending_name(layer, checkpoint)),
            _ => dir.join(format!("{}-{layer:03}.bin", kind.prefix())),
        }
    }

    fn io(path: &Path, source: std::io::Error) -> OpeningsError {
        FileError::io(path)(source).into()
    }

    /// A file the checkpoint relies on cannot be read (missing, cut short,
    /// a folder in its place, unreadable): damage that another run would
    /// meet again.
    fn read_error(&self, path: &Path, e: std::io::Error) -> OpeningsError {
        match e.kind() {
            std::io::ErrorKind::NotFound => {
                self.corrupt(path, "the checkpoint needs this file, which is missing")
            }
            std::io::ErrorKind::UnexpectedEof => self.corrupt(path, "shorter than its header"),
            // Not a write that a full disk stopped: reading the same file
            // again fails the same way, so this is no checkpoint to resume.
            _ => self.corrupt(path, format!("cannot be read ({e})")),
        }
    }

    /// The error for `path`, a file of the working folder that cannot be
    /// used.
    fn corrupt(&self, path: &Path, why: impl Into<String>) -> OpeningsError {
        OpeningsError::CorruptLayer {
            dir: self.dir.clone().expect("a working folder"),
            path: path.to_path_buf(),
            why: why.into(),
        }
    }

    /// The error for the checkpoint's `state` (it passed its own checks
    /// but does not fit the board).
    pub(crate) fn corrupt_state(&self, why: impl Into<String>) -> OpeningsError {
        let dir = self.dir.clone().expect("a working folder");
        OpeningsError::CorruptLayer {
            path: dir.join(STATE),
            dir,
            why: why.into(),
        }
    }

    /// The error for encoded positions of layer `layer` (of `kind`,
    /// pending after `checkpoint`) that do not decode: damage of its file
    /// when it came from one, else [`OpeningsError::Undecodable`].
    pub(crate) fn undecodable(
        &self,
        kind: Kind,
        layer: usize,
        checkpoint: u32,
        from_file: bool,
        what: &'static str,
    ) -> OpeningsError {
        if from_file && self.dir.is_some() {
            return self.corrupt(&self.path(kind, layer, checkpoint), what);
        }
        OpeningsError::Undecodable {
            layer: layer as u32,
            what,
        }
    }

    fn ensure_dir(&mut self) -> Result<PathBuf, OpeningsError> {
        let dir = self.dir.clone().expect("a working folder");
        if !dir.exists() {
            std::fs::create_dir_all(&dir).map_err(|e| Self::io(&dir, e))?;
            self.created = true;
        }
        Ok(dir)
    }

    /// Write a file; returns its record.
    fn write_file(
        &mut self,
        kind: Kind,
        layer: usize,
        count: u64,
        checkpoint: u32,
        payload: &[u8],
    ) -> Result<FileRecord, OpeningsError> {
        self.ensure_dir()?;
        let path = self.path(kind, layer, checkpoint);
        let h = Header {
            tag: self.tag,
            layer: layer as u32,
            count,
            kind,
            checkpoint,
        };
        let head = header(&h, payload);
        atomic::write_parts(&path, &[&head, payload]).map_err(|e| Self::io(&path, e))?;
        self.disk_bytes += (HEADER_LEN + payload.len()) as u64;
        Ok(FileRecord {
            layer: layer as u32,
            count,
            hash: u64_at(&head, CHECKSUM_AT),
        })
    }

    /// Read the file of record `r` and check it against the record.
    fn read_file(
        &self,
        kind: Kind,
        r: &FileRecord,
        checkpoint: u32,
    ) -> Result<Vec<u8>, OpeningsError> {
        let path = self.path(kind, r.layer as usize, checkpoint);
        let mut bytes = Vec::new();
        File::open(&path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(|e| self.read_error(&path, e))?;
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
        let hash = Fnv1a64::new().update(&payload).value();
        if hash != r.hash || bytes[..] != header(&h, &payload)[..] {
            return Err(self.corrupt(
                &path,
                "header or checksum does not match this count (truncated, changed, stale or foreign)",
            ));
        }
        Ok(payload)
    }

    /// Keep layer `layer` (`count` positions, encoded in `payload`).
    pub(crate) fn put(
        &mut self,
        layer: usize,
        payload: Vec<u8>,
        count: u64,
        meter: &mut Meter,
    ) -> Result<(), OpeningsError> {
        self.counts[layer] = count;
        let bytes = payload.len() as u64;
        if self.mem_bytes + bytes <= self.mem_cap || self.dir.is_none() {
            meter
                .charge(bytes)
                .map_err(|needed| OpeningsError::TooMuchMemory {
                    needed,
                    budget: meter.budget,
                })?;
            self.mem_bytes += bytes;
            self.mem[layer] = Some(payload);
            return Ok(());
        }
        let r = self.write_file(Kind::Finished, layer, count, 0, &payload)?;
        self.hashes[layer] = Some(r.hash);
        Ok(())
    }

    /// Positions of layer `layer`.
    pub(crate) fn count(&self, layer: usize) -> u64 {
        self.counts[layer]
    }

    /// Layer `layer`'s encoded positions (from memory, or read and checked
    /// from its file), and whether they came from a file. The file stays
    /// until the count ends: a checkpoint may need it.
    pub(crate) fn take(
        &mut self,
        layer: usize,
        meter: &mut Meter,
    ) -> Result<(Vec<u8>, bool), OpeningsError> {
        if let Some(p) = self.mem[layer].take() {
            self.mem_bytes -= p.len() as u64;
            meter.release(p.len() as u64);
            return Ok((p, false));
        }
        let Some(hash) = self.hashes[layer] else {
            return Ok((Vec::new(), false));
        };
        let r = FileRecord {
            layer: layer as u32,
            count: self.counts[layer],
            hash,
        };
        Ok((self.read_file(Kind::Finished, &r, 0)?, true))
    }

    /// Write every layer still in memory to its file (a checkpoint needs
    /// them all on disk).
    fn spill_all(&mut self, meter: &mut Meter) -> Result<(), OpeningsError> {
        for layer in 0..self.mem.len() {
            if let Some(p) = self.mem[layer].take() {
                let r = self.write_file(Kind::Finished, layer, self.counts[layer], 0, &p)?;
                self.hashes[layer] = Some(r.hash);
                self.mem_bytes -= p.len() as u64;
                meter.release(p.len() as u64);
            }
        }
        Ok(())
    }

    /// Save pending layer `layer` (`count` positions, encoded in
    /// `payload`) for the forward checkpoint after layer `checkpoint`;
    /// returns its record for the checkpoint.
    pub(crate) fn write_pending(
        &mut self,
        checkpoint: u32,
        layer: usize,
        payload: &[u8],
        count: u64,
    ) -> Result<FileRecord, OpeningsError> {
        self.write_file(Kind::Pending, layer, count, checkpoint, payload)
    }

    /// Record a checkpoint (see [`Checkpoint`] for what `layer` means in
    /// each pass); the `pending` layers of a forward checkpoint were saved
    /// by [`LayerStore::write_pending`], the winners of a backward one by
    /// [`LayerStore::write_winners`].
    pub(crate) fn checkpoint(
        &mut self,
        pass: Pass,
        layer: u32,
        pending: Vec<FileRecord>,
        meter: &mut Meter,
    ) -> Result<(), OpeningsError> {
        self.spill_all(meter)?;
        let files_to = match pass {
            Pass::Forward => layer as usize + 1,
            Pass::Backward => layer as usize,
        };
        let finished = (0..files_to)
            .filter(|&l| self.counts[l] > 0)
            .map(|l| FileRecord {
                layer: l as u32,
                count: self.counts[l],
                hash: self.hashes[l].expect("every finished layer is in a file after the spill"),
            })
            .collect();
        let mut winners: Vec<FileRecord> = match pass {
            Pass::Forward => Vec::new(),
            Pass::Backward => self
                .winners
                .iter()
                .filter(|r| r.layer >= layer)
                .copied()
                .collect(),
        };
        winners.sort_unstable_by_key(|r| r.layer);
        let cp = Checkpoint {
            pass,
            layer,
            counts: self.counts.clone(),
            finished,
            pending,
            winners,
        };
        self.write_state(&cp)?;
        if pass == Pass::Forward {
            self.remove_old_pending(layer);
        }
        Ok(())
    }

    /// Remove the pending files of checkpoints other than `current`, which
    /// no `state` names any more. Best effort: they are recognised by
    /// their name and ignored if left.
    fn remove_old_pending(&self, current: u32) {
        let Some(dir) = &self.dir else { return };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            if let Some((_, c)) = name.to_str().and_then(parse_pending_name) {
                if c != current {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
    }

    /// A pending layer saved by the forward checkpoint `cp`, as recorded.
    pub(crate) fn pending(
        &self,
        cp: &Checkpoint,
        r: &FileRecord,
    ) -> Result<Vec<u8>, OpeningsError> {
        self.read_file(Kind::Pending, r, cp.layer)
    }

    /// Save the winning positions of evaluated layer `layer`.
    pub(crate) fn write_winners(
        &mut self,
        layer: usize,
        payload: &[u8],
        count: u64,
    ) -> Result<(), OpeningsError> {
        let r = self.write_file(Kind::Winners, layer, count, 0, payload)?;
        self.winners.retain(|w| w.layer != r.layer);
        self.winners.push(r);
        Ok(())
    }

    /// The winners of layer `layer` saved by a backward checkpoint, with
    /// their number.
    pub(crate) fn winners(&self, layer: usize) -> Result<(Vec<u8>, u64), OpeningsError> {
        let r = *self
            .winners
            .iter()
            .find(|r| r.layer as usize == layer)
            .ok_or_else(|| {
                self.corrupt_state(format!("no winners file is recorded for layer {layer}"))
            })?;
        Ok((self.read_file(Kind::Winners, &r, 0)?, r.count))
    }

    fn write_state(&mut self, cp: &Checkpoint) -> Result<(), OpeningsError> {
        let dir = self.ensure_dir()?;
        let state = dir.join(STATE);
        atomic::write(&state, cp.to_text(self.tag).as_bytes()).map_err(|e| Self::io(&state, e))?;
        self.checkpointed = true;
        Ok(())
    }

    /// The count is complete: remove the working folder.
    pub(crate) fn finish(&mut self) {
        if let Some(d) = &self.dir {
            if self.created || self.checkpointed {
                // Best effort: the folder is the count's own.
                let _ = std::fs::remove_dir_all(d);
            }
        }
        self.created = false;
        self.checkpointed = false;
    }
}

impl Drop for LayerStore {
    /// A count that stops early keeps its folder only if it holds a
    /// checkpoint; otherwise there is nothing to resume from.
    fn drop(&mut self) {
        if self.created && !self.checkpointed {
            if let Some(d) = &self.dir {
                let _ = std::fs::remove_dir_all(d);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag() -> LayerTag {
        LayerTag {
            holes: 3,
            rules: 0,
            seeds: 18,
            opp_store: 0,
            root: (0, 17),
        }
    }

    fn meter() -> Meter {
        Meter {
            used: 0,
            budget: 1 << 20,
            peak: 0,
        }
    }

    #[test]
    fn layers_come_back_from_files_and_damage_is_caught() {
        let dir = std::env::temp_dir().join(format!("dalkon-layer-store-{}", std::process::id()));
        let mut meter = meter();
        let (mut store, cp) = LayerStore::open(tag(), 19, Some(dir.clone()), 0).unwrap();
        assert!(cp.is_none());
        store.put(2, vec![1, 2, 3], 3, &mut meter).unwrap();
        store.put(5, vec![0, 0x81, 0x01], 2, &mut meter).unwrap();
        assert_eq!(meter.used, 0, "spilled layers cost no memory");
        assert_eq!(store.count(5), 2);
        assert_eq!(store.take(2, &mut meter).unwrap(), (vec![1, 2, 3], true));

        // Flip one payload byte: the checksum no longer matches.
        let path = dir.join("layer-005.bin");
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER_LEN + 1] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(
            store.take(5, &mut meter),
            Err(OpeningsError::CorruptLayer { .. })
        ));
        drop(store);
        assert!(
            !dir.exists(),
            "without a checkpoint the folder goes with the store"
        );
    }

    /// The bytes of a pending layer's file as docs/formats.md and this
    /// module's table lay them out (written out by hand, not by this
    /// code): files of format 2 written by earlier builds must still be
    /// written the same and read back.
    #[test]
    fn a_file_of_format_2_is_written_and_read_byte_for_byte() {
        let golden = "444b4f50454e4c5902000000030000000000000012000000040000000500000002000000\
                      000000000300000000000000c1b99a6a18ad96d70100000007000000008101";
        let tag = LayerTag {
            opp_store: 4,
            ..tag()
        };
        let payload = [0u8, 0x81, 0x01];
        let h = Header {
            tag,
            layer: 5,
            count: 2,
            kind: Kind::Pending,
            checkpoint: 7,
        };
        let mut file = header(&h, &payload).to_vec();
        file.extend_from_slice(&payload);
        let hex: String = file.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, golden);

        let dir = std::env::temp_dir().join(format!("dalkon-layer-golden-{}", std::process::id()));
        let (store, _) = LayerStore::open(tag, 19, Some(dir.clone()), 0).unwrap();
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(pending_name(5, 7)), &file).unwrap();
        let record = FileRecord {
            layer: 5,
            count: 2,
            hash: 0xd796_ad18_6a9a_b9c1,
        };
        assert_eq!(store.read_file(Kind::Pending, &record, 7).unwrap(), payload);
        store.check_header(Kind::Pending, &record, 7).unwrap();
        drop(store);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_in_place_of_the_working_folder_is_refused_by_name() {
        let file = std::env::temp_dir().join(format!("dalkon-layer-notdir-{}", std::process::id()));
        std::fs::write(&file, b"x").unwrap();
        let err = LayerStore::open(tag(), 19, Some(file.clone()), 0).unwrap_err();
        assert!(matches!(err, OpeningsError::NotAFolder { .. }), "{err}");
        assert_eq!(
            err.to_string(),
            format!(
                "{} is not a folder: name a folder for the count's checkpoints (it is created \
                 if missing)",
                file.display()
            )
        );
        assert!(err.is_bad_input());
        std::fs::remove_file(&file).unwrap();
    }

    #[test]
    fn winners_round_trip_in_rank_order() {
        let mut table = HashMap::new();
        for (r, count) in [(u128::MAX - 3, 7u64), (5, 1), (1 << 70, u64::MAX)] {
            let s = Summary {
                count,
                short_len: 3,
                short_first: 2,
                best_margin: -4,
                best_first: 9,
            };
            table.insert(r, s);
        }
        let (bytes, n) = encode_winners(&table);
        assert_eq!((bytes.len(), n), (3 * WINNER_BYTES, 3));
        assert_eq!(bytes[..16], 5u128.to_le_bytes(), "rank order");
        let back = decode_winners(&bytes, n).unwrap();
        assert_eq!(back.len(), 3);
        for (r, s) in &table {
            let b = back[r];
            assert_eq!(
                (
                    b.count,
                    b.short_len,
                    b.short_first,
                    b.best_margin,
                    b.best_first
                ),
                (
                    s.count,
                    s.short_len,
                    s.short_first,
                    s.best_margin,
                    s.best_first
                )
            );
        }
        assert!(decode_winners(&bytes[1..], n).is_none());
    }

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
