//! The value of a game over its decisions, as an SVG chart: the picture of
//! `dakon analyse --format svg` and `daldos analyse --format svg`. One
//! chart for both games, so that they read the same way: the value from the
//! first player's side (South, A) on the vertical axis, the decisions in
//! order on the horizontal one, a dashed line at the middle of the range
//! (even chances: a Dakon margin of 0, a Daldøs `W` of ½), exact values as
//! filled dots and estimates as hollow ones, proved bounds of a value that
//! is not exact as a grey bar, and each marked decision as a large coloured
//! dot named in a legend.

use svg::node::element::{Circle, Group, Line, Path, Rectangle, Title};

use crate::page::{finish, page, px, text};

/// One decision of the chart.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphPoint {
    /// Where it goes on the horizontal axis: the decision's ply.
    pub x: f64,
    /// Its value from the first player's side.
    pub value: f64,
    /// A proved lower bound of the value (first player's side), when it is
    /// not exact.
    pub lower: Option<f64>,
    /// A proved upper bound, likewise.
    pub upper: Option<f64>,
    /// Whether `value` is exact.
    pub exact: bool,
    /// The decision's mark (`inaccuracy`, `mistake`, `blunder`), if any.
    pub mark: Option<&'static str>,
    /// What a reader hovering the dot sees (the move played, say).
    pub label: String,
}

/// The marks, in order of weight, with their colours.
const MARKS: [(&str, &str); 3] = [
    ("inaccuracy", "#d9a400"),
    ("mistake", "#e06c00"),
    ("blunder", "#c8102e"),
];

const WIDTH: f64 = 820.0;
const HEIGHT: f64 = 380.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 56.0;
const BOTTOM: f64 = 46.0;

/// The chart of `points` (in order of `x`) under `title`, the vertical axis
/// named `y_label` and spanning `y_range` (low, high; values outside are
/// drawn at the edge). An empty game draws the axes alone.
pub fn value_graph(
    title: &str,
    y_label: &str,
    y_range: (f64, f64),
    points: &[GraphPoint],
) -> String {
    let (lo, hi) = if y_range.1 > y_range.0 {
        y_range
    } else {
        (y_range.0 - 1.0, y_range.0 + 1.0)
    };
    let x_max = points.iter().map(|p| p.x).fold(1.0_f64, f64::max);
    let x_min = points.iter().map(|p| p.x).fold(x_max, f64::min).min(1.0);
    let span_x = (x_max - x_min).max(1.0);
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let sx = |x: f64| LEFT + (x - x_min) / span_x * plot_w;
    let sy = |v: f64| TOP + (hi - v.clamp(lo, hi)) / (hi - lo) * plot_h;

    let mut doc = page(WIDTH, HEIGHT).add(text(LEFT, 24.0, 16.0, "start", title));

    // Axes, ticks and the line of even chances.
    let mut axes = Group::new().set("class", "axes");
    axes = axes.add(
        Rectangle::new()
            .set("x", px(LEFT))
            .set("y", px(TOP))
            .set("width", px(plot_w))
            .set("height", px(plot_h))
            .set("fill", "none")
            .set("stroke", "#444")
            .set("stroke-width", 1),
    );
    for v in ticks(lo, hi, 6, false) {
        axes = axes
            .add(line(LEFT - 4.0, sy(v), LEFT, sy(v), "#444", 1.0))
            .add(line(LEFT, sy(v), LEFT + plot_w, sy(v), "#e4e4e4", 1.0))
            .add(text(LEFT - 7.0, sy(v) + 4.0, 11.0, "end", number(v)));
    }
    for x in ticks(x_min, x_max, 10, true) {
        axes = axes
            .add(line(
                sx(x),
                TOP + plot_h,
                sx(x),
                TOP + plot_h + 4.0,
                "#444",
                1.0,
            ))
            .add(text(sx(x), TOP + plot_h + 17.0, 11.0, "middle", number(x)));
    }
    let mid = (lo + hi) / 2.0;
    axes = axes.add(
        line(LEFT, sy(mid), LEFT + plot_w, sy(mid), "#888", 1.0).set("stroke-dasharray", "5 4"),
    );
    axes = axes.add(text(
        LEFT + plot_w / 2.0,
        HEIGHT - 8.0,
        12.0,
        "middle",
        "ply",
    ));
    axes = axes.add(text(16.0, TOP + plot_h / 2.0, 12.0, "middle", y_label).set(
        "transform",
        format!("rotate(-90 16 {})", px(TOP + plot_h / 2.0)),
    ));
    doc = doc.add(axes);

    // Legend: exact, estimate, bounds, then the marks.
    let mut legend = Group::new().set("class", "legend");
    let mut lx = LEFT;
    let ly = 44.0;
    let entry = |g: Group, shape: Group, name: &str, lx: &mut f64| {
        let g = g
            .add(shape)
            .add(text(*lx + 10.0, ly + 4.0, 11.0, "start", name));
        *lx += 18.0 + 7.0 * name.chars().count() as f64;
        g
    };
    legend = entry(
        legend,
        Group::new().add(dot(lx, ly, 3.5, true, "#1f4e9c")),
        "exact",
        &mut lx,
    );
    legend = entry(
        legend,
        Group::new().add(dot(lx, ly, 3.5, false, "#1f4e9c")),
        "estimate",
        &mut lx,
    );
    legend = entry(
        legend,
        Group::new().add(line(lx, ly - 6.0, lx, ly + 6.0, "#bbb", 4.0)),
        "proved bounds",
        &mut lx,
    );
    for (name, colour) in MARKS {
        legend = entry(
            legend,
            Group::new().add(dot(lx, ly, 5.5, true, colour)),
            name,
            &mut lx,
        );
    }
    doc = doc.add(legend);

    // Bounds, then the line, then the dots and marks on top.
    let mut bounds = Group::new().set("class", "bounds");
    for p in points.iter().filter(|p| !p.exact) {
        if let (Some(l), Some(u)) = (p.lower, p.upper) {
            bounds = bounds.add(line(sx(p.x), sy(l), sx(p.x), sy(u), "#bbb", 4.0));
        }
    }
    doc = doc.add(bounds);
    if !points.is_empty() {
        let d: Vec<String> = points
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let cmd = if i == 0 { 'M' } else { 'L' };
                format!("{cmd} {} {}", px(sx(p.x)), px(sy(p.value)))
            })
            .collect();
        doc = doc.add(
            Path::new()
                .set("class", "value")
                .set("d", d.join(" "))
                .set("fill", "none")
                .set("stroke", "#1f4e9c")
                .set("stroke-width", 1.5),
        );
    }
    let mut dots = Group::new().set("class", "points");
    for p in points {
        let title = Title::new(format!("{}: {}", number(p.x), p.label));
        let marked = p.mark.and_then(|m| MARKS.iter().find(|(n, _)| *n == m));
        let shape = match marked {
            Some((name, colour)) => {
                dot(sx(p.x), sy(p.value), 5.5, true, colour).set("class", *name)
            }
            None => dot(sx(p.x), sy(p.value), 2.8, p.exact, "#1f4e9c")
                .set("class", if p.exact { "exact" } else { "estimate" }),
        };
        dots = dots.add(shape.add(title));
    }
    finish(doc.add(dots))
}

fn line(x1: f64, y1: f64, x2: f64, y2: f64, colour: &str, width: f64) -> Line {
    Line::new()
        .set("x1", px(x1))
        .set("y1", px(y1))
        .set("x2", px(x2))
        .set("y2", px(y2))
        .set("stroke", colour)
        .set("stroke-width", px(width))
}

fn dot(x: f64, y: f64, r: f64, filled: bool, colour: &str) -> Circle {
    Circle::new()
        .set("cx", px(x))
        .set("cy", px(y))
        .set("r", px(r))
        .set("fill", if filled { colour } else { "white" })
        .set("stroke", colour)
        .set("stroke-width", 1.2)
}

/// Round tick values between `lo` and `hi`, about `count` of them (at
/// most half as many again), at a step of 1, 2 or 5 times a power of ten;
/// `whole` keeps the step a whole number (plies).
fn ticks(lo: f64, hi: f64, count: usize, whole: bool) -> Vec<f64> {
    let raw = (hi - lo) / count.max(1) as f64;
    if raw <= 0.0 || !raw.is_finite() {
        return vec![lo];
    }
    let power = 10f64.powf(raw.log10().floor());
    let most = count as f64 * 1.5;
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|s| (hi - lo) / s <= most)
        .unwrap_or(10.0 * power);
    let step = if whole { step.max(1.0).round() } else { step };
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// A tick label: an integer when it is one, else up to three decimals.
fn number(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::check::{elements, with_class};

    fn point(x: f64, value: f64, exact: bool, mark: Option<&'static str>) -> GraphPoint {
        GraphPoint {
            x,
            value,
            lower: (!exact).then_some(value - 2.0),
            upper: (!exact).then_some(value + 2.0),
            exact,
            mark,
            label: format!("move {x}"),
        }
    }

    #[test]
    fn ticks_are_round_and_inside_the_range() {
        assert_eq!(
            ticks(-32.0, 32.0, 6, false),
            vec![-30.0, -20.0, -10.0, 0.0, 10.0, 20.0, 30.0]
        );
        assert_eq!(
            ticks(0.0, 1.0, 6, false),
            vec![0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0]
        );
        assert_eq!(
            ticks(1.0, 7.0, 10, true),
            vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
        );
        let plies = ticks(1.0, 61.0, 10, true);
        assert_eq!(plies.len(), 12);
        assert_eq!((plies[0], plies[11]), (5.0, 60.0));
        assert_eq!(number(0.6000000000000001), "0.6");
        assert_eq!(number(-20.0), "-20");
    }

    #[test]
    fn every_decision_is_a_dot_and_marks_are_coloured() {
        let points = vec![
            point(1.0, 4.0, true, None),
            point(2.0, -3.0, false, Some("mistake")),
            point(3.0, 10.0, true, Some("blunder")),
            point(4.0, 40.0, false, None),
        ];
        let svg = value_graph("a game", "margin", (-32.0, 32.0), &points);
        let all = elements(&svg);
        assert_eq!(with_class(&all, "exact").len(), 1);
        assert_eq!(with_class(&all, "estimate").len(), 1);
        let mistake = with_class(&all, "mistake");
        assert_eq!(mistake.len(), 1);
        assert_eq!(mistake[0].get("fill"), Some("#e06c00"));
        assert_eq!(with_class(&all, "blunder").len(), 1);
        // The value 40 is outside the range: drawn at the top edge.
        let estimate = with_class(&all, "estimate")[0];
        assert_eq!(estimate.get("cy"), Some(&*px(TOP).to_string()));
        // One line through the four values.
        let value = with_class(&all, "value");
        assert_eq!(value[0].get("d").unwrap().matches('L').count(), 3);
        // The same chart is the same bytes.
        assert_eq!(svg, value_graph("a game", "margin", (-32.0, 32.0), &points));
    }

    #[test]
    fn an_empty_game_draws_the_axes() {
        let svg = value_graph("nothing", "W", (0.0, 1.0), &[]);
        let all = elements(&svg);
        assert!(with_class(&all, "value").is_empty());
        assert_eq!(with_class(&all, "axes").len(), 1);
    }
}
