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

use crate::convert;
use crate::customers::{self, Customer, CustomerStatus, Scope};
use crate::error::{FieldViolation, ShipmentError, Violations};
use crate::service::{ShipmentsService, id, list_query, verified};

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
            .map_err(|v| ShipmentError::Invalid(v.into()))?;
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
        let language = Language::parse(&request.language_code).map_err(|problem| {
            ShipmentError::from(FieldViolation::new("language_code", problem))
        })?;
        let customer = self
            .customer("invitation.customer_id", &input.customer_id)
            .await?;
        let invitation = customers::invitation(&input, &customer)?;
        let now = crate::domain::now();
        let expires = now + service_auth::invitation::LIFETIME;
        let token = service_auth::invitation::sign(&self.tokens, &invitation, expires.timestamp());
        let link = format!(
            "{}{}/invitation#{token}",
            self.links.public_url.trim_end_matches('/'),
            language.path_prefix()
        );
        let email = outbox::emails::customer_invitation(
            &invitation.email,
            &invitation.name,
            &customer.name,
            &link,
            expires,
            language,
            now,
        );
        let entry =
            customer_entry(&actor, Action::CustomerInvite, &customer).with_summary(format!(
                "Invited {} as {}",
                invitation.email,
                invitation.role.as_str()
            ));
        self.store.invite(&email, &entry).await?;
        tracing::info!(customer = %customer.id, "customer invitation sent");
        Ok(Response::new(pb::CustomerInvitation {
            customer_id: customer.id,
            customer_name: customer.name,
            email: invitation.email,
            name: invitation.name,
            role: invitation.role.to_proto().into(),
            expire_time: Some(service_common::timestamp::to_proto(expires)),
        }))
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
        Ok(Response::new(self.list_page(&query).await?))
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
        let mut input = request.into_inner().shipment.unwrap_or_default();
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
}
