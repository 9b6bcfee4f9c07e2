//! CSV rows read from a file that arrives in chunks, within fixed limits: a row's cells,
//! its bytes and one cell's bytes are bounded before anything is kept, so memory stays the
//! same whatever the file's shape (one endless line, a quote never closed, millions of empty
//! cells or of tiny rows). The delimiter (comma, semicolon or tab) is read off the header.

/// The bounds of one row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most cells in a row.
    pub columns: usize,
    /// Most bytes of a row's cells together.
    pub row_bytes: usize,
    /// Most bytes of one cell.
    pub field_bytes: usize,
}

/// What `Rows::next_row` found.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    /// A row, starting on this line of the file (the first line is 1); see `Rows::record`.
    Row(i64),
    /// More of the file is needed: `Rows::supply` the next chunk.
    NeedInput,
    /// The file has no more rows.
    End,
}

/// The delimiters a file may use, as the header shows them.
const DELIMITERS: [(u8, &str); 3] = [(b',', "comma"), (b';', "semicolon"), (b'\t', "tab")];

pub struct Rows {
    limits: Limits,
    /// None until the header's first line is in, which decides the delimiter.
    core: Option<csv_core::Reader>,
    delimiter: u8,
    head: Vec<u8>,
    chunk: Vec<u8>,
    pos: usize,
    input_done: bool,
    out: Vec<u8>,
    out_len: usize,
    ends: Vec<usize>,
    ends_len: usize,
    /// Line of the next byte to read, and whether the last byte read was a CR (which ends a
    /// line unless an LF follows).
    line: i64,
    after_cr: bool,
    between_rows: bool,
    row_line: i64,
    record: csv::StringRecord,
    header: Option<csv::StringRecord>,
}

impl Rows {
    pub fn new(limits: Limits) -> Self {
        Self {
            limits,
            core: None,
            delimiter: b',',
            head: Vec::new(),
            chunk: Vec::new(),
            pos: 0,
            input_done: false,
            // One spare byte and cell: the reader asks for room before it sees a row's end.
            out: vec![0; limits.row_bytes + 1],
            out_len: 0,
            ends: vec![0; limits.columns + 1],
            ends_len: 0,
            line: 1,
            after_cr: false,
            between_rows: true,
            row_line: 1,
            record: csv::StringRecord::new(),
            header: None,
        }
    }

    /// The next chunk of the file, or None at its end. Call it only after `Next::NeedInput`.
    pub fn supply(&mut self, chunk: Option<Vec<u8>>) {
        match chunk {
            None => self.input_done = true,
            Some(chunk) if self.core.is_none() => self.head.extend_from_slice(&chunk),
            Some(chunk) => {
                self.chunk = chunk;
                self.pos = 0;
            }
        }
    }

    /// The row `next_row` last found.
    pub fn record(&self) -> &csv::StringRecord {
        &self.record
    }

    /// The delimiter's name (`comma`, `semicolon` or `tab`).
    pub fn delimiter(&self) -> &'static str {
        DELIMITERS
            .iter()
            .find(|(d, _)| *d == self.delimiter)
            .map_or("comma", |(_, name)| name)
    }

    /// The next row, or what is needed to find it; an error says, for a person, where the
    /// file breaks a rule and which.
    pub fn next_row(&mut self) -> Result<Next, String> {
        if self.core.is_none() {
            let body = self
                .head
                .strip_prefix(b"\xEF\xBB\xBF")
                .unwrap_or(&self.head);
            let first_line_in = body.iter().any(|b| matches!(b, b'\r' | b'\n'));
            if !first_line_in && !self.input_done && self.head.len() <= self.limits.row_bytes {
                return Ok(Next::NeedInput);
            }
            self.delimiter = detect_delimiter(body, self.limits.row_bytes);
            let skip = self.head.len() - body.len();
            self.chunk = std::mem::take(&mut self.head);
            self.pos = skip;
            self.core = Some(
                csv_core::ReaderBuilder::new()
                    .delimiter(self.delimiter)
                    .build(),
            );
        }
        loop {
            if self.between_rows {
                // Blank lines between rows are skipped here, so a row's first line is known.
                while let Some(&b) = self.chunk.get(self.pos)
                    && matches!(b, b'\r' | b'\n')
                {
                    self.count(self.pos, self.pos + 1)?;
                    self.pos += 1;
                }
                if self.pos == self.chunk.len() {
                    return Ok(if self.input_done {
                        Next::End
                    } else {
                        Next::NeedInput
                    });
                }
                self.row_line = self.line + i64::from(self.after_cr);
                self.between_rows = false;
            }
            let input = &self.chunk[self.pos..];
            if input.is_empty() && !self.input_done {
                return Ok(Next::NeedInput);
            }
            let core = self.core.as_mut().expect("the delimiter is known");
            let (result, read, written, ended) = core.read_record(
                input,
                &mut self.out[self.out_len..],
                &mut self.ends[self.ends_len..],
            );
            self.count(self.pos, self.pos + read)?;
            self.pos += read;
            self.out_len += written;
            self.ends_len += ended;
            let result = match result {
                csv_core::ReadRecordResult::Record if self.out_len > self.limits.row_bytes => {
                    csv_core::ReadRecordResult::OutputFull
                }
                csv_core::ReadRecordResult::Record if self.ends_len > self.limits.columns => {
                    csv_core::ReadRecordResult::OutputEndsFull
                }
                other => other,
            };
            match result {
                csv_core::ReadRecordResult::InputEmpty => {
                    if !self.input_done {
                        return Ok(Next::NeedInput);
                    }
                }
                csv_core::ReadRecordResult::OutputFull => {
                    return Err(format!(
                        "Line {} is longer than {} bytes, the most a row may hold (is a quote \
                         left open?).",
                        self.row_line, self.limits.row_bytes
                    ));
                }
                csv_core::ReadRecordResult::OutputEndsFull => {
                    return Err(format!(
                        "Line {} has more than {} cells, the most a row may have.",
                        self.row_line, self.limits.columns
                    ));
                }
                csv_core::ReadRecordResult::Record => return self.finish_row(),
                csv_core::ReadRecordResult::End => return Ok(Next::End),
            }
        }
    }

    /// Counts the lines of `chunk[from..to]`, refusing a NUL byte.
    fn count(&mut self, from: usize, to: usize) -> Result<(), String> {
        for &b in &self.chunk[from..to] {
            if b == 0 {
                let line = self.line + i64::from(self.after_cr);
                return Err(format!(
                    "Line {line} holds a NUL byte: the file is not UTF-8 text (save it as \
                     \"CSV UTF-8\")."
                ));
            }
            if b == b'\n' || self.after_cr {
                self.line += 1;
            }
            self.after_cr = b == b'\r';
        }
        Ok(())
    }

    fn finish_row(&mut self) -> Result<Next, String> {
        let line = self.row_line;
        let (out_len, ends_len) = (self.out_len, self.ends_len);
        self.out_len = 0;
        self.ends_len = 0;
        self.between_rows = true;
        let text = std::str::from_utf8(&self.out[..out_len])
            .map_err(|_| format!("The file is not UTF-8 text (line {line})."))?;
        self.record.clear();
        let mut start = 0;
        for (i, &end) in self.ends[..ends_len].iter().enumerate() {
            if end - start > self.limits.field_bytes {
                let column = self
                    .header
                    .as_ref()
                    .and_then(|h| h.get(i))
                    .map_or_else(|| format!("column {}", i + 1), |name| name.to_owned());
                return Err(format!(
                    "Line {line}, {column}: a cell is longer than {} bytes, the most a cell \
                     may hold.",
                    self.limits.field_bytes
                ));
            }
            self.record.push_field(&text[start..end]);
            start = end;
        }
        if self.header.is_none() {
            self.header = Some(self.record.clone());
        }
        Ok(Next::Row(line))
    }
}

/// The delimiter the header's first line uses most (outside quotes); a comma by default.
fn detect_delimiter(text: &[u8], max: usize) -> u8 {
    let line = text
        .iter()
        .take(max)
        .take_while(|b| !matches!(b, b'\r' | b'\n'));
    let mut counts = [0usize; DELIMITERS.len()];
    let mut quoted = false;
    for &b in line {
        if b == b'"' {
            quoted = !quoted;
        } else if !quoted && let Some(i) = DELIMITERS.iter().position(|(d, _)| *d == b) {
            counts[i] += 1;
        }
    }
    let best = (0..DELIMITERS.len())
        .max_by_key(|&i| (counts[i], std::cmp::Reverse(i)))
        .unwrap_or(0);
    DELIMITERS[best].0
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits {
        columns: 4,
        row_bytes: 32,
        field_bytes: 10,
    };

    /// Every row of `text` fed in chunks of `chunk` bytes, each with its line.
    fn read(text: &[u8], chunk: usize, limits: Limits) -> Result<Vec<(i64, Vec<String>)>, String> {
        let mut rows = Rows::new(limits);
        let mut parts = text.chunks(chunk);
        let mut found = Vec::new();
        loop {
            match rows.next_row()? {
                Next::Row(line) => {
                    found.push((line, rows.record().iter().map(str::to_owned).collect()))
                }
                Next::NeedInput => rows.supply(parts.next().map(<[u8]>::to_vec)),
                Next::End => return Ok(found),
            }
        }
    }

    fn lines(text: &[u8], chunk: usize) -> Vec<i64> {
        read(text, chunk, LIMITS)
            .unwrap()
            .into_iter()
            .map(|(l, _)| l)
            .collect()
    }

    #[test]
    fn rows_keep_their_lines_with_lf_crlf_cr_and_quoted_line_breaks() {
        for chunk in [1, 2, 3, 1000] {
            assert_eq!(lines(b"h\na\n\"b\nc\"\nd\n", chunk), [1, 2, 3, 5]);
            assert_eq!(lines(b"h\r\na\r\n\"b\r\nc\"\r\nd\r\n", chunk), [1, 2, 3, 5]);
            assert_eq!(lines(b"h\ra\r\"b\rc\"\rd", chunk), [1, 2, 3, 5]);
            assert_eq!(lines(b"\xEF\xBB\xBFh\n\n\na\n", chunk), [1, 4]);
        }
    }

    #[test]
    fn the_delimiter_is_read_off_the_header() {
        for (text, delimiter, cells) in [
            (&b"a;b;c\n1;2,5;3\n"[..], "semicolon", 3),
            (b"a,b,c\n1,\"2;5\",3\n", "comma", 3),
            (b"a\tb\n1\t2\n", "tab", 2),
            (b"\"a;b\",c\n1,2\n", "comma", 2),
        ] {
            let mut rows = Rows::new(LIMITS);
            rows.supply(Some(text.to_vec()));
            assert_eq!(rows.next_row(), Ok(Next::Row(1)));
            assert_eq!(rows.delimiter(), delimiter, "{text:?}");
            assert!(matches!(rows.next_row(), Ok(Next::Row(2))));
            assert_eq!(rows.record().len(), cells);
        }
    }

    #[test]
    fn each_bound_is_refused_with_the_line_that_breaks_it() {
        let error = |text: &[u8]| read(text, 3, LIMITS).unwrap_err();
        assert!(error(b"a,b\n,,,,,,,,\n").starts_with("Line 2 has more than 4 cells"));
        assert!(error(&[b','; 100_000]).starts_with("Line 1 has more than 4 cells"));
        assert!(error(&[b'x'; 100_000]).starts_with("Line 1 is longer than 32 bytes"));
        let open_quote = [&b"a,b\n\"open,1\n"[..], &b"2,3\n".repeat(100)].concat();
        assert!(error(&open_quote).starts_with("Line 2 is longer than 32 bytes"));
        assert_eq!(
            error(b"a,b\n1,12345678901\n"),
            "Line 2, b: a cell is longer than 10 bytes, the most a cell may hold."
        );
        assert!(error(b"a,b\r1,2\r3,\x004\r").starts_with("Line 3 holds a NUL byte"));
        assert_eq!(error(b"a\n\xff\n"), "The file is not UTF-8 text (line 2).");
        // A row at the bounds is read.
        let fine = read(b"a,b,c,d\n1234567890,1234567890,1234567890,12\n", 5, LIMITS).unwrap();
        assert_eq!(fine[1].1.len(), 4);
        assert!(
            error(b"a\n1234567890,1234567890,1234567890,123\n").starts_with("Line 2 is longer")
        );
        assert!(error(b"a\n1,2,3,4,5\n").starts_with("Line 2 has more than 4 cells"));
    }

    #[test]
    fn millions_of_tiny_rows_are_read_one_at_a_time() {
        let text = b"a\n".repeat(1_000_000);
        let mut rows = Rows::new(LIMITS);
        let mut parts = text.chunks(1 << 20);
        let mut count = 0;
        loop {
            match rows.next_row().unwrap() {
                Next::Row(_) => count += 1,
                Next::NeedInput => rows.supply(parts.next().map(<[u8]>::to_vec)),
                Next::End => break,
            }
        }
        assert_eq!(count, 1_000_000);
    }
}
