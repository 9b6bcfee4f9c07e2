//! The customers' RPCs: staff manage customers and invite their users (`CustomerService`), a
//! customer's users book and follow their own shipments (`CustomerPortalService`). Every portal
//! read and write goes through `Scope`, so another customer's shipment is NotFound.

use audit::{Action, Actor, AuditEntry};
use logistics_proto::v1::{
    self as pb, customer_portal_service_server::CustomerPortalService,
    customer_service_server::CustomerService,
};
use outbox::language::Language;
use service_common::mask::Mask;
use service_common::paging;
use tonic::{Request, Response, Status};

use crate::account_requests::{self, RequestState};
use crate::address_book;
use crate::convert;
use crate::customers::{self, Customer, CustomerStatus, Scope};
use crate::error::{FieldViolation, ShipmentError, Violations};
use crate::pickups::{self, Pickup, PickupState};
use crate::service::{ShipmentsService, id, list_query, verified};
use crate::store::Effects;

/// The customer a portal caller acts for (the access layer admits no one else).
fn customer_of(caller: &service_auth::Caller) -> Result<String, ShipmentError> {
    match Scope::of(caller) {
        Scope::Customer(id) => Ok(id),
        Scope::Staff => Err(ShipmentError::CustomerNotFound),
    }
}

fn page_token(next: Option<String>) -> String {
    next.as_deref().map(paging::encode).unwrap_or_default()
}

impl ShipmentsService {
    /// The customer with this id, as a request names it.
    async fn customer(&self, field: &str, value: &str) -> Result<Customer, ShipmentError> {
        let id = id(field, value).map_err(|e| match e {
            ShipmentError::NotFound => ShipmentError::CustomerNotFound,
            e => e,
        })?;
        self.store.get_customer(&id).await
    }

    /// Checks that a shipment's customer, when it names one, exists (staff set it).
    pub(crate) async fn check_customer(&self, customer_id: &str) -> Result<(), ShipmentError> {
        if customer_id.is_empty() {
            return Ok(());
        }
        match self.customer("shipment.customer_id", customer_id).await {
            Err(ShipmentError::CustomerNotFound) => {
                Err(FieldViolation::new("shipment.customer_id", "Customer not found").into())
            }
            other => other.map(drop),
        }
    }

    /// A shipment as `scope` may see it.
    pub(crate) async fn get_in(
        &self,
        scope: &Scope,
        id_value: &str,
    ) -> Result<crate::domain::Shipment, ShipmentError> {
        let id = id("id", id_value)?;
        scope.admit(self.store.get(&id).await?)
    }
}

impl ShipmentsService {
    /// The invitation e-mail of `invitation` to `customer`, with its link and expiry.
    fn invitation_email(
        &self,
        customer: &Customer,
        invitation: &service_auth::invitation::Invitation,
        language: Language,
    ) -> outbox::Notification {
        let now = crate::domain::now();
        let expires = now + service_auth::invitation::LIFETIME;
        let token = service_auth::invitation::sign(&self.tokens, invitation, expires.timestamp());
        let link = outbox::emails::invitation_url(&self.links.public_url, language, &token);
        outbox::emails::customer_invitation(
            &invitation.email,
            &invitation.name,
            &customer.name,
            &link,
            expires,
            language,
            now,
        )
    }

    /// Invites the person `input` names to `customer` by e-mail, audited.
    async fn invite(
        &self,
        actor: &Actor,
        customer: Customer,
        input: &pb::CustomerInvitation,
        language_code: &str,
    ) -> Result<pb::CustomerInvitation, ShipmentError> {
        let language = Language::parse(language_code)
            .map_err(|problem| FieldViolation::new("language_code", problem))?;
        let invitation = customers::invitation(input, &customer)?;
        let email = self.invitation_email(&customer, &invitation, language);
        let entry = customer_entry(actor, Action::CustomerInvite, &customer).with_summary(format!(
            "Invited {} as {}",
            invitation.email,
            invitation.role.as_str()
        ));
        self.store.invite(&email, &entry).await?;
        tracing::info!(customer = %customer.id, "customer invitation sent");
        Ok(pb::CustomerInvitation {
            customer_id: customer.id,
            customer_name: customer.name,
            email: invitation.email,
            name: invitation.name,
            role: invitation.role.to_proto().into(),
            expire_time: Some(service_common::timestamp::to_proto(
                crate::domain::now() + service_auth::invitation::LIFETIME,
            )),
        })
    }

    /// Answers a pending account request, as `actor`.
    async fn answer(
        &self,
        id_value: &str,
        actor: &Actor,
        decline: Option<String>,
    ) -> Result<pb::AccountRequest, ShipmentError> {
        let id = id("id", id_value).map_err(|_| ShipmentError::RequestNotFound)?;
        let mut request = self.store.get_request(&id).await?;
        request.answerable()?;
        let now = crate::domain::now();
        request.updated_at = now;
        let answer_entry = |action| {
            AuditEntry::new(actor, action, &request.id, &request.company_name)
                .with_summary(format!("{} <{}>", request.contact_name, request.email))
        };
        let (customer, effects) = match decline {
            Some(reason) => {
                request.state = RequestState::Declined;
                request.decline_reason = reason.clone();
                let email = outbox::emails::account_request_declined(
                    &request.email,
                    &request.contact_name,
                    &request.company_name,
                    &reason,
                    request.language,
                    now,
                );
                let effects = Effects {
                    emails: vec![email],
                    audit: vec![answer_entry(Action::AccountRequestDecline)],
                    ..Effects::default()
                };
                (None, effects)
            }
            None => {
                let input = pb::Customer {
                    name: request.company_name.clone(),
                    billing_address: request.address.clone(),
                    contacts: vec![pb::CustomerContact {
                        name: request.contact_name.clone(),
                        email: request.email.clone(),
                        phone: request.phone.clone(),
                    }],
                    ..Default::default()
                };
                let customer = customers::from_create(&input, now)?;
                let invitation = customers::invitation(
                    &pb::CustomerInvitation {
                        email: request.email.clone(),
                        name: request.contact_name.clone(),
                        role: pb::Role::CustomerAdmin.into(),
                        ..Default::default()
                    },
                    &customer,
                )?;
                request.state = RequestState::Approved;
                request.customer_id = customer.id.clone();
                let effects = Effects {
                    emails: vec![self.invitation_email(&customer, &invitation, request.language)],
                    audit: vec![
                        answer_entry(Action::AccountRequestApprove),
                        customer_entry(actor, Action::CustomerCreate, &customer),
                        customer_entry(actor, Action::CustomerInvite, &customer).with_summary(
                            format!("Invited {} as customer_admin", invitation.email),
                        ),
                    ],
                    ..Effects::default()
                };
                (Some(customer), effects)
            }
        };
        self.store
            .answer_request(&request, customer.as_ref(), &effects)
            .await?;
        tracing::info!(request = %request.id, state = request.state.as_str(), "account request answered");
        Ok(request.to_proto())
    }
}

fn customer_entry(actor: &Actor, action: Action, customer: &Customer) -> AuditEntry {
    AuditEntry::new(actor, action, &customer.id, &customer.name)
        .with_summary(format!("Account {}", customer.account_number))
}

#[tonic::async_trait]
impl CustomerService for ShipmentsService {
    #[tracing::instrument(skip_all)]
    async fn create_customer(
        &self,
        request: Request<pb::CreateCustomerRequest>,
    ) -> Result<Response<pb::Customer>, Status> {
        let (_, actor) = verified(&request)?;
        let input = request.into_inner().customer.unwrap_or_default();
        let customer = customers::from_create(&input, crate::domain::now())?;
        let entry = customer_entry(&actor, Action::CustomerCreate, &customer);
        self.store.insert_customer(&customer, &entry).await?;
        tracing::info!(customer = %customer.id, "customer created");
        Ok(Response::new(customer.to_proto()))
    }

    #[tracing::instrument(skip_all)]
    async fn get_customer(
        &self,
        request: Request<pb::GetCustomerRequest>,
    ) -> Result<Response<pb::Customer>, Status> {
        let customer = self.customer("id", &request.get_ref().id).await?;
        Ok(Response::new(customer.to_proto()))
    }

    #[tracing::instrument(skip_all)]
    async fn list_customers(
        &self,
        request: Request<pb::ListCustomersRequest>,
    ) -> Result<Response<pb::ListCustomersResponse>, Status> {
        let query = customers::query(request.get_ref())?;
        let page = self.store.list_customers(&query).await?;
        Ok(Response::new(pb::ListCustomersResponse {
            customers: page.customers.iter().map(Customer::to_proto).collect(),
            next_page_token: page.next.as_deref().map(paging::encode).unwrap_or_default(),
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn update_customer(
        &self,
        request: Request<pb::UpdateCustomerRequest>,
    ) -> Result<Response<pb::Customer>, Status> {
        let (_, actor) = verified(&request)?;
        let request = request.into_inner();
        let input = request.customer.unwrap_or_default();
        let mask = Mask::parse(request.update_mask.as_ref(), customers::UPDATABLE)
            .map_err(ShipmentError::Invalid)?;
        let before = self.customer("customer.id", &input.id).await?;
        let mut customer = before.clone();
        let mut v = Violations::default();
        for path in mask.paths() {
            customers::apply(path, &input, &mut customer, &mut v);
        }
        v.into_result(()).map_err(ShipmentError::Invalid)?;
        customer.updated_at = crate::domain::now();
        let action = match (before.status, customer.status) {
            (CustomerStatus::Active, CustomerStatus::Suspended) => Action::CustomerSuspend,
            (CustomerStatus::Suspended, CustomerStatus::Active) => Action::CustomerReactivate,
            _ => Action::CustomerUpdate,
        };
        let entry = customer_entry(&actor, action, &customer).with_changes(audit::diff(
            &before,
            &customer,
            &["updatedAt"],
        ));
        self.store.replace_customer(&customer, &entry).await?;
        tracing::info!(customer = %customer.id, action = action.as_str(), "customer changed");
        Ok(Response::new(customer.to_proto()))
    }

    #[tracing::instrument(skip_all)]
    async fn create_customer_invitation(
        &self,
        request: Request<pb::CreateCustomerInvitationRequest>,
    ) -> Result<Response<pb::CustomerInvitation>, Status> {
        let (_, actor) = verified(&request)?;
        let request = request.into_inner();
        let input = request.invitation.unwrap_or_default();
        let customer = self
            .customer("invitation.customer_id", &input.customer_id)
            .await?;
        let invitation = self
            .invite(&actor, customer, &input, &request.language_code)
            .await?;
        Ok(Response::new(invitation))
    }

    #[tracing::instrument(skip_all)]
    async fn create_account_request(
        &self,
        request: Request<pb::CreateAccountRequestRequest>,
    ) -> Result<Response<pb::AccountRequest>, Status> {
        let input = request.into_inner().account_request.unwrap_or_default();
        let account_request = account_requests::from_form(&input, crate::domain::now())?;
        self.store.insert_request(&account_request).await?;
        tracing::info!(request = %account_request.id, "account requested");
        Ok(Response::new(account_request.to_proto()))
    }

    #[tracing::instrument(skip_all)]
    async fn list_account_requests(
        &self,
        request: Request<pb::ListAccountRequestsRequest>,
    ) -> Result<Response<pb::ListAccountRequestsResponse>, Status> {
        let query = account_requests::query(request.get_ref())?;
        let (requests, next) = self.store.list_requests(&query).await?;
        Ok(Response::new(pb::ListAccountRequestsResponse {
            account_requests: requests.iter().map(|r| r.to_proto()).collect(),
            next_page_token: page_token(next),
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn approve_account_request(
        &self,
        request: Request<pb::ApproveAccountRequestRequest>,
    ) -> Result<Response<pb::AccountRequest>, Status> {
        let (_, actor) = verified(&request)?;
        Ok(Response::new(
            self.answer(&request.get_ref().id, &actor, None).await?,
        ))
    }

    #[tracing::instrument(skip_all)]
    async fn decline_account_request(
        &self,
        request: Request<pb::DeclineAccountRequestRequest>,
    ) -> Result<Response<pb::AccountRequest>, Status> {
        let (_, actor) = verified(&request)?;
        let reason = account_requests::reason(&request.get_ref().reason)?;
        Ok(Response::new(
            self.answer(&request.get_ref().id, &actor, Some(reason))
                .await?,
        ))
    }

    #[tracing::instrument(skip_all)]
    async fn get_current_customer(
        &self,
        request: Request<pb::GetCurrentCustomerRequest>,
    ) -> Result<Response<pb::Customer>, Status> {
        let (caller, _) = verified(&request)?;
        let Scope::Customer(id) = Scope::of(&caller) else {
            return Err(ShipmentError::CustomerNotFound.into());
        };
        Ok(Response::new(
            self.store.get_customer(&id).await?.to_proto(),
        ))
    }
}

#[tonic::async_trait]
impl CustomerPortalService for ShipmentsService {
    #[tracing::instrument(skip_all)]
    async fn list_shipments(
        &self,
        request: Request<pb::ListShipmentsRequest>,
    ) -> Result<Response<pb::ListShipmentsResponse>, Status> {
        let (caller, _) = verified(&request)?;
        let query = Scope::of(&caller).narrow(list_query(request.get_ref(), "")?);
        Ok(Response::new(
            self.list_page(&query, convert::shipment_to_proto).await?,
        ))
    }

    #[tracing::instrument(skip_all, fields(id = %request.get_ref().id))]
    async fn get_shipment(
        &self,
        request: Request<pb::GetShipmentRequest>,
    ) -> Result<Response<pb::Shipment>, Status> {
        let (caller, _) = verified(&request)?;
        let shipment = self
            .get_in(&Scope::of(&caller), &request.get_ref().id)
            .await?;
        Ok(Response::new(convert::shipment_to_proto(&shipment)))
    }

    #[tracing::instrument(skip_all)]
    async fn create_shipment(
        &self,
        request: Request<pb::CreateShipmentRequest>,
    ) -> Result<Response<pb::Shipment>, Status> {
        let (caller, actor) = verified(&request)?;
        let Scope::Customer(customer_id) = Scope::of(&caller) else {
            return Err(ShipmentError::CustomerNotFound.into());
        };
        let request = request.into_inner();
        let mut input = request.shipment.unwrap_or_default();
        customers::complete_booking(
            &mut input,
            crate::domain::now().date_naive(),
            &self.company_name,
        );
        if !request.quote_token.is_empty() {
            let quote = self.apply_quote(
                &mut input,
                &request.quote_token,
                &request.quote_service_code,
                &customer_id,
            )?;
            tracing::info!(%quote, "booked from a quote");
        }
        // The booking customer ships it, as pending, whatever the request says.
        input.customer_id = customer_id;
        input.status = pb::ShipmentStatus::Pending.into();
        let details = convert::details_from_proto(&input).map_err(ShipmentError::Invalid)?;
        let shipment = self
            .create(details, String::new(), crate::domain::now(), &actor)
            .await?;
        tracing::info!(tracking_number = %shipment.tracking_number, "shipment booked");
        Ok(Response::new(convert::shipment_to_proto(&shipment)))
    }

    #[tracing::instrument(skip_all)]
    async fn create_quote(
        &self,
        request: Request<pb::CreateQuoteRequest>,
    ) -> Result<Response<pb::Quote>, Status> {
        let (caller, _) = verified(&request)?;
        let customer_id = customer_of(&caller)?;
        Ok(Response::new(
            self.quote(request.get_ref(), Some(&customer_id)).await?,
        ))
    }

    #[tracing::instrument(skip_all)]
    async fn list_address_book_entries(
        &self,
        request: Request<pb::ListAddressBookEntriesRequest>,
    ) -> Result<Response<pb::ListAddressBookEntriesResponse>, Status> {
        let (caller, _) = verified(&request)?;
        let query = address_book::query(&customer_of(&caller)?, request.get_ref())?;
        let (entries, next) = self.store.list_entries(&query).await?;
        Ok(Response::new(pb::ListAddressBookEntriesResponse {
            entries: entries.iter().map(|e| e.to_proto()).collect(),
            next_page_token: page_token(next),
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn create_address_book_entry(
        &self,
        request: Request<pb::CreateAddressBookEntryRequest>,
    ) -> Result<Response<pb::AddressBookEntry>, Status> {
        let (caller, actor) = verified(&request)?;
        let customer_id = customer_of(&caller)?;
        let input = request.into_inner().entry.unwrap_or_default();
        let mut v = Violations::default();
        let entry = address_book::new_entry(
            &customer_id,
            "entry.",
            &address_book::typed(&input),
            crate::domain::now(),
            &mut v,
        );
        v.into_result(()).map_err(ShipmentError::Invalid)?;
        self.room_for(&customer_id, 1).await?;
        let audit_entry = address_entry(&actor, &customer_id, format!("Added {}", entry.name));
        self.store
            .insert_entries(std::slice::from_ref(&entry), &audit_entry)
            .await?;
        Ok(Response::new(entry.to_proto()))
    }

    #[tracing::instrument(skip_all)]
    async fn update_address_book_entry(
        &self,
        request: Request<pb::UpdateAddressBookEntryRequest>,
    ) -> Result<Response<pb::AddressBookEntry>, Status> {
        let (caller, actor) = verified(&request)?;
        let customer_id = customer_of(&caller)?;
        let request = request.into_inner();
        let input = request.entry.unwrap_or_default();
        let mask = Mask::parse(request.update_mask.as_ref(), address_book::UPDATABLE)
            .map_err(ShipmentError::Invalid)?;
        let id = id("entry.id", &input.id).map_err(|_| ShipmentError::EntryNotFound)?;
        let mut entry = self.store.get_entry(&customer_id, &id).await?;
        let typed = address_book::typed(&input);
        let mut v = Violations::default();
        for path in mask.paths() {
            address_book::apply(path, "entry.", &typed, &mut entry, &mut v);
        }
        v.into_result(()).map_err(ShipmentError::Invalid)?;
        entry.updated_at = crate::domain::now();
        let audit_entry = address_entry(&actor, &customer_id, format!("Changed {}", entry.name));
        self.store.replace_entry(&entry, &audit_entry).await?;
        Ok(Response::new(entry.to_proto()))
    }

    #[tracing::instrument(skip_all)]
    async fn delete_address_book_entry(
        &self,
        request: Request<pb::DeleteAddressBookEntryRequest>,
    ) -> Result<Response<()>, Status> {
        let (caller, actor) = verified(&request)?;
        let customer_id = customer_of(&caller)?;
        let id = id("id", &request.get_ref().id).map_err(|_| ShipmentError::EntryNotFound)?;
        let entry = self.store.get_entry(&customer_id, &id).await?;
        let audit_entry = address_entry(&actor, &customer_id, format!("Removed {}", entry.name));
        self.store.delete_entry(&entry, &audit_entry).await?;
        Ok(Response::new(()))
    }

    #[tracing::instrument(skip_all)]
    async fn import_address_book_entries(
        &self,
        request: Request<pb::ImportAddressBookEntriesRequest>,
    ) -> Result<Response<pb::ImportAddressBookEntriesResponse>, Status> {
        let (caller, actor) = verified(&request)?;
        let customer_id = customer_of(&caller)?;
        let entries =
            address_book::from_csv(&customer_id, &request.get_ref().csv, crate::domain::now())?;
        self.room_for(&customer_id, entries.len() as u64).await?;
        let audit_entry = address_entry(
            &actor,
            &customer_id,
            format!("Imported {} entries", entries.len()),
        );
        self.store.insert_entries(&entries, &audit_entry).await?;
        Ok(Response::new(pb::ImportAddressBookEntriesResponse {
            imported_count: entries.len() as i32,
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn get_pickup_settings(
        &self,
        _request: Request<pb::GetPickupSettingsRequest>,
    ) -> Result<Response<pb::PickupSettings>, Status> {
        Ok(Response::new(
            self.store.pickup_settings().await?.to_proto(),
        ))
    }

    #[tracing::instrument(skip_all)]
    async fn create_pickup(
        &self,
        request: Request<pb::CreatePickupRequest>,
    ) -> Result<Response<pb::Pickup>, Status> {
        let (caller, actor) = verified(&request)?;
        let scope = Scope::of(&caller);
        let customer_id = customer_of(&caller)?;
        let input = request.into_inner().pickup.unwrap_or_default();
        let language = match input.language_code.trim() {
            "" => self
                .store
                .watcher(&customer_id, &caller.sub)
                .await?
                .map_or(Language::En, |w| w.language),
            code => Language::parse(code)
                .map_err(|problem| FieldViolation::new("pickup.language_code", problem))?,
        };
        let settings = self.store.pickup_settings().await?;
        let now = crate::domain::now();
        let asked = pickups::request(&input, &settings, now)?;
        let mut v = Violations::default();
        for (i, shipment) in asked.shipment_ids.iter().enumerate() {
            match self.get_in(&scope, shipment).await {
                Ok(_) => {}
                Err(ShipmentError::NotFound) => {
                    v.add(format!("pickup.shipment_ids[{i}]"), "Shipment not found")
                }
                Err(e) => return Err(e.into()),
            }
        }
        v.into_result(()).map_err(ShipmentError::Invalid)?;
        let customer = self.store.get_customer(&customer_id).await?;
        let pickup = Pickup {
            id: service_common::new_id(),
            customer_id,
            customer_name: customer.name.clone(),
            address: asked.address,
            area: asked.area,
            date: asked.date,
            window_start: asked.window.0,
            window_end: asked.window.1,
            parcel_count: asked.parcel_count,
            shipment_ids: asked.shipment_ids,
            notes: asked.notes,
            state: PickupState::Requested,
            agent_id: String::new(),
            agent_email: String::new(),
            failure_reason: String::new(),
            requested_by: caller.email.clone(),
            language,
            created_at: now,
            updated_at: now,
        };
        let audit_entry = pickup_entry(&actor, Action::PickupRequest, &pickup);
        self.store.insert_pickup(&pickup, &audit_entry).await?;
        tracing::info!(pickup = %pickup.id, "pickup requested");
        Ok(Response::new(pickup.to_proto()))
    }

    #[tracing::instrument(skip_all)]
    async fn get_notification_choices(
        &self,
        request: Request<pb::GetNotificationChoicesRequest>,
    ) -> Result<Response<pb::NotificationChoices>, Status> {
        let (caller, _) = verified(&request)?;
        let customer_id = customer_of(&caller)?;
        let choices = self
            .store
            .watcher(&customer_id, &caller.sub)
            .await?
            .map(|w| w.choices())
            .unwrap_or_default();
        Ok(Response::new(choices))
    }

    #[tracing::instrument(skip_all)]
    async fn update_notification_choices(
        &self,
        request: Request<pb::UpdateNotificationChoicesRequest>,
    ) -> Result<Response<pb::NotificationChoices>, Status> {
        let (caller, _) = verified(&request)?;
        let customer_id = customer_of(&caller)?;
        let input = request.into_inner().choices.unwrap_or_default();
        let watcher = customers::watcher(&caller, &customer_id, &input)?;
        self.store.set_watcher(&watcher).await?;
        Ok(Response::new(watcher.choices()))
    }

    #[tracing::instrument(skip_all)]
    async fn list_pickups(
        &self,
        request: Request<pb::ListPickupsRequest>,
    ) -> Result<Response<pb::ListPickupsResponse>, Status> {
        let (caller, _) = verified(&request)?;
        let mut query = pickups::query(request.get_ref())?;
        query.customer_id = Some(customer_of(&caller)?);
        // The queue's filters are the staff's; the portal lists by state only.
        query.date = None;
        query.area = None;
        Ok(Response::new(self.pickup_page(&query).await?))
    }

    type ExportShipmentsStream = crate::export::CsvStream;

    #[tracing::instrument(skip_all)]
    async fn export_shipments(
        &self,
        request: Request<pb::ExportShipmentsRequest>,
    ) -> Result<Response<Self::ExportShipmentsStream>, Status> {
        let (caller, _) = verified(&request)?;
        let filter = request.into_inner().filter.unwrap_or_default();
        let query = Scope::of(&caller).narrow(list_query(&filter, "filter.")?);
        Ok(Response::new(crate::export::stream(
            self.store.clone(),
            query,
        )))
    }

    #[tracing::instrument(skip_all)]
    async fn get_proof_of_delivery_image(
        &self,
        request: Request<pb::GetProofOfDeliveryImageRequest>,
    ) -> Result<Response<pb::ProofOfDeliveryImage>, Status> {
        let (caller, _) = verified(&request)?;
        let request = request.get_ref();
        let (number, kind) = crate::delivery::image_request(request)?;
        let shipment = self.store.find_by_tracking_number(&number).await?;
        let shipment = Scope::of(&caller).admit(shipment)?;
        Ok(Response::new(self.proof_image(shipment, kind).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn create_user_invitation(
        &self,
        request: Request<pb::CreateUserInvitationRequest>,
    ) -> Result<Response<pb::CustomerInvitation>, Status> {
        let (caller, actor) = verified(&request)?;
        let customer = self.store.get_customer(&customer_of(&caller)?).await?;
        let request = request.into_inner();
        let input = request.invitation.unwrap_or_default();
        let invitation = self
            .invite(&actor, customer, &input, &request.language_code)
            .await?;
        Ok(Response::new(invitation))
    }
}

impl ShipmentsService {
    /// Refuses an address book that `adding` more entries would overfill.
    async fn room_for(&self, customer_id: &str, adding: u64) -> Result<(), ShipmentError> {
        if self.store.count_entries(customer_id).await? + adding > address_book::MAX_ENTRIES {
            return Err(ShipmentError::Exhausted(format!(
                "The address book holds at most {} entries",
                address_book::MAX_ENTRIES
            )));
        }
        Ok(())
    }

    pub(crate) async fn pickup_page(
        &self,
        query: &pickups::PickupQuery,
    ) -> Result<pb::ListPickupsResponse, ShipmentError> {
        let (found, next) = self.store.list_pickups(query).await?;
        Ok(pb::ListPickupsResponse {
            pickups: found.iter().map(Pickup::to_proto).collect(),
            next_page_token: page_token(next),
        })
    }
}

fn address_entry(actor: &Actor, customer_id: &str, summary: String) -> AuditEntry {
    AuditEntry::new(actor, Action::AddressBookChange, customer_id, customer_id)
        .with_summary(summary)
}

pub(crate) fn pickup_entry(actor: &Actor, action: Action, pickup: &Pickup) -> AuditEntry {
    AuditEntry::new(actor, action, &pickup.id, &pickup.customer_name).with_summary(format!(
        "{} {}–{}, {} parcels, {}",
        pickup.date,
        pickup.window_start.format("%H:%M"),
        pickup.window_end.format("%H:%M"),
        pickup.parcel_count,
        pickup.area
    ))
}
