//! The audit log. Each service writes an entry for every change it makes, in the same
//! transaction as the change where the change lives in the same database (shipments,
//! settings, e-mail retries), so a change is never without its entry. Entries are never
//! updated or deleted: the stores offer no such operation and the SQLite table refuses it.

pub mod api;
pub mod store;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use service_auth::Caller;
use service_common::settings::ExposeSecret;
use service_common::utc_micros;

pub use api::AuditApi;
pub use store::{AuditLog, AuditPage, AuditQuery, MongoAuditLog, SqliteAuditLog};

/// Opens the audit log the configuration names: beside the shipments, in their SQLite file
/// or MongoDB database.
pub async fn open(
    config: &service_common::StoreConfig,
) -> anyhow::Result<std::sync::Arc<dyn AuditLog>> {
    use service_common::StoreConfig;
    Ok(match config {
        StoreConfig::Embedded { data_dir } => std::sync::Arc::new(SqliteAuditLog::open(data_dir)?),
        StoreConfig::Mongo { uri, database } => {
            std::sync::Arc::new(MongoAuditLog::connect(uri.expose_secret(), database).await?)
        }
    })
}

/// The metadata the gateway sets on every call it forwards: where the request came from.
pub const CLIENT_IP_METADATA: &str = "x-client-ip";
pub const REQUEST_ID_METADATA: &str = "x-request-id";

/// What was done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    #[serde(rename = "shipment.create")]
    ShipmentCreate,
    #[serde(rename = "shipment.update")]
    ShipmentUpdate,
    #[serde(rename = "shipment.status_change")]
    ShipmentStatusChange,
    #[serde(rename = "shipment.delete")]
    ShipmentDelete,
    /// One status change of many shipments (each has its own entry too).
    #[serde(rename = "shipment.batch_update")]
    BatchUpdate,
    /// A CSV import, begun and finished (each created shipment has its own entry too).
    #[serde(rename = "shipment.import")]
    ShipmentImport,
    #[serde(rename = "shipment.proof_of_delivery")]
    ProofOfDelivery,
    #[serde(rename = "user.create")]
    UserCreate,
    #[serde(rename = "user.disable")]
    UserDisable,
    #[serde(rename = "user.enable")]
    UserEnable,
    #[serde(rename = "user.role_change")]
    UserRoleChange,
    #[serde(rename = "user.update")]
    UserUpdate,
    #[serde(rename = "user.password_change")]
    PasswordChange,
    #[serde(rename = "session.sign_in")]
    SignIn,
    #[serde(rename = "session.sign_in_failure")]
    SignInFailure,
    #[serde(rename = "email.retry")]
    EmailRetry,
    #[serde(rename = "settings.update")]
    SettingsUpdate,
    #[serde(rename = "customer.create")]
    CustomerCreate,
    #[serde(rename = "customer.update")]
    CustomerUpdate,
    #[serde(rename = "customer.suspend")]
    CustomerSuspend,
    #[serde(rename = "customer.reactivate")]
    CustomerReactivate,
    /// An invitation e-mailed to become a user of the customer.
    #[serde(rename = "customer.invite")]
    CustomerInvite,
    #[serde(rename = "pickup.request")]
    PickupRequest,
    #[serde(rename = "pickup.assign")]
    PickupAssign,
    #[serde(rename = "pickup.confirm")]
    PickupConfirm,
    #[serde(rename = "pickup.collect")]
    PickupCollect,
    #[serde(rename = "pickup.fail")]
    PickupFail,
    #[serde(rename = "customer.request_approve")]
    AccountRequestApprove,
    #[serde(rename = "customer.request_decline")]
    AccountRequestDecline,
    #[serde(rename = "customer.address_book")]
    AddressBookChange,
    #[serde(rename = "api_key.create")]
    ApiKeyCreate,
    #[serde(rename = "api_key.revoke")]
    ApiKeyRevoke,
    #[serde(rename = "rate_card.update")]
    RateCardUpdate,
    #[serde(rename = "rate_card.delete")]
    RateCardDelete,
    #[serde(rename = "shipment.note")]
    ShipmentNote,
    #[serde(rename = "exception.assign")]
    ExceptionAssign,
    #[serde(rename = "exception.resolve")]
    ExceptionResolve,
    #[serde(rename = "shipment.assign")]
    ShipmentAssign,
}

impl Action {
    pub const ALL: [Action; 38] = [
        Action::ShipmentCreate,
        Action::ShipmentUpdate,
        Action::ShipmentStatusChange,
        Action::ShipmentDelete,
        Action::BatchUpdate,
        Action::ShipmentImport,
        Action::ProofOfDelivery,
        Action::UserCreate,
        Action::UserDisable,
        Action::UserEnable,
        Action::UserRoleChange,
        Action::UserUpdate,
        Action::PasswordChange,
        Action::SignIn,
        Action::SignInFailure,
        Action::EmailRetry,
        Action::SettingsUpdate,
        Action::CustomerCreate,
        Action::CustomerUpdate,
        Action::CustomerSuspend,
        Action::CustomerReactivate,
        Action::CustomerInvite,
        Action::PickupRequest,
        Action::PickupAssign,
        Action::PickupConfirm,
        Action::PickupCollect,
        Action::PickupFail,
        Action::AccountRequestApprove,
        Action::AccountRequestDecline,
        Action::AddressBookChange,
        Action::ApiKeyCreate,
        Action::ApiKeyRevoke,
        Action::RateCardUpdate,
        Action::RateCardDelete,
        Action::ShipmentNote,
        Action::ExceptionAssign,
        Action::ExceptionResolve,
        Action::ShipmentAssign,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::ShipmentCreate => "shipment.create",
            Self::ShipmentUpdate => "shipment.update",
            Self::ShipmentStatusChange => "shipment.status_change",
            Self::ShipmentDelete => "shipment.delete",
            Self::BatchUpdate => "shipment.batch_update",
            Self::ShipmentImport => "shipment.import",
            Self::ProofOfDelivery => "shipment.proof_of_delivery",
            Self::UserCreate => "user.create",
            Self::UserDisable => "user.disable",
            Self::UserEnable => "user.enable",
            Self::UserRoleChange => "user.role_change",
            Self::UserUpdate => "user.update",
            Self::PasswordChange => "user.password_change",
            Self::SignIn => "session.sign_in",
            Self::SignInFailure => "session.sign_in_failure",
            Self::EmailRetry => "email.retry",
            Self::SettingsUpdate => "settings.update",
            Self::CustomerCreate => "customer.create",
            Self::CustomerUpdate => "customer.update",
            Self::CustomerSuspend => "customer.suspend",
            Self::CustomerReactivate => "customer.reactivate",
            Self::CustomerInvite => "customer.invite",
            Self::PickupRequest => "pickup.request",
            Self::PickupAssign => "pickup.assign",
            Self::PickupConfirm => "pickup.confirm",
            Self::PickupCollect => "pickup.collect",
            Self::PickupFail => "pickup.fail",
            Self::AccountRequestApprove => "customer.request_approve",
            Self::AccountRequestDecline => "customer.request_decline",
            Self::AddressBookChange => "customer.address_book",
            Self::ApiKeyCreate => "api_key.create",
            Self::ApiKeyRevoke => "api_key.revoke",
            Self::RateCardUpdate => "rate_card.update",
            Self::RateCardDelete => "rate_card.delete",
            Self::ShipmentNote => "shipment.note",
            Self::ExceptionAssign => "exception.assign",
            Self::ExceptionResolve => "exception.resolve",
            Self::ShipmentAssign => "shipment.assign",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.as_str() == text)
    }

    /// The kind of record the action is about.
    pub fn target_type(self) -> &'static str {
        match self {
            Self::ShipmentCreate
            | Self::ShipmentUpdate
            | Self::ShipmentStatusChange
            | Self::ShipmentDelete
            | Self::BatchUpdate
            | Self::ShipmentImport
            | Self::ProofOfDelivery
            | Self::ShipmentNote => "shipment",
            Self::ExceptionAssign | Self::ExceptionResolve => "exception",
            Self::EmailRetry => "email",
            Self::SettingsUpdate => "settings",
            Self::CustomerCreate
            | Self::CustomerUpdate
            | Self::CustomerSuspend
            | Self::CustomerReactivate
            | Self::CustomerInvite
            | Self::AccountRequestApprove
            | Self::AccountRequestDecline
            | Self::AddressBookChange => "customer",
            Self::PickupRequest
            | Self::PickupAssign
            | Self::PickupConfirm
            | Self::PickupCollect
            | Self::PickupFail => "pickup",
            Self::ApiKeyCreate | Self::ApiKeyRevoke => "api_key",
            Self::RateCardUpdate | Self::RateCardDelete => "rate_card",
            _ => "user",
        }
    }
}

/// Who made a change and from where, taken from the call.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Actor {
    pub id: String,
    pub email: String,
    pub client_ip: String,
    pub request_id: String,
    /// The API key the call was made with (`Warehouse ERP (lk_7f3a9c)`); empty for a session.
    pub api_key: String,
}

fn metadata_text<T>(request: &tonic::Request<T>, name: &str) -> String {
    request
        .metadata()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.chars().take(100).collect())
        .unwrap_or_default()
}

impl Actor {
    /// The verified caller of `request`, with the address and request id the gateway set.
    pub fn of<T>(request: &tonic::Request<T>, caller: &Caller) -> Self {
        Self {
            id: caller.sub.clone(),
            email: caller.email.clone(),
            api_key: caller.api_key.clone().unwrap_or_default(),
            ..Self::anonymous(request)
        }
    }

    /// A caller without a token (a sign-in): only where the request came from.
    pub fn anonymous<T>(request: &tonic::Request<T>) -> Self {
        Self {
            id: String::new(),
            email: String::new(),
            api_key: String::new(),
            client_ip: metadata_text(request, CLIENT_IP_METADATA),
            // Only an id that is safe to show; the gRPC layer made a fresh one otherwise.
            request_id: request
                .metadata()
                .get(REQUEST_ID_METADATA)
                .filter(|v| service_common::telemetry::acceptable_request_id(v.as_bytes()))
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_owned(),
        }
    }
}

/// One field that changed; values are JSON text, empty where the field was absent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    pub field: String,
    #[serde(default)]
    pub before: String,
    #[serde(default)]
    pub after: String,
}

/// One recorded change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    pub id: String,
    #[serde(with = "utc_micros")]
    pub time: DateTime<Utc>,
    pub actor_id: String,
    pub actor_email: String,
    /// The API key the change was made with; empty for a session.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub actor_api_key: String,
    pub client_ip: String,
    pub request_id: String,
    pub action: Action,
    pub target_id: String,
    pub target_name: String,
    #[serde(default)]
    pub changes: Vec<Change>,
    /// The deleted record, as JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<String>,
    #[serde(default)]
    pub summary: String,
}

impl AuditEntry {
    pub fn new(
        actor: &Actor,
        action: Action,
        target_id: impl Into<String>,
        target_name: impl Into<String>,
    ) -> Self {
        Self {
            id: new_id(),
            time: service_common::now(),
            actor_id: actor.id.clone(),
            actor_email: actor.email.clone(),
            actor_api_key: actor.api_key.clone(),
            client_ip: actor.client_ip.clone(),
            request_id: actor.request_id.clone(),
            action,
            target_id: target_id.into(),
            target_name: target_name.into(),
            changes: Vec::new(),
            snapshot: None,
            summary: String::new(),
        }
    }

    pub fn with_changes(mut self, changes: Vec<Change>) -> Self {
        self.changes = changes;
        self
    }

    pub fn with_summary(mut self, summary: impl Into<String>) -> Self {
        self.summary = summary.into();
        self
    }

    pub fn with_snapshot(mut self, record: &impl Serialize) -> Self {
        self.snapshot = serde_json::to_string(record).ok();
        self
    }

    pub fn to_proto(&self) -> logistics_proto::v1::AuditEntry {
        logistics_proto::v1::AuditEntry {
            id: self.id.clone(),
            time: Some(service_common::timestamp::to_proto(self.time)),
            actor_id: self.actor_id.clone(),
            actor_email: self.actor_email.clone(),
            actor_api_key: self.actor_api_key.clone(),
            client_ip: self.client_ip.clone(),
            request_id: self.request_id.clone(),
            action: self.action.as_str().into(),
            target_type: self.action.target_type().into(),
            target_id: self.target_id.clone(),
            target_name: self.target_name.clone(),
            changes: self
                .changes
                .iter()
                .map(|c| logistics_proto::v1::AuditChange {
                    field: c.field.clone(),
                    before: c.before.clone(),
                    after: c.after.clone(),
                })
                .collect(),
            snapshot_json: self.snapshot.clone().unwrap_or_default(),
            summary: self.summary.clone(),
        }
    }
}

use service_common::new_id;

/// The fields that differ between two records, by dotted path (`receiver.phone`); arrays
/// are compared whole. Paths listed in `ignore` (and below them) are left out.
pub fn diff(before: &impl Serialize, after: &impl Serialize, ignore: &[&str]) -> Vec<Change> {
    let (Ok(before), Ok(after)) = (serde_json::to_value(before), serde_json::to_value(after))
    else {
        return Vec::new();
    };
    let mut changes = Vec::new();
    walk("", Some(&before), Some(&after), ignore, &mut changes);
    changes
}

fn walk(
    path: &str,
    before: Option<&Value>,
    after: Option<&Value>,
    ignore: &[&str],
    out: &mut Vec<Change>,
) {
    if ignore.contains(&path) {
        return;
    }
    match (before, after) {
        (Some(Value::Object(b)), Some(Value::Object(a))) => {
            let mut keys: Vec<&String> = b.keys().chain(a.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                let child = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                walk(&child, b.get(key), a.get(key), ignore, out);
            }
        }
        (b, a) if b != a => out.push(Change {
            field: path.to_owned(),
            before: b.map(Value::to_string).unwrap_or_default(),
            after: a.map(Value::to_string).unwrap_or_default(),
        }),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_names_each_changed_field_by_path() {
        let before = serde_json::json!({"status": "pending", "receiver": {"phone": "1", "name": "R"}, "history": [1], "updatedAt": "x"});
        let after = serde_json::json!({"status": "in_transit", "receiver": {"phone": "2", "name": "R"}, "history": [1, 2], "updatedAt": "y", "notes": "n"});
        let changes = diff(&before, &after, &["history", "updatedAt"]);
        let fields: Vec<_> = changes.iter().map(|c| c.field.as_str()).collect();
        assert_eq!(fields, ["notes", "receiver.phone", "status"]);
        assert_eq!(changes[0].before, "", "an absent field has no value");
        assert_eq!(
            (changes[2].before.as_str(), changes[2].after.as_str()),
            ("\"pending\"", "\"in_transit\"")
        );
    }

    #[test]
    fn actions_round_trip_by_name() {
        for action in Action::ALL {
            assert_eq!(Action::parse(action.as_str()), Some(action));
            assert_eq!(
                serde_json::to_value(action).unwrap(),
                Value::String(action.as_str().into())
            );
        }
    }
}
