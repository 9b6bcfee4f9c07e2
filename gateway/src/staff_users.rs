//! Request fields that name a staff user (`(logistics.v1.staff_user)` in the proto: a round's
//! courier, a pickup's agent, an exception's assignee): the user is checked as stored now
//! before the call goes on, and their e-mail is written beside the id from their record. No
//! caller can give work to a made-up, disabled or customer's user, or show another e-mail
//! for them.

use std::collections::HashMap;
use std::sync::LazyLock;

use bytes::{BufMut, Bytes, BytesMut};
use http::{Request, Response, header};
use logistics_proto::v1::StaffUser;
use prost_reflect::{DynamicMessage, FieldDescriptor, Kind, MessageDescriptor, Value};
use service_auth::Permission;
use service_common::grpc_guard::GrpcGuardLayer;
use service_common::violations::Violations;
use tonic::Status;
use tonic::body::Body;

use crate::access::{Access, CurrentUser};

/// One field naming a staff user.
struct Reference {
    id: FieldDescriptor,
    email: FieldDescriptor,
    permission: Option<Permission>,
}

/// A method whose request names staff users.
struct Method {
    input: MessageDescriptor,
    references: Vec<Reference>,
}

/// Every such method by its gRPC path.
static METHODS: LazyLock<HashMap<String, Method>> = LazyLock::new(read_methods);

fn read_methods() -> HashMap<String, Method> {
    let pool = &*crate::connect::POOL;
    let extension = pool
        .get_extension_by_name("logistics.v1.staff_user")
        .expect("access.proto declares the option");
    let mut methods = HashMap::new();
    for service in pool.services() {
        for method in service.methods() {
            let input = method.input();
            let references: Vec<_> = input
                .fields()
                .filter(|field| field.options().has_extension(&extension))
                .map(|id| {
                    let options = id.options();
                    let option: StaffUser = options
                        .get_extension(&extension)
                        .as_message()
                        .and_then(|m| m.transcode_to().ok())
                        .expect("a StaffUser option");
                    let email = input
                        .get_field_by_name(&option.email_field)
                        .filter(|f| f.kind() == Kind::String && !f.is_list())
                        .unwrap_or_else(|| {
                            panic!("{}: email_field names no string field", id.full_name())
                        });
                    Reference {
                        id,
                        email,
                        permission: Permission::try_from(option.permission)
                            .ok()
                            .filter(|p| *p != Permission::Unspecified),
                    }
                })
                .collect();
            if !references.is_empty() {
                let path = format!("/{}/{}", service.full_name(), method.name());
                methods.insert(path, Method { input, references });
            }
        }
    }
    methods
}

/// The call to `path` with every staff user it names checked and their e-mail written in,
/// else the answer that refuses it (INVALID_ARGUMENT naming the field). Reads the body only
/// for a method that names staff users.
pub async fn settle(
    path: &str,
    request: Request<Body>,
    guard: &GrpcGuardLayer,
    access: &Access,
) -> Result<Request<Body>, Response<Body>> {
    let Some(method) = METHODS.get(path) else {
        return Ok(request);
    };
    let (parts, message) = match guard.read(request).await?.into_message() {
        Ok(message) => message.into_parts(),
        Err(_) => {
            return Err(Status::invalid_argument(
                "A call that names a staff user must be sent uncompressed.",
            )
            .into_http());
        }
    };
    let mut message = DynamicMessage::decode(method.input.clone(), message)
        .map_err(|_| Status::invalid_argument("The request could not be read.").into_http())?;
    let mut violations = Violations::default();
    // What a person reads (the dialogs show it); the details name the field for programs.
    let mut sentence = None;
    for reference in &method.references {
        let id = match message.get_field(&reference.id).as_str() {
            Some(id) if !id.trim().is_empty() => id.trim().to_owned(),
            _ => continue,
        };
        let user = if service_common::could_be_id(&id) {
            access.user(&id).await.map_err(Status::into_http)?
        } else {
            None
        };
        match user.filter(|user| may_take_it(user, reference.permission)) {
            Some(user) => message.set_field(&reference.email, Value::String(user.email)),
            None => {
                violations.add(reference.id.name(), refusal(reference.permission));
                sentence.get_or_insert_with(|| explained(reference.permission));
            }
        }
    }
    if let Some(sentence) = sentence {
        return Err(violations.into_status(sentence).into_http());
    }
    let mut parts = parts;
    parts.headers.remove(header::CONTENT_LENGTH);
    Ok(Request::from_parts(
        parts,
        Body::new(http_body_util::Full::new(framed(&message))),
    ))
}

fn may_take_it(user: &CurrentUser, permission: Option<Permission>) -> bool {
    !user.disabled && !user.role.is_customer() && permission.is_none_or(|p| user.may(p))
}

fn refusal(permission: Option<Permission>) -> String {
    match permission {
        Some(p) => format!("must name an enabled staff user allowed {}", p.as_str()),
        None => "must name an enabled staff user".to_owned(),
    }
}

fn explained(permission: Option<Permission>) -> String {
    let who = match permission {
        Some(p) => format!("an enabled staff member allowed {}", p.as_str()),
        None => "an enabled staff member".to_owned(),
    };
    format!("That user cannot take this work: choose {who}.")
}

/// The message as one uncompressed gRPC frame.
fn framed(message: &DynamicMessage) -> Bytes {
    let encoded = prost::Message::encode_to_vec(message);
    let mut body = BytesMut::with_capacity(5 + encoded.len());
    body.put_u8(0);
    body.put_u32(u32::try_from(encoded.len()).expect("within the body limit"));
    body.extend_from_slice(&encoded);
    body.freeze()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_proto_names_a_rounds_courier_a_pickups_agent_and_an_exceptions_assignee() {
        let mut found: Vec<_> = METHODS
            .iter()
            .flat_map(|(path, method)| {
                method
                    .references
                    .iter()
                    .map(move |r| (path.as_str(), r.id.name(), r.email.name(), r.permission))
            })
            .collect();
        found.sort();
        assert_eq!(
            found,
            [
                (
                    "/logistics.v1.PickupService/AssignPickup",
                    "agent_id",
                    "agent_email",
                    None
                ),
                (
                    "/logistics.v1.ShipmentExceptionService/AssignShipmentException",
                    "assignee_id",
                    "assignee_email",
                    None
                ),
                (
                    "/logistics.v1.ShipmentService/AssignShipmentsToCourier",
                    "courier_id",
                    "courier_email",
                    Some(Permission::ShipmentsTrack)
                ),
            ]
        );
    }
}
