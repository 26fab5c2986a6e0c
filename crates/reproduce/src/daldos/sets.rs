//! Which capture tables `reproduce` writes: the rule sets and the largest
//! distance.

use dalkon_rules::daldos::{CaptureRule, DalRule, EndRule, Variants};

/// The rule sets of `reproduce`: the default, then the two variants that
/// touch moving and capturing, alone and together (`end` stays `last`).
pub(super) fn reproduce_variants() -> Vec<Variants> {
    let mut out = Vec::new();
    for dal in [DalRule::Any, DalRule::Sternmost] {
        for capture in [CaptureRule::Final, CaptureRule::Path] {
            out.push(Variants {
                dal,
                capture,
                end: EndRule::Last,
            });
        }
    }
    out
}

/// Largest distance written by `reproduce`.
pub(super) const REPRODUCE_MAX: u32 = 12;
