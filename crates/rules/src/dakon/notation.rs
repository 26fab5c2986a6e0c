//! Position notation (docs/rules.md §2.5):
//! `<row 0>/<row 1>/<store 0>,<store 1> <side>`, e.g.
//! `7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0 0`.

use std::fmt;
use std::str::FromStr;

use super::error::ParseError;
use super::position::Position;
use super::side::Side;

fn counts(text: &str, field: &'static str) -> Result<Vec<u8>, ParseError> {
    text.split(',')
        .enumerate()
        .map(|(i, item)| {
            let item = item.trim();
            if item.starts_with('-')
                && item[1..].chars().all(|c| c.is_ascii_digit())
                && item.len() > 1
            {
                return Err(ParseError::Negative {
                    field,
                    item: i + 1,
                    text: crate::excerpt(item),
                });
            }
            item.parse::<u8>().map_err(|_| ParseError::Count {
                field,
                item: i + 1,
                text: crate::excerpt(item),
            })
        })
        .collect()
}

impl FromStr for Position {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Position, ParseError> {
        let tokens: Vec<&str> = s.split_whitespace().collect();
        let [board, side] = tokens[..] else {
            return Err(ParseError::Shape(crate::excerpt(s.trim())));
        };
        let fields: Vec<&str> = board.split('/').collect();
        let [row0, row1, stores] = fields[..] else {
            return Err(ParseError::Fields(fields.len()));
        };
        let south = counts(row0, "row 0")?;
        let north = counts(row1, "row 1")?;
        let store = counts(stores, "stores")?;
        let [s0, s1] = store[..] else {
            return Err(ParseError::Stores(store.len()));
        };
        let side = match side {
            "0" => Side::South,
            "1" => Side::North,
            other => return Err(ParseError::Side(crate::excerpt(other))),
        };
        Ok(Position::new(&south, &north, [s0, s1], side)?)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (r, side) in Side::BOTH.into_iter().enumerate() {
            if r > 0 {
                f.write_str("/")?;
            }
            for (i, c) in self.pits(side).iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{c}")?;
            }
        }
        write!(
            f,
            "/{},{} {}",
            self.stores[0],
            self.stores[1],
            self.side.index()
        )
    }
}
