//! `GET /exports/shipments.csv?…`: the shipments matching the list's filter as a CSV file.
//! A plain download, so the browser streams it to disk; the gateway passes the service's
//! chunks on as they come and holds a page at most, however many shipments there are.

use axum::body::Body;
use axum::extract::{ConnectInfo, Query, State};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use http::{HeaderMap, HeaderValue, StatusCode, header};
use logistics_proto::v1::{self as pb, shipment_service_client::ShipmentServiceClient};
use service_auth::{CALL_TOKEN_LIFETIME, NOT_PERMITTED, Permission, TokenKey};

use crate::access::Access;
use crate::rpc::TrustedProxies;
use crate::session;
use crate::upstream::Upstream;

pub const PATH: &str = "/exports/shipments.csv";

#[derive(Clone)]
pub struct Exports {
    pub access: Access,
    pub tokens: TokenKey,
    pub shipments: Upstream,
    pub proxies: TrustedProxies,
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
    let cookie = headers.get(header::COOKIE).and_then(|v| v.to_str().ok());
    let user = match exports
        .access
        .signed_in(session::id_from_cookies(cookie))
        .await
    {
        Ok(Some((_, user))) => user,
        Ok(None) => return plain(StatusCode::UNAUTHORIZED, "Please sign in."),
        Err(status) => return plain(StatusCode::SERVICE_UNAVAILABLE, status.message()),
    };
    if !user.may(Permission::ShipmentsExport) {
        return plain(StatusCode::FORBIDDEN, NOT_PERMITTED);
    }
    let list = match filter.request() {
        Ok(list) => list,
        Err(message) => return plain(StatusCode::BAD_REQUEST, &message),
    };
    let mut request = tonic::Request::new(pb::ExportShipmentsRequest { filter: Some(list) });
    let token = exports.tokens.mint(&user.caller(), CALL_TOKEN_LIFETIME);
    let metadata = request.metadata_mut();
    metadata.insert(
        "authorization",
        format!("Bearer {token}").parse().expect("a JWT is ASCII"),
    );
    let mut extensions = http::Extensions::new();
    extensions.insert(ConnectInfo(peer));
    if let Some(ip) = exports.proxies.client_ip(&headers, &extensions) {
        metadata.insert(
            audit::CLIENT_IP_METADATA,
            ip.to_string().parse().expect("an IP address is ASCII"),
        );
    }
    let mut stream = match ShipmentServiceClient::new(exports.shipments.clone())
        .export_shipments(request)
        .await
    {
        Ok(reply) => reply.into_inner(),
        Err(status) => return refused(&status),
    };
    // The first chunk (the header row and first page) says whether the export works at all.
    let first = match stream.message().await {
        Ok(first) => first,
        Err(status) => return refused(&status),
    };
    let chunks = futures::stream::iter(first.map(Ok))
        .chain(stream)
        .map(|chunk| chunk.map(|c| bytes::Bytes::from(c.csv)));
    let filename = format!(
        "attachment; filename=\"shipments-{}.csv\"",
        chrono::Utc::now().format("%Y-%m-%d")
    );
    tracing::info!(user = %user.email, "shipments exported");
    let mut response = Response::new(Body::from_stream(chunks));
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    h.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&filename).expect("ASCII"),
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
        _ => StatusCode::SERVICE_UNAVAILABLE,
    };
    plain(code, status.message())
}
