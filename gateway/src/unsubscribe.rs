//! One-click unsubscribe (RFC 8058). A subscriber's update e-mail names the tracking page with
//! `?unsubscribe=<signed token>` in `List-Unsubscribe`, and says `List-Unsubscribe-Post:
//! List-Unsubscribe=One-Click`; the mail client then POSTs `List-Unsubscribe=One-Click` to that
//! URL, with no cookie and from no page of ours. The signed token alone says who leaves which
//! shipment, so no session or same-site check applies. A GET of the URL still gets the page.

use std::sync::Arc;

use axum::extract::{Query, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{Method, StatusCode, header};
use logistics_proto::v1::{self as pb, shipment_service_client::ShipmentServiceClient};

use crate::limits::RateLimit;
use crate::rpc::{TOO_MANY_LOOKUPS, TrustedProxies};
use crate::upstream::Upstream;

/// A one-click body is one short form field; anything longer is not one.
const MAX_BODY_BYTES: usize = 1024;

#[derive(Clone)]
pub struct OneClick {
    pub shipments: Upstream,
    /// The limit of the other public tracking calls, per client.
    pub limit: Arc<RateLimit>,
    pub proxies: TrustedProxies,
}

#[derive(serde::Deserialize)]
struct Link {
    unsubscribe: String,
}

/// `/track/{number}` or `/{language}/track/{number}`: the tracking page an unsubscribe link opens.
fn is_tracking_page(path: &str) -> bool {
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    matches!(
        segments.as_slice(),
        ["track", number] | [_, "track", number] if !number.is_empty()
    )
}

/// Whether `body` is the one-click form: `List-Unsubscribe=One-Click`, URL-encoded or as
/// multipart/form-data.
fn is_one_click(content_type: &str, body: &[u8]) -> bool {
    let body = String::from_utf8_lossy(body);
    if content_type.starts_with("multipart/form-data") {
        return body.contains("name=\"List-Unsubscribe\"") && body.contains("One-Click");
    }
    body.split('&')
        .any(|pair| pair.trim() == "List-Unsubscribe=One-Click")
}

fn plain(status: StatusCode, message: &str) -> Response {
    (
        status,
        [(header::CACHE_CONTROL, "no-store")],
        message.to_owned(),
    )
        .into_response()
}

/// Answers a POST to an unsubscribe link; passes every other request on.
pub async fn one_click(State(state): State<OneClick>, request: Request, next: Next) -> Response {
    if request.method() != Method::POST || !is_tracking_page(request.uri().path()) {
        return next.run(request).await;
    }
    let Ok(Query(link)) = Query::<Link>::try_from_uri(request.uri()) else {
        return next.run(request).await;
    };
    let key = state
        .proxies
        .client_key(request.headers(), request.extensions());
    // Fails open, as the other public calls do.
    if !state.limit.hit(&key).await.unwrap_or(true) {
        return plain(StatusCode::TOO_MANY_REQUESTS, TOO_MANY_LOOKUPS);
    }
    let content_type = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let Ok(body) = axum::body::to_bytes(request.into_body(), MAX_BODY_BYTES).await else {
        return plain(
            StatusCode::PAYLOAD_TOO_LARGE,
            "A one-click unsubscribe is the form field List-Unsubscribe=One-Click.",
        );
    };
    if !is_one_click(&content_type, &body) {
        return plain(
            StatusCode::BAD_REQUEST,
            "A one-click unsubscribe posts List-Unsubscribe=One-Click.",
        );
    }
    let answer = ShipmentServiceClient::new(state.shipments.clone())
        .delete_shipment_subscription(pb::DeleteShipmentSubscriptionRequest {
            token: link.unsubscribe,
        })
        .await;
    match answer {
        Ok(_) => {
            tracing::info!("unsubscribed in one click");
            plain(StatusCode::OK, "You are unsubscribed.")
        }
        Err(status) if status.code() == tonic::Code::InvalidArgument => plain(
            StatusCode::BAD_REQUEST,
            "This unsubscribe link is not valid.",
        ),
        Err(status) => {
            tracing::warn!(error = %status.message(), "one-click unsubscribe failed");
            plain(
                StatusCode::SERVICE_UNAVAILABLE,
                "Unsubscribing failed; please try again later.",
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_tracking_pages_and_the_one_click_form_count() {
        assert!(is_tracking_page("/track/PSE123456789"));
        assert!(is_tracking_page("/es/track/PSE123456789"));
        assert!(!is_tracking_page("/track/"));
        assert!(!is_tracking_page(
            "/logistics.v1.ShipmentService/DeleteShipmentSubscription"
        ));
        assert!(!is_tracking_page("/a/b/track/PSE123456789"));
        assert!(is_one_click(
            "application/x-www-form-urlencoded",
            b"List-Unsubscribe=One-Click"
        ));
        assert!(is_one_click(
            "multipart/form-data; boundary=x",
            b"--x\r\nContent-Disposition: form-data; name=\"List-Unsubscribe\"\r\n\r\nOne-Click\r\n--x--"
        ));
        assert!(!is_one_click("application/x-www-form-urlencoded", b""));
        assert!(!is_one_click("text/plain", b"List-Unsubscribe=Maybe"));
    }
}
