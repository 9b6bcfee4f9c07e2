//! `GET /exports/shipments.csv?…`: the shipments matching the list's filter as a CSV file;
//! `GET /exports/portal/shipments.csv?…`: the same of a customer's user's own shipments;
//! and `GET /exports/imports/{id}/rejected.csv`: the rows an import rejected.
//! A plain download, so the browser streams it to disk; the gateway passes the service's
//! chunks on as they come and holds a page at most, however many shipments there are.

use axum::body::Body;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use http::{HeaderMap, HeaderValue, StatusCode, header};
use logistics_proto::v1::{
    self as pb, customer_portal_service_client::CustomerPortalServiceClient,
    shipment_service_client::ShipmentServiceClient,
};
use service_auth::access::{Audience, KeyScope};
use service_auth::{CALL_TOKEN_LIFETIME, Caller, CustomerScope, Permission, TokenKey};

use crate::access::Access;
use crate::rpc::TrustedProxies;
use crate::upstream::Upstream;

pub const PATH: &str = "/exports/shipments.csv";

#[derive(Clone)]
pub struct Exports {
    pub access: Access,
    pub tokens: TokenKey,
    pub shipments: Upstream,
    pub proxies: TrustedProxies,
    /// For the labels: their tracking links' site and their sender.
    pub public_url: String,
    pub company_name: String,
}

/// The list's filter, as the admin's address bar has it.
#[derive(serde::Deserialize, Default)]
#[serde(default)]
pub struct Filter {
    /// A status as stored (`in_transit`); empty for all.
    status: String,
    q: String,
    /// `YYYY-MM-DD`, both days included.
    from: String,
    to: String,
    late: bool,
    sort: String,
    /// A customer's id: only that customer's shipments.
    customer: String,
}

fn plain(status: StatusCode, message: &str) -> Response {
    (
        status,
        [(header::CACHE_CONTROL, "no-store")],
        message.to_owned(),
    )
        .into_response()
}

fn date(text: &str) -> Option<pb::Date> {
    let day = chrono::NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d").ok()?;
    use chrono::Datelike;
    Some(pb::Date {
        year: day.year(),
        month: day.month() as i32,
        day: day.day() as i32,
    })
}

impl Filter {
    /// The list request it stands for; a bad value is passed on for the service to name.
    fn request(&self) -> Result<pb::ListShipmentsRequest, String> {
        let status = match self.status.trim() {
            "" | "all" => 0,
            name => pb::ShipmentStatus::from_str_name(&format!(
                "SHIPMENT_STATUS_{}",
                name.to_ascii_uppercase()
            ))
            .ok_or_else(|| format!("status: {name:?} is not a status"))? as i32,
        };
        let day = |field: &str, text: &str| match text.trim() {
            "" => Ok(None),
            t => date(t)
                .map(Some)
                .ok_or_else(|| format!("{field}: {t:?} is not a date (YYYY-MM-DD)")),
        };
        Ok(pb::ListShipmentsRequest {
            status,
            query: self.q.clone(),
            create_date_from: day("from", &self.from)?,
            create_date_to: day("to", &self.to)?,
            late: self.late,
            order_by: self.sort.clone(),
            customer_id: self.customer.clone(),
            ..Default::default()
        })
    }
}

pub async fn shipments_csv(
    State(exports): State<Exports>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    headers: HeaderMap,
    Query(filter): Query<Filter>,
) -> Response {
    exports
        .shipments_csv(peer, &headers, &filter, Exporter::Staff)
        .await
}

pub const PORTAL_PATH: &str = "/exports/portal/shipments.csv";

/// `GET /exports/portal/shipments.csv?…`: the portal list's filter (its `customer` is the
/// caller's own, whatever the address says).
pub async fn portal_shipments_csv(
    State(exports): State<Exports>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    headers: HeaderMap,
    Query(filter): Query<Filter>,
) -> Response {
    exports
        .shipments_csv(peer, &headers, &filter, Exporter::Portal)
        .await
}

/// Who asks for an export (or labels), and so which service answers it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Exporter {
    /// Staff with shipments.export: ShipmentService.
    Staff,
    /// A customer's user: CustomerPortalService, which holds them to their customer.
    Portal,
}

pub const REJECTED_PATH: &str = "/exports/imports/{id}/rejected.csv";

/// `GET /exports/imports/{id}/rejected.csv`: the rows an import rejected, with the reasons.
pub async fn rejected_rows_csv(
    State(exports): State<Exports>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let (_, metadata) = match exports
        .caller(peer, &headers, Exporter::Staff, Permission::ShipmentsImport)
        .await
    {
        Ok(caller) => caller,
        Err(refusal) => return refusal,
    };
    let request = tonic::Request::from_parts(
        metadata,
        http::Extensions::new(),
        pb::ExportShipmentImportRejectionsRequest {
            import_id: id.clone(),
        },
    );
    let stream = ShipmentServiceClient::new(exports.shipments.clone())
        .export_shipment_import_rejections(request)
        .await;
    let safe: String = id
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(64)
        .collect();
    download(stream, &format!("rejected-rows-{safe}.csv")).await
}

impl Exports {
    /// The shipments `filter` matches as a CSV download, for `exporter`.
    async fn shipments_csv(
        &self,
        peer: std::net::SocketAddr,
        headers: &HeaderMap,
        filter: &Filter,
        exporter: Exporter,
    ) -> Response {
        let (user, metadata) = match self
            .caller(peer, headers, exporter, Permission::ShipmentsExport)
            .await
        {
            Ok(caller) => caller,
            Err(refusal) => return refusal,
        };
        let list = match filter.request() {
            Ok(list) => list,
            Err(message) => return plain(StatusCode::BAD_REQUEST, &message),
        };
        let request = tonic::Request::from_parts(
            metadata,
            http::Extensions::new(),
            pb::ExportShipmentsRequest { filter: Some(list) },
        );
        let stream = match exporter {
            Exporter::Staff => {
                ShipmentServiceClient::new(self.shipments.clone())
                    .export_shipments(request)
                    .await
            }
            Exporter::Portal => {
                CustomerPortalServiceClient::new(self.shipments.clone())
                    .export_shipments(request)
                    .await
            }
        };
        tracing::info!(user = %user.email, "shipments exported");
        let filename = format!("shipments-{}.csv", chrono::Utc::now().format("%Y-%m-%d"));
        download(stream, &filename).await
    }

    /// The caller `exporter` admits (by session or API key), and the metadata of a call made
    /// for them; `staff` is the permission staff need.
    pub(crate) async fn caller(
        &self,
        peer: std::net::SocketAddr,
        headers: &HeaderMap,
        exporter: Exporter,
        staff: Permission,
    ) -> Result<(Caller, tonic::metadata::MetadataMap), Response> {
        let (audience, scope) = match exporter {
            Exporter::Staff => (Audience::Staff(staff), KeyScope::Staff(staff)),
            Exporter::Portal => (
                Audience::Customer { admin: false },
                KeyScope::Customer(CustomerScope::ShipmentsRead),
            ),
        };
        let caller = match self.access.admit(headers, audience, Some(scope)).await {
            Ok(admitted) => admitted.caller(),
            Err(status) => return Err(refused(&status)),
        };
        let mut metadata = tonic::metadata::MetadataMap::new();
        let token = self.tokens.mint(&caller, CALL_TOKEN_LIFETIME);
        metadata.insert(
            "authorization",
            format!("Bearer {token}").parse().expect("a JWT is ASCII"),
        );
        let mut extensions = http::Extensions::new();
        extensions.insert(ConnectInfo(peer));
        if let Some(ip) = self.proxies.client_ip(headers, &extensions) {
            metadata.insert(
                audit::CLIENT_IP_METADATA,
                ip.to_string().parse().expect("an IP address is ASCII"),
            );
        }
        Ok((caller, metadata))
    }
}

/// A CSV download of a streamed answer: its first chunk decides between the file and an error.
async fn download(
    reply: Result<tonic::Response<tonic::Streaming<pb::ExportShipmentsResponse>>, tonic::Status>,
    filename: &str,
) -> Response {
    let mut stream = match reply {
        Ok(reply) => reply.into_inner(),
        Err(status) => return refused(&status),
    };
    let first = match stream.message().await {
        Ok(first) => first,
        Err(status) => return refused(&status),
    };
    let chunks = futures::stream::iter(first.map(Ok))
        .chain(stream)
        .map(|chunk| chunk.map(|c| bytes::Bytes::from(c.csv)));
    let mut response = Response::new(Body::from_stream(chunks));
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    h.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&format!("attachment; filename=\"{filename}\"")).expect("ASCII"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// An export the service refused before its first row.
fn refused(status: &tonic::Status) -> Response {
    let code = match status.code() {
        tonic::Code::InvalidArgument => StatusCode::BAD_REQUEST,
        tonic::Code::PermissionDenied => StatusCode::FORBIDDEN,
        tonic::Code::Unauthenticated => StatusCode::UNAUTHORIZED,
        tonic::Code::NotFound => StatusCode::NOT_FOUND,
        tonic::Code::ResourceExhausted => StatusCode::TOO_MANY_REQUESTS,
        tonic::Code::FailedPrecondition => StatusCode::CONFLICT,
        _ => StatusCode::SERVICE_UNAVAILABLE,
    };
    plain(code, status.message())
}
