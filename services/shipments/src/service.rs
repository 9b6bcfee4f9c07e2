//! The `logistics.v1.ShipmentService` RPC handlers.

use std::sync::Arc;
use std::time::Duration;

use logistics_proto::v1::{self as pb, shipment_service_server::ShipmentService};
use service_auth::TokenKey;
use tonic::{Request, Response, Status};

use crate::convert::{self, Violations};
use crate::domain::{HistoryRule, Shipment, ShipmentPatch, TrackingNumber, UPDATED_BY_ADMIN};
use crate::error::{FieldViolation, ShipmentError};
use crate::store::{Cursor, ListQuery, ShipmentStore};
use service_common::text::TextRule;

const DEFAULT_PAGE_SIZE: i32 = 20;
const MAX_PAGE_SIZE: i32 = 100;
/// Attempts at a free tracking number; with 10⁹ numbers a second collision is already rare.
const TRACKING_NUMBER_ATTEMPTS: usize = 8;

/// Recent public lookups, so a visitor refreshing a tracking page does not reach the store
/// each time. This process's writes evict at once; another replica's show within `ttl`.
#[derive(Clone)]
struct LookupCache(Option<moka::sync::Cache<TrackingNumber, Arc<pb::Shipment>>>);

impl LookupCache {
    const CAPACITY: u64 = 50_000;

    fn new(ttl: Duration) -> Self {
        Self((!ttl.is_zero()).then(|| {
            moka::sync::Cache::builder()
                .max_capacity(Self::CAPACITY)
                .time_to_live(ttl)
                .build()
        }))
    }

    fn get(&self, number: &TrackingNumber) -> Option<pb::Shipment> {
        self.0.as_ref()?.get(number).map(|hit| (*hit).clone())
    }

    fn put(&self, number: TrackingNumber, shipment: &pb::Shipment) {
        if let Some(cache) = &self.0 {
            cache.insert(number, Arc::new(shipment.clone()));
        }
    }

    fn evict(&self, number: &TrackingNumber) {
        if let Some(cache) = &self.0 {
            cache.invalidate(number);
        }
    }
}

#[derive(Clone)]
pub struct ShipmentsService {
    store: Arc<dyn ShipmentStore>,
    lookups: LookupCache,
    /// Verifies the service token of every method but the public lookup.
    tokens: TokenKey,
    /// For the tracking links of the shipment e-mails (`PUBLIC_URL`).
    public_url: String,
}

impl ShipmentsService {
    /// `lookup_cache_ttl` zero turns the lookup cache off.
    pub fn new(
        store: Arc<dyn ShipmentStore>,
        tokens: TokenKey,
        lookup_cache_ttl: Duration,
        public_url: String,
    ) -> Self {
        Self {
            store,
            lookups: LookupCache::new(lookup_cache_ttl),
            tokens,
            public_url,
        }
    }

    /// Applies an edit and evicts the shipment's cached lookup.
    async fn update(
        &self,
        id: &str,
        edit: crate::store::Edit,
    ) -> Result<pb::Shipment, ShipmentError> {
        let shipment = self.store.update(id, edit).await?;
        self.lookups.evict(&shipment.tracking_number);
        Ok(convert::shipment_to_proto(&shipment))
    }

    /// Writes a new shipment booked at `at`, drawing another tracking number on a collision.
    pub async fn create(
        &self,
        details: crate::domain::ShipmentDetails,
        at: chrono::DateTime<chrono::Utc>,
    ) -> Result<Shipment, ShipmentError> {
        for _ in 0..TRACKING_NUMBER_ATTEMPTS {
            let shipment = Shipment::create(details.clone(), TrackingNumber::generate(), at);
            let emails = crate::emails::notifications(&shipment, &self.public_url);
            match self.store.insert(&shipment, &emails).await {
                Ok(()) => return Ok(shipment),
                Err(ShipmentError::DuplicateTrackingNumber) => continue,
                Err(e) => return Err(e),
            }
        }
        Err(ShipmentError::Internal(
            "no free tracking number found".into(),
        ))
    }
}

fn id(field: &str, value: &str) -> Result<String, ShipmentError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(FieldViolation::new(field, "is required").into());
    }
    if value.len() > 64
        || !value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        // No such id can exist; say so without reaching the store.
        return Err(ShipmentError::NotFound);
    }
    Ok(value.to_owned())
}

fn page_token(token: &str) -> Result<Option<Cursor>, ShipmentError> {
    Ok(service_common::store::page_token::decode(token)?.map(Cursor))
}

fn encode_page_token(cursor: &Cursor) -> String {
    service_common::store::page_token::encode(&cursor.0)
}

#[tonic::async_trait]
impl ShipmentService for ShipmentsService {
    #[tracing::instrument(skip_all)]
    async fn create_shipment(
        &self,
        request: Request<pb::CreateShipmentRequest>,
    ) -> Result<Response<pb::Shipment>, Status> {
        self.tokens.admin(&request)?;
        let request = request.into_inner();
        let now = crate::domain::now();
        let mut v = Violations::default();
        let booked = v.past_time("create_time", request.create_time.as_ref(), now);
        let details = convert::details_from_proto(&request.shipment.unwrap_or_default());
        let details = match (details, v.into_result(())) {
            (Ok(details), Ok(())) => details,
            (details, booked) => {
                let mut all = details.err().unwrap_or_default();
                all.extend(booked.err().into_iter().flatten());
                return Err(ShipmentError::Invalid(all).into());
            }
        };
        let shipment = self.create(details, booked.unwrap_or(now)).await?;
        tracing::info!(tracking_number = %shipment.tracking_number, "shipment created");
        Ok(Response::new(convert::shipment_to_proto(&shipment)))
    }

    #[tracing::instrument(skip_all, fields(id = %request.get_ref().id))]
    async fn get_shipment(
        &self,
        request: Request<pb::GetShipmentRequest>,
    ) -> Result<Response<pb::Shipment>, Status> {
        self.tokens.admin(&request)?;
        let id = id("id", &request.get_ref().id)?;
        let shipment = self.store.get(&id).await?;
        Ok(Response::new(convert::shipment_to_proto(&shipment)))
    }

    #[tracing::instrument(skip_all)]
    async fn get_shipment_by_tracking_number(
        &self,
        request: Request<pb::GetShipmentByTrackingNumberRequest>,
    ) -> Result<Response<pb::Shipment>, Status> {
        let number = TrackingNumber::parse(&request.get_ref().tracking_number)
            .map_err(ShipmentError::from)?;
        if let Some(hit) = self.lookups.get(&number) {
            return Ok(Response::new(hit));
        }
        let shipment =
            convert::shipment_to_proto(&self.store.find_by_tracking_number(&number).await?);
        self.lookups.put(number, &shipment);
        Ok(Response::new(shipment))
    }

    #[tracing::instrument(skip_all)]
    async fn list_shipments(
        &self,
        request: Request<pb::ListShipmentsRequest>,
    ) -> Result<Response<pb::ListShipmentsResponse>, Status> {
        self.tokens.admin(&request)?;
        let request = request.into_inner();
        let mut v = Violations::default();
        let page_size = match request.page_size {
            0 => DEFAULT_PAGE_SIZE,
            n if (1..=MAX_PAGE_SIZE).contains(&n) => n,
            _ => {
                v.add("page_size", format!("must be from 1 to {MAX_PAGE_SIZE}"));
                DEFAULT_PAGE_SIZE
            }
        };
        let status = (request.status != 0)
            .then(|| convert::status_from_proto("status", request.status, &mut v));
        let text = v
            .text("query", &request.query, TextRule::line(200).optional())
            .to_lowercase();
        v.into_result(()).map_err(ShipmentError::Invalid)?;
        let query = ListQuery {
            status,
            text: (!text.is_empty()).then_some(text),
            page_size: page_size as usize,
            after: page_token(&request.page_token)?,
        };
        let page = self.store.list(&query).await?;
        Ok(Response::new(pb::ListShipmentsResponse {
            shipments: page
                .shipments
                .iter()
                .map(convert::shipment_to_proto)
                .collect(),
            next_page_token: page
                .next
                .as_ref()
                .map(encode_page_token)
                .unwrap_or_default(),
            total_size: i32::try_from(page.total).unwrap_or(i32::MAX),
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn update_shipment(
        &self,
        request: Request<pb::UpdateShipmentRequest>,
    ) -> Result<Response<pb::Shipment>, Status> {
        self.tokens.admin(&request)?;
        let request = request.into_inner();
        let input = request.shipment.unwrap_or_default();
        let id = id("shipment.id", &input.id)?;
        let paths = request.update_mask.map(|m| m.paths).unwrap_or_default();
        let patch = convert::patch_from_proto(&paths, &input, &request.remarks)
            .map_err(ShipmentError::Invalid)?;
        let edit = Arc::new(move |shipment: &mut Shipment| {
            shipment.apply(&patch, UPDATED_BY_ADMIN, crate::domain::now());
            Ok(())
        });
        Ok(Response::new(self.update(&id, edit).await?))
    }

    #[tracing::instrument(skip_all, fields(id = %request.get_ref().id))]
    async fn update_shipment_tracking(
        &self,
        request: Request<pb::UpdateShipmentTrackingRequest>,
    ) -> Result<Response<pb::Shipment>, Status> {
        self.tokens.admin(&request)?;
        let request = request.into_inner();
        let id = id("id", &request.id)?;
        let mut v = Violations::default();
        let patch = ShipmentPatch {
            status: Some(convert::status_from_proto("status", request.status, &mut v)),
            current_location: Some(v.text(
                "current_location",
                &request.current_location,
                TextRule::line(200),
            )),
            remarks: v.text("remarks", &request.remarks, TextRule::line(500).optional()),
            history: HistoryRule::AlwaysRecord,
            event_time: v.past_time(
                "event_time",
                request.event_time.as_ref(),
                crate::domain::now(),
            ),
            ..ShipmentPatch::default()
        };
        v.into_result(()).map_err(ShipmentError::Invalid)?;
        let edit = Arc::new(move |shipment: &mut Shipment| {
            let last = shipment
                .shipment_history
                .last()
                .map(|entry| entry.timestamp);
            if let (Some(at), Some(last)) = (patch.event_time, last)
                && at < last
            {
                return Err(ShipmentError::Invalid(vec![FieldViolation::new(
                    "event_time",
                    "must not be before the shipment's last history entry",
                )]));
            }
            shipment.apply(&patch, UPDATED_BY_ADMIN, crate::domain::now());
            Ok(())
        });
        Ok(Response::new(self.update(&id, edit).await?))
    }

    #[tracing::instrument(skip_all, fields(id = %request.get_ref().id))]
    async fn delete_shipment(
        &self,
        request: Request<pb::DeleteShipmentRequest>,
    ) -> Result<Response<()>, Status> {
        self.tokens.admin(&request)?;
        let id = id("id", &request.get_ref().id)?;
        let deleted = self.store.delete(&id).await?;
        self.lookups.evict(&deleted.tracking_number);
        tracing::info!(tracking_number = %deleted.tracking_number, "shipment deleted");
        Ok(Response::new(()))
    }
}
