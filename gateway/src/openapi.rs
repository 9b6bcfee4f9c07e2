//! `GET /openapi.json`: the JSON API (src/connect.rs) as an OpenAPI 3.1 document, made from
//! the descriptors at start: one POST path per unary method a caller may reach, its request
//! and reply schemas in the proto3 JSON mapping, and who may call it from its access option.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use axum::response::{IntoResponse, Response};
use http::header;
use prost_reflect::{DescriptorPool, FieldDescriptor, Kind, MessageDescriptor};
use serde_json::{Value, json};
use service_auth::access::{Audience, rule};

pub const PATH: &str = "/openapi.json";

static DOCUMENT: LazyLock<String> = LazyLock::new(|| document().to_string());

pub async fn serve() -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "public, max-age=300"),
        ],
        DOCUMENT.as_str(),
    )
        .into_response()
}

/// Who may call a method, in words.
fn who(audience: Audience) -> String {
    match audience {
        Audience::PublicLookup | Audience::Public(_) => "Anyone (rate-limited per network).".into(),
        Audience::Sessions => "Anyone: signs in or out (sets or clears the session cookie).".into(),
        Audience::SignedIn => "Any signed-in user.".into(),
        Audience::Staff(permission) => format!("Staff holding `{}`.", permission.as_str()),
        Audience::Customer { admin: false } => "A customer's users.".into(),
        Audience::Customer { admin: true } => "A customer's admins.".into(),
        Audience::Anyone => "Not callable over HTTP.".into(),
    }
}

fn document() -> Value {
    let pool = DescriptorPool::decode(logistics_proto::FILE_DESCRIPTOR_SET)
        .expect("the build wrote a valid descriptor set");
    let mut paths = serde_json::Map::new();
    let mut schemas = BTreeMap::new();
    for service in pool.services() {
        for method in service.methods() {
            let path = format!("/{}/{}", service.full_name(), method.name());
            let Some(rule) = rule(&path).filter(|r| !r.internal) else {
                continue;
            };
            if method.is_client_streaming()
                || method.is_server_streaming()
                || matches!(rule.audience, Audience::Anyone)
            {
                continue;
            }
            add_schema(&method.input(), &mut schemas);
            add_schema(&method.output(), &mut schemas);
            paths.insert(
                path,
                json!({
                    "post": {
                        "operationId": format!("{}.{}", service.name(), method.name()),
                        "tags": [service.name()],
                        "description": match rule.key_scope {
                            Some(scope) => format!("{} An API key needs the scope `{}`.", who(rule.audience), scope.as_str()),
                            None => who(rule.audience),
                        },
                        "security": security(rule.audience, rule.key_scope.is_some()),
                        "requestBody": {
                            "required": true,
                            "content": {"application/json": {"schema": reference(&method.input())}},
                        },
                        "responses": {
                            "200": {
                                "description": "The reply.",
                                "content": {"application/json": {"schema": reference(&method.output())}},
                            },
                            "default": {
                                "description": "A Connect error.",
                                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/connect.error"}}},
                            },
                        },
                    }
                }),
            );
        }
    }
    schemas.insert(
        "connect.error".into(),
        json!({
            "type": "object",
            "properties": {
                "code": {"type": "string", "examples": ["invalid_argument", "not_found", "unauthenticated"]},
                "message": {"type": "string"},
                "details": {"type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "type": {"type": "string"},
                        "value": {"type": "string", "contentEncoding": "base64"},
                        "debug": {"type": "object"},
                    },
                }},
            },
            "required": ["code"],
        }),
    );
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Logistics API",
            "version": "v1",
            "description": "Every method as Connect JSON: POST the request message as JSON with `Content-Type: application/json`. A call that needs a user is authorized by an API key (`Authorization: Bearer lk_…`, made on the API keys page, within its scopes) or by the session cookie SessionService/CreateSession sets.",
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "apiKey": {"type": "http", "scheme": "bearer", "description": "An API key: `lk_` and 43 characters."},
                "session": {"type": "apiKey", "in": "cookie", "name": crate::session::COOKIE_NAME},
            },
        },
    })
}

/// What authorizes a method: nothing for a public one, else a session, or also a key.
fn security(audience: Audience, keys: bool) -> Value {
    match audience {
        Audience::PublicLookup | Audience::Public(_) | Audience::Sessions | Audience::Anyone => {
            json!([])
        }
        _ if keys => json!([{"apiKey": []}, {"session": []}]),
        _ => json!([{"session": []}]),
    }
}

fn reference(message: &MessageDescriptor) -> Value {
    json!({ "$ref": format!("#/components/schemas/{}", message.full_name()) })
}

/// The schemas of `message` and of every message it holds, once each.
fn add_schema(message: &MessageDescriptor, schemas: &mut BTreeMap<String, Value>) {
    if schemas.contains_key(message.full_name()) {
        return;
    }
    if let Some(known) = well_known(message.full_name()) {
        schemas.insert(message.full_name().to_owned(), known);
        return;
    }
    // Claimed before its fields, so a message that holds itself ends.
    schemas.insert(message.full_name().to_owned(), Value::Null);
    let mut properties = serde_json::Map::new();
    for field in message.fields() {
        properties.insert(field.json_name().to_owned(), field_schema(&field, schemas));
    }
    schemas.insert(
        message.full_name().to_owned(),
        json!({"type": "object", "properties": properties, "additionalProperties": false}),
    );
}

/// The JSON mapping of the well-known types the API uses.
fn well_known(name: &str) -> Option<Value> {
    Some(match name {
        "google.protobuf.Timestamp" => json!({"type": "string", "format": "date-time"}),
        "google.protobuf.Duration" => json!({"type": "string", "examples": ["1.5s"]}),
        "google.protobuf.FieldMask" => json!({"type": "string", "examples": ["name,status"]}),
        "google.protobuf.Empty" => json!({"type": "object"}),
        _ => return None,
    })
}

fn field_schema(field: &FieldDescriptor, schemas: &mut BTreeMap<String, Value>) -> Value {
    if field.is_map() {
        let Kind::Message(entry) = field.kind() else {
            unreachable!("a map field's kind is its entry message")
        };
        let value = entry.map_entry_value_field();
        return json!({"type": "object", "additionalProperties": field_schema(&value, schemas)});
    }
    let single = match field.kind() {
        Kind::Double | Kind::Float => json!({"type": "number"}),
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => {
            json!({"type": "integer", "format": "int32"})
        }
        Kind::Uint32 | Kind::Fixed32 => json!({"type": "integer", "minimum": 0}),
        // The proto3 JSON mapping writes 64-bit integers as strings.
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 | Kind::Uint64 | Kind::Fixed64 => {
            json!({"type": "string", "format": "int64"})
        }
        Kind::Bool => json!({"type": "boolean"}),
        Kind::String => json!({"type": "string"}),
        Kind::Bytes => json!({"type": "string", "contentEncoding": "base64"}),
        Kind::Enum(e) => {
            json!({"type": "string", "enum": e.values().map(|v| v.name().to_owned()).collect::<Vec<_>>()})
        }
        Kind::Message(m) => {
            add_schema(&m, schemas);
            reference(&m)
        }
    };
    if field.is_list() {
        json!({"type": "array", "items": single})
    } else {
        single
    }
}
