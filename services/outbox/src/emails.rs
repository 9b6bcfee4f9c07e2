//! The e-mails the product sends, with exactly the template parameters the e-mail API's
//! templates expect (the shipper's, the receiver's, the contact form's and the updates').

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use crate::language::{Language, date, date_text, date_time, format, message, plural};
use crate::{Notification, Template};

/// What the shipper and receiver e-mails say about a new shipment.
#[derive(Clone, Debug)]
pub struct ShipmentEmail {
    pub tracking_number: String,
    /// The status value, e.g. `pending`.
    pub status: String,
    pub current_location: String,
    pub origin: String,
    pub destination: String,
    /// YYYY-MM-DD.
    pub expected_delivery_date: String,
    pub shipper_name: String,
    pub shipper_email: String,
    pub receiver_name: String,
    pub receiver_email: String,
    /// One line per package, e.g. `2 x Carton - Books (30 x 20 x 10 cm, 4 kg)`.
    pub packages: Vec<String>,
    /// The language both e-mails are written in.
    pub language: Language,
}

/// The public tracking page of a shipment in `language`: the site's public URL, the
/// language's prefix (none for English) and `/track/{number}`.
pub fn tracking_url(public_url: &str, language: Language, tracking_number: &str) -> String {
    format!(
        "{}{}/track/{tracking_number}",
        public_url.trim_end_matches('/'),
        language.path_prefix()
    )
}

/// A status as people read it in `language`: `in_transit` → "In Transit", "En tránsito", …;
/// a status the catalogue does not know is shown as given.
pub fn status_label(language: Language, status: &str) -> String {
    let key = format!("status.{status}");
    match message(language, &key) {
        text if text == key => status.to_owned(),
        text => text.to_owned(),
    }
}

/// An e-mail's parameters, with `language` when it is not English: an English e-mail carries
/// exactly the parameters the EmailJS templates were written for.
fn params<const N: usize>(
    language: Language,
    pairs: [(&str, &str); N],
) -> BTreeMap<String, String> {
    let mut p: BTreeMap<String, String> = pairs
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    if !language.is_english() {
        p.insert("language".into(), language.code().into());
    }
    p
}

impl ShipmentEmail {
    /// "Shipment Created", to the shipper.
    pub fn to_shipper(&self, public_url: &str, now: DateTime<Utc>) -> Notification {
        let url = tracking_url(public_url, self.language, &self.tracking_number);
        let status = if self.status.is_empty() {
            "pending"
        } else {
            &self.status
        };
        // English keeps the spec's parameter (the status value); other languages read a label.
        let status = if self.language.is_english() {
            status.to_owned()
        } else {
            status_label(self.language, status)
        };
        let packages = self.packages.join("\n");
        let p = params(
            self.language,
            [
                ("to_name", &self.shipper_name),
                ("tracking", &self.tracking_number),
                ("status", &status),
                ("location", &self.current_location),
                ("origin", &self.origin),
                ("destination", &self.destination),
                ("delivery", &self.expected_delivery_date),
                ("receiver", &self.receiver_name),
                ("receiver_email", &self.receiver_email),
                ("packages", &packages),
                ("url", &url),
                ("to_email", &self.shipper_email),
                ("subject", message(self.language, "email.shipper.subject")),
            ],
        );
        let mut n = Notification::new(
            Template::Shipper,
            &self.shipper_email,
            &self.shipper_name,
            p,
            now,
        );
        n.tracking_number = self.tracking_number.clone();
        n
    }

    /// "Package Incoming", to the receiver.
    pub fn to_receiver(&self, public_url: &str, now: DateTime<Utc>) -> Notification {
        let url = tracking_url(public_url, self.language, &self.tracking_number);
        let p = params(
            self.language,
            [
                ("to_name", &self.receiver_name),
                ("tracking_number", &self.tracking_number),
                ("origin", &self.origin),
                ("destination", &self.destination),
                ("expected_delivery_date", &self.expected_delivery_date),
                ("tracking_url", &url),
                ("to_email", &self.receiver_email),
                ("subject", message(self.language, "email.receiver.subject")),
            ],
        );
        let mut n = Notification::new(
            Template::Receiver,
            &self.receiver_email,
            &self.receiver_name,
            p,
            now,
        );
        n.tracking_number = self.tracking_number.clone();
        n
    }

    /// Both e-mails of a new shipment.
    pub fn notifications(&self, public_url: &str, now: DateTime<Utc>) -> Vec<Notification> {
        vec![
            self.to_shipper(public_url, now),
            self.to_receiver(public_url, now),
        ]
    }
}

/// A status change of one shipment, as its e-mails tell it.
#[derive(Clone, Debug)]
pub struct StatusUpdate {
    pub tracking_number: String,
    /// The status value, e.g. `in_transit`; each e-mail reads it in its recipient's language.
    pub status: String,
    pub location: String,
    pub remarks: String,
    /// When it happened; each e-mail writes it in its language, in UTC, saying so.
    pub at: DateTime<Utc>,
    /// YYYY-MM-DD, or empty when none is set.
    pub expected_delivery: String,
    /// The step of the tracking page's progress the shipment has reached: 0 Created,
    /// 1 Picked up, 2 In transit, 3 Out for delivery, 4 Delivered.
    pub progress: u8,
}

/// Who one status-update e-mail goes to, and the links it carries.
#[derive(Clone, Debug)]
pub struct UpdateRecipient {
    pub email: String,
    pub name: String,
    /// The tracking page; for the shipper and the receiver it opens the full view.
    pub tracking_url: String,
    /// Subscribers only: the one-click unsubscribe page.
    pub unsubscribe_url: Option<String>,
    /// The language of this recipient's e-mail.
    pub language: Language,
}

impl StatusUpdate {
    pub fn subject(&self, language: Language) -> String {
        format(
            language,
            "email.update.subject",
            &[
                ("tracking", &self.tracking_number),
                ("status", &status_label(language, &self.status)),
            ],
        )
    }

    pub fn to(&self, recipient: &UpdateRecipient, now: DateTime<Utc>) -> Notification {
        let language = recipient.language;
        let subject = self.subject(language);
        let status = status_label(language, &self.status);
        let mut p = params(
            language,
            [
                ("to_name", &recipient.name),
                ("to_email", &recipient.email),
                ("subject", &subject),
                ("tracking_number", &self.tracking_number),
                ("status", &status),
                ("location", &self.location),
                ("remarks", &self.remarks),
                ("time", &date_time(language, self.at)),
                (
                    "expected_delivery_date",
                    &date_text(language, &self.expected_delivery),
                ),
                ("progress", &self.progress.min(4).to_string()),
                ("tracking_url", &recipient.tracking_url),
            ],
        );
        if let Some(url) = &recipient.unsubscribe_url {
            p.insert("unsubscribe_url".into(), url.clone());
        }
        let mut n = Notification::new(
            Template::StatusUpdate,
            &recipient.email,
            &recipient.name,
            p,
            now,
        );
        n.tracking_number = self.tracking_number.clone();
        n
    }
}

/// The double opt-in e-mail of a new subscription to a shipment's updates.
pub fn subscription_confirmation(
    tracking_number: &str,
    email: &str,
    confirm_url: &str,
    language: Language,
    now: DateTime<Utc>,
) -> Notification {
    let subject = format(
        language,
        "email.confirm.subject",
        &[("tracking", tracking_number)],
    );
    let p = params(
        language,
        [
            ("to_email", email),
            ("subject", &subject),
            ("tracking_number", tracking_number),
            ("confirm_url", confirm_url),
        ],
    );
    let mut n = Notification::new(Template::SubscriptionConfirmation, email, "", p, now);
    n.tracking_number = tracking_number.to_owned();
    n
}

/// The page where someone invited to a customer's account sets their password, in `language`:
/// the token goes in the fragment, so it never reaches a server log.
pub fn invitation_url(public_url: &str, language: Language, token: &str) -> String {
    format!(
        "{}{}/invitation#{token}",
        public_url.trim_end_matches('/'),
        language.path_prefix()
    )
}

/// Invites `name` <`email`> to `customer_name`'s account: the single-use link that sets their
/// password, and until when it works (written in the e-mail's language, in UTC).
pub fn customer_invitation(
    email: &str,
    name: &str,
    customer_name: &str,
    accept_url: &str,
    expire_time: DateTime<Utc>,
    language: Language,
    now: DateTime<Utc>,
) -> Notification {
    let subject = format(
        language,
        "email.invitation.subject",
        &[("customer", customer_name)],
    );
    let p = params(
        language,
        [
            ("to_name", name),
            ("to_email", email),
            ("subject", &subject),
            ("customer_name", customer_name),
            ("accept_url", accept_url),
            ("expire_time", &date_time(language, expire_time)),
        ],
    );
    Notification::new(Template::CustomerInvitation, email, name, p, now)
}

/// A pickup's time window in `language`: `09:00–12:30`, in Arabic `من 09:00 إلى 12:30` (a dash
/// between two times reads either way in a right-to-left line).
pub fn time_window(
    language: Language,
    (from, until): (chrono::NaiveTime, chrono::NaiveTime),
) -> String {
    format(
        language,
        "email.pickup.window",
        &[
            ("from", &from.format("%H:%M").to_string()),
            ("until", &until.format("%H:%M").to_string()),
        ],
    )
}

/// To the customer's user who asked for the pickup.
#[allow(clippy::too_many_arguments)] // Each argument is one fact of the pickup, as stored.
pub fn pickup_confirmed(
    email: &str,
    customer_name: &str,
    address: &str,
    date: chrono::NaiveDate,
    window: (chrono::NaiveTime, chrono::NaiveTime),
    parcel_count: u32,
    language: Language,
    now: DateTime<Utc>,
) -> Notification {
    let day = self::date(language, date);
    let subject = format(language, "email.pickup.subject", &[("date", &day)]);
    let p = params(
        language,
        [
            ("to_email", email),
            ("subject", &subject),
            ("customer_name", customer_name),
            ("address", address),
            ("pickup_date", &day),
            ("pickup_window", &time_window(language, window)),
            ("parcel_count", &parcel_count.to_string()),
            (
                "parcels",
                &plural(language, "email.pickup.parcels", parcel_count.into()),
            ),
        ],
    );
    Notification::new(Template::PickupConfirmed, email, "", p, now)
}

/// To a visitor whose account request staff declined.
pub fn account_request_declined(
    email: &str,
    contact_name: &str,
    company_name: &str,
    reason: &str,
    language: Language,
    now: DateTime<Utc>,
) -> Notification {
    let subject = format(
        language,
        "email.declined.subject",
        &[("company_name", company_name)],
    );
    let p = params(
        language,
        [
            ("to_name", contact_name),
            ("to_email", email),
            ("subject", &subject),
            ("company_name", company_name),
            ("reason", reason),
        ],
    );
    Notification::new(
        Template::AccountRequestDeclined,
        email,
        contact_name,
        p,
        now,
    )
}

/// The daily digest of the exceptions queue, to the operations address: the open count per
/// kind (`counts`: each kind's message id and count) and the longest-standing ones (`lines`:
/// tracking number, kind's message id, the day it began), `more` beyond them.
pub fn exception_digest(
    to: &str,
    counts: &[(&str, u64)],
    lines: &[(String, &str, chrono::NaiveDate)],
    more: u64,
    queue_url: &str,
    language: Language,
    now: DateTime<Utc>,
) -> Notification {
    let total: u64 = counts.iter().map(|(_, n)| n).sum();
    let subject = plural(language, "email.digest.subject", total);
    let counts_text = counts
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(kind, n)| format!("{}: {n}", message(language, kind)))
        .collect::<Vec<_>>()
        .join("\n");
    let lines_text = lines
        .iter()
        .map(|(number, kind, since)| {
            format(
                language,
                "email.digest.line",
                &[
                    ("tracking", number),
                    ("kind", message(language, kind)),
                    ("date", &date(language, *since)),
                ],
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    let more_text = if more > 0 {
        plural(language, "email.digest.more", more)
    } else {
        String::new()
    };
    let p = params(
        language,
        [
            ("to_email", to),
            ("subject", &subject),
            ("total", &total.to_string()),
            ("counts", &counts_text),
            ("exceptions", &lines_text),
            ("more", &more_text),
            ("queue_url", queue_url),
        ],
    );
    Notification::new(Template::ExceptionDigest, to, "", p, now)
}

/// Tells an admin that a webhook endpoint failed for the whole retry window and was disabled.
pub fn endpoint_disabled(
    to: &str,
    endpoint_url: &str,
    description: &str,
    failing_since: &str,
    webhooks_page: &str,
    now: DateTime<Utc>,
) -> Notification {
    let subject = format!("Webhook endpoint disabled: {endpoint_url}");
    let p = params(
        Language::En,
        [
            ("to_email", to),
            ("subject", &subject),
            ("endpoint_url", endpoint_url),
            ("description", description),
            ("failing_since", failing_since),
            ("url", webhooks_page),
        ],
    );
    Notification::new(Template::Alert, to, "", p, now)
}

/// A visitor's message from the contact form, already validated.
#[derive(Clone, Debug)]
pub struct ContactMessage {
    pub name: String,
    pub email: String,
    pub subject: String,
    pub message: String,
}

impl ContactMessage {
    /// To the company's contact account; replies go to the visitor.
    pub fn notification(&self, now: DateTime<Utc>) -> Notification {
        let p = params(
            Language::En,
            [
                ("from_name", &self.name),
                ("from_email", &self.email),
                ("subject", &self.subject),
                ("message", &self.message),
                ("reply_to", &self.email),
            ],
        );
        Notification::new(Template::Contact, "", &self.name, p, now)
    }
}

/// The package line of the shipper e-mail.
pub fn package_line(
    quantity: u32,
    piece_type: &str,
    description: &str,
    dims_cm: [f64; 3],
    weight_kg: f64,
) -> String {
    let [l, w, h] = dims_cm;
    format!("{quantity} x {piece_type} - {description} ({l} x {w} x {h} cm, {weight_kg} kg)")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text).unwrap().to_utc()
    }

    #[test]
    fn an_invitation_goes_to_the_invitee_with_the_link_the_customer_and_the_expiry() {
        let url = invitation_url("https://ship.example/", Language::En, "k2Jf8sLq0PzW3mNv");
        assert_eq!(url, "https://ship.example/invitation#k2Jf8sLq0PzW3mNv");
        let n = customer_invitation(
            "ana@acme.example",
            "Ana Ruiz",
            "Acme Imports",
            &url,
            at("2026-11-30T16:18:00Z"),
            Language::En,
            at("2026-11-27T16:18:00Z"),
        );
        assert_eq!(n.template, Template::CustomerInvitation);
        assert_eq!(
            (n.to_email.as_str(), n.to_name.as_str()),
            ("ana@acme.example", "Ana Ruiz")
        );
        assert_eq!(n.subject, "You're invited to Acme Imports");
        assert!(n.tracking_number.is_empty());
        let expected: BTreeMap<String, String> = [
            ("to_name", "Ana Ruiz"),
            ("to_email", "ana@acme.example"),
            ("subject", "You're invited to Acme Imports"),
            ("customer_name", "Acme Imports"),
            (
                "accept_url",
                "https://ship.example/invitation#k2Jf8sLq0PzW3mNv",
            ),
            ("expire_time", "Nov 30, 2026, 4:18 PM UTC"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        assert_eq!(n.params, expected);
        // The outbox stores the template by this name.
        assert_eq!(
            serde_json::to_value(n.template).unwrap(),
            "customer_invitation"
        );
    }

    #[test]
    fn an_invitation_in_another_language_says_so_and_links_to_that_languages_page() {
        let url = invitation_url("https://ship.example", Language::Es, "t0k3n");
        assert_eq!(url, "https://ship.example/es/invitation#t0k3n");
        let n = customer_invitation(
            "ana@acme.example",
            "Ana",
            "Acme",
            &url,
            at("2026-11-30T16:18:00Z"),
            Language::Es,
            at("2026-11-27T16:18:00Z"),
        );
        assert_eq!(n.params["language"], "es");
        assert_eq!(n.params["expire_time"], "30 nov 2026, 16:18 UTC");
        assert_eq!(n.params["accept_url"], url);
        assert_eq!(n.subject, "Invitación para unirse a Acme");
    }

    fn pickup(language: Language, parcels: u32) -> Notification {
        pickup_confirmed(
            "ana@acme.example",
            "Acme Imports",
            "12 Harbour Road, Rotterdam",
            chrono::NaiveDate::from_ymd_opt(2026, 12, 3).unwrap(),
            (
                chrono::NaiveTime::from_hms_opt(9, 0, 0).unwrap(),
                chrono::NaiveTime::from_hms_opt(12, 30, 0).unwrap(),
            ),
            parcels,
            language,
            at("2026-11-27T16:18:00Z"),
        )
    }

    #[test]
    fn a_confirmed_pickup_goes_to_the_user_with_the_date_window_address_and_parcels() {
        let n = pickup(Language::En, 3);
        assert_eq!(n.template, Template::PickupConfirmed);
        assert_eq!(
            (n.to_email.as_str(), n.to_name.as_str()),
            ("ana@acme.example", "")
        );
        assert_eq!(n.subject, "Your pickup on Dec 3, 2026 is confirmed");
        let expected: BTreeMap<String, String> = [
            ("to_email", "ana@acme.example"),
            ("subject", "Your pickup on Dec 3, 2026 is confirmed"),
            ("customer_name", "Acme Imports"),
            ("address", "12 Harbour Road, Rotterdam"),
            ("pickup_date", "Dec 3, 2026"),
            ("pickup_window", "09:00–12:30"),
            ("parcel_count", "3"),
            ("parcels", "3 parcels"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        assert_eq!(n.params, expected);
        assert_eq!(pickup(Language::En, 1).params["parcels"], "1 parcel");
        assert_eq!(
            serde_json::to_value(n.template).unwrap(),
            "pickup_confirmed"
        );
    }

    #[test]
    fn a_confirmed_pickup_in_another_language_writes_its_date_and_count_in_it() {
        let n = pickup(Language::Fr, 1);
        assert_eq!(n.params["language"], "fr");
        assert_eq!(n.subject, "Votre enlèvement du 3 déc. 2026 est confirmé");
        assert_eq!(n.params["parcels"], "1 colis");
        let n = pickup(Language::Ar, 2);
        assert_eq!(n.params["parcels"], "طردان");
        assert_eq!(n.params["pickup_window"], "من 09:00 إلى 12:30");
        assert_eq!(pickup(Language::Es, 4).params["parcels"], "4 bultos");
    }

    #[test]
    fn a_declined_request_goes_to_the_contact_by_name_with_the_reason() {
        let n = account_request_declined(
            "li@blue.example",
            "Li Wei",
            "Blue Harbour Trading",
            "We do not serve this region yet.",
            Language::En,
            at("2026-11-27T16:18:00Z"),
        );
        assert_eq!(n.template, Template::AccountRequestDeclined);
        assert_eq!(
            (n.to_email.as_str(), n.to_name.as_str()),
            ("li@blue.example", "Li Wei")
        );
        assert_eq!(n.subject, "Your account request for Blue Harbour Trading");
        let expected: BTreeMap<String, String> = [
            ("to_name", "Li Wei"),
            ("to_email", "li@blue.example"),
            ("subject", "Your account request for Blue Harbour Trading"),
            ("company_name", "Blue Harbour Trading"),
            ("reason", "We do not serve this region yet."),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        assert_eq!(n.params, expected);
        assert_eq!(
            serde_json::to_value(n.template).unwrap(),
            "account_request_declined"
        );
        let es = account_request_declined(
            "li@blue.example",
            "Li Wei",
            "Blue Harbour Trading",
            "Zona sin servicio",
            Language::Es,
            at("2026-11-27T16:18:00Z"),
        );
        assert_eq!(
            es.subject,
            "Su solicitud de cuenta para Blue Harbour Trading"
        );
        assert_eq!(es.params["language"], "es");
    }
}
