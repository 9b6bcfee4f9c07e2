//! The e-mails the product writes itself (SMTP, and the local outbox's preview): a text part
//! and an HTML part per template, from `templates/`, branded from the white-label file.

use std::collections::BTreeMap;

use anyhow::Context as _;
use minijinja::value::Kwargs;
use minijinja::{AutoEscape, Environment, Output, State, UndefinedBehavior, Value};
use outbox::Template;
use outbox::emails::{
    ContactMessage, StatusUpdate, UpdateRecipient, account_request_declined, customer_invitation,
    invitation_url, pickup_confirmed, subscription_confirmation,
};
use outbox::language::{Language, interpolate};

use crate::brand::Brand;

/// The templates, compiled into the binary so a running product never lacks one.
const SOURCES: &[(&str, &str)] = &[
    ("layout.html", include_str!("../templates/layout.html")),
    ("macros.html", include_str!("../templates/macros.html")),
    ("shipper.html", include_str!("../templates/shipper.html")),
    ("shipper.txt", include_str!("../templates/shipper.txt")),
    ("receiver.html", include_str!("../templates/receiver.html")),
    ("receiver.txt", include_str!("../templates/receiver.txt")),
    (
        "status_update.html",
        include_str!("../templates/status_update.html"),
    ),
    (
        "status_update.txt",
        include_str!("../templates/status_update.txt"),
    ),
    (
        "subscription_confirmation.html",
        include_str!("../templates/subscription_confirmation.html"),
    ),
    (
        "subscription_confirmation.txt",
        include_str!("../templates/subscription_confirmation.txt"),
    ),
    (
        "customer_invitation.html",
        include_str!("../templates/customer_invitation.html"),
    ),
    (
        "customer_invitation.txt",
        include_str!("../templates/customer_invitation.txt"),
    ),
    (
        "pickup_confirmed.html",
        include_str!("../templates/pickup_confirmed.html"),
    ),
    (
        "pickup_confirmed.txt",
        include_str!("../templates/pickup_confirmed.txt"),
    ),
    (
        "account_request_declined.html",
        include_str!("../templates/account_request_declined.html"),
    ),
    (
        "account_request_declined.txt",
        include_str!("../templates/account_request_declined.txt"),
    ),
    ("contact.html", include_str!("../templates/contact.html")),
    ("contact.txt", include_str!("../templates/contact.txt")),
    ("alert.html", include_str!("../templates/alert.html")),
    ("alert.txt", include_str!("../templates/alert.txt")),
    (
        "exception_digest.html",
        include_str!("../templates/exception_digest.html"),
    ),
    (
        "exception_digest.txt",
        include_str!("../templates/exception_digest.txt"),
    ),
];

/// One e-mail, ready to send.
#[derive(Clone, Debug, PartialEq)]
pub struct Rendered {
    /// One line: line breaks and other control characters become spaces.
    pub subject: String,
    pub text: String,
    pub html: String,
}

pub struct Renderer {
    env: Environment<'static>,
    brand: Brand,
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer")
            .field("brand", &self.brand)
            .finish()
    }
}

fn stem(template: Template) -> &'static str {
    match template {
        Template::Shipper => "shipper",
        Template::Receiver => "receiver",
        Template::Contact => "contact",
        Template::StatusUpdate => "status_update",
        Template::SubscriptionConfirmation => "subscription_confirmation",
        Template::Alert => "alert",
        Template::CustomerInvitation => "customer_invitation",
        Template::PickupConfirmed => "pickup_confirmed",
        Template::AccountRequestDeclined => "account_request_declined",
        Template::ExceptionDigest => "exception_digest",
    }
}

/// `text` with what HTML needs escaped (`& < > " '`) escaped, and `/` left as it is.
fn escape_html(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            c => escaped.push(c),
        }
    }
    escaped
}

/// Escapes what HTML needs escaped and leaves `/` as it is, so links read as links in the
/// source too; everything else as minijinja does.
fn html_formatter(out: &mut Output, state: &State, value: &Value) -> Result<(), minijinja::Error> {
    if let (AutoEscape::Html, false, Some(text)) =
        (state.auto_escape(), value.is_safe(), value.as_str())
    {
        return out
            .write_str(&escape_html(text))
            .map_err(minijinja::Error::from);
    }
    minijinja::escape_formatter(out, state, value)
}

/// The language an e-mail is written in: its `language` parameter, English without one.
fn language_of(params: &BTreeMap<String, String>) -> Language {
    params
        .get("language")
        .and_then(|code| Language::parse(code).ok())
        .unwrap_or_default()
}

/// The message id of each template's subject, for the company's own wording of it.
fn subject_key(template: Template) -> Option<&'static str> {
    match template {
        Template::Shipper => Some("email.shipper.subject"),
        Template::Receiver => Some("email.receiver.subject"),
        Template::StatusUpdate => Some("email.update.subject"),
        Template::SubscriptionConfirmation => Some("email.confirm.subject"),
        Template::CustomerInvitation => Some("email.invitation.subject"),
        Template::PickupConfirmed => Some("email.pickup.subject"),
        Template::AccountRequestDeclined => Some("email.declined.subject"),
        Template::Contact | Template::Alert | Template::ExceptionDigest => None,
    }
}

/// A filter's value as HTML: markup a filter made (`|ltr`) kept, anything else escaped; an
/// undefined value is an error, not a blank.
fn html_of(filter: &str, value: &Value) -> Result<String, minijinja::Error> {
    if value.is_undefined() {
        return Err(minijinja::Error::new(
            minijinja::ErrorKind::UndefinedError,
            format!("{filter}: undefined value"),
        ));
    }
    Ok(if value.is_safe() {
        value.to_string()
    } else {
        escape_html(&value.to_string())
    })
}

/// `value|strong`: the value in bold.
fn strong(value: Value) -> Result<Value, minijinja::Error> {
    Ok(Value::from_safe_string(format!(
        "<strong>{}</strong>",
        html_of("strong", &value)?
    )))
}

/// `value|ltr`: a value that reads left to right in any e-mail (a tracking number, an e-mail
/// address), isolated so that an Arabic sentence neither reorders it nor moves its punctuation.
fn ltr(value: Value) -> Result<Value, minijinja::Error> {
    Ok(Value::from_safe_string(format!(
        r#"<span dir="ltr" style="unicode-bidi:isolate">{}</span>"#,
        html_of("ltr", &value)?
    )))
}

/// `value|isolate`: a value typed by people (a name, a place), in its own direction whatever
/// the e-mail's: Latin reads left to right in an Arabic e-mail, Arabic right to left in another.
fn isolate(value: Value) -> Result<Value, minijinja::Error> {
    Ok(Value::from_safe_string(format!(
        r#"<span dir="auto" style="unicode-bidi:isolate">{}</span>"#,
        html_of("isolate", &value)?
    )))
}

/// `url|link`: a link written out, as a link that reads left to right in any e-mail.
fn link(value: Value) -> Result<Value, minijinja::Error> {
    let url = html_of("link", &value)?;
    Ok(Value::from_safe_string(format!(
        r#"<a href="{url}" dir="ltr" style="unicode-bidi:isolate;color:inherit">{url}</a>"#
    )))
}

/// The language of the e-mail being rendered.
fn language_in(state: &State) -> Language {
    state
        .lookup("language")
        .and_then(|code| code.as_str().and_then(|c| Language::parse(c).ok()))
        .unwrap_or_default()
}

/// `t("id", name=value, …)` in a template: the message in the e-mail's language (the brand's
/// wording first), its `{name}`s filled; in HTML the message is escaped and a value passed
/// through `|safe` (markup the template made) is kept as it is.
fn translate(
    brand: &Brand,
    state: &State,
    key: &str,
    values: Kwargs,
) -> Result<Value, minijinja::Error> {
    let language = language_in(state);
    let text = brand
        .message(language, key)
        .unwrap_or_else(|| outbox::language::message(language, key));
    if text == key {
        return Err(minijinja::Error::new(
            minijinja::ErrorKind::UndefinedError,
            format!("no e-mail message {key}"),
        ));
    }
    let html = matches!(state.auto_escape(), AutoEscape::Html);
    let mut missing = None;
    let filled = interpolate(
        &if html {
            escape_html(text)
        } else {
            text.to_owned()
        },
        |name| match values.get::<Value>(name) {
            Ok(value) if value.is_undefined() => {
                missing = Some(name.to_owned());
                None
            }
            Ok(value) if html && !value.is_safe() => Some(escape_html(&value.to_string())),
            Ok(value) => Some(value.to_string()),
            Err(_) => {
                missing = Some(name.to_owned());
                None
            }
        },
    );
    if let Some(name) = missing {
        return Err(minijinja::Error::new(
            minijinja::ErrorKind::UndefinedError,
            format!("message {key} needs {name}"),
        ));
    }
    values.assert_all_used()?;
    Ok(if html {
        Value::from_safe_string(filled)
    } else {
        Value::from(filled)
    })
}

/// `value` as one header line: control characters (CR, LF, tabs, NUL) become spaces.
pub fn one_line(value: &str) -> String {
    let spaced: String = value
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    spaced.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Renderer {
    /// Compiles every template and renders each with a sample of its e-mail, so a template
    /// that names a variable its e-mail lacks stops the start instead of sending blanks.
    pub fn new(brand: Brand) -> anyhow::Result<Self> {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        env.set_formatter(html_formatter);
        let messages = brand.clone();
        env.add_function("t", move |state: &State, key: &str, values: Kwargs| {
            translate(&messages, state, key, values)
        });
        env.add_filter("strong", strong);
        env.add_filter("ltr", ltr);
        env.add_filter("isolate", isolate);
        env.add_filter("link", link);
        // A status value (`in_transit`) as the e-mail's language names it; a label stays.
        env.add_filter("status_label", |state: &State, value: String| {
            outbox::emails::status_label(language_in(state), &value)
        });
        // A YYYY-MM-DD date as the e-mail's language writes it.
        env.add_filter("date", |state: &State, value: String| {
            outbox::language::date_text(language_in(state), &value)
        });
        for (name, source) in SOURCES {
            env.add_template(name, source)
                .with_context(|| format!("e-mail template {name}"))?;
        }
        let renderer = Self { env, brand };
        for (template, params) in samples() {
            renderer
                .render(template, &params)
                .with_context(|| format!("e-mail template {}", stem(template)))?;
        }
        Ok(renderer)
    }

    pub fn brand(&self) -> &Brand {
        &self.brand
    }

    /// The subject of `template`'s e-mail with these parameters: the one written with it, or
    /// the company's own wording of it in the e-mail's language.
    pub fn subject(&self, template: Template, params: &BTreeMap<String, String>) -> String {
        let given = params
            .get("subject")
            .map(String::as_str)
            .unwrap_or_default();
        let branded = subject_key(template)
            .and_then(|key| self.brand.message(language_of(params), key))
            .map(|text| {
                interpolate(text, |name| match name {
                    "tracking" => params
                        .get("tracking_number")
                        .or_else(|| params.get("tracking"))
                        .cloned(),
                    "customer" => params.get("customer_name").cloned(),
                    "date" => params.get("pickup_date").cloned(),
                    other => params.get(other).cloned(),
                })
            });
        one_line(&match (template, branded) {
            (_, Some(text)) => text,
            (Template::Contact, None) => format!("Contact form: {given}"),
            (_, None) => given.to_owned(),
        })
    }

    /// Both parts of one e-mail; an error names the template and the missing variable.
    pub fn render(
        &self,
        template: Template,
        params: &BTreeMap<String, String>,
    ) -> Result<Rendered, minijinja::Error> {
        let subject = self.subject(template, params);
        let language = language_of(params);
        let mut context: BTreeMap<&str, Value> = params
            .iter()
            .map(|(name, value)| (name.as_str(), Value::from(value.as_str())))
            .collect();
        context.insert("language", Value::from(language.code()));
        context.insert("dir", Value::from(language.direction()));
        context.insert("brand", Value::from_serialize(&self.brand));
        context.insert("email_subject", Value::from(subject.as_str()));
        let part = |extension: &str| {
            self.env
                .get_template(&format!("{}.{extension}", stem(template)))?
                .render(&context)
        };
        Ok(Rendered {
            text: part("txt")?,
            html: part("html")?,
            subject,
        })
    }
}

/// Every e-mail the product writes, in each language it writes it in, with long names and
/// places and links as the product makes them, named `<template>-<language>[-<variant>]`: what
/// `gateway email-previews` writes out for people and the browser test to look at.
pub fn previews(renderer: &Renderer, public_url: &str) -> anyhow::Result<Vec<(String, Rendered)>> {
    let now = service_common::now();
    let mut all = Vec::new();
    let mut add = |name: String, n: outbox::Notification| -> anyhow::Result<()> {
        let rendered = renderer
            .render(n.template, &n.params)
            .with_context(|| format!("e-mail preview {name}"))?;
        all.push((name, rendered));
        Ok(())
    };
    for language in Language::ALL {
        let code = language.code();
        let number = "PSE313681562";
        let page = outbox::emails::tracking_url(public_url, language, number);
        // As the shipments service writes them: the party's short full-view token.
        let access = format!("{page}?access=r1o3dqt8.Xq0vJc2mT9aLk4RbYw7ZsA");
        let mut shipment =
            crate::sample::shipment("maria.garcia-lopez@example.com", now.date_naive());
        shipment.tracking_number = number.into();
        shipment.language = language;
        shipment.shipper_name = "Maria Garcia Lopez de la Fuente".into();
        shipment.receiver_name = "Jan-Willem van der Berghe-Oosterhout".into();
        shipment.receiver_email =
            "jan-willem.vanderberghe-oosterhout@logistics-department.example.nl".into();
        shipment.origin = "Aeropuerto Internacional de la Ciudad de México, Mexico".into();
        shipment.destination = "Rotterdam-Maasvlakte Distribution Park, Netherlands".into();
        shipment.packages.push(outbox::emails::package_line(
            12,
            "Pallet",
            "Replacement parts for industrial refrigeration compressors",
            [120.0, 100.0, 150.0],
            480.0,
        ));
        let mut to_shipper = shipment.to_shipper(public_url, now);
        to_shipper
            .params
            .insert("url".into(), access.replace("?access=r", "?access=s"));
        add(format!("shipper-{code}"), to_shipper)?;
        let mut to_receiver = shipment.to_receiver(public_url, now);
        to_receiver
            .params
            .insert("tracking_url".into(), access.clone());
        add(format!("receiver-{code}"), to_receiver)?;
        let update = StatusUpdate {
            tracking_number: number.into(),
            status: "in_transit".into(),
            location: "Rotterdam-Maasvlakte Distribution Park, Netherlands".into(),
            remarks: "Arrived at the regional sorting centre; handed to the local courier".into(),
            at: now,
            expected_delivery: shipment.expected_delivery_date.clone(),
            progress: 3,
        };
        let party = UpdateRecipient {
            email: shipment.receiver_email.clone(),
            name: shipment.receiver_name.clone(),
            tracking_url: access.clone(),
            unsubscribe_url: None,
            language,
        };
        add(format!("status_update-{code}"), update.to(&party, now))?;
        let subscriber = UpdateRecipient {
            name: String::new(),
            tracking_url: page.clone(),
            unsubscribe_url: Some(format!("{page}?unsubscribe=eyJhbGciOiJIUzI1NiJ9.sample")),
            ..party.clone()
        };
        add(
            format!("status_update-{code}-subscriber"),
            update.to(&subscriber, now),
        )?;
        add(
            format!("subscription_confirmation-{code}"),
            subscription_confirmation(
                number,
                "fan@example.com",
                &format!("{page}?confirm=c4x9.k2Jf8sLq0PzW3mNv5RtY1a"),
                language,
                now,
            ),
        )?;
        add(
            format!("customer_invitation-{code}"),
            customer_invitation(
                "maria.garcia-lopez@example.com",
                "Maria Garcia Lopez de la Fuente",
                "Distribuidora Internacional de Refacciones Industriales del Norte, S.A. de C.V.",
                &invitation_url(public_url, language, "Xq0vJc2mT9aLk4RbYw7ZsA8pN3"),
                now + chrono::Duration::days(3),
                language,
                now,
            ),
        )?;
        add(
            format!("pickup_confirmed-{code}"),
            pickup_confirmed(
                "maria.garcia-lopez@example.com",
                "Distribuidora Internacional de Refacciones Industriales del Norte, S.A. de C.V.",
                "Avenida Industrial Poniente 4521, Bodega 17, Parque Logístico Norte, 66600 Apodaca, Nuevo León, Mexico",
                now.date_naive() + chrono::Duration::days(2),
                (
                    chrono::NaiveTime::from_hms_opt(9, 0, 0).unwrap(),
                    chrono::NaiveTime::from_hms_opt(12, 30, 0).unwrap(),
                ),
                14,
                language,
                now,
            ),
        )?;
        add(
            format!("account_request_declined-{code}"),
            account_request_declined(
                "maria.garcia-lopez@example.com",
                "Maria Garcia Lopez de la Fuente",
                "Distribuidora Internacional de Refacciones Industriales del Norte, S.A. de C.V.",
                "We do not collect from or deliver to this region yet; we expect to from next spring.\nPlease ask again then.",
                language,
                now,
            ),
        )?;
    }
    // A link sent before the short ones (a ~300-character token) still wraps.
    let legacy = format!(
        "{}?access=eyJhbGciOiJIUzI1NiIsImtpZCI6IjNmYTk2YjE0In0.{}.{}",
        outbox::emails::tracking_url(public_url, Language::En, "PSE313681562"),
        "eyJzdWIiOiJQU0UzMTM2ODE1NjIiLCJwYXJ0eSI6InJlY2VpdmVyIiwidW50aWwiOjE3OTk5OTk5OTksImNvbnRhY3RzIjoiYjNhZjE5ZTAyYzRkNWY2YTc4OWIwYzFkMmUzZjRhNWIiLCJpc3MiOiJsb2dpc3RpY3MtbGlua3MiLCJhdWQiOiJ0cmFja2luZy1hY2Nlc3MiLCJleHAiOjE3OTk5OTk5OTl9",
        "Q2hE9xYk1mV0bF3nR7sT5uW8zA4cJ6pL2gK0dN1hM3q"
    );
    let mut old =
        crate::sample::shipment("ada@example.com", now.date_naive()).to_receiver(public_url, now);
    old.params.insert("tracking_url".into(), legacy);
    add("receiver-en-legacy-link".into(), old)?;
    add(
        "contact-en".into(),
        ContactMessage {
            name: "Vee Long-Surname-Without-Spaces".into(),
            email: "vee.long-surname-without-spaces@example-company-with-a-long-domain.com".into(),
            subject: "Rates for two pallets from Lagos to Rotterdam".into(),
            message: "How much for two pallets?\nhttps://example.com/a/very/long/path/that/does/not/break/anywhere/by/itself/at/all/0123456789".into(),
        }
        .notification(now),
    )?;
    add(
        "alert-en".into(),
        outbox::emails::endpoint_disabled(
            "ops@example.com",
            "https://erp.example.com/hooks/shipments/a-very-long-endpoint-path-that-keeps-going-0123456789",
            "ERP",
            "2026-11-24 09:30 UTC",
            &format!(
                "{}/administration_and_development/webhooks",
                public_url.trim_end_matches('/')
            ),
            now,
        ),
    )?;
    Ok(all)
}

/// One e-mail of each kind, as the product writes them (with and without optional links).
fn samples() -> Vec<(Template, BTreeMap<String, String>)> {
    let now = service_common::now();
    let shipment = crate::sample::shipment("ada@example.com", now.date_naive());
    let update = StatusUpdate {
        tracking_number: "PSE000000000".into(),
        status: "in_transit".into(),
        location: "Rotterdam, Netherlands".into(),
        remarks: "Left the port".into(),
        at: chrono::DateTime::parse_from_rfc3339("2026-11-25T09:30:00Z")
            .unwrap()
            .to_utc(),
        expected_delivery: "2026-12-03".into(),
        progress: 2,
    };
    let party = UpdateRecipient {
        email: "ada@example.com".into(),
        name: "Ada".into(),
        tracking_url: "https://ship.example/track/PSE000000000".into(),
        unsubscribe_url: None,
        language: Language::En,
    };
    let subscriber = UpdateRecipient {
        unsubscribe_url: Some("https://ship.example/unsubscribe?token=t".into()),
        name: String::new(),
        ..party.clone()
    };
    let contact = ContactMessage {
        name: "Vee".into(),
        email: "vee@example.com".into(),
        subject: "Rates".into(),
        message: "How much?".into(),
    };
    [
        shipment.to_shipper("https://ship.example", now),
        shipment.to_receiver("https://ship.example", now),
        update.to(&party, now),
        update.to(&subscriber, now),
        subscription_confirmation(
            "PSE000000000",
            "ada@example.com",
            "https://ship.example/confirm?token=t",
            Language::En,
            now,
        ),
        contact.notification(now),
        outbox::emails::endpoint_disabled(
            "ops@example.com",
            "https://erp.example.com/hooks",
            "ERP",
            "2026-11-24 09:30 UTC",
            "https://ship.example/administration_and_development/webhooks",
            now,
        ),
        customer_invitation(
            "ana@acme.example",
            "Ana",
            "Acme Imports",
            "https://ship.example/invitation#t",
            now,
            Language::En,
            now,
        ),
        pickup_confirmed(
            "ana@acme.example",
            "Acme Imports",
            "12 Harbour Road, Rotterdam",
            now.date_naive(),
            (
                chrono::NaiveTime::from_hms_opt(9, 0, 0).unwrap(),
                chrono::NaiveTime::from_hms_opt(12, 0, 0).unwrap(),
            ),
            1,
            Language::En,
            now,
        ),
        account_request_declined(
            "li@blue.example",
            "Li Wei",
            "Blue Harbour Trading",
            "Outside our area",
            Language::En,
            now,
        ),
        outbox::emails::exception_digest(
            "ops@example.com",
            &[
                ("email.digest.kind.late", 3),
                ("email.digest.kind.on_hold", 1),
            ],
            &[
                (
                    "PSE000000000".into(),
                    "email.digest.kind.late",
                    now.date_naive(),
                ),
                (
                    "PSE000000001".into(),
                    "email.digest.kind.on_hold",
                    now.date_naive(),
                ),
            ],
            2,
            "https://ship.example/administration_and_development/exceptions",
            Language::En,
            now,
        ),
    ]
    .into_iter()
    .map(|n| (n.template, n.params))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_renders_both_parts_with_the_brand() {
        let renderer = Renderer::new(Brand::spec_default()).unwrap();
        for (template, params) in samples() {
            let rendered = renderer.render(template, &params).unwrap();
            assert!(
                rendered.html.contains("Parcel Shipping Express"),
                "{template:?}"
            );
            assert!(
                rendered.text.contains("Parcel Shipping Express") || template == Template::Contact
            );
            assert!(!rendered.subject.is_empty());
        }
    }

    #[test]
    fn the_exceptions_digest_lists_each_line_on_its_own_in_each_language() {
        let renderer = Renderer::new(Brand::spec_default()).unwrap();
        let now = chrono::Utc::now();
        for language in Language::ALL {
            let digest = outbox::emails::exception_digest(
                "ops@example.com",
                &[
                    ("email.digest.kind.late", 2),
                    ("email.digest.kind.stalled", 0),
                ],
                &[(
                    "PSE000000000".into(),
                    "email.digest.kind.late",
                    now.date_naive(),
                )],
                1,
                "https://ship.example/queue",
                language,
                now,
            );
            let rendered = renderer.render(digest.template, &digest.params).unwrap();
            // One line per kind with exceptions open, one per listed exception.
            assert_eq!(rendered.html.matches("<li>").count(), 2, "{language:?}");
            assert!(
                rendered
                    .html
                    .contains(r#"<li><span dir="auto" style="unicode-bidi:isolate">PSE000000000"#),
                "{language:?}: {}",
                rendered.html
            );
            assert!(
                rendered
                    .html
                    .contains(r#"href="https://ship.example/queue""#)
            );
            assert!(rendered.text.contains("PSE000000000"));
            assert!(!rendered.subject.is_empty());
        }
    }

    #[test]
    fn a_missing_variable_is_an_error_naming_it_never_a_blank() {
        let renderer = Renderer::new(Brand::spec_default()).unwrap();
        let (template, mut params) = samples().remove(0);
        params.remove("tracking");
        let error = renderer.render(template, &params).unwrap_err().to_string();
        assert!(error.contains("undefined"), "{error}");
    }

    #[test]
    fn variables_are_escaped_in_html_and_subjects_stay_one_line() {
        let renderer = Renderer::new(Brand::spec_default()).unwrap();
        let (template, mut params) = samples().remove(5);
        params.insert("message".into(), "<script>alert(1)</script> & more".into());
        params.insert("subject".into(), "Hi\r\nBcc: victim@example.com".into());
        let rendered = renderer.render(template, &params).unwrap();
        assert!(
            rendered
                .html
                .contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more")
        );
        assert!(!rendered.html.contains("<script>"));
        assert!(
            rendered.text.contains("<script>alert(1)</script> & more"),
            "text is text"
        );
        assert_eq!(rendered.subject, "Contact form: Hi Bcc: victim@example.com");
    }

    #[test]
    fn emails_carry_a_preheader_labels_zoned_times_progress_and_a_dark_safe_palette() {
        let renderer = Renderer::new(Brand::spec_default()).unwrap();
        let all = samples();
        let shipper = renderer.render(all[0].0, &all[0].1).unwrap();
        assert!(
            shipper.html.contains(">Pending</span></td>"),
            "a label, not `pending`"
        );
        assert!(shipper.text.contains("Status: Pending"));
        let update = StatusUpdate {
            tracking_number: "PSE000000000".into(),
            status: "in_transit".into(),
            location: "Rotterdam, Netherlands".into(),
            remarks: String::new(),
            at: chrono::DateTime::parse_from_rfc3339("2026-11-25T09:30:00Z")
                .unwrap()
                .to_utc(),
            expected_delivery: "2026-12-03".into(),
            progress: 2,
        };
        let to = UpdateRecipient {
            email: "ana@example.com".into(),
            name: "Ana".into(),
            tracking_url: "https://ship.example/es/track/PSE000000000".into(),
            unsubscribe_url: None,
            language: Language::Es,
        };
        let update = update.to(&to, service_common::now());
        let es = renderer
            .render(Template::StatusUpdate, &update.params)
            .unwrap();
        for shown in [
            "Progreso",
            "Recogido",
            "En reparto",
            "En tránsito",
            "25 nov 2026, 09:30 UTC",
            "3 dic 2026",
        ] {
            assert!(es.html.contains(shown), "{shown}");
        }
        assert!(!es.html.contains("in_transit"));
        assert!(
            es.text.contains("Progreso: En tránsito (paso 3 de 5)"),
            "{}",
            es.text
        );
        assert!(
            es.text.contains("Entrega prevista: 3 dic 2026"),
            "{}",
            es.text
        );
        for (template, params) in &all {
            let html = renderer.render(*template, params).unwrap().html;
            let preheader = html
                .split_once("display:none")
                .and_then(|(_, rest)| rest.split_once('>'))
                .map(|(_, rest)| rest.split('&').next().unwrap_or_default())
                .unwrap_or_default();
            assert!(preheader.trim().len() > 5, "{template:?}: {preheader:?}");
            assert!(html.contains(r#"<meta name="color-scheme" content="light dark">"#));
            assert!(html.contains("prefers-color-scheme: dark"));
        }
    }

    #[test]
    fn an_invitation_names_the_company_and_the_customer_and_carries_its_link_in_each_language() {
        let renderer = Renderer::new(Brand::spec_default()).unwrap();
        let until = chrono::DateTime::parse_from_rfc3339("2026-11-30T16:18:00Z")
            .unwrap()
            .to_utc();
        let company =
            r#"<span dir="auto" style="unicode-bidi:isolate">Parcel Shipping Express</span>"#;
        let customer =
            r#"<strong><span dir="auto" style="unicode-bidi:isolate">Acme Imports</span></strong>"#;
        for (language, subject, hello, intro, action, expiry, ignore) in [
            (
                Language::En,
                "You're invited to Acme Imports",
                "Hello Ana Ruiz,",
                "{company} has invited you to join {customer} on its customer portal.",
                "Set your password",
                "The link works once, until Nov 30, 2026, 4:18 PM UTC.",
                "If you did not expect this e-mail, you can ignore it.",
            ),
            (
                Language::Es,
                "Invitación para unirse a Acme Imports",
                "Hola, Ana Ruiz:",
                "{company} le invita a unirse a {customer} en su portal de clientes.",
                "Establecer su contraseña",
                "El enlace funciona una sola vez, hasta el 30 nov 2026, 16:18 UTC.",
                "Si no esperaba este correo, puede ignorarlo.",
            ),
            (
                Language::Fr,
                "Invitation à rejoindre Acme Imports",
                "Bonjour Ana Ruiz,",
                "{company} vous invite à rejoindre {customer} sur son portail clients.",
                "Définir votre mot de passe",
                "Le lien ne fonctionne qu’une fois, jusqu’au 30 nov. 2026, 16:18 UTC.",
                "Si vous n’attendiez pas cet e-mail, vous pouvez l’ignorer.",
            ),
            (
                Language::Ar,
                "دعوة للانضمام إلى Acme Imports",
                "مرحبًا Ana Ruiz،",
                "دعتك {company} للانضمام إلى {customer} على بوابة العملاء الخاصة بها.",
                "عيّن كلمة المرور",
                "يعمل الرابط مرة واحدة فقط، حتى 30 نوفمبر 2026، 4:18 م UTC.",
                "إن لم تكن تتوقع هذه الرسالة، يمكنك تجاهلها.",
            ),
        ] {
            let url = invitation_url("https://ship.example", language, "k2Jf8sLq0PzW3mNv");
            let n = customer_invitation(
                "ana@acme.example",
                "Ana Ruiz",
                "Acme Imports",
                &url,
                until,
                language,
                service_common::now(),
            );
            let rendered = renderer.render(n.template, &n.params).unwrap();
            assert_eq!(rendered.subject, subject);
            let fill = |text: &str, company: &str, customer: &str| {
                text.replace("{company}", company)
                    .replace("{customer}", customer)
            };
            let text = &rendered.text;
            assert_eq!(text.lines().next(), Some(hello), "{text}");
            for shown in [
                fill(intro, "Parcel Shipping Express", "Acme Imports"),
                format!("{action}: {url}"),
                expiry.to_owned(),
                ignore.to_owned(),
            ] {
                assert!(text.contains(&shown), "{language}: {shown} in {text}");
            }
            let html = &rendered.html;
            for shown in [
                format!(r#"<html lang="{language}" dir="{}">"#, language.direction()),
                fill(intro, company, customer),
                format!(r#"<a href="{url}" style="display:inline-block"#),
                format!(">{}</a>", escape_html(action)),
                format!(
                    r#"<a href="{url}" dir="ltr" style="unicode-bidi:isolate;color:inherit">{url}</a>"#
                ),
                escape_html(ignore),
            ] {
                assert!(html.contains(&shown), "{language}: {shown} in {html}");
            }
            // Until when, isolated so that an Arabic sentence keeps the date's order.
            let time = format!(
                r#"<span dir="auto" style="unicode-bidi:isolate">{}</span>."#,
                n.params["expire_time"]
            );
            assert!(html.contains(&time), "{language}: {time} in {html}");
        }
        // The company's own wording of the subject names the customer too.
        let mut brand = Brand::spec_default();
        brand.messages.insert(
            Language::En,
            [(
                "email.invitation.subject".to_owned(),
                "Join {customer} on Northwind".to_owned(),
            )]
            .into(),
        );
        let n = customer_invitation(
            "ana@acme.example",
            "Ana",
            "Acme Imports",
            "https://ship.example/invitation#t",
            until,
            Language::En,
            service_common::now(),
        );
        let branded = Renderer::new(brand).unwrap().render(n.template, &n.params);
        assert_eq!(branded.unwrap().subject, "Join Acme Imports on Northwind");
    }

    #[test]
    fn a_confirmed_pickup_says_when_where_and_how_many_parcels_in_each_language() {
        let renderer = Renderer::new(Brand::spec_default()).unwrap();
        let isolated = |value: &str| {
            format!(r#"<span dir="auto" style="unicode-bidi:isolate">{value}</span>"#)
        };
        let company = isolated("Parcel Shipping Express");
        let customer = format!("<strong>{}</strong>", isolated("Acme Imports"));
        let address = "Avenida Industrial 4521, 66600 Apodaca";
        for (language, subject, hello, intro, date, window, parcels, ready) in [
            (
                Language::En,
                "Your pickup on Dec 3, 2026 is confirmed",
                "Hello,",
                "{company} confirmed the pickup for {customer}:",
                "Dec 3, 2026",
                "09:00–12:30",
                "3 parcels",
                "Please have the parcels ready and labelled.",
            ),
            (
                Language::Es,
                "Su recogida del 3 dic 2026 está confirmada",
                "Hola:",
                "{company} ha confirmado la recogida para {customer}:",
                "3 dic 2026",
                "09:00–12:30",
                "3 bultos",
                "Tenga los bultos preparados y etiquetados.",
            ),
            (
                Language::Fr,
                "Votre enlèvement du 3 déc. 2026 est confirmé",
                "Bonjour,",
                "{company} a confirmé l’enlèvement pour {customer} :",
                "3 déc. 2026",
                "09:00–12:30",
                "3 colis",
                "Merci de tenir les colis prêts et étiquetés.",
            ),
            (
                Language::Ar,
                "تم تأكيد موعد الاستلام يوم 3 ديسمبر 2026",
                "مرحبًا،",
                "أكّدت {company} موعد استلام الطرود من {customer}:",
                "3 ديسمبر 2026",
                "من 09:00 إلى 12:30",
                "3 طرود",
                "يُرجى تجهيز الطرود ووضع الملصقات عليها.",
            ),
        ] {
            let n = pickup_confirmed(
                "ana@acme.example",
                "Acme Imports",
                address,
                chrono::NaiveDate::from_ymd_opt(2026, 12, 3).unwrap(),
                (
                    chrono::NaiveTime::from_hms_opt(9, 0, 0).unwrap(),
                    chrono::NaiveTime::from_hms_opt(12, 30, 0).unwrap(),
                ),
                3,
                language,
                service_common::now(),
            );
            let rendered = renderer.render(n.template, &n.params).unwrap();
            assert_eq!(rendered.subject, subject);
            let fill = |company: &str, customer: &str| {
                intro
                    .replace("{company}", company)
                    .replace("{customer}", customer)
            };
            let text = &rendered.text;
            assert_eq!(text.lines().next(), Some(hello), "{text}");
            for shown in [
                fill("Parcel Shipping Express", "Acme Imports"),
                date.to_owned(),
                window.to_owned(),
                address.to_owned(),
                parcels.to_owned(),
                ready.to_owned(),
            ] {
                assert!(text.contains(&shown), "{language}: {shown} in {text}");
            }
            let html = &rendered.html;
            for shown in [
                format!(r#"<html lang="{language}" dir="{}">"#, language.direction()),
                fill(&company, &customer),
                isolated(date),
                isolated(window),
                isolated(address),
                isolated(parcels),
                escape_html(ready),
            ] {
                assert!(html.contains(&shown), "{language}: {shown} in {html}");
            }
        }
        // One parcel is singular; the company's own subject names the date too.
        let mut brand = Brand::spec_default();
        brand.messages.insert(
            Language::En,
            [(
                "email.pickup.subject".to_owned(),
                "Northwind collects on {date}".to_owned(),
            )]
            .into(),
        );
        let n = pickup_confirmed(
            "ana@acme.example",
            "Acme Imports",
            address,
            chrono::NaiveDate::from_ymd_opt(2026, 12, 3).unwrap(),
            (
                chrono::NaiveTime::from_hms_opt(14, 0, 0).unwrap(),
                chrono::NaiveTime::from_hms_opt(17, 0, 0).unwrap(),
            ),
            1,
            Language::En,
            service_common::now(),
        );
        let branded = Renderer::new(brand).unwrap().render(n.template, &n.params);
        let branded = branded.unwrap();
        assert_eq!(branded.subject, "Northwind collects on Dec 3, 2026");
        assert!(branded.text.contains("1 parcel\n"), "{}", branded.text);
        assert!(branded.text.contains("14:00–17:00"), "{}", branded.text);
    }

    #[test]
    fn a_declined_request_names_the_company_the_request_and_the_reason_in_each_language() {
        let renderer = Renderer::new(Brand::spec_default()).unwrap();
        let isolated = |value: &str| {
            format!(r#"<span dir="auto" style="unicode-bidi:isolate">{value}</span>"#)
        };
        let company = isolated("Parcel Shipping Express");
        let company_name = format!("<strong>{}</strong>", isolated("Blue Harbour Trading"));
        let reason = "We do not serve Lagos yet.";
        for (language, subject, hello, intro, reason_line, contact) in [
            (
                Language::En,
                "Your account request for Blue Harbour Trading",
                "Hello Li Wei,",
                "Thank you for your interest in shipping with {company}. We are unable to open an account for {company_name} at this time.",
                "Reason: {reason}",
                "You can reply to this e-mail or write to us through the contact page.",
            ),
            (
                Language::Es,
                "Su solicitud de cuenta para Blue Harbour Trading",
                "Hola, Li Wei:",
                "Gracias por su interés en enviar con {company}. Por el momento no podemos abrir una cuenta para {company_name}.",
                "Motivo: {reason}",
                "Puede responder a este correo o escribirnos desde la página de contacto.",
            ),
            (
                Language::Fr,
                "Votre demande de compte pour Blue Harbour Trading",
                "Bonjour Li Wei,",
                "Merci de l’intérêt que vous portez aux envois avec {company}. Nous ne sommes pas en mesure d’ouvrir un compte pour {company_name} pour le moment.",
                "Motif : {reason}",
                "Vous pouvez répondre à cet e-mail ou nous écrire depuis la page de contact.",
            ),
            (
                Language::Ar,
                "طلبك لفتح حساب باسم Blue Harbour Trading",
                "مرحبًا Li Wei،",
                "شكرًا لاهتمامك بالشحن مع {company}. يتعذّر علينا فتح حساب باسم {company_name} في الوقت الحالي.",
                "السبب: {reason}",
                "يمكنك الرد على هذه الرسالة أو مراسلتنا عبر صفحة الاتصال.",
            ),
        ] {
            let n = account_request_declined(
                "li@blue.example",
                "Li Wei",
                "Blue Harbour Trading",
                reason,
                language,
                service_common::now(),
            );
            let rendered = renderer.render(n.template, &n.params).unwrap();
            assert_eq!(rendered.subject, subject);
            let fill = |company: &str, company_name: &str| {
                intro
                    .replace("{company}", company)
                    .replace("{company_name}", company_name)
            };
            let text = &rendered.text;
            assert_eq!(text.lines().next(), Some(hello), "{text}");
            for shown in [
                fill("Parcel Shipping Express", "Blue Harbour Trading"),
                reason_line.replace("{reason}", reason),
                contact.to_owned(),
            ] {
                assert!(text.contains(&shown), "{language}: {shown} in {text}");
            }
            let html = &rendered.html;
            for shown in [
                format!(r#"<html lang="{language}" dir="{}">"#, language.direction()),
                hello.replace("Li Wei", &isolated("Li Wei")),
                fill(&company, &company_name),
                reason_line.replace("{reason}", &isolated(reason)),
                escape_html(contact),
            ] {
                assert!(html.contains(&shown), "{language}: {shown} in {html}");
            }
        }
    }

    #[test]
    fn links_numbers_and_typed_values_keep_their_own_direction_in_an_arabic_email() {
        let renderer = Renderer::new(Brand::spec_default()).unwrap();
        let all = previews(&renderer, "https://ship.example").unwrap();
        let (_, arabic) = all.iter().find(|(name, _)| name == "receiver-ar").unwrap();
        let url =
            "https://ship.example/ar/track/PSE313681562?access=r1o3dqt8.Xq0vJc2mT9aLk4RbYw7ZsA";
        assert!(
            arabic.html.contains(&format!(
                r#"<a href="{url}" dir="ltr" style="unicode-bidi:isolate;color:inherit">{url}</a>"#
            )),
            "{}",
            arabic.html
        );
        assert!(arabic.html.contains(
            r#"<strong><span dir="ltr" style="unicode-bidi:isolate">PSE313681562</span></strong>"#
        ));
        assert!(arabic.html.contains(
            r#"<span dir="auto" style="unicode-bidi:isolate">Rotterdam-Maasvlakte Distribution Park, Netherlands</span>"#
        ));
        assert!(
            arabic
                .html
                .contains(r#"dir="ltr" style="unicode-bidi:isolate;color:"#)
        );
        // An invitation: the page of the link and the customer's name keep their direction too.
        let (_, invited) = all
            .iter()
            .find(|(name, _)| name == "customer_invitation-ar")
            .unwrap();
        assert!(invited.html.contains(r#"<html lang="ar" dir="rtl">"#));
        let url = "https://ship.example/ar/invitation#Xq0vJc2mT9aLk4RbYw7ZsA8pN3";
        assert!(
            invited.html.contains(&format!(
                r#"<a href="{url}" dir="ltr" style="unicode-bidi:isolate;color:inherit">{url}</a>"#
            )),
            "{}",
            invited.html
        );
        assert!(invited.html.contains(
            r#"<strong><span dir="auto" style="unicode-bidi:isolate">Distribuidora Internacional de Refacciones Industriales del Norte, S.A. de C.V.</span></strong>"#
        ));
        // A pickup's window says "from … to …", so no dash between two times flips around.
        let (_, pickup) = all
            .iter()
            .find(|(name, _)| name == "pickup_confirmed-ar")
            .unwrap();
        assert!(pickup.html.contains(r#"<html lang="ar" dir="rtl">"#));
        assert!(
            pickup.html.contains(
                r#"<span dir="auto" style="unicode-bidi:isolate">من 09:00 إلى 12:30</span>"#
            ),
            "{}",
            pickup.html
        );
        let (_, declined) = all
            .iter()
            .find(|(name, _)| name == "account_request_declined-ar")
            .unwrap();
        assert!(declined.html.contains(r#"<html lang="ar" dir="rtl">"#));
        assert!(declined.html.contains(
            r#"<span dir="auto" style="unicode-bidi:isolate">Maria Garcia Lopez de la Fuente</span>"#
        ));
        // Markup a filter made is kept; a value's own markup is escaped.
        let mut params = samples().remove(0).1;
        params.insert("tracking".into(), "<b>PSE1</b>".into());
        let html = renderer.render(Template::Shipper, &params).unwrap().html;
        assert!(html.contains(r#"<strong><span dir="ltr" style="unicode-bidi:isolate">&lt;b&gt;PSE1&lt;/b&gt;</span></strong>"#));
    }
}
