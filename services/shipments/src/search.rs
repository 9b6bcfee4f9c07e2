//! The admin search's one folding rule, applied both to the text stored for search and to
//! what the admin types, so that every store matches the same way.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// `text` without case, accents or compatibility forms: "Müller", "MULLER" and "muller" all
/// fold to "muller", "Straße" to "strasse", "ﬁ" to "fi". Letters of every script stay (Arabic
/// loses only its optional vowel marks), and the fold never turns text into nothing else.
pub fn fold(text: &str) -> String {
    let mut folded = String::with_capacity(text.len());
    let letters = text
        .nfkd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase);
    for c in letters {
        match c {
            // Sharp s is written "ss" without the letter (as in Switzerland, or in capitals).
            'ß' => folded.push_str("ss"),
            // Greek final sigma is a sigma: capitals have only one.
            'ς' => folded.push('σ'),
            c => folded.push(c),
        }
    }
    folded
}

#[cfg(test)]
mod tests {
    use super::fold;

    #[test]
    fn case_and_accents_fold_away_both_ways() {
        for text in [
            "Müller",
            "MÜLLER",
            "muller",
            "Muller",
            "MULLER",
            "Mu\u{308}ller",
        ] {
            assert_eq!(fold(text), "muller", "{text}");
        }
        assert_eq!(fold("São Paulo"), "sao paulo");
        assert_eq!(fold("Łódź"), "łodz", "a letter of its own (ł) stays");
        assert_eq!(fold("İstanbul"), "istanbul");
    }

    #[test]
    fn sharp_s_is_double_s() {
        assert_eq!(fold("Straße"), "strasse");
        assert_eq!(fold("STRASSE"), "strasse");
        assert_eq!(fold("ẞ"), "ss");
        assert_eq!(fold("ΟΔΥΣΣΕΥΣ"), fold("Ὀδυσσεύς"));
    }

    #[test]
    fn other_scripts_stay_searchable() {
        // Arabic letters stay; the optional vowel marks (harakat) go, as readers often omit them.
        assert_eq!(fold("مُحَمَّد"), "محمد");
        assert_eq!(fold("القاهرة"), "القاهرة");
        assert_eq!(fold("東京"), "東京");
        // Presentation forms (ligatures, full-width) are the letters they show.
        assert_eq!(fold("ﬁle ＰＳＥ"), "file pse");
    }

    #[test]
    fn folding_twice_changes_nothing() {
        for text in [
            "Müller",
            "Straße",
            "مُحَمَّد",
            "ǅemal",
            "Ὀδυσσεύς",
            "PSE313681562",
        ] {
            assert_eq!(fold(&fold(text)), fold(text), "{text}");
        }
    }
}
