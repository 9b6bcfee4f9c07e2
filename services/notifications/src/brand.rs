//! Who the e-mails the product renders itself come from: the white-label file the web app is
//! built with (`brand.json`, see the README), read once at start.

use std::collections::BTreeMap;
use std::path::Path;

use outbox::language::{Language, placeholders};

use serde::{Deserialize, Serialize};

/// What the e-mail templates show of the company.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Brand {
    pub name: String,
    pub support_email: String,
    pub address: String,
    /// An absolute URL of the logo image, or None for the name alone.
    pub logo_url: Option<String>,
    /// `#rrggbb`: headings, links and the button.
    pub primary_color: String,
    /// The company's own wording of e-mail messages, by language and message id.
    #[serde(skip)]
    pub messages: BTreeMap<Language, BTreeMap<String, String>>,
}

/// The keys of `brand.json` that e-mails use; the web app reads the rest.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct BrandFile {
    name: Option<String>,
    support_email: Option<String>,
    address: Option<String>,
    logo: Option<Logo>,
    colors: Option<Colors>,
    /// Message overrides by language code; the web app's ids are not ours and are skipped.
    #[serde(default)]
    messages: BTreeMap<String, BTreeMap<String, String>>,
}

#[derive(Debug, Deserialize)]
struct Logo {
    src: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Colors {
    primary: Option<String>,
}

impl Brand {
    /// The spec's company, as the web app shows it without a `brand.json`.
    pub fn spec_default() -> Self {
        Self {
            name: service_common::settings::SPEC_COMPANY_NAME.into(),
            support_email: "support@parcelshippingexpress.com".into(),
            address: "350 Fifth Avenue, New York, NY 10118, USA".into(),
            logo_url: None,
            primary_color: "#1d4ed8".into(),
            messages: BTreeMap::new(),
        }
    }

    /// The company's wording of e-mail message `key` in `language`, if it has one.
    pub fn message(&self, language: Language, key: &str) -> Option<&str> {
        self.messages.get(&language)?.get(key).map(String::as_str)
    }

    /// The brand of `file` (the defaults without one); a relative logo path is served by the
    /// site at `public_url`.
    pub fn load(file: Option<&Path>, public_url: &str) -> anyhow::Result<Self> {
        let Some(file) = file else {
            return Ok(Self::spec_default());
        };
        let text = std::fs::read_to_string(file)
            .map_err(|e| anyhow::anyhow!("BRAND_FILE {}: {e}", file.display()))?;
        Self::parse(&text, public_url)
            .map_err(|e| anyhow::anyhow!("BRAND_FILE {}: {e}", file.display()))
    }

    fn parse(text: &str, public_url: &str) -> anyhow::Result<Self> {
        let file: BrandFile = serde_json::from_str(text)?;
        let default = Self::spec_default();
        let one_line = |what: &str, value: Option<String>, fallback: String| {
            let value = value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
            match value {
                Some(v) if v.chars().any(char::is_control) => {
                    anyhow::bail!("{what} must be one line of text")
                }
                Some(v) => Ok(v),
                None => Ok(fallback),
            }
        };
        let support_email = one_line("supportEmail", file.support_email, default.support_email)?;
        if !service_common::is_email(&support_email) {
            anyhow::bail!("supportEmail is not an e-mail address");
        }
        let primary_color = one_line(
            "colors.primary",
            file.colors.and_then(|c| c.primary),
            default.primary_color,
        )?;
        let hex = primary_color.strip_prefix('#').unwrap_or_default();
        if hex.len() != 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            anyhow::bail!("colors.primary must be a colour like #1d4ed8");
        }
        let logo_url = match file.logo.and_then(|l| l.src).map(|s| s.trim().to_owned()) {
            None => None,
            Some(src) if src.is_empty() => None,
            Some(src) if src.starts_with("https://") || src.starts_with("http://") => Some(src),
            Some(src) if src.starts_with('/') && !src.starts_with("//") => {
                Some(format!("{}{src}", public_url.trim_end_matches('/')))
            }
            Some(_) => anyhow::bail!(
                "logo.src must be a path on the site (/brand/logo.png) or an http(s) URL"
            ),
        };
        let messages = e_mail_messages(file.messages)?;
        Ok(Self {
            messages,
            name: one_line("name", file.name, default.name)?,
            support_email,
            address: one_line("address", file.address, default.address)?,
            logo_url,
            primary_color,
        })
    }
}

/// The overrides of e-mail messages (ids starting `email.` or `status.`), each checked against
/// the catalogue: a known id, one line, and the placeholders of the catalogue's English.
fn e_mail_messages(
    file: BTreeMap<String, BTreeMap<String, String>>,
) -> anyhow::Result<BTreeMap<Language, BTreeMap<String, String>>> {
    let known: std::collections::BTreeSet<&str> = outbox::language::keys().collect();
    let mut out = BTreeMap::new();
    for (code, messages) in file {
        let language = Language::parse(&code)
            .map_err(|problem| anyhow::anyhow!("messages.{code}: the language {problem}"))?;
        for (key, text) in messages {
            if !(key.starts_with("email.") || key.starts_with("status.")) {
                continue;
            }
            let at = format!("messages.{code}.{key}");
            if !known.contains(key.as_str()) {
                anyhow::bail!("{at}: no e-mail message has this id");
            }
            if text.trim().is_empty() || text.chars().any(char::is_control) {
                anyhow::bail!("{at} must be one line of text");
            }
            let english = outbox::language::message(Language::En, &key);
            if placeholders(&text) != placeholders(english) {
                anyhow::bail!("{at} must use the placeholders of \"{english}\"");
            }
            out.entry(language)
                .or_insert_with(BTreeMap::new)
                .insert(key, text);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_overrides_the_defaults_and_a_site_path_becomes_a_link() {
        let brand = Brand::parse(
            r##"{"name": "Northwind Freight", "supportEmail": "help@northwind.example",
                "logo": {"src": "/brand/logo.png"}, "colors": {"primary": "#0f766e"},
                "testimonials": []}"##,
            "https://ship.example/",
        )
        .unwrap();
        assert_eq!(brand.name, "Northwind Freight");
        assert_eq!(brand.support_email, "help@northwind.example");
        assert_eq!(brand.address, Brand::spec_default().address);
        assert_eq!(
            brand.logo_url.as_deref(),
            Some("https://ship.example/brand/logo.png")
        );
        assert_eq!(brand.primary_color, "#0f766e");
        assert_eq!(
            Brand::parse("{}", "https://ship.example").unwrap(),
            Brand::spec_default()
        );
    }

    #[test]
    fn the_file_rewords_e_mail_messages_and_a_bad_override_is_refused_by_name() {
        let brand = Brand::parse(
            r#"{"messages": {"fr": {"email.shipper.subject": "Votre envoi est enregistré",
                "home.hero.title": "La page d'accueil (le site, pas les e-mails)"}}}"#,
            "https://ship.example",
        )
        .unwrap();
        assert_eq!(
            brand.message(Language::Fr, "email.shipper.subject"),
            Some("Votre envoi est enregistré")
        );
        assert_eq!(brand.message(Language::Es, "email.shipper.subject"), None);
        for (file, problem) in [
            (
                r#"{"messages": {"de": {"email.hello": "Hallo"}}}"#,
                "messages.de",
            ),
            (
                r#"{"messages": {"es": {"email.nope": "x"}}}"#,
                "messages.es.email.nope",
            ),
            (
                r#"{"messages": {"es": {"email.update.intro": "Envío {tracking}"}}}"#,
                "messages.es.email.update.intro",
            ),
            (
                r#"{"messages": {"es": {"email.hello": "Hola\r\nBcc: x@example.com"}}}"#,
                "messages.es.email.hello",
            ),
        ] {
            let error = Brand::parse(file, "https://ship.example")
                .unwrap_err()
                .to_string();
            assert!(error.starts_with(problem), "{file}: {error}");
        }
    }

    #[test]
    fn values_that_would_break_an_email_are_refused_by_name() {
        for (file, problem) in [
            (
                r#"{"colors": {"primary": "red;background:url(x)"}}"#,
                "colors.primary",
            ),
            (r#"{"supportEmail": "nobody"}"#, "supportEmail"),
            (r#"{"name": "Evil\r\nBcc: x@example.com"}"#, "name"),
            (r#"{"logo": {"src": "javascript:alert(1)"}}"#, "logo.src"),
            (
                r#"{"logo": {"src": "//elsewhere.example/logo.png"}}"#,
                "logo.src",
            ),
        ] {
            let error = Brand::parse(file, "https://ship.example")
                .unwrap_err()
                .to_string();
            assert!(error.starts_with(problem), "{file}: {error}");
        }
    }
}
