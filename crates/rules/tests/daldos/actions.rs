//! OpenSpiel action codes over the golden perft set (every position, rule
//! variant and throw of `golden.rs`), and the rule options' names.

use std::collections::HashSet;

use dalkon_rules::daldos::{
    action_codes, num_actions, plays, CaptureRule, DalRule, EndRule, Throw, VariantError, Variants,
};

use super::golden::POSITIONS;
use super::util::pos;

/// Within one throw the codes are distinct and below `num_actions`; the
/// lost throw is 0; a throw and its mirror give each result one code.
#[test]
fn codes_distinct_and_in_range_on_the_perft_set() {
    let mut plays_seen = 0;
    for s in POSITIONS {
        let p = pos(s);
        let n = num_actions(p.board());
        for v in Variants::ALL {
            for t in Throw::ALL {
                let outcomes = plays(&p, &v, t);
                let codes = action_codes(&p, &v, t, &outcomes);
                assert_eq!(codes.len(), outcomes.len());
                let distinct: HashSet<u32> = codes.iter().copied().collect();
                assert_eq!(distinct.len(), codes.len(), "{s} {v} {t}");
                for (o, &c) in outcomes.iter().zip(&codes) {
                    assert!(c < n, "{s} {v} {t}: code {c} of {n}");
                    assert_eq!(o.play.is_pass(), c == 0, "{s} {v} {t}");
                }
                let mirror = Throw::new(t.second, t.first).unwrap();
                let other = plays(&p, &v, mirror);
                let other_codes = action_codes(&p, &v, mirror, &other);
                for (o, c) in other.iter().zip(other_codes) {
                    let i = outcomes.iter().position(|x| x.result == o.result).unwrap();
                    assert_eq!(codes[i], c, "{s} {v} {t}: the mirror's code");
                }
                plays_seen += outcomes.len();
            }
        }
    }
    assert!(plays_seen > 5000, "{plays_seen}");
}

#[test]
fn rule_options_round_trip_and_name_the_choices() {
    for v in Variants::ALL {
        assert_eq!(v.to_string().parse::<Variants>(), Ok(v));
        assert_eq!(v.dal.name().parse::<DalRule>(), Ok(v.dal));
        assert_eq!(v.capture.to_string().parse::<CaptureRule>(), Ok(v.capture));
        assert_eq!(v.end.to_string().parse::<EndRule>(), Ok(v.end));
    }
    assert_eq!(DalRule::ALL, [DalRule::Any, DalRule::Sternmost]);
    assert_eq!(
        "first".parse::<DalRule>().unwrap_err().to_string(),
        "invalid value \"first\" for dal: expected any or sternmost"
    );
    assert_eq!(
        "Path".parse::<CaptureRule>().unwrap_err().to_string(),
        "invalid value \"Path\" for capture: expected final or path"
    );
    assert_eq!(
        "none".parse::<EndRule>().unwrap_err().to_string(),
        "invalid value \"none\" for end: expected last or one"
    );
    assert_eq!(
        "dal=any end=last".parse::<Variants>(),
        Err(VariantError::Shape("dal=any end=last".into()))
    );
    assert!(matches!(
        "dal=any capture=final end=two".parse::<Variants>(),
        Err(VariantError::Value { option: "end", .. })
    ));
}
