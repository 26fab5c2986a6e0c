//! `initial_values.svg`: the solved start positions of the default rules
//! as a grid, holes per row down, seeds per hole across, each board a cell
//! coloured by the first player's result (win, draw, loss) and labelled
//! with the value; boards not solved are left grey. Written from the
//! records alone, so the same records give the same bytes.

use dalkon_dakon::solve::Outcome;
use dalkon_rules::dakon::Rules;
use svg::node::element::Rectangle;

use super::records::ValueRecord;
use dalkon_render::page::{finish, page, px, text};

/// A cell's side, and the margins for the axis labels.
const CELL: f64 = 52.0;
const LEFT: f64 = 92.0;
const TOP: f64 = 96.0;

/// The colour of a result, and of a board with no record.
fn color(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win) => "#7fc97f",
        Some(Outcome::Draw) => "#fdd58a",
        Some(Outcome::Loss) => "#f08080",
        None => "#e4e4e4",
    }
}

/// The grid of the default-rules records of `values` (other rule sets are
/// left out), as SVG text.
pub(super) fn svg(values: &[ValueRecord]) -> String {
    let d = Rules::default();
    let default: Vec<&ValueRecord> = values.iter().filter(|v| v.rules == d).collect();
    let max_n = default.iter().map(|v| v.holes).max().unwrap_or(1);
    let max_m = default.iter().map(|v| v.seeds).max().unwrap_or(1);
    let width = LEFT + CELL * max_m as f64 + 30.0;
    let height = TOP + CELL * max_n as f64 + 84.0;
    let (o, m, n) = d.names();
    let mut doc = page(width.max(660.0), height)
        .add(text(
            20.0,
            28.0,
            17.0,
            "start",
            "Dakon: the first player's result from the start, perfect play",
        ))
        .add(
            text(
                20.0,
                48.0,
                12.0,
                "start",
                format!(
                    "value = final store difference, first player minus second; rules origin={o} mikul={m} nembak={n}"
                ),
            )
            .set("fill", "#444"),
        )
        .add(text(
            LEFT + CELL * max_m as f64 / 2.0,
            TOP - 26.0,
            13.0,
            "middle",
            "seeds per hole",
        ))
        .add(
            text(26.0, TOP + CELL * max_n as f64 / 2.0, 13.0, "middle", "holes per row").set(
                "transform",
                format!(
                    "rotate(-90 26 {})",
                    px(TOP + CELL * max_n as f64 / 2.0)
                ),
            ),
        );
    for seeds in 1..=max_m {
        let x = LEFT + CELL * (f64::from(seeds) - 0.5);
        doc = doc.add(text(x, TOP - 8.0, 12.0, "middle", seeds.to_string()));
    }
    for holes in 1..=max_n {
        let y = TOP + CELL * (holes as f64 - 0.5) + 4.0;
        doc = doc.add(text(LEFT - 10.0, y, 12.0, "end", holes.to_string()));
        for seeds in 1..=max_m {
            let record = default
                .iter()
                .find(|v| v.holes == holes && v.seeds == seeds);
            let outcome = record.map(|v| Outcome::of(v.value));
            let (x, y) = (
                LEFT + CELL * f64::from(seeds - 1),
                TOP + CELL * (holes - 1) as f64,
            );
            doc = doc.add(
                Rectangle::new()
                    .set("class", "cell")
                    .set("data-board", format!("{holes}x{seeds}"))
                    .set("data-result", outcome.map_or("none", |o| o.as_str()))
                    .set("x", px(x))
                    .set("y", px(y))
                    .set("width", CELL)
                    .set("height", CELL)
                    .set("fill", color(outcome))
                    .set("stroke", "white")
                    .set("stroke-width", 2),
            );
            if let Some(v) = record {
                doc = doc.add(text(
                    x + CELL / 2.0,
                    y + CELL / 2.0 + 5.0,
                    14.0,
                    "middle",
                    if v.value == 0 {
                        "0".to_owned()
                    } else {
                        format!("{:+}", v.value)
                    },
                ));
            }
        }
    }
    // The legend.
    let y = TOP + CELL * max_n as f64 + 34.0;
    let mut x = LEFT;
    for (outcome, label) in [
        (Some(Outcome::Win), "first player wins"),
        (Some(Outcome::Draw), "draw"),
        (Some(Outcome::Loss), "first player loses"),
        (None, "not solved"),
    ] {
        doc = doc
            .add(
                Rectangle::new()
                    .set("class", "legend")
                    .set("x", px(x))
                    .set("y", px(y - 12.0))
                    .set("width", 16)
                    .set("height", 16)
                    .set("fill", color(outcome)),
            )
            .add(text(x + 22.0, y + 1.0, 12.0, "start", label));
        x += 30.0 + 7.0 * label.len() as f64;
    }
    doc = doc.add(
        text(
            LEFT,
            y + 30.0,
            11.0,
            "start",
            "Generated by `dalkon reproduce` from initial_values.csv.",
        )
        .set("fill", "#666"),
    );
    finish(doc)
}

#[cfg(test)]
mod tests {
    use super::super::records::Records;
    use super::*;
    use dalkon_render::page::check::{elements, with_class};

    fn committed() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/dakon")
    }

    /// One cell per board of the grid, coloured by the record's result;
    /// boards without a record grey and unlabelled.
    #[test]
    fn one_cell_per_board() {
        let records = Records::read(&committed()).unwrap();
        let svg = svg(&records.values);
        let e = elements(&svg);
        let cells = with_class(&e, "cell");
        let d = Rules::default();
        let default: Vec<&ValueRecord> = records.values.iter().filter(|v| v.rules == d).collect();
        let max_n = default.iter().map(|v| v.holes).max().unwrap();
        let max_m = default.iter().map(|v| v.seeds).max().unwrap();
        assert_eq!(cells.len(), max_n * max_m as usize);
        for c in &cells {
            let board = c.get("data-board").unwrap();
            let found = default
                .iter()
                .find(|v| format!("{}x{}", v.holes, v.seeds) == board);
            let want = found.map_or("none", |v| Outcome::of(v.value).as_str());
            assert_eq!(c.get("data-result"), Some(want), "{board}");
        }
        let none = cells
            .iter()
            .filter(|c| c.get("data-result") == Some("none"))
            .count();
        assert_eq!(none, cells.len() - default.len());
        assert_eq!(with_class(&e, "legend").len(), 4);
    }

    /// The committed picture is the one its records give (`reproduce`
    /// writes it beside the CSV file).
    #[test]
    fn the_committed_picture_is_derived_from_its_records() {
        let dir = committed();
        let records = Records::read(&dir).unwrap();
        let want = std::fs::read_to_string(dir.join("initial_values.svg")).unwrap();
        assert!(
            svg(&records.values) == want,
            "initial_values.svg is not what its records give"
        );
    }
}
