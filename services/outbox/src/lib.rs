//! The e-mail outbox. A notification is written in the same transaction as the data it is
//! about (a new shipment) or on its own (a contact message), then claimed by one worker at a
//! time with an atomic update and a lease, so a crashed worker's e-mail is taken over, never
//! lost, and two workers never send the same one.

pub mod emails;
pub mod store;
pub mod webhooks;

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use service_common::{optional_utc_micros, utc_micros};

/// The e-mails' wording, which lives with notifications (`email-wording`).
pub use email_wording as language;
pub use store::{Claimed, MongoOutbox, OutboxError, OutboxStore, Page, Settlement, SqliteOutbox};

/// Which template, and so which e-mail account, a notification uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Template {
    Shipper,
    Receiver,
    Contact,
    /// A status change, to a party or a subscriber.
    StatusUpdate,
    /// The double opt-in link of a new subscription.
    SubscriptionConfirmation,
    /// Something an admin must act on (a webhook endpoint disabled).
    Alert,
    /// The link that lets someone invited to a customer's account set their password.
    CustomerInvitation,
    /// A customer's pickup was confirmed, to the user who asked for it.
    PickupConfirmed,
    /// A visitor's account request was declined, with the reason.
    AccountRequestDeclined,
    /// The daily digest of open exceptions, to the operations address.
    ExceptionDigest,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    Queued,
    Sending,
    Sent,
    Retrying,
    Failed,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            State::Queued => "queued",
            State::Sending => "sending",
            State::Sent => "sent",
            State::Retrying => "retrying",
            State::Failed => "failed",
        }
    }
}

/// One e-mail and where it is on its way out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Notification {
    pub id: String,
    pub template: Template,
    pub to_email: String,
    pub to_name: String,
    pub subject: String,
    /// The e-mail API's `template_params`, exactly as sent.
    pub params: BTreeMap<String, String>,
    /// The shipment's number for shipment e-mails; empty otherwise.
    pub tracking_number: String,
    pub state: State,
    pub attempts: u32,
    pub last_error: String,
    #[serde(with = "utc_micros")]
    pub created_at: DateTime<Utc>,
    #[serde(with = "utc_micros")]
    pub updated_at: DateTime<Utc>,
    #[serde(with = "utc_micros")]
    pub next_attempt_at: DateTime<Utc>,
    #[serde(default, with = "optional_utc_micros")]
    pub sent_at: Option<DateTime<Utc>>,
    /// When the current run of passing failures began; the retry window counts from it.
    #[serde(default, with = "optional_utc_micros")]
    pub failing_since: Option<DateTime<Utc>>,
}

impl Notification {
    /// A queued notification, due now.
    pub fn new(
        template: Template,
        to_email: &str,
        to_name: &str,
        params: BTreeMap<String, String>,
        now: DateTime<Utc>,
    ) -> Self {
        let subject = params.get("subject").cloned().unwrap_or_default();
        Self {
            id: service_common::new_id(),
            template,
            to_email: to_email.to_owned(),
            to_name: to_name.to_owned(),
            subject,
            params,
            tracking_number: String::new(),
            state: State::Queued,
            attempts: 0,
            last_error: String::new(),
            created_at: now,
            updated_at: now,
            next_attempt_at: now,
            sent_at: None,
            failing_since: None,
        }
    }

    /// Applies what the last attempt came to.
    pub fn settle(&mut self, outcome: &Outcome, now: DateTime<Utc>) {
        self.updated_at = now;
        match outcome {
            Outcome::Sent => {
                self.state = State::Sent;
                self.sent_at = Some(now);
                self.failing_since = None;
                self.last_error.clear();
                // A visitor's message is kept no longer than its delivery needs.
                if self.template == Template::Contact {
                    self.params.clear();
                }
            }
            Outcome::Retry { at, error } => {
                self.state = State::Retrying;
                self.failing_since.get_or_insert(now);
                self.next_attempt_at = *at;
                self.last_error = error.clone();
            }
            Outcome::Failed { error } => {
                self.state = State::Failed;
                self.last_error = error.clone();
            }
        }
    }
}

/// Which notifications a list or a bulk retry covers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter {
    pub state: Option<State>,
    /// Part of the recipient's address or of the tracking number, any case.
    pub text: Option<String>,
}

/// What one send attempt came to.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Sent,
    /// A passing failure (429, 5xx, network): try again at `at`.
    Retry {
        at: DateTime<Utc>,
        error: String,
    },
    /// Refused for good, or out of attempts: the dead-letter state.
    Failed {
        error: String,
    },
}
