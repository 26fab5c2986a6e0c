//! Exact probabilities: `Ratio` (a `BigRational`) and the few helpers the
//! odds code needs to build, print and compare them.

use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};

/// An exact probability.
pub type Ratio = num_rational::BigRational;

/// `num / den` as a reduced `Ratio` (`den > 0`).
pub fn ratio(num: u64, den: u64) -> Ratio {
    Ratio::new(BigInt::from(num), BigInt::from(den))
}

/// `1 / 16^k`: the weight of `k` dal-dals in a row.
pub fn sixteenth_pow(k: u32) -> Ratio {
    Ratio::new(BigInt::from(1), BigInt::from(16).pow(k))
}

/// The nearest `f64`.
pub fn to_f64(r: &Ratio) -> f64 {
    r.to_f64().unwrap_or(f64::NAN)
}

/// `7/16`, or `0` / `1` for whole numbers.
pub fn fraction_string(r: &Ratio) -> String {
    if r.denom() == &BigInt::from(1) || r.is_zero() {
        r.numer().to_string()
    } else {
        format!("{}/{}", r.numer(), r.denom())
    }
}

/// The probability as a whole percentage the way the published tables
/// write it: rounded to the nearest percent (43.75 -> 44, 7.68 -> 8), and
/// `<1` for anything below one percent that is not zero (0.895 -> `<1`).
pub fn percent_string(r: &Ratio) -> String {
    let p = to_f64(r) * 100.0;
    if p > 0.0 && p < 1.0 {
        "<1".to_owned()
    } else {
        format!("{}", p.round() as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_and_percentages_print_like_the_tables() {
        assert_eq!(fraction_string(&ratio(14, 32)), "7/16");
        assert_eq!(fraction_string(&ratio(16, 16)), "1");
        assert_eq!(fraction_string(&ratio(0, 5)), "0");
        assert_eq!(percent_string(&ratio(7, 16)), "44");
        assert_eq!(percent_string(&ratio(55, 6144)), "<1");
        assert_eq!(percent_string(&ratio(0, 1)), "0");
        assert_eq!(sixteenth_pow(2), ratio(1, 256));
    }
}
