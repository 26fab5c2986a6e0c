//! `capture_tables.svg`: probability against distance, one line per board
//! and rule set, the published percentages marked beside ours.

use dalkon_odds::ratio::to_f64;
use dalkon_odds::tables::{published, CaptureTable, TableKind, TableRow};

use super::sets::REPRODUCE_MAX;
use super::summary::variant_label;

/// The plot: probability against distance, one line per board and rule
/// set, the published percentages marked just right of ours.
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
            chart
                .configure_mesh()
                .x_desc(match panel {
                    TableKind::Single => "d (holes from b1 to a1)",
                    TableKind::Pair => "d1 (holes from b1 to a1)",
                })
                .y_desc("capture probability (%)")
                .draw()
                .map_err(plot_err)?;
            for (k, t) in tables.iter().enumerate() {
                let pts: Vec<(f64, f64)> = rows_for(t, panel)
                    .map(|r| (r.d1 as f64, 100.0 * to_f64(&r.board_probability)))
                    .collect();
                let color = colors[k % colors.len()];
                chart
                    .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
                    .map_err(plot_err)?
                    .label(format!("{} {}", t.board.name(), variant_label(&t.variants)))
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
