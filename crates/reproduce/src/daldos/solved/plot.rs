//! `solved_material.svg`: what material is worth. For each board and rule
//! set, the mean `W` of the side to throw over every layer against the
//! material difference `a - b`; each layer a dot, and a line through the
//! layers with the same difference averaged. The whole-game start values
//! are marked at difference 0.

use super::render::rules_label;
use super::Row;
use crate::daldos::plot::plot_err;

/// A series: one board and rule set.
struct Series {
    label: String,
    /// `(a - b, mean W)` of each layer.
    points: Vec<(i32, f64)>,
    start: Option<f64>,
}

fn series(rows: &[Row]) -> Vec<Series> {
    let mut out: Vec<(Series, (u8, String))> = Vec::new();
    for r in rows {
        let key = (r.board.len(), rules_label(&r.variants));
        let point = (i32::from(r.layer.a) - i32::from(r.layer.b), r.layer.mean_w);
        match out.iter_mut().find(|(_, k)| *k == key) {
            Some((s, _)) => {
                s.points.push(point);
                s.start = s.start.or(r.start.map(|st| st.value));
            }
            None => out.push((
                Series {
                    label: format!("board {}, {}", r.board.name(), key.1),
                    points: vec![point],
                    start: r.start.map(|st| st.value),
                },
                key,
            )),
        }
    }
    out.into_iter().map(|(s, _)| s).collect()
}

/// The mean of the points at each difference, by difference.
fn averaged(points: &[(i32, f64)]) -> Vec<(f64, f64)> {
    let mut ds: Vec<i32> = points.iter().map(|p| p.0).collect();
    ds.sort_unstable();
    ds.dedup();
    ds.into_iter()
        .map(|d| {
            let ys: Vec<f64> = points.iter().filter(|p| p.0 == d).map(|p| p.1).collect();
            (f64::from(d), ys.iter().sum::<f64>() / ys.len() as f64)
        })
        .collect()
}

/// The plot, as SVG text.
pub(super) fn svg(rows: &[Row]) -> anyhow::Result<String> {
    use plotters::prelude::*;
    let all = series(rows);
    let dmax = rows
        .iter()
        .map(|r| (i32::from(r.layer.a) - i32::from(r.layer.b)).abs())
        .max()
        .unwrap_or(1)
        .max(1);
    let colors = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
    ];
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (760, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let x = f64::from(dmax) + 0.5;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Daldøs: what material is worth under perfect play",
                ("sans-serif", 18),
            )
            .margin(14)
            .x_label_area_size(40)
            .y_label_area_size(52)
            .build_cartesian_2d(-x..x, 0f64..1f64)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .x_labels((2 * dmax + 1) as usize)
            .y_labels(11)
            .light_line_style(WHITE)
            .x_label_formatter(&|v| format!("{v:+.0}").replace("+0", "0"))
            .y_label_formatter(&|v| format!("{v:.1}"))
            .x_desc("a - b: pieces of the side to throw minus the other side's")
            .y_desc("mean W of the side to throw over the layer")
            .draw()
            .map_err(plot_err)?;
        chart
            .draw_series(LineSeries::new(
                vec![(-x, 0.5), (x, 0.5)],
                BLACK.mix(0.3).stroke_width(1),
            ))
            .map_err(plot_err)?;
        // Dots of different series at the same difference are drawn side by
        // side, a little apart.
        let n = all.len() as f64;
        for (k, s) in all.iter().enumerate() {
            let color = colors[k % colors.len()];
            let shift = 0.08 * (k as f64 - (n - 1.0) / 2.0);
            chart
                .draw_series(LineSeries::new(
                    averaged(&s.points).into_iter().map(|(d, y)| (d + shift, y)),
                    color.stroke_width(2),
                ))
                .map_err(plot_err)?
                .label(s.label.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
                });
            chart
                .draw_series(
                    s.points
                        .iter()
                        .map(|&(d, y)| Circle::new((f64::from(d) + shift, y), 3, color.filled())),
                )
                .map_err(plot_err)?;
            if let Some(w) = s.start {
                chart
                    .draw_series(std::iter::once(Cross::new(
                        (shift, w),
                        6,
                        color.stroke_width(2),
                    )))
                    .map_err(plot_err)?;
            }
        }
        let grey = RGBColor(110, 110, 110);
        chart
            .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
            .map_err(plot_err)?
            .label("a layer; line: their mean at each a - b")
            .legend(move |(x, y)| Circle::new((x + 8, y), 3, grey.filled()));
        chart
            .draw_series(std::iter::empty::<Cross<(f64, f64), i32>>())
            .map_err(plot_err)?
            .label("W at the start, A to throw")
            .legend(|(x, y)| Cross::new((x + 8, y), 5, BLACK.stroke_width(2)));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 11))
            .draw()
            .map_err(plot_err)?;
        root.present().map_err(plot_err)?;
    }
    Ok(text)
}
