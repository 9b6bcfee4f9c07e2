//! The `logistics.v1.ShipmentService` RPC handlers.

use crate::convert::TimeChecks;
use std::sync::Arc;
use std::time::Duration;

use audit::{Action, Actor, AuditEntry};
use logistics_proto::v1::{self as pb, shipment_service_server::ShipmentService};
use service_auth::{Caller, Permission, TokenKey};
use tonic::{Request, Response, Status};

use crate::blobs::BlobStore;
use crate::convert;
use crate::domain::{HistoryRule, RequestId, Shipment, ShipmentPatch, TrackingNumber};
use crate::error::{FieldViolation, ShipmentError, Violations};
use crate::privacy::PublicDetails;
use crate::store::{Cursor, Effects, ListQuery, Order, ShipmentStore};
use crate::updates::Links;
use service_common::paging;
use service_common::text::TextRule;

const DEFAULT_PAGE_SIZE: usize = 20;
/// Shipments per page of an export: large enough to be quick, small enough to keep little.
/// The dashboard's daily series: the last 30 days.
const STATISTICS_DAYS: u32 = 30;
const MAX_PAGE_SIZE: usize = 100;
/// Attempts at a free tracking number; with 10⁹ numbers a second collision is already rare.
pub(crate) const TRACKING_NUMBER_ATTEMPTS: usize = 8;

/// Recent public lookups, so a visitor refreshing a tracking page does not reach the store
/// each time. This process's writes evict at once; another replica's show within `ttl`.
#[derive(Clone)]
pub(crate) struct LookupCache(Option<moka::sync::Cache<TrackingNumber, Arc<pb::Shipment>>>);

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

    /// Keeps a shipment just read after a change (on any replica) in place of the cached one.
    pub(crate) fn refresh(&self, shipment: &pb::Shipment) {
        if let (Some(cache), Ok(number)) =
            (&self.0, TrackingNumber::parse(&shipment.tracking_number))
            && cache.contains_key(&number)
        {
            cache.insert(number, Arc::new(shipment.clone()));
        }
    }

    fn evict(&self, number: &TrackingNumber) {
        if let Some(cache) = &self.0 {
            cache.invalidate(number);
        }
    }
}

/// How the public side of the service behaves (from its settings).
#[derive(Clone, Debug)]
pub struct PublicPolicy {
    pub details: PublicDetails,
    /// Verification attempts per tracking number per hour, from all clients together.
    pub verify_attempts_per_hour: u64,
    /// Confirmation e-mails one address may receive per day.
    pub confirmations_per_address_per_day: u64,
    pub subscribers_per_shipment: usize,
    /// How long a verified browser keeps the full view.
    pub access_lifetime: Duration,
    /// "Send me a link" e-mails per party per shipment per hour.
    pub access_links_per_hour: u64,
}

#[derive(Clone)]
pub struct ShipmentsService {
    pub(crate) store: Arc<dyn ShipmentStore>,
    /// Proof-of-delivery images and the parts of files being imported.
    pub(crate) blobs: Arc<dyn BlobStore>,
    /// One change to an import at a time in this process (its parts arrive in order).
    pub(crate) imports_lock: Arc<tokio::sync::Mutex<()>>,
    pub(crate) lookups: LookupCache,
    /// The shipments open tracking pages watch.
    pub(crate) live: Arc<crate::live::Live>,
    /// Verifies the service token of every method but the public ones, and signs links.
    pub(crate) tokens: TokenKey,
    /// The signed links of the shipment e-mails (`PUBLIC_URL`).
    pub(crate) links: Links,
    pub(crate) policy: PublicPolicy,
    pub(crate) imports: crate::import::ImportPolicy,
    /// The carrier of customers' bookings: the company's name (`BRAND_FILE`).
    pub(crate) company_name: String,
    /// The rate cards quotes are priced from, as last read.
    pub(crate) rate_cards: Arc<crate::rates::api::CardCache>,
}

impl ShipmentsService {
    /// `lookup_cache_ttl` zero turns the lookup cache off.
    pub fn new(
        store: Arc<dyn ShipmentStore>,
        blobs: Arc<dyn BlobStore>,
        tokens: TokenKey,
        lookup_cache_ttl: Duration,
        public_url: String,
        policy: PublicPolicy,
    ) -> Self {
        Self {
            store,
            blobs,
            imports_lock: Arc::default(),
            lookups: LookupCache::new(lookup_cache_ttl),
            live: Arc::default(),
            links: Links {
                public_url,
                tokens: tokens.clone(),
            },
            tokens,
            policy,
            imports: crate::import::ImportPolicy::default(),
            company_name: service_common::settings::SPEC_COMPANY_NAME.to_owned(),
            rate_cards: Arc::default(),
        }
    }

    /// The service whose company, the carrier of customers' bookings, is `name`.
    pub fn with_company_name(mut self, name: String) -> Self {
        self.company_name = name;
        self
    }

    /// The service with these bounds on imports.
    pub fn with_imports(mut self, imports: crate::import::ImportPolicy) -> Self {
        self.imports = imports;
        self
    }

    /// Applies a save by `actor` and evicts the shipment's cached lookup; in the same
    /// transaction it records the change in the audit log and, for a change of status,
    /// writes the e-mails the admin's rules ask for.
    pub(crate) async fn update(
        &self,
        id: &str,
        patch: ShipmentPatch,
        actor: Actor,
    ) -> Result<pb::Shipment, ShipmentError> {
        let rules = self.store.email_rules().await?;
        let links = self.links.clone();
        // Only a move can e-mail the customer's users: read them for moves alone.
        let watchers = match patch.status {
            Some(_) => {
                let customer = self.store.get(id).await?.details.customer_id;
                if customer.is_empty() {
                    Vec::new()
                } else {
                    self.store.watchers(&customer).await?
                }
            }
            None => Vec::new(),
        };
        let request_id = patch.request_id.clone();
        let edit: crate::store::Edit = Arc::new(move |shipment: &mut Shipment| {
            // A repeat comes before the order check: an event sent again is not out of order.
            if let Some(request_id) = &patch.request_id
                && shipment.has_applied(request_id)
            {
                return Err(ShipmentError::AlreadyApplied);
            }
            let last = shipment
                .shipment_history
                .last()
                .map(|entry| entry.timestamp);
            if let (Some(at), Some(last)) = (patch.event_time, last)
                && at < last
            {
                return Err(ShipmentError::from(FieldViolation::new(
                    "event_time",
                    "must not be before the shipment's last history entry",
                )));
            }
            let before = shipment.clone();
            let now = crate::domain::now();
            shipment.apply(&patch, &actor.email, now);
            let at = patch.event_time.unwrap_or(now);
            let emails = crate::updates::status_change_emails(
                before.status,
                shipment,
                &rules,
                &watchers,
                &links,
                at,
            );
            Ok(Effects {
                emails,
                events: crate::webhooks::changed(&before, shipment, &patch.remarks, now),
                audit: vec![change_entry(&actor, &before, shipment, &patch.remarks)],
                claims: Vec::new(),
            })
        });
        let shipment = match self.store.update(id, edit).await {
            Err(ShipmentError::AlreadyApplied) => {
                tracing::info!(?request_id, "event already applied");
                return Ok(convert::shipment_to_proto(&self.store.get(id).await?));
            }
            written => written?,
        };
        self.lookups.evict(&shipment.tracking_number);
        Ok(convert::shipment_to_proto(&shipment))
    }

    /// Drops the cached lookup of a shipment this process changed.
    pub(crate) fn forget_lookup(&self, number: &TrackingNumber) {
        self.lookups.evict(number);
    }

    /// Edits a shipment's subscribers and used confirmations (which no lookup shows, so
    /// nothing to evict).
    pub(crate) async fn edit_subscribers(
        &self,
        id: &str,
        edit: impl Fn(&mut Shipment) -> Result<(), ShipmentError> + Send + Sync + 'static,
    ) -> Result<(), ShipmentError> {
        let edit: crate::store::Edit = Arc::new(move |shipment: &mut Shipment| {
            edit(shipment)?;
            Ok(Effects::default())
        });
        self.store.update(id, edit).await.map(|_| ())
    }

    /// The whole shipment with this number, from memory when it was looked up just now.
    pub(crate) async fn lookup(
        &self,
        number: &TrackingNumber,
    ) -> Result<pb::Shipment, ShipmentError> {
        if let Some(hit) = self.lookups.get(number) {
            return Ok(hit);
        }
        let shipment =
            convert::shipment_to_proto(&self.store.find_by_tracking_number(number).await?);
        self.lookups.put(number.clone(), &shipment);
        Ok(shipment)
    }

    /// One page of the list `query` asks for, as the API answers it.
    pub(crate) async fn list_page(
        &self,
        query: &ListQuery,
        to_proto: fn(&Shipment) -> pb::Shipment,
    ) -> Result<pb::ListShipmentsResponse, ShipmentError> {
        let page = self.store.list(query).await?;
        Ok(pb::ListShipmentsResponse {
            shipments: page.shipments.iter().map(to_proto).collect(),
            next_page_token: page
                .next
                .as_ref()
                .map(encode_page_token)
                .unwrap_or_default(),
            total_size: i32::try_from(page.total).unwrap_or(i32::MAX),
        })
    }

    /// Writes a new shipment booked at `at` by `actor`, with its audit entry, drawing
    /// another tracking number on a collision.
    pub async fn create(
        &self,
        details: crate::domain::ShipmentDetails,
        external_reference: String,
        at: chrono::DateTime<chrono::Utc>,
        actor: &Actor,
    ) -> Result<Shipment, ShipmentError> {
        let rules = self.store.email_rules().await?;
        let claims: Vec<String> = if external_reference.is_empty() {
            Vec::new()
        } else {
            vec![crate::claims::reference(&external_reference)]
        };
        for _ in 0..TRACKING_NUMBER_ATTEMPTS {
            let mut shipment = Shipment::create(
                details.clone(),
                TrackingNumber::generate(),
                at,
                &actor.email,
            );
            shipment.external_reference = external_reference.clone();
            let effects = Effects {
                emails: crate::emails::notifications(&shipment, &self.links, &rules),
                events: crate::webhooks::created(&shipment, crate::domain::now()),
                audit: vec![
                    AuditEntry::new(
                        actor,
                        Action::ShipmentCreate,
                        &shipment.id,
                        shipment.tracking_number.as_str(),
                    )
                    .with_summary(format!(
                        "{} → {}",
                        shipment.details.origin, shipment.details.destination
                    )),
                ],
                claims: claims.clone(),
            };
            match self.store.insert(&shipment, &effects).await {
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

/// The fields of a shipment that are its record, not its bookkeeping: what an update's audit
/// entry compares.
const NOT_AUDITED: &[&str] = &["shipmentHistory", "updatedAt", "subscribers"];

/// The audit entry of one save: a status change or an update, with each changed field.
fn change_entry(actor: &Actor, before: &Shipment, after: &Shipment, remarks: &str) -> AuditEntry {
    let changes = audit::diff(before, after, NOT_AUDITED);
    let (action, mut summary) = if before.status != after.status {
        (
            Action::ShipmentStatusChange,
            format!(
                "Status: {} → {}",
                crate::updates::status_label(before.status),
                crate::updates::status_label(after.status)
            ),
        )
    } else {
        // The changed fields are the entry's changes, which the back office names by their labels.
        (Action::ShipmentUpdate, String::new())
    };
    if !remarks.is_empty() {
        summary = if summary.is_empty() {
            format!("({remarks})")
        } else {
            format!("{summary} ({remarks})")
        };
    }
    AuditEntry::new(actor, action, &after.id, after.tracking_number.as_str())
        .with_changes(changes)
        .with_summary(summary)
}

/// Each event's rule, defaults included, so an audit entry compares what takes effect.
fn every_rule(
    rules: &crate::updates::EmailRules,
) -> std::collections::BTreeMap<crate::updates::Event, crate::updates::EmailRule> {
    crate::updates::Event::ALL
        .iter()
        .map(|&event| (event, rules.rule(event)))
        .collect()
}

/// A call's caller, as the access layer verified it, and who they are for the audit log.
pub(crate) fn verified<T>(request: &Request<T>) -> Result<(Caller, Actor), Status> {
    let caller = service_auth::access::caller(request)?;
    let actor = Actor::of(request, &caller);
    Ok((caller, actor))
}

/// One tracking event's shipment id and change, checked field by field.
pub(crate) fn tracking_event(
    request: &pb::UpdateShipmentTrackingRequest,
) -> Result<(String, ShipmentPatch), ShipmentError> {
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
        remarks_public: request.remarks_public,
        history: HistoryRule::AlwaysRecord,
        event_time: v.past_time(
            "event_time",
            request.event_time.as_ref(),
            crate::domain::now(),
        ),
        failed_attempt: convert::attempt_failure_from_proto(
            "failed_attempt",
            request.failed_attempt,
            &mut v,
        ),
        request_id: RequestId::parse(&request.request_id).unwrap_or_else(|description| {
            v.add("request_id", description);
            None
        }),
        ..ShipmentPatch::default()
    };
    if patch.failed_attempt.is_some() && patch.status == Some(crate::domain::Status::Delivered) {
        v.add(
            "failed_attempt",
            "A delivered shipment has no failed attempt: choose another status",
        );
    }
    v.into_result((id, patch)).map_err(ShipmentError::Invalid)
}

pub(crate) fn id(field: &str, value: &str) -> Result<String, ShipmentError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(FieldViolation::new(field, "is required").into());
    }
    if !service_common::could_be_id(value) {
        // No such id can exist; say so without reaching the store.
        return Err(ShipmentError::NotFound);
    }
    Ok(value.to_owned())
}

/// The store's query for a list request; `prefix` names its fields inside another request
/// (`filter.`).
pub(crate) fn list_query(
    request: &pb::ListShipmentsRequest,
    prefix: &str,
) -> Result<ListQuery, ShipmentError> {
    let mut v = Violations::default();
    let page_size = paging::page_size_of(
        format!("{prefix}page_size"),
        request.page_size,
        DEFAULT_PAGE_SIZE,
        MAX_PAGE_SIZE,
    )
    .unwrap_or_else(|bad| {
        v.add(bad.field, bad.description);
        DEFAULT_PAGE_SIZE
    });
    let status = (request.status != 0)
        .then(|| convert::status_from_proto(&format!("{prefix}status"), request.status, &mut v));
    let text = crate::search::fold(&v.text(
        &format!("{prefix}query"),
        &request.query,
        TextRule::line(200).optional(),
    ));
    let from = v.optional_date(
        &format!("{prefix}create_date_from"),
        request.create_date_from.as_ref(),
    );
    let to = v.optional_date(
        &format!("{prefix}create_date_to"),
        request.create_date_to.as_ref(),
    );
    if let (Some(from), Some(to)) = (from, to)
        && to < from
    {
        v.add(
            format!("{prefix}create_date_to"),
            "must not be before create_date_from",
        );
    }
    let order = match request.order_by.trim() {
        "" | "create_time desc" => Order::NewestFirst,
        "create_time" | "create_time asc" => Order::OldestFirst,
        "expected_delivery_date" | "expected_delivery_date asc" => Order::ExpectedDelivery,
        "expected_delivery_date desc" => Order::ExpectedDeliveryLastFirst,
        _ => {
            v.add(
                format!("{prefix}order_by"),
                "must be create_time or expected_delivery_date, optionally followed by desc",
            );
            Order::NewestFirst
        }
    };
    v.into_result(()).map_err(ShipmentError::Invalid)?;
    let start_of = |day: chrono::NaiveDate| day.and_time(chrono::NaiveTime::MIN).and_utc();
    let labelled = crate::domain::Status::ALL
        .into_iter()
        .filter(|s| {
            !text.is_empty()
                && !s.as_str().contains(text.as_str())
                && crate::search::fold(crate::updates::status_label(*s)).contains(text.as_str())
        })
        .collect();
    let query = ListQuery {
        status,
        labelled,
        created_from: from.map(start_of),
        created_before: to.map(|day| start_of(day + chrono::Days::new(1))),
        late_on: request.late.then(|| crate::domain::now().date_naive()),
        customer: (!request.customer_id.trim().is_empty())
            .then(|| id(&format!("{prefix}customer_id"), &request.customer_id))
            .transpose()?,
        round: None,
        order,
        text: (!text.is_empty()).then_some(text),
        page_size,
        after: page_token(&request.page_token)?,
    };
    Ok(query)
}

fn page_token(token: &str) -> Result<Option<Cursor>, ShipmentError> {
    Ok(paging::decode(token)?.map(Cursor))
}

fn encode_page_token(cursor: &Cursor) -> String {
    paging::encode(&cursor.0)
}

#[tonic::async_trait]
impl ShipmentService for ShipmentsService {
    #[tracing::instrument(skip_all)]
    async fn create_shipment(
        &self,
        request: Request<pb::CreateShipmentRequest>,
    ) -> Result<Response<pb::Shipment>, Status> {
        let (_, actor) = verified(&request)?;
        let request = request.into_inner();
        let now = crate::domain::now();
        let mut v = Violations::default();
        let booked = v.past_time("create_time", request.create_time.as_ref(), now);
        let input = request.shipment.unwrap_or_default();
        let reference = v.text(
            "shipment.external_reference",
            &input.external_reference,
            service_common::text::TextRule::line(100).optional(),
        );
        let details = convert::details_from_proto(&input);
        let details = match (details, v.into_result(())) {
            (Ok(details), Ok(())) => details,
            (details, booked) => {
                let mut all = details.err().unwrap_or_default();
                all.extend(booked.err().into_iter().flatten());
                return Err(ShipmentError::Invalid(all).into());
            }
        };
        self.check_customer(&details.customer_id).await?;
        let shipment = self
            .create(details, reference, booked.unwrap_or(now), &actor)
            .await?;
        tracing::info!(tracking_number = %shipment.tracking_number, "shipment created");
        Ok(Response::new(convert::shipment_to_proto(&shipment)))
    }

    #[tracing::instrument(skip_all, fields(id = %request.get_ref().id))]
    async fn get_shipment(
        &self,
        request: Request<pb::GetShipmentRequest>,
    ) -> Result<Response<pb::Shipment>, Status> {
        let id = id("id", &request.get_ref().id)?;
        let shipment = self.store.get(&id).await?;
        Ok(Response::new(convert::staff_shipment_to_proto(&shipment)))
    }

    #[tracing::instrument(skip_all)]
    async fn get_shipment_by_tracking_number(
        &self,
        request: Request<pb::GetShipmentByTrackingNumberRequest>,
    ) -> Result<Response<pb::Shipment>, Status> {
        Ok(self.track(request).await?)
    }

    type WatchShipmentStream = crate::live::WatchStream;

    #[tracing::instrument(skip_all)]
    async fn watch_shipment(
        &self,
        request: Request<pb::WatchShipmentRequest>,
    ) -> Result<Response<Self::WatchShipmentStream>, Status> {
        Ok(self.watch(request).await?)
    }

    type WatchShipmentChangesStream = crate::live::ChangesStream;

    #[tracing::instrument(skip_all)]
    async fn watch_shipment_changes(
        &self,
        _request: Request<pb::WatchShipmentChangesRequest>,
    ) -> Result<Response<Self::WatchShipmentChangesStream>, Status> {
        Ok(self.watch_changes()?)
    }

    #[tracing::instrument(skip_all)]
    async fn verify_tracking_access(
        &self,
        request: Request<pb::VerifyTrackingAccessRequest>,
    ) -> Result<Response<pb::Shipment>, Status> {
        Ok(self.verify(request.into_inner()).await?)
    }

    #[tracing::instrument(skip_all)]
    async fn send_tracking_access_link(
        &self,
        request: Request<pb::SendTrackingAccessLinkRequest>,
    ) -> Result<Response<pb::SendTrackingAccessLinkResponse>, Status> {
        self.send_access_link(request.into_inner()).await?;
        Ok(Response::new(pb::SendTrackingAccessLinkResponse {}))
    }

    #[tracing::instrument(skip_all)]
    async fn subscribe_to_shipment(
        &self,
        request: Request<pb::SubscribeToShipmentRequest>,
    ) -> Result<Response<pb::SubscribeToShipmentResponse>, Status> {
        self.subscribe(request.into_inner()).await?;
        Ok(Response::new(pb::SubscribeToShipmentResponse {}))
    }

    #[tracing::instrument(skip_all)]
    async fn confirm_shipment_subscription(
        &self,
        request: Request<pb::ConfirmShipmentSubscriptionRequest>,
    ) -> Result<Response<pb::ShipmentSubscription>, Status> {
        Ok(Response::new(self.confirm(&request.get_ref().token).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn delete_shipment_subscription(
        &self,
        request: Request<pb::DeleteShipmentSubscriptionRequest>,
    ) -> Result<Response<pb::ShipmentSubscription>, Status> {
        Ok(Response::new(
            self.unsubscribe(&request.get_ref().token).await?,
        ))
    }

    #[tracing::instrument(skip_all)]
    async fn get_tracking_email_settings(
        &self,
        _request: Request<pb::GetTrackingEmailSettingsRequest>,
    ) -> Result<Response<pb::TrackingEmailSettings>, Status> {
        let rules = self.store.email_rules().await?;
        Ok(Response::new(convert::email_rules_to_proto(&rules)))
    }

    #[tracing::instrument(skip_all)]
    async fn update_tracking_email_settings(
        &self,
        request: Request<pb::UpdateTrackingEmailSettingsRequest>,
    ) -> Result<Response<pb::TrackingEmailSettings>, Status> {
        let (_, actor) = verified(&request)?;
        let input = request.into_inner().settings.unwrap_or_default();
        let before = self.store.email_rules().await?;
        let mut rules = before.clone();
        convert::apply_email_rules(&input, &mut rules).map_err(ShipmentError::Invalid)?;
        let entry = AuditEntry::new(
            &actor,
            Action::SettingsUpdate,
            "tracking_emails",
            "Tracking e-mails",
        )
        .with_changes(audit::diff(&every_rule(&before), &every_rule(&rules), &[]));
        self.store.set_email_rules(&rules, &entry).await?;
        tracing::info!("tracking e-mail settings saved");
        Ok(Response::new(convert::email_rules_to_proto(&rules)))
    }

    #[tracing::instrument(skip_all)]
    async fn list_shipments(
        &self,
        request: Request<pb::ListShipmentsRequest>,
    ) -> Result<Response<pb::ListShipmentsResponse>, Status> {
        let query = list_query(&request.into_inner(), "")?;
        Ok(Response::new(
            self.list_page(&query, convert::staff_shipment_to_proto)
                .await?,
        ))
    }

    #[tracing::instrument(skip_all)]
    async fn batch_update_shipment_tracking(
        &self,
        request: Request<pb::BatchUpdateShipmentTrackingRequest>,
    ) -> Result<Response<pb::BatchUpdateShipmentTrackingResponse>, Status> {
        let (_, actor) = verified(&request)?;
        Ok(Response::new(
            self.batch_update_tracking(request.into_inner(), actor)
                .await?,
        ))
    }

    type ExportShipmentsStream = crate::export::CsvStream;

    #[tracing::instrument(skip_all)]
    async fn export_shipments(
        &self,
        request: Request<pb::ExportShipmentsRequest>,
    ) -> Result<Response<Self::ExportShipmentsStream>, Status> {
        let filter = request.into_inner().filter.unwrap_or_default();
        let query = list_query(&filter, "filter.")?;
        Ok(Response::new(crate::export::stream(
            self.store.clone(),
            query,
        )))
    }

    #[tracing::instrument(skip_all)]
    async fn create_shipment_import(
        &self,
        request: Request<pb::CreateShipmentImportRequest>,
    ) -> Result<Response<pb::ShipmentImport>, Status> {
        let (_, actor) = verified(&request)?;
        let record = self.create_import(request.into_inner(), &actor).await?;
        Ok(Response::new(record.to_proto()))
    }

    #[tracing::instrument(skip_all, fields(import = %request.get_ref().import_id))]
    async fn append_shipment_import_data(
        &self,
        request: Request<pb::AppendShipmentImportDataRequest>,
    ) -> Result<Response<pb::ShipmentImport>, Status> {
        let record = self.append_import_data(request.into_inner()).await?;
        Ok(Response::new(record.to_proto()))
    }

    #[tracing::instrument(skip_all, fields(import = %request.get_ref().import_id))]
    async fn start_shipment_import(
        &self,
        request: Request<pb::StartShipmentImportRequest>,
    ) -> Result<Response<pb::ShipmentImport>, Status> {
        let (_, actor) = verified(&request)?;
        let record = self.start_import(request.into_inner(), actor).await?;
        Ok(Response::new(record.to_proto()))
    }

    #[tracing::instrument(skip_all, fields(import = %request.get_ref().import_id))]
    async fn get_shipment_import(
        &self,
        request: Request<pb::GetShipmentImportRequest>,
    ) -> Result<Response<pb::ShipmentImport>, Status> {
        let record = self.get_import(&request.get_ref().import_id).await?;
        Ok(Response::new(record.to_proto()))
    }

    #[tracing::instrument(skip_all)]
    async fn list_shipment_imports(
        &self,
        request: Request<pb::ListShipmentImportsRequest>,
    ) -> Result<Response<pb::ListShipmentImportsResponse>, Status> {
        Ok(Response::new(self.list_imports(request.get_ref()).await?))
    }

    type ExportShipmentImportRejectionsStream = Self::ExportShipmentsStream;

    #[tracing::instrument(skip_all, fields(import = %request.get_ref().import_id))]
    async fn export_shipment_import_rejections(
        &self,
        request: Request<pb::ExportShipmentImportRejectionsRequest>,
    ) -> Result<Response<Self::ExportShipmentImportRejectionsStream>, Status> {
        let (_, parts) = self.import_report(&request.get_ref().import_id).await?;
        let blobs = self.blobs.clone();
        // One part at a time: a report of 100,000 rows never sits in memory whole.
        let stream = futures::StreamExt::then(futures::stream::iter(parts), move |part: String| {
            let blobs = blobs.clone();
            async move {
                match blobs.get(&part).await {
                    Ok(Some(csv)) => Ok(pb::ExportShipmentsResponse { csv }),
                    Ok(None) => Err(Status::not_found("Import not found")),
                    Err(e) => Err(Status::from(e)),
                }
            }
        });
        Ok(Response::new(Box::pin(stream)))
    }

    #[tracing::instrument(skip_all)]
    async fn assign_shipments_to_courier(
        &self,
        request: Request<pb::AssignShipmentsToCourierRequest>,
    ) -> Result<Response<pb::AssignShipmentsToCourierResponse>, Status> {
        let (_, actor) = verified(&request)?;
        Ok(Response::new(
            self.assign_to_courier(request.get_ref(), actor).await?,
        ))
    }

    #[tracing::instrument(skip_all)]
    async fn list_courier_stops(
        &self,
        request: Request<pb::ListCourierStopsRequest>,
    ) -> Result<Response<pb::ListCourierStopsResponse>, Status> {
        let (_, actor) = verified(&request)?;
        Ok(Response::new(
            self.courier_stops(request.get_ref(), &actor.id).await?,
        ))
    }

    #[tracing::instrument(skip_all, fields(id = %request.get_ref().id))]
    async fn record_proof_of_delivery(
        &self,
        request: Request<pb::RecordProofOfDeliveryRequest>,
    ) -> Result<Response<pb::Shipment>, Status> {
        let (_, actor) = verified(&request)?;
        Ok(Response::new(
            self.record_proof_of_delivery(request.into_inner(), actor)
                .await?,
        ))
    }

    #[tracing::instrument(skip_all)]
    async fn get_proof_of_delivery_image(
        &self,
        request: Request<pb::GetProofOfDeliveryImageRequest>,
    ) -> Result<Response<pb::ProofOfDeliveryImage>, Status> {
        Ok(Response::new(self.proof_of_delivery_image(request).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn get_shipment_statistics(
        &self,
        _request: Request<pb::GetShipmentStatisticsRequest>,
    ) -> Result<Response<pb::ShipmentStatistics>, Status> {
        let today = crate::domain::now().date_naive();
        let stats = self.store.statistics(today, STATISTICS_DAYS).await?;
        let first = today - chrono::Days::new(u64::from(STATISTICS_DAYS - 1));
        let count = |status| {
            stats
                .by_status
                .iter()
                .find(|(s, _)| *s == status)
                .map_or(0, |(_, n)| *n as i64)
        };
        Ok(Response::new(pb::ShipmentStatistics {
            status_counts: crate::domain::Status::ALL
                .into_iter()
                .map(|status| pb::StatusCount {
                    status: convert::status_to_proto(status).into(),
                    count: count(status),
                })
                .collect(),
            total: stats.by_status.iter().map(|(_, n)| *n as i64).sum(),
            late: stats.late as i64,
            days: (0..STATISTICS_DAYS as usize)
                .map(|i| pb::DailyShipmentCount {
                    date: Some(crate::details::date(first + chrono::Days::new(i as u64))),
                    created: stats.created.get(i).copied().unwrap_or(0) as i64,
                    delivered: stats.delivered.get(i).copied().unwrap_or(0) as i64,
                })
                .collect(),
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn update_shipment(
        &self,
        request: Request<pb::UpdateShipmentRequest>,
    ) -> Result<Response<pb::Shipment>, Status> {
        let (caller, actor) = verified(&request)?;
        let request = request.into_inner();
        let input = request.shipment.unwrap_or_default();
        let id = id("shipment.id", &input.id)?;
        let mut patch =
            convert::patch_from_proto(request.update_mask.as_ref(), &input, &request.remarks)
                .map_err(ShipmentError::Invalid)?;
        patch.remarks_public = request.remarks_public;
        let mut v = Violations::default();
        patch.failed_attempt =
            convert::attempt_failure_from_proto("failed_attempt", request.failed_attempt, &mut v);
        if patch.failed_attempt.is_some() {
            patch.history = HistoryRule::AlwaysRecord;
            if patch.status == Some(crate::domain::Status::Delivered) {
                v.add(
                    "failed_attempt",
                    "A delivered shipment has no failed attempt: choose another status",
                );
            }
        }
        v.into_result(()).map_err(ShipmentError::Invalid)?;
        // Moving a shipment is its own permission, whichever method does it.
        if (patch.status.is_some()
            || patch.current_location.is_some()
            || patch.failed_attempt.is_some())
            && !caller.may(Permission::ShipmentsTrack)
        {
            return Err(Status::permission_denied(service_auth::NOT_PERMITTED));
        }
        if let Some(customer_id) = &patch.details.customer_id {
            self.check_customer(customer_id).await?;
        }
        Ok(Response::new(self.update(&id, patch, actor).await?))
    }

    #[tracing::instrument(skip_all, fields(id = %request.get_ref().id))]
    async fn update_shipment_tracking(
        &self,
        request: Request<pb::UpdateShipmentTrackingRequest>,
    ) -> Result<Response<pb::Shipment>, Status> {
        let (_, actor) = verified(&request)?;
        let (id, patch) = tracking_event(&request.into_inner())?;
        Ok(Response::new(self.update(&id, patch, actor).await?))
    }

    #[tracing::instrument(skip_all, fields(events = request.get_ref().events.len()))]
    async fn record_tracking_events(
        &self,
        request: Request<pb::RecordTrackingEventsRequest>,
    ) -> Result<Response<pb::RecordTrackingEventsResponse>, Status> {
        let (_, actor) = verified(&request)?;
        Ok(Response::new(
            self.record_events(request.into_inner(), actor).await?,
        ))
    }

    #[tracing::instrument(skip_all, fields(id = %request.get_ref().id))]
    async fn delete_shipment(
        &self,
        request: Request<pb::DeleteShipmentRequest>,
    ) -> Result<Response<()>, Status> {
        let (_, actor) = verified(&request)?;
        let id = id("id", &request.get_ref().id)?;
        let record: crate::store::DeleteRecord = Arc::new(move |shipment: &Shipment| Effects {
            audit: vec![
                AuditEntry::new(
                    &actor,
                    Action::ShipmentDelete,
                    &shipment.id,
                    shipment.tracking_number.as_str(),
                )
                .with_summary(format!(
                    "{} → {}",
                    shipment.details.origin, shipment.details.destination
                ))
                .with_snapshot(shipment),
            ],
            events: crate::webhooks::deleted(shipment, crate::domain::now()),
            ..Effects::default()
        });
        let deleted = self.store.delete(&id, record).await?;
        self.lookups.evict(&deleted.tracking_number);
        tracing::info!(tracking_number = %deleted.tracking_number, "shipment deleted");
        Ok(Response::new(()))
    }
}
