//! Small helpers for the SVG pictures (the boards, and the Dakon plot of
//! `reproduce`), on top of the `svg` crate: a white page, text, arrowhead
//! markers. Every coordinate is rounded to a tenth of a pixel, so that the
//! same picture is always the same bytes.

use svg::node::element::{Marker, Path, Rectangle, Text};
use svg::Document;

/// A page of `width` × `height` pixels with a white background.
pub fn page(width: f64, height: f64) -> Document {
    Document::new()
        .set("width", px(width))
        .set("height", px(height))
        .set("viewBox", format!("0 0 {} {}", px(width), px(height)))
        .set("font-family", "DejaVu Sans, Verdana, sans-serif")
        .add(
            Rectangle::new()
                .set("width", px(width))
                .set("height", px(height))
                .set("fill", "white"),
        )
}

/// `v` rounded to a tenth.
pub fn px(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

/// Text of `size` pixels at `(x, y)` (the baseline), anchored `start`,
/// `middle` or `end`.
pub fn text(x: f64, y: f64, size: f64, anchor: &str, content: impl Into<String>) -> Text {
    Text::new(content)
        .set("x", px(x))
        .set("y", px(y))
        .set("font-size", px(size))
        .set("text-anchor", anchor)
}

/// An arrowhead marker named `id`, in `color`, for `marker-end` (and
/// `marker-mid`) of lines and paths; `size` is its length in line widths.
pub fn arrowhead(id: &str, color: &str, size: f64) -> Marker {
    Marker::new()
        .set("id", id)
        .set("viewBox", "0 0 10 10")
        .set("refX", 8)
        .set("refY", 5)
        .set("markerWidth", px(size))
        .set("markerHeight", px(size))
        .set("orient", "auto")
        .add(
            Path::new()
                .set("d", "M 0 0 L 10 5 L 0 10 z")
                .set("fill", color),
        )
}

/// The document as text, ending in a newline.
pub fn finish(doc: Document) -> String {
    format!("{doc}\n")
}

pub mod check {
    //! What the tests of the pictures need: the picture read back as XML.
    //! It panics on a picture that is not well-formed, as a test should.

    use svg::node::element::tag::Type;
    use svg::parser::Event;

    /// One element of a picture: its name and attributes.
    #[derive(Debug)]
    pub struct Element {
        pub name: String,
        pub attributes: Vec<(String, String)>,
    }

    impl Element {
        pub fn get(&self, name: &str) -> Option<&str> {
            self.attributes
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        }
    }

    /// Every element of `svg` in document order, after checking that it is
    /// well-formed: the parser meets no error, every start tag is closed by
    /// its own end tag, and there is one root, `svg`.
    pub fn elements(svg: &str) -> Vec<Element> {
        let mut open: Vec<String> = Vec::new();
        let mut out = Vec::new();
        let mut roots = 0;
        for event in svg::read(svg).expect("the picture parses") {
            match event {
                Event::Error(e) => panic!("not well-formed: {e}"),
                Event::Tag(name, kind, attributes) => {
                    if open.is_empty() && kind != Type::End {
                        roots += 1;
                        assert_eq!(name, "svg", "the root element");
                    }
                    if kind != Type::End {
                        let mut attributes: Vec<(String, String)> = attributes
                            .iter()
                            .map(|(k, v)| (k.clone(), v.to_string()))
                            .collect();
                        attributes.sort();
                        out.push(Element {
                            name: name.to_owned(),
                            attributes,
                        });
                    }
                    match kind {
                        Type::Start => open.push(name.to_owned()),
                        Type::End => {
                            assert_eq!(open.pop().as_deref(), Some(name), "end tag of {name}")
                        }
                        Type::Empty => {}
                    }
                }
                Event::Text(_) | Event::Comment(_) => {}
                Event::Declaration(_) | Event::Instruction(_) => {}
            }
        }
        assert!(open.is_empty(), "unclosed elements: {open:?}");
        assert_eq!(roots, 1, "one root element");
        out
    }

    /// The elements of `svg` whose `class` is `class`.
    pub fn with_class<'a>(elements: &'a [Element], class: &str) -> Vec<&'a Element> {
        elements
            .iter()
            .filter(|e| e.get("class") == Some(class))
            .collect()
    }
}
