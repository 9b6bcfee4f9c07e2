//! The public side of the service: the lookup's view, a party's verification and the
//! subscriptions to a shipment's updates.

use std::time::Duration;

use logistics_proto::v1 as pb;
use service_auth::Permission;
use tokio::time::Instant;
use tonic::metadata::MetadataValue;
use tonic::{Request, Response};

use crate::domain::{Language, Subscriber, TrackingNumber, UsedConfirmation};
use crate::error::{FieldViolation, ShipmentError};
use crate::privacy::{
    ACCESS_AUDIENCE, ANSWER_FIELD, AccessGrant, Answer, NO_MATCH, Party, PublicDetails, limited,
    seal_of, seal_of_proto, verify_access,
};
use crate::service::ShipmentsService;
use crate::updates::{
    CONFIRM_AUDIENCE, CONFIRM_LINK_LIFETIME, SubscriptionClaim, UNSUBSCRIBE_AUDIENCE,
    access_link_email,
};

/// Request metadata the gateway fills from the browser's full-view cookies.
pub const ACCESS_METADATA: &str = "x-tracking-access";
/// Response metadata asking the gateway to keep a full-view grant in a cookie:
/// `<tracking number> <max age in seconds> <token>`.
pub const GRANT_METADATA: &str = "x-tracking-access-grant";

/// Every verification answer takes at least this long, so its timing tells nothing.
const VERIFY_ANSWER_TIME: Duration = Duration::from_millis(400);
const HOUR: Duration = Duration::from_secs(3600);
const DAY: Duration = Duration::from_secs(24 * 3600);

pub const TOO_MANY_ATTEMPTS: &str =
    "Too many attempts for this shipment. Please try again in an hour.";
pub const TOO_MANY_CONFIRMATIONS: &str =
    "Too many confirmation e-mails to this address today. Please try again tomorrow.";
pub const SHIPMENT_FULL: &str = "This shipment cannot take more subscribers.";
pub const NOT_OFFERED: &str = "Full details are not available to visitors on this site.";
const BAD_ACCESS_LINK: &str =
    "This link has expired or is not valid. Verify below to see the full details.";
const BAD_CONFIRM_LINK: &str = "This confirmation link has expired or is not valid.";
const USED_CONFIRM_LINK: &str =
    "This confirmation link has already been used. Subscribe again to get a new one.";
const BAD_UNSUBSCRIBE_LINK: &str = "This unsubscribe link is not valid.";

/// Why a lookup shows the full view.
pub(crate) enum Full {
    /// Staff: everything, including who wrote each history entry.
    Staff,
    /// The site's setting, or a grant the browser already holds.
    Already,
    /// A valid token sent with the request: the browser is to keep a grant that ends no
    /// later than this one.
    Granted(AccessGrant),
}

/// The full view for the shipment's parties: everything but which staff member wrote
/// each history entry.
fn for_parties(mut shipment: pb::Shipment) -> pb::Shipment {
    for entry in &mut shipment.history {
        entry.updated_by.clear();
    }
    if let Some(proof) = &mut shipment.proof_of_delivery {
        proof.recorded_by.clear();
    }
    shipment
}

fn email(field: &str, value: &str) -> Result<String, ShipmentError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(FieldViolation::new(field, "is required").into());
    }
    if value.len() > 254 || !service_common::is_email(value) {
        return Err(FieldViolation::new(field, "must be a valid e-mail address").into());
    }
    Ok(value.to_lowercase())
}

/// The inbox an address delivers to, so one inbox counts once: lower case, without a
/// `+tag`, and for Gmail (where dots are ignored and googlemail.com is the same) without
/// dots.
pub fn inbox(email: &str) -> String {
    let email = email.trim().to_lowercase();
    let Some((local, domain)) = email.rsplit_once('@') else {
        return email;
    };
    let local = local.split('+').next().unwrap_or(local);
    match domain {
        "gmail.com" | "googlemail.com" => format!("{}@gmail.com", local.replace('.', "")),
        _ => format!("{local}@{domain}"),
    }
}

impl ShipmentsService {
    pub(crate) async fn track(
        &self,
        request: Request<pb::GetShipmentByTrackingNumberRequest>,
    ) -> Result<Response<pb::Shipment>, ShipmentError> {
        let number = TrackingNumber::parse(&request.get_ref().tracking_number)?;
        let shipment = self.lookup(&number).await?;
        self.view_for(&request, &request.get_ref().access_token, &number, shipment)
    }

    /// The shipment as the lookup shows it to this caller: everything for staff, the parties'
    /// full view with a grant or where the site shows it, the limited view otherwise.
    pub(crate) fn view_for<T>(
        &self,
        request: &Request<T>,
        access_token: &str,
        number: &TrackingNumber,
        shipment: pb::Shipment,
    ) -> Result<Response<pb::Shipment>, ShipmentError> {
        let seal = seal_of_proto(&shipment);
        let full = self.full_view(request, access_token, number, &seal)?;
        Ok(match full {
            Some(Full::Staff) => Response::new(shipment),
            Some(Full::Already) => Response::new(for_parties(shipment)),
            Some(Full::Granted(grant)) => {
                let until = grant.until.min(self.access_ends());
                self.granted(shipment, number, grant.party, until, seal)
            }
            None => Response::new(pb::Shipment {
                verification_available: self.policy.details == PublicDetails::Verified,
                ..limited(&shipment)
            }),
        })
    }

    /// Whether this caller sees the whole shipment, whose parties' contact details have
    /// the `seal` now.
    pub(crate) fn full_view<T>(
        &self,
        request: &Request<T>,
        access_token: &str,
        number: &TrackingNumber,
        seal: &str,
    ) -> Result<Option<Full>, ShipmentError> {
        if let Ok(caller) = service_auth::access::caller(request)
            && caller.may(Permission::ShipmentsRead)
        {
            return Ok(Some(Full::Staff));
        }
        if self.policy.details == PublicDetails::Full {
            return Ok(Some(Full::Already));
        }
        if self.policy.details == PublicDetails::Limited {
            return Ok(None);
        }
        // Another shipment's grant, or one made before a party's e-mail or phone changed,
        // opens nothing.
        let for_this = |token: &str| verify_access(&self.tokens, number.as_str(), seal, token);
        let link = access_token.trim();
        if !link.is_empty() {
            return match for_this(link) {
                Some(grant) => Ok(Some(Full::Granted(grant))),
                None => Err(FieldViolation::new("access_token", BAD_ACCESS_LINK).into()),
            };
        }
        let held = request
            .metadata()
            .get_all(ACCESS_METADATA)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|token| for_this(token).is_some());
        Ok(held.then_some(Full::Already))
    }

    /// When a grant made now ends at the latest.
    fn access_ends(&self) -> i64 {
        chrono::Utc::now().timestamp() + self.policy.access_lifetime.as_secs() as i64
    }

    /// The full shipment, with a grant for the browser to keep until `until`.
    fn granted(
        &self,
        shipment: pb::Shipment,
        number: &TrackingNumber,
        party: Party,
        until: i64,
        contacts: String,
    ) -> Response<pb::Shipment> {
        let grant = AccessGrant {
            sub: number.to_string(),
            party,
            until,
            contacts,
        };
        let token = self
            .tokens
            .sign_link_expiring_at(ACCESS_AUDIENCE, &grant, until);
        let mut response = Response::new(for_parties(shipment));
        let max_age = (until - chrono::Utc::now().timestamp()).max(0);
        let value = format!("{number} {max_age} {token}");
        if let Ok(value) = MetadataValue::try_from(value) {
            response.metadata_mut().insert(GRANT_METADATA, value);
        }
        response
    }

    pub(crate) async fn verify(
        &self,
        request: pb::VerifyTrackingAccessRequest,
    ) -> Result<Response<pb::Shipment>, ShipmentError> {
        let started = Instant::now();
        let outcome = self.check_answer(&request).await;
        // Wrong, right, unknown or locked: every answer leaves at the same moment.
        tokio::time::sleep_until(started + VERIFY_ANSWER_TIME).await;
        let (shipment, number, party, seal) = outcome?;
        Ok(self.granted(shipment, &number, party, self.access_ends(), seal))
    }

    /// "Send me a link": e-mails each party on file their full-view link, within
    /// `access_links_per_hour` each. Unknown numbers, missing addresses and spent limits
    /// answer alike and at the same moment, and failed verifications never count here.
    pub(crate) async fn send_access_link(
        &self,
        request: pb::SendTrackingAccessLinkRequest,
    ) -> Result<(), ShipmentError> {
        let started = Instant::now();
        let outcome = self.send_links(&request).await;
        tokio::time::sleep_until(started + VERIFY_ANSWER_TIME).await;
        outcome
    }

    async fn send_links(
        &self,
        request: &pb::SendTrackingAccessLinkRequest,
    ) -> Result<(), ShipmentError> {
        if self.policy.details != PublicDetails::Verified {
            return Err(ShipmentError::Unsupported(NOT_OFFERED.into()));
        }
        let number = TrackingNumber::parse(&request.tracking_number)?;
        let shipment = match self.store.find_by_tracking_number(&number).await {
            Ok(shipment) => shipment,
            Err(ShipmentError::NotFound) => return Ok(()),
            Err(e) => return Err(e),
        };
        let now = crate::domain::now();
        let mut emails = Vec::new();
        for party in [Party::Shipper, Party::Receiver] {
            let Some(email) = access_link_email(&shipment, party, &self.links, now) else {
                continue;
            };
            // Per address as well, so a shipment naming one person twice sends once.
            let key = format!("access-link:{number}:{}", inbox(&email.to_email));
            if emails
                .iter()
                .any(|e: &outbox::Notification| inbox(&e.to_email) == inbox(&email.to_email))
            {
                continue;
            }
            if self.store.hit(&key, HOUR, now).await? <= self.policy.access_links_per_hour {
                emails.push(email);
            }
        }
        if !emails.is_empty() {
            tracing::info!(tracking_number = %number, count = emails.len(), "access links sent");
            self.store.enqueue(&emails).await?;
        }
        Ok(())
    }

    async fn check_answer(
        &self,
        request: &pb::VerifyTrackingAccessRequest,
    ) -> Result<(pb::Shipment, TrackingNumber, Party, String), ShipmentError> {
        if self.policy.details != PublicDetails::Verified {
            return Err(ShipmentError::Unsupported(NOT_OFFERED.into()));
        }
        let number = TrackingNumber::parse(&request.tracking_number)?;
        let answer = Answer::parse(&request.answer)?;
        let now = crate::domain::now();
        let attempts = self
            .store
            .hit(&format!("verify:{number}"), HOUR, now)
            .await?;
        if attempts > self.policy.verify_attempts_per_hour {
            return Err(ShipmentError::Exhausted(TOO_MANY_ATTEMPTS.into()));
        }
        let no_match = || ShipmentError::from(FieldViolation::new(ANSWER_FIELD, NO_MATCH));
        let shipment = match self.store.find_by_tracking_number(&number).await {
            Ok(shipment) => shipment,
            Err(ShipmentError::NotFound) => return Err(no_match()),
            Err(e) => return Err(e),
        };
        match answer.party(&shipment) {
            Some(party) => {
                tracing::info!(tracking_number = %number, ?party, "party verified");
                Ok((
                    crate::convert::shipment_to_proto(&shipment),
                    number,
                    party,
                    seal_of(&shipment),
                ))
            }
            None => Err(no_match()),
        }
    }

    pub(crate) async fn subscribe(
        &self,
        request: pb::SubscribeToShipmentRequest,
    ) -> Result<(), ShipmentError> {
        let number = TrackingNumber::parse(&request.tracking_number)?;
        let email = email("email", &request.email)?;
        let language = Language::parse(&request.language_code)
            .map_err(|problem| FieldViolation::new("language_code", problem))?;
        let now = crate::domain::now();
        // Tagged and dotted spellings of one inbox count as that inbox.
        let inbox = inbox(&email);
        let sent = self
            .store
            .hit(&format!("confirm:{inbox}"), DAY, now)
            .await?;
        if sent > self.policy.confirmations_per_address_per_day {
            return Err(ShipmentError::Exhausted(TOO_MANY_CONFIRMATIONS.into()));
        }
        let shipment = match self.store.find_by_tracking_number(&number).await {
            Ok(shipment) => shipment,
            // The same answer as for a real number: a subscription reveals nothing.
            Err(ShipmentError::NotFound) => return Ok(()),
            Err(e) => return Err(e),
        };
        if shipment
            .subscribers
            .iter()
            .any(|s| self::inbox(&s.email) == inbox)
        {
            return Ok(());
        }
        if shipment.subscribers.len() >= self.policy.subscribers_per_shipment {
            return Err(ShipmentError::Exhausted(SHIPMENT_FULL.into()));
        }
        let url = self.links.confirm(&SubscriptionClaim {
            sub: number.to_string(),
            email: email.clone(),
            nonce: crate::domain::new_id(),
            lang: language,
        });
        let confirmation =
            outbox::emails::subscription_confirmation(number.as_str(), &email, &url, language, now);
        self.store.enqueue(&[confirmation]).await
    }

    fn subscription(
        &self,
        audience: &str,
        token: &str,
        bad: &str,
    ) -> Result<SubscriptionClaim, ShipmentError> {
        self.tokens
            .verify_link::<SubscriptionClaim>(audience, token.trim())
            .filter(|claim| TrackingNumber::parse(&claim.sub).is_ok())
            .ok_or_else(|| FieldViolation::new("token", bad).into())
    }

    pub(crate) async fn confirm(
        &self,
        token: &str,
    ) -> Result<pb::ShipmentSubscription, ShipmentError> {
        let claim = self.subscription(CONFIRM_AUDIENCE, token, BAD_CONFIRM_LINK)?;
        // Links from before confirmations became single-use cannot be told apart: refused.
        if claim.nonce.is_empty() {
            return Err(FieldViolation::new("token", BAD_CONFIRM_LINK).into());
        }
        let number = TrackingNumber::parse(&claim.sub)?;
        let shipment = self.store.find_by_tracking_number(&number).await?;
        let limit = self.policy.subscribers_per_shipment;
        let email = claim.email.clone();
        let nonce = claim.nonce.clone();
        let language = claim.lang;
        self.edit_subscribers(&shipment.id, move |shipment| {
            let now = crate::domain::now();
            shipment.used_confirmations.retain(|used| used.until > now);
            let used = shipment.used_confirmations.iter().any(|u| u.nonce == nonce);
            let subscribed = shipment
                .subscribers
                .iter()
                .any(|s| inbox(&s.email) == inbox(&email));
            // Opened again while subscribed changes nothing; after unsubscribing it is spent.
            if used {
                return if subscribed {
                    Ok(())
                } else {
                    Err(FieldViolation::new("token", USED_CONFIRM_LINK).into())
                };
            }
            if !subscribed {
                if shipment.subscribers.len() >= limit {
                    return Err(ShipmentError::Exhausted(SHIPMENT_FULL.into()));
                }
                shipment.subscribers.push(Subscriber {
                    email: email.clone(),
                    language,
                    since: now,
                });
            }
            // Kept past the link's own expiry (it was made before now), then forgotten.
            shipment.used_confirmations.push(UsedConfirmation {
                nonce: nonce.clone(),
                until: now + CONFIRM_LINK_LIFETIME,
            });
            Ok(())
        })
        .await?;
        tracing::info!(tracking_number = %number, "subscription confirmed");
        Ok(pb::ShipmentSubscription {
            tracking_number: claim.sub,
            email: claim.email,
        })
    }

    pub(crate) async fn unsubscribe(
        &self,
        token: &str,
    ) -> Result<pb::ShipmentSubscription, ShipmentError> {
        let claim = self.subscription(UNSUBSCRIBE_AUDIENCE, token, BAD_UNSUBSCRIBE_LINK)?;
        let number = TrackingNumber::parse(&claim.sub)?;
        match self.store.find_by_tracking_number(&number).await {
            Ok(shipment) => {
                let inbox = inbox(&claim.email);
                self.edit_subscribers(&shipment.id, move |shipment| {
                    shipment
                        .subscribers
                        .retain(|s| self::inbox(&s.email) != inbox);
                    Ok(())
                })
                .await?;
            }
            // A deleted shipment sends nothing more anyway.
            Err(ShipmentError::NotFound) => {}
            Err(e) => return Err(e),
        }
        Ok(pb::ShipmentSubscription {
            tracking_number: claim.sub,
            email: claim.email,
        })
    }
}
