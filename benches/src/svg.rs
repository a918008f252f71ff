//! A small SVG line chart: categories along x, one line per series, each
//! point a median with a bar from its minimum to its maximum.

use std::fmt::Write;

use crate::stats::{Summary, number};

/// One chart, written by [`line_chart`].
pub struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// The x positions, evenly spaced, left to right.
    pub categories: Vec<String>,
    pub series: Vec<Series>,
}

/// One line: a point per category, or none where it was not measured.
pub struct Series {
    pub name: String,
    pub points: Vec<Option<Summary>>,
    /// Drawn dashed, to set a series apart (e.g. a reference).
    pub dashed: bool,
}

const PLOT_WIDTH: f64 = 480.0;
const HEIGHT: f64 = 440.0;
const LEFT: f64 = 90.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 60.0;
/// A generous average width of one character of the 12 px legend text.
const CHAR_WIDTH: f64 = 6.5;
/// How far apart the series' points at one category are drawn, so that
/// their min-max bars do not hide each other.
const DODGE: f64 = 5.0;
/// Colour-blind-safe colours (Okabe and Ito), one per series in turn.
const COLOURS: [&str; 7] = [
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000",
];

/// The chart as a standalone SVG document.
pub fn line_chart(chart: &Chart) -> String {
    // The legend sits right of the plot, as wide as its longest name.
    let longest = chart
        .series
        .iter()
        .map(|s| s.name.chars().count())
        .chain([34]) // the note under the legend
        .max()
        .unwrap_or(0);
    let right = 60.0 + CHAR_WIDTH * longest as f64;
    let plot_w = PLOT_WIDTH;
    let width = LEFT + plot_w + right;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let highest = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().flatten())
        .map(|p| p.max.max(p.median))
        .fold(0.0, f64::max);
    let (step, top) = y_ticks(highest);
    let n = chart.categories.len().max(1) as f64;
    let x_of = |i: usize| LEFT + plot_w * (i as f64 + 0.5) / n;
    let y_of = |v: f64| TOP + plot_h * (1.0 - v / top);

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{HEIGHT}" viewBox="0 0 {width} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        svg,
        r#"<rect width="{width}" height="{HEIGHT}" fill="white"/>"#
    );
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="28" text-anchor="middle" font-size="15" font-weight="bold">{}</text>"#,
        LEFT + plot_w / 2.0,
        escape(&chart.title)
    );

    // Grid and y axis.
    let mut value = 0.0;
    while value <= top + step / 2.0 {
        let y = y_of(value);
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#dddddd"/>"##,
            LEFT + plot_w
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            LEFT - 6.0,
            y + 4.0,
            number(value, 0)
        );
        value += step;
    }
    let _ = writeln!(
        svg,
        r#"<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{:.1}" stroke="black"/>"#,
        TOP + plot_h
    );
    let _ = writeln!(
        svg,
        r#"<line x1="{LEFT}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="black"/>"#,
        TOP + plot_h,
        LEFT + plot_w,
        TOP + plot_h
    );
    let _ = writeln!(
        svg,
        r#"<text transform="translate(20 {:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
        TOP + plot_h / 2.0,
        escape(&chart.y_label)
    );

    // x axis.
    for (i, category) in chart.categories.iter().enumerate() {
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            x_of(i),
            TOP + plot_h + 18.0,
            escape(category)
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        LEFT + plot_w / 2.0,
        HEIGHT - 14.0,
        escape(&chart.x_label)
    );

    // Series and legend.
    for (k, series) in chart.series.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let dodge = DODGE * (k as f64 - (chart.series.len() as f64 - 1.0) / 2.0);
        let dash = if series.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        // A line through consecutive measured points; a gap breaks it.
        let mut run: Vec<String> = Vec::new();
        let flush = |run: &mut Vec<String>, svg: &mut String| {
            if run.len() >= 2 {
                let _ = writeln!(
                    svg,
                    r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>"#,
                    run.join(" ")
                );
            }
            run.clear();
        };
        for (i, point) in series.points.iter().enumerate() {
            match point {
                Some(p) => run.push(format!("{:.1},{:.1}", x_of(i) + dodge, y_of(p.median))),
                None => flush(&mut run, &mut svg),
            }
        }
        flush(&mut run, &mut svg);
        for (i, point) in series.points.iter().enumerate() {
            let Some(p) = point else { continue };
            let x = x_of(i) + dodge;
            if p.max > p.min {
                let _ = writeln!(
                    svg,
                    r#"<path d="M{:.1},{:.1}V{:.1}M{:.1},{:.1}h8M{:.1},{:.1}h8" stroke="{colour}" fill="none"/>"#,
                    x,
                    y_of(p.min),
                    y_of(p.max),
                    x - 4.0,
                    y_of(p.min),
                    x - 4.0,
                    y_of(p.max)
                );
            }
            let _ = writeln!(
                svg,
                r#"<circle cx="{x:.1}" cy="{:.1}" r="3.5" fill="{colour}"><title>{}: {}</title></circle>"#,
                y_of(p.median),
                escape(&series.name),
                p.show(0)
            );
        }
        let ly = TOP + 10.0 + 22.0 * k as f64;
        let lx = LEFT + plot_w + 20.0;
        let _ = writeln!(
            svg,
            r#"<line x1="{lx}" y1="{ly}" x2="{}" y2="{ly}" stroke="{colour}" stroke-width="2"{dash}/>"#,
            lx + 24.0
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}">{}</text>"#,
            lx + 30.0,
            ly + 4.0,
            escape(&series.name)
        );
    }
    let _ = writeln!(
        svg,
        r##"<text x="{}" y="{}" font-size="10" fill="#555555">points: medians; bars: min to max</text>"##,
        LEFT + plot_w + 20.0,
        TOP + 10.0 + 22.0 * chart.series.len() as f64
    );
    svg.push_str("</svg>\n");
    svg
}

/// The y axis step and top for values up to `highest`: a step of 1, 2 or
/// 5 times a power of ten, giving at most 6 intervals.
fn y_ticks(highest: f64) -> (f64, f64) {
    if !highest.is_finite() || highest <= 0.0 {
        return (1.0, 1.0);
    }
    let rough = highest / 6.0;
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|&step| step >= rough)
        .unwrap_or(10.0 * power);
    let top = (highest / step).ceil() * step;
    (step, top)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(median: f64, min: f64, max: f64) -> Option<Summary> {
        Some(Summary { median, min, max })
    }

    fn chart() -> Chart {
        Chart {
            title: "Locks <&> clients".into(),
            x_label: "clients".into(),
            y_label: "acquisitions".into(),
            categories: vec!["1".into(), "2".into(), "5".into(), "10".into()],
            series: vec![
                Series {
                    name: "a".into(),
                    points: vec![
                        point(10.0, 9.0, 11.0),
                        point(20.0, 20.0, 20.0),
                        None,
                        point(5.0, 4.0, 6.0),
                    ],
                    dashed: false,
                },
                Series {
                    name: "b".into(),
                    points: vec![point(1.0, 1.0, 1.0); 4],
                    dashed: true,
                },
            ],
        }
    }

    #[test]
    fn a_gap_breaks_the_line_and_single_points_draw_no_line() {
        let svg = line_chart(&chart());
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.ends_with("</svg>\n"));
        // Series a: one line over its first two points (the 5 is alone);
        // series b: one dashed line over four.
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("stroke-dasharray").count(), 2); // line and legend
        assert_eq!(svg.matches("<circle").count(), 7);
        // Ranges are drawn only where min and max differ: two of series a.
        assert_eq!(svg.matches("<path").count(), 2);
        assert!(!svg.contains("NaN"));
    }

    #[test]
    fn text_is_escaped() {
        let svg = line_chart(&chart());
        assert!(svg.contains("Locks &lt;&amp;&gt; clients"));
        assert!(!svg.contains("<&>"));
    }

    #[test]
    fn the_y_axis_ends_on_a_round_step_above_the_highest_value() {
        assert_eq!(y_ticks(44_494.0), (10_000.0, 50_000.0));
        assert_eq!(y_ticks(233_000.0), (50_000.0, 250_000.0));
        assert_eq!(y_ticks(6.0), (1.0, 6.0));
        assert_eq!(y_ticks(0.0), (1.0, 1.0));
        let (step, top) = y_ticks(1_234.0);
        assert!(top >= 1_234.0 && top / step <= 7.0);
    }

    #[test]
    fn an_empty_chart_is_still_a_document() {
        let svg = line_chart(&Chart {
            title: String::new(),
            x_label: String::new(),
            y_label: String::new(),
            categories: Vec::new(),
            series: Vec::new(),
        });
        assert!(svg.ends_with("</svg>\n"));
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
    }
}
