//! The CSV files under `data/`, read back by `reproduce` to keep rows that
//! only `--full` computes: one record per line, fields found by header
//! name, a field quoted (RFC 4180) only when it holds a comma or a quote.
//! Every error names the file, the line and the column at fault.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// A CSV file that cannot be read as the table `reproduce` wrote.
#[derive(Debug)]
pub struct CsvError {
    /// The file.
    pub path: PathBuf,
    /// Line number, from 1 (the header is line 1).
    pub line: usize,
    /// Column number from 1 and its header name, when one column is at fault.
    pub column: Option<(usize, String)>,
    /// What is wrong.
    pub problem: String,
}

impl fmt::Display for CsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: line {}", self.path.display(), self.line)?;
        if let Some((n, name)) = &self.column {
            write!(f, ", column {n} ({name})")?;
        }
        write!(f, ": {}", self.problem)
    }
}

impl std::error::Error for CsvError {}

/// One field as written to a CSV line.
pub fn quote(field: &str) -> String {
    if field.contains([',', '"']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_owned()
    }
}

/// One CSV line from its fields (no line end).
pub fn line<S: AsRef<str>>(fields: &[S]) -> String {
    fields
        .iter()
        .map(|f| quote(f.as_ref()))
        .collect::<Vec<_>>()
        .join(",")
}

/// Split one line into fields; `Err` with the 1-based column where a
/// quoted field is not closed or is followed by something else.
fn split(text: &str) -> Result<Vec<String>, (usize, &'static str)> {
    let mut fields = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        let column = fields.len() + 1;
        let mut field = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next() {
                    None => return Err((column, "a quoted field is not closed")),
                    Some('"') if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    Some('"') => break,
                    Some(c) => field.push(c),
                }
            }
            match chars.next() {
                None => {
                    fields.push(field);
                    return Ok(fields);
                }
                Some(',') => fields.push(field),
                Some(_) => return Err((column, "text after the closing quote")),
            }
        } else {
            loop {
                match chars.next() {
                    None => {
                        fields.push(field);
                        return Ok(fields);
                    }
                    Some(',') => break,
                    Some('"') => return Err((column, "a quote inside an unquoted field")),
                    Some(c) => field.push(c),
                }
            }
            fields.push(field);
        }
    }
}

/// `bytes` (the content of `path`) as text, or the line and column (in
/// bytes, from 1) of the first byte that is not UTF-8.
fn utf8<'b>(path: &Path, bytes: &'b [u8]) -> Result<&'b str, CsvError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let before = &bytes[..at];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        CsvError {
            path: path.to_owned(),
            line: before.iter().filter(|&&b| b == b'\n').count() + 1,
            column: None,
            problem: format!(
                "byte {} of the line (0x{:02x}) is not UTF-8: the file must be UTF-8 text",
                at - line_start + 1,
                bytes[at]
            ),
        }
    })
}

/// A CSV file read whole: its header and records with their line numbers.
#[derive(Debug)]
pub struct Table {
    path: PathBuf,
    header: Vec<String>,
    records: Vec<(usize, Vec<String>)>,
}

impl Table {
    /// Read `path`; `Ok(None)` when it does not exist. The header must
    /// start with `required`, in order (more columns may follow), and
    /// every record have as many fields as the header.
    pub fn read(path: &Path, required: &[&str]) -> anyhow::Result<Option<Table>> {
        let bytes = match std::fs::read(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(anyhow::Error::new(e).context(format!("cannot read {}", path.display())))
            }
        };
        let text = utf8(path, &bytes)?;
        Ok(Some(Table::parse(path, text, required)?))
    }

    /// Parse `text`, the content of `path` (see [`Table::read`]).
    pub fn parse(path: &Path, text: &str, required: &[&str]) -> Result<Table, CsvError> {
        let err = |line: usize, column: Option<(usize, String)>, problem: String| CsvError {
            path: path.to_owned(),
            line,
            column,
            problem,
        };
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        let (_, first) = lines
            .next()
            .ok_or_else(|| err(1, None, "the file is empty: no header row".into()))?;
        let header = split(first).map_err(|(c, p)| err(1, Some((c, String::new())), p.into()))?;
        for (i, want) in required.iter().enumerate() {
            if header.get(i).map(String::as_str) != Some(*want) {
                return Err(err(
                    1,
                    Some((i + 1, want.to_string())),
                    format!(
                        "the header must start with {}, found {:?}",
                        required.join(","),
                        header.get(i).map(String::as_str).unwrap_or("")
                    ),
                ));
            }
        }
        let mut records = Vec::new();
        for (n, text) in lines {
            if text.is_empty() {
                return Err(err(n, None, "an empty line".into()));
            }
            let fields = split(text).map_err(|(c, p)| {
                let name = header.get(c - 1).cloned().unwrap_or_default();
                err(n, Some((c, name)), p.into())
            })?;
            if fields.len() != header.len() {
                return Err(err(
                    n,
                    None,
                    format!(
                        "{} fields where the header has {}",
                        fields.len(),
                        header.len()
                    ),
                ));
            }
            records.push((n, fields));
        }
        Ok(Table {
            path: path.to_owned(),
            header,
            records,
        })
    }

    /// The records, each with its line number.
    pub fn rows(&self) -> impl Iterator<Item = Row<'_>> {
        self.records.iter().map(move |(line, fields)| Row {
            table: self,
            line: *line,
            fields,
        })
    }
}

/// One record of a [`Table`].
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    table: &'a Table,
    line: usize,
    fields: &'a [String],
}

impl<'a> Row<'a> {
    /// The error "column `name` of this row: `problem`".
    pub fn error(&self, name: &str, problem: impl Into<String>) -> CsvError {
        let column = self
            .table
            .header
            .iter()
            .position(|h| h == name)
            .map(|i| (i + 1, name.to_owned()));
        CsvError {
            path: self.table.path.clone(),
            line: self.line,
            column,
            problem: problem.into(),
        }
    }

    /// The text of column `name`.
    pub fn text(&self, name: &str) -> Result<&'a str, CsvError> {
        self.table
            .header
            .iter()
            .position(|h| h == name)
            .map(|i| self.fields[i].as_str())
            .ok_or_else(|| self.error(name, "no such column"))
    }

    /// Column `name` parsed as a `T`.
    pub fn get<T: FromStr>(&self, name: &str) -> Result<T, CsvError> {
        let t = self.text(name)?;
        t.parse()
            .map_err(|_| self.error(name, format!("cannot read {t:?}")))
    }

    /// Column `name` parsed as a `T`, `None` when empty.
    pub fn get_opt<T: FromStr>(&self, name: &str) -> Result<Option<T>, CsvError> {
        if self.text(name)?.is_empty() {
            Ok(None)
        } else {
            self.get(name).map(Some)
        }
    }

    /// Column `name` as space-separated hole numbers (empty: none).
    pub fn holes(&self, name: &str) -> Result<Vec<usize>, CsvError> {
        let t = self.text(name)?;
        t.split(' ')
            .filter(|_| !t.is_empty())
            .map(|h| {
                h.parse()
                    .map_err(|_| self.error(name, format!("cannot read the hole {h:?} in {t:?}")))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_fields_round_trip() {
        let fields = ["a", "b, c", "say \"x\"", ""];
        let l = line(&fields);
        assert_eq!(l, "a,\"b, c\",\"say \"\"x\"\"\",");
        assert_eq!(split(&l).unwrap(), fields);
    }

    #[test]
    fn errors_name_the_line_and_column() {
        let p = Path::new("t.csv");
        let t = Table::parse(p, "holes,seeds\n1,2\n3,x\n", &["holes", "seeds"]).unwrap();
        let rows: Vec<Row> = t.rows().collect();
        assert_eq!(rows[0].get::<u32>("seeds").unwrap(), 2);
        let e = rows[1].get::<u32>("seeds").unwrap_err().to_string();
        assert_eq!(e, "t.csv: line 3, column 2 (seeds): cannot read \"x\"");
        let e = Table::parse(p, "holes,seeds\n1\n", &["holes"]).unwrap_err();
        assert_eq!(e.line, 2);
        let e = Table::parse(p, "holes,seed\n", &["holes", "seeds"]).unwrap_err();
        assert_eq!(e.column.unwrap().0, 2);
        let e = Table::parse(p, "a,b\n1,\"x\n", &[])
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "t.csv: line 2, column 2 (b): a quoted field is not closed"
        );
    }
}
