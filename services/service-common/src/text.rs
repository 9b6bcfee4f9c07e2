//! The one rule for every text field of every service: trimmed, bounded in characters, and
//! free of control characters (NUL, terminal escapes, bidirectional overrides), with line
//! breaks only where a field is a paragraph. A one-line field can therefore never carry a
//! header line into an e-mail or a forged line into a log.

/// Whether a field may be left empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    Required,
    Optional,
}

/// Whether a field is one line (names, subjects, places) or may hold line breaks and tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lines {
    One,
    Paragraph,
}

/// How one text field is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextRule {
    pub max_chars: usize,
    pub presence: Presence,
    pub lines: Lines,
}

impl TextRule {
    /// A required single line of at most `max_chars` characters.
    pub const fn line(max_chars: usize) -> Self {
        Self {
            max_chars,
            presence: Presence::Required,
            lines: Lines::One,
        }
    }

    /// A required text of at most `max_chars` characters that may span lines.
    pub const fn paragraph(max_chars: usize) -> Self {
        Self {
            max_chars,
            presence: Presence::Required,
            lines: Lines::Paragraph,
        }
    }

    /// The same rule, for a field that may be empty.
    pub const fn optional(self) -> Self {
        Self {
            presence: Presence::Optional,
            ..self
        }
    }

    /// The trimmed value, or what is wrong with it, in words that follow the field's name.
    pub fn check(self, value: &str) -> Result<String, String> {
        let value = value.trim();
        if value.is_empty() {
            return match self.presence {
                Presence::Required => Err("is required".into()),
                Presence::Optional => Ok(String::new()),
            };
        }
        if value.chars().count() > self.max_chars {
            return Err(format!("must be at most {} characters", self.max_chars));
        }
        if let Some(c) = value.chars().find(|&c| !self.allows(c)) {
            return Err(if matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}') {
                "must be one line".into()
            } else {
                "must not contain control characters".into()
            });
        }
        Ok(value.to_owned())
    }

    fn allows(self, c: char) -> bool {
        let line_break = matches!(c, '\n' | '\r' | '\t' | '\u{2028}' | '\u{2029}');
        if line_break {
            return self.lines == Lines::Paragraph && c != '\u{2028}' && c != '\u{2029}';
        }
        // Bidirectional embeddings, overrides and isolates reorder what a reader sees.
        let bidi_control = matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
        !c.is_control() && !bidi_control
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_fields_refuse_breaks_escapes_and_nul() {
        let rule = TextRule::line(200);
        assert_eq!(rule.check("  Hello  ").unwrap(), "Hello");
        assert_eq!(
            rule.check("Hi\r\nBcc: victim@example.com").unwrap_err(),
            "must be one line"
        );
        for bad in [
            "a\u{0}b",
            "\u{1b}[31mred",
            "tab\there",
            "abc\u{202E}fed",
            "x\u{7f}",
        ] {
            assert_eq!(
                rule.check(bad).unwrap_err(),
                "must not contain control characters",
                "{bad:?}"
            );
        }
        assert_eq!(rule.check("a\u{2028}b").unwrap_err(), "must be one line");
    }

    #[test]
    fn paragraphs_keep_line_breaks_but_not_escapes() {
        let rule = TextRule::paragraph(5000);
        assert_eq!(rule.check("one\r\n\ttwo").unwrap(), "one\r\n\ttwo");
        assert!(rule.check("bell\u{7}").is_err());
    }

    #[test]
    fn presence_and_length() {
        assert_eq!(TextRule::line(3).check(" ").unwrap_err(), "is required");
        assert_eq!(TextRule::line(3).optional().check(" ").unwrap(), "");
        assert_eq!(
            TextRule::line(3).check("abcd").unwrap_err(),
            "must be at most 3 characters"
        );
        assert_eq!(
            TextRule::line(3).check("éèê").unwrap(),
            "éèê",
            "characters, not bytes"
        );
        assert_eq!(TextRule::line(10).check("مرحبا").unwrap(), "مرحبا");
    }
}
