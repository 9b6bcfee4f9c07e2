//! Files through the gateway: the CSV export, import parts and photos within their limits, and
//! the import report.

use crate::common;

use logistics_proto::v1 as pb;
use prost::Message;

use crate::calls::*;
use common::site::{ADMIN_EMAIL, ADMIN_PASSWORD, CLERK_EMAIL, Site, distributed};
use common::wire::demo_shipment;

/// The export: a staff member who may export gets every matching shipment as CSV, with
/// formulas escaped; others are refused, and a bad filter is named.
async fn the_export_streams_matching_shipments_as_csv(site: &Site) {
    let shipment = demo_shipment(&site.store).await;
    let formula: shipments::store::Edit = std::sync::Arc::new(|s| {
        s.details.shipper_name = "=HYPERLINK(\"http://evil.example\")".into();
        Ok(Default::default())
    });
    site.store.update(&shipment.id, formula).await.unwrap();
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let get = |query: &str, cookie: Option<&str>| {
        let mut request =
            reqwest::Client::new().get(format!("{}/exports/shipments.csv{query}", site.base));
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        request.send()
    };

    let reply = get("", Some(&admin)).await.unwrap();
    assert_eq!(reply.status(), 200);
    assert_eq!(reply.headers()["content-type"], "text/csv; charset=utf-8");
    assert!(
        reply.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .starts_with("attachment; filename=\"shipments-")
    );
    let bytes = reply.bytes().await.unwrap();
    assert!(
        bytes.starts_with(shipments::export::BOM),
        "UTF-8 with a BOM"
    );
    let mut rows = csv::Reader::from_reader(&bytes[..]);
    let header: Vec<String> = rows.headers().unwrap().iter().map(str::to_owned).collect();
    assert_eq!(header, shipments::export::COLUMNS);
    let records: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    let total = site
        .store
        .list(&shipments::store::ListQuery {
            page_size: 100,
            ..Default::default()
        })
        .await
        .unwrap()
        .total;
    assert_eq!(records.len() as u64, total, "every shipment, once");
    let row = records
        .iter()
        .find(|r| &r[0] == shipment.tracking_number.as_str())
        .unwrap();
    assert_eq!(
        &row[2], "'=HYPERLINK(\"http://evil.example\")",
        "a formula is text"
    );

    let status = shipment.status.as_str();
    let filtered = get(
        &format!("?status={status}&sort=expected_delivery_date"),
        Some(&admin),
    )
    .await
    .unwrap()
    .text()
    .await
    .unwrap();
    let filtered: Vec<csv::StringRecord> = csv::Reader::from_reader(filtered.as_bytes())
        .records()
        .map(Result::unwrap)
        .collect();
    assert!(!filtered.is_empty() && filtered.iter().all(|r| &r[1] == status));

    let bad = get("?status=lost&from=yesterday", Some(&admin))
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    assert!(bad.text().await.unwrap().contains("status"));
    let bad_day = get("?from=2026-05-02&to=2026-05-01", Some(&admin))
        .await
        .unwrap();
    assert_eq!(bad_day.status(), 400);
    assert!(bad_day.text().await.unwrap().contains("create_date_to"));
    assert_eq!(get("", None).await.unwrap().status(), 401);
    let clerk = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    let refused = get("", Some(&clerk)).await.unwrap();
    assert_eq!(refused.status(), 403);
    assert_eq!(refused.text().await.unwrap(), service_auth::NOT_PERMITTED);
}

#[tokio::test]
async fn all_in_one_the_export_streams_matching_shipments_as_csv() {
    the_export_streams_matching_shipments_as_csv(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_the_export_streams_matching_shipments_as_csv() {
    the_export_streams_matching_shipments_as_csv(&distributed().await).await;
}

/// Files reach the shipments service through the gateway (a part of an import, a photo), with
/// limits of their own, and the report of an import is a download for importers only.
async fn files_pass_the_gateway_within_their_limits(site: &Site) {
    let admin = signed_in(site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let headers = [("cookie", admin.as_str())];
    let method = |name: &str| format!("logistics.v1.ShipmentService/{name}");
    let part = 1024 * 1024;
    let (created, _) = call(
        &site.base,
        &method("CreateShipmentImport"),
        pb::CreateShipmentImportRequest {
            file_name: "big.csv".into(),
            size_bytes: 3 * part as i64,
        }
        .encode_to_vec(),
        &headers,
    )
    .await;
    let created = pb::ShipmentImport::decode(created.body.unwrap()).unwrap();
    let append = |offset: usize, length: usize| {
        pb::AppendShipmentImportDataRequest {
            import_id: created.id.clone(),
            offset: offset as i64,
            data: vec![b'a'; length],
        }
        .encode_to_vec()
    };
    let (whole_part, _) = call(
        &site.base,
        &method("AppendShipmentImportData"),
        append(0, part),
        &headers,
    )
    .await;
    assert_eq!(whole_part.grpc_status, Some(0), "{}", whole_part.message);
    let (too_big, _) = call(
        &site.base,
        &method("AppendShipmentImportData"),
        append(part, 2 * part),
        &headers,
    )
    .await;
    assert_eq!(
        too_big.grpc_status,
        Some(tonic::Code::ResourceExhausted as i32)
    );

    let report = |id: &str, cookie: Option<&str>| {
        let mut request =
            reqwest::Client::new().get(format!("{}/exports/imports/{id}/rejected.csv", site.base));
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        request.send()
    };
    assert_eq!(
        report(&created.id, Some(&admin)).await.unwrap().status(),
        409,
        "not run yet"
    );
    assert_eq!(
        report("nosuchimport", Some(&admin)).await.unwrap().status(),
        404
    );
    assert_eq!(report(&created.id, None).await.unwrap().status(), 401);
    let clerk = signed_in(site, CLERK_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(
        report(&created.id, Some(&clerk)).await.unwrap().status(),
        403
    );

    // A photo over 8 MB reaches the service, which names the field; far larger stops here.
    let photo = |bytes: usize| {
        pb::RecordProofOfDeliveryRequest {
            id: "someshipment".into(),
            recipient_name: "Jan".into(),
            photo: vec![0xFF; bytes],
            ..Default::default()
        }
        .encode_to_vec()
    };
    let (named, _) = call(
        &site.base,
        &method("RecordProofOfDelivery"),
        photo(8_500_000),
        &headers,
    )
    .await;
    assert_eq!(named.grpc_status, Some(tonic::Code::InvalidArgument as i32));
    assert!(
        named.message.contains("photo: must be at most 8 MB"),
        "{}",
        named.message
    );
    let (huge, _) = call(
        &site.base,
        &method("RecordProofOfDelivery"),
        photo(50_000_000),
        &headers,
    )
    .await;
    assert_eq!(
        huge.grpc_status,
        Some(tonic::Code::ResourceExhausted as i32)
    );
    let (clerk_call, _) = call(
        &site.base,
        &method("RecordProofOfDelivery"),
        photo(10),
        &[("cookie", clerk.as_str())],
    )
    .await;
    assert_eq!(
        clerk_call.grpc_status,
        Some(tonic::Code::PermissionDenied as i32)
    );
}

#[tokio::test]
async fn all_in_one_files_pass_the_gateway_within_their_limits() {
    files_pass_the_gateway_within_their_limits(&all_in_one(60).await).await;
}

#[tokio::test]
async fn distributed_files_pass_the_gateway_within_their_limits() {
    files_pass_the_gateway_within_their_limits(&distributed().await).await;
}
