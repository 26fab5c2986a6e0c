//! `capture_tables.svg`: probability against distance, one line per
//! distinct curve (board and rule sets whose values are exactly the same
//! share one line and one legend entry), the published percentages marked
//! beside ours.

use dalkon_daldos::ratio::to_f64;
use dalkon_daldos::tables::{published, CaptureTable, TableKind, TableRow};
use dalkon_daldos::Ratio;

use super::sets::REPRODUCE_MAX;
use super::summary::variant_label;

/// The plot: probability against distance, one line per distinct curve
/// ([`curves`]), the published percentages marked just right of ours;
/// distances on integer ticks.
pub(super) fn svg(tables: &[CaptureTable]) -> anyhow::Result<String> {
    use plotters::prelude::*;
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (1100, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let (left, right) = root.split_horizontally(560);
        let colors = [
            RGBColor(31, 119, 180),
            RGBColor(255, 127, 14),
            RGBColor(44, 160, 44),
            RGBColor(148, 103, 189),
            RGBColor(140, 86, 75),
            RGBColor(227, 119, 194),
            RGBColor(127, 127, 127),
            RGBColor(23, 190, 207),
        ];
        for (panel, area) in [(TableKind::Single, &left), (TableKind::Pair, &right)] {
            let title = match panel {
                TableKind::Single => "Table 1: b1 alone, d behind a1",
                TableKind::Pair => "Table 2: b1 d1 behind a1, b2 at d1+1",
            };
            let xmax = REPRODUCE_MAX as f64 + 0.5;
            let mut chart = ChartBuilder::on(area)
                .caption(title, ("sans-serif", 18))
                .margin(12)
                .x_label_area_size(36)
                .y_label_area_size(48)
                .build_cartesian_2d(0.5f64..xmax, 0f64..100f64)
                .map_err(plot_err)?;
            // One tick per distance (the range holds exactly that many
            // whole numbers), every 10 %.
            chart
                .configure_mesh()
                .x_labels(REPRODUCE_MAX as usize)
                .y_labels(11)
                .light_line_style(WHITE)
                .x_label_formatter(&|x| format!("{x:.0}"))
                .y_label_formatter(&|y| format!("{y:.0}"))
                .x_desc(match panel {
                    TableKind::Single => "d (holes from b1 to a1)",
                    TableKind::Pair => "d1 (holes from b1 to a1)",
                })
                .y_desc("capture probability (%)")
                .draw()
                .map_err(plot_err)?;
            let curves = curves(tables, panel);
            for (k, curve) in curves.iter().enumerate() {
                let pts: Vec<(f64, f64)> = curve
                    .points
                    .iter()
                    .map(|&(d, ref p)| (f64::from(d), 100.0 * to_f64(p)))
                    .collect();
                let color = colors[k % colors.len()];
                let label = if curves.len() == 1 {
                    "all rule sets agree".to_owned()
                } else {
                    curve
                        .members
                        .iter()
                        .map(|&i| {
                            let t = &tables[i];
                            format!("{} {}", t.board.name(), variant_label(&t.variants))
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                chart
                    .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
                    .map_err(plot_err)?
                    .label(label)
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
                    });
                chart
                    .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
                    .map_err(plot_err)?;
            }
            let published_pts: Vec<(f64, f64)> = rows_for(&tables[0], panel)
                .filter_map(|r| {
                    let p = published(r.kind, r.d1, r.d2)?;
                    let v = if p == "<1" { 0.5 } else { p.parse().ok()? };
                    Some((r.d1 as f64 + 0.18, v))
                })
                .collect();
            chart
                .draw_series(
                    published_pts
                        .iter()
                        .map(|&p| Cross::new(p, 5, RED.stroke_width(2))),
                )
                .map_err(plot_err)?
                .label("published (%; <1 drawn at 0.5)")
                .legend(|(x, y)| Cross::new((x + 8, y), 5, RED.stroke_width(2)));
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font(("sans-serif", 11))
                .draw()
                .map_err(plot_err)?;
        }
        root.present().map_err(plot_err)?;
    }
    Ok(text)
}

/// One line of a panel: the tables that draw it and its points.
#[derive(Debug, PartialEq)]
pub(super) struct Curve {
    /// Indices of the tables whose points these are.
    pub(super) members: Vec<usize>,
    /// `(d1, board probability)`.
    pub(super) points: Vec<(u32, Ratio)>,
}

/// The distinct curves of a panel, in the order of their first table.
/// Tables whose points are exactly equal share a curve.
pub(super) fn curves(tables: &[CaptureTable], panel: TableKind) -> Vec<Curve> {
    let mut out: Vec<Curve> = Vec::new();
    for (i, t) in tables.iter().enumerate() {
        let points: Vec<(u32, Ratio)> = rows_for(t, panel)
            .map(|r| (r.d1, r.board_probability.clone()))
            .collect();
        match out.iter_mut().find(|c| c.points == points) {
            Some(c) => c.members.push(i),
            None => out.push(Curve {
                members: vec![i],
                points,
            }),
        }
    }
    out
}

/// Rows drawn on a panel: table 1 whole, table 2 with b2 right behind b1.
pub(super) fn rows_for(
    t: &CaptureTable,
    panel: TableKind,
) -> Box<dyn Iterator<Item = &TableRow> + '_> {
    match panel {
        TableKind::Single => Box::new(t.single.iter()),
        TableKind::Pair => Box::new(t.pair.iter().filter(|r| r.d2 == Some(r.d1 + 1))),
    }
}

pub(super) fn plot_err<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing the plot: {e:?}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::daldos::sets::reproduce_variants;
    use dalkon_daldos::ratio::ratio;
    use dalkon_daldos::request::table::build;
    use dalkon_render::page::check::elements;
    use dalkon_rules::daldos::Board;

    fn tables() -> Vec<CaptureTable> {
        reproduce_variants()
            .iter()
            .take(2)
            .map(|v| build(Board::NORWEGIAN, v, 3).unwrap())
            .collect()
    }

    /// Legend entries: the text of each `text` element.
    fn texts(svg: &str) -> Vec<String> {
        let _ = elements(svg);
        svg.split("<text")
            .skip(1)
            .filter_map(|t| t.split_once('>').and_then(|(_, r)| r.split_once("</text>")))
            .map(|(t, _)| t.trim().to_owned())
            .collect()
    }

    /// Rule sets whose values coincide are one line with one legend entry
    /// per panel.
    #[test]
    fn coinciding_curves_are_one_line() {
        let t = tables();
        assert_eq!(curves(&t, TableKind::Single).len(), 1);
        let pair = curves(&t, TableKind::Pair);
        assert_eq!(pair.len(), 1);
        assert_eq!(pair[0].members, [0, 1]);
        let texts = texts(&svg(&t).unwrap());
        assert_eq!(
            texts.iter().filter(|t| *t == "all rule sets agree").count(),
            2
        );
        assert!(
            !texts.iter().any(|t| t.starts_with("norwegian")),
            "{texts:?}"
        );
        // Distances are labelled by whole numbers only.
        for d in 1..=REPRODUCE_MAX {
            assert!(texts.contains(&d.to_string()), "no tick {d}: {texts:?}");
        }
        assert!(
            !texts
                .iter()
                .any(|t| t.contains('.') && t.parse::<f64>().is_ok()),
            "{texts:?}"
        );
    }

    /// Curves that differ keep their own lines and entries.
    #[test]
    fn differing_curves_keep_their_entries() {
        let mut t = tables();
        t[1].single[0].board_probability = ratio(1, 3);
        assert_eq!(curves(&t, TableKind::Single).len(), 2);
        let texts = texts(&svg(&t).unwrap());
        assert_eq!(
            texts.iter().filter(|t| *t == "all rule sets agree").count(),
            1
        );
        let names: Vec<String> = t
            .iter()
            .map(|t| format!("{} {}", t.board.name(), variant_label(&t.variants)))
            .collect();
        for name in &names {
            assert_eq!(texts.iter().filter(|t| *t == name).count(), 1, "{texts:?}");
        }
    }
}
