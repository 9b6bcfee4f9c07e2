//! The languages the product writes to the public in, and the catalogue of what its e-mails
//! say: one JSON file per language in `locales/`, English holding the spec's wording. It lives
//! with notifications (beside its templates); the outbox, which notifications depends on,
//! writes e-mails with it too, so it is a crate of its own rather than a module of either.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

/// A language of the public site and of the e-mails to shippers, receivers and subscribers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    #[default]
    En,
    Es,
    Fr,
    Ar,
}

/// What a language code that is none of ours gets back.
pub const UNKNOWN_LANGUAGE: &str = "must be one of en, es, fr, ar";

impl Language {
    pub const ALL: [Language; 4] = [Language::En, Language::Es, Language::Fr, Language::Ar];

    /// `en`, `es`, `fr` or `ar`, any case; empty means English.
    pub fn parse(code: &str) -> Result<Self, &'static str> {
        match code.trim().to_ascii_lowercase().as_str() {
            "" | "en" => Ok(Language::En),
            "es" => Ok(Language::Es),
            "fr" => Ok(Language::Fr),
            "ar" => Ok(Language::Ar),
            _ => Err(UNKNOWN_LANGUAGE),
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Es => "es",
            Language::Fr => "fr",
            Language::Ar => "ar",
        }
    }

    pub fn is_english(&self) -> bool {
        *self == Language::En
    }

    /// `rtl` for Arabic, `ltr` otherwise (the `dir` of an HTML e-mail).
    pub fn direction(self) -> &'static str {
        match self {
            Language::Ar => "rtl",
            _ => "ltr",
        }
    }

    /// The site's pages in this language live under this prefix: `` for English, `/es`, ….
    pub fn path_prefix(self) -> &'static str {
        match self {
            Language::En => "",
            Language::Es => "/es",
            Language::Fr => "/fr",
            Language::Ar => "/ar",
        }
    }

    fn source(self) -> &'static str {
        match self {
            Language::En => include_str!("../locales/en.json"),
            Language::Es => include_str!("../locales/es.json"),
            Language::Fr => include_str!("../locales/fr.json"),
            Language::Ar => include_str!("../locales/ar.json"),
        }
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

type Messages = BTreeMap<String, String>;

static CATALOGUES: LazyLock<BTreeMap<Language, Messages>> = LazyLock::new(|| {
    Language::ALL
        .into_iter()
        .map(|language| {
            let messages: Messages = serde_json::from_str(language.source())
                .unwrap_or_else(|e| panic!("locales/{language}.json: {e}"));
            (language, messages)
        })
        .collect()
});

impl PartialOrd for Language {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Language {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.code().cmp(other.code())
    }
}

/// The catalogue's text of `key` in `language`, English where that language lacks it, and the
/// key itself for a key no catalogue has (a test keeps every key in every language).
pub fn message(language: Language, key: &str) -> &str {
    let find = |language: Language| CATALOGUES[&language].get(key).map(String::as_str);
    find(language).or_else(|| find(Language::En)).unwrap_or(key)
}

/// `text` with each `{name}` replaced by `value(name)`; an unknown name stays as it is.
pub fn interpolate(text: &str, mut value: impl FnMut(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        match after.find('}') {
            Some(end) if is_name(&after[..end]) => {
                let name = &after[..end];
                match value(name) {
                    Some(v) => out.push_str(&v),
                    None => {
                        out.push('{');
                        out.push_str(name);
                        out.push('}');
                    }
                }
                rest = &after[end + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn is_name(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The catalogue's text of `key` in `language` with its `{name}`s filled from `values`.
pub fn format(language: Language, key: &str, values: &[(&str, &str)]) -> String {
    interpolate(message(language, key), |name| {
        values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| (*v).to_owned())
    })
}

/// A date as people read it in `language`: "Dec 3, 2026", "3 dic 2026", "3 déc. 2026", …
pub fn date(language: Language, day: chrono::NaiveDate) -> String {
    use chrono::Datelike;
    format(
        language,
        "date.date",
        &[
            ("day", &day.day().to_string()),
            (
                "month",
                message(language, &format!("date.month.{}", day.month())),
            ),
            ("year", &day.year().to_string()),
        ],
    )
}

/// A `YYYY-MM-DD` date as `date` writes it; anything else as it is.
pub fn date_text(language: Language, text: &str) -> String {
    match chrono::NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d") {
        Ok(day) => date(language, day),
        Err(_) => text.to_owned(),
    }
}

/// A moment in UTC, saying so, as people read it in `language`: "Nov 26, 2026, 4:18 PM UTC",
/// "26 nov 2026, 16:18 UTC", …
pub fn date_time(language: Language, at: chrono::DateTime<chrono::Utc>) -> String {
    use chrono::Timelike;
    let time = if message(language, "date.clock") == "12" {
        let (pm, hour) = at.hour12();
        let half = message(language, if pm { "date.pm" } else { "date.am" });
        format!("{hour}:{:02} {half}", at.minute())
    } else {
        at.format("%H:%M").to_string()
    };
    format(
        language,
        "date.date_time",
        &[
            ("date", &date(language, at.date_naive())),
            ("time", &time),
            ("zone", "UTC"),
        ],
    )
}

/// The plural categories `language` has (CLDR's, for whole numbers), each a key suffix of a
/// plural message: `email.pickup.parcels.one`, `….other`, …
pub fn plural_categories(language: Language) -> &'static [&'static str] {
    match language {
        Language::En | Language::Es | Language::Fr => &["one", "other"],
        Language::Ar => &["zero", "one", "two", "few", "many", "other"],
    }
}

/// Which plural category `count` takes in `language` (CLDR's rules for whole numbers).
pub fn plural_category(language: Language, count: u64) -> &'static str {
    match (language, count) {
        (Language::En | Language::Es, 1) | (Language::Fr, 0 | 1) => "one",
        (Language::Ar, 0) => "zero",
        (Language::Ar, 1) => "one",
        (Language::Ar, 2) => "two",
        (Language::Ar, n) if (3..=10).contains(&(n % 100)) => "few",
        (Language::Ar, n) if (11..=99).contains(&(n % 100)) => "many",
        _ => "other",
    }
}

/// The plural message `key` for `count` in `language`, its `{count}` filled: "1 parcel",
/// "3 parcels", "طردان", …
pub fn plural(language: Language, key: &str, count: u64) -> String {
    let key = format!("{key}.{}", plural_category(language, count));
    format(language, &key, &[("count", &count.to_string())])
}

/// The placeholders of a message, e.g. `{tracking}` → `tracking`.
pub fn placeholders(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    interpolate(text, |name| {
        names.push(name.to_owned());
        Some(String::new())
    });
    names.sort();
    names
}

/// Every key of the English catalogue.
pub fn keys() -> impl Iterator<Item = &'static str> {
    CATALOGUES[&Language::En].keys().map(String::as_str)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// `key.other` in English makes `key` a plural message.
    fn plural_base(key: &str) -> Option<&str> {
        let (base, category) = key.rsplit_once('.')?;
        let plural = ["zero", "one", "two", "few", "many", "other"].contains(&category)
            && CATALOGUES[&Language::En].contains_key(&format!("{base}.other"));
        plural.then_some(base)
    }

    #[test]
    fn every_language_has_exactly_the_english_keys_with_the_same_placeholders() {
        let english = &CATALOGUES[&Language::En];
        let bases: BTreeSet<&str> = english.keys().filter_map(|k| plural_base(k)).collect();
        for language in Language::ALL {
            let messages = &CATALOGUES[&language];
            // A plural message has exactly the language's own categories.
            let expected: BTreeSet<String> = english
                .keys()
                .filter(|k| plural_base(k).is_none())
                .cloned()
                .chain(bases.iter().flat_map(|base| {
                    plural_categories(language)
                        .iter()
                        .map(move |c| format!("{base}.{c}"))
                }))
                .collect();
            let missing: Vec<_> = expected
                .iter()
                .filter(|k| !messages.contains_key(*k))
                .collect();
            let extra: Vec<_> = messages.keys().filter(|k| !expected.contains(*k)).collect();
            assert!(
                missing.is_empty(),
                "locales/{language}.json lacks {missing:?}"
            );
            assert!(
                extra.is_empty(),
                "locales/{language}.json has unknown keys {extra:?}"
            );
            for (key, text) in messages {
                assert!(
                    !text.trim().is_empty(),
                    "locales/{language}.json: {key} is empty"
                );
                match plural_base(key) {
                    // "طرد واحد" names no count: a plural form uses some of English's names.
                    Some(base) => {
                        let allowed = placeholders(&english[&format!("{base}.other")]);
                        assert!(
                            placeholders(text).iter().all(|p| allowed.contains(p)),
                            "locales/{language}.json: {key} may use only {allowed:?}"
                        );
                    }
                    None => assert_eq!(
                        placeholders(text),
                        placeholders(&english[key]),
                        "locales/{language}.json: {key} must use the placeholders of English"
                    ),
                }
            }
        }
    }

    #[test]
    fn counts_take_each_languages_plural_form() {
        let parcels = |language, n| plural(language, "email.pickup.parcels", n);
        assert_eq!(parcels(Language::En, 1), "1 parcel");
        assert_eq!(parcels(Language::En, 0), "0 parcels");
        assert_eq!(parcels(Language::En, 3), "3 parcels");
        assert_eq!(parcels(Language::Es, 1), "1 bulto");
        assert_eq!(parcels(Language::Es, 12), "12 bultos");
        assert_eq!(parcels(Language::Fr, 0), "0 colis");
        assert_eq!(parcels(Language::Fr, 1), "1 colis");
        assert_eq!(plural_category(Language::Fr, 1), "one");
        assert_eq!(plural_category(Language::Fr, 2), "other");
        assert_eq!(parcels(Language::Ar, 1), "طرد واحد");
        assert_eq!(parcels(Language::Ar, 2), "طردان");
        assert_eq!(parcels(Language::Ar, 3), "3 طرود");
        assert_eq!(parcels(Language::Ar, 11), "11 طردًا");
        assert_eq!(parcels(Language::Ar, 100), "100 طرد");
        assert_eq!(parcels(Language::Ar, 103), "103 طرود");
    }

    #[test]
    fn dates_and_times_read_in_each_language_and_times_name_their_zone() {
        let at = chrono::DateTime::parse_from_rfc3339("2026-11-26T16:18:00Z")
            .unwrap()
            .to_utc();
        assert_eq!(date_time(Language::En, at), "Nov 26, 2026, 4:18 PM UTC");
        assert_eq!(date_time(Language::Es, at), "26 nov 2026, 16:18 UTC");
        assert_eq!(date_time(Language::Fr, at), "26 nov. 2026, 16:18 UTC");
        assert_eq!(date_time(Language::Ar, at), "26 نوفمبر 2026، 4:18 م UTC");
        assert_eq!(date_text(Language::En, "2026-12-03"), "Dec 3, 2026");
        assert_eq!(date_text(Language::Fr, "2026-12-03"), "3 déc. 2026");
        assert_eq!(date_text(Language::En, "soon"), "soon");
    }

    #[test]
    fn codes_parse_in_any_case_and_empty_is_english() {
        assert_eq!(Language::parse(""), Ok(Language::En));
        assert_eq!(Language::parse(" ES "), Ok(Language::Es));
        assert_eq!(Language::parse("ar"), Ok(Language::Ar));
        assert_eq!(Language::parse("de"), Err(UNKNOWN_LANGUAGE));
        assert_eq!(Language::parse("fr\n<script>"), Err(UNKNOWN_LANGUAGE));
    }

    #[test]
    fn messages_are_filled_and_english_keeps_the_spec_wording() {
        assert_eq!(
            message(Language::En, "email.shipper.subject"),
            "Shipment Created"
        );
        assert_eq!(
            message(Language::En, "email.receiver.subject"),
            "Package Incoming"
        );
        assert_eq!(
            format(
                Language::Fr,
                "email.update.subject",
                &[("tracking", "PSE123456789"), ("status", "Livré")]
            ),
            "Envoi PSE123456789 : Livré"
        );
        assert_eq!(
            interpolate("{a} {b} {", |n| (n == "a").then(|| "x".into())),
            "x {b} {"
        );
    }
}
