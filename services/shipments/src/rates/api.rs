//! The rate-card methods for staff, the public quote, and booking at a quoted price.

use std::sync::Arc;
use std::time::Duration;

use audit::{Action, Actor, AuditEntry};
use logistics_proto::v1::{
    self as pb, quote_service_server::QuoteService, rate_card_service_server::RateCardService,
};
use service_common::violations::Violations;
use tonic::{Request, Response, Status};

use super::quote::{
    OptionClaim, PricedCard, QUOTE_AUDIENCE, QUOTE_VALID_DAYS, QuoteClaims, QuoteRequest,
    new_quote_id,
};
use super::{PUBLIC, RateCard, card_csv};
use crate::error::ShipmentError;
use crate::service::{ShipmentsService, verified};

/// How long a card read from the store prices quotes in this process; a save here evicts it
/// at once, a save through another replica shows within this.
const CARD_TTL: Duration = Duration::from_secs(1);
pub const QUOTES_UNAVAILABLE: &str = "Quotes are not available right now.";
pub const QUOTE_EXPIRED: &str = "This quote has expired. Get a new quote.";

/// The priced cards by id (`None`: no such card), each for `CARD_TTL` after it was read; the
/// quotes that find one expired wait for a single read of the store.
pub struct CardCache(moka::future::Cache<String, Option<Arc<PricedCard>>>);

impl Default for CardCache {
    fn default() -> Self {
        Self(
            moka::future::Cache::builder()
                .max_capacity(100_000)
                .time_to_live(CARD_TTL)
                .build(),
        )
    }
}

impl CardCache {
    fn clear(&self) {
        self.0.invalidate_all();
    }
}

/// A store without a public card gets the sample one, so quotes answer from the first start.
pub async fn ensure_public_card(
    store: &dyn crate::store::ShipmentStore,
) -> Result<(), ShipmentError> {
    if store.rate_card(PUBLIC).await?.is_none() {
        let mut card = super::sample_public_card();
        card.updated_at = Some(service_common::now());
        // Another replica starting at once may have saved it first: either copy is the same.
        store.save_rate_card(&card, 0, None).await?;
    }
    Ok(())
}

fn today() -> chrono::NaiveDate {
    service_common::now().date_naive()
}

fn card_id(id: &str) -> Result<String, ShipmentError> {
    let id = id.trim();
    if id == PUBLIC {
        Ok(PUBLIC.to_owned())
    } else {
        crate::service::id("id", id)
    }
}

impl ShipmentsService {
    /// A card ready to price, from the cache or the store (a discount card with its base).
    async fn priced(&self, id: &str) -> Result<Option<Arc<PricedCard>>, ShipmentError> {
        self.rate_cards
            .0
            .try_get_with_by_ref(id, async {
                match self.store.rate_card(id).await? {
                    None => Ok(None),
                    Some(card) if card.discount_bp > 0 => {
                        let base = Box::pin(self.priced(PUBLIC)).await?;
                        Ok(base.map(|base| Arc::new(PricedCard::new(card, Some(base)))))
                    }
                    Some(card) => Ok(Some(Arc::new(PricedCard::new(card, None)))),
                }
            })
            .await
            .map_err(|e: Arc<ShipmentError>| match &*e {
                ShipmentError::Unavailable(why) => ShipmentError::Unavailable(why.clone()),
                ShipmentError::Internal(why) => ShipmentError::Internal(why.clone()),
                other => ShipmentError::Internal(other.to_string()),
            })
    }

    /// The card that prices a customer's quotes today (their own while it is valid), or the
    /// public one's.
    async fn card_for(&self, customer_id: Option<&str>) -> Result<Arc<PricedCard>, ShipmentError> {
        let today = today();
        if let Some(id) = customer_id
            && let Some(card) = self.priced(id).await?
            && card.card.valid_on(today)
        {
            return Ok(card);
        }
        match self.priced(PUBLIC).await? {
            Some(card) if card.card.valid_on(today) => Ok(card),
            _ => Err(ShipmentError::Precondition(QUOTES_UNAVAILABLE.to_owned())),
        }
    }

    /// A bookable quote: priced, signed and good for `QUOTE_VALID_DAYS`.
    pub(crate) async fn quote(
        &self,
        request: &pb::CreateQuoteRequest,
        customer_id: Option<&str>,
    ) -> Result<pb::Quote, ShipmentError> {
        let mut v = Violations::default();
        let parsed = QuoteRequest::parse(request, "", &mut v);
        v.into_result(())
            .map_err(|v| ShipmentError::Rejected("quote", v))?;
        let priced = self.card_for(customer_id).await?;
        let options = priced.price(&parsed, today());
        let card = &priced.card;
        let own = customer_id.filter(|id| *id == card.id).unwrap_or_default();
        let claims = QuoteClaims {
            qid: new_quote_id(),
            cur: priced.currency().to_owned(),
            card: card.id.clone(),
            ver: card.version,
            cus: own.to_owned(),
            req: parsed.clone(),
            opts: options
                .iter()
                .map(|o| OptionClaim {
                    code: o.service_code.clone(),
                    name: o.service_name.clone(),
                    mode: o.mode,
                    price: o.price_minor,
                    kg: o.chargeable_weight_kg,
                })
                .collect(),
        };
        let lifetime = Duration::from_secs(QUOTE_VALID_DAYS as u64 * 24 * 3600);
        let expires = service_common::now() + chrono::Duration::days(QUOTE_VALID_DAYS);
        Ok(pb::Quote {
            id: claims.qid.clone(),
            token: self.tokens.sign_link(QUOTE_AUDIENCE, &claims, lifetime),
            expire_time: Some(service_common::timestamp::to_proto(expires)),
            currency: claims.cur,
            rate_card_id: card.id.clone(),
            rate_card_version: card.version as i32,
            options,
            request: Some(parsed.to_proto()),
        })
    }

    /// A customer's booking from a quote gets the quoted price of the chosen service, if the
    /// quote is still good, was made for them (or for anyone) and covers the shipment's weight.
    pub(crate) fn apply_quote(
        &self,
        shipment: &mut pb::Shipment,
        token: &str,
        service_code: &str,
        customer_id: &str,
    ) -> Result<String, ShipmentError> {
        let claims: QuoteClaims = self
            .tokens
            .verify_link(QUOTE_AUDIENCE, token.trim())
            .ok_or_else(|| ShipmentError::Precondition(QUOTE_EXPIRED.to_owned()))?;
        if !claims.cus.is_empty() && claims.cus != customer_id {
            return Err(ShipmentError::Precondition(QUOTE_EXPIRED.to_owned()));
        }
        let option = claims
            .opts
            .iter()
            .find(|o| o.code.eq_ignore_ascii_case(service_code.trim()))
            .ok_or_else(|| {
                ShipmentError::from(crate::error::FieldViolation::new(
                    "quote_service_code",
                    "is not a service of the quote",
                ))
            })?;
        let booked_g: u64 = shipment
            .packages
            .iter()
            .map(|p| super::grams(p.weight_kg.max(0.0)) * p.quantity.max(0) as u64)
            .sum();
        if booked_g > claims.req.actual_g() {
            return Err(ShipmentError::Precondition(
                "The shipment weighs more than the quote's parcels. Get a new quote for it."
                    .to_owned(),
            ));
        }
        shipment.total_freight_cents = option.price;
        if shipment.mode == pb::ShipmentMode::Unspecified as i32 {
            shipment.mode = option.mode;
        }
        Ok(claims.qid)
    }

    async fn customer_name(&self, id: &str) -> Result<String, ShipmentError> {
        if id == PUBLIC {
            return Ok(String::new());
        }
        Ok(self.store.get_customer(id).await?.name)
    }

    async fn saved_card(&self, id: &str) -> Result<RateCard, ShipmentError> {
        self.store
            .rate_card(id)
            .await?
            .ok_or(ShipmentError::RateCardNotFound)
    }
}

fn audit_entry(actor: &Actor, action: Action, card: &RateCard, name: &str) -> AuditEntry {
    let target = if card.is_public() {
        "Public rate card"
    } else {
        name
    };
    AuditEntry::new(actor, action, &card.id, target)
}

fn checked_card(card: Option<pb::RateCard>) -> Result<(RateCard, pb::RateCard), ShipmentError> {
    let mut input = card.unwrap_or_default();
    input.id = card_id(&input.id)?;
    let mut v = Violations::default();
    let card = RateCard::from_proto(&input, "rate_card.", &mut v);
    v.into_result((card, input))
        .map_err(|v| ShipmentError::Rejected("rate card", v))
}

#[tonic::async_trait]
impl RateCardService for ShipmentsService {
    #[tracing::instrument(skip_all)]
    async fn list_rate_cards(
        &self,
        request: Request<pb::ListRateCardsRequest>,
    ) -> Result<Response<pb::ListRateCardsResponse>, Status> {
        verified(&request)?;
        let mut cards = Vec::new();
        for card in self.store.rate_cards().await? {
            // A card outlives nothing: a customer's card without its customer is not listed.
            match self.customer_name(&card.id).await {
                Ok(name) => cards.push((card.is_public(), name, card)),
                Err(ShipmentError::CustomerNotFound) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        cards.sort_by(|a, b| {
            b.0.cmp(&a.0)
                .then_with(|| a.1.to_lowercase().cmp(&b.1.to_lowercase()))
        });
        Ok(Response::new(pb::ListRateCardsResponse {
            rate_cards: cards
                .iter()
                .map(|(_, name, card)| card.summary_proto(name))
                .collect(),
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn get_rate_card(
        &self,
        request: Request<pb::GetRateCardRequest>,
    ) -> Result<Response<pb::RateCard>, Status> {
        verified(&request)?;
        let id = card_id(&request.get_ref().id)?;
        let card = self.saved_card(&id).await?;
        let name = self
            .customer_name(&id)
            .await
            .map_err(|_| ShipmentError::RateCardNotFound)?;
        Ok(Response::new(card.to_proto(&name)))
    }

    #[tracing::instrument(skip_all)]
    async fn update_rate_card(
        &self,
        request: Request<pb::UpdateRateCardRequest>,
    ) -> Result<Response<pb::RateCard>, Status> {
        let (_, actor) = verified(&request)?;
        let (mut card, _) = checked_card(request.into_inner().rate_card)?;
        let name = self.customer_name(&card.id).await?;
        if !card.is_public() {
            // A customer's prices are in the company's currency, the public card's.
            card.currency = match self.store.rate_card(PUBLIC).await? {
                Some(public) => public.currency,
                None => super::sample_public_card().currency,
            };
        }
        let read = card.version;
        card.version = read + 1;
        card.updated_at = Some(service_common::now());
        card.updated_by.clone_from(&actor.email);
        let entry =
            audit_entry(&actor, Action::RateCardUpdate, &card, &name).with_summary(format!(
                "Version {}: {}",
                card.version,
                if card.discount_bp > 0 {
                    format!(
                        "{}% off the public card",
                        card_csv::format_percent(card.discount_bp)
                    )
                } else {
                    format!(
                        "{} zones, {} services, {} lanes",
                        card.zones.len(),
                        card.services.len(),
                        card.lanes.len()
                    )
                }
            ));
        if !self.store.save_rate_card(&card, read, Some(&entry)).await? {
            return Err(ShipmentError::Conflict(
                "This rate card was changed by someone else. Reload it to see their change."
                    .to_owned(),
            )
            .into());
        }
        self.rate_cards.clear();
        tracing::info!(id = %card.id, version = card.version, "rate card saved");
        Ok(Response::new(card.to_proto(&name)))
    }

    #[tracing::instrument(skip_all)]
    async fn delete_rate_card(
        &self,
        request: Request<pb::DeleteRateCardRequest>,
    ) -> Result<Response<()>, Status> {
        let (_, actor) = verified(&request)?;
        let id = card_id(&request.get_ref().id)?;
        if id == PUBLIC {
            return Err(ShipmentError::Precondition(
                "The public rate card cannot be deleted".to_owned(),
            )
            .into());
        }
        let card = self.saved_card(&id).await?;
        let name = self.customer_name(&id).await.unwrap_or_default();
        let entry = audit_entry(&actor, Action::RateCardDelete, &card, &name)
            .with_summary(format!("Version {} removed", card.version))
            .with_snapshot(&card);
        if !self.store.delete_rate_card(&id, &entry).await? {
            return Err(ShipmentError::RateCardNotFound.into());
        }
        self.rate_cards.clear();
        Ok(Response::new(()))
    }

    #[tracing::instrument(skip_all)]
    async fn export_rate_card(
        &self,
        request: Request<pb::ExportRateCardRequest>,
    ) -> Result<Response<pb::ExportRateCardResponse>, Status> {
        verified(&request)?;
        let id = card_id(&request.get_ref().id)?;
        let card = self.saved_card(&id).await?;
        Ok(Response::new(pb::ExportRateCardResponse {
            csv: card_csv::write(&card),
            file_name: format!("rate-card-{}-v{}.csv", card.id, card.version),
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn parse_rate_card_csv(
        &self,
        request: Request<pb::ParseRateCardCsvRequest>,
    ) -> Result<Response<pb::RateCard>, Status> {
        verified(&request)?;
        let request = request.into_inner();
        let id = card_id(&request.id)?;
        let mut v = Violations::default();
        let card = card_csv::read(&request.csv, &id, request.version, &mut v);
        let card = match card {
            Some(card) if v.is_empty() => card,
            _ => return Err(ShipmentError::Rejected("rate card file", v).into()),
        };
        let (checked, mut proto) = checked_card(Some(card))?;
        if checked.is_public() || checked.discount_bp == 0 {
            proto.customer_name = self.customer_name(&id).await.unwrap_or_default();
        }
        Ok(Response::new(proto))
    }

    #[tracing::instrument(skip_all)]
    async fn preview_quote(
        &self,
        request: Request<pb::PreviewQuoteRequest>,
    ) -> Result<Response<pb::Quote>, Status> {
        verified(&request)?;
        let request = request.into_inner();
        let mut v = Violations::default();
        let mut input = request.rate_card.unwrap_or_default();
        input.id = card_id(&input.id)?;
        let card = RateCard::from_proto(&input, "rate_card.", &mut v);
        let parsed = QuoteRequest::parse(&request.quote.unwrap_or_default(), "quote.", &mut v);
        v.into_result(())
            .map_err(|v| ShipmentError::Rejected("quote", v))?;
        let base = if card.discount_bp > 0 {
            Some(
                self.priced(PUBLIC)
                    .await?
                    .ok_or_else(|| ShipmentError::Precondition(QUOTES_UNAVAILABLE.to_owned()))?,
            )
        } else {
            None
        };
        let priced = PricedCard::new(card, base);
        Ok(Response::new(pb::Quote {
            currency: priced.currency().to_owned(),
            rate_card_id: priced.card.id.clone(),
            rate_card_version: priced.card.version as i32,
            options: priced.price(&parsed, today()),
            request: Some(parsed.to_proto()),
            ..pb::Quote::default()
        }))
    }
}

#[tonic::async_trait]
impl QuoteService for ShipmentsService {
    #[tracing::instrument(skip_all)]
    async fn create_quote(
        &self,
        request: Request<pb::CreateQuoteRequest>,
    ) -> Result<Response<pb::Quote>, Status> {
        Ok(Response::new(self.quote(request.get_ref(), None).await?))
    }
}
