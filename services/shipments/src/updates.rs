//! Updates without asking: which events e-mail whom, the e-mails of a status change, and the
//! signed links they carry (full view, subscription confirmation, unsubscribe).

use std::collections::BTreeMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use outbox::Notification;
use outbox::emails::{StatusUpdate, UpdateRecipient, tracking_url};
use serde::{Deserialize, Serialize};
use service_auth::TokenKey;

use crate::domain::{Language, Shipment, Status};
use crate::privacy::{AccessGrant, Party, city_level, compact_access, seal_of};

/// A shipment event that may send e-mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    Created,
    InTransit,
    Delayed,
    OnHold,
    Delivered,
}

impl Event {
    pub const ALL: [Event; 5] = [
        Event::Created,
        Event::InTransit,
        Event::Delayed,
        Event::OnHold,
        Event::Delivered,
    ];

    /// The event of a change to `status`; going back to pending tells nobody anything.
    pub fn of_status(status: Status) -> Option<Self> {
        match status {
            Status::Pending => None,
            Status::InTransit => Some(Self::InTransit),
            Status::Delayed => Some(Self::Delayed),
            Status::OnHold => Some(Self::OnHold),
            Status::Delivered => Some(Self::Delivered),
        }
    }
}

/// Who one event e-mails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmailRule {
    pub shipper: bool,
    pub receiver: bool,
    pub subscribers: bool,
}

impl Default for EmailRule {
    fn default() -> Self {
        Self {
            shipper: true,
            receiver: true,
            subscribers: true,
        }
    }
}

/// The admin's choice of e-mails per event; an event never set e-mails everyone.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmailRules(pub BTreeMap<Event, EmailRule>);

impl EmailRules {
    /// The rule in effect: nobody has subscribed to a shipment being created.
    pub fn rule(&self, event: Event) -> EmailRule {
        let rule = self.0.get(&event).copied().unwrap_or_default();
        EmailRule {
            subscribers: rule.subscribers && event != Event::Created,
            ..rule
        }
    }
}

/// How long the full-view link of a shipment e-mail works.
pub const ACCESS_LINK_LIFETIME: Duration = Duration::from_secs(30 * 24 * 3600);
/// How long a confirmation link works.
pub const CONFIRM_LINK_LIFETIME: Duration = Duration::from_secs(48 * 3600);
/// Unsubscribe links keep working for as long as anyone might still click one.
pub const UNSUBSCRIBE_LINK_LIFETIME: Duration = service_auth::LONGEST_LINK_LIFETIME;
// A retired signing key verifies for LONGEST_LINK_LIFETIME: no link may outlive that.
const _: () = assert!(
    ACCESS_LINK_LIFETIME.as_secs() <= service_auth::LONGEST_LINK_LIFETIME.as_secs()
        && CONFIRM_LINK_LIFETIME.as_secs() <= service_auth::LONGEST_LINK_LIFETIME.as_secs()
);

pub const CONFIRM_AUDIENCE: &str = "subscription-confirm";
pub const UNSUBSCRIBE_AUDIENCE: &str = "subscription-unsubscribe";

/// The claims of a confirmation or unsubscribe link.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubscriptionClaim {
    /// The tracking number.
    pub sub: String,
    pub email: String,
    /// Confirmation links only: what makes each one single-use.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub nonce: String,
    /// The language of the page the visitor subscribed from.
    #[serde(default, skip_serializing_if = "Language::is_english")]
    pub lang: Language,
}

/// Makes the signed links of the shipment e-mails.
#[derive(Clone)]
pub struct Links {
    pub public_url: String,
    pub tokens: TokenKey,
}

impl Links {
    fn page(&self, number: &str, language: Language, param: &str, token: &str) -> String {
        format!(
            "{}?{param}={token}",
            tracking_url(&self.public_url, language, number)
        )
    }

    /// The tracking page in the shipment's language with the full view open for `party`,
    /// while the parties' contact details stay as they are now.
    pub fn full_view(&self, shipment: &Shipment, party: Party) -> String {
        let number = shipment.tracking_number.as_str();
        let until = Utc::now().timestamp() + ACCESS_LINK_LIFETIME.as_secs() as i64;
        let grant = AccessGrant {
            sub: number.to_owned(),
            party,
            until,
            contacts: seal_of(shipment),
        };
        let token = compact_access(&self.tokens, &grant);
        self.page(number, shipment.details.language, "access", &token)
    }

    fn subscription(&self, audience: &str, claim: &SubscriptionClaim, life: Duration) -> String {
        let token = self.tokens.sign_link(audience, claim, life);
        let param = if audience == CONFIRM_AUDIENCE {
            "confirm"
        } else {
            "unsubscribe"
        };
        self.page(&claim.sub, claim.lang, param, &token)
    }

    /// The confirmation link of a new subscription, on the page in the visitor's language.
    pub fn confirm(&self, claim: &SubscriptionClaim) -> String {
        self.subscription(CONFIRM_AUDIENCE, claim, CONFIRM_LINK_LIFETIME)
    }

    pub fn unsubscribe(&self, claim: &SubscriptionClaim) -> String {
        self.subscription(UNSUBSCRIBE_AUDIENCE, claim, UNSUBSCRIBE_LINK_LIFETIME)
    }
}

/// The status as people read it.
pub fn status_label(status: Status) -> &'static str {
    match status {
        Status::Pending => "Pending",
        Status::InTransit => "In Transit",
        Status::Delivered => "Delivered",
        Status::Delayed => "Delayed",
        Status::OnHold => "On Hold",
    }
}

fn expected_delivery(shipment: &Shipment) -> String {
    shipment
        .details
        .expected_delivery_date
        .format("%Y-%m-%d")
        .to_string()
}

const PICKED_UP: u8 = 1;
const IN_TRANSIT: u8 = 2;
const OUT_FOR_DELIVERY: u8 = 3;
const DELIVERED: u8 = 4;

/// The city of a place: its first comma-separated part, without case or accents.
fn city_key(place: &str) -> String {
    use unicode_normalization::{UnicodeNormalization, char::is_combining_mark};
    let city = place.split(',').next().unwrap_or_default();
    city.nfd()
        .filter(|c| !is_combining_mark(*c))
        .collect::<String>()
        .trim()
        .to_lowercase()
}

/// The step reached once the shipment is in `status` at `place`, after `reached`.
fn step_of(status: Status, place: &str, destination_city: &str, reached: u8) -> u8 {
    if status == Status::Delivered {
        return DELIVERED;
    }
    let held = matches!(status, Status::Delayed | Status::OnHold);
    let mut step = reached.min(OUT_FOR_DELIVERY);
    if status == Status::InTransit {
        step = step.max(IN_TRANSIT);
    } else if held {
        step = step.max(PICKED_UP);
    }
    let moving = status == Status::InTransit || held;
    if moving && !destination_city.is_empty() && city_key(place) == destination_city {
        step = step.max(OUT_FOR_DELIVERY);
    }
    step
}

/// The step of the tracking page's progress (Created, Picked up, In transit, Out for
/// delivery, Delivered) the shipment has reached: the same rules as the page's
/// `shipmentProgress` (frontend/src/features/tracking/utils/progress.ts).
pub fn progress_step(shipment: &Shipment) -> u8 {
    let destination_city = city_key(&shipment.details.destination);
    let mut history: Vec<_> = shipment.shipment_history.iter().collect();
    history.sort_by_key(|h| h.timestamp);
    let mut reached = history.iter().fold(0, |reached, h| {
        step_of(h.status, &h.location, &destination_city, reached)
    });
    if shipment.status != Status::Pending {
        reached = reached.max(PICKED_UP);
    }
    step_of(
        shipment.status,
        &shipment.current_location,
        &destination_city,
        reached,
    )
}

/// The e-mail a party asked for with "Send me a link": the shipment's current status, as in
/// a status-update e-mail, with their full-view link; none without an address on file.
pub fn access_link_email(
    shipment: &Shipment,
    party: Party,
    links: &Links,
    now: DateTime<Utc>,
) -> Option<Notification> {
    let d = &shipment.details;
    let (email, name) = match party {
        Party::Shipper => (&d.shipper_email, &d.shipper_name),
        Party::Receiver => (&d.receiver_email, &d.receiver_name),
    };
    if email.trim().is_empty() {
        return None;
    }
    let last = shipment.shipment_history.last();
    let update = StatusUpdate {
        tracking_number: shipment.tracking_number.to_string(),
        status: shipment.status.as_str().to_owned(),
        location: shipment.current_location.clone(),
        remarks: last.map(|h| h.remarks.clone()).unwrap_or_default(),
        at: last.map(|h| h.timestamp).unwrap_or(now),
        expected_delivery: expected_delivery(shipment),
        progress: progress_step(shipment),
    };
    let recipient = UpdateRecipient {
        email: email.clone(),
        name: name.clone(),
        tracking_url: links.full_view(shipment, party),
        unsubscribe_url: None,
        language: d.language,
    };
    Some(update.to(&recipient, now))
}

/// The e-mails of a change from `before` to `after`: nothing unless the status changed to
/// one whose event e-mails someone.
pub fn status_change_emails(
    before: Status,
    after: &Shipment,
    rules: &EmailRules,
    watchers: &[crate::customers::Watcher],
    links: &Links,
    now: DateTime<Utc>,
) -> Vec<Notification> {
    if before == after.status {
        return Vec::new();
    }
    let Some(event) = Event::of_status(after.status) else {
        return Vec::new();
    };
    let rule = rules.rule(event);
    let number = after.tracking_number.as_str();
    let last = after.shipment_history.last();
    let update = StatusUpdate {
        tracking_number: number.to_owned(),
        status: after.status.as_str().to_owned(),
        location: after.current_location.clone(),
        remarks: last.map(|h| h.remarks.clone()).unwrap_or_default(),
        at: now,
        expected_delivery: expected_delivery(after),
        progress: progress_step(after),
    };
    let d = &after.details;
    let mut emails = Vec::new();
    for (wanted, party, email, name) in [
        (
            rule.shipper,
            Party::Shipper,
            &d.shipper_email,
            &d.shipper_name,
        ),
        (
            rule.receiver,
            Party::Receiver,
            &d.receiver_email,
            &d.receiver_name,
        ),
    ] {
        if wanted && !email.is_empty() {
            let recipient = UpdateRecipient {
                email: email.clone(),
                name: name.clone(),
                tracking_url: links.full_view(after, party),
                unsubscribe_url: None,
                language: d.language,
            };
            emails.push(update.to(&recipient, now));
        }
    }
    // The customer's users who chose this event follow it in the portal, with what staff see.
    for watcher in watchers {
        if watcher.customer_id == d.customer_id && watcher.events.contains(&event) {
            let recipient = UpdateRecipient {
                email: watcher.email.clone(),
                name: String::new(),
                tracking_url: format!(
                    "{}/portal/shipments/{}",
                    links.public_url.trim_end_matches('/'),
                    after.id
                ),
                unsubscribe_url: None,
                language: watcher.language,
            };
            emails.push(update.to(&recipient, now));
        }
    }
    if rule.subscribers && !after.subscribers.is_empty() {
        // A subscriber is anyone who asked: what the public page shows.
        let public = StatusUpdate {
            location: city_level(&update.location),
            remarks: last
                .filter(|h| h.remarks_public)
                .map(|h| h.remarks.clone())
                .unwrap_or_default(),
            ..update.clone()
        };
        for subscriber in &after.subscribers {
            let claim = SubscriptionClaim {
                sub: number.to_owned(),
                email: subscriber.email.clone(),
                nonce: String::new(),
                lang: subscriber.language,
            };
            let recipient = UpdateRecipient {
                email: subscriber.email.clone(),
                name: String::new(),
                tracking_url: tracking_url(&links.public_url, subscriber.language, number),
                unsubscribe_url: Some(links.unsubscribe(&claim)),
                language: subscriber.language,
            };
            emails.push(public.to(&recipient, now));
        }
    }
    emails
}
